"""``congo book``: make opening books from game records, merge them, and print them (docs/book.md)."""

from __future__ import annotations

import argparse
import os
import sys

from congo.cli._args import EXIT_OK, positive_int


def _sources(paths: list[str]) -> None:
    """Every input named exists and is a file, before any work (``-`` is standard input)."""
    for path in paths:
        if path != "-" and not os.path.isfile(path):
            if os.path.isdir(path):
                reason = "is a directory"
            elif os.path.exists(path):  # a FIFO or a device: a book is read whole, checked first
                reason = "not a regular file"
            else:
                reason = "no such file"
            raise FileNotFoundError(2, f"{path}: {reason}", path)


def _binary_output(path: str) -> None:
    if path == "-":
        raise ValueError("a book is a binary file: name it with -o FILE (standard output is refused)")


def cmd_make(args: argparse.Namespace) -> int:
    """Makes a book from game records (PGN-style, as congo match --save and congo selfplay write
    them): each move of each game's first --max-ply plies, weighted by the results for the side
    that played it (win 2, draw 1, loss 0), kept when at least --min-games games played it. Games
    without a result are skipped. The book is written whole to -o (never over an input)."""
    from congo import book
    from congo._files import check_writable

    _sources(args.records)
    _binary_output(args.output)
    check_writable(args.output, inputs=args.records)
    handles = [sys.stdin if path == "-" else path for path in args.records]
    problems: list[str] = []
    entries, counts = book.make(
        handles, min_games=args.min_games, max_ply=args.max_ply, on_problem=problems.append
    )
    if problems:  # said, not silently a shorter line in the book
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        print(
            f"warning: {len(problems)} record{'s' * (len(problems) > 1)} with problems, their moves "
            f"from there skipped: {problems[0]}{more}",
            file=sys.stderr,
        )
    book.write(args.output, entries, inputs=args.records)
    print(
        f"{args.output}: {counts['entries']} entries, {counts['positions']} positions from "
        f"{counts['used']} games with a result ({counts['games']} read)",
        file=sys.stderr,
    )
    return EXIT_OK


def cmd_merge(args: argparse.Namespace) -> int:
    """Merges books into one: the weights of a position's equal moves are summed."""
    from congo import book
    from congo._files import check_writable

    _sources(args.books)
    _binary_output(args.output)
    check_writable(args.output, inputs=args.books)
    readers = [book.open_reader(path) for path in args.books]
    entries = book.merge(*readers)
    book.write(args.output, entries, inputs=args.books)
    print(f"{args.output}: {len(entries)} entries", file=sys.stderr)
    return EXIT_OK


def cmd_dump(args: argparse.Namespace) -> int:
    """Prints a book, an entry a line: FEN, move, weight, learn for the positions the book reaches
    from the start position, then the others by key (hexadecimal)."""
    from congo import book

    _sources([args.book])
    with book.open_reader(args.book) as reader:
        for line in book.dump(reader):
            print(line)
    return EXIT_OK


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Registers ``congo book`` and its subcommands."""
    parser = subparsers.add_parser(
        "book",
        help="make, merge and print opening books",
        description="Opening books: moves with weights keyed by the position (docs/book.md).",
    )
    sub = parser.add_subparsers(dest="book_command", metavar="COMMAND", required=True)

    make = sub.add_parser("make", help="make a book from game records", description=cmd_make.__doc__)
    make.add_argument("records", nargs="+", metavar="RECORDS", help="files of game records ('-': stdin)")
    make.add_argument("-o", "--output", metavar="FILE", required=True, help="the book to write")
    make.add_argument(
        "--min-games",
        type=positive_int,
        default=1,
        metavar="N",
        help="keep a position's move only if at least N games played it (default: 1)",
    )
    make.add_argument(
        "--max-ply",
        type=positive_int,
        default=20,
        metavar="N",
        help="only the first N plies of each game (default: 20)",
    )
    make.set_defaults(subcommand=cmd_make)

    merge = sub.add_parser("merge", help="merge books, summing weights", description=cmd_merge.__doc__)
    merge.add_argument("books", nargs="+", metavar="BOOK", help="the books to merge")
    merge.add_argument("-o", "--output", metavar="FILE", required=True, help="the book to write")
    merge.set_defaults(subcommand=cmd_merge)

    dump = sub.add_parser("dump", help="print a book, an entry a line", description=cmd_dump.__doc__)
    dump.add_argument("book", metavar="FILE", help="the book")
    dump.set_defaults(subcommand=cmd_dump)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Runs the subcommand chosen (make, merge, dump)."""
    return int(args.subcommand(args))
