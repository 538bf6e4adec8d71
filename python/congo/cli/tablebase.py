"""``congo tablebase``: generate, verify, probe and summarise the endgame tables.

:func:`facts_markdown` is the Markdown of ``congo tablebase stats``, also used by
``benches/tablebase_facts.py`` to write docs/tablebase.md."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import congo
from congo.cli._args import EXIT_FAILURE, EXIT_NOT_FOUND, EXIT_OK, positive_int
from congo.cli._args import men as men_count
from congo.cli._progress import Progress
from congo.pieces import PIECE_NAMES

if TYPE_CHECKING:
    from congo import tablebase

# The roles besides the lion in the order of table names (crocodile first, pawn last).
_ROLE_LETTERS = "CEZGMSP"


def _reporter(label: str) -> tuple[Progress, tablebase.ProgressCallback]:
    """The progress line of a tables command (by tables done) and the callback that feeds it."""
    progress = Progress(text=f"tables {label}")

    def show(p: tablebase.Progress) -> None:
        running = ", ".join(p.running[:3]) + (" ..." if len(p.running) > 3 else "")
        text = f"tables {label} {100 * p.fraction:5.1f}%  {p.elapsed:6.1f} s  {running}"
        progress.update(p.tables_done, text, total=p.tables_total, fraction=p.fraction)

    return progress, show


def _summary_longest_win(reports: list[tablebase.TableReport]) -> str:
    """The longest win among the tables generated, as ``congo tablebase stats`` counts it.

    A table's header holds its longest distance to mate, of a win or of a loss for the side to
    move. A loss in ``d`` plies (``d`` even) moves only into wins, the longest in ``d - 1``; so
    over a set of tables closed under captures (what ``generate`` makes) the longest win is the
    longest distance when that is odd (a win), and one ply less when it is even (a loss)."""
    if not reports:
        return "no tables"
    longest = max(reports, key=lambda r: (r.longest, r.material))
    if longest.longest == 0:
        return "no wins"
    if longest.longest % 2:
        return f"the longest win {longest.longest} plies ({longest.material})"
    return (
        f"the longest win {longest.longest - 1} plies (the defence against it: "
        f"a loss in {longest.longest} plies in {longest.material})"
    )


def cmd_generate(args: argparse.Namespace) -> int:
    """Generates the endgame tables with up to --men men (both lions included) into --dir, on
    every core, keeping tables already there (unless --force). Up to 4 men takes seconds, up to 5
    about half an hour of CPU time (a quarter of an hour on two free cores); an interrupted run
    resumes where it stopped."""
    from congo import tablebase

    directory = args.dir or tablebase.default_directory()
    _check_directory(directory)
    start = time.perf_counter()
    progress, show = _reporter("generating")
    with progress:
        reports = tablebase.generate(
            directory,
            men=args.men,
            threads=args.threads,
            force=args.force,
            tables=args.table or None,
            simple=args.simple,
            progress=show,
        )
    elapsed = time.perf_counter() - start
    made = [r for r in reports if not r.reused]
    positions = sum(r.positions for r in reports)
    if args.verbose:
        for r in reports:
            print(
                f"{r.material:10} {r.positions:>12,} positions  "
                f"longest distance to mate {r.longest:>4} plies  "
                f"{'kept' if r.reused else f'{r.seconds:.2f} s'}"
            )
    print(
        f"{len(reports)} tables in {directory} ({len(made)} generated, {len(reports) - len(made)} kept): "
        f"{positions:,} positions up to symmetry, {_summary_longest_win(reports)}; {elapsed:.1f} s"
    )
    return 0


def _check_directory(directory: str | os.PathLike[str]) -> None:
    """Makes the tables' directory and checks that a table can be written there, before any work
    (the generator writes each table to ``NAME.ctb.partial`` and renames it into place)."""
    from congo._files import check_writable

    try:
        os.makedirs(directory, exist_ok=True)
        check_writable(os.path.join(directory, "LvL.ctb.check"))
    except OSError as error:
        reason = error.strerror or str(error)
        if reason.startswith("cannot write"):
            reason = reason.rpartition(": ")[2]
        raise type(error)(
            error.errno or 0, f"cannot write tables to {directory}: {reason}", str(directory)
        ) from None


def cmd_verify(args: argparse.Namespace) -> int:
    """Checks every entry of the tables in --dir against the move generator and the tables its
    moves lead into, and every file against its checksum. Exits with 1 if an entry is wrong."""
    from congo import tablebase

    directory = args.dir or tablebase.default_directory()
    start = time.perf_counter()
    progress, show = _reporter("verifying")
    with progress:
        reports = tablebase.verify(
            directory,
            men=args.men,
            threads=args.threads,
            tables=args.table or None,
            progress=show,
        )
    wrong = [r for r in reports if not r.ok]
    for report in wrong:
        print(f"{report.material}: {report.wrong} wrong entries", file=sys.stderr)
        for error in report.errors:
            print(f"  {error}", file=sys.stderr)
    entries = sum(r.entries for r in reports)
    print(
        f"{len(reports)} tables verified ({entries:,} entries): "
        f"{'all correct' if not wrong else f'{len(wrong)} wrong'}; {time.perf_counter() - start:.1f} s"
    )
    return EXIT_FAILURE if wrong else EXIT_OK


def _describe(dtm: int, wdl: int) -> str:
    if wdl == 0:
        return "draw"
    if dtm == 0:
        return "lost (no legal move)"
    return f"{'win' if dtm > 0 else 'loss'} in {_plies(abs(dtm))}"


def cmd_probe(args: argparse.Namespace) -> int:
    """Looks a position up in the tables: its value for the side to move and every move's, best
    first. Exits with 3 if the position is not in the tables."""
    from congo import tablebase

    tables = tablebase.open_tablebase(args.dir)
    board = congo.Board(args.fen)
    dtm, wdl = tables.probe_dtm(board), tables.probe_wdl(board)
    if dtm is None or wdl is None:
        table = tables.table_of(board)
        men = len(board.piece_map())
        if table is None and men > tablebase.MAX_MEN:
            print(f"not in the tables: {men} men, tables hold at most {tablebase.MAX_MEN}")
        elif table is None:
            print("not in the tables: a lion is missing (the game is over)")
        else:
            print(
                f"not in the tables: the table {table[0]} is missing from {tables.directory} "
                f"(make it with: congo tablebase generate --men {men} --dir {tables.directory})"
            )
        return EXIT_NOT_FOUND
    side = "White" if board.turn else "Black"
    print(f"{board.fen()}: {side} to move, {_describe(dtm, wdl)}")
    for move, value in tables.root_moves(board) or []:
        print(f"  {move.uci():<10} {board.san(move):<10} {_describe(value, (value > 0) - (value < 0))}")
    if wdl != 0 and not args.no_line:
        print("best line: " + board.variation_san(tables.best_line(board)))
    return EXIT_OK


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}" if whole else "-"


def _plies(n: int) -> str:
    return f"{n} ply" if n == 1 else f"{n} plies"


_ROLE_LETTERS_TO_TYPE = {
    "P": congo.PAWN,
    "S": congo.SUPERPAWN,
    "M": congo.MONKEY,
    "G": congo.GIRAFFE,
    "Z": congo.ZEBRA,
    "E": congo.ELEPHANT,
    "C": congo.CROCODILE,
}


def _piece(letter: str) -> str:
    return PIECE_NAMES[_ROLE_LETTERS_TO_TYPE[letter]] or letter


def _class(material: str) -> str:
    """``"2 pieces v 1"``: how many pieces each side has besides its lion."""
    white, black = (len(side) - 1 for side in material.split("v"))
    return f"{white} piece{'s' if white != 1 else ''} v {black if black else 'bare lion'}"


def _longest_win(s: tablebase.TableStats) -> tuple[int, str]:
    """The table's longest win for either side to move, with its position."""
    return max(
        (s.white_to_move.longest_win, s.white_to_move.longest_win_fen or ""),
        (s.black_to_move.longest_win, s.black_to_move.longest_win_fen or ""),
    )


