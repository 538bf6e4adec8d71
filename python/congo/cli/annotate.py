"""``congo annotate``: evaluations, mistakes, better lines and player summaries in game records.

The records are read as UTF-8 (a byte order mark is skipped); a line that is not UTF-8 is read as
Latin-1 (the other encoding of old PGN files) with a warning naming its line and game. The output
is written to a temporary file next to ``-o`` and renamed into place at the end; an output that is
the input (also through a symbolic link, or ``-`` read from it) is refused before any work.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import os
import sys
import time
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, TextIO, cast

from congo.cli._args import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    add_hash,
    add_limits,
    add_output,
    add_ray,
    add_tablebase,
    add_workers,
    check_tables,
)
from congo.cli._progress import Progress

if TYPE_CHECKING:
    from congo.engine import Limit
    from congo.pgn import Game
    from congo.tablebase import Tablebase

DEFAULT_NODES = 200_000
"""The node limit of ``congo annotate`` when none is given (deterministic, like every node limit)."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    from congo.analysis import DEFAULT_HASH_MB

    parser = subparsers.add_parser(
        "annotate",
        help="annotate game records: evaluations, mistakes, better lines, player summaries",
        description=run.__doc__,
    )
    parser.add_argument("games", metavar="GAMES", help="the game records to annotate ('-': standard input)")
    add_output(parser, required=False, help="where to write (default: standard output); never the input")
    add_limits(
        parser,
        default=f"{DEFAULT_NODES:,} nodes per position; --time makes results vary by run",
        per=" per position",
    )
    add_workers(parser, "engines searching at once (default: one per CPU)")
    add_hash(parser, DEFAULT_HASH_MB, "table per engine")
    add_ray(parser, "search")
    add_tablebase(
        parser,
        "exact values for the positions they cover (with --ray, DIR must exist on every machine)",
    )
    parser.set_defaults(run=run)
    return parser


def _limit(args: argparse.Namespace) -> Limit:
    from congo.engine import Limit

    if args.nodes is None and args.depth is None and args.time is None:
        return Limit(nodes=DEFAULT_NODES)
    return Limit(depth=args.depth, nodes=args.nodes, time=args.time)


class DecodedLines:
    """A text handle over a binary one, a line at a time: UTF-8 (a leading byte order mark skipped),
    or Latin-1 for a line that is not UTF-8, its number noted in :attr:`fallbacks`."""

    def __init__(self, binary: IO[bytes]) -> None:
        self.binary = binary
        self.line = 0
        self.fallbacks: list[int] = []
        self.at_end = False

    def readline(self, size: int = -1) -> str:
        raw = self.binary.readline()
        if not raw:
            self.at_end = True
            return ""
        self.line += 1
        if self.line == 1 and raw.startswith(codecs.BOM_UTF8):
            raw = raw[len(codecs.BOM_UTF8) :]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            self.fallbacks.append(self.line)
            text = raw.decode("latin-1")
        return text.replace("\r\n", "\n")

    def __iter__(self) -> Iterator[str]:
        while line := self.readline():
            yield line


def _note_problems(game: Game, number: int, progress: Progress) -> None:
    """Reports a broken record on stderr and in the game itself, so that nothing is lost unseen."""
    for error in game.errors:
        progress.note(f"congo annotate: game {number}: {error}")
    note = "congo annotate: problems in this record: " + "; ".join(str(e) for e in game.errors)
    game.comment = f"{game.comment} {note}".strip()


def _open_tables(directory: str | None) -> Tablebase | None:
    """The tables of ``--tablebase``, opened once before any search (every worker thread shares
    them); a directory that cannot be read is a one-line error."""
    from congo.tablebase import Tablebase

    if directory is None:
        return None
    check_tables(directory)
    try:
        return Tablebase(directory)
    except OSError as error:
        raise ValueError(f"cannot open the tables in {directory}: {error.strerror or error}") from None


