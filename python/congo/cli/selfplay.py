"""``congo selfplay``: engine-vs-engine games written as training data (Parquet or .npz)."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING

from congo import _core
from congo.cli._args import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    add_fen,
    add_hash,
    add_output,
    add_ray,
    add_workers,
    nonnegative_int,
    positive_int,
)
from congo.cli._progress import Progress

if TYPE_CHECKING:
    from congo.selfplay import Rows

FORMATS = (".parquet", ".pq", ".npz")
"""The file name endings ``-o`` accepts (any case)."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "selfplay",
        help="play engine-vs-engine games and write training data (Parquet or .npz)",
        description=run.__doc__,
    )
    parser.add_argument("--games", type=positive_int, required=True, help="games to play")
    parser.add_argument("--nodes", type=positive_int, required=True, help="nodes searched per move")
    add_output(parser, required=True, help="a .parquet or .npz file (written whole at the end)")
    parser.add_argument("--seed", type=nonnegative_int, default=0, help="seed of the run (default: 0)")
    add_workers(parser, "games played at once (default: one per core, or per CPU of the Ray cluster)")
    parser.add_argument(
        "--opening-plies",
        type=nonnegative_int,
        default=6,
        help="random moves before the engine plays (default: 6)",
    )
    parser.add_argument(
        "--max-plies",
        type=positive_int,
        default=300,
        help="draw a game after this many moves (default: 300)",
    )
    add_hash(parser, _core.GAME_POOL_HASH_MB, "engine table size")
    add_fen(parser, "start position")
    add_ray(parser, "play")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Plays games of the engine against itself at a node budget per move (after a few random
    opening moves) on every core, and writes one row per searched position: FEN and planes, the
    search's evaluation and best move, and the game's result. The format follows the file name:
    .parquet (needs pyarrow) or .npz (needs numpy). The file is checked before the first game and
    written whole at the end (a temporary file renamed into place: a failure leaves what was there).
    Ctrl-C writes the games finished so far."""
    from congo._files import atomic_output
    from congo.selfplay import SelfPlayConfig, _check_writer, merge, play_games, write_npz, write_parquet

    output: str = args.output
    if not output.lower().endswith(FORMATS):
        raise ValueError(f"unknown output format for {output!r}: use a .parquet or .npz file name")
    _check_writer(output)  # ImportError naming the extra, before any game is played
    config = SelfPlayConfig(
        nodes=args.nodes,
        opening_plies=args.opening_plies,
        max_plies=args.max_plies,
        hash_mb=args.hash,
        fen=args.fen,
    )
    # The temporary file is made now, next to the output: a path that cannot be written is an
    # error before the first game.
    with atomic_output(output, "wb") as out:
        start = time.perf_counter()
        parts: list[Rows] = []
        positions = 0
        tally = {"1-0": 0, "0-1": 0, "1/2-1/2": 0}
        games = play_games(args.games, config, seed=args.seed, workers=args.workers, ray=args.ray)
        interrupted = False
        done = 0
        with Progress(args.games, show_bar=False) as progress:
            while True:
                try:
                    rows = next(games)
                except StopIteration:
                    break
                except ConnectionError as error:  # no cluster at that address
                    raise ValueError(str(error)) from None
                except KeyboardInterrupt:
                    # Ctrl-C: the games already finished are written; the running ones are dropped.
                    games.close()
                    interrupted = True
                    break
                done += 1
                parts.append(rows)
                positions += len(rows["fen"])
                if rows["result"]:
                    tally[rows["result"][0]] += 1
                elapsed = time.perf_counter() - start
                progress.update(
                    done,
                    f"games {done}/{args.games}  positions {positions}  "
                    f"{positions / max(elapsed, 1e-9):,.0f} positions/s  "
                    f"+{tally['1-0']} ={tally['1/2-1/2']} -{tally['0-1']}",
                )
        merged = merge(parts)
        if output.lower().endswith(".npz"):
            write_npz(out, merged)
        else:
            write_parquet(out, merged)
    elapsed = time.perf_counter() - start
    if interrupted:
        print(f"interrupted: wrote the {done} finished games", file=sys.stderr)
    print(f"wrote {positions} positions from {done} games to {output}")
    print(f"results: 1-0 {tally['1-0']}, 0-1 {tally['0-1']}, draws {tally['1/2-1/2']}")
    print(f"time {elapsed:.1f} s, {positions / max(elapsed, 1e-9):,.0f} positions/s")
    return EXIT_INTERRUPTED if interrupted else EXIT_OK
