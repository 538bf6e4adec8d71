"""Analysis at scale: many positions searched at once, on every core or over a Ray cluster.

>>> import congo
>>> fens = ["7/4l2/7/4c2/7/2p4/1M1L3 w 1", congo.STARTING_FEN]
>>> for result in congo.analyse_many(fens, congo.Limit(depth=3), workers=2):
...     print(result.move, result.score)
b1d3f5d7 #1
a1c3 +29

Each worker is an :class:`~congo.Engine` with one search thread, kept warm between positions, and
the workers search at the same time on threads of this process (the search releases the GIL) or,
with ``ray=ADDRESS``, as Ray actors over a cluster (:mod:`congo.distributed`).

**Exactly the results of a loop.** Before each position a worker clears its engine's
transposition table and move-ordering statistics (:meth:`Engine.clear`), so the search of a
position never depends on which positions the same worker searched before. With a depth or node
limit, the results (move, score, line, depth, nodes) are therefore those of::

    engine = congo.Engine(hash_mb=hash_mb)
    for position in positions:
        engine.clear()
        yield engine.search(position, limit)

whatever the number of workers, and whether they are threads or Ray actors. (A time limit stops
each search at the clock, so its results vary from run to run in any case.) Clearing a table costs
time in proportion to its size, which is why the table is small by default (``hash_mb=4``: 0.1 ms
to clear; enough for searches of a few million nodes).
"""

from __future__ import annotations

import copyreg
import functools
import os
from collections.abc import Generator, Iterable, Iterator, Mapping
from typing import Callable, Literal, Union, overload

from congo import _core
from congo._core import Move, Position
from congo.board import Board
from congo.distributed import open_pool
from congo.engine import MAX_MULTIPV, Engine, InfoDict, Limit, SearchResult
from congo.tablebase import Tablebase

__all__ = ["DEFAULT_HASH_MB", "analyse_many"]

DEFAULT_HASH_MB: int = _core.BATCH_HASH_MB
"""The transposition table of each worker of :func:`analyse_many`, in MiB."""

PositionLike = Union[Board, Position, str]
TablebaseLike = Union[Tablebase, str, "os.PathLike[str]"]

_Job = tuple[Position, Union[_core.History, None], Limit, int]
"""A position to search, as a picklable snapshot: the position, the end of its game's history that
it could repeat (so that the search knows which positions would repeat: the moves since the last
capture, drowning or promotion, copied by the core in time proportional to them, not to the game),
the limit and ``multipv``."""


def _rebuild_history(root: Position | None, moves: tuple[Move, ...]) -> _core.History:
    history = _core.History()
    if root is not None:
        position = root
        for move in moves:
            position = history.push(position, move)
    return history


def _reduce_history(
    history: _core.History,
) -> tuple[
    Callable[[Position | None, tuple[Move, ...]], _core.History], tuple[Position | None, tuple[Move, ...]]
]:
    """Pickles a history as its first position and its moves (for jobs sent to Ray actors)."""
    if not len(history):
        return _rebuild_history, (None, ())
    root = history.root(Position())
    return _rebuild_history, (root, tuple(history.moves()))


copyreg.pickle(_core.History, _reduce_history)

Analysis = Union[SearchResult, list[InfoDict]]
"""What :func:`analyse_many` yields per position."""


def _job(position: PositionLike, limit: Limit, multipv: int) -> _Job:
    """A snapshot of one input, taken when it is read (a Board may change afterwards)."""
    if isinstance(position, Board):
        current = position.position
        return current, position._history.repeatable(current), limit, multipv
    if isinstance(position, Position):
        return position, None, limit, multipv
    if isinstance(position, str):
        return Position(position), None, limit, multipv
    raise TypeError(f"expected a congo.Board, Position or FEN string, got {type(position).__name__}")


def _make_engine(
    hash_mb: int, options: tuple[tuple[str, int], ...], tablebase: Tablebase | None = None
) -> Engine:
    engine = Engine(threads=1, hash_mb=hash_mb, options=dict(options))
    if tablebase is not None:
        engine.set_tablebase(tablebase)
    return engine


def _search(engine: Engine, job: _Job) -> Analysis:
    position, history, limit, multipv = job
    board = Board.from_position(position)
    if history is not None:
        board._restore(position, history)
    engine.clear()
    if multipv == 1:
        return engine.search(board, limit)
    return engine.analyse(board, limit, multipv=multipv)


def _stop(engine: Engine) -> None:
    engine.stop()


