"""Stress: eight threads play and search at once, each on its own board and engine, round after round,
and the process does not grow.

Each thread plays games from the start and from the hardest valid positions (tests/data/worst.suite):
it searches with small node and time limits, plays engine moves or random ones, reads moves back
through SAN and FEN, and now and then another thread stops its search. Every answer is checked
(legal moves, positions that round trip). The resident set size is read after every round, once
three rounds have warmed up the allocators (each round's threads are new, and the C and Python
allocators keep growing their arenas over the first rounds, by some 30 MiB, before they level off).
It still wanders by several MiB from round to round, so growth is measured from the highest of the
first measured rounds to the lowest of the last ones: a leak that grows steadily shows there, noise
does not. Leaking a move list of the worst position (25,786 moves, 1.2 MiB) in one search out of a
hundred would exceed the allowance; a leak of a few bytes per call would not.
"""

from __future__ import annotations

import os
import random
import threading
from pathlib import Path

import pytest

import congo
from tests.oracle import load_perft_file

THREADS = 8
WARM_UP_ROUNDS = 3
ROUNDS = 12
WINDOW = 3
PLIES_PER_ROUND = 24
GROWTH_ALLOWANCE = 16 * 1024 * 1024
WORST = [case.fen for case in load_perft_file(Path(__file__).parent / "data" / "worst.suite")]


def rss_bytes() -> int | None:
    """The resident set size of this process (Linux), or None where /proc is missing."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


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


def test_eight_threads_play_and_search_without_growing() -> None:
    engines = [congo.Engine(hash_mb=2, threads=1 + i % 2) for i in range(THREADS)]
    for round_number in range(WARM_UP_ROUNDS):
        run_round(round_number, engines)
    sizes = []
    for round_number in range(WARM_UP_ROUNDS, WARM_UP_ROUNDS + ROUNDS):
        run_round(round_number, engines)
        sizes.append(rss_bytes())
    measured = [size for size in sizes if size is not None]
    if len(measured) < ROUNDS:
        pytest.skip("no /proc/self/statm: the threads ran, memory was not measured")
    growth = min(measured[-WINDOW:]) - max(measured[:WINDOW])
    trace = ", ".join(f"{size / 2**20:.0f}" for size in measured)
    message = f"RSS grew by {growth / 2**20:.1f} MiB over {ROUNDS} rounds ({trace} MiB)"
    assert growth < GROWTH_ALLOWANCE, message
