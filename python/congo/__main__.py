"""The ``congo`` command line: ``congo analyse``, ``congo match``, ``congo perft`` and more.

Run ``congo --help`` (or ``python -m congo --help``) for the subcommands.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Sequence
from typing import TextIO

import congo
from congo import _core, _tablebase_cli


def _nonnegative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def _positive_int(text: str) -> int:
    value = _nonnegative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number of seconds")
    return value


def _format_rate(nodes: int, seconds: float) -> str:
    if seconds <= 0:
        return "n/a"
    return f"{nodes / seconds:,.0f}"


def _progress(out: TextIO, text: str) -> None:
    if out.isatty():
        out.write("\r\x1b[2K" + text)
        out.flush()


def cmd_perft(args: argparse.Namespace) -> int:
    """Counts leaf nodes, split at the root so that long runs show progress. Ctrl-C stops the count
    (exit status 130)."""
    position = congo.Position(args.fen)
    depth: int = args.depth
    moves = position.legal_move_count()
    done = 0

    def progress(move: str, nodes: int) -> None:
        nonlocal done
        done += 1
        _progress(sys.stderr, f"[{done}/{moves}] {move}: {nodes:,}")

    start = time.perf_counter()
    # One call of the public API: it checks the depth before any work and answers Ctrl-C.
    split = congo.divide(position, depth, bulk=not args.no_bulk, callback=progress)
    total = sum(split.values()) if depth > 0 else 1
    elapsed = time.perf_counter() - start
    _progress(sys.stderr, "")
    if args.divide:
        for move, nodes in split.items():
            print(f"{move}: {nodes}")
        print()
    print(f"depth {depth}")
    print(f"nodes {total}")
    print(f"time  {elapsed:.3f} s")
    print(f"nps   {_format_rate(total, elapsed)}")
    return 0


def _format_score(score: congo.Score) -> str:
    if score.mate is not None:
        return f"#{score.mate}"
    return f"{(score.cp or 0) / 100:+.2f}"


def _analyse_limit(args: argparse.Namespace) -> congo.Limit:
    if args.depth is None and args.nodes is None and args.time is None:
        return congo.Limit(time=_DEFAULT_ANALYSE_TIME)
    return congo.Limit(depth=args.depth, nodes=args.nodes, time=args.time)


_DEFAULT_ANALYSE_TIME = 3.0
"""Seconds ``congo analyse`` searches when no limit is given."""


def cmd_analyse(args: argparse.Namespace) -> int:
    """Searches a position and prints a line per completed depth, then the best move.

    Without a limit it searches for 3 seconds; Ctrl-C stops the search and prints the best line it
    found (exit status 130)."""
    board = congo.Board(args.fen)
    limit = _analyse_limit(args)
    engine = congo.Engine(threads=args.threads, hash_mb=args.hash, tablebase_path=args.tablebase)
    print(f"position {board.fen()}")
    print(f"{'depth':>5} {'score':>7} {'nodes':>12} {'nps':>11} {'time':>7}  pv")
    infos: list[congo.SearchInfo] = []

    def show(info: congo.SearchInfo) -> None:
        infos.append(info)
        pv = " ".join(move.uci() for move in info.pv)
        score = _format_score(info.score)
        print(
            f"{info.depth:>5} {score:>7} {info.nodes:>12,} {info.nps:>11,} {info.time:>7.2f}  {pv}",
            flush=True,
        )

    try:
        # Ctrl-C reaches the search within milliseconds (KeyboardInterrupt); what it had found
        # by then is in the last completed iteration.
        result = engine.search(board, limit, callback=show)
    except KeyboardInterrupt:
        best = next((info for info in reversed(infos) if info.move is not None), None)
        if best is None:
            print("interrupted before the first iteration was complete", file=sys.stderr)
        else:
            print(
                f"bestmove {best.pv[0].uci()} score {_format_score(best.score)} depth {best.depth} "
                f"nodes {best.nodes:,} time {best.time:.2f} s (interrupted)   pv "
                + " ".join(move.uci() for move in best.pv),
                flush=True,
            )
        return 130
    if result.move is None:
        outcome = result.outcome
        reason = outcome.termination.name.lower().replace("_", " ") if outcome else "no move"
        print(f"no move: the game is over ({reason}, {outcome.result() if outcome else '*'})")
        return 0
    print(
        f"bestmove {result.move.uci()} score {_format_score(result.score)} depth {result.depth} "
        f"nodes {result.nodes:,} time {result.time:.2f} s nps {result.nps:,}"
    )
    return 0


def _progress_bar(done: int, total: int, text: str, width: int = 30) -> str:
    filled = width * done // total if total else width
    return f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {text}"


def cmd_match(args: argparse.Namespace) -> int:
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

    games: int = args.games
    if games > match.MAX_GAMES:
        raise ValueError(f"--games must be at most {match.MAX_GAMES:,}, got {games:,}")
    first = match.parse_player(args.first)
    second = match.parse_player(args.second)
    time_control = None if args.tc is None else match.TimeControl.parse(args.tc)
    # Check that the records can be written before playing: a bad path is a one-line error now,
    # not a lost match later.
    save = None
    if args.save:
        try:
            save = open(args.save, "w", encoding="utf-8")  # noqa: SIM115 - written game by game
        except OSError as error:
            raise ValueError(f"cannot write the games to {args.save}: {error.strerror or error}") from None
    interactive = sys.stderr.isatty()
    step = max(1, games // 10)
    event = f"{first[0]} vs {second[0]}"

    def on_game(result: match.MatchResult, game: match.GameRecord) -> None:
        if save is not None:  # every finished game is on disk at once
            save.write(game.record(event=event))
            save.write("\n\n")
            save.flush()
        text = (
            f"+{result.wins} ={result.draws} -{result.losses}  "
            f"{100 * result.score:.1f}%  (last: {game.white} vs {game.black} {game.result()})"
        )
        if interactive:
            _progress(sys.stderr, _progress_bar(result.played, games, text))
        elif result.played % step == 0 or result.played == games:
            print(_progress_bar(result.played, games, text), file=sys.stderr, flush=True)

    start = time.perf_counter()
    interrupted = False
    try:
        result = match.run_match(
            first,
            second,
            games=games,
            opening_plies=args.opening_plies,
            seed=args.seed,
            max_plies=args.max_plies,
            concurrency=args.concurrency,
            time_control=time_control,
            on_game=on_game,
            ray=args.ray,
        )
    except match.MatchInterrupted as stopped:
        result, interrupted = stopped.result, True
    finally:
        if save is not None:
            save.close()
    if interactive:
        _progress(sys.stderr, "")
    elapsed = time.perf_counter() - start
    terminations: dict[str, int] = {}
    for game in result.games:
        name = game.outcome.termination.name.lower()
        terminations[name] = terminations.get(name, 0) + 1
    if interrupted:
        print(f"interrupted after {result.played} of {games} games")
    print(result.summary())
    print("endings: " + ", ".join(f"{name} {count}" for name, count in sorted(terminations.items())))
    print(f"time {elapsed:.1f} s")
    if args.save:
        # In game order (they were written in order of completion).
        match.write_records(args.save, result.games, event=event)
        print(f"{len(result.games)} games saved to {args.save}")
    return 130 if interrupted else 0


def cmd_uci(args: argparse.Namespace) -> int:
    """Runs the engine over stdin/stdout in the UCI dialect for Congo of docs/protocol.md, for GUIs,
    match runners and bots in any language. Type `uci`, then e.g. `position startpos` and
    `go movetime 1000`; `quit` ends it."""
    _core.run_uci()
    return 0


def cmd_options(args: argparse.Namespace) -> int:
    """Lists the engine's options (switches and evaluation weights) with their defaults."""
    for option in congo.Engine.option_info():
        print(f"{option.name:16} {option.default:>5}  ({option.min}-{option.max})  {option.help}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="congo",
        description="Tools for the chess variant Congo, with a Rust core.",
    )
    parser.add_argument("--version", action="version", version=f"congo {congo.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    perft = commands.add_parser(
        "perft", help="count the leaves of the move tree", description=cmd_perft.__doc__
    )
    perft.add_argument("depth", type=_nonnegative_int, metavar="DEPTH", help="plies to search")
    perft.add_argument(
        "--fen", default=congo.STARTING_FEN, help="start from this position (default: the start)"
    )
    perft.add_argument("--divide", action="store_true", help="print the count below each first move")
    perft.add_argument(
        "--no-bulk",
        action="store_true",
        help="make every leaf move instead of counting the last ply",
    )
    perft.set_defaults(func=cmd_perft)

    analyse = commands.add_parser(
        "analyse", help="search a position and print the best line per depth", description=cmd_analyse.__doc__
    )
    analyse.add_argument(
        "--fen", default=congo.STARTING_FEN, help="the position to analyse (default: the start)"
    )
    limits = analyse.add_mutually_exclusive_group()
    limits.add_argument("--depth", type=_positive_int, help="search this many plies")
    limits.add_argument("--time", type=_positive_float, help="search this many seconds (default: 3)")
    limits.add_argument("--nodes", type=_positive_int, help="search this many nodes")
    analyse.add_argument("--threads", type=_positive_int, default=1, help="search threads (default: 1)")
    analyse.add_argument(
        "--hash", type=_positive_int, default=64, help="hash table size in MiB (default: 64)"
    )
    analyse.add_argument(
        "--tablebase",
        metavar="DIR",
        help="use the endgame tables in DIR (made by `congo tablebase generate`): exact scores and moves",
    )
    analyse.set_defaults(func=cmd_analyse)

    match = commands.add_parser(
        "match",
        help="play two engine configurations or players against each other",
        description=cmd_match.__doc__,
    )
    match.add_argument("first", metavar="PLAYER1", help="e.g. engine:time=0.1")
    match.add_argument("second", metavar="PLAYER2", help="e.g. alphabeta:depth=2")
    match.add_argument("--games", type=_positive_int, default=100, help="games to play (default: 100)")
    match.add_argument(
        "--opening-plies",
        type=_nonnegative_int,
        default=4,
        help="random plies before the players take over (default: 4)",
    )
    match.add_argument("--seed", type=_nonnegative_int, default=1, help="seed of the openings (default: 1)")
    match.add_argument(
        "--max-plies",
        type=_positive_int,
        default=200,
        help="adjudicate a draw after this many plies (default: 200)",
    )
    match.add_argument(
        "--concurrency", type=_positive_int, default=1, help="games played at once (default: 1)"
    )
    match.add_argument(
        "--tc",
        metavar="TC",
        help="play on a clock: BASE+INC seconds (e.g. 10+0.1) or MOVES/BASE+INC; default: per-move limits",
    )
    match.add_argument("--save", metavar="FILE", help="write the games to FILE as PGN-style records")
    match.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="play on a Ray cluster: 'auto', 'ray://host:10001', 'local' (pip install 'congo[ray]')",
    )
    match.set_defaults(func=cmd_match)

    from congo.cli import serve as serve_cli

    serve_cli.register(commands).set_defaults(func=serve_cli.run)

    uci = commands.add_parser(
        "uci",
        help="run the engine over stdin/stdout (UCI dialect, docs/protocol.md)",
        description=cmd_uci.__doc__,
    )
    uci.set_defaults(func=cmd_uci)

    _tablebase_cli.add_parser(commands)

    options = commands.add_parser(
        "options", help="list the engine's options and their defaults", description=cmd_options.__doc__
    )
    options.set_defaults(func=cmd_options)

    from congo import annotate as annotate_module

    annotate = commands.add_parser(
        "annotate",
        help="annotate game records: evaluations, mistakes, better lines, player summaries",
        description=annotate_module.run.__doc__,
    )
    annotate_module.configure_parser(annotate)

    from congo import selfplay

    selfplay.add_subcommand(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``congo`` command. Returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return int(args.func(args))
    except BrokenPipeError:
        # The reader went away (`congo perft --divide 2 | head -5`): stop quietly, as a program
        # killed by SIGPIPE would, without Python's complaint when stdout is flushed at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    except (ValueError, TypeError, MemoryError) as error:  # bad FEN, bad number: one line
        print(f"congo {args.command}: error: {error}", file=sys.stderr)
        return 2
    except (OSError, congo.engine.EngineError) as error:  # e.g. an outside engine that cannot start
        print(f"congo {args.command}: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"congo {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
