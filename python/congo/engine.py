"""Search: the built-in engine, its limits and its results.

>>> import congo
>>> engine = congo.Engine(hash_mb=16)
>>> board = congo.Board("7/4l2/7/4c2/7/2p4/1M1L3 w 1")
>>> result = engine.search(board, congo.Limit(depth=3))
>>> result.move, result.score
(Move.from_uci('b1d3f5d7'), Score(cp=None, mate=1))

The search runs in Rust with the GIL released: other Python threads keep running, and several
engines can search at once from different threads. :meth:`Engine.stop` ends a running search from
any thread. With one thread and a depth or node limit, a fresh (or :meth:`Engine.clear`-ed) engine
gives the same result every time.
"""

from __future__ import annotations

import dataclasses
import queue
import threading
from collections.abc import Iterator, Mapping
from typing import Callable

from congo import _core
from congo._core import MAX_DEPTH, MAX_HASH_MB, MAX_NODES, MAX_THREADS, MAX_TIME, Move
from congo.board import Board, PositionLike, to_position
from congo.outcome import Outcome

__all__ = [
    "MAX_DEPTH",
    "MAX_HASH_MB",
    "MAX_NODES",
    "MAX_THREADS",
    "MAX_TIME",
    "Engine",
    "EngineOption",
    "Limit",
    "Score",
    "SearchInfo",
    "SearchResult",
]

# MAX_DEPTH, MAX_NODES, MAX_TIME, MAX_THREADS and MAX_HASH_MB come from the core, which checks
# every range; this module checks nothing the core checks.


@dataclasses.dataclass(frozen=True)
class Limit:
    """When a search stops: after the iteration of ``depth`` plies, after ``nodes`` nodes, or after
    ``time`` seconds, whichever comes first. With no limit at all, the search runs until
    :meth:`Engine.stop` is called (or it reaches :data:`MAX_DEPTH`).

    Raises ``TypeError`` for a value of the wrong type (``depth`` and ``nodes`` are ints, ``time``
    an int or float) and ``ValueError`` for one out of range (``depth`` 1 … :data:`MAX_DEPTH`,
    ``nodes`` 1 … :data:`MAX_NODES`, ``time`` > 0, finite and at most :data:`MAX_TIME`), checked
    by the core.
    """

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None

    def __post_init__(self) -> None:
        _core.check_limits(self.depth, self.nodes, self.time)


@dataclasses.dataclass(frozen=True)
class Score:
    """A search score from the side to move's point of view.

    Either ``cp``, an evaluation in centipawns (a pawn is about 100), or ``mate``, a forced result:
    the side to move wins with its ``mate``-th move (capturing the enemy lion, or leaving the opponent
    without a legal move) when positive, and loses after the opponent's ``-mate``-th move when
    negative. ``mate == 0`` means the side to move has already lost.
    """

    cp: int | None = None
    mate: int | None = None

    def is_mate(self) -> bool:
        """Whether this is a forced result rather than an evaluation."""
        return self.mate is not None

    def score(self, *, mate_score: int = 100_000) -> int:
        """The score as one int, a forced win in ``n`` counting as ``mate_score - n`` (and a loss as
        its negation), so that scores of both kinds compare as they should."""
        if self.mate is None:
            return self.cp if self.cp is not None else 0
        if self.mate > 0:
            return mate_score - self.mate
        return -mate_score - self.mate

    def __str__(self) -> str:
        """``+35`` / ``-120`` (centipawns), ``#3`` (wins with its 3rd move), ``#-2`` (loses)."""
        if self.mate is not None:
            return f"#{self.mate}"
        return f"{self.cp if self.cp is not None else 0:+d}"


def _score(info: _core.SearchInfo) -> Score:
    return Score(cp=info.cp, mate=info.mate)


@dataclasses.dataclass(frozen=True)
class SearchInfo:
    """The state of a search after a completed iteration, as passed to a progress callback."""

    depth: int
    """The iteration's depth in plies."""
    seldepth: int
    """The deepest ply reached, captures and extensions included."""
    score: Score
    pv: list[Move]
    """The principal variation: the best line found, best move first."""
    nodes: int
    """Nodes searched so far, all threads together."""
    time: float
    """Seconds since the search started."""
    nps: int
    """Nodes per second."""
    hashfull: int
    """Transposition table use by this search, per mille."""

    @property
    def move(self) -> Move | None:
        """The best move so far (the first move of the principal variation)."""
        return self.pv[0] if self.pv else None


@dataclasses.dataclass(frozen=True)
class SearchResult:
    """What a search found.

    ``move`` is ``None`` only when the game is already over; ``outcome`` then says how it ended
    (and ``score`` is ``Score(mate=0)`` for a lost game, ``Score(cp=0)`` for a draw).
    """

    move: Move | None
    score: Score
    pv: list[Move]
    """The principal variation, starting with ``move``."""
    depth: int
    """The deepest completed iteration, in plies (0 when the game is over)."""
    nodes: int
    time: float
    """Seconds the search took."""
    nps: int
    seldepth: int = 0
    outcome: Outcome | None = None
    """Why there is no move: the finished game's outcome. ``None`` whenever there is a move."""


@dataclasses.dataclass(frozen=True)
class EngineOption:
    """A tunable switch or weight of the engine (see ``docs/engine.md``)."""

    name: str
    default: int
    min: int
    max: int
    help: str


def _history(board: PositionLike) -> _core.History | None:
    """The moves that led to a board's position, for repetitions (none for a Position or a FEN).
    The core takes what it needs: the positions since the last irreversible move."""
    return board._history if isinstance(board, Board) else None


