"""``congo datagen``: self-play positions scored by a search, packed for training (docs/datagen.md)."""

from __future__ import annotations

import argparse
import sys
import time

from congo.cli._args import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    add_output,
    add_ray,
    add_tablebase,
    add_workers,
    nonnegative_int,
    positive_int,
)
from congo.cli._progress import Progress


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "datagen",
        help="play self-play games and write their quiet positions, scored, as training data",
        description=run.__doc__,
    )
    add_output(parser, required=True, help="the data file (written to a temporary file, renamed when done)")
    parser.add_argument("--positions", type=positive_int, required=True, help="positions to write")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--nodes", type=positive_int, help="nodes per search (default: 5000)")
    budget.add_argument("--depth", type=positive_int, help="plies per search, instead of nodes")
    add_workers(
        parser,
        "games played at once (default: one per core, or per CPU of the Ray cluster)",
        name="--threads",
    )
    add_tablebase(parser, "the engine uses them, and they label the positions within them exactly")
    parser.add_argument("--seed", type=nonnegative_int, default=None, help="seed of the run (default: 0)")
    parser.add_argument(
        "--first-game", type=nonnegative_int, default=None, help="index of the first game (default: 0)"
    )
    parser.add_argument(
        "--after",
        metavar="FILE",
        help="continue the run of this data file: its seed and settings, from its next game",
    )
    parser.add_argument(
        "--random-plies",
        metavar="MIN-MAX",
        default=None,
        help="random opening moves, a count drawn per game from this range (default: 4-8)",
    )
    parser.add_argument(
        "--multipv",
        type=positive_int,
        default=None,
        help="lines a diversified move is chosen from (default: 3)",
    )
    parser.add_argument(
        "--margin",
        type=nonnegative_int,
        default=None,
        help="centipawns below the best line within which one is chosen (default: 50)",
    )
    parser.add_argument(
        "--diversify-plies",
        type=nonnegative_int,
        default=None,
        help="engine moves chosen among the best lines after the random opening (default: 16)",
    )
    parser.add_argument(
        "--max-plies",
        type=positive_int,
        default=None,
        help="draw a game after this many moves (default: 300)",
    )
    add_ray(parser, "play")
    parser.set_defaults(run=run)
    return parser


def _random_plies(text: str) -> tuple[int, int]:
    low, dash, high = text.partition("-")
    if not dash:
        low = high = text
    if not (low.isascii() and low.isdigit() and high.isascii() and high.isdigit()):
        raise ValueError(f"--random-plies must be MIN-MAX (two counts, e.g. 4-8) or one count, got {text!r}")
    return int(low), int(high)


def run(args: argparse.Namespace) -> int:
    """Plays games of the engine against itself (random opening moves, then moves chosen among
    the best few for a while, then the best) on every core or a Ray cluster, and writes the quiet
    positions of games 0, 1, 2, … with the score of a fixed-node (or fixed-depth) search and the
    game's result (the exact one in the endgame tables) until there are --positions of them: 32
    bytes a position, a header with a checksum. The same seed and settings give the same file on
    any number of threads or machines. --after FILE writes the next shard of FILE's run. The file
    is written whole (a temporary file renamed into place); Ctrl-C writes the games finished so
    far."""
    from congo import datagen

    tuned = {
        "depth": args.depth,
        "nodes": args.nodes,
        "multipv": args.multipv,
        "margin": args.margin,
        "diversify_plies": args.diversify_plies,
        "max_plies": args.max_plies,
    }
    settings = {name: value for name, value in tuned.items() if value is not None}
    if args.random_plies is not None:
        settings["min_random_plies"], settings["max_random_plies"] = _random_plies(args.random_plies)
    if args.after is not None and (settings or args.seed is not None or args.first_game is not None):
        raise ValueError(
            "--after takes the seed, the first game and the settings from its file: leave them out"
        )
    config = datagen.DatagenConfig(**settings) if args.after is None else None
    start = time.perf_counter()
    cpu = time.process_time()
    with Progress(args.positions) as progress:

        def report(positions: int, games: int, searched: int) -> None:
            elapsed = time.perf_counter() - start
            progress.update(
                positions,
                f"positions  games {games}  searched {searched}  "
                f"{positions / max(elapsed, 1e-9):,.0f} positions/s",
            )

        interrupted = False
        try:
            header = datagen.generate(
                args.output,
                args.positions,
                config,
                seed=args.seed or 0,
                first_game=args.first_game or 0,
                after=args.after,
                workers=args.threads,
                ray=args.ray,
                tablebase=args.tablebase,
                progress=report,
            )
        except datagen.GenerationInterrupted as stop:
            header = stop.header
            interrupted = True
        except ConnectionError as error:  # no cluster at that address
            raise ValueError(str(error)) from None
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    if interrupted:
        print("interrupted: wrote the games finished so far", file=sys.stderr)
    if header.games:
        games = f"games {header.first_game}-{header.first_game + header.games - 1}"
    else:  # stopped before its first game ended
        games = "no finished game"
    print(
        f"wrote {header.count} positions of {games} to {args.output} ({header.searched} positions searched)"
    )
    print(f"next game: {header.first_game + header.games} (continue with --after {args.output})")
    print(
        f"time {elapsed:.1f} s, {header.count / max(elapsed, 1e-9):,.0f} positions/s, "
        f"{header.count / max(cpu, 1e-9):,.0f} positions per CPU-second of this process"
    )
    return EXIT_INTERRUPTED if interrupted else EXIT_OK
