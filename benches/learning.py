"""The speed of the learning features, measured in one run:

* encoding: positions per second for ``congo.encode`` of a batch (the whole call: reading the
  Position objects, encoding in Rust, the numpy array), on one thread and on every core;
* environments: steps (actions) per second of random legal play in each framework, and the share of
  the time spent in the framework's own code, in congo (Python and Rust) and in numpy, from a
  cProfile run of the same loop (profiling slows everything; the shares are what it shows);
* self-play: positions per second of ``congo selfplay`` at a node budget, on one thread and on
  every core.

    python benches/learning.py [--quick] [--out benches/results/learning.txt]

Needs ``pip install '.[learning]'`` and a release build of the extension.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import congo
from congo import selfplay
from congo.files import atomic_output, check_outputs
from congo.learning import GameState

ROOT = Path(__file__).resolve().parent.parent


def positions_from_random_games(count: int, seed: int) -> list[congo.Position]:
    rng = random.Random(seed)
    positions: list[congo.Position] = []
    while len(positions) < count:
        game = GameState(max_plies=200)
        while not game.is_over() and len(positions) < count:
            moves = game.legal_moves()
            game.push(rng.choice(moves))
            positions.append(game.position)
    return positions


def best_of(repeat: int, work: Callable[[], object]) -> float:
    """The shortest wall time of ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def best_cpu_of(repeat: int, work: Callable[[], object]) -> float:
    """The shortest CPU time of this process over ``repeat`` runs: on a machine shared with other
    jobs, wall time mostly measures waiting for a core."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def bench_encoding(lines: list[str], quick: bool) -> None:
    positions = positions_from_random_games(20_000 if quick else 200_000, seed=1)
    n = len(positions)
    lines.append(
        f"## encoding ({n:,} positions from random games, uint8 planes {congo.learning.NUM_PLANES}x7x7)"
    )
    for batch in (256, 1024, 4096, n):
        chunks = [positions[i : i + batch] for i in range(0, n, batch)]

        def work() -> None:
            for chunk in chunks:  # noqa: B023
                congo.encode(chunk, threads=1)

        wall = best_of(3 if quick else 5, work)
        cpu = best_cpu_of(3 if quick else 5, work)
        lines.append(
            f"congo.encode, batches of {batch:>7,}, 1 thread: {n / cpu / 1e6:6.2f} M positions/s per CPU "
            f"second ({n / wall / 1e6:5.2f} M/s wall)"
        )
    single = positions[:2000]
    seconds = best_cpu_of(3, lambda: [congo.encode(p) for p in single])
    lines.append(
        f"congo.encode, one call per position: {len(single) / seconds / 1e3:6.1f} k positions/s per CPU s"
    )
    boards = [congo.Board.from_position(p) for p in positions[:20_000]]
    seconds = best_cpu_of(3, lambda: congo.encode(boards))
    lines.append(
        "congo.encode, a batch of 20,000 Boards (repetitions read from their stacks): "
        f"{len(boards) / seconds / 1e6:6.2f} M/s per CPU s"
    )


def classify(filename: str, name: str) -> str:
    """Which code a profiled function belongs to: congo's own (its Python modules, the environment
    adapters in congo/envs included, and its Rust extension), the framework's, numpy's, other
    built-ins, or the benchmark's driver loop."""
    if "/congo/" in filename or "congo._core" in name or "congo.learning" in name:
        return "congo"
    if "pettingzoo" in filename or "gymnasium" in filename or "open_spiel" in filename or "pyspiel" in name:
        return "framework"
    if "numpy" in filename or "numpy" in name:
        return "numpy"
    if filename == "~" and ("method" in name or "built-in" in name):
        return "builtins"
    return "driver"