def _info(info: _core.SearchInfo) -> SearchInfo:
    return SearchInfo(
        depth=info.depth,
        seldepth=info.seldepth,
        score=_score(info),
        pv=list(info.pv),
        nodes=info.nodes,
        time=info.time,
        nps=info.nps,
        hashfull=info.hashfull,
    )


class Engine:
    """The built-in search engine (alpha-beta with a shared transposition table; see
    ``docs/engine.md``).

    ``threads`` search threads (Lazy SMP) share a ``hash_mb`` MiB transposition table. ``options``
    sets switches and weights by name (:meth:`option_info` lists them), e.g. ``{"null_move": 0}``.
    The table is kept between searches, as in a game; :meth:`clear` empties it.

    Raises ``ValueError`` for a thread count outside 1 … :data:`MAX_THREADS`, a table size outside
    1 … :data:`MAX_HASH_MB` MiB, or an unknown option or value; ``TypeError`` for arguments of the
    wrong type; ``MemoryError`` when the table cannot be allocated.
    """

    def __init__(
        self, *, threads: int = 1, hash_mb: int = 64, options: Mapping[str, int] | None = None
    ) -> None:
        if options is not None and not isinstance(options, Mapping):
            raise TypeError(
                f"options must be a mapping of option names to ints, got {type(options).__name__}"
            )
        # A switch may be given as a bool; everything else is checked by the core.
        pairs = [
            (name, int(value) if isinstance(value, bool) else value)
            for name, value in (options or {}).items()
        ]
        self._engine = _core.Engine(threads, hash_mb, pairs)
        self._options = dict(pairs)

    @property
    def threads(self) -> int:
        """The number of search threads."""
        return self._engine.threads

    @property
    def hash_mb(self) -> int:
        """The transposition table size in MiB."""
        return self._engine.hash_mb

    def search(
        self,
        board: PositionLike,
        limit: Limit | None = None,
        *,
        callback: Callable[[SearchInfo], object] | None = None,
    ) -> SearchResult:
        """Searches a position (a :class:`~congo.Board`, whose move stack lets the search see
        repetitions, a :class:`~congo.Position` or a FEN) within ``limit``; with no limit (as for
        :meth:`analysis`), until :meth:`stop` is called or Ctrl-C is pressed.

        ``callback``, if given, is called with a :class:`SearchInfo` after each completed iteration
        (on this thread); if it raises, the search stops and the exception propagates. Ctrl-C stops
        the search within a few milliseconds and raises ``KeyboardInterrupt``; the engine stays
        usable.

        A finished game gives a result with ``move=None`` and its ``outcome``. Raises ``TypeError``
        for arguments of the wrong type, :class:`~congo.InvalidFenError` for a bad FEN, and
        ``RuntimeError`` if this engine is already searching (use one engine per thread).
        """
        limit = Limit() if limit is None else limit
        if not isinstance(limit, Limit):
            raise TypeError(f"limit must be a congo.Limit or None, got {type(limit).__name__}")
        if callback is not None and not callable(callback):
            raise TypeError(f"callback must be callable, got {type(callback).__name__}")
        position = to_position(board)
        on_iteration = None if callback is None else (lambda info: callback(_info(info)))
        found = self._engine.search(
            position, _history(board), limit.depth, limit.nodes, limit.time, on_iteration
        )
        return SearchResult(
            move=found.move,
            score=_score(found),
            pv=list(found.pv),
            depth=found.depth,
            nodes=found.nodes,
            time=found.time,
            nps=found.nps,
            seldepth=found.seldepth,
            outcome=found.outcome,
        )

    def analysis(self, board: PositionLike, limit: Limit | None = None) -> Iterator[SearchInfo]:
        """Searches in a background thread and yields a :class:`SearchInfo` per completed iteration.

        With no ``limit`` the search goes on until the loop ends: leaving the loop early (``break``,
        an exception, or closing the generator) stops the search. Raises like :meth:`search`.
        """
        limit = Limit() if limit is None else limit
        if not isinstance(limit, Limit):
            raise TypeError(f"limit must be a congo.Limit or None, got {type(limit).__name__}")
        done = object()
        infos: queue.SimpleQueue[object] = queue.SimpleQueue()
        failure: list[BaseException] = []

        def run() -> None:
            try:
                self.search(board, limit, callback=infos.put)
            except BaseException as error:  # handed to the consumer, re-raised there
                failure.append(error)
            finally:
                infos.put(done)

        worker = threading.Thread(target=run, name="congo-analysis", daemon=True)
        worker.start()
        try:
            while True:
                item = infos.get()
                if item is done:
                    break
                assert isinstance(item, SearchInfo)
                yield item
        finally:
            self.stop()
            worker.join()
        if failure:
            raise failure[0]

    def stop(self) -> None:
        """Ends the running search (callable from any thread); the search returns the best move found
        so far within a millisecond or so. Does nothing when no search is running."""
        self._engine.stop()

    def clear(self) -> None:
        """Forgets the transposition table and move-ordering statistics, as for a new game.
        Raises ``RuntimeError`` while a search is running."""
        self._engine.clear()

    def evaluate(self, board: PositionLike) -> int:
        """The static evaluation (no search) in centipawns for the side to move."""
        return self._engine.evaluate(to_position(board))

    def option(self, name: str) -> int:
        """The value of an option. Raises ``ValueError`` for an unknown name."""
        return self._engine.get_option(name)

    @staticmethod
    def option_info() -> list[EngineOption]:
        """Every option with its default, range and meaning."""
        return [EngineOption(*info) for info in _core.Engine.option_info()]

    def __repr__(self) -> str:
        options = "".join(f", {name}={value}" for name, value in self._options.items())
        return f"<Engine threads={self.threads} hash_mb={self.hash_mb}{options}>"
