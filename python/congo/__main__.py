"""The ``congo`` command line: ``congo perft``, and more as the library grows.

Run ``congo --help`` (or ``python -m congo --help``) for the subcommands.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import TextIO

import congo
from congo import _core


def _nonnegative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
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
    """Counts leaf nodes, split at the root so that long runs show progress."""
    position = congo.Position(args.fen)
    depth: int = args.depth
    start = time.perf_counter()
    if depth == 0:
        total = 1
    else:
        moves = sorted(position.legal_moves(), key=lambda m: m.uci())
        total = 0
        for i, move in enumerate(moves, 1):
            _progress(sys.stderr, f"[{i}/{len(moves)}] {move.uci()} ...")
            nodes = _core.perft(position.push(move), depth - 1, bulk=not args.no_bulk)
            total += nodes
            if args.divide:
                _progress(sys.stderr, "")
                print(f"{move.uci()}: {nodes}", flush=True)
        _progress(sys.stderr, "")
    elapsed = time.perf_counter() - start
    if args.divide:
        print()
    print(f"depth {depth}")
    print(f"nodes {total}")
    print(f"time  {elapsed:.3f} s")
    print(f"nps   {_format_rate(total, elapsed)}")
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
    except ValueError as error:  # bad FEN, bad move, bad limit: one line, no traceback
        print(f"congo {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
