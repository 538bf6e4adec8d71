"""Perft: count the leaf nodes of the legal-move tree (docs/rules.md §10 anchors)."""

from __future__ import annotations

from .notation import move_string
from .position import Position


def perft(position: Position, depth: int) -> int:
    """Number of move sequences of length ``depth`` from ``position`` (depth 0 = 1).

    A position with a lion missing has no legal moves, so it contributes nothing below it.
    Bare lions and repetitions are adjudications and do not stop the count (docs/rules.md §8).
    """
    if depth < 0:
        raise ValueError(f"depth must be non-negative, got {depth}")
    if depth == 0:
        return 1
    paths = position.legal_paths()
    if depth == 1:
        return len(paths)
    return sum(perft(position.play_path(path), depth - 1) for path in paths)


def divide(position: Position, depth: int) -> dict[str, int]:
    """Perft split by first move: ``{move string: perft(child, depth - 1)}`` (depth >= 1)."""
    if depth < 1:
        raise ValueError(f"divide needs depth >= 1, got {depth}")
    return {move_string(path): perft(position.play_path(path), depth - 1) for path in position.legal_paths()}
