"""Congo for OpenSpiel, through pyspiel's Python-game interface: importing this module registers
the game ``"python_congo"``.

>>> import pyspiel
>>> import congo.envs.openspiel
>>> game = pyspiel.load_game("python_congo")
>>> state = game.new_initial_state()
>>> len(state.legal_actions()), game.num_distinct_actions()
(24, 1961)

Actions are those of :mod:`congo.learning` (a monkey chain is one action per jump, the same player
acting until it plays ``STOP_ACTION``); player 0 is White, player 1 Black. The observation tensor is
:func:`congo.encode`'s planes as float32, shape ``(23, 7, 7)``. Returns are +1 / -1 / 0 at the end.
Parameter ``max_plies`` (default 300) draws a game after that many moves; a third occurrence of a
position draws at once. Parameter ``fen`` (default ``""``: the usual start) starts every game from
a position, ``pyspiel.load_game("python_congo", {"fen": FEN})``; ``game.new_initial_state(FEN)``
starts one state from another position.

:class:`EngineBot` is the built-in engine as an OpenSpiel bot, so that it can meet OpenSpiel's own
bots (``open_spiel.python.algorithms.mcts.MCTSBot``) through ``pyspiel.evaluate_bots``.

Needs ``pip install 'congo-chess[openspiel]'``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from congo import _core
from congo._core import Position
from congo.board import Board
from congo.engine import Engine, Limit
from congo.envs import _start
from congo.envs import render as _render
from congo.learning import NUM_ACTIONS, NUM_PLANES, action_name

__all__ = ["GAME_NAME", "CongoGame", "CongoState", "EngineBot"]

GAME_NAME = "python_congo"

_DEFAULT_MAX_PLIES = _core.DEFAULT_MAX_PLIES
# A move is at most a 33-jump chain and STOP.
_MAX_ACTIONS_PER_MOVE = 34

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Congo",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"max_plies": _DEFAULT_MAX_PLIES, "fen": ""},
)

_MAX_PLIES = (2**31 - 1) // _MAX_ACTIONS_PER_MOVE
"""The largest ``max_plies``: OpenSpiel's ``max_game_length`` (a 32-bit int) must bound the actions."""


def _start_position(fen: object) -> Position | None:
    """The position of a ``fen`` parameter (``""``: the usual start). Raises ``TypeError`` for a
    value that is not a string and :class:`~congo.InvalidFenError` for a bad FEN."""
    if not isinstance(fen, str):
        raise TypeError(f"fen must be a FEN string, got {type(fen).__name__}")
    return Position(fen) if fen.strip() else None


class CongoGame(pyspiel.Game):  # type: ignore[misc]
    """The game ``python_congo``; ``params={"max_plies": N}`` sets the draw limit,
    ``params={"fen": FEN}`` the start position. Raises ``ValueError`` for a ``max_plies`` out of
    range, a bad FEN or a start position where the game is already over."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        max_plies = _start.check_max_plies(params.get("max_plies", _DEFAULT_MAX_PLIES), limit=_MAX_PLIES)
        fen = params.get("fen", "")
        self.start = _start_position(fen)
        _start.new_game(self.start, max_plies)  # checks that there is a game to play
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_plies * _MAX_ACTIONS_PER_MOVE,
        )
        super().__init__(_GAME_TYPE, info, {"max_plies": max_plies, "fen": fen})
        self.max_plies = max_plies

    def new_initial_state(self, fen: str | None = None) -> CongoState:
        """A state at the game's start position, or at ``fen``. Raises ``ValueError`` for a bad FEN
        or a position where the game is already over."""
        return CongoState(self, None if fen is None else _start_position(fen))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class CongoState(pyspiel.State):  # type: ignore[misc]
    """A state: a :class:`congo.learning.GameState` (``state.game``)."""

    def __init__(self, game: CongoGame, start: Position | None = None) -> None:
        super().__init__(game)
        self.game = _start.new_game(game.start if start is None else start, game.max_plies)

    def current_player(self) -> int:
        if self.game.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return 0 if self.game.turn else 1

    def _legal_actions(self, player: int) -> list[int]:
        return self.game.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.game.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return action_name(action)

    def is_terminal(self) -> bool:
        return self.game.is_over()

    def returns(self) -> list[float]:
        winner = self.game.winner
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner else [-1.0, 1.0]

    def __str__(self) -> str:
        return _render.ansi(self.game)


class BoardObserver:
    """The planes of :func:`congo.encode` as OpenSpiel's observation tensor (float32)."""

    def __init__(self, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        shape = (NUM_PLANES, 7, 7)
        self.tensor = np.zeros(NUM_PLANES * 49, np.float32)
        self.dict = {"observation": np.reshape(self.tensor, shape)}

    def set_from(self, state: CongoState, player: int) -> None:
        self.tensor[:] = np.frombuffer(state.game.observation(), dtype=np.uint8)

    def string_from(self, state: CongoState, player: int) -> str:
        return _render.ansi(state.game)


class EngineBot(pyspiel.Bot):  # type: ignore[misc]
    """The built-in engine as an OpenSpiel bot: it searches a whole move within ``limit`` and then
    plays that move's actions one step at a time (a monkey chain's jumps, then STOP)."""

    def __init__(self, limit: Limit, *, hash_mb: int = _core.GAME_POOL_HASH_MB, threads: int = 1) -> None:
        super().__init__()
        self.limit = limit
        self.engine = Engine(threads=threads, hash_mb=hash_mb)
        self._planned: list[int] = []

    def restart_at(self, state: CongoState) -> None:
        self._planned = []
        self.engine.clear()

    def inform_action(self, state: CongoState, player_id: int, action: int) -> None:
        pass

    def step(self, state: CongoState) -> int:
        game = state.game
        if game.chain is not None and self._planned:
            return self._planned.pop(0)
        board = Board.from_position(game.start)
        for move in game.move_stack():
            board.push(move)
        best = self.engine.search(board, self.limit).move
        if best is None:
            raise RuntimeError(f"the engine found no move in {board.fen()}")
        actions = game.actions_of(best)
        self._planned = actions[1:]
        return actions[0]


pyspiel.register_game(_GAME_TYPE, CongoGame)
