"""The speed of congo, measured side by side in one run: Rust core, Python API and the pure-Python oracle.

    python benches/run.py            # everything (about three minutes after the Rust bench is built)
    python benches/run.py --quick    # fewer repetitions
    python benches/run.py --json results.json

Every figure is the median of several timed repetitions; the ratios compare figures taken in this same
run, on the same positions (benches/positions.txt: the start and a middlegame suite with monkeys and
crocodiles in play). The Rust-only figures come from ``cargo bench --bench core`` (run by this script
when cargo is available). Build the extension in release mode first: ``pip install .``.

Timings on a shared machine are noisy: compare figures from one run, not across runs.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
import timeit
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import congo
import congo.bench
from congo.files import atomic_output, check_outputs

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import oracle  # noqa: E402  (the oracle lives in the test tree)

POSITIONS_FILE = ROOT / "benches" / "positions.txt"


def load_positions() -> list[tuple[str, str]]:
    """``(name, fen)`` pairs of benches/positions.txt; the first is the start position."""
    pairs = []
    for line in POSITIONS_FILE.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, fen = line.split(" ", 1)
            pairs.append((name, fen))
    return pairs


def median_seconds(repeat: int, work: Callable[[], object]) -> float:
    """The median wall time of ``repeat`` calls of ``work``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


@dataclass
class Figure:
    """One measured number, with its target when the performance issue sets one."""

    name: str
    suite: str
    value: float
    unit: str
    target: str = ""
    met: bool | None = None

    def row(self) -> str:
        verdict = "" if self.met is None else ("  ok" if self.met else "  MISSED")
        target = f"  (target {self.target})" if self.target else ""
        return f"  {self.name:<44} {self.value:>14,.1f} {self.unit:<14}{target}{verdict}"


def oracle_perft(position: oracle.Position, depth: int, *, bulk: bool) -> int:
    """The oracle's perft, counting the last ply in bulk or making every leaf move."""
    if depth == 0:
        return 1
    paths = position.legal_paths()
    if depth == 1 and bulk:
        return len(paths)
    return sum(oracle_perft(position.play_path(path), depth - 1, bulk=bulk) for path in paths)


def rust_bench(quick: bool) -> list[Figure]:
    """The Rust-only figures of ``cargo bench --bench core``, or nothing without cargo."""
    if shutil.which("cargo") is None:
        print("cargo not found: skipping the Rust-only figures", file=sys.stderr)
        return []
    command = ["cargo", "bench", "-q", "-p", "congo-core", "--bench", "core", "--"]
    command += ["--quick"] if quick else []
    print("running", " ".join(command), "...", file=sys.stderr)
    output = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    figures = []
    for line in output.splitlines():
        if line.startswith("{"):
            item = json.loads(line)
            figures.append(Figure(f"core {item['figure']}", item["suite"], item["value"], item["unit"]))
    return figures


