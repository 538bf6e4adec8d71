"""Steps per second of ``congo.learning.VectorGame`` against N ``congo.learning.GameState`` objects stepped
one by one from Python, in one run:

* ``VectorGame`` with masks only (``planes=False``) and with planes, for several batch sizes, on
  one thread and on every core: the loop ``games.step(games.random_actions())`` (random legal play,
  the actions drawn in Rust), so a figure is what one call per step of N games costs from Python;
* the same random play through ``congo.envs.gymnasium.CongoVectorEnv`` (fresh arrays every step);
* the baseline: N ``GameState`` objects, each step choosing a random legal action, ``apply`` and
  ``action_mask()`` (and ``observation()`` for the planes figure) from Python.

Each figure is the best of ``--repeat`` runs of ``--seconds`` each; wall time and the process's
CPU time are both given, since the machine may be shared (per CPU second is the steadier figure).

    python benches/vector_game.py [--quick] [--out benches/results/vector-game.txt]

Needs numpy and gymnasium (``pip install '.[gymnasium]'``) and a release build of the extension.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable

import congo
from congo.files import atomic_output, check_outputs
from congo.learning import GameState, VectorGame

MIN_GAMES_PER_THREAD = 256
"""A step is split over threads only when each gets this many games (the core's threshold)."""


def measure(seconds: float, repeat: int, step: Callable[[], int]) -> tuple[float, float]:
    """The best wall and CPU rates (steps per second) of ``repeat`` runs of ``step`` (which returns
    the steps it made) for ``seconds`` each."""
    best_wall = best_cpu = 0.0
    for _ in range(repeat):
        steps = 0
        wall, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - wall < seconds:
            steps += step()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        best_wall, best_cpu = max(best_wall, steps / wall), max(best_cpu, steps / max(cpu, 1e-9))
    return best_wall, best_cpu


def vector_step(n: int, planes: bool, threads: int) -> Callable[[], int]:
    games = VectorGame(n, seed=1, planes=planes, threads=threads)

    def step() -> int:
        games.step(games.random_actions())
        if planes:
            games.observations()
        return n

    return step


def env_step(n: int, threads: int) -> Callable[[], int]:
    from congo.envs.gymnasium import CongoVectorEnv

    envs = CongoVectorEnv(n, threads=threads)
    envs.reset(seed=1)

    def step() -> int:
        envs.step(envs._games.random_actions())  # legal random play, drawn in Rust as above
        return n

    return step


def games_step(n: int, planes: bool) -> Callable[[], int]:
    rng = random.Random(1)
    games = [GameState() for _ in range(n)]

    def step() -> int:
        for i, game in enumerate(games):
            game.apply(rng.choice(game.legal_actions()))
            if game.is_over():
                game = games[i] = GameState()
            game.action_mask()
            if planes:
                game.observation()
        return n

    return step


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="short runs, to see that it works")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", help="also write the report to this file")
    args = parser.parse_args()
    try:  # before the work: a bad path fails now, not after it
        check_outputs([args.out] if args.out else [])
    except (OSError, ValueError) as error:
        parser.error(str(error))
    seconds, repeat = (0.2, 1) if args.quick else (args.seconds, args.repeat)
    cores = os.cpu_count() or 1
    lines = [
        f"# congo {congo.__version__} VectorGame benchmark, Python {sys.version.split()[0]}, {cores} cores",
        f"# best of {repeat} runs of {seconds:g} s per figure; load average before: "
        + " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "",
        f"{'what':<58} {'steps/s wall':>14} {'per CPU s':>12} {'vs Games':>9}",
    ]
    print("\n".join(lines), flush=True)
    sizes = (256, 1024) if args.quick else (256, 1024, 4096)
    for planes in (False, True):
        label = "masks and planes" if planes else "masks"
        base_wall, base_cpu = measure(seconds, repeat, games_step(256, planes))
        rows = [(f"{256} learning.GameState objects from Python, {label}", base_wall, base_cpu)]
        for n in sizes:
            for threads in (1, 0):
                used = 1 if threads == 1 else min(cores, max(1, n // MIN_GAMES_PER_THREAD))
                if threads == 0 and used == 1:
                    continue  # too few games to split: the same figure as one thread
                rate = measure(seconds, repeat, vector_step(n, planes, threads))
                where = "1 thread" if used == 1 else f"{used} threads"
                rows.append((f"VectorGame({n:>5}), {label}, {where}", *rate))
        if not planes:
            for n in sizes[1:2]:
                rate = measure(seconds, repeat, env_step(n, 0))
                used = min(cores, max(1, n // MIN_GAMES_PER_THREAD))
                rows.append((f"CongoVectorEnv({n}), {used} threads (planes, int8 masks)", *rate))
        for what, wall, cpu in rows:
            line = f"{what:<58} {wall:>14,.0f} {cpu:>12,.0f} {wall / base_wall:>8.1f}x"
            lines.append(line)
            print(line, flush=True)
        lines.append("")
    if args.out:
        with atomic_output(args.out) as out:
            out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
