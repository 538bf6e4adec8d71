"""Search speed: nodes per second at a fixed depth over a set of positions, one thread and several.

    python benches/search.py              # depth 10, 1 and 2 threads
    python benches/search.py --depth 12 --threads 1,2

Prints, per thread count, the nodes, time and nodes per second summed over the positions, then the
ratios to one thread: nodes per second (the Lazy SMP threads together) and time to reach the depth
(what the extra threads buy). Build in release mode first (``pip install .``); timings on a shared
machine are noisy, so compare numbers from one run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import congo

POSITIONS_FILE = Path(__file__).resolve().parent / "search_positions.txt"
POSITIONS = [
    line.strip()
    for line in POSITIONS_FILE.read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]


def run(depth: int, threads: int, hash_mb: int) -> tuple[int, float]:
    """Total nodes and seconds over the positions, each searched by a fresh engine."""
    nodes, seconds = 0, 0.0
    for fen in POSITIONS:
        engine = congo.Engine(threads=threads, hash_mb=hash_mb)
        result = engine.search(fen, congo.Limit(depth=depth))
        nodes += result.nodes
        seconds += result.time
    return nodes, seconds


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--depth", type=int, default=10, help="search depth (default: 10)")
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts (default: 1,2)")
    parser.add_argument("--hash", type=int, default=64, help="hash table MiB per engine (default: 64)")
    args = parser.parse_args()
    counts = [int(n) for n in args.threads.split(",")]
    print(f"{len(POSITIONS)} positions, depth {args.depth}")
    print(f"{'threads':>7} {'nodes':>12} {'time':>8} {'nodes/s':>12} {'nps ratio':>10} {'speed-up':>9}")
    base: tuple[int, float] | None = None
    for threads in counts:
        nodes, seconds = run(args.depth, threads, args.hash)
        nps = nodes / seconds
        if base is None:
            base = (nodes, seconds)
        nps_ratio = nps / (base[0] / base[1])
        speedup = base[1] / seconds
        print(f"{threads:>7} {nodes:>12,} {seconds:>7.2f}s {nps:>12,.0f} {nps_ratio:>9.2f}x {speedup:>8.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
