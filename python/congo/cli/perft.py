"""``congo perft``: count the leaves of the move tree."""

from __future__ import annotations

import argparse
import sys
import time

from congo.cli._args import EXIT_INTERRUPTED, EXIT_OK, add_fen, nonnegative_int
from congo.cli._progress import Progress

QUIET_SECONDS = 2.0
"""Off a terminal, a perft that ends within this many seconds prints no progress."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("perft", help="count the leaves of the move tree", description=run.__doc__)
    parser.add_argument("depth", type=nonnegative_int, metavar="DEPTH", help="plies to search")
    add_fen(parser)
    parser.add_argument(
        "--divide",
        action="store_true",
        help="print the count below each first move, as each one finishes",
    )
    parser.add_argument(
        "--no-bulk",
        action="store_true",
        help="make every leaf move instead of counting the last ply",
    )
    parser.set_defaults(run=run)
    return parser


def _format_rate(nodes: int, seconds: float) -> str:
    if seconds <= 0:
        return "n/a"
    return f"{nodes / seconds:,.0f}"


def run(args: argparse.Namespace) -> int:
    """Counts leaf nodes, split at the root so that long runs show progress (on stderr: redrawn on a
    terminal; otherwise, after the first 2 s, a line every tenth of the root moves and at least
    every 10 s). With
    --divide each root move's count is printed as soon as it is finished. Ctrl-C stops the count
    (exit status 130); the root moves finished by then are printed."""
    import congo

    position = congo.Position(args.fen)
    depth: int = args.depth
    moves = position.legal_move_count()
    done = 0
    progress = Progress(moves, text=f"perft {depth}: 0/{moves} root moves", grace=QUIET_SECONDS)

    def finished(move: str, nodes: int) -> None:
        nonlocal done
        done += 1
        if args.divide:
            print(f"{move}: {nodes}", flush=True)
        progress.update(done, f"{move}: {nodes:,}")

    start = time.perf_counter()
    try:
        # One call of the public API: it checks the depth before any work and answers Ctrl-C.
        split = congo.divide(position, depth, bulk=not args.no_bulk, callback=finished)
    except KeyboardInterrupt:
        progress.close()
        detail = (
            f" after {done} of {moves} root moves (their counts are above)" if args.divide and done else ""
        )
        print(f"congo perft: interrupted{detail}", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        progress.close()
    total = sum(split.values()) if depth > 0 else 1
    elapsed = time.perf_counter() - start
    if args.divide:
        print()
    print(f"depth {depth}")
    print(f"nodes {total}")
    print(f"time  {elapsed:.3f} s")
    print(f"nps   {_format_rate(total, elapsed)}")
    return EXIT_OK
