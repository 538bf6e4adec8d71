"""``congo tournament``: several players, each against each (round-robin) or the first against the
others (gauntlet), with ``congo match``'s options; and the ``--recover`` / ``--resume`` options
that both commands take (:func:`add_run_options`)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from congo.cli._args import EXIT_INTERRUPTED, EXIT_OK, add_ray, nonnegative_int, positive_int
from congo.cli._progress import Progress

if TYPE_CHECKING:
    from congo import match, tournament
    from congo.match import GameRecord


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """``--recover`` and ``--resume FILE`` (``congo match`` and ``congo tournament``)."""
    parser.add_argument(
        "--recover",
        action="store_true",
        help="an outside engine that cannot be (re)started before a game loses that game and the "
        "run goes on (without it the run stops with the error); an engine that crashes during a "
        "game always loses that game and is started anew for its next one",
    )
    parser.add_argument(
        "--resume",
        metavar="FILE",
        help="keep the state (every finished game) in FILE, each game written as it ends; run the same "
        "command again to go on from it after an interruption (a FILE of another command is refused)",
    )


def run_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of ``run_match`` / ``run_tournament`` from :func:`add_run_options`."""
    return {"recover": args.recover, "resume": args.resume}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    from congo import tournament
    from congo.cli import match as match_cli

    parser = subparsers.add_parser(
        "tournament",
        help="play several players against each other: round-robin or gauntlet",
        description=run.__doc__,
        epilog=match_cli.players_epilog(),
    )
    parser.add_argument("players", nargs="+", metavar="PLAYER", help="two or more, e.g. engine:nodes=10000")
    parser.add_argument(
        "--format",
        choices=tournament.FORMATS,
        default="round-robin",
        help="round-robin: every pair of players; gauntlet: the first player against each of the "
        "others (default: round-robin)",
    )
    parser.add_argument(
        "--games", type=positive_int, default=20, help="games per pairing, in pairs (default: 20)"
    )
    match_cli.add_opening_options(parser)
    parser.add_argument(
        "--seed", type=nonnegative_int, default=1, help="seed of random openings and players (default: 1)"
    )
    parser.add_argument(
        "--concurrency", type=positive_int, default=1, help="games played at once (default: 1)"
    )
    match_cli.add_game_options(parser)
    parser.add_argument(
        "--save",
        metavar="FILE",
        help="write every game to FILE as PGN-style records (Round: the game's number in the "
        "tournament; FILE.partial holds the finished games while it runs, as with congo match)",
    )
    add_ray(parser, "play")
    add_run_options(parser)
    match_cli.intermix_key_values(parser)
    parser.set_defaults(run=run)
    return parser


def endings_line(games: Iterable[GameRecord]) -> str:
    """The summary's ``endings:`` line: how many games ended each way, by termination name."""
    terminations: dict[str, int] = {}
    for game in games:
        name = game.outcome.termination.name.lower()
        terminations[name] = terminations.get(name, 0) + 1
    return "endings: " + ", ".join(f"{name} {count}" for name, count in sorted(terminations.items()))


def _report(result: tournament.TournamentResult, *, total: int, interrupted: bool, elapsed: float) -> None:
    if interrupted:
        print(f"interrupted after {result.played} of {total} games")
    print(result.summary())
    if result.games:
        print(endings_line(result.games))
    print(f"time {elapsed:.1f} s")


def run(args: argparse.Namespace) -> int:
    """Plays a tournament: round-robin (every pair of players) or gauntlet (the first player against
    each of the others, e.g. your bot against rungs of the ladder), --games games per pairing in
    pairs from one opening with colours swapped, every pairing from the same openings. Players are
    written as for `congo match`, each with its own limit and options (engine:nodes=10000,
    "uci[Hash=64,time=0.5]:./mybot") and clock (engine:tc=10+0.1, "uci[tc=5+0.05]:./mybot"; --tc
    times the players without one). The standings (points, games, Elo relative to the first player
    from a weighted least-squares fit over all the pairings, with its 95 % interval) are printed
    after each round and at the end, with a cross-table and each pairing's score. All of congo
    match's options apply (openings, --tc, adjudication, --concurrency, --ray), and --recover and
    --resume FILE. Ctrl-C stops it, prints the standings and saves the finished games. See
    docs/engine.md."""
    from congo import match, tournament
    from congo.cli import match as match_cli

    entrants = [match.parse_player(player) for player in args.players]
    if len(entrants) < 2:
        raise ValueError("a tournament needs at least two players")
    options: dict[str, Any] = {
        "format": args.format,
        "games": args.games,
        **match_cli.opening_arguments(args),
        "seed": args.seed,
        "concurrency": args.concurrency,
        **match_cli.game_arguments(args),
        "ray": args.ray,
        **run_arguments(args),
    }
    pairings = len(tournament.pairings(len(entrants), args.format))
    total = pairings * args.games
    if total > match.MAX_GAMES:
        raise ValueError(f"the tournament would play {total:,} games, at most {match.MAX_GAMES:,}")
    event = "congo tournament"
    if args.save == "-":
        raise ValueError("--save needs a file name (the report is on standard output)")
    partial = match_cli.check_save_and_resume(args)
    progress = Progress(total)
    round_size = pairings * 2
    played_now = [0]  # games played by this run (the others came from --resume's state)

    def on_event(event: match.MatchEvent) -> None:
        progress.note(str(event))

    def on_game(result: tournament.TournamentResult, game: match.GameRecord) -> None:
        if partial is not None:
            partial.write(game.record(event=event, round_number=result.numbers[-1] + 1))
        played_now[0] += 1
        number = result.numbers[-1] + 1
        if number % round_size == 0 and number < total:  # a round of every pairing is in
            progress.note(f"after {number} games:\n{result.table()}")
        progress.update(result.played, f"last: {game.white} vs {game.black} {game.result()}")

    start = time.perf_counter()
    interrupted = False
    try:
        result = tournament.run_tournament(entrants, on_game=on_game, on_event=on_event, **options)
    except tournament.TournamentInterrupted as stopped:
        result, interrupted = stopped.result, True
    finally:
        progress.close()
        if partial is not None:
            partial.close()
    if result.played > played_now[0]:
        print(f"{result.played - played_now[0]} finished games taken from {args.resume}")
    _report(result, total=total, interrupted=interrupted, elapsed=time.perf_counter() - start)
    if args.save:
        result.write_records(args.save, event=event)
        if partial is not None:
            partial.remove()
        print(f"{result.played} games saved to {args.save}")
    return EXIT_INTERRUPTED if interrupted else EXIT_OK
