"""``congo match``: two players against each other in pairs of games from balanced openings.

To add an option: add it in :func:`register` (shared blocks are in :mod:`congo.cli._args`) and pass
it on in :func:`_run_match_arguments`; what is printed at the end is in :func:`_report`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import stat
import time
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

from congo.cli._args import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    add_ray,
    add_tablebase,
    nonnegative_int,
    positive_int,
)
from congo.cli._progress import Progress
from congo.cli.tournament import add_run_options, endings_line, run_arguments

if TYPE_CHECKING:
    from congo import match


KEY_VALUE_OPTIONS = ("--sprt", "--resign", "--draw")
"""The options followed by ``KEY=VALUE`` words, which may come anywhere on the line."""

_KEY_VALUE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
"""A ``KEY=VALUE`` word; a player never looks like one (``engine:depth=1``, ``uci[...]:…``)."""


def key_values_last(arguments: Sequence[str], options: Sequence[str] = KEY_VALUE_OPTIONS) -> list[str]:
    """The arguments with each of ``options`` and the ``KEY=VALUE`` words after it moved to the end,
    so that ``--sprt elo0=0 elo1=10 PLAYER1 PLAYER2`` parses as the players then the test (an
    option taking any number of words otherwise swallows the players). Stops at ``--``."""
    items = list(arguments)
    stop = items.index("--") if "--" in items else len(items)
    head, moved = [], []
    index = 0
    while index < stop:
        item = items[index]
        index += 1
        if item in options:
            moved.append(item)
            while index < stop and _KEY_VALUE.match(items[index]):
                moved.append(items[index])
                index += 1
        else:
            head.append(item)
    return head + moved + items[stop:]


def intermix_key_values(parser: argparse.ArgumentParser) -> None:
    """Lets the ``KEY=VALUE`` options of :data:`KEY_VALUE_OPTIONS` come anywhere on ``parser``'s
    command line (see :func:`key_values_last`): a subcommand's parser is handed its words through
    ``parse_known_args``, wrapped here."""
    parse = parser.parse_known_args

    def parse_known_args(args: Sequence[str] | None = None, namespace: Any = None) -> Any:
        return parse(None if args is None else key_values_last(args), namespace)

    parser.parse_known_args = parse_known_args  # type: ignore[method-assign, assignment]


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """The options of each game (what :func:`game_arguments` turns into :func:`congo.match.run_match`
    keywords): ``--max-plies``, ``--tc``, ``--timemargin``, ``--resign``, ``--draw``,
    ``--tablebase``; for ``congo match`` and ``congo tournament``."""
    parser.add_argument(
        "--max-plies",
        type=positive_int,
        default=200,
        help="adjudicate a draw after this many plies (default: 200)",
    )
    parser.add_argument(
        "--tc",
        metavar="TC",
        help="play on a clock: BASE+INC seconds (e.g. 10+0.1) or MOVES/BASE+INC, for each player "
        "without its own tc= (engine:tc=10+0.1, uci[tc=5+0.05]:CMD); default: per-move limits (a "
        "uci: or engine: player without time/depth/nodes gets time=0.1 s a move)",
    )
    parser.add_argument(
        "--timemargin",
        type=nonnegative_int,
        metavar="MS",
        default=0,
        help="on a clock, a move late by at most MS milliseconds is reported, not lost; its clock "
        "is then 0 before the increment (default: 0)",
    )
    parser.add_argument(
        "--resign",
        nargs="*",
        metavar="KEY=VALUE",
        help="adjudicate a loss: movecount=N score=CP [twosided=true]: a side whose own score is "
        "at most -CP centipawns for N moves in a row loses (twosided: both sides' scores agree)",
    )
    parser.add_argument(
        "--draw",
        nargs="*",
        metavar="KEY=VALUE",
        help="adjudicate a draw: movenumber=N movecount=N score=CP: after move number N, both "
        "scores within CP centipawns of zero for N moves each in a row",
    )
    add_tablebase(parser, "a position within the tables ends the game with their exact result")


def game_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`congo.match.run_match` that :func:`add_game_options` adds:
    ``max_plies``, ``time_control``, ``time_margin``, ``adjudicator`` (``None`` without one)."""
    from congo import match

    adjudicator = None
    if args.resign is not None or args.draw is not None or args.tablebase is not None:
        for option, words in (("--resign", args.resign), ("--draw", args.draw)):
            if words is not None and not words:
                raise ValueError(f"{option} needs KEY=VALUE words, e.g. {_EXAMPLES[option]}")
        adjudicator = match.Adjudicator.create(resign=args.resign, draw=args.draw, tablebase=args.tablebase)
    return {
        "max_plies": args.max_plies,
        "time_control": None if args.tc is None else match.TimeControl.parse(args.tc),
        "time_margin": args.timemargin / 1000,
        "adjudicator": adjudicator,
    }