def measure_suite(suite: str, fens: list[str], repeat: int, depth: int, *, api_only: bool) -> list[Figure]:
    """Python-side figures for one suite of positions (``api_only``: the Python API's, no perft or oracle)."""
    figures: list[Figure] = []
    boards = [congo.Board(fen) for fen in fens]
    positions = [congo.Position(fen) for fen in fens]
    oracles = [oracle.Position.from_fen(fen) for fen in fens]
    moves = sum(len(b.legal_moves) for b in boards) / len(boards)
    figures.append(Figure("legal moves per position", suite, moves, "moves"))

    # Perft: core vs oracle, bulk and making every leaf, at the same depth on the same positions.
    for bulk in () if api_only else (True, False):
        label = "bulk" if bulk else "every leaf"
        leaves = sum(congo.perft(p, depth, bulk=bulk) for p in positions)

        def core_perft(bulk: bool = bulk) -> object:
            return [congo.perft(p, depth, bulk=bulk) for p in positions]

        def oracle_perfts(bulk: bool = bulk) -> object:
            return [oracle_perft(o, depth, bulk=bulk) for o in oracles]

        core = leaves / median_seconds(repeat, core_perft)
        slow = leaves / median_seconds(max(1, repeat // 3), oracle_perfts)
        target, floor = ("200 M/s", 200e6) if bulk else ("60 M/s", 60e6)
        figures.append(Figure(f"perft {label}, core", suite, core / 1e6, "M leaves/s", target, core >= floor))
        figures.append(Figure(f"perft {label}, oracle", suite, slow / 1e6, "M leaves/s"))
        ratio_target = "" if bulk else ">= 300x"
        ratio_met = None if bulk else core / slow >= 300
        figures.append(
            Figure(f"perft {label}, core / oracle", suite, core / slow, "x", ratio_target, ratio_met)
        )

    # Move generation per position: through the Python API and in the oracle. Each statement runs
    # in a plain loop over the suite (compiled once by timeit), so the figure carries no harness
    # call per position.
    def per_position(statement: str, items: list[object], rounds: int) -> float:
        timer = timeit.Timer(f"for x in items: {statement}", globals={"items": items})
        return statistics.median(timer.repeat(repeat, rounds)) / rounds / len(items) * 1e9

    rounds = 20_000 // len(boards)
    length = per_position("len(x.legal_moves)", list(boards), rounds)
    figures.append(Figure("len(board.legal_moves)", suite, length, "ns", "<= 1000 ns", length <= 1000))
    listing = per_position("list(x.legal_moves)", list(boards), rounds)
    figures.append(
        Figure("list(board.legal_moves)", suite, listing, "ns", "<= 2000 ns (~30 moves)", listing <= 2000)
    )
    if not api_only:
        slow_list = per_position("x.legal_moves()", list(oracles), max(1, rounds // 50))
        figures.append(Figure("oracle legal_moves()", suite, slow_list, "ns"))
        figures.append(Figure("list(board.legal_moves) vs oracle", suite, slow_list / listing, "x"))

    # push + pop from Python, averaged over every legal move of the suite.
    pairs = [(b, m) for b in boards for m in list(b.legal_moves)]

    def push_pop_all() -> None:
        for board, move in pairs:
            board.push(move)
            board.pop()

    push_pop = median_seconds(repeat, push_pop_all) / len(pairs) * 1e9
    figures.append(
        Figure("board.push(m); board.pop()", suite, push_pop, "ns", "<= 1000 ns", push_pop <= 1000)
    )

    # Random playouts in Rust, one call for many games.
    games = 2_000
    each_board = games // len(boards)
    seconds = median_seconds(repeat, lambda: [congo.random_playouts(b, each_board, seed=7) for b in boards])
    rate = each_board * len(boards) / seconds
    figures.append(Figure("random playouts (Rust)", suite, rate, "games/s", ">= 50k games/s", rate >= 5e4))
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--no-cargo", action="store_true", help="skip the Rust-only figures")
    parser.add_argument(
        "--api-only",
        action="store_true",
        help="only the figures measured through the Python API (no perft, oracle or cargo bench)",
    )
    args = parser.parse_args()
    repeat = 3 if args.quick else 7
    try:  # before the work: a bad path fails now, not after it
        check_outputs([args.json] if args.json else [])
    except (OSError, ValueError) as error:
        parser.error(str(error))

    positions = load_positions()
    suites = {"start": [positions[0][1]], "middlegame": [fen for _, fen in positions[1:]]}
    figures: list[Figure] = []
    for suite, fens in suites.items():
        print(f"measuring the {suite} suite ...", file=sys.stderr)
        figures += measure_suite(suite, fens, repeat, depth=4, api_only=args.api_only)
    if not (args.no_cargo or args.api_only):
        rust = rust_bench(args.quick)
        for figure in rust:
            if figure.name == "core movegen":
                figure.name, figure.target = "core move generation (Rust)", "<= 100 ns"
                figure.met = figure.value <= 100
        figures += rust

    build = congo.bench.build()  # says whether the extension is abi3 or version-specific
    print(f"congo {congo.__version__} ({build}), Python {sys.version.split()[0]}, medians of {repeat} runs")
    for suite in suites:
        print(f"\n{suite}:")
        for figure in figures:
            if figure.suite == suite:
                print(figure.row())
    if args.json:
        with atomic_output(args.json) as out:
            out.write(json.dumps([f.__dict__ for f in figures], indent=1))
    missed = [f for f in figures if f.met is False]
    print(f"\n{len(missed)} target(s) missed" if missed else "\nall targets met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