class _Table:
    """A Markdown table."""

    def __init__(self, out: list[str], header: Sequence[str], align: str) -> None:
        self.out = out
        self.row(header)
        self.row(["---:" if a == "r" else "---" for a in align])

    def row(self, cells: Sequence[object]) -> None:
        self.out.append("| " + " | ".join(str(c) for c in cells) + " |")


def facts_markdown(stats: list[tablebase.TableStats], top: int = 30) -> str:
    """What ``congo tablebase stats`` prints and docs/tablebase.md shows (benches/tablebase_facts.py
    writes it there): Markdown tables of the statistics of :func:`congo.tablebase.stats`, the long
    lists cut at ``top`` rows."""
    by_name = {s.material: s for s in stats}
    out: list[str] = []

    out.append("### A piece and its lion against a bare lion\n")
    t = _Table(
        out,
        [
            "piece",
            "White to move: White wins",
            "draws",
            "Black to move: White wins",
            "draws",
            "longest win, White to move",
        ],
        "lrrrrl",
    )
    for letter in _ROLE_LETTERS:
        found = by_name.get(f"L{letter}vL")
        if found is not None:
            w, b = found.white_to_move, found.black_to_move
            plies, fen = w.longest_win, w.longest_win_fen
            t.row(
                [
                    _piece(letter),
                    f"{_percent(w.wins, w.positions)} %",
                    f"{_percent(w.draws, w.positions)} %",
                    f"{_percent(b.losses, b.positions)} %",
                    f"{_percent(b.draws, b.positions)} %",
                    f"{_plies(plies)}: `{fen}`",
                ]
            )
    out.append("")

    if any(_class(s.material) == "1 piece v 1" for s in stats):
        out.append("### One piece against one\n")
        out.append(
            "White's piece (rows) against Black's (columns), White to move: "
            "White wins / draws / Black wins, %.\n"
        )
        t = _Table(
            out, ["White \\ Black", *(_piece(c) for c in _ROLE_LETTERS)], "l" + "r" * len(_ROLE_LETTERS)
        )
        for mine in _ROLE_LETTERS:
            t.row([_piece(mine), *(_duel(by_name, mine, theirs) or "-" for theirs in _ROLE_LETTERS)])
        out.append("")

    out.append("### Each class of material\n")
    t = _Table(
        out,
        ["class", "tables", "positions", "side to move wins", "draws", "longest win", "in", "position"],
        "lrrrrrll",
    )
    classes: dict[str, list[tablebase.TableStats]] = {}
    for s in stats:
        if s.material != "LvL":
            classes.setdefault(_class(s.material), []).append(s)
    for label, members in classes.items():
        sides = [side for s in members for side in (s.white_to_move, s.black_to_move)]
        positions = sum(side.positions for side in sides)
        best = max(members, key=_longest_win)
        plies, fen = _longest_win(best)
        t.row(
            [
                label,
                len(members),
                f"{positions:,}",
                f"{_percent(sum(side.wins for side in sides), positions)} %",
                f"{_percent(sum(side.draws for side in sides), positions)} %",
                _plies(plies),
                best.material,
                f"`{fen}`",
            ]
        )
    out.append("")

    out.append(f"### The longest wins (the {top} longest tables)\n")
    out.append("Each table's longest win, the winner to move: puzzles with one solution length.\n")
    t = _Table(out, ["table", "longest win", "position"], "lrl")
    for s in sorted(stats, key=lambda s: (-_longest_win(s)[0], s.material))[:top]:
        plies, fen = _longest_win(s)
        t.row([s.material, _plies(plies), f"`{fen}`"])
    out.append("")

    out.append("### Mutual zugzwangs\n")
    zugzwangs = [s for s in stats if s.full_zugzwangs or s.half_zugzwangs]
    men_counts = sorted({len(s.material) - 1 for s in stats})
    for men in men_counts:
        group = [s for s in stats if len(s.material) - 1 == men]
        full = sum(s.full_zugzwangs for s in group)
        half = sum(s.half_zugzwangs for s in group)
        tables = sum(1 for s in group if s.full_zugzwangs or s.half_zugzwangs)
        out.append(
            f"* {men} men: {full:,} placements where whoever moves loses, {half:,} where one side to move "
            f"draws and the other loses, in {tables} of {len(group)} tables."
        )
    out.append("")
    if zugzwangs:
        t = _Table(out, ["table", "whoever moves loses", "draw or loss", "example (White to move)"], "lrrl")
        for s in sorted(zugzwangs, key=lambda s: (-s.full_zugzwangs, -s.half_zugzwangs, s.material))[:top]:
            t.row([s.material, f"{s.full_zugzwangs:,}", f"{s.half_zugzwangs:,}", f"`{s.zugzwang_example}`"])
        out.append("")

    out.append("### Every table up to four men\n")
    t = _Table(
        out,
        ["table", "positions", "White to move wins", "draws", "Black to move wins", "draws", "longest win"],
        "lrrrrrr",
    )
    for s in stats:
        if len(s.material) - 1 <= 4:
            w, b = s.white_to_move, s.black_to_move
            t.row(
                [
                    s.material,
                    f"{w.positions + b.positions:,}",
                    f"{_percent(w.wins, w.positions)} %",
                    f"{_percent(w.draws, w.positions)} %",
                    f"{_percent(b.wins, b.positions)} %",
                    f"{_percent(b.draws, b.positions)} %",
                    _plies(_longest_win(s)[0]),
                ]
            )
    return "\n".join(out) + "\n"