_EXAMPLES = {
    "--resign": "--resign movecount=3 score=600",
    "--draw": "--draw movenumber=40 movecount=8 score=10",
}


def add_opening_options(parser: argparse.ArgumentParser) -> None:
    """``--openings``, ``--opening-plies``, ``--pgn-plies``, ``--openings-order``,
    ``--openings-start``, ``--allow-repeats`` (see :func:`opening_arguments`)."""
    openings = parser.add_mutually_exclusive_group()
    openings.add_argument(
        "--openings",
        metavar="FILE",
        help="play each opening of FILE twice, colours swapped, over again if the match is longer: "
        "a FEN a line (or a FEN then ';'-separated fields), EPD lines, or PGN records (their final "
        "position, or see --pgn-plies); '#' comments. Default: the bundled balanced suite",
    )
    openings.add_argument(
        "--book",
        metavar="FILE",
        help="instead of a suite, openings from an opening book (congo book make): each pair starts "
        "where a line of weighted book moves from the start position, both sides', leaves the book "
        "(reproducible with --seed)",
    )
    openings.add_argument(
        "--opening-plies",
        type=nonnegative_int,
        metavar="N",
        help="instead of a suite, distinct random openings of N plies from the start position "
        "(reproducible with --seed), each played twice",
    )
    parser.add_argument(
        "--pgn-plies",
        type=nonnegative_int,
        metavar="N",
        help="with PGN --openings: the position after each record's first N plies (default: its end)",
    )
    parser.add_argument(
        "--openings-order",
        choices=("sequential", "random"),
        default="sequential",
        help="the order of the --openings: as in the file, or shuffled by --seed (default: sequential)",
    )
    parser.add_argument(
        "--openings-start",
        type=positive_int,
        metavar="N",
        default=1,
        help="begin with the N-th opening (counted from 1, after --openings-order; default: 1)",
    )
    parser.add_argument(
        "--allow-repeats",
        action="store_true",
        help="play a match whose deterministic players (depth or node limits) would replay pairs "
        "(more pairs than openings); refused otherwise. Each distinct pair is counted once",
    )


