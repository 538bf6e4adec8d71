"""Stress: eight threads play and search at once, each on its own board and engine, round after round,
and nothing they allocate stays behind.

Each thread plays games from the start and from the hardest valid positions (tests/data/worst.suite):
it searches with small node and time limits, plays engine moves or random ones, reads moves back
through SAN and FEN, and now and then another thread stops its search. Every answer is checked
(legal moves, positions that round trip).

What is measured is what is alive, not what the process holds: the bytes the C allocator has handed
out and not had back (``mallinfo2``: the Rust core and CPython's larger objects; glibc only) and the
blocks CPython's own allocator has out (``sys.getallocatedblocks``), read after every round with
the threads joined and the garbage collected. The resident set size is no measure of a leak: each
round's threads are new, and the allocators keep memory they were given back, fragmented, in arenas
that grow for dozens of rounds (measured: RSS 76 → 95 MiB over 45 rounds while the bytes in use
stayed at 21.92 MiB, to 10 KiB; a 16 MiB allowance on RSS failed on a loaded machine). The live
counts are flat to a few KiB and a few blocks a round, whatever the load, so the allowances can be
tight: a leak of a kilobyte per search (200 searches a round) shows; so does one Python object left
per search.
"""

from __future__ import annotations

import ctypes
import gc
import os
import random
import statistics
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import cast

import congo
from tests.oracle import load_perft_file

THREADS = 8
WARM_UP_ROUNDS = 3
ROUNDS = 12
WINDOW = 3
PLIES_PER_ROUND = 24
NATIVE_ALLOWANCE = 2 * 1024 * 1024
"""Bytes in use that may be added between the first measured rounds and the last ones (a leak of a
kilobyte per search adds 2.3 MiB over the measured rounds)."""
PYTHON_BLOCKS_ALLOWANCE = 200
"""Python blocks likewise (threading's own bookkeeping adds about one a round)."""
WORST = [case.fen for case in load_perft_file(Path(__file__).parent / "data" / "worst.suite")]


def rss_bytes() -> int | None:
    """The resident set size of this process (Linux), or None where /proc is missing. Reported,
    never asserted on (see the module docs)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


_MALLINFO2_FIELDS = "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost"


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in _MALLINFO2_FIELDS.split()]


def _mallinfo2() -> Callable[[], _Mallinfo2] | None:
    try:
        function = ctypes.CDLL(None).mallinfo2  # glibc 2.33 and later
    except (OSError, TypeError, AttributeError):
        return None
    function.restype = _Mallinfo2
    function.argtypes = []
    return cast("Callable[[], _Mallinfo2]", function)


MALLINFO2 = _mallinfo2()


def native_bytes_in_use() -> int | None:
    """The bytes the C allocator has handed out and not had back (small chunks and mmapped ones),
    or None where glibc's ``mallinfo2`` is missing."""
    if MALLINFO2 is None:
        return None
    info = MALLINFO2()
    return int(info.uordblks + info.hblkhd)


def play_round(seed: int, engine: congo.Engine, errors: list[BaseException]) -> None:
    """One thread's round: a game from the start or a worst position, searched and checked."""
    try:
        rng = random.Random(seed)
        board = congo.Board(rng.choice([congo.STARTING_FEN, *WORST]))
        for ply in range(PLIES_PER_ROUND):
            if board.is_game_over():
                board = congo.Board()
                engine.clear()
            limit = congo.Limit(nodes=400) if ply % 3 else congo.Limit(time=0.005)
            result = engine.search(board, limit)
            assert result.move is not None
            assert board.is_legal(result.move)
            moves = list(board.legal_moves)
            move = result.move if rng.random() < 0.6 else rng.choice(moves)
            assert board.parse_san(board.san(move)) == move
            board.push(move)
            assert congo.Board(board.fen()).fen() == board.fen()
        while board.move_stack:
            board.pop()
    except BaseException as error:  # reported by the main thread
        errors.append(error)


def run_round(round_number: int, engines: list[congo.Engine]) -> None:
    errors: list[BaseException] = []
    threads = [
        threading.Thread(target=play_round, args=(1000 * round_number + i, engine, errors))
        for i, engine in enumerate(engines)
    ]
    for thread in threads:
        thread.start()
    # Meanwhile stop a few searches from this thread (a stop between searches does nothing).
    for engine in engines[::3]:
        engine.stop()
    for thread in threads:
        thread.join(timeout=300)
        assert not thread.is_alive(), "a stress thread hangs"
    if errors:
        raise errors[0]


def growth(values: list[int]) -> float:
    """From the first rounds to the last ones: the median of the last ``WINDOW`` minus the median
    of the first ``WINDOW`` (one odd round at either end does not count)."""
    return statistics.median(values[-WINDOW:]) - statistics.median(values[:WINDOW])


def test_eight_threads_play_and_search_without_growing() -> None:
    engines = [congo.Engine(hash_mb=2, threads=1 + i % 2) for i in range(THREADS)]
    for round_number in range(WARM_UP_ROUNDS):
        run_round(round_number, engines)
    native: list[int | None] = []
    python_blocks: list[int] = []
    rss: list[int | None] = []
    for round_number in range(WARM_UP_ROUNDS, WARM_UP_ROUNDS + ROUNDS):
        run_round(round_number, engines)
        gc.collect()
        native.append(native_bytes_in_use())
        python_blocks.append(sys.getallocatedblocks())
        rss.append(rss_bytes())
    trace = ", ".join(f"{size / 2**20:.2f}" for size in native if size is not None)
    rss_trace = ", ".join(f"{size / 2**20:.0f}" for size in rss if size is not None)
    context = f"in use by round: {trace} MiB; RSS (not asserted): {rss_trace} MiB"
    assert growth(python_blocks) < PYTHON_BLOCKS_ALLOWANCE, (
        f"Python blocks grew by {growth(python_blocks):.0f} over {ROUNDS} rounds: {python_blocks}"
    )
    measured = [size for size in native if size is not None]
    if len(measured) == ROUNDS:  # glibc: the native allocations too
        native_growth = growth(measured)
        assert native_growth < NATIVE_ALLOWANCE, (
            f"bytes in use grew by {native_growth / 2**20:.2f} MiB over {ROUNDS} rounds ({context})"
        )
