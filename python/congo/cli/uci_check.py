"""``congo uci-check``: a compliance check of an engine against docs/protocol.md."""

from __future__ import annotations

import argparse

from congo.cli._args import EXIT_FAILURE, EXIT_OK


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "uci-check",
        help="check that an engine speaks the protocol (docs/protocol.md): a report of each failure",
        description=run.__doc__,
    )
    parser.add_argument(
        "command",
        nargs=argparse.REMAINDER,
        metavar="COMMAND",
        help="the engine's command line, e.g. `congo uci-check python mybot.py` (or one quoted word)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="how long to wait for each answer (default 10; a search gets its own time on top)",
    )
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Starts the engine once per check and exchanges what a controller would: the handshake,
    isready (also during a search), every option it announces, ucinewgame, every position and go
    form of docs/protocol.md, go infinite and stop, ponder and ponderhit, monkey-chain moves, a
    decided position, quit. Every bestmove must be legal and every info line well formed. Prints a
    line per check, with the lines exchanged for each failure; exit status 0 if the engine complies,
    1 if a check failed."""
    from congo.uci_check import check_engine, split_command

    command = split_command(args.command)
    if not command:
        raise ValueError("give the engine's command line: congo uci-check COMMAND [ARG ...]")
    if not args.timeout > 0:
        raise ValueError(f"--timeout must be a positive number of seconds, got {args.timeout:g}")
    report = check_engine(command, timeout=args.timeout)
    print(report.format(), flush=True)
    return EXIT_OK if report.ok else EXIT_FAILURE
