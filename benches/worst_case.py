"""The worst cost of every operation: each one timed on the hardest valid positions (tests/data/worst.suite).

    python benches/worst_case.py              # the table of docs/worst-case.md (about a minute)
    python benches/worst_case.py --quick      # fewer repetitions, no depth-1 runs
    python benches/worst_case.py --json out.json

Per position: counting, listing and iterating the legal moves, ``is_legal``, SAN and push/pop of
the longest move (the chain with the most jumps), perft 2, a 0.1 s search (the time it took and
its overrun past the limit, one and two threads), the latency of ``Engine.stop()`` (from the call
to ``search`` returning in another thread, one and two threads), the time a search needs to
complete depth 1 on its own (what a 0.1 s search took before limits held inside the first
iteration), and SVG rendering. Every figure but the search ones is the median of several runs;
the search rows give the median and the worst of their runs. Build in release mode first
(``pip install .``); on a shared machine the worst figures include time spent waiting for a core.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import congo
import congo.svg
from congo.files import atomic_output, check_outputs

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.oracle import load_perft_file  # noqa: E402  (the suite loader lives in the test tree)

SUITE = ROOT / "tests" / "data" / "worst.suite"
TIME_LIMIT = 0.1


def median_ms(repeat: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def limited_search_times_ms(board: congo.Board, threads: int, repeat: int) -> list[float]:
    """Wall time of ``Limit(time=TIME_LIMIT)`` searches; the overrun is what exceeds the limit."""
    engine = congo.Engine(threads=threads, hash_mb=16)
    found = []
    for _ in range(repeat):
        engine.clear()
        start = time.perf_counter()
        result = engine.search(board, congo.Limit(time=TIME_LIMIT))
        found.append((time.perf_counter() - start) * 1000)
        assert result.move is not None
    return found


def stop_latencies_ms(board: congo.Board, threads: int, repeat: int) -> list[float]:
    engine = congo.Engine(threads=threads, hash_mb=16)
    found = []
    for _ in range(repeat):
        engine.clear()
        searcher = threading.Thread(target=engine.search, args=(board, congo.Limit()))
        searcher.start()
        time.sleep(0.05)
        asked = time.perf_counter()
        engine.stop()
        searcher.join()
        found.append((time.perf_counter() - asked) * 1000)
    return found


def push_pop(board: congo.Board, move: congo.Move) -> None:
    board.push(move)
    board.pop()


def measure(fen: str, repeat: int, depth_one: bool) -> dict[str, object]:
    board = congo.Board(fen)
    moves = list(board.legal_moves)
    longest = max(moves, key=lambda move: len(move.uci()))
    figures: dict[str, object] = {
        "legal moves": len(moves),
        "count (ms)": median_ms(repeat, board.legal_moves.count),
        "list (ms)": median_ms(repeat, lambda: list(board.legal_moves)),
        "first move of the iterator (ms)": median_ms(repeat, lambda: next(iter(board.legal_moves))),
        "longest move (jumps)": len(longest.uci()) // 2 - 1,
        "is_legal, longest move (ms)": median_ms(repeat, lambda: board.is_legal(longest)),
        "SAN of the longest move (ms)": median_ms(repeat, lambda: board.san(longest)),
        "push + pop of the longest move (ms)": median_ms(repeat, lambda: push_pop(board, longest)),
        "perft 2 (ms)": median_ms(max(1, repeat // 4), lambda: congo.perft(fen, 2)),
        "SVG (ms)": median_ms(repeat, lambda: str(congo.svg.board(board))),
    }
    searches = {threads: limited_search_times_ms(board, threads, repeat) for threads in (1, 2)}
    stops = {threads: stop_latencies_ms(board, threads, repeat) for threads in (1, 2)}
    for threads, found in searches.items():
        label = f"0.1 s search, {threads} thread{'s' if threads > 1 else ''}"
        figures[f"{label}: returned after, median / worst (ms)"] = (statistics.median(found), max(found))
        figures[f"{label}: worst overrun (ms)"] = max(0.0, max(found) - TIME_LIMIT * 1000)
    for threads, latencies in stops.items():
        label = f"stop() to search returning, {threads} thread{'s' if threads > 1 else ''}"
        figures[f"{label}: median / worst (ms)"] = (statistics.median(latencies), max(latencies))
    if depth_one:
        engine = congo.Engine(hash_mb=16)
        result = engine.search(board, congo.Limit(depth=1))
        figures["depth 1 to the end (ms)"] = result.time * 1000
        figures["depth 1: nodes"] = result.nodes
    return figures


def cell(value: object) -> str:
    if isinstance(value, tuple):
        return " / ".join(cell(v) for v in value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if abs(value) >= 100:
            return f"{value:,.0f}"
        return f"{value:.2f}" if abs(value) >= 0.1 or value == 0 else f"{value:.3f}"
    return str(value)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="three repetitions, no depth-1 runs")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--stop", type=int, metavar="N", help="only stop() latencies, N times per position and thread count"
    )
    args = parser.parse_args()
    repeat = 3 if args.quick else 9
    try:  # before the work: a bad path fails now, not after it
        check_outputs([args.json] if args.json else [])
    except (OSError, ValueError) as error:
        parser.error(str(error))
    cases = load_perft_file(SUITE)
    if args.stop:
        print(
            f"load average {os.getloadavg()[0]:.2f}; stop() to search returning,"
            f" median / worst of {args.stop} (ms)"
        )
        for case in cases:
            board = congo.Board(case.fen)
            cells = []
            for threads in (1, 2):
                latencies = stop_latencies_ms(board, threads, args.stop)
                cells.append(
                    f"{threads} thread(s) {statistics.median(latencies):5.2f} / {max(latencies):5.2f}"
                )
            print(f"  {case.id:17} " + "   ".join(cells), flush=True)
        print(f"load average {os.getloadavg()[0]:.2f}")
        return 0
    results = {}
    for case in cases:
        print(f"measuring {case.id} ...", file=sys.stderr)
        results[case.id] = measure(case.fen, repeat, depth_one=not args.quick)
    rows = list(next(iter(results.values())))
    print("| operation | " + " | ".join(f"`{case.id}`" for case in cases) + " |")
    print("|---|" + "---|" * len(cases))
    for row in rows:
        print(f"| {row} | " + " | ".join(cell(results[case.id][row]) for case in cases) + " |")
    if args.json:
        with atomic_output(args.json) as out:
            out.write(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
