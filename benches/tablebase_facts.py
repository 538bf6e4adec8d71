"""Writes the facts of ``docs/tablebase.md`` from a directory of generated tables.

    congo tablebase generate --men 5 --dir ~/tables
    python benches/tablebase_facts.py --dir ~/tables              # rewrites docs/tablebase.md
    python benches/tablebase_facts.py --dir ~/tables --check      # exits 1 if the docs differ

Two parts of the page are generated, each between its markers (``<!-- facts: begin -->`` …
``<!-- facts: end -->``, ``<!-- sizes: begin -->`` … ``<!-- sizes: end -->``): the facts, which
are the Markdown of ``congo tablebase stats`` (a piece against a bare lion, the duel matrix, each
class's longest win with its position, the longest wins, the mutual zugzwangs, every table up to
four men), and the size of the tables per number of men, read from the files. Nothing between the
markers is typed by hand; the tests check the rows that the tables up to four men decide.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import congo.tablebase as tablebase
from congo.cli.tablebase import facts_markdown
from congo.files import atomic_output, check_outputs

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "tablebase.md"

_ENTRIES_OFFSET = 32
"""Where a table file's header holds its number of entries (docs/tablebase.md, "File format")."""


def men_of(material: str) -> int:
    """The men of a signature such as ``"LZvLP"``: its letters besides the ``v``."""
    return len(material) - 1


def sizes_markdown(directory: Path, stats: Sequence[tablebase.TableStats]) -> str:
    """The tables per number of men: how many, their positions, entries and bytes on disk."""
    rows: dict[int, list[int]] = {}
    for s in stats:
        path = directory / f"{s.material}.ctb"
        with open(path, "rb") as handle:
            header = handle.read(64)
        entries = int.from_bytes(header[_ENTRIES_OFFSET : _ENTRIES_OFFSET + 8], "little")
        positions = s.white_to_move.positions + s.black_to_move.positions
        row = rows.setdefault(men_of(s.material), [0, 0, 0, 0])
        for k, value in enumerate((1, positions, entries, path.stat().st_size)):
            row[k] += value
    lines = [
        "| men | tables | positions | entries stored | on disk |",
        "|---:|---:|---:|---:|---:|",
    ]
    total = [0, 0, 0, 0]
    for men in sorted(rows):
        tables, positions, entries, size = rows[men]
        total = [a + b for a, b in zip(total, rows[men])]
        lines.append(f"| {men} | {tables} | {positions:,} | {entries:,} | {_bytes(size)} |")
    tables, positions, entries, size = total
    lines.append(f"| all | {tables} | {positions:,} | {entries:,} | {_bytes(size)} |")
    return "\n".join(lines) + "\n"


def _bytes(size: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} B"


def replace_between(text: str, name: str, body: str) -> str:
    """``text`` with the part between the markers of ``name`` replaced by ``body``. Raises
    ``ValueError`` if the markers are missing."""
    begin, end = f"<!-- {name}: begin -->", f"<!-- {name}: end -->"
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        raise ValueError(f"{DOCS} has no {begin} … {end} markers")
    return text[: start + len(begin)] + "\n\n" + body.rstrip("\n") + "\n\n" + text[stop:]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--dir", type=Path, required=True, help="the generated tables")
    parser.add_argument("--docs", type=Path, default=DOCS, help=f"the page to fill (default: {DOCS})")
    parser.add_argument("--top", type=int, default=30, help="rows of the long lists (default: 30)")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if the page differs")
    args = parser.parse_args(argv)
    if not args.check:  # before counting: the page is rewritten in place, never over a table
        tables = sorted(args.dir.glob("*.ctb")) if args.dir.is_dir() else []
        try:
            check_outputs([args.docs], inputs=tables)
        except (OSError, ValueError) as error:
            parser.error(str(error))
    stats = tablebase.stats(args.dir)
    men = max(men_of(s.material) for s in stats)
    print(f"{len(stats)} tables up to {men} men counted", file=sys.stderr)
    old = args.docs.read_text(encoding="utf-8")
    positions = sum(s.white_to_move.positions + s.black_to_move.positions for s in stats)
    source = f"_Counted from the {len(stats)} tables up to {men} men ({positions:,} positions)._\n\n"
    new = replace_between(old, "facts", source + facts_markdown(stats, args.top))
    new = replace_between(new, "sizes", sizes_markdown(args.dir, stats))
    if args.check:
        if new != old:
            print(f"{args.docs} does not match the tables in {args.dir}", file=sys.stderr)
            return 1
        print(f"{args.docs} matches the tables", file=sys.stderr)
        return 0
    with atomic_output(args.docs) as out:
        out.write(new)
    print(f"{args.docs} written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
