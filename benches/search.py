"""Search speed: nodes per second at a fixed depth over a set of positions, one thread and several.

    python benches/search.py              # depth 10, 1 and 2 threads
    python benches/search.py --depth 12 --threads 1,2
    python benches/search.py --positions benches/search_positions.epd --threads 1

``--positions`` takes a suite of one position a line, as a FEN or as EPD with operations
(``Board.set_epd``; ``#`` comments); an EPD's ``bm`` (best moves) and ``am`` (moves to avoid) are
checked against each search's move, and the count that agree is printed per thread count (with
the ``id`` of each that does not).

Prints, per thread count, the nodes, time and nodes per second summed over the positions, then the
ratios to one thread: nodes per second (the Lazy SMP threads together) and time to reach the depth
(what the extra threads buy). Build in release mode first (``pip install .``); timings on a shared
machine are noisy, so compare numbers from one run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NamedTuple

import congo

POSITIONS_FILE = Path(__file__).resolve().parent / "search_positions.txt"


class Position(NamedTuple):
    """One position of a suite, with the EPD operations it came with (none for a FEN)."""

    fen: str
    operations: dict[str, object]
    name: str


def read_suite(path: Path) -> list[Position]:
    """The positions of a suite: a FEN or an EPD line each, ``#`` comments and blank lines skipped.
    Raises ``ValueError`` naming the line for one that is neither."""
    suite = []
    for number, line in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        board = congo.Board()
        try:
            operations = board.set_epd(line)
        except ValueError as error:
            raise ValueError(f"{path}:{number}: {error}") from None
        suite.append(Position(board.fen(), operations, str(operations.get("id", f"line {number}"))))
    return suite


def _moves(operand: object) -> set[congo.Move]:
    return set(operand) if isinstance(operand, list) else set()


def agrees(position: Position, move: congo.Move | None) -> bool | None:
    """Whether a search's move agrees with the position's ``bm`` and ``am``; ``None`` without them."""
    best, avoid = position.operations.get("bm"), position.operations.get("am")
    if best is None and avoid is None:
        return None
    return (best is None or move in _moves(best)) and (avoid is None or move not in _moves(avoid))


def run(
    suite: list[Position], depth: int, threads: int, hash_mb: int
) -> tuple[int, float, list[bool | None]]:
    """Total nodes and seconds over the positions, each searched by a fresh engine, and whether each
    search's move agrees with its position's ``bm``/``am``."""
    nodes, seconds, verdicts = 0, 0.0, []
    for position in suite:
        engine = congo.Engine(threads=threads, hash_mb=hash_mb)
        result = engine.search(position.fen, congo.Limit(depth=depth))
        nodes += result.nodes
        seconds += result.time
        verdicts.append(agrees(position, result.move))
    return nodes, seconds, verdicts


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--depth", type=int, default=10, help="search depth (default: 10)")
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts (default: 1,2)")
    parser.add_argument("--hash", type=int, default=64, help="hash table MiB per engine (default: 64)")
    parser.add_argument(
        "--positions",
        type=Path,
        default=POSITIONS_FILE,
        help="a suite, a FEN or an EPD line each (default: benches/search_positions.txt)",
    )
    args = parser.parse_args()
    counts = [int(n) for n in args.threads.split(",")]
    suite = read_suite(args.positions)
    print(f"{len(suite)} positions, depth {args.depth}")
    print(f"{'threads':>7} {'nodes':>12} {'time':>8} {'nodes/s':>12} {'nps ratio':>10} {'speed-up':>9}")
    base: tuple[int, float] | None = None
    checks: list[str] = []
    for threads in counts:
        nodes, seconds, verdicts = run(suite, args.depth, threads, args.hash)
        judged = [(p, v) for p, v in zip(suite, verdicts) if v is not None]
        if judged:
            missed = [p.name for p, v in judged if not v]
            checks.append(
                f"{threads} thread{'s' * (threads != 1)}: bm/am agree in {len(judged) - len(missed)} of "
                f"{len(judged)}" + (f" (not: {', '.join(missed)})" if missed else "")
            )
        nps = nodes / seconds
        if base is None:
            base = (nodes, seconds)
        nps_ratio = nps / (base[0] / base[1])
        speedup = base[1] / seconds
        print(f"{threads:>7} {nodes:>12,} {seconds:>7.2f}s {nps:>12,.0f} {nps_ratio:>9.2f}x {speedup:>8.2f}x")
    for line in checks:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
