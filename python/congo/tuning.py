"""The hand-written evaluation as data, for fitting its weights (``benches/tuning/texel.py``) or
features of your own: each position's feature counts, the weights they are multiplied by, and the
rule that the evaluation is their dot product.

>>> from congo import tuning
>>> names, weights = tuning.eval_feature_names(), tuning.eval_weights()
>>> len(names) == len(weights)
True
>>> out = tuning.eval_features(["gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1"])
>>> out["eval"] == [weights[names.index("tempo")]]   # only the side to move differs at the start
True

These read the hand-written evaluation (the engine's ``nnue=0``), whatever the engine's default;
``congo.Engine(options={"nnue": 0}).evaluate(board)`` gives the same score as ``eval``.
"""

from __future__ import annotations

from typing import Any

from congo import _core

__all__ = ["eval_feature_names", "eval_features", "eval_weights"]


def eval_feature_names() -> list[str]:
    """The name of each feature of the hand-written evaluation, in the order of its weights."""
    return _core.eval_feature_names()


def eval_weights() -> list[int]:
    """The hand-written evaluation's weights, one per feature of :func:`eval_feature_names`, in
    centipawns."""
    return _core.eval_weights()


def eval_features(fens: list[str]) -> dict[str, Any]:
    """The features of each position (FEN strings), computed in the core with the GIL released: a dict
    with ``features`` (bytes: little-endian int16, one row of ``len(eval_feature_names())`` per
    position), ``eval`` (each static evaluation from the side to move's view, equal to its row's dot
    product with :func:`eval_weights`) and ``quiet`` (the side to move's lion is not attacked, it
    has no capture or promotion, and the game is not over). Raises ``InvalidFenError`` for a bad
    FEN."""
    return _core.eval_features(fens)
