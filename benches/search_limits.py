"""Time limits under load: how long ``Limit(time=0.1)`` really takes with 1 to 256 search threads
(on a machine with far fewer cores), and what a low game clock gets on the hardest valid positions.

    python benches/search_limits.py             # both tables of docs/worst-case.md (about a minute)
    python benches/search_limits.py --runs 3    # fewer repetitions

The first table: per thread count, the median and worst wall time of ``Limit(time=0.1)`` from the
start position over the runs, and the depth of the last run. The second: per position of
tests/data/worst.suite, what ``Limit(white_clock=0.5, black_clock=0.5)`` answers (depth, nodes,
whether the move captures the lion) and its wall time. Build in release mode first.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import congo

SUITE = Path(__file__).parent.parent / "tests" / "data" / "worst.suite"


def threads_table(runs: int) -> None:
    print("| threads | median (s) | worst (s) | depth |")
    print("|---:|---:|---:|---:|")
    for threads in (1, 2, 8, 32, 64, 128, 256):
        engine = congo.Engine(threads=threads, hash_mb=16)
        times = []
        depth = 0
        for _ in range(runs):
            start = time.perf_counter()
            result = engine.search(congo.Board(), congo.Limit(time=0.1))
            times.append(time.perf_counter() - start)
            depth = result.depth
        print(f"| {threads} | {statistics.median(times):.3f} | {max(times):.3f} | {depth} |", flush=True)


def clock_table() -> None:
    fens = [line[4:].strip() for line in SUITE.read_text().splitlines() if line.startswith("fen ")]
    engine = congo.Engine(hash_mb=16)
    print("| position | moves | depth | nodes | lion taken | time (s) |")
    print("|---|---:|---:|---:|---|---:|")
    for fen in fens:
        board = congo.Board(fen)
        start = time.perf_counter()
        result = engine.search(board, congo.Limit(white_clock=0.5, black_clock=0.5))
        elapsed = time.perf_counter() - start
        taken = result.score.mate == 1 and result.depth <= 1
        print(
            f"| `{fen}` | {board.legal_moves.count()} | {result.depth} | {result.nodes} | "
            f"{'yes' if taken else 'no'} | {elapsed:.3f} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    threads_table(args.runs)
    print()
    clock_table()


if __name__ == "__main__":
    main()
