"""Congo as a single-agent Gymnasium environment: the agent plays one colour against a built-in
opponent.

>>> from congo.envs.gymnasium import CongoEnv
>>> env = CongoEnv(opponent="random")
>>> observation, info = env.reset(seed=0)
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((23, 7, 7), 24)

* Observation: ``{"observation": uint8 planes (23, 7, 7), "action_mask": int8 (1961,)}`` as in
  :mod:`congo.envs.pettingzoo`; :meth:`CongoEnv.action_masks` returns the mask alone (the
  convention of maskable agents such as sb3-contrib's ``MaskablePPO``).
* Actions: ``Discrete(1961)`` (:mod:`congo.learning`); a monkey chain takes one step per jump and
  ends with ``STOP_ACTION``. An illegal action ends the episode with reward -1 and
  ``info["illegal_action"] = True``.
* Reward: +1 for a win, -1 for a loss, 0 for a draw, at the end of the episode. A game drawn at
  ``max_plies`` moves is truncated; every other end terminates.
* ``perspective="side_to_move"`` shows the board from the agent's side when it plays Black, and
  reads its actions in that frame (``congo.learning.PERSPECTIVES``); the default is White's side.
* Opponents: any player of ``congo match`` — ``"random"``, ``"greedy"``, ``"alphabeta:depth=2"``
  (depth at most :data:`MAX_ALPHABETA_DEPTH`), ``"engine:nodes=2000"``; seeded by
  ``reset(seed=...)``.
* Start position: ``reset(options={"fen": FEN})``, or ``{"board": congo.Board}`` (its current
  position) or ``{"position": congo.Position}``; if the agent's colour is not to move there, the
  opponent moves first. Any other key is a ``ValueError``, and so is a position where the game is
  already over, or one where the opponent moves first and one of its moves ends the game (a lion
  capture, or the ``max_plies`` limit): ``reset`` never hands out an episode that is over before
  the agent acts, whichever move the opponent would choose.

Needs ``pip install 'congo-chess[gymnasium]'``.
"""

from __future__ import annotations

from typing import Any, SupportsFloat, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from congo import players
from congo.board import Board
from congo.envs import _spaces, _start
from congo.envs._vector import CongoVectorEnv
from congo.learning import NUM_ACTIONS, GameState

__all__ = ["ENV_ID", "MAX_ALPHABETA_DEPTH", "CongoEnv", "CongoVectorEnv"]

Observation = _spaces.Observation

MAX_ALPHABETA_DEPTH: int = players.MAX_ALPHABETA_DEPTH
"""The deepest ``alphabeta`` opponent (``congo.players.MAX_ALPHABETA_DEPTH``, checked by
:func:`congo.players.parse_player`): deeper searches take minutes a move in Python."""


class CongoEnv(gymnasium.Env[Observation, np.int64]):
    """The agent plays ``agent_color`` (``"white"`` or ``"black"``) against ``opponent``."""

    metadata = {"render_modes": _spaces.RENDER_MODES, "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        opponent: str = "random",
        agent_color: str = "white",
        max_plies: int = 300,
        render_mode: str | None = None,
        perspective: str = "white",
    ) -> None:
        if agent_color not in ("white", "black"):
            raise ValueError(f"agent_color must be 'white' or 'black', got {agent_color!r}")
        self.side_to_move = _spaces.check_arguments(render_mode, max_plies, perspective)
        self.opponent_name, self._opponent_factory = players.parse_player(opponent)
        self.agent_white = agent_color == "white"
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.observation_space = cast("spaces.Space[Observation]", _spaces.observation_space())
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.game = GameState(max_plies=max_plies)
        self._board = Board()
        self._opponent = self._opponent_factory(0)
        self._forfeited = False

    def _observation(self) -> Observation:
        return _spaces.observation(self.game, side_to_move=self.side_to_move)

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal-action mask (all zeros once the episode is over), in the perspective's frame."""
        return _spaces.action_mask(self.game, self.side_to_move)

    def _info(self) -> dict[str, Any]:
        return {"plies": self.game.plies, "end": self.game.end, "chain": self.game.chain}

    def _opponent_moves(self) -> None:
        while not self.game.is_over() and self.game.turn != self.agent_white:
            move = self._opponent.choose(self._board)
            self.game.push(move)
            self._board.push(move)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new episode: from the start position of ``options`` (see the module docs), or the
        usual one. Raises ``ValueError`` for an unknown option key, a finished start position, or
        one the opponent, moving first, can end with that move."""
        start = _start.start_position(options)
        game = _start.new_game(start, self.max_plies)
        _start.check_first_move(game, self.agent_white)
        super().reset(seed=seed)
        self.game = game
        self._board = Board() if start is None else Board.from_position(start)
        self._close_opponent()
        self._opponent = self._opponent_factory(int(self.np_random.integers(2**31)))
        self._opponent.new_game()
        self._forfeited = False
        self._opponent_moves()
        return self._observation(), self._info()

    def _reward(self) -> float:
        winner = self.game.winner
        if winner is None:
            return 0.0
        return 1.0 if winner == self.agent_white else -1.0

    def step(self, action: np.int64 | int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.game.is_over() or self._forfeited:
            raise RuntimeError("the episode is over: call reset()")
        action = int(action)
        mask = self.game.action_mask(side_to_move=self.side_to_move)
        if not 0 <= action < NUM_ACTIONS or not mask[action]:
            self._forfeited = True
            info = self._info() | {"illegal_action": True}
            return self._observation(), -1.0, True, False, info
        plies = self.game.plies
        self.game.apply(_spaces.game_action(self.game, action, self.side_to_move))
        if self.game.plies > plies:
            self._board.push(self.game.move_stack()[-1])
            self._opponent_moves()
        over = self.game.is_over()
        truncated = over and self.game.end == "move_limit"
        reward = self._reward() if over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, over and not truncated, truncated, self._info()

    def _close_opponent(self) -> None:
        self._opponent.close()  # an outside engine's process; nothing for the others

    def close(self) -> None:
        """Ends the opponent's engine process, if it runs one."""
        self._close_opponent()
        super().close()

    def render(self) -> Any:
        return _spaces.render(self.game, self.render_mode)


ENV_ID = "congo/Congo-v0"
"""The id under which :class:`CongoEnv` is registered: ``gymnasium.make("congo/Congo-v0", opponent=...)``
once this module is imported; after ``import gymnasium`` alone, ``gymnasium.make(
"congo.envs.gymnasium:congo/Congo-v0")`` imports it first (Gymnasium 1.0 loads no entry-point
plugins, so the package cannot register itself on ``import gymnasium``)."""

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="congo.envs.gymnasium:CongoEnv")
