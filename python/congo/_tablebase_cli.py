"""``congo tablebase``: generate, verify, probe and summarise the endgame tables."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import congo
from congo import tablebase
from congo.pieces import PIECE_NAMES

# The roles besides the lion in the order of table names (crocodile first, pawn last).
_ROLE_LETTERS = "CEZGMSP"


def _reporter(label: str) -> tablebase.ProgressCallback:
    """A progress callback drawing a bar on stderr (by tables done): redrawn in place on a terminal,
    a line per tenth of the work otherwise."""
    from congo.__main__ import _progress, _progress_bar

    interactive = sys.stderr.isatty()
    last_tenth = [-1]

    def show(p: tablebase.Progress) -> None:
        running = ", ".join(p.running[:3]) + (" ..." if len(p.running) > 3 else "")
        text = f"tables {label} {100 * p.fraction:5.1f}%  {p.elapsed:6.1f} s  {running}"
        if interactive:
            _progress(sys.stderr, _progress_bar(p.tables_done, p.tables_total, text))
        elif int(10 * p.fraction) != last_tenth[0]:
            last_tenth[0] = int(10 * p.fraction)
            print(_progress_bar(p.tables_done, p.tables_total, text), file=sys.stderr, flush=True)

    return show


def _clear_line() -> None:
    if sys.stderr.isatty():
        from congo.__main__ import _progress

        _progress(sys.stderr, "")


def cmd_generate(args: argparse.Namespace) -> int:
    """Generates the endgame tables with up to --men men (both lions included) into --dir, on
    every core, keeping tables already there (unless --force). Up to 4 men takes seconds, up to 5
    minutes."""
    directory = args.dir or tablebase.default_directory()
    start = time.perf_counter()
    reports = tablebase.generate(
        directory,
        men=args.men,
        threads=args.threads,
        force=args.force,
        tables=args.table or None,
        simple=args.simple,
        progress=_reporter("generating"),
    )
    _clear_line()
    elapsed = time.perf_counter() - start
    made = [r for r in reports if not r.reused]
    longest = max(reports, key=lambda r: r.longest)
    positions = sum(r.positions for r in reports)
    if args.verbose:
        for r in reports:
            print(
                f"{r.material:10} {r.positions:>12,} positions  {r.longest:>4} plies  "
                f"{'kept' if r.reused else f'{r.seconds:.2f} s'}"
            )
    print(
        f"{len(reports)} tables in {directory} ({len(made)} generated, {len(reports) - len(made)} kept): "
        f"{positions:,} positions up to symmetry, the longest win {longest.longest} plies "
        f"({longest.material}); {elapsed:.1f} s"
    )
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Checks every entry of the tables in --dir against the move generator and the tables its
    moves lead into, and every file against its checksum. Exits with 1 if an entry is wrong."""
    directory = args.dir or tablebase.default_directory()
    start = time.perf_counter()
    reports = tablebase.verify(
        directory,
        men=args.men,
        threads=args.threads,
        tables=args.table or None,
        progress=_reporter("verifying"),
    )
    _clear_line()
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
    return 1 if wrong else 0


def _describe(dtm: int, wdl: int) -> str:
    if wdl == 0:
        return "draw"
    if dtm == 0:
        return "lost (no legal move)"
    return f"{'win' if dtm > 0 else 'loss'} in {abs(dtm)} plies"


def cmd_probe(args: argparse.Namespace) -> int:
    """Looks a position up in the tables: its value for the side to move and every move's, best
    first. Exits with 3 if the position is not in the tables."""
    tables = tablebase.open_tablebase(args.dir)
    board = congo.Board(args.fen)
    dtm, wdl = tables.probe_dtm(board), tables.probe_wdl(board)
    if dtm is None or wdl is None:
        print(f"not in the tables (they hold up to {tables.max_men} men)")
        return 3
    side = "White" if board.turn else "Black"
    print(f"{board.fen()}: {side} to move, {_describe(dtm, wdl)}")
    for move, value in tables.root_moves(board) or []:
        print(f"  {move.uci():<10} {board.san(move):<10} {_describe(value, (value > 0) - (value < 0))}")
    if wdl != 0 and not args.no_line:
        print("best line: " + board.variation_san(tables.best_line(board)))
    return 0


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}" if whole else "-"


