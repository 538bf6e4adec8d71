"""Endgame tablebases: every position with up to five men (both lions included), solved.

>>> import congo, congo.tablebase
>>> congo.tablebase.generate("tables", men=3)                    # doctest: +SKIP
>>> tables = congo.tablebase.open_tablebase("tables")            # doctest: +SKIP
>>> board = congo.Board("7/7/3l3/7/2Z4/7/4L2 w 1")
>>> tables.probe_dtm(board)                                      # doctest: +SKIP
1
>>> tables.root_moves(board)[0]                                  # doctest: +SKIP
(Move.from_uci('c3d5'), 1)

The tables hold the *distance to mate* in plies for the side to move: to the capture of a lion, or
to the position where the side to move has no legal move (and loses). A positive distance is a
win, a negative one a loss, 0 a draw. Only the two lions left is a draw unless the side to move
captures at once (docs/rules.md §8). The tables are generated in Rust on every core
(:func:`generate`, or ``congo tablebase generate``), checked position by position
(:func:`verify`), and read table by table on first use. The search uses them when given a
directory: ``congo.Engine(tablebase_path=...)``.

A table is checked when it is first read (its checksum, its header, and that no entry is beyond
the longest distance the header states). A table that fails is never used: probing a position of
it raises :class:`TablebaseError` (a ``ValueError``) naming the file, for the object's whole life,
and so does a search of :class:`congo.Engine` that reached it. Only regular files are tables.

The file format and the facts the tables reveal are in ``docs/tablebase.md``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import Callable, Union

from congo import _core
from congo._core import Move, TablebaseError
from congo.board import PositionLike, to_position

__all__ = [
    "MAX_MEN",
    "Progress",
    "SideStats",
    "TableReport",
    "TableStats",
    "Tablebase",
    "TablebaseError",
    "VerifyReport",
    "default_directory",
    "generate",
    "open_tablebase",
    "stats",
    "verify",
]

MAX_MEN: int = _core.MAX_TABLEBASE_MEN
"""The most men (pieces, both lions included) a table holds (the core's limit)."""

PathLike = Union[str, "os.PathLike[str]"]


def default_directory() -> Path:
    """Where tables go when no directory is given: ``$CONGO_TABLEBASES`` if set, else
    ``$XDG_CACHE_HOME/congo/tablebases`` (``~/.cache/congo/tablebases``)."""
    explicit = os.environ.get("CONGO_TABLEBASES")
    if explicit:
        return Path(explicit).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "congo" / "tablebases"


def _directory(directory: PathLike | None) -> Path:
    if directory is None:
        return default_directory()
    if not isinstance(directory, (str, os.PathLike)):
        raise TypeError(f"directory must be a path, got {type(directory).__name__}")
    return Path(directory).expanduser()


class Tablebase:
    """A directory of tables (``*.ctb`` files), each read when a position of it is first probed.

    Opening checks every file's header. Raises ``FileNotFoundError`` (an ``OSError``) if the
    directory does not exist (the message says how to generate tables), and
    :class:`TablebaseError` for a damaged or foreign table file, a file named like a table that is
    not a regular file (a FIFO, a directory) or a directory that holds no table. A table's entries
    are checked when first read: a probe of a table that fails raises :class:`TablebaseError`.
    Probes are safe from several threads at once.
    """

    def __init__(self, directory: PathLike | None = None) -> None:
        self._directory = _directory(directory)
        self._tb = _core.Tablebase(self._directory)

    @property
    def directory(self) -> Path:
        """The directory the tables were opened from."""
        return self._directory

    @property
    def max_men(self) -> int:
        """The most men of any table present (0 when there is none)."""
        return self._tb.max_men

    def materials(self) -> list[str]:
        """The signatures of the tables present, e.g. ``"LZvLP"`` (White's lion and zebra against
        Black's lion and pawn), fewest men first."""
        return self._tb.materials()

    def probe_dtm(self, board: PositionLike) -> int | None:
        """The distance to mate in plies for the side to move: ``n > 0`` it wins with its
        ``n``-th ply from now (1: it captures the lion now), ``-n`` it loses after ``n`` plies,
        ``0`` a draw (or a position already lost, where the side to move has no legal move:
        :meth:`probe_wdl` tells them apart). ``None`` if the position is not in the tables (too
        many men, or a table missing: :meth:`table_of` names it). Raises :class:`TablebaseError`
        if the position's table is damaged."""
        found = self._tb.probe(to_position(board))
        return None if found is None else found[1]

    def probe_wdl(self, board: PositionLike) -> int | None:
        """``1`` if the side to move wins, ``0`` for a draw, ``-1`` if it loses; ``None`` outside
        the tables."""
        found = self._tb.probe(to_position(board))
        return None if found is None else found[0]

    def root_moves(self, board: PositionLike) -> list[tuple[Move, int]] | None:
        """Every legal move with the distance to mate it leads to, from the mover's point of view
        (as :meth:`probe_dtm`: positive wins, negative losses, 0 draws), best first: the quickest
        win, then slower wins, draws, the slowest loss, the quickest. ``None`` outside the
        tables."""
        found = self._tb.root_moves(to_position(board))
        return None if found is None else [(row.move, row.dtm) for row in found]

    def best_move(self, board: PositionLike) -> Move | None:
        """The distance-best move (the quickest win, or the slowest loss; a drawing move in a
        draw), or ``None`` outside the tables or when the game is over."""
        moves = self.root_moves(board)
        return moves[0][0] if moves else None

    def best_line(self, board: PositionLike, max_plies: int = 1000) -> list[Move]:
        """The line the tables play from a position for both sides (see :meth:`best_move`), to
        the end of the game or ``max_plies`` moves. Empty outside the tables."""
        return self._tb.best_line(to_position(board), max_plies)

    def table_of(self, board: PositionLike) -> tuple[str, bool] | None:
        """The name of the table that covers a position (e.g. ``"LZvL"``) and whether it is in
        the directory; ``None`` for a position with more men than any table holds."""
        return self._tb.table_of(to_position(board))

    def load_all(self) -> None:
        """Reads and checks every table now (otherwise each is read and checked when first probed).
        Raises :class:`TablebaseError` for the first damaged table; a damaged table stays unusable
        (its probes raise), the others are usable."""
        self._tb.load_all()

    def close(self) -> None:
        """Nothing to release (the tables are plain memory); here for python-chess's idiom."""

    def __enter__(self) -> Tablebase:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __reduce__(self) -> tuple[type[Tablebase], tuple[str]]:
        """Pickles as its directory: a copy (in a Ray actor, another process) opens the same
        directory again, on its own machine, and reads its own tables."""
        return (Tablebase, (str(self._directory),))

    def __repr__(self) -> str:
        return (
            f"<Tablebase {str(self._directory)!r}: {len(self.materials())} tables, up to {self.max_men} men>"
        )


def open_tablebase(directory: PathLike | None = None) -> Tablebase:
    """Opens a directory of tables (the :func:`default_directory` if none is given)."""
    return Tablebase(directory)


@dataclasses.dataclass(frozen=True)
class Progress:
    """How far a long tablebase job has come (passed to a ``progress`` callback)."""

    tables_done: int
    tables_total: int
    work_done: int
    work_total: int
    running: list[str]
    """The tables being worked on now."""
    elapsed: float
    """Seconds since the job started."""

    @property
    def fraction(self) -> float:
        """The share done, 0 to 1."""
        return 1.0 if self.work_total == 0 else min(1.0, self.work_done / self.work_total)


TableReport = _core.TableReport
"""One generated table (a frozen record made by the core): ``material``, its ``positions`` (each
once, up to symmetry), ``wins``, ``draws`` and ``losses`` for the side to move among them,
``longest`` (the longest distance to mate, of a win or a loss for the side to move), ``seconds``
and ``reused`` (the table was in the directory already and was kept)."""

VerifyReport = _core.VerifyReport
"""One verified table (a frozen record made by the core): ``material``, ``entries`` checked,
``wrong`` entries, the first few ``errors`` described, ``seconds``; ``ok`` when none is wrong."""

SideStats = _core.SideStats
"""A table's positions with one side to move (a frozen record made by the core): ``positions``,
``wins``, ``draws``, ``losses`` for the side to move, and its longest win and loss
(``longest_win``, ``longest_win_fen``, ``longest_loss``, ``longest_loss_fen``: plies and FEN; 0 and
``None`` when there is none)."""

TableStats = _core.TableStats
"""What one table says, counting every position once (a position and its mirror image twice): a
frozen record made by the core with ``material``, ``white_to_move`` and ``black_to_move`` (each a
:class:`SideStats`), ``full_zugzwangs``, ``half_zugzwangs`` and a ``zugzwang_example`` FEN.

A mutual zugzwang is a placement where the side to move, whichever it is, would do better if the
other side were to move: ``full_zugzwangs`` where whoever moves loses, ``half_zugzwangs`` where one
side to move draws and the other loses."""


ProgressCallback = Callable[[Progress], object]


def _check_progress(progress: ProgressCallback | None) -> Callable[..., object] | None:
    if progress is None:
        return None
    if not callable(progress):
        raise TypeError(f"progress must be callable, got {type(progress).__name__}")
    return lambda *fields: progress(Progress(*fields))


def _check_tables(tables: Iterable[str] | None) -> list[str]:
    if tables is None:
        return []
    if isinstance(tables, str):
        raise TypeError("tables must be a list of names like ['LZvLP'], not one string")
    names = list(tables)
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"table names are strings, got {type(name).__name__}")
    return names


