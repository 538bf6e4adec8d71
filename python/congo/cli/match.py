"""``congo match``: two players against each other in pairs of games from balanced openings.

To add an option: add it in :func:`register` (shared blocks are in :mod:`congo.cli._args`) and pass
it on in :func:`_run_match_arguments`; what is printed at the end is in :func:`_report`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import stat
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
    openings = parser.add_mutually_exclusive_group()
    openings.add_argument(
        "--openings",
        metavar="FILE",
        help="play each opening of FILE (one FEN a line, or a FEN then ';'-separated fields; '#' "
        "comments) twice, colours swapped, in order (over again if the match is longer); "
        "default: the bundled balanced suite of congo/data/openings.txt",
    )
    openings.add_argument(
        "--opening-plies",
        type=nonnegative_int,
        metavar="N",
        help="instead of a suite, distinct random openings of N plies from the start position "
        "(reproducible with --seed), each played twice",
    )
    parser.add_argument(
        "--sprt",
        nargs="*",
        metavar="KEY=VALUE",
        help="run a sequential probability ratio test, e.g. --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 "
        "(the defaults; logistic Elo, or model=normalized), checked after each pair: the match "
        "stops when the LLR crosses a bound. Put it after the players",
    )
    parser.add_argument(
        "--seed", type=nonnegative_int, default=1, help="seed of random openings and players (default: 1)"
    )
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
        "while the match runs; FILE is replaced when it ends; a FILE.partial already there, the "
        "games of a killed run, is refused: rename it to keep them)",
    )
    add_ray(parser, "play")
    parser.set_defaults(run=run)
    return parser


def _run_match_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`congo.match.run_match` that come from the options."""
    from congo import match

    return {
        "games": args.games,
        "openings": None if args.openings is None else match.read_openings(args.openings),
        "opening_plies": args.opening_plies,
        "sprt": None if args.sprt is None else match.SPRT.parse(args.sprt),
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


def _create_partial(name: str, inputs: list[str]) -> IO[str]:
    """Creates ``FILE.partial`` for the finished games, exclusively: never over an input, never
    through a symbolic link, never over what an earlier run left (its finished games, refused with
    how to keep them)."""
    from congo._files import check_not_an_input

    check_not_an_input(name, inputs)
    try:
        info = os.lstat(name)
    except FileNotFoundError:
        info = None
    if info is not None:
        if stat.S_ISLNK(info.st_mode):
            what = "a symbolic link"
        elif not stat.S_ISREG(info.st_mode):
            what = "not a regular file"
        else:
            games = _count_records(name)
            plural = "s" * (games != 1)
            what = f"left by an earlier match that was stopped: it holds {games} finished game{plural}"
        raise ValueError(
            f"{name} is there ({what}); the match writes its finished games there: rename it to keep "
            f"them (PGN-style records, as --save writes) or remove it, then run again"
        )
    # O_EXCL: fails if anything appeared at the name since (a link, even one to nothing, included).
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        handle = os.open(name, flags, 0o666)
    except FileExistsError:
        raise ValueError(
            f"{name} appeared while the match started: rename or remove it, then run again"
        ) from None
    return os.fdopen(handle, "w", encoding="utf-8")


def _count_records(name: str) -> int:
    """The games in a ``FILE.partial`` (a regular file, read without following a link)."""
    try:
        handle = os.open(name, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return 0
    count = 0
    with os.fdopen(handle, "rb") as file:
        for line in file:
            count += line.startswith(b"[Event ")
    return count


def _remove_partial(name: str, identity: tuple[int, int] | None) -> None:
    """Removes ``FILE.partial`` once FILE holds its games, if it is still the file this run made."""
    with contextlib.suppress(OSError):
        info = os.lstat(name)
        if (info.st_dev, info.st_ino) == identity:
            os.unlink(name)


def run(args: argparse.Namespace) -> int:
    """Plays two players against each other in pairs of games, each pair from one opening with
    colours swapped, and prints the score, the Elo difference with its 95 % interval from the pairs
    (pentanomial), the likelihood of superiority (LOS) and the pairs' counts (Ptnml: pairs worth 0,
    1/2, 1, 3/2, 2 points), or "too few games" where no interval is defined yet.

    Openings: the bundled balanced suite by default, --openings FILE, or --opening-plies N random
    plies. With --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 the match stops as soon as the
    log-likelihood ratio crosses a bound (checked after each pair) and prints it as fishtest does:
    "LLR: 2.95 (-2.94, 2.94) [0.00, 10.00]". An odd --games plays the last opening once, the first
    player White (counted in the score, not in the pairs). See docs/engine.md.

    Players: engine[:key=value,...] (keys: time, depth, nodes, threads, hash, and any engine option
    from `congo options`), alphabeta[:depth=N] (material only), greedy, random, and
    uci:COMMAND LINE (any engine speaking the protocol of docs/protocol.md, e.g. "uci:congo uci"),
    or uci[key=value,...]:COMMAND LINE with a per-move limit (time, depth, nodes) and engine options.
    With --tc the games are played on a clock; a side that runs out of time, or an outside engine
    that answers an illegal move or dies, loses. Ctrl-C stops the match, prints the standings and
    saves the finished games."""
    from congo import match
    from congo._files import check_writable

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
    if args.save == "-":  # elsewhere '-' is standard output: never silently a file named '-'
        raise ValueError(
            "--save needs a file name (the report is on standard output; ./- for a file named '-')"
        )
    partial_identity: tuple[int, int] | None = None
    if args.save:
        inputs = [args.openings] if args.openings else []
        try:
            check_writable(args.save, inputs=inputs)
            partial = _create_partial(f"{args.save}.partial", inputs)
        except OSError as error:
            raise ValueError(f"cannot write the games to {args.save}: {error.strerror or error}") from None
        info = os.fstat(partial.fileno())
        partial_identity = (info.st_dev, info.st_ino)
    progress = Progress(games)

    def on_game(result: match.MatchResult, game: match.GameRecord) -> None:
        if partial is not None:  # every finished game is on disk at once
            partial.write(game.record(event=event))
            partial.write("\n\n")
            partial.flush()
        progress.update(result.played, result.standing(game))

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
        match.write_records(args.save, result.games, event=event)
        _remove_partial(f"{args.save}.partial", partial_identity)
        print(f"{len(result.games)} games saved to {args.save}")
    return EXIT_INTERRUPTED if interrupted else EXIT_OK
