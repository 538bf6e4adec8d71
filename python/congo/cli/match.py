"""``congo match``: two players against each other from varied openings, both colours.

To add an option: add it in :func:`register` (shared blocks are in :mod:`congo.cli._args`) and pass
it on in :func:`_run_match_arguments`; what is printed at the end is in :func:`_report`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from typing import IO, TYPE_CHECKING, Any

from congo.cli._args import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    add_ray,
    nonnegative_int,
    positive_int,
)
from congo.cli._progress import Progress

if TYPE_CHECKING:
    from congo import match


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "match",
        help="play two engine configurations or players against each other",
        description=run.__doc__,
    )
    parser.add_argument("first", metavar="PLAYER1", help="e.g. engine:time=0.1")
    parser.add_argument("second", metavar="PLAYER2", help="e.g. alphabeta:depth=2")
    parser.add_argument("--games", type=positive_int, default=100, help="games to play (default: 100)")
    parser.add_argument(
        "--opening-plies",
        type=nonnegative_int,
        default=4,
        help="random plies before the players take over (default: 4)",
    )
    parser.add_argument("--seed", type=nonnegative_int, default=1, help="seed of the openings (default: 1)")
    parser.add_argument(
        "--max-plies",
        type=positive_int,
        default=200,
        help="adjudicate a draw after this many plies (default: 200)",
    )
    parser.add_argument(
        "--concurrency", type=positive_int, default=1, help="games played at once (default: 1)"
    )
    parser.add_argument(
        "--tc",
        metavar="TC",
        help="play on a clock: BASE+INC seconds (e.g. 10+0.1) or MOVES/BASE+INC; default: per-move limits",
    )
    parser.add_argument(
        "--save",
        metavar="FILE",
        help="write the games to FILE as PGN-style records (FILE.partial holds the finished games "
        "while the match runs; FILE is replaced when it ends)",
    )
    add_ray(parser, "play")
    parser.set_defaults(run=run)
    return parser


def _run_match_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`congo.match.run_match` that come from the options."""
    from congo import match

    return {
        "games": args.games,
        "opening_plies": args.opening_plies,
        "seed": args.seed,
        "max_plies": args.max_plies,
        "concurrency": args.concurrency,
        "time_control": None if args.tc is None else match.TimeControl.parse(args.tc),
        "ray": args.ray,
    }


def _report(result: match.MatchResult, *, games: int, interrupted: bool, elapsed: float) -> None:
    terminations: dict[str, int] = {}
    for game in result.games:
        name = game.outcome.termination.name.lower()
        terminations[name] = terminations.get(name, 0) + 1
    if interrupted:
        print(f"interrupted after {result.played} of {games} games")
    print(result.summary())
    print("endings: " + ", ".join(f"{name} {count}" for name, count in sorted(terminations.items())))
    print(f"time {elapsed:.1f} s")


def run(args: argparse.Namespace) -> int:
    """Plays two players against each other from varied openings, both colours, and prints the score
    and the Elo difference with its 95 % error bar.

    Players: engine[:key=value,...] (keys: time, depth, nodes, threads, hash, and any engine option
    from `congo options`), alphabeta[:depth=N] (material only), greedy, random, and
    uci:COMMAND LINE (any engine speaking the protocol of docs/protocol.md, e.g. "uci:congo uci"),
    or uci[key=value,...]:COMMAND LINE with a per-move limit (time, depth, nodes) and engine options.
    With --tc the games are played on a clock; a side that runs out of time, or an outside engine
    that answers an illegal move or dies, loses. Ctrl-C stops the match, prints the standings and
    saves the finished games."""
    from congo import match
    from congo._files import atomic_output, check_writable

    games: int = args.games
    if games > match.MAX_GAMES:
        raise ValueError(f"--games must be at most {match.MAX_GAMES:,}, got {games:,}")
    first = match.parse_player(args.first)
    second = match.parse_player(args.second)
    options = _run_match_arguments(args)
    event = f"{first[0]} vs {second[0]}"
    # Check that the records can be written before playing: a bad path is a one-line error now,
    # not a lost match later. The finished games go to FILE.partial as they end (kept if the
    # process is killed); FILE itself is written whole at the end, in game order.
    partial: IO[str] | None = None
    if args.save:
        try:
            check_writable(args.save)
            partial = open(f"{args.save}.partial", "w", encoding="utf-8")  # noqa: SIM115
        except OSError as error:
            raise ValueError(f"cannot write the games to {args.save}: {error.strerror or error}") from None
    progress = Progress(games)

    def on_game(result: match.MatchResult, game: match.GameRecord) -> None:
        if partial is not None:  # every finished game is on disk at once
            partial.write(game.record(event=event))
            partial.write("\n\n")
            partial.flush()
        progress.update(
            result.played,
            f"+{result.wins} ={result.draws} -{result.losses}  "
            f"{100 * result.score:.1f}%  (last: {game.white} vs {game.black} {game.result()})",
        )

    start = time.perf_counter()
    interrupted = False
    try:
        result = match.run_match(first, second, on_game=on_game, **options)
    except match.MatchInterrupted as stopped:
        result, interrupted = stopped.result, True
    finally:
        progress.close()
        if partial is not None:
            partial.close()
    _report(result, games=games, interrupted=interrupted, elapsed=time.perf_counter() - start)
    if args.save:
        # In game order (they were written to FILE.partial in order of completion).
        with atomic_output(args.save) as out:
            for game in result.games:
                out.write(game.record(event=event))
                out.write("\n\n")
        with contextlib.suppress(OSError):
            os.unlink(f"{args.save}.partial")
        print(f"{len(result.games)} games saved to {args.save}")
    return EXIT_INTERRUPTED if interrupted else EXIT_OK