def _directory_and_men(directory: PathLike | None, men: int | None) -> tuple[Path, int]:
    """The directory of existing tables, and ``men`` (default: the most in the directory; the core
    checks it)."""
    path = _directory(directory)
    return path, max(2, Tablebase(path).max_men) if men is None else men


def generate(
    directory: PathLike | None = None,
    *,
    men: int = 4,
    threads: int | None = None,
    force: bool = False,
    tables: Iterable[str] | None = None,
    simple: bool = False,
    progress: ProgressCallback | None = None,
) -> list[TableReport]:
    """Generates every table with up to ``men`` men (2 to 5) into ``directory`` (created if needed;
    the :func:`default_directory` if none is given), in Rust on ``threads`` threads (default: every
    core), the GIL released. ``tables`` restricts the work to some tables (names like ``"LZvLP"``)
    and the ones they need.

    Tables already in the directory are checked and kept unless ``force``. ``simple`` uses the
    second, slow generator (sweeps until nothing changes, for checking the first; it always
    regenerates). ``progress`` is called about ten times a second with a :class:`Progress`; if it
    raises (or on Ctrl-C), generation stops, the tables finished so far stay, and the exception
    propagates. Up to 4 men takes seconds, up to 5 men about half an hour of CPU time (see
    ``docs/tablebase.md``).

    Raises ``ValueError`` for a bad ``men`` or table name, ``OSError`` if the directory cannot be
    written, :class:`TablebaseError` for a damaged table in it.
    """
    found = _core.tablebase_generate(
        _directory(directory),
        men,
        threads=threads,
        force=bool(force),
        tables=_check_tables(tables),
        simple=bool(simple),
        callback=_check_progress(progress),
    )
    return found


