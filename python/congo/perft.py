"""Perft: counting the leaves of the move tree, computed in Rust with the GIL released."""

from __future__ import annotations

from typing import Union

from congo import _core
from congo._core import Position
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
