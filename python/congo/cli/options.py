"""``congo options``: the engine's options and their defaults."""

from __future__ import annotations

import argparse

from congo.cli._args import EXIT_OK


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "options", help="list the engine's options and their defaults", description=run.__doc__
    )
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Lists the engine's options (switches and evaluation weights) with their defaults."""
    import congo

    for option in congo.Engine.option_info():
        print(f"{option.name:16} {option.default:>5}  ({option.min}-{option.max})  {option.help}")
    return EXIT_OK
