"""Reinforcement-learning environments for Congo, one module per framework, each behind its extra:

* :mod:`congo.envs.pettingzoo` — a two-agent PettingZoo AEC environment
  (``pip install 'congo-chess[pettingzoo]'``);
* :mod:`congo.envs.gymnasium` — a single-agent Gymnasium environment against a built-in opponent
  (``pip install 'congo-chess[gymnasium]'``);
* :mod:`congo.envs.openspiel` — the game ``python_congo`` for OpenSpiel
  (``pip install 'congo-chess[openspiel]'``).

All three play :class:`congo.learning.GameState`: observations are the planes of
:func:`congo.encode`, actions the fixed action space of :mod:`congo.learning` (``docs/learning.md``).
``import congo`` imports none of them.
"""