def _duel(by_name: dict[str, tablebase.TableStats], mine: str, theirs: str) -> str | None:
    """White's piece `mine` against Black's `theirs` with White to move: White wins / draws / Black
    wins, in per cent. A table is stored in one orientation: the other is its colour swap, whose
    Black-to-move positions are these."""
    stored = by_name.get(f"L{mine}vL{theirs}")
    swapped = by_name.get(f"L{theirs}vL{mine}")
    if stored is not None:
        side = stored.white_to_move
    elif swapped is not None:
        side = swapped.black_to_move
    else:
        return None
    return " / ".join(_percent(n, side.positions) for n in (side.wins, side.draws, side.losses))


def cmd_stats(args: argparse.Namespace) -> int:
    """Summarises the tables in --dir as Markdown: a piece against a bare lion, one piece against
    one, the longest win of each class, mutual zugzwangs, every table."""
    from congo import tablebase

    progress, show = _reporter("counting")
    with progress:
        stats = tablebase.stats(args.dir, men=args.men, threads=args.threads, progress=show)
    sys.stdout.write(facts_markdown(stats, args.top))
    return EXIT_OK


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Registers ``congo tablebase`` and its subcommands."""
    from congo.tablebase import default_directory

    where = (
        f"$CONGO_TABLEBASES if set, else $XDG_CACHE_HOME/congo/tablebases or ~/.cache/congo/tablebases; "
        f"here {default_directory()}"
    )
    parser = subparsers.add_parser(
        "tablebase",
        help="generate, verify and probe the endgame tables (up to five men)",
        description="Endgame tables: every position with up to five men, solved. "
        f"Tables go to --dir ({where}).",
    )
    sub = parser.add_subparsers(dest="tablebase_command", metavar="COMMAND", required=True)

    def directory(p: argparse.ArgumentParser) -> None:
        p.add_argument("--dir", default=None, help=f"the tables' directory (default: {where})")

    def common(p: argparse.ArgumentParser, *, men_default: int | None) -> None:
        directory(p)
        p.add_argument(
            "--men",
            type=men_count,
            default=men_default,
            help="tables with up to this many men, both lions included"
            + (f" (default: {men_default})" if men_default else " (default: every table present)"),
        )
        p.add_argument("--threads", type=positive_int, default=None, help="threads (default: every core)")

    gen = sub.add_parser("generate", help="generate the tables", description=cmd_generate.__doc__)
    common(gen, men_default=4)
    gen.add_argument("--force", action="store_true", help="regenerate tables already in the directory")
    gen.add_argument(
        "--table", action="append", metavar="NAME", help="only this table (and what it needs), e.g. LZvLP"
    )
    gen.add_argument("--simple", action="store_true", help="use the slow checking generator (sweeps)")
    gen.add_argument("--verbose", "-v", action="store_true", help="a line per table")
    gen.set_defaults(subcommand=cmd_generate)

    ver = sub.add_parser("verify", help="check every entry of the tables", description=cmd_verify.__doc__)
    common(ver, men_default=None)
    ver.add_argument("--table", action="append", metavar="NAME", help="only this table, e.g. LZvLP")
    ver.set_defaults(subcommand=cmd_verify)

    probe = sub.add_parser("probe", help="look a position up", description=cmd_probe.__doc__)
    probe.add_argument("fen", metavar="FEN", help="the position")
    directory(probe)
    probe.add_argument("--no-line", action="store_true", help="do not print the best line")
    probe.set_defaults(subcommand=cmd_probe)

    stats = sub.add_parser("stats", help="what the tables say, as Markdown", description=cmd_stats.__doc__)
    common(stats, men_default=None)
    stats.add_argument("--top", type=positive_int, default=30, help="rows of the long lists (default: 30)")
    stats.set_defaults(subcommand=cmd_stats)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Runs the subcommand chosen (generate, verify, probe, stats)."""
    return int(args.subcommand(args))