def profile_shares(loop: Callable[[], int]) -> dict[str, float]:
    profiler = cProfile.Profile()
    profiler.enable()
    loop()
    profiler.disable()
    stats = pstats.Stats(profiler)
    shares: dict[str, float] = {}
    total = 0.0
    for (filename, _line, name), (_cc, _nc, tottime, _ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        kind = classify(filename, name)
        shares[kind] = shares.get(kind, 0.0) + tottime
        total += tottime
    return {kind: seconds / total for kind, seconds in shares.items()}


def game_loop(steps: int) -> Callable[[], int]:
    def loop() -> int:
        rng = random.Random(1)
        game, done = GameState(), 0
        while done < steps:
            if game.is_over():
                game = GameState()
            game.apply(rng.choice(game.legal_actions()))
            np.frombuffer(game.observation(), dtype=np.uint8)
            done += 1
        return done

    return loop


def pettingzoo_loop(steps: int) -> Callable[[], int]:
    from congo.envs.pettingzoo import env

    def loop() -> int:
        rng = np.random.default_rng(1)
        environment = env()
        environment.reset(seed=1)
        done = 0
        while done < steps:
            observation, _, termination, truncation, _ = environment.last()
            if termination or truncation:
                environment.reset()
                continue
            environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            done += 1
        return done

    return loop


def gymnasium_loop(steps: int) -> Callable[[], int]:
    import gymnasium

    from congo.envs.gymnasium import ENV_ID

    def loop() -> int:
        rng = np.random.default_rng(1)
        environment = gymnasium.make(ENV_ID, opponent="random")  # with gymnasium's standard wrappers
        observation, _ = environment.reset(seed=1)
        done = 0
        while done < steps:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, _, terminated, truncated, _ = environment.step(action)
            done += 1
            if terminated or truncated:
                observation, _ = environment.reset()
        return done

    return loop


def openspiel_loop(steps: int) -> Callable[[], int]:
    import pyspiel

    import congo.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("python_congo")

    def loop() -> int:
        rng = random.Random(1)
        state, done = game.new_initial_state(), 0
        while done < steps:
            if state.is_terminal():
                state = game.new_initial_state()
            state.apply_action(rng.choice(state.legal_actions()))
            state.observation_tensor(0)
            done += 1
        return done

    return loop


def bench_environments(lines: list[str], quick: bool) -> None:
    steps = 3000 if quick else 20000
    lines.append("")
    lines.append(f"## environment steps: random legal actions, observation each step ({steps:,} steps)")
    lines.append(
        "rates per CPU second of this process (the machine is shared); share of profiled time: "
        "framework / congo (Python + Rust) / numpy / builtins / driver loop"
    )
    loops = [
        ("congo.learning.GameState (no framework)", game_loop),
        ("PettingZoo AEC (env() with wrappers)", pettingzoo_loop),
        ("Gymnasium (gymnasium.make, random opponent)", gymnasium_loop),
        ("OpenSpiel (python_congo via pyspiel)", openspiel_loop),
    ]
    for name, make in loops:
        loop = make(steps)
        seconds = best_cpu_of(3, loop)
        shares = profile_shares(make(steps // 4))
        share_text = " / ".join(
            f"{100 * shares.get(kind, 0):.0f} %"
            for kind in ("framework", "congo", "numpy", "builtins", "driver")
        )
        lines.append(f"{name:42}: {steps / seconds:9,.0f} steps per CPU s   {share_text}")


def bench_selfplay(lines: list[str], quick: bool) -> None:
    games = 4 if quick else 16
    lines.append("")
    lines.append(f"## self-play ({games} games per figure, max 300 plies, 6 random opening plies)")
    for nodes in (1000, 5000):
        for workers in (1, os.cpu_count() or 1):
            config = selfplay.SelfPlayConfig(nodes=nodes)
            start, cpu_start = time.perf_counter(), time.process_time()
            rows = selfplay.merge(selfplay.play_games(games, config, seed=3, workers=workers))
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
            count = len(rows["fen"])
            lines.append(
                f"nodes={nodes:5}, {workers} thread(s): {count / seconds:6,.0f} positions/s wall, "
                f"{count / cpu:6,.0f} per CPU s ({count:,} positions, {seconds:.1f} s wall, {cpu:.1f} s CPU)"
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", help="also write the report to this file")
    args = parser.parse_args()
    try:  # before the work: a bad path fails now, not after it
        check_outputs([args.out] if args.out else [])
    except (OSError, ValueError) as error:
        parser.error(str(error))
    lines = [
        f"# congo {congo.__version__} learning benchmarks, "
        f"Python {sys.version.split()[0]}, {os.cpu_count()} cores",
        "",
    ]
    bench_encoding(lines, args.quick)
    print("\n".join(lines), flush=True)
    start = len(lines)
    bench_environments(lines, args.quick)
    print("\n".join(lines[start:]), flush=True)
    start = len(lines)
    bench_selfplay(lines, args.quick)
    print("\n".join(lines[start:]), flush=True)
    if args.out:
        with atomic_output(args.out) as out:
            out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
