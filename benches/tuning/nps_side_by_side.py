"""Nodes per second of two builds, side by side, on this machine's wall clock.

    python benches/tuning/nps_side_by_side.py NEW_SEARCH_BENCH OLD_SEARCH_BENCH \
        [--depths 7,9,11] [--rounds 9] [--new-params "iir=0 lmr_divisor=225"]

Each argument is a ``search_bench`` binary (``cargo build --release -p congo-core --example
search_bench``; the example searches ``benches/search_positions.txt`` to a fixed depth). The two run
one after the other, in alternating order, ``--rounds`` times per depth, so that a slow spell of a
shared machine falls on both. Printed per depth: each build's nodes (the same every round: the search
is deterministic with one thread), the median nodes per second, and the median over rounds of the
ratio new/old of nodes per second and of time to the depth. Medians, because on a shared machine a
round can be twice as slow as the next; compare only numbers from one run.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from dataclasses import dataclass

SUMMARY = re.compile(r"depth (\d+) threads \d+: (\d+) nodes in [\d.]+ s = (\d+) nodes/s")


@dataclass(frozen=True)
class Run:
    nodes: int
    nps: int

    @property
    def seconds(self) -> float:
        return self.nodes / max(self.nps, 1)


def run(binary: str, depth: int, params: list[str]) -> Run:
    """One search_bench run: its summary line's nodes and nodes per second."""
    done = subprocess.run(
        [binary, str(depth), "1", *params], capture_output=True, text=True, check=True, timeout=3600
    )
    match = SUMMARY.search(done.stdout)
    if match is None:
        raise SystemExit(f"{binary}: no summary line in its output:\n{done.stdout[-500:]}")
    return Run(nodes=int(match.group(2)), nps=int(match.group(3)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("new", help="the new build's search_bench")
    parser.add_argument("old", help="the old build's search_bench")
    parser.add_argument("--depths", default="7,9,11", help="comma-separated depths (7,9,11)")
    parser.add_argument("--rounds", type=int, default=9, help="runs of each build per depth (9)")
    parser.add_argument("--new-params", default="", help="NAME=VALUE settings for the new build")
    parser.add_argument("--old-params", default="", help="NAME=VALUE settings for the old build")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    depths = [int(d) for d in args.depths.split(",")]
    new_params, old_params = args.new_params.split(), args.old_params.split()

    print(f"new: {args.new} {' '.join(new_params)}\nold: {args.old} {' '.join(old_params)}")
    print("depth   new nodes   old nodes   new nps (median)   old nps (median)   nps new/old   time new/old")
    for depth in depths:
        new_runs: list[Run] = []
        old_runs: list[Run] = []
        for round_ in range(args.rounds):
            # Alternate which build goes first, so neither always runs on a machine warmed by the other.
            if round_ % 2 == 0:
                new_runs.append(run(args.new, depth, new_params))
                old_runs.append(run(args.old, depth, old_params))
            else:
                old_runs.append(run(args.old, depth, old_params))
                new_runs.append(run(args.new, depth, new_params))
        nps_ratio = statistics.median(n.nps / o.nps for n, o in zip(new_runs, old_runs))
        time_ratio = statistics.median(n.seconds / o.seconds for n, o in zip(new_runs, old_runs))
        print(
            f"{depth:5} {new_runs[0].nodes:11,} {old_runs[0].nodes:11,} "
            f"{statistics.median(r.nps for r in new_runs):18,.0f} "
            f"{statistics.median(r.nps for r in old_runs):18,.0f} "
            f"{nps_ratio:13.3f} {time_ratio:14.3f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
