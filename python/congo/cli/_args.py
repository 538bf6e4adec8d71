"""What the commands share: argument types, argument blocks and the exit codes (docs/cli.md)."""

from __future__ import annotations

import argparse
import math
import re

import congo
from congo._extras import pip_install

EXIT_OK = 0
"""The command did what was asked."""
EXIT_FAILURE = 1
"""The outside world failed: an engine that dies, a disk that is full, tables that fail verification."""
EXIT_USAGE = 2
"""A user error: bad arguments, a bad FEN, a file that cannot be read or written, a missing extra."""
EXIT_NOT_FOUND = 3
"""``congo tablebase probe``: the position is not in the tables."""
EXIT_INTERRUPTED = 130
"""Ctrl-C (SIGINT): what was finished is printed or written first."""
EXIT_BROKEN_PIPE = 141
"""The reader of standard output went away (``congo perft --divide 5 | head``)."""
EXIT_TERMINATED = 143
"""SIGTERM (``kill``, ``timeout``): handled as Ctrl-C (what was finished is kept, no temporary
file is left behind), with the status of a program that SIGTERM ended."""


_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
"""Numbers on the command line are ASCII: ``int`` and ``float`` alone also take other scripts'
digits (Arabic-Indic, full-width), underscores and surrounding spaces, and ``float`` ``inf`` and ``nan``."""


def _integer(text: str) -> int:
    if not _INTEGER.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer")
    return int(text)


def nonnegative_int(text: str) -> int:
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def positive_int(text: str) -> int:
    value = nonnegative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def positive_float(text: str) -> float:
    if not _NUMBER.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number")
    value = float(text)
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number of seconds")
    return value


def men(text: str) -> int:
    """A number of men for the tables: 2 to the core's maximum."""
    from congo.tablebase import MAX_MEN

    value = _integer(text)
    if not 2 <= value <= MAX_MEN:
        raise argparse.ArgumentTypeError(f"must be from 2 to {MAX_MEN}")
    return value


# -- argument blocks ---------------------------------------------------------------------------


def add_fen(parser: argparse.ArgumentParser, what: str = "start from this position") -> None:
    parser.add_argument("--fen", default=congo.STARTING_FEN, help=f"{what} (default: the start)")


def add_limits(parser: argparse.ArgumentParser, *, default: str, per: str = "") -> None:
    """``--depth``, ``--time``, ``--nodes`` (at most one); ``default`` says what applies without."""
    limits = parser.add_mutually_exclusive_group()
    limits.add_argument("--depth", type=positive_int, help=f"plies{per} to search")
    limits.add_argument("--time", type=positive_float, help=f"seconds{per} to search")
    limits.add_argument("--nodes", type=positive_int, help=f"nodes{per} to search")
    parser.epilog = ((parser.epilog or "") + f" Without a limit: {default}.").strip()


def add_hash(parser: argparse.ArgumentParser, default: int, what: str = "hash table size") -> None:
    parser.add_argument(
        "--hash", type=positive_int, default=default, help=f"{what} in MiB (default: {default})"
    )


def add_workers(
    parser: argparse.ArgumentParser,
    help: str = "engines working at once (default: one per core, or per CPU of the Ray cluster)",
    *,
    name: str = "--workers",
    default: int | None = None,
) -> None:
    parser.add_argument(name, type=positive_int, default=default, help=help)


def add_ray(parser: argparse.ArgumentParser, what: str = "work") -> None:
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help=f"{what} on a Ray cluster: 'auto', 'ray://host:10001', 'local' ({pip_install('ray')})",
    )


def add_tablebase(parser: argparse.ArgumentParser, what: str = "exact scores and moves") -> None:
    parser.add_argument(
        "--tablebase",
        metavar="DIR",
        help=f"use the endgame tables in DIR (made by `congo tablebase generate`): {what}",
    )


def check_tables(directory: str | None) -> None:
    """Opens a ``--tablebase`` directory once before any work, so that one that holds no table (the
    core's error says what to run) stops the command at once: asking for tables and searching
    without them, silently, is a wrong answer, not a choice."""
    if directory is None:
        return
    from congo.tablebase import Tablebase

    try:
        Tablebase(directory)
    except OSError as error:
        raise ValueError(f"cannot open the tables in {directory}: {error.strerror or error}") from None


def add_output(parser: argparse.ArgumentParser, *, required: bool, help: str) -> None:
    """``-o/--output``: written to a temporary file next to it and renamed into place when done
    (never over an input)."""
    parser.add_argument(
        "-o", "--output", metavar="FILE", required=required, default=None if required else "-", help=help
    )
