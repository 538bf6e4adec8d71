"""Congo as a PettingZoo AEC environment: two agents, ``"player_0"`` (White)
and ``"player_1"`` (Black), PettingZoo's usual names.

>>> from congo.envs.pettingzoo import env
>>> e = env()
>>> e.reset(seed=1)
>>> observation, reward, termination, truncation, info = e.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((23, 7, 7), 24)

* Observation: ``{"observation": uint8 planes (23, 7, 7), "action_mask": int8 (1961,)}``; the
  planes are :func:`congo.encode`'s (the same for both agents, White's orientation, with a
  side-to-move plane); the mask is all zeros for the agent not acting.
* Actions: ``Discrete(1961)`` (:mod:`congo.learning`). A monkey chain is one action per jump: the
  same agent acts again until it plays ``STOP_ACTION`` (1960) or no jump is left.
* Rewards: +1 / -1 to the winner / loser when the game ends, 0 otherwise. A game ends by the rules
  (termination), by the third occurrence of a position (a draw, termination) or at ``max_plies``
  moves (a draw, truncation).
* ``perspective="side_to_move"``: the planes and the mask seen from the side to move (the board
  turned around when Black acts; ``congo.learning.PERSPECTIVES``), and the acting agent's action
  read in that frame. The default is White's side for both agents.
* Rendering: ``"ansi"`` (text), ``"rgb_array"`` (a 336×336 RGB image), ``"human"`` (prints the text).
* Start position: ``reset(options={"fen": FEN})``, or ``{"board": congo.Board}`` (its current
  position) or ``{"position": congo.Position}``; the agent of the side to move acts first. Another
  key is a ``ValueError`` (except ``"options"``, which PettingZoo's ``api_test`` sends to see that
  ``reset`` takes options), and so is a position where the game is already over.

:func:`env` wraps :class:`raw_env` in PettingZoo's usual wrappers: an illegal action ends the game
with reward -1 for the agent that played it.

Needs ``pip install 'congo-chess[pettingzoo]'``.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from congo.envs import _spaces, _start
from congo.learning import NUM_ACTIONS, GameState

__all__ = ["env", "raw_env"]

_AGENTS = ["player_0", "player_1"]
_WHITE, _BLACK = _AGENTS

_IGNORED_OPTIONS = ("options",)
"""Keys of ``reset(options=...)`` accepted without meaning: PettingZoo's ``api_test`` sends
``{"options": 1}`` to check that ``reset`` takes options."""


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's standard wrappers (illegal actions lose; actions checked
    to be in range; the AEC call order enforced). Takes :class:`raw_env`'s arguments."""
    environment = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


class raw_env(AECEnv):  # type: ignore[misc]
    """The unwrapped AEC environment. ``max_plies`` moves end the game in a draw (truncation)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads this class attribute)
        "render_modes": _spaces.RENDER_MODES,
        "name": "congo_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self, render_mode: str | None = None, max_plies: int = 300, perspective: str = "white"
    ) -> None:
        super().__init__()
        self.side_to_move = _spaces.check_arguments(render_mode, max_plies, perspective)
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.possible_agents = list(_AGENTS)
        self.agents = list(_AGENTS)
        observation = _spaces.observation_space()
        self.observation_spaces = {agent: observation for agent in _AGENTS}
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in _AGENTS}
        self.game = GameState(max_plies=max_plies)
        self._reset_state()

    def _reset_state(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = _WHITE if self.game.turn else _BLACK

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        acting = agent == self.agent_selection and not self.game.is_over()
        return _spaces.observation(self.game, acting=acting, side_to_move=self.side_to_move)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: from the start position of ``options`` (see the module docs), or the usual
        one. Raises ``ValueError`` for an unknown option key or a finished start position."""
        start = _start.start_position(options, ignored=_IGNORED_OPTIONS)
        game = _start.new_game(start, self.max_plies)
        if seed is not None:
            for agent in _AGENTS:
                self.action_spaces[agent].seed(seed)
        self.game = game
        self._reset_state()

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = operator.index(action)  # TypeError for a float or a string
        if not 0 <= action < NUM_ACTIONS:
            raise ValueError(f"action must be in 0 … {NUM_ACTIONS - 1}, got {action}")
        self._cumulative_rewards[agent] = 0.0
        # IllegalMoveError for an illegal action (env() wraps that).
        self.game.apply(_spaces.game_action(self.game, action, self.side_to_move))
        if self.game.is_over():
            winner = self.game.winner
            for name in self.agents:
                won = winner is not None and (name == _WHITE) == winner
                lost = winner is not None and not won
                self.rewards[name] = 1.0 if won else (-1.0 if lost else 0.0)
                if self.game.end == "move_limit":
                    self.truncations[name] = True
                else:
                    self.terminations[name] = True
                self.infos[name] = {"end": self.game.end}
        else:
            self.agent_selection = _WHITE if self.game.turn else _BLACK
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        return _spaces.render(self.game, self.render_mode)

    def close(self) -> None:
        pass
