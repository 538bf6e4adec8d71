"""SPSA tuning of the search's numbers through the match runner (docs/engine.md, "Tuning").

Simultaneous perturbation stochastic approximation, in the form fishtest uses: at iteration k every
parameter is moved by ``±c_k`` at once (the signs random), the two engines so made play game pairs
against each other from the balanced suite, and each parameter steps by ``r_k c_k (wins - losses) s``
in the direction ``s`` of its own sign. ``c_k = c / k^0.101`` and ``r_k = a_k / c_k^2`` with
``a_k = a / (A + k)^0.602``, ``A`` a tenth of the iterations; ``c`` and ``a`` follow from each
parameter's ``c_end`` (the perturbation at the last iteration) and ``r_end`` (its learning rate
there), as fishtest's spsa does.

Both engines are the built-in engine at a fixed node budget (the parameters are its named options,
``congo.Engine.configure``), so a run measures the search's decisions and not the machine's load.
Every iteration is one JSON line in ``--log``; the last line holds the final values.

    nice -n 10 python benches/tuning/spsa.py --iterations 400 --nodes 3000 \\
        --log benches/results/spsa-search.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass

from congo import match

GAMMA = 0.101
ALPHA = 0.602


@dataclass
class Tunable:
    name: str
    start: float
    low: int
    high: int
    c_end: float
    r_end: float = 0.02


#: The search's numbers (``SearchParams``) and how far SPSA may move them. ``c_end`` is about a
#: tenth of a sensible range; ``r_end`` ten times fishtest's customary 0.002: a run here has a few
#: thousand games, not a hundred thousand.
TUNABLES = [
    Tunable("futility_margin", 85, 20, 300, 10),
    Tunable("lmr_divisor", 225, 100, 500, 20),
    Tunable("null_reduction", 3, 1, 6, 0.5),
    Tunable("aspiration_window", 24, 8, 100, 4),
]


def clip(value: float, tunable: Tunable) -> float:
    return min(max(value, tunable.low), tunable.high)


def player(nodes: int, values: dict[str, int], fixed: str) -> tuple[str, match.PlayerFactory]:
    options = ",".join([f"{name}={value}" for name, value in values.items()] + ([fixed] if fixed else []))
    return match.parse_player(f"engine:nodes={nodes},hash=16,{options}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--pairs", type=int, default=1, help="game pairs per iteration")
    parser.add_argument("--nodes", type=int, default=3000, help="nodes a move for both engines")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fixed", default="", help="options both engines share, as in NAME=V,NAME=V")
    parser.add_argument("--log", required=True, help="JSON lines, one per iteration")
    args = parser.parse_args()
    try:
        # A run's log is its record (benches/results/): created new ("x": O_EXCL, so never over
        # a file, nor through a symbolic link, even one to nothing), before the first game.
        log = open(args.log, "x", encoding="utf-8")  # noqa: SIM115
    except FileExistsError:
        parser.error(f"{args.log} exists; give a new name for this run's log")
    except OSError as error:
        parser.error(f"cannot write {args.log}: {error.strerror or error}")

    rng = random.Random(args.seed)
    openings = match.default_openings()
    n = args.iterations
    big_a = 0.1 * n
    theta = {t.name: float(t.start) for t in TUNABLES}
    c0 = {t.name: t.c_end * n**GAMMA for t in TUNABLES}
    a0 = {t.name: t.r_end * t.c_end**2 * (big_a + n) ** ALPHA for t in TUNABLES}
    started = time.time()
    with log:
        header = {
            "tunables": [t.__dict__ for t in TUNABLES],
            "iterations": n,
            "pairs": args.pairs,
            "nodes": args.nodes,
            "seed": args.seed,
            "fixed": args.fixed,
        }
        print(json.dumps(header), file=log, flush=True)
        for k in range(1, n + 1):
            signs = {t.name: rng.choice((-1, 1)) for t in TUNABLES}
            ck = {name: c0[name] / k**GAMMA for name in theta}
            plus = {t.name: round(clip(theta[t.name] + ck[t.name] * signs[t.name], t)) for t in TUNABLES}
            minus = {t.name: round(clip(theta[t.name] - ck[t.name] * signs[t.name], t)) for t in TUNABLES}
            chosen = [rng.choice(openings) for _ in range(args.pairs)]
            result = match.run_match(
                player(args.nodes, plus, args.fixed),
                player(args.nodes, minus, args.fixed),
                games=2 * args.pairs,
                openings=chosen,
                seed=args.seed * 100_003 + k,
                concurrency=args.concurrency,
            )
            outcome = result.wins - result.losses
            for t in TUNABLES:
                rk = a0[t.name] / (big_a + k) ** ALPHA / ck[t.name] ** 2
                theta[t.name] = clip(theta[t.name] + rk * ck[t.name] * outcome * signs[t.name], t)
            line = {
                "k": k,
                "plus": plus,
                "minus": minus,
                "score": [result.wins, result.draws, result.losses],
                "theta": {name: round(value, 2) for name, value in theta.items()},
                "elapsed": round(time.time() - started, 1),
            }
            print(json.dumps(line), file=log, flush=True)
            if k % 20 == 0:
                shown = ", ".join(f"{name}={value:.1f}" for name, value in theta.items())
                print(f"{k}/{n}: {shown}", file=sys.stderr, flush=True)
    print(json.dumps({name: round(value) for name, value in theta.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
