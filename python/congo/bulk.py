"""The bulk calls: whole computations that run in Rust behind one Python call, with the GIL released.

:func:`perft` and :func:`divide` count the leaves of the move tree (the standard check of a move
generator); :func:`random_playouts` plays whole random games (for Monte Carlo bots and benchmarks).
"""

from __future__ import annotations

import random
from typing import Union

from congo import _core
from congo._core import PlayoutStats, Position
from congo.board import Board

PositionLike = Union[str, Board, Position]


def _position(fen_or_board: PositionLike) -> Position:
    if isinstance(fen_or_board, Board):
        return fen_or_board.position
    if isinstance(fen_or_board, Position):
        return fen_or_board
    if isinstance(fen_or_board, str):
        return Position(fen_or_board)
    raise TypeError(f"expected a FEN, a Board or a Position, got {type(fen_or_board).__name__}")


def _depth(depth: int) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise TypeError(f"depth must be an int, got {type(depth).__name__}")
    if depth < 0:
        raise ValueError(f"depth must be non-negative, got {depth}")
    return depth


def perft(fen_or_board: PositionLike, depth: int, *, bulk: bool = True) -> int:
    """The number of leaf positions ``depth`` plies deep (a position where a lion was captured has no
    moves). ``bulk=False`` makes every leaf move instead of counting the last ply.

    One call into Rust; other Python threads keep running. Raises ``ValueError`` for a negative
    depth, and :class:`~congo.InvalidFenError` / :class:`~congo.InvalidPositionError` for a bad FEN."""
    return _core.perft(_position(fen_or_board), _depth(depth), bulk=bulk)


def divide(fen_or_board: PositionLike, depth: int) -> dict[str, int]:
    """Perft split by first move: ``{move string: leaf count}``, sorted by move string. Raises like
    :func:`perft`."""
    return _core.divide(_position(fen_or_board), _depth(depth))


def random_playouts(
    fen_or_board: PositionLike, games: int, *, seed: int | None = None, max_plies: int = 300
) -> PlayoutStats:
    """Plays ``games`` games of uniformly random legal moves from a position, each until the rules
    end it (a captured lion, no legal move, bare lions) or ``max_plies`` moves have been played (a
    draw), and returns the tally as a :class:`PlayoutStats` (``games``, ``white_wins``,
    ``black_wins``, ``draws``, ``plies``).

    Reproducible for a given ``seed`` (``None`` picks one at random). One call into Rust; other
    Python threads keep running. Raises ``ValueError`` for negative counts and ``TypeError`` for
    non-integers."""
    for name, value in (("games", games), ("max_plies", max_plies)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, got {type(value).__name__}")
        if value < 0:
            raise ValueError(f"{name} must be non-negative, got {value}")
    if seed is None:
        seed = random.getrandbits(64)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
    return _core.random_playouts(_position(fen_or_board), games, seed=seed % 2**64, max_plies=max_plies)
