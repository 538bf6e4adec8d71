"""The bulk calls: whole computations that run in Rust behind one Python call, with the GIL released.

:func:`perft` and :func:`divide` count the leaves of the move tree (the standard check of a move
generator); :func:`random_playouts` plays whole random games (for Monte Carlo bots and benchmarks).
"""

from __future__ import annotations

import random
from typing import Callable

from congo import _core
from congo._core import PlayoutStats
from congo.board import PositionLike, to_position

__all__ = ["divide", "perft", "random_playouts"]


def perft(fen_or_board: PositionLike, depth: int, *, bulk: bool = True) -> int:
    """The number of leaf positions ``depth`` plies deep (a position where a lion was captured has no
    moves). ``bulk=False`` makes every leaf move instead of counting the last ply.

    One call into Rust; other Python threads keep running, and Ctrl-C stops it within a few
    milliseconds (``KeyboardInterrupt``). Raises ``ValueError`` for a depth outside
    0 … :data:`~congo.MAX_PERFT_DEPTH`, ``TypeError`` for a non-int, and
    :class:`~congo.InvalidFenError` / :class:`~congo.InvalidPositionError` for a bad FEN."""
    return _core.perft(to_position(fen_or_board), depth, bulk=bulk)


def divide(
    fen_or_board: PositionLike,
    depth: int,
    *,
    bulk: bool = True,
    callback: Callable[[str, int], object] | None = None,
) -> dict[str, int]:
    """Perft split by first move: ``{move string: leaf count}``, sorted by move string.
    ``callback(move string, leaf count)``, if given, is called as each first move's count is done
    (in generation order: for progress); if it raises, the count stops and the exception
    propagates. Raises like :func:`perft`."""
    if callback is not None and not callable(callback):
        raise TypeError(f"callback must be callable, got {type(callback).__name__}")
    return _core.divide(to_position(fen_or_board), depth, bulk=bulk, callback=callback)


def random_playouts(
    fen_or_board: PositionLike, games: int, *, seed: int | None = None, max_plies: int = 300
) -> PlayoutStats:
    """Plays ``games`` games of uniformly random legal moves from a position, each until the rules
    end it (a captured lion, no legal move, bare lions) or ``max_plies`` moves have been played (a
    draw), and returns the tally as a :class:`PlayoutStats` (``games``, ``white_wins``,
    ``black_wins``, ``draws``, ``plies``; picklable, hashable, and tallies add up with ``+``).

    Reproducible for a given ``seed`` (``None`` picks one at random). One call into Rust; other
    Python threads keep running, and Ctrl-C stops it (``KeyboardInterrupt``). Raises ``ValueError``
    for negative counts and ``TypeError`` for non-integers."""
    if seed is None:
        seed = random.getrandbits(64)
    elif isinstance(seed, int) and not isinstance(seed, bool):
        seed %= 2**64
    return _core.random_playouts(to_position(fen_or_board), games, seed=seed, max_plies=max_plies)