def run(args: argparse.Namespace) -> int:
    """Reads game records, searches every position of each main line, and writes the games back
    with an evaluation on every move ([%eval]), ?!/?/?? on inaccuracies, mistakes and blunders (by
    the expected score lost), the engine's better line as a variation at each, and each player's
    average loss and counts in the headers. Node and depth limits give the same output on any
    number of workers. Every game of the input is written, a broken one with its problems noted
    (and reported on stderr); a line that is not UTF-8 is read as Latin-1, with a warning. The
    output file is replaced only when every game is written; it may not be the input. Ctrl-C
    writes the games finished so far and exits with 130."""
    from congo._files import atomic_output, check_not_an_input
    from congo.pgn import skip_game

    limit = _limit(args)
    if args.output != "-":
        check_not_an_input(args.output, [args.games])
    tables = _open_tables(args.tablebase)
    with contextlib.ExitStack() as files:
        total: int | None = None
        if args.games == "-":
            source = DecodedLines(sys.stdin.buffer)
        else:
            try:
                if os.path.isfile(args.games):  # a pipe (`<(...)`, /dev/stdin) can be read only once
                    with open(args.games, "rb") as counting:
                        total = 0
                        lines = DecodedLines(counting)
                        while skip_game(lines):  # type: ignore[arg-type]  # fast: the games are split, not parsed
                            total += 1
                source = DecodedLines(files.enter_context(open(args.games, "rb")))
            except OSError as error:
                raise ValueError(f"cannot read {args.games}: {error.strerror or error}") from None
        if args.output == "-":
            return _annotate_stream(args, limit, tables, source, sys.stdout, total)
        try:
            sink = files.enter_context(atomic_output(args.output, inputs=[args.games]))
        except OSError as error:
            raise ValueError(error.strerror or str(error)) from None
        status = _annotate_stream(args, limit, tables, source, cast(TextIO, sink), total)
        if status == EXIT_INTERRUPTED:
            print(f"(the games finished so far are in {args.output})", file=sys.stderr, flush=True)
        return status


def _annotate_stream(
    args: argparse.Namespace,
    limit: Limit,
    tables: Tablebase | None,
    source: DecodedLines,
    sink: TextIO,
    total: int | None,
) -> int:
    from congo.annotate import annotate_games
    from congo.pgn import iter_games, write_game

    started = time.perf_counter()
    broken = 0
    written = 0
    name = "standard input" if args.games == "-" else args.games
    progress = Progress(total)

    def warn_encoding(number: int) -> None:
        # The scanner has read one line of the next game ahead, unless the input has ended.
        limit_line = source.line + 1 if source.at_end else source.line
        while source.fallbacks and source.fallbacks[0] < limit_line:
            line = source.fallbacks.pop(0)
            progress.note(
                f"congo annotate: game {number}: line {line} of {name} is not UTF-8: read as Latin-1"
            )

    def numbered() -> Iterator[Game]:
        nonlocal broken
        for number, game in enumerate(iter_games(source), 1):  # type: ignore[arg-type]
            warn_encoding(number)
            if game.errors:
                broken += 1
                _note_problems(game, number, progress)
            yield game

    positions = 0

    def searched(games_done: int, positions_done: int) -> None:
        nonlocal positions
        positions = positions_done

    def show(games_done: int) -> None:  # after the game is written: what it says is on disk
        rate = positions / max(time.perf_counter() - started, 1e-9)
        text = f"{positions:,} positions, {rate:,.0f}/s"
        progress.update(games_done, text if total else f"{games_done} games, {text}")

    try:
        games = annotate_games(
            numbered(),
            limit,
            workers=args.workers,
            hash_mb=args.hash,
            ray=args.ray,
            progress=searched,
            tablebase=tables,
        )
        for game in games:
            write_game(sink, game)
            sink.flush()
            written += 1
            show(written)
    except KeyboardInterrupt:
        progress.close()
        print(f"\ninterrupted: {written} annotated games written", file=sys.stderr, flush=True)
        return EXIT_INTERRUPTED
    finally:
        progress.close()
    elapsed = time.perf_counter() - started
    problems = f", {broken} with problems (reported above)" if broken else ""
    print(f"{written} games annotated in {elapsed:.1f} s{problems}", file=sys.stderr, flush=True)
    return EXIT_OK
