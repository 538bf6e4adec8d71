"""Executing one move (docs/rules.md §7) and the drowning rule (docs/rules.md §6)."""

from __future__ import annotations

from .geometry import RIVER_RANK, far_rank, in_river, rank_of, square
from .pieces import Board, Path, is_monkey_jump, jumped_squares

RIVER_SQUARES = tuple(square(f, RIVER_RANK) for f in range(7))


def drown(board: list[str | None], mover_white: bool, from_sq: int, to_sq: int) -> None:
    """Remove the mover's drowning pieces from ``board`` in place, exactly as docs/rules.md §6::

        for each square s on rank 4 holding a non-crocodile piece of the mover:
            if s != to:               drown   # it was already in the river when the turn began
            elif from is on rank 4:   drown   # moved within the river
            else:                     keep    # entered the river this move

    Only the mover's pieces drown; the opponent's river pieces are never affected.
    """
    for s in RIVER_SQUARES:
        piece = board[s]
        if piece is None or piece.isupper() != mover_white or piece.upper() == "C":
            continue
        if s != to_sq:
            board[s] = None  # it was already in the river when the turn began
        elif in_river(from_sq):
            board[s] = None  # moved within the river (incl. a monkey out and back, Decision A1)
        else:
            pass  # entered the river this move: keep


def execute_move(board: Board, path: Path) -> Board:
    """The board after playing ``path`` (docs/rules.md §7 steps 1-3), without any legality check.

    ``path`` must be a move generated for the piece on ``path[0]``. The colour of the mover is
    the colour of that piece. Steps 4-5 (win detection, switching sides, the move counter) are
    done by :class:`Position`.
    """
    new: list[str | None] = list(board)
    from_sq, to_sq = path[0], path[-1]
    piece = new[from_sq]
    if piece is None:
        raise ValueError("no piece on the from-square")
    white = piece.isupper()

    # 1. Remove the moving piece; remove the captured piece at `to`, or every jumped piece.
    new[from_sq] = None
    if piece.upper() == "M" and is_monkey_jump(path):
        for s in jumped_squares(path):
            new[s] = None
    # (a captured piece on `to` is removed by overwriting it just below)

    # 2. Place the piece on `to`; a pawn arriving on its far rank becomes a superpawn.
    if piece.upper() == "P" and rank_of(to_sq) == far_rank(white):
        piece = "S" if white else "s"
    new[to_sq] = piece

    # 3. Drowning for the mover.
    drown(new, white, from_sq, to_sq)
    return tuple(new)