def _markdown(stats: list[tablebase.TableStats]) -> str:
    """The facts of docs/tablebase.md, as Markdown tables."""
    by_name = {s.material: s for s in stats}
    out: list[str] = []

    def row(cells: Sequence[object]) -> None:
        out.append("| " + " | ".join(str(c) for c in cells) + " |")

    # 1. Each piece with its lion against a bare lion.
    out.append("### A piece and its lion against a bare lion\n")
    row(
        [
            "piece",
            "White to move: wins",
            "draws",
            "Black to move: White wins",
            "draws",
            "longest win",
            "position",
        ]
    )
    row(["---", "---:", "---:", "---:", "---:", "---:", "---"])
    for letter in _ROLE_LETTERS:
        s = by_name.get(f"L{letter}vL")
        if s is None:
            continue
        w, b = s.white_to_move, s.black_to_move
        longest, fen = max(
            (w.longest_win, w.longest_win_fen or ""), (b.longest_loss, b.longest_loss_fen or "")
        )
        row(
            [
                PIECE_NAMES[_ROLE_LETTERS_TO_TYPE[letter]],
                f"{_percent(w.wins, w.positions)} %",
                f"{_percent(w.draws, w.positions)} %",
                f"{_percent(b.losses, b.positions)} %",
                f"{_percent(b.draws, b.positions)} %",
                f"{longest} plies",
                f"`{fen}`",
            ]
        )
    out.append("")

    # 2. The duel matrix: White's piece (rows) against Black's (columns), White to move.
    if any(len(s.material) == 5 and s.material[2] == "v" for s in stats):
        out.append("### One piece against one (White to move: White wins / draws / Black wins, %)\n")
        row(["White \\ Black", *(PIECE_NAMES[_ROLE_LETTERS_TO_TYPE[c]] for c in _ROLE_LETTERS)])
        row(["---", *(["---:"] * len(_ROLE_LETTERS))])
        for mine in _ROLE_LETTERS:
            cells = []
            for theirs in _ROLE_LETTERS:
                found = _duel(by_name, mine, theirs)
                cells.append(found or "-")
            row([PIECE_NAMES[_ROLE_LETTERS_TO_TYPE[mine]], *cells])
        out.append("")

    # 3. The longest win of each class (pieces of each side besides the lions).
    out.append("### The longest win of each class\n")
    row(["class", "table", "longest win", "position (the winner to move)"])
    row(["---", "---", "---:", "---"])
    classes: dict[str, tuple[int, str, str]] = {}
    for s in stats:
        white, black = s.material.split("v")
        label = f"{len(white) - 1} against {len(black) - 1}"
        for side in (s.white_to_move, s.black_to_move):
            if side.longest_win_fen and side.longest_win > classes.get(label, (0, "", ""))[0]:
                classes[label] = (side.longest_win, s.material, side.longest_win_fen)
    for label in sorted(classes, key=lambda c: (sum(int(x) for x in c.split(" against ")), c)):
        plies, name, fen = classes[label]
        row([label, name, f"{plies} plies", f"`{fen}`"])
    out.append("")

    # 4. Mutual zugzwangs.
    zugzwangs = [s for s in stats if s.full_zugzwangs or s.half_zugzwangs]
    out.append("### Mutual zugzwangs\n")
    total_full = sum(s.full_zugzwangs for s in stats)
    total_half = sum(s.half_zugzwangs for s in stats)
    out.append(
        f"{total_full:,} placements where whoever moves loses and {total_half:,} where one side to move "
        f"draws and the other loses, in {len(zugzwangs)} of {len(stats)} tables.\n"
    )
    if zugzwangs:
        row(["table", "whoever moves loses", "draw or loss", "example (White to move)"])
        row(["---", "---:", "---:", "---"])
        for s in sorted(zugzwangs, key=lambda s: (-s.full_zugzwangs, -s.half_zugzwangs))[:40]:
            row([s.material, f"{s.full_zugzwangs:,}", f"{s.half_zugzwangs:,}", f"`{s.zugzwang_example}`"])
        out.append("")

    # 5. Every table.
    out.append("### Every table\n")
    row(["table", "positions", "White to move wins", "draws", "Black to move wins", "draws", "longest win"])
    row(["---", "---:", "---:", "---:", "---:", "---:", "---:"])
    for s in stats:
        w, b = s.white_to_move, s.black_to_move
        longest = max(w.longest_win, b.longest_win)
        row(
            [
                s.material,
                f"{w.positions + b.positions:,}",
                f"{_percent(w.wins, w.positions)} %",
                f"{_percent(w.draws, w.positions)} %",
                f"{_percent(b.wins, b.positions)} %",
                f"{_percent(b.draws, b.positions)} %",
                longest,
            ]
        )
    return "\n".join(out) + "\n"


