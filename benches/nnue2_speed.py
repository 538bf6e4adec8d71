"""The speed of a version-2 network file against the compiled-in version-1 network, in one run.

    cargo build --release -p congo-core --example search_bench
    nice python benches/nnue2_speed.py build/nnue2/net-s1.nnue [--depth 8] [--rounds 7] [--callgrind]

``search_bench`` searches ``benches/search_positions.txt`` to a fixed depth with one thread, with
the compiled-in network and then with ``EvalFile=FILE``, in alternating order, ``--rounds`` times,
so that a slow spell of a shared machine falls on both. Printed: each network's nodes (the same
every round: the search is deterministic), the median nodes per second, and the median over rounds
of the ratio v2/v1 of nodes per second. ``--callgrind`` also counts the search's instructions per
node of each (valgrind; independent of the machine's load).
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUMMARY = re.compile(r"depth (\d+) threads \d+: (\d+) nodes in [\d.]+ s = (\d+) nodes/s")
COLLECTED = re.compile(r"Collected : (\d+)")


def run(binary: Path, depth: int, extra: list[str]) -> tuple[int, int]:
    out = subprocess.run(
        [str(binary), str(depth), "1", *extra], capture_output=True, text=True, check=True
    ).stdout
    match = SUMMARY.search(out)
    if match is None:
        raise SystemExit(f"no summary line in the output of {binary}:\n{out}")
    return int(match[2]), int(match[3])


def instructions(binary: Path, depth: int, extra: list[str]) -> int:
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            "--toggle-collect=*Worker*iterate*",
            str(binary),
            str(depth),
            "1",
            *extra,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    match = COLLECTED.search(done.stderr)
    if match is None:
        raise SystemExit(f"no instruction count from callgrind:\n{done.stderr}")
    return int(match[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("eval_file", type=Path, help="a version-2 network file")
    parser.add_argument("--binary", type=Path, default=ROOT / "target/release/examples/search_bench")
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--callgrind", action="store_true", help="also count instructions per node")
    args = parser.parse_args(argv)
    if not args.binary.exists():
        print(
            f"{args.binary}: build it: cargo build --release -p congo-core --example search_bench",
            file=sys.stderr,
        )
        return 2
    builds = {"v1 (compiled in)": [], "v2 (EvalFile)": [f"EvalFile={args.eval_file}"]}
    nodes: dict[str, int] = {}
    nps: dict[str, list[int]] = {name: [] for name in builds}
    ratios = []
    for r in range(args.rounds):
        order = list(builds) if r % 2 == 0 else list(reversed(builds))
        this_round = {}
        for name in order:
            n, speed = run(args.binary, args.depth, builds[name])
            if nodes.setdefault(name, n) != n:
                raise SystemExit(
                    f"{name}: {n} nodes in round {r + 1}, {nodes[name]} before: not deterministic"
                )
            nps[name].append(speed)
            this_round[name] = speed
        v1, v2 = (this_round[name] for name in builds)
        ratios.append(v2 / v1)
    print(f"search_bench depth {args.depth}, one thread, {args.rounds} rounds in alternating order")
    for name in builds:
        print(f"{name:18} {nodes[name]:>10,} nodes  median {statistics.median(nps[name]):>10,.0f} nodes/s")
    each = ", ".join(f"{x:.3f}" for x in ratios)
    print(f"nodes/s v2/v1: median ratio {statistics.median(ratios):.3f} (rounds: {each})")
    if args.callgrind:
        counted = {name: instructions(args.binary, args.depth, extra) for name, extra in builds.items()}
        for name in builds:
            per_node = counted[name] / nodes[name]
            print(f"{name:18} {counted[name]:>14,} instructions in the search, {per_node:,.0f} a node")
        old, new = (counted[name] / nodes[name] for name in builds)
        print(f"instructions a node v2/v1: {new / old:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
