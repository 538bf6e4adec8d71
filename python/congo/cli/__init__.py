"""The ``congo`` command line: one module per command (docs/cli.md).

Each command is a module ``congo.cli.<name>`` with ``register(subparsers)``, which adds its parser
and sets ``run`` as its default, and ``run(args) -> int``, which does the work and returns the exit
status; heavy modules are imported inside ``run``. What the commands share is in
:mod:`congo.cli._args` (argument types and blocks, exit codes) and :mod:`congo.cli._progress` (the
progress line). :func:`main` turns errors into one line on stderr and the exit codes of docs/cli.md.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence

import congo
from congo.cli._args import (
    EXIT_BROKEN_PIPE,
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    EXIT_USAGE,
)

__all__ = ["COMMANDS", "build_parser", "main", "module_name"]

COMMANDS = (
    "perft",
    "bench",
    "analyse",
    "match",
    "tournament",
    "uci",
    "uci-check",
    "options",
    "tablebase",
    "book",
    "annotate",
    "selfplay",
    "datagen",
    "serve",
)
"""The commands, in the order of ``congo --help``; each is the module :func:`module_name` names."""

# The errors of a path the user named (a user error, exit 2), as opposed to a disk that fails.
_PATH_ERRORS = (FileNotFoundError, NotADirectoryError, IsADirectoryError, PermissionError, FileExistsError)
_PATH_ERRNOS = {
    errno.ENOENT,
    errno.ENOTDIR,
    errno.EISDIR,
    errno.EACCES,
    errno.EPERM,
    errno.EEXIST,
    errno.EROFS,
    errno.ELOOP,  # a symbolic link that loops
    errno.ENAMETOOLONG,
}


def module_name(command: str) -> str:
    """The module of a command: ``congo.cli.<command>``, a dash in its name an underscore
    (``uci-check`` is :mod:`congo.cli.uci_check`)."""
    return f"congo.cli.{command.replace('-', '_')}"


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``congo`` with every command of :data:`COMMANDS` registered."""
    parser = argparse.ArgumentParser(
        prog="congo",
        description="Tools for the chess variant Congo, with a Rust core.",
        epilog="Exit status: 0 success, 1 a failure outside the command (an engine, the disk), "
        "2 a user error, 130 interrupted (docs/cli.md).",
    )
    parser.add_argument("--version", action="version", version=f"congo {congo.__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(module_name(name))
        module.register(subparsers)
    return parser


def _os_error_text(error: OSError) -> str:
    if error.strerror and error.filename is not None:
        if str(error.filename) in error.strerror:
            return error.strerror
        return f"{error.filename}: {error.strerror}"
    return error.strerror or str(error)


def exit_status(error: BaseException) -> int:
    """The exit status for an exception escaping a command (docs/cli.md)."""
    if isinstance(error, KeyboardInterrupt):
        return EXIT_INTERRUPTED
    if isinstance(error, BrokenPipeError):
        return EXIT_BROKEN_PIPE
    if isinstance(error, OSError):
        user = isinstance(error, _PATH_ERRORS) or error.errno in _PATH_ERRNOS
        return EXIT_USAGE if user else EXIT_FAILURE
    if isinstance(error, (ValueError, TypeError, ImportError, MemoryError)):
        return EXIT_USAGE
    return EXIT_FAILURE


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``congo`` command. Returns the exit status (docs/cli.md)."""
    parser = build_parser()
    args = parser.parse_args(argv)  # exits with 2 on bad arguments
    run = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return EXIT_USAGE
    with _sigterm_as_ctrl_c() as terminated:
        status = _run(args, run)
    return EXIT_TERMINATED if terminated and status == EXIT_INTERRUPTED else status


@contextlib.contextmanager
def _sigterm_as_ctrl_c() -> Iterator[list[bool]]:
    """SIGTERM raises ``KeyboardInterrupt`` while a command runs, so that it ends as Ctrl-C ends it
    (finished work kept, temporary files removed) instead of dying on the spot (which left a
    temporary ``.FILE.partial`` next to every output). Yields a list that holds ``True`` once a
    SIGTERM came. Only from the main thread, and only when SIGTERM has its default action."""
    seen: list[bool] = []
    sigterm = getattr(signal, "SIGTERM", None)
    if (
        sigterm is None
        or threading.current_thread() is not threading.main_thread()
        or signal.getsignal(sigterm) is not signal.SIG_DFL
    ):
        yield seen
        return

    def interrupt(signum: int, frame: object) -> None:
        seen.append(True)
        raise KeyboardInterrupt

    previous = signal.signal(sigterm, interrupt)
    try:
        yield seen
    finally:
        signal.signal(sigterm, previous)


def _run(args: argparse.Namespace, run: Callable[[argparse.Namespace], int]) -> int:
    from congo.engine import EngineError

    try:
        return int(run(args))
    except BrokenPipeError:
        # The reader went away (`congo perft --divide 2 | head -5`): stop quietly, as a program
        # killed by SIGPIPE would, without Python's complaint when stdout is flushed at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        print(f"congo {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as error:
        print(f"congo {args.command}: error: {_os_error_text(error)}", file=sys.stderr)
        return exit_status(error)
    except (ValueError, TypeError, ImportError, MemoryError, EngineError, RecursionError) as error:
        # A bad FEN or number, a missing extra: one line. An outside engine that fails: one line.
        text = str(error) or ("out of memory" if isinstance(error, MemoryError) else type(error).__name__)
        print(f"congo {args.command}: error: {text}", file=sys.stderr)
        return exit_status(error)
