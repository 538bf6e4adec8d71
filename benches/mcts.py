"""Simulations per second of ``congo.mcts`` with a trivial network (uniform priors, value 0), so that
the figure is the search's own cost: selection, expansion and backup in Rust, the batch's planes
and masks copied out to numpy and the priors and values copied back in.

For each configuration (trees searched together, leaves per tree and batch, threads, PUCT or Gumbel
at the root) one run searches every tree from the start position for ``--sims`` simulations. The
time spent inside the network callback (which returns preallocated arrays, so it is little more
than the Python call) is measured and reported apart; "search" is the wall time without it, "wall"
with it. Each figure is the best of ``--repeat`` runs; the process's CPU time is given too, since
the machine may be shared (per CPU second is the steadier figure).

    python benches/mcts.py [--quick] [--out benches/results/mcts.txt]

Needs numpy and a release build of the extension.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

import numpy as np

import congo
from congo import mcts
from congo.files import atomic_output, check_outputs


class TrivialNetwork:
    """Uniform priors and zero values from arrays made once, timing its own calls."""

    def __init__(self, rows: int) -> None:
        self.priors = np.ones((rows, congo.learning.NUM_ACTIONS), np.float32)
        self.values = np.zeros(rows, np.float32)
        self.seconds = 0.0

    def __call__(self, planes: Any, masks: Any) -> tuple[Any, Any]:
        start = time.perf_counter()
        n = len(masks)
        answer = self.priors[:n], self.values[:n]
        self.seconds += time.perf_counter() - start
        return answer


def measure(
    trees: int, sims: int, leaves: int, threads: int, gumbel: bool, repeat: int
) -> tuple[float, float, float, float]:
    """Best of ``repeat``: simulations per second of search time, of wall time and per CPU second,
    and the network's share of the wall time."""
    best = (0.0, 0.0, 0.0, 0.0)
    for _ in range(repeat):
        network = TrivialNetwork(trees * leaves)
        search = mcts.Search(
            [congo.Board()] * trees, leaves_per_tree=leaves, threads=threads, gumbel=gumbel, seed=1
        )
        wall, cpu = time.perf_counter(), time.process_time()
        results = search.run(network, sims)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        done = sum(r.simulations for r in results)
        assert done == trees * sims, done
        rates = (done / (wall - network.seconds), done / wall, done / max(cpu, 1e-9), network.seconds / wall)
        if rates[0] > best[0]:
            best = rates
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sims", type=int, default=800, help="simulations per tree (default 800)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure, the best kept (default 3)")
    parser.add_argument("--quick", action="store_true", help="fewer, shorter runs (a smoke test)")
    parser.add_argument("--out", help="also write the table to this file")
    args = parser.parse_args(argv)
    check_outputs([args.out] if args.out else [])
    sims, repeat = (100, 1) if args.quick else (args.sims, args.repeat)
    configurations = [
        # trees, leaves per tree, threads, gumbel
        (1, 1, 1, False),
        (1, 16, 1, False),
        (64, 1, 1, False),
        (64, 8, 1, False),
        (256, 1, 1, False),
        (256, 8, 1, False),
        (256, 8, 2, False),
        (256, 8, 1, True),
        (256, 8, 2, True),
    ]
    load = os.getloadavg()
    lines = [
        f"# congo {congo.__version__} mcts benchmark, Python {sys.version.split()[0]},"
        f" {os.cpu_count()} cores",
        f"# {sims} simulations per tree from the start position, trivial network (uniform priors, value 0);",
        f"# best of {repeat} runs per figure; load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
        "# search: simulations per second of wall time less the network callback's time",
        "",
        f"{'trees':>5} {'leaves/tree':>11} {'threads':>7} {'root':>6} {'search sims/s':>14}"
        f" {'wall sims/s':>12} {'per CPU s':>11} {'network':>8}",
    ]
    print("\n".join(lines), flush=True)
    for trees, leaves, threads, gumbel in configurations:
        search, wall, cpu, share = measure(trees, sims, leaves, threads, gumbel, repeat)
        line = (
            f"{trees:>5} {leaves:>11} {threads:>7} {'gumbel' if gumbel else 'puct':>6} {search:>14,.0f}"
            f" {wall:>12,.0f} {cpu:>11,.0f} {share:>7.1%}"
        )
        print(line, flush=True)
        lines.append(line)
    if args.out:
        with atomic_output(args.out) as out:
            out.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