_ROLE_LETTERS_TO_TYPE = {
    "P": congo.PAWN,
    "S": congo.SUPERPAWN,
    "M": congo.MONKEY,
    "G": congo.GIRAFFE,
    "Z": congo.ZEBRA,
    "E": congo.ELEPHANT,
    "C": congo.CROCODILE,
}


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
    wins, losses = side.wins, side.losses
    return " / ".join(_percent(n, side.positions) for n in (wins, side.draws, losses))


def cmd_stats(args: argparse.Namespace) -> int:
    """Summarises the tables in --dir as Markdown: a piece against a bare lion, one piece against
    one, the longest win of each class, mutual zugzwangs, every table."""
    stats = tablebase.stats(args.dir, men=args.men, threads=args.threads, progress=_reporter("counting"))
    _clear_line()
    sys.stdout.write(_markdown(stats))
    return 0


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Registers ``congo tablebase`` and its subcommands."""
    from congo.__main__ import _positive_int

    parser = commands.add_parser(
        "tablebase",
        help="generate, verify and probe the endgame tables (up to five men)",
        description="Endgame tables: every position with up to five men, solved. Tables go to "
        f"--dir (default {tablebase.default_directory()}, or $CONGO_TABLEBASES).",
    )
    sub = parser.add_subparsers(dest="tablebase_command", metavar="COMMAND", required=True)

    def common(p: argparse.ArgumentParser, *, men_default: int | None) -> None:
        p.add_argument("--dir", help="the tables' directory (default: %(default)s)", default=None)
        p.add_argument(
            "--men",
            type=_men,
            default=men_default,
            help="tables with up to this many men, both lions included"
            + (f" (default: {men_default})" if men_default else " (default: every table present)"),
        )
        p.add_argument("--threads", type=_positive_int, default=None, help="threads (default: every core)")

    gen = sub.add_parser("generate", help="generate the tables", description=cmd_generate.__doc__)
    common(gen, men_default=4)
    gen.add_argument("--force", action="store_true", help="regenerate tables already in the directory")
    gen.add_argument(
        "--table", action="append", metavar="NAME", help="only this table (and what it needs), e.g. LZvLP"
    )
    gen.add_argument("--simple", action="store_true", help="use the slow checking generator (sweeps)")
    gen.add_argument("--verbose", "-v", action="store_true", help="a line per table")
    gen.set_defaults(func=cmd_generate)

    ver = sub.add_parser("verify", help="check every entry of the tables", description=cmd_verify.__doc__)
    common(ver, men_default=None)
    ver.add_argument("--table", action="append", metavar="NAME", help="only this table, e.g. LZvLP")
    ver.set_defaults(func=cmd_verify)

    probe = sub.add_parser("probe", help="look a position up", description=cmd_probe.__doc__)
    probe.add_argument("fen", metavar="FEN", help="the position")
    probe.add_argument("--dir", default=None, help="the tables' directory")
    probe.add_argument("--no-line", action="store_true", help="do not print the best line")
    probe.set_defaults(func=cmd_probe)

    stats = sub.add_parser("stats", help="what the tables say, as Markdown", description=cmd_stats.__doc__)
    common(stats, men_default=None)
    stats.set_defaults(func=cmd_stats)


def _men(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if not 2 <= value <= tablebase.MAX_MEN:
        raise argparse.ArgumentTypeError(f"must be from 2 to {tablebase.MAX_MEN}")
    return value
