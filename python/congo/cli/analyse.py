"""``congo analyse``: search a position, a line per depth, then the best move."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from congo import _core
from congo.cli._args import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    add_fen,
    add_hash,
    add_limits,
    add_tablebase,
    check_tables,
    positive_int,
)

if TYPE_CHECKING:
    import congo

DEFAULT_TIME = 3.0
"""Seconds ``congo analyse`` searches when no limit is given."""

DEFAULT_HASH_MB: int = _core.DEFAULT_HASH_MB
"""The hash table of ``congo analyse`` in MiB: the engine's default (the core's)."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "analyse", help="search a position and print the best line per depth", description=run.__doc__
    )
    add_fen(parser, "the position to analyse")
    add_limits(parser, default=f"{DEFAULT_TIME:g} seconds")
    parser.add_argument("--threads", type=positive_int, default=1, help="search threads (default: 1)")
    add_hash(parser, DEFAULT_HASH_MB)
    add_tablebase(parser)
    parser.set_defaults(run=run)
    return parser


def format_score(score: congo.Score) -> str:
    if score.mate is not None:
        return f"#{score.mate}"
    return f"{(score.cp or 0) / 100:+.2f}"


def format_wdl(score: congo.Score, ply: int) -> str:
    """The engine's chances for the side to move, per mille: ``wins/draws/losses``."""
    wdl = score.wdl(ply=ply)
    return f"{wdl.wins}/{wdl.draws}/{wdl.losses}"


def _limit(args: argparse.Namespace) -> congo.Limit:
    import congo

    if args.depth is None and args.nodes is None and args.time is None:
        return congo.Limit(time=DEFAULT_TIME)
    return congo.Limit(depth=args.depth, nodes=args.nodes, time=args.time)


def _pv(moves: list[congo.Move]) -> str:
    return " ".join(move.uci() for move in moves)


def run(args: argparse.Namespace) -> int:
    """Searches a position and prints a line per depth: a finished iteration's score, or a bound
    (>= or <=) while an iteration is still running, with the win/draw/loss chances (per mille, the
    side to move's; docs/engine.md) the score stands for; then the best move with the score, depth
    and line of the last finished iteration. When the unfinished next iteration had already found a
    better move, the engine plays that one, and the summary says so.

    Without a limit it searches for 3 seconds; Ctrl-C stops the search and prints the best line of
    the last finished iteration (exit status 130)."""
    import congo

    board = congo.Board(args.fen)
    limit = _limit(args)
    check_tables(args.tablebase)
    engine = congo.Engine(threads=args.threads, hash_mb=args.hash, tablebase_path=args.tablebase)
    print(f"position {board.fen()}")
    ply = board.ply()
    print(f"{'depth':>5} {'score':>7} {'wdl':>11} {'nodes':>12} {'nps':>11} {'time':>7}  pv")
    finished: list[congo.SearchInfo] = []

    def show(info: congo.SearchInfo) -> None:
        if info.bound == "exact" and info.move is not None and info.multipv == 1:
            finished.append(info)
        mark = {"lower": ">=", "upper": "<="}.get(info.bound, "")
        score = mark + format_score(info.score)
        wdl = format_wdl(info.score, ply)
        print(
            f"{info.depth:>5} {score:>7} {wdl:>11} {info.nodes:>12,} {info.nps:>11,} {info.time:>7.2f}  "
            f"{_pv(info.pv)}",
            flush=True,
        )

    try:
        # Ctrl-C reaches the search within milliseconds (KeyboardInterrupt); what it had found
        # by then is in the last finished iteration.
        result = engine.search(board, limit, callback=show)
    except KeyboardInterrupt:
        if not finished:
            print("interrupted before the first iteration was complete", file=sys.stderr)
        else:
            best = finished[-1]
            print(
                f"bestmove {best.pv[0].uci()} score {format_score(best.score)} depth {best.depth} "
                f"nodes {best.nodes:,} time {best.time:.2f} s (interrupted)   pv {_pv(best.pv)}",
                flush=True,
            )
        return EXIT_INTERRUPTED
    if result.move is None:
        outcome = result.outcome
        reason = outcome.termination.name.lower().replace("_", " ") if outcome else "no move"
        print(f"no move: the game is over ({reason}, {outcome.result() if outcome else '*'})")
        return EXIT_OK
    last = finished[-1] if finished else None
    if last is None or (last.move == result.move and last.score == result.score):
        print(
            f"bestmove {result.move.uci()} score {format_score(result.score)} depth {result.depth} "
            f"nodes {result.nodes:,} time {result.time:.2f} s nps {result.nps:,}   pv {_pv(result.pv)}"
        )
        return EXIT_OK
    # The engine's move came from an iteration it did not finish: say so, after the last finished
    # iteration's own move and score (the bestmove line stays the last line).
    print(
        f"last finished depth {last.depth}: {last.pv[0].uci()} score {format_score(last.score)}   "
        f"pv {_pv(last.pv)}"
    )
    print(
        f"bestmove {result.move.uci()} score {format_score(result.score)} depth {result.depth} "
        f"nodes {result.nodes:,} time {result.time:.2f} s nps {result.nps:,}   pv {_pv(result.pv)}   "
        f"(move and score from the unfinished depth {last.depth + 1})"
    )
    return EXIT_OK
