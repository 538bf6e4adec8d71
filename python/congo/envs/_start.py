"""What every environment shares about where a game starts and how long it may last: the start
position of ``reset(options=...)`` (and of OpenSpiel's ``fen`` parameter) and the bounds of
``max_plies``. Needs nothing beyond ``congo`` itself."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from congo._core import Position
from congo.board import Board
from congo.learning import GameState

START_KEYS = ("fen", "board", "position")
"""The keys of ``reset(options=...)`` that give a start position (at most one of them)."""

MAX_PLIES = 2**32 - 1
"""The largest ``max_plies`` a :class:`congo.learning.GameState` counts to (32 bits in the core)."""


def check_max_plies(max_plies: object, *, limit: int = MAX_PLIES) -> int:
    """``max_plies`` as a positive int of at most ``limit``; ``ValueError`` otherwise."""
    if isinstance(max_plies, bool) or not isinstance(max_plies, int) or not 1 <= max_plies <= limit:
        raise ValueError(f"max_plies must be an int from 1 to {limit}, got {max_plies!r}")
    return max_plies


def start_position(options: Mapping[str, Any] | None, *, ignored: Iterable[str] = ()) -> Position | None:
    """The start position given by ``options``: ``{"fen": FEN}``, ``{"board": congo.Board}`` (its
    current position) or ``{"position": congo.Position}``; ``None`` for the usual start (no options,
    none of these keys, or the value ``None``). Keys in ``ignored`` are accepted and ignored.

    Raises ``ValueError`` for an unknown key or more than one start position,
    :class:`~congo.InvalidFenError` (a ``ValueError``) for a bad FEN, and ``TypeError`` for options
    that are not a mapping or a value of the wrong type."""
    if options is None:
        return None
    if not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict, got {type(options).__name__}")
    allowed = set(START_KEYS) | set(ignored)
    unknown = sorted(str(key) for key in options if key not in allowed)
    if unknown:
        raise ValueError(
            f"unknown reset option {', '.join(map(repr, unknown))}: the options are "
            f"{', '.join(map(repr, START_KEYS))} (one start position)"
        )
    given = [key for key in START_KEYS if options.get(key) is not None]
    if len(given) > 1:
        raise ValueError(f"give one start position, got {' and '.join(map(repr, given))}")
    if not given:
        return None
    key = given[0]
    value = options[key]
    if key == "fen":
        if not isinstance(value, str):
            raise TypeError(f"options['fen'] must be a FEN string, got {type(value).__name__}")
        return Position(value)
    if key == "board":
        if not isinstance(value, Board):
            raise TypeError(f"options['board'] must be a congo.Board, got {type(value).__name__}")
        return value.position
    if not isinstance(value, Position):
        raise TypeError(f"options['position'] must be a congo.Position, got {type(value).__name__}")
    return value


def new_game(position: Position | None, max_plies: int) -> GameState:
    """A game from ``position`` (the usual start for ``None``). Raises ``ValueError`` when the game
    is already over there: an episode needs a move to make."""
    game = GameState(position, max_plies)
    if game.is_over():
        raise ValueError(f"the game is already over in the start position {game.position.fen()} ({game.end})")
    return game


def check_first_move(game: GameState, agent: bool) -> None:
    """Refuses a start where the side other than ``agent`` (``True``: White) moves first and can end
    the game with that move: an episode handed out then could be over before the agent acts (an
    all-zero mask, nothing to do). Checked over every such move, not only the one an opponent
    happens to choose, so that whether a start is accepted does not depend on a seed.

    Raises ``ValueError`` naming a move that ends the game."""
    if game.turn == agent:
        return
    for move in game.legal_moves():
        after = game.copy()
        after.push(move)
        if after.is_over():
            raise ValueError(
                f"the opponent moves first in {game.position.fen()} and {move.uci()} ends the game at "
                f"once ({after.end}): the agent could be left without a move; give a start where the "
                "agent's colour is to move, or one the opponent cannot end with its first move"
            )
