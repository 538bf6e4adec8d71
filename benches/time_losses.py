"""Losses on time of the engine's own time management: ``congo uci`` against itself on a short clock,
several games at once, counting the games lost on time (the target: at most one in 1,000 games at
1 s + 0.01 s, two games at once on two cores).

    nice python benches/time_losses.py --games 1000 --out benches/results/time-losses.txt
    nice python benches/time_losses.py --games 40 --label sample --out benches/results/time-losses-sample.txt

The games go through :func:`congo.match.run_match` (two outside engines, each one process per
worker kept across games, from random 4-ply openings), with no time margin: a move that overruns its
clock by any amount loses. The report gives the losses on time with by how much each overran, the
other endings, the lowest clock left after a move, the machine's load before and after (time
management depends on it), and the command line. ``--save`` keeps the games' records.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from collections.abc import Sequence

from congo import match
from congo.files import atomic_output, check_outputs


def _load() -> str:
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "?"


def run(
    games: int, control: match.TimeControl, concurrency: int, seed: int
) -> tuple[match.MatchResult, float]:
    engine = match.parse_player(f"uci:{shlex.join([sys.executable, '-m', 'congo', 'uci'])}")
    started = time.perf_counter()
    result = match.run_match(
        engine,
        engine,
        games=games,
        opening_plies=4,
        seed=seed,
        concurrency=concurrency,
        time_control=control,
        on_game=lambda result, game: print(
            f"{result.played}/{games} {game.result()} {game.outcome.termination.name.lower()}", flush=True
        ),
    )
    return result, time.perf_counter() - started


def report(
    result: match.MatchResult,
    control: match.TimeControl,
    *,
    label: str,
    argv: Sequence[str],
    elapsed: float,
    load_before: str,
    load_after: str,
) -> str:
    endings: dict[str, int] = {}
    lowest = float("inf")
    moves = 0
    forfeits = []
    for game in result.games:
        name = game.outcome.termination.name.lower()
        endings[name] = endings.get(name, 0) + 1
        clocks = [clock for clock in game.clocks if clock is not None]
        moves += len(clocks)
        lowest = min([lowest, *clocks])
        if (
            isinstance(game.outcome, match.Adjudicated)
            and game.outcome.termination is match.Adjudication.TIME_FORFEIT
        ):
            forfeits.append(f"  game {game.index + 1}: {game.outcome.reason}")
    lines = [
        f"congo uci against itself at {control} s, {label}",
        f"command: python benches/time_losses.py {shlex.join(argv)}",
        f"games: {result.played}, moves: {moves}, wall time {elapsed:.0f} s",
        f"losses on time: {endings.get('time_forfeit', 0)} of {result.played} games"
        + (
            f" ({1000 * endings.get('time_forfeit', 0) / result.played:.1f} per 1,000)"
            if result.played
            else ""
        ),
        *forfeits,
        "endings: " + ", ".join(f"{name} {count}" for name, count in sorted(endings.items())),
        f"lowest clock left after a move: {lowest:.3f} s" if moves else "no timed move",
        f"load average (1, 5, 15 min) before: {load_before}; after: {load_after}; CPUs: {os.cpu_count()}",
    ]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1000, help="games to play (default: 1000)")
    parser.add_argument("--tc", default="1+0.01", help="the clock, BASE+INC seconds (default: 1+0.01)")
    parser.add_argument("--concurrency", type=int, default=2, help="games at once (default: 2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the openings (default: 1)")
    parser.add_argument("--label", default="full run", help="what the run is, in the report's first line")
    parser.add_argument("--out", required=True, help="the report's file")
    parser.add_argument("--save", help="the games' records")
    args = parser.parse_args(argv)
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        control = match.TimeControl.parse(args.tc)
        if not 1 <= args.games <= match.MAX_GAMES or args.concurrency < 1:
            raise ValueError("--games must be from 1 to 1,000,000 and --concurrency at least 1")
        check_outputs([args.out, *([args.save] if args.save else [])])
    except (ValueError, OSError) as error:
        parser.error(str(error))
    before = _load()
    result, elapsed = run(args.games, control, args.concurrency, args.seed)
    text = report(
        result,
        control,
        label=args.label,
        argv=arguments,
        elapsed=elapsed,
        load_before=before,
        load_after=_load(),
    )
    with atomic_output(args.out) as out:
        out.write(text)
    if args.save:
        match.write_records(args.save, result.games, event=f"time losses at {control}")
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
