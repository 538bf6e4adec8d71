"""``congo uci``: the engine over standard input and output."""

from __future__ import annotations

import argparse

from congo.cli._args import EXIT_OK


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "uci",
        help="run the engine over stdin/stdout (UCI dialect, docs/protocol.md)",
        description=run.__doc__,
    )
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Runs the engine over stdin/stdout in the UCI dialect for Congo of docs/protocol.md, for GUIs,
    match runners and bots in any language. Type `uci`, then e.g. `position startpos` and
    `go movetime 1000`; `quit` ends it."""
    from congo import _core

    _core.run_uci()
    return EXIT_OK
