"""The endgame tables' speed: generation, verification and probing, from Rust and from Python.

    python benches/tablebase.py                 # tables up to 4 men in a temporary directory
    python benches/tablebase.py --dir DIR       # use (and complete) the tables in DIR
    python benches/tablebase.py --quick

Prints the Rust-only probe figures of ``cargo bench --bench tablebase`` (when cargo is available),
then what the same calls cost through the Python API, and what the tables do for the search: the
time to the best move of a won four-man position with and without them. Build the extension in
release mode first: ``pip install .``.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

import congo
import congo.tablebase as tablebase

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.tablebase_support import random_fen, random_material  # noqa: E402  (shared with the tests)


def random_position(rng: random.Random, pieces: int) -> congo.Position:
    """A random valid position with both lions and ``pieces`` other pieces."""
    return congo.Position(random_fen(rng, random_material(rng, pieces)))


def rust_figures(directory: Path, quick: bool) -> list[dict[str, object]]:
    if shutil.which("cargo") is None:
        print("cargo not found: skipping the Rust-only figures", file=sys.stderr)
        return []
    command = [
        "cargo",
        "bench",
        "-q",
        "-p",
        "congo-core",
        "--bench",
        "tablebase",
        "--",
        "--dir",
        str(directory),
    ]
    if quick:
        command.append("--quick")
    output = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def per_call_ns(statement: str, namespace: dict[str, object], number: int, repeat: int) -> float:
    """The median CPU time of this process per run of ``statement``: on a machine shared with other
    jobs the wall clock also counts the time spent waiting for a core."""
    times = timeit.repeat(statement, globals=namespace, number=number, repeat=repeat, timer=time.process_time)
    return statistics.median(times) / number * 1e9


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--dir", type=Path, help="tables to use (default: up to 4 men in a temporary directory)"
    )
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--no-cargo", action="store_true", help="skip the Rust-only figures")
    args = parser.parse_args()
    repeat = 3 if args.quick else 7
    temporary = None if args.dir else tempfile.TemporaryDirectory(prefix="congo-tb-")
    directory = args.dir or Path(temporary.name)  # type: ignore[union-attr]
    try:
        start = time.perf_counter()
        tablebase.generate(directory, men=4)
        elapsed = time.perf_counter() - start
        print(f"tables up to 4 men ready in {directory}: {elapsed:.1f} s (generated, or kept)")
        start = time.perf_counter()
        reports = tablebase.verify(directory, men=4)
        assert all(r.ok for r in reports)
        print(f"verified up to 4 men: {time.perf_counter() - start:.1f} s")

        print("\nRust (cargo bench --bench tablebase):")
        for figure in [] if args.no_cargo else rust_figures(directory, args.quick):
            print(f"  {figure['figure']:<58} {figure['value']:>10,.1f} {figure['unit']}")

        print("\nPython API (CPU time):")
        tb = tablebase.open_tablebase(directory)
        tb.load_all()
        rng = random.Random(1)
        for pieces in range(1, tb.max_men - 1):  # 3 men up to the most in the directory
            positions = [random_position(rng, pieces) for _ in range(1000)]
            namespace = {"probe": tb.probe_dtm, "positions": positions}
            ns = per_call_ns("for p in positions: probe(p)", namespace, 20, repeat) / len(positions)
            print(f"  {f'tb.probe_dtm(position), {pieces + 2} men':<58} {ns:>10,.1f} ns")
            boards = [congo.Board(p.fen()) for p in positions]
            namespace = {"probe": tb.probe_dtm, "positions": boards}
            ns = per_call_ns("for p in positions: probe(p)", namespace, 20, repeat) / len(boards)
            print(f"  {f'tb.probe_dtm(board), {pieces + 2} men':<58} {ns:>10,.1f} ns")
        positions = [random_position(rng, 2) for _ in range(200)]
        namespace = {"root_moves": tb.root_moves, "positions": positions}
        us = per_call_ns("for p in positions: root_moves(p)", namespace, 5, repeat) / len(positions) / 1e3
        print(f"  {'tb.root_moves(position), 4 men':<58} {us:>10,.1f} us")

        print("\nThe search, a won four-man position (7/7/2l4/7/Z6/3L3/7 w 1, win in 7 plies):")
        board = congo.Board("7/7/2l4/7/Z6/3L3/7 w 1")
        for label, path in (("without tables, depth 8", None), ("with tables", directory)):
            engine = congo.Engine(hash_mb=16, tablebase_path=path)
            start = time.perf_counter()
            result = engine.search(board, congo.Limit(depth=8))
            elapsed = time.perf_counter() - start
            ms = elapsed * 1e3
            print(f"  {label:<30} {result.move} score {result.score} in {ms:,.1f} ms, {result.nodes:,} nodes")
    finally:
        if temporary is not None:
            temporary.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