def opening_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`congo.match.run_match` that :func:`add_opening_options`
    adds: ``openings`` (read and arranged, or ``None``), ``opening_plies``, ``allow_repeats``."""
    from congo import match

    openings = None
    if getattr(args, "book", None) is not None:
        from congo import book

        with book.open_reader(args.book) as reader:
            openings = book.openings(reader, max(1, (args.games + 1) // 2), seed=args.seed)
    elif args.openings is not None:
        openings = match.read_openings(args.openings, plies=args.pgn_plies)
        openings = match.arrange_openings(
            openings, order=args.openings_order, seed=args.seed, start=args.openings_start
        )
    else:
        if args.pgn_plies is not None:
            raise ValueError("--pgn-plies applies to PGN --openings")
        if args.openings_order != "sequential" or args.openings_start != 1:
            if args.opening_plies is not None:
                raise ValueError(
                    "--openings-order and --openings-start apply to --openings or the bundled suite"
                )
            openings = match.arrange_openings(
                match.default_openings(), order=args.openings_order, seed=args.seed, start=args.openings_start
            )
    return {"openings": openings, "opening_plies": args.opening_plies, "allow_repeats": args.allow_repeats}


def players_epilog() -> str:
    """The kinds of player, for the end of ``--help`` (``congo match`` and ``congo tournament``):
    from the table :func:`congo.players.parse_player` reads, so that a new kind is listed."""
    from congo.players import player_forms

    return f"players: {', '.join(player_forms())}"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "match",
        help="play two engine configurations or players against each other",
        description=run.__doc__,
        epilog=players_epilog(),
    )
    parser.add_argument("first", metavar="PLAYER1", help="e.g. engine:time=0.1")
    parser.add_argument("second", metavar="PLAYER2", help="e.g. alphabeta:depth=2")
    parser.add_argument("--games", type=positive_int, default=100, help="games to play (default: 100)")
    add_opening_options(parser)
    parser.add_argument(
        "--sprt",
        nargs="*",
        metavar="KEY=VALUE",
        help="run a sequential probability ratio test, e.g. --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 "
        "(the defaults; logistic Elo, or model=normalized), checked after each pair: the match "
        "stops when the LLR crosses a bound",
    )
    parser.add_argument(
        "--seed", type=nonnegative_int, default=1, help="seed of random openings and players (default: 1)"
    )
    parser.add_argument(
        "--concurrency", type=positive_int, default=1, help="games played at once (default: 1)"
    )
    add_game_options(parser)
    parser.add_argument(
        "--save",
        metavar="FILE",
        help="write the games to FILE as PGN-style records (FILE.partial holds the finished games "
        "while the match runs; FILE is replaced when it ends; a FILE.partial already there, the "
        "games of a killed run, is refused: rename it to keep them)",
    )
    add_ray(parser, "play")
    add_run_options(parser)
    intermix_key_values(parser)
    parser.set_defaults(run=run)
    return parser


def _run_match_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`congo.match.run_match` that come from the options."""
    from congo import match

    return {
        "games": args.games,
        **opening_arguments(args),
        "sprt": None if args.sprt is None else match.SPRT.parse(args.sprt),
        "seed": args.seed,
        "concurrency": args.concurrency,
        **game_arguments(args),
        "ray": args.ray,
        **run_arguments(args),
    }


def _report(result: match.MatchResult, *, games: int, interrupted: bool, elapsed: float) -> None:
    if interrupted:
        print(f"interrupted after {result.played} of {games} games")
    print(result.summary())
    print(endings_line(result.games))
    print(f"time {elapsed:.1f} s")


def _check_partial(name: str, inputs: list[str]) -> None:
    """Refuses a ``FILE.partial`` name that is an input, a symbolic link, not a regular file, or
    what an earlier run left (its finished games, refused with how to keep them)."""
    from congo._files import check_not_an_input

    check_not_an_input(name, inputs)
    try:
        info = os.lstat(name)
    except FileNotFoundError:
        return
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


def _create_partial(name: str, inputs: list[str]) -> IO[str]:
    """Creates ``FILE.partial`` for the finished games, exclusively: never over an input, never
    through a symbolic link, never over what an earlier run left (:func:`_check_partial`)."""
    _check_partial(name, inputs)
    # O_EXCL: fails if anything appeared at the name since (a link, even one to nothing, included).
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        handle = os.open(name, flags, 0o666)
    except FileExistsError:
        raise ValueError(
            f"{name} appeared while the match started: rename or remove it, then run again"
        ) from None
    return os.fdopen(handle, "w", encoding="utf-8")