def verify(
    directory: PathLike | None = None,
    *,
    men: int | None = None,
    threads: int | None = None,
    tables: Iterable[str] | None = None,
    progress: ProgressCallback | None = None,
) -> list[VerifyReport]:
    """Checks every entry of the tables with up to ``men`` men (default: all present), or of
    ``tables``, against the move generator and the tables its moves lead into, and each file
    against its checksum. Returns a report per table (``report.ok``); a wrong entry is reported,
    not raised. Raises :class:`TablebaseError` for a damaged file or a table missing."""
    path, men = _directory_and_men(directory, men)
    found = _core.tablebase_verify(
        path,
        men,
        threads=threads,
        tables=_check_tables(tables),
        callback=_check_progress(progress),
    )
    return found


def stats(
    directory: PathLike | None = None,
    *,
    men: int | None = None,
    threads: int | None = None,
    tables: Iterable[str] | None = None,
    progress: ProgressCallback | None = None,
) -> list[TableStats]:
    """Counts the positions of the tables with up to ``men`` men (default: all present), or of
    ``tables``: wins, draws and losses for each side to move, the longest wins, the mutual
    zugzwangs (see :class:`TableStats`)."""
    path, men = _directory_and_men(directory, men)
    found = _core.tablebase_stats(
        path,
        men,
        threads=threads,
        tables=_check_tables(tables),
        callback=_check_progress(progress),
    )
    return found