@overload
def analyse_many(
    positions: Iterable[PositionLike],
    limit: Limit,
    *,
    workers: int | None = None,
    multipv: Literal[1] = 1,
    hash_mb: int = DEFAULT_HASH_MB,
    options: Mapping[str, int] | None = None,
    progress: Callable[[int, int | None], object] | None = None,
    ray: str | None = None,
    tablebase: TablebaseLike | None = None,
) -> Generator[SearchResult, None, None]: ...
@overload
def analyse_many(
    positions: Iterable[PositionLike],
    limit: Limit,
    *,
    workers: int | None = None,
    multipv: int,
    hash_mb: int = DEFAULT_HASH_MB,
    options: Mapping[str, int] | None = None,
    progress: Callable[[int, int | None], object] | None = None,
    ray: str | None = None,
    tablebase: TablebaseLike | None = None,
) -> Generator[Analysis, None, None]: ...
def analyse_many(
    positions: Iterable[PositionLike],
    limit: Limit,
    *,
    workers: int | None = None,
    multipv: int = 1,
    hash_mb: int = DEFAULT_HASH_MB,
    options: Mapping[str, int] | None = None,
    progress: Callable[[int, int | None], object] | None = None,
    ray: str | None = None,
    tablebase: TablebaseLike | None = None,
) -> Generator[Analysis, None, None]:
    """Searches every position of ``positions`` within ``limit`` and yields a
    :class:`~congo.SearchResult` for each, in input order; with ``multipv=N`` > 1, the list of
    the ``N`` best lines that :meth:`Engine.analyse` gives instead (python-chess's info dicts).

    ``positions`` holds :class:`~congo.Board` objects (their move stacks let the search see
    repetitions), :class:`~congo.Position` objects or FEN strings, in any iterable: it is read
    lazily, a few positions ahead of the results (four per worker), so a generator of millions of
    positions runs in bounded memory. Each input is copied when it is read.

    ``workers`` engines search at once (default: one per CPU; one search thread each), with
    ``hash_mb`` MiB of transposition table each and the engine ``options``; see the module's
    documentation for why the results equal a one-by-one loop for depth and node limits.
    ``progress(done, total)``, if given, is called after each yielded result (``total`` is
    ``len(positions)`` when it has a length, else ``None``). ``ray``: search on Ray actors of the
    cluster at this address instead of threads (``"auto"``, ``"ray://host:port"``, ``"local"``;
    ``pip install 'congo-chess[ray]'``; see :mod:`congo.distributed`). ``tablebase``: endgame tables
    for every worker (a :class:`~congo.tablebase.Tablebase` or a directory, see
    :mod:`congo.tablebase`): positions they cover then score exactly. The threads share one
    opened copy; each Ray actor opens the same directory on its own machine.

    Leaving the loop early, or Ctrl-C, stops the running searches within milliseconds.

    Raises ``TypeError`` / ``ValueError`` for bad arguments at once, and, at the item's place in the
    order, :class:`~congo.InvalidFenError` / :class:`~congo.InvalidPositionError` for a bad FEN and
    ``TypeError`` for an input that is not a position; ``OSError`` or
    :class:`~congo.tablebase.TablebaseError` at once for a tablebase directory that cannot be
    opened."""
    if not isinstance(limit, Limit):
        raise TypeError(f"limit must be a congo.Limit, got {type(limit).__name__}")
    if isinstance(multipv, bool) or not isinstance(multipv, int):
        raise TypeError(f"multipv must be an int, got {type(multipv).__name__}")
    if not 1 <= multipv <= MAX_MULTIPV:
        raise ValueError(f"multipv must be from 1 to {MAX_MULTIPV}, got {multipv}")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable, got {type(progress).__name__}")
    option_pairs = tuple((options or {}).items())
    if tablebase is not None and not isinstance(tablebase, Tablebase):
        tablebase = Tablebase(tablebase)
    # Check the engine settings here, not in every worker.
    _make_engine(hash_mb, option_pairs, tablebase)
    total = len(positions) if hasattr(positions, "__len__") else None  # type: ignore[arg-type]
    factory = functools.partial(_make_engine, hash_mb, option_pairs, tablebase)
    jobs = (_job(position, limit, multipv) for position in positions)
    return _results(factory, jobs, workers=workers, ray=ray, progress=progress, total=total)


def _results(
    factory: Callable[[], Engine],
    jobs: Iterator[_Job],
    *,
    workers: int | None,
    ray: str | None,
    progress: Callable[[int, int | None], object] | None,
    total: int | None,
) -> Generator[Analysis, None, None]:
    # The workers start with the first result asked for, and end with the loop.
    with open_pool(factory, _search, workers=workers, ray=ray, stop=_stop) as pool:
        for done, result in enumerate(pool.imap(jobs), 1):
            if progress is not None:
                progress(done, total)
            yield result