class _PartialGames:
    """``FILE.partial``: its name checked now (:func:`_check_partial`), the file created at the
    first finished game. A run refused before its first game (too few distinct openings, a resume
    state of another run, an engine that does not start) leaves nothing behind that the next run
    would refuse."""

    def __init__(self, name: str, inputs: list[str]) -> None:
        _check_partial(name, inputs)
        self.name = name
        self._inputs = inputs
        self._file: IO[str] | None = None
        self._identity: tuple[int, int] | None = None

    def write(self, record: str) -> None:
        if self._file is None:
            self._file = _create_partial(self.name, self._inputs)
            info = os.fstat(self._file.fileno())
            self._identity = (info.st_dev, info.st_ino)
        self._file.write(record)
        self._file.write("\n\n")
        self._file.flush()  # every finished game is on disk at once

    def close(self) -> None:
        if self._file is not None:
            self._file.close()

    def remove(self) -> None:
        """Removes the file once FILE holds its games, if it is still the one this run made."""
        if self._identity is not None:
            _remove_partial(self.name, self._identity)


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


def check_save_and_resume(args: argparse.Namespace) -> _PartialGames | None:
    """Checks before any game what ``--save FILE`` and ``--resume STATE`` will write (``congo match``
    and ``congo tournament``): each writable, neither an input (``--openings``, ``--book``), not
    the same file; returns ``FILE.partial`` (created at the first finished game) unless the state
    file keeps the finished games."""
    from congo._files import SameFileError, check_outputs

    inputs = [path for path in (args.openings, getattr(args, "book", None)) if path]
    for path, what in ((args.save, "the games"), (args.resume, "the match state")):
        if path:
            try:
                check_outputs([path], inputs=inputs)
            except OSError as error:
                raise ValueError(f"cannot write {what} to {path}: {error.strerror or error}") from None
    if args.resume and os.path.exists(args.resume) and not os.path.isfile(args.resume):
        # A FIFO would block the read of the state for ever; a device holds no state.
        raise ValueError(f"--resume {args.resume} is not a regular file: give the match state a file")
    if args.save and args.resume:
        try:  # the records written at the end would replace the state
            check_outputs([args.save, args.resume])
        except SameFileError:
            raise SameFileError(
                f"--resume {args.resume} is the --save file: give the match state a file of its own"
            ) from None
    if args.save and not args.resume:
        return _PartialGames(f"{args.save}.partial", inputs)
    return None


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
    from `congo options`), alphabeta[:depth=N] (material only), mcts:net=FILE[,sims=N] (a network
    searched by congo.mcts, see docs/learning.md), greedy, random, and uci:COMMAND LINE
    (any engine speaking the protocol of docs/protocol.md, e.g. "uci:congo uci"), or
    uci[key=value,...]:COMMAND LINE with a per-move limit (time, depth, nodes) and engine options.
    Without a limit, engine: and uci: players get time=0.1 (0.1 s a move). With --tc the games are
    played on a clock; a player may have its own, tc=BASE+INC among its settings (engine:tc=10+0.1,
    uci[tc=5+0.05]:./mybot), --tc timing the others; a side that runs out of time (beyond
    --timemargin), or an outside engine that answers an illegal move or dies, loses, said on stderr
    as it happens. --resign, --draw and --tablebase end games early. Players that always play the
    same game (depth or node limits) are refused when they would replay pairs, unless
    --allow-repeats. Options may come in any order. Ctrl-C stops the match, prints the standings and
    saves the finished games."""
    from congo import match

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
    partial: _PartialGames | None = None
    if args.save == "-":  # elsewhere '-' is standard output: never silently a file named '-'
        raise ValueError(
            "--save needs a file name (the report is on standard output; ./- for a file named '-')"
        )
    partial = check_save_and_resume(args)
    progress = Progress(games)

    def on_event(event: match.MatchEvent) -> None:
        # As it happens (from the thread playing the game), above the progress line.
        progress.note(f"warning: {event}" if event.kind == "repeats" else str(event))

    def on_game(result: match.MatchResult, game: match.GameRecord) -> None:
        if partial is not None:
            partial.write(game.record(event=event))
        progress.update(result.played, result.standing(game))

    start = time.perf_counter()
    interrupted = False
    try:
        result = match.run_match(first, second, on_game=on_game, on_event=on_event, **options)
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
        if partial is not None:
            partial.remove()
        print(f"{len(result.games)} games saved to {args.save}")
    return EXIT_INTERRUPTED if interrupted else EXIT_OK
