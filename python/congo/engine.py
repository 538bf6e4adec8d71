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

python-chess's engine vocabulary works too: :meth:`Engine.analyse` returns an :data:`InfoDict` (or a
list of them with ``multipv=N``) whose ``score`` is a :class:`PovScore`, :meth:`Engine.play` a
:class:`PlayResult`, and :class:`Limit` takes game clocks. :class:`SimpleEngine` drives any engine
that speaks the protocol of ``docs/protocol.md`` (``congo uci`` or another program) the same way.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import os
import random
import threading
import warnings
from collections.abc import Iterable, Mapping
from typing import Any, Callable, TypeVar, cast, overload

import congo.book
from congo import _core
from congo._core import (
    DEFAULT_HASH_MB,
    MAX_DEPTH,
    MAX_HASH_MB,
    MAX_MATE,
    MAX_MULTIPV,
    MAX_NODES,
    MAX_THREADS,
    MAX_TIME,
    IllegalMoveError,
    Move,
    Position,
)
from congo._results import Cp, InfoDict, Mate, MateGiven, PlayResult, PovScore, Score, Wdl
from congo._uci_client import (
    AnalysisComplete,
    AnalysisResult,
    AsyncAnalysisResult,
    BestMove,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    Option,
    SimpleEngine,
    UciProtocol,
    popen_uci,
)
from congo.board import Board, PositionLike, to_position
from congo.tablebase import Tablebase

__all__ = [
    "DEFAULT_HASH_MB",
    "MAX_DEPTH",
    "MAX_HASH_MB",
    "MAX_MATE",
    "MAX_MULTIPV",
    "MAX_NODES",
    "MAX_THREADS",
    "MAX_TIME",
    "AnalysisComplete",
    "AnalysisResult",
    "AsyncAnalysisResult",
    "AsyncEngine",
    "BestMove",
    "Cp",
    "Engine",
    "EngineError",
    "EngineOption",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "InfoDict",
    "Limit",
    "Mate",
    "MateGiven",
    "Option",
    "PlayResult",
    "PovScore",
    "Score",
    "SearchInfo",
    "SearchResult",
    "SimpleEngine",
    "UciProtocol",
    "Wdl",
    "popen_uci",
]

# The MAX_* limits come from the core, which checks every range; this module checks nothing the
# core checks.


@dataclasses.dataclass(frozen=True)
class Limit:
    """When a search stops, with python-chess's names: after the iteration of ``depth`` plies, after
    ``nodes`` nodes, after ``time`` seconds, once a win in at most ``mate`` moves is found, or when the
    time manager has spent its share of a game clock, whichever comes first. With no limit at all, the
    search runs until :meth:`Engine.stop` is called (or it reaches :data:`MAX_DEPTH`).

    The game clock: ``white_clock`` / ``black_clock`` are the seconds left (a negative value, a fallen
    flag, counts as 0), ``white_inc`` / ``black_inc`` the seconds added after each move, and
    ``remaining_moves`` the moves until the next time control (``None``: sudden death). Only the side
    to move's clock matters to a search; the engine spends a share of it (see ``docs/engine.md``,
    *Time management*) and never more than the time left minus its move overhead. ``mate`` alone
    searches at most ``2 * mate + 10`` plies deep.

    Raises ``TypeError`` for a value of the wrong type (``depth``, ``nodes``, ``mate`` and
    ``remaining_moves`` are ints, times ints or floats) and ``ValueError`` for one out of range
    (``depth`` 1 … :data:`MAX_DEPTH`, ``nodes`` 1 … :data:`MAX_NODES`, ``time`` > 0, finite and at
    most :data:`MAX_TIME`, ``mate`` 1 … :data:`MAX_MATE`, increments ≥ 0, ``remaining_moves`` ≥ 1)
    or an increment without its clock, all checked by the core.
    """

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    mate: int | None = None
    white_clock: float | None = None
    black_clock: float | None = None
    white_inc: float | None = None
    black_inc: float | None = None
    remaining_moves: int | None = None

    def __post_init__(self) -> None:
        # The core reads a Limit by its fields, here and when it searches (each side's clock as a
        # search on it would take it; moves to go need a clock).
        _core.check_limit(self)


SearchInfo = _core.SearchInfo
"""The low-level report of :meth:`Engine.search`'s ``callback`` (:meth:`Engine.analysis` and the
python-chess calls give :data:`InfoDict` instead): the state of a search after a completed iteration
(one per line with ``multipv``): ``depth``, ``seldepth``, ``score`` (a :class:`Score`), ``pv``,
``nodes``, ``time`` (seconds since the search started), ``nps``, ``hashfull`` (per mille),
``multipv`` (the line's rank, from 1), ``bound`` (``"exact"``; ``"lower"`` or ``"upper"`` when the
score fell outside the aspiration window of an iteration still running) and ``move`` (the first move
of ``pv``). A frozen record made by the core, compared by value."""

SearchResult = _core.SearchResult
"""What the low-level :meth:`Engine.search` found (:meth:`Engine.analyse` and :meth:`Engine.play` give
python-chess's :data:`InfoDict` and :class:`PlayResult` instead): ``move``, ``score``, ``pv``
(starting with ``move``), ``depth`` (the deepest completed iteration; 0 when the game is over),
``nodes``, ``time`` (seconds), ``nps``, ``seldepth``, ``outcome`` and ``ponder`` (the reply the
engine expects), and ``lines`` (every line found, best first, each a :class:`SearchInfo`).

``move`` is ``None`` only when the game is already over; ``outcome`` then says how it ended (and
``score`` is ``Score(mate=0)`` for a lost game, ``Score(cp=0)`` for a draw). A frozen record made by
the core, compared by value."""


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


def _root_moves(position: Position, root_moves: Iterable[Move] | None) -> list[Move] | None:
    """The root moves to search, checked: legal here, at least one."""
    if root_moves is None:
        return None
    moves = list(root_moves)
    for move in moves:
        if not isinstance(move, Move):
            raise TypeError(f"root_moves must hold congo.Move values, got {type(move).__name__}")
        if not position.is_legal(move):
            raise IllegalMoveError(f"root move {move.uci()} is not legal in {position.fen()}")
    if not moves:
        raise ValueError("root_moves is empty: give at least one move, or None for all")
    return moves


def _result_infos(found: SearchResult, turn: bool) -> list[InfoDict]:
    """One :data:`InfoDict` per line of a finished search, best first."""
    common: InfoDict = {
        "depth": found.depth,
        "seldepth": found.seldepth,
        "nodes": found.nodes,
        "nps": found.nps,
        "time": found.time,
    }
    if not found.lines:  # a finished game: its score, no line
        return [{**common, "score": PovScore(found.score, turn), "pv": [], "multipv": 1}]
    return [
        {**common, "score": PovScore(line.score, turn), "pv": line.pv, "multipv": line.multipv}
        for line in found.lines
    ]


def _search_info(info: SearchInfo, turn: bool) -> InfoDict:
    """A :class:`SearchInfo` as the :data:`InfoDict` that ``congo uci`` prints for it (its ``info``
    line, parsed by :class:`SimpleEngine`): the same keys, so that an analysis reads the same from
    either engine."""
    found: InfoDict = {
        "depth": info.depth,
        "seldepth": info.seldepth,
        "multipv": info.multipv,
        "score": PovScore(info.score, turn),
        "nodes": info.nodes,
        "nps": info.nps,
        "hashfull": info.hashfull,
        "time": info.time,
        "pv": info.pv,
    }
    if info.bound == "lower":
        found["lowerbound"] = True
    elif info.bound == "upper":
        found["upperbound"] = True
    return found


_T = TypeVar("_T")


class Engine:
    """The built-in search engine (alpha-beta with a shared transposition table; see
    ``docs/engine.md``).

    ``threads`` search threads (Lazy SMP) share a ``hash_mb`` MiB transposition table. ``options``
    sets switches and weights by name (:meth:`option_info` lists them), e.g. ``{"null_move": 0}``;
    the hand-written evaluation's weights (``pst``, ``tempo``, …) act only with ``{"nnue": 0}``, and
    setting them while the default learned evaluation is on warns (``UserWarning``).
    The table is kept between searches, as in a game; :meth:`clear` empties it.

    ``tablebase_path``: a directory of endgame tables (see :mod:`congo.tablebase`); every position
    they cover then scores exactly (a win or loss with its distance, or a draw) and a root they
    cover is answered at once with the distance-best move. :meth:`set_tablebase` changes it later.

    ``options={"EvalFile": path}``: the learned evaluation's network read from a file instead of
    the compiled-in one (:meth:`set_eval_file`); a damaged or foreign file raises ``ValueError``.
    ``options={"OwnBook": True, "BookFile": path}``: :meth:`play` answers with a weighted choice
    of the opening book (:mod:`congo.book`) while the position is in it, without a search.

    Raises ``ValueError`` for a thread count outside 1 … :data:`MAX_THREADS`, a table size outside
    1 … :data:`MAX_HASH_MB` MiB, or an unknown option or value; ``TypeError`` for arguments of the
    wrong type; ``MemoryError`` when the table cannot be allocated; ``OSError`` or
    :class:`~congo.tablebase.TablebaseError` for a tablebase directory that cannot be opened.
    """

    def __init__(
        self,
        *,
        threads: int = 1,
        hash_mb: int = DEFAULT_HASH_MB,
        options: Mapping[str, int | str | os.PathLike[str]] | None = None,
        tablebase_path: str | os.PathLike[str] | None = None,
    ) -> None:
        if options is not None and not isinstance(options, Mapping):
            raise TypeError(
                f"options must be a mapping of option names to ints, got {type(options).__name__}"
            )
        # EvalFile is a path, not a number: it is read after the engine exists.
        eval_file = None
        pairs: list[tuple[str, int]] = []
        book: dict[str, object] = {}
        for name, value in (options or {}).items():
            if isinstance(name, str) and name.lower() == "evalfile":
                eval_file = cast("str | os.PathLike[str]", value)  # set_eval_file checks it
            elif isinstance(name, str) and name.lower() in ("ownbook", "bookfile"):
                book[name.lower()] = value
            else:  # A switch may be given as a bool; everything else is checked by the core.
                pairs.append((name, int(value) if isinstance(value, bool) else cast(int, value)))
        self._engine = _core.Engine(threads, hash_mb, pairs)
        self._options: dict[str, object] = dict(pairs)
        if eval_file is not None:
            self.set_eval_file(eval_file)
        inert = self._engine.inert_options_warning()
        if inert is not None:
            warnings.warn(f"engine options: {inert}", UserWarning, stacklevel=2)
        self._tablebase: Tablebase | None = None
        if tablebase_path is not None:
            self.set_tablebase(tablebase_path)
        self._ponder: threading.Thread | None = None
        self._analysis: tuple[AnalysisResult, threading.Thread] | None = None
        # OwnBook and BookFile, as in `congo uci`: play() answers from the book while it can.
        self._own_book = bool(book.get("ownbook", False))
        self._book = congo.book.open_reader(cast(str, book["bookfile"])) if book.get("bookfile") else None
        self._book_random = random.Random()

    @property
    def threads(self) -> int:
        """The number of search threads."""
        return self._engine.threads

    @property
    def hash_mb(self) -> int:
        """The transposition table size in MiB."""
        return self._engine.hash_mb

    @property
    def tablebase(self) -> Tablebase | None:
        """The endgame tables the search uses, if any."""
        return self._tablebase

    def set_tablebase(self, tablebase: Tablebase | str | os.PathLike[str] | None) -> None:
        """Uses endgame tables in the searches from now on: a :class:`~congo.tablebase.Tablebase`
        or a directory to open (``None``: none). Raises like :class:`~congo.tablebase.Tablebase`,
        and ``RuntimeError`` while a search runs."""
        if tablebase is not None and not isinstance(tablebase, Tablebase):
            tablebase = Tablebase(tablebase)
        self._engine.set_tablebase(None if tablebase is None else tablebase._tb)
        self._tablebase = tablebase

    def set_eval_file(self, path: str | os.PathLike[str] | None) -> None:
        """Evaluates with the network of a file (``docs/engine.md``, "Network files") from now on;
        ``None``, ``""`` or ``"<empty>"``: the compiled-in network. The file is verified first
        (header, architecture, size, checksum, value ranges): ``ValueError`` names the file and
        what is wrong with it, and the engine keeps the network it had. The transposition table is
        cleared."""
        if path is not None and not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"EvalFile must be a path, got {type(path).__name__}")
        text = None if path is None else os.fspath(path)
        if text is not None and text.strip() in ("", "<empty>"):
            text = None
        self._engine.set_eval_file(text)
        self._options.pop("EvalFile", None)
        if text is not None:
            self._options["EvalFile"] = text

    def _search(
        self,
        board: PositionLike,
        limit: Limit | None,
        *,
        callback: Callable[[SearchInfo], object] | None = None,
        root_moves: Iterable[Move] | None = None,
        multipv: int = 1,
        claim: int | None = None,
        stopped: threading.Event | None = None,
    ) -> tuple[SearchResult, bool]:
        """The core's search, after the checks every search method shares, and the side to move.

        The search claims the engine before anything else (or was given the ``claim`` its caller
        took): from then on :meth:`stop` ends it, even before the core has begun to search. A
        ``stopped`` event already set once the claim is taken (a stop asked for from another thread
        before it) stops it at once."""
        limit = Limit() if limit is None else limit
        if not isinstance(limit, Limit):
            raise TypeError(f"limit must be a congo.Limit or None, got {type(limit).__name__}")
        if callback is not None and not callable(callback):
            raise TypeError(f"callback must be callable, got {type(callback).__name__}")
        if claim is None:
            claim = self._claim()
        if stopped is not None and stopped.is_set():
            self._engine.stop()
        try:
            position = to_position(board)
            roots = _root_moves(position, root_moves)
            found = self._engine.search(
                position, _history(board), limit, callback, multipv=multipv, root_moves=roots, claim=claim
            )
        finally:
            # Given back by the search when it ran; here when something before it failed.
            self._engine.release(claim)
        return found, position.turn

    def search(
        self,
        board: PositionLike,
        limit: Limit | None = None,
        *,
        callback: Callable[[SearchInfo], object] | None = None,
        root_moves: Iterable[Move] | None = None,
    ) -> SearchResult:
        """Searches a position (a :class:`~congo.Board`, whose move stack lets the search see
        repetitions, a :class:`~congo.Position` or a FEN) within ``limit``; with no limit (as for
        :meth:`analysis`), until :meth:`stop` is called or Ctrl-C is pressed.

        ``callback``, if given, is called with a :class:`SearchInfo` after each completed iteration
        (on this thread); if it raises, the search stops and the exception propagates.
        ``root_moves`` restricts the search to these moves (python-chess's name). Ctrl-C stops the
        search within a few milliseconds and raises ``KeyboardInterrupt``; the engine stays usable.

        A finished game gives a result with ``move=None`` and its ``outcome``. Raises ``TypeError``
        for arguments of the wrong type, :class:`~congo.InvalidFenError` for a bad FEN,
        :class:`~congo.IllegalMoveError` for a root move that is not legal, and ``RuntimeError`` if
        this engine is already searching (use one engine per thread; a search that was stopped is
        waited for, see :meth:`stop`).
        """
        found, _ = self._search(board, limit, callback=callback, root_moves=root_moves)
        return found

    @overload
    def analyse(
        self,
        board: PositionLike,
        limit: Limit,
        *,
        multipv: None = None,
        root_moves: Iterable[Move] | None = None,
    ) -> InfoDict: ...

    @overload
    def analyse(
        self, board: PositionLike, limit: Limit, *, multipv: int, root_moves: Iterable[Move] | None = None
    ) -> list[InfoDict]: ...

    def analyse(
        self,
        board: PositionLike,
        limit: Limit,
        *,
        multipv: int | None = None,
        root_moves: Iterable[Move] | None = None,
    ) -> InfoDict | list[InfoDict]:
        """Searches like python-chess's ``engine.analyse``: the :data:`InfoDict` of the best line
        (``score`` is a :class:`PovScore`, ``pv`` the line), or with ``multipv=N`` a list of the
        ``N`` best lines, best first, each with its own exact score (fewer when there are fewer
        legal moves). A finished game gives one info with its score (``Mate(0)`` lost, ``Cp(0)``
        drawn) and an empty ``pv``. Raises like :meth:`search`."""
        return cast(
            "InfoDict | list[InfoDict]", self._analyse(board, limit, multipv=multipv, root_moves=root_moves)
        )

    def _analyse(
        self,
        board: PositionLike,
        limit: Limit,
        *,
        multipv: int | None,
        root_moves: Iterable[Move] | None,
        stopped: threading.Event | None = None,
    ) -> Any:
        found, turn = self._search(
            board, limit, root_moves=root_moves, multipv=1 if multipv is None else multipv, stopped=stopped
        )
        infos = _result_infos(found, turn)
        return infos[0] if multipv is None else infos

    def play(
        self,
        board: PositionLike,
        limit: Limit,
        *,
        ponder: bool = False,
        root_moves: Iterable[Move] | None = None,
    ) -> PlayResult:
        """Chooses a move like python-chess's ``engine.play``: a :class:`PlayResult` with ``move``,
        the expected reply ``ponder`` and the best line's ``info``. With ``ponder=True`` the engine
        goes on thinking in the background about the position after ``move`` and ``ponder`` (its
        table keeps what it finds) until the next call on this engine, or :meth:`stop` /
        :meth:`close`. Raises like :meth:`search`."""
        return self._play(board, limit, ponder=ponder, root_moves=root_moves)

    def _play(
        self,
        board: PositionLike,
        limit: Limit,
        *,
        ponder: bool,
        root_moves: Iterable[Move] | None,
        stopped: threading.Event | None = None,
    ) -> PlayResult:
        if self._own_book and self._book is not None and root_moves is None:
            entry = self._book.get(to_position(board))
            if entry is not None:
                entry = self._book.weighted_choice(to_position(board), random=self._book_random)
                return PlayResult(entry.move, None, InfoDict())
        found, turn = self._search(board, limit, root_moves=root_moves, stopped=stopped)
        info = _result_infos(found, turn)[0]
        stopped_early = stopped is not None and stopped.is_set()
        if ponder and found.move is not None and found.ponder is not None and not stopped_early:
            position = to_position(board)
            self._start_pondering(position.push(found.move).push(found.ponder))
        return PlayResult(found.move, found.ponder, info)

    def _start_pondering(self, position: Position) -> None:
        if position.outcome() is not None:
            return
        # Claimed here, searched there: a stop sent before the thread starts is not lost.
        claim = self._engine.claim(ponder=True)

        def ponder() -> None:
            # Nothing to report an error to: pondering is best effort.
            try:
                with contextlib.suppress(Exception):
                    self._engine.search(position, None, ponder=True, claim=claim)
            finally:
                self._engine.release(claim)

        thread = threading.Thread(target=ponder, name="congo-ponder", daemon=True)
        try:
            thread.start()
        except BaseException:
            self._engine.release(claim)
            raise
        self._ponder = thread

    def _stop_pondering(self) -> None:
        thread, self._ponder = self._ponder, None
        if thread is not None:
            self._engine.stop()
            thread.join()

    def _end_analysis(self) -> None:
        """Stops a running :meth:`analysis` and waits for its end: the next call takes the engine."""
        running, self._analysis = self._analysis, None
        if running is not None:
            result, thread = running
            result.stop()
            thread.join()

    def _claim(self) -> int:
        """Takes the engine for a search: a running analysis or ponder search is ended first."""
        self._end_analysis()
        self._stop_pondering()
        return self._engine.claim()

    def close(self) -> None:
        """Stops pondering or a running :meth:`analysis`, if the engine is (the engine stays
        usable). Also :meth:`quit`, and the end of a ``with`` block, as with python-chess's
        engines."""
        self._end_analysis()
        self._stop_pondering()

    quit = close

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @property
    def move_overhead(self) -> float:
        """Seconds set aside per move on a game clock for what happens outside the search (the time
        manager never plans to use them); default 0.03. Raises ``ValueError`` outside 0 … 60."""
        return self._engine.move_overhead

    @move_overhead.setter
    def move_overhead(self, seconds: float) -> None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise TypeError(f"move_overhead must be a number of seconds, got {type(seconds).__name__}")
        self._stop_pondering()
        self._engine.move_overhead = float(seconds)

    def analysis(
        self,
        board: PositionLike,
        limit: Limit | None = None,
        *,
        multipv: int | None = None,
        root_moves: Iterable[Move] | None = None,
    ) -> AnalysisResult:
        """Starts an analysis in a background thread and returns at once (python-chess's
        ``analysis``): the same :class:`AnalysisResult` as :meth:`SimpleEngine.analysis`, with the
        same info dicts (``score`` a :class:`PovScore`; the keys of ``congo uci``'s ``info``
        lines), one per line and completed iteration. Iterate over it for the infos as they come;
        :attr:`~AnalysisResult.info` and :attr:`~AnalysisResult.multipv` are the latest of the best
        line and of every line, :meth:`~AnalysisResult.stop` ends the search,
        :meth:`~AnalysisResult.wait` returns the :class:`BestMove`. As a context manager it stops
        and waits at the end of the block.

        With no ``limit`` the search goes on until stopped: by :meth:`~AnalysisResult.stop`, the end
        of the ``with`` block, a Ctrl-C while waiting for an info, :meth:`stop` or the next call on
        this engine (which ends the analysis first). Raises like :meth:`search` for a bad board or
        limit; an error of the search itself comes out of the iteration and ``wait()``."""
        limit = Limit() if limit is None else limit
        if not isinstance(limit, Limit):
            raise TypeError(f"limit must be a congo.Limit or None, got {type(limit).__name__}")
        multipv = 1 if multipv is None else multipv  # SimpleEngine's default, for the same code
        _core.check_multipv(multipv)
        position = to_position(board)
        _root_moves(position, root_moves)  # checked here: a bad root move fails the call
        # Claimed here, searched there: a stop from now on reaches the search.
        claim = self._claim()
        result = AnalysisResult(self._engine.stop)

        def run() -> None:
            try:
                result._best = self._analysis_on(board, limit, multipv, root_moves, claim, result._post)
            except BaseException as error:  # handed to the consumer, re-raised there
                result._error = error
            finally:
                result._finish()

        worker = threading.Thread(target=run, name="congo-analysis", daemon=True)
        try:
            worker.start()
        except BaseException:
            self._engine.release(claim)
            raise
        self._analysis = (result, worker)
        return result

    def _analysis_on(
        self,
        board: PositionLike,
        limit: Limit,
        multipv: int,
        root_moves: Iterable[Move] | None,
        claim: int,
        post: Callable[[InfoDict], object],
    ) -> BestMove:
        """The search of an analysis (on its thread, the engine claimed): every iteration's lines
        handed to ``post`` as info dicts, then the best move."""
        turn = to_position(board).turn
        last_best: list[Move | None] = [None]
        last: list[InfoDict] = [{}]

        def report(info: SearchInfo) -> None:
            if info.multipv == 1 and info.bound == "exact":
                last_best[0] = info.move
            last[0] = converted = _search_info(info, turn)
            post(converted)

        found, _ = self._search(
            board, limit, callback=report, root_moves=root_moves, multipv=multipv, claim=claim
        )
        if (found.move is not None and found.move != last_best[0]) or not found.lines:
            # An iteration cut short found a better move than the last one reported (or the game
            # is over): its lines, as congo uci reports them.
            for info in _result_infos(found, turn):
                if "hashfull" in last[0]:
                    info["hashfull"] = last[0]["hashfull"]
                post(info)
        return BestMove(found.move, found.ponder)

    def asyncio(self) -> AsyncEngine:
        """This engine with an awaitable surface (:class:`AsyncEngine`): ``await play(...)``,
        ``await analyse(...)``, ``await analysis(...)``, searching on a thread of its own without
        blocking the event loop; cancelling a task that awaits a search stops it."""
        return AsyncEngine(self)

    def stop(self) -> None:
        """Ends the search of this engine (callable from any thread): the one running, or the one
        starting — a search starts when :meth:`search` (or :meth:`analyse`, :meth:`play`,
        :meth:`analysis`) is called, and a stop from then on is never lost. The search returns the
        best move found so far within a millisecond or so. Does nothing when no search is running
        or starting: a stop sent before the call that starts a search does not reach it.

        A search asked for while a stopped one is still ending waits for it (milliseconds) instead
        of raising ``RuntimeError``: ``stop()`` then a new search, from any threads, just works."""
        self._engine.stop()

    def clear(self) -> None:
        """Forgets the transposition table and move-ordering statistics, as for a new game.
        Raises ``RuntimeError`` while a search is running."""
        self._end_analysis()
        self._stop_pondering()
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


class AsyncEngine:
    """The built-in engine with the awaitable surface of :func:`popen_uci`'s engine: ``await
    engine.play(...)``, ``await engine.analyse(...)``, ``async with await engine.analysis(...) as
    analysis: async for info in analysis``, ``await engine.configure(...)``, ``await
    engine.quit()``. Made by :meth:`Engine.asyncio` (or ``AsyncEngine(engine)``).

    Each search runs on a thread of this wrapper's own, in Rust with the GIL released: awaiting it
    never blocks the event loop, and many engines search at once from one loop. Calls are
    serialised; a running analysis is stopped by the next call. Cancelling a task that awaits a
    search (``task.cancel()``, ``asyncio.wait_for``) calls :meth:`Engine.stop`: the search ends
    within a millisecond or so and the engine takes the next call. The info dicts, results and
    errors are those of the blocking methods (and of :class:`UciProtocol`)."""

    def __init__(self, engine: Engine) -> None:
        if not isinstance(engine, Engine):
            raise TypeError(f"engine must be a congo.Engine, got {type(engine).__name__}")
        self.engine = engine
        """The blocking engine this one drives (usable directly between awaited calls)."""
        # One worker: one search at a time, in the order asked, each waited for by the next.
        self._executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="congo-async-engine")
        self._analysis: AsyncAnalysisResult | None = None
        self._closed = False

    async def _run(self, work: Callable[[threading.Event], _T]) -> _T:
        """Runs ``work(stopped)`` on the engine's thread, awaited without blocking the loop.
        Cancelled, the search is stopped: ``stopped`` is set first (a search not yet claimed stops
        as soon as it is), then :meth:`Engine.stop` (the one claimed)."""
        if self._analysis is not None:
            self._analysis.stop()
        stopped, started = threading.Event(), threading.Event()

        def job() -> _T:
            started.set()
            return work(stopped)

        future = self._submit(job)
        try:
            return await future
        except asyncio.CancelledError:
            stopped.set()
            # Only a search of this call is stopped, never one of an earlier call still running:
            # a job not started yet is dropped, or sees ``stopped`` once it has claimed the engine.
            if started.is_set():
                self.engine.stop()
            raise

    def _submit(self, work: Callable[..., _T], *args: object) -> asyncio.Future[_T]:
        if self._closed:
            raise EngineTerminatedError("the engine was closed (quit)")
        return asyncio.get_running_loop().run_in_executor(self._executor, work, *args)

    async def play(
        self,
        board: PositionLike,
        limit: Limit,
        *,
        ponder: bool = False,
        root_moves: Iterable[Move] | None = None,
        **_: object,
    ) -> PlayResult:
        """:meth:`Engine.play`, awaited (python-chess's other arguments, such as ``game``, are
        accepted and have no effect)."""
        return await self._run(
            lambda stopped: self.engine._play(
                board, limit, ponder=ponder, root_moves=root_moves, stopped=stopped
            )
        )

    async def analyse(
        self,
        board: PositionLike,
        limit: Limit,
        *,
        multipv: int | None = None,
        root_moves: Iterable[Move] | None = None,
        **_: object,
    ) -> Any:
        """:meth:`Engine.analyse`, awaited: an :data:`InfoDict`, or a list of them with
        ``multipv=N``."""
        return await self._run(
            lambda stopped: self.engine._analyse(
                board, limit, multipv=multipv, root_moves=root_moves, stopped=stopped
            )
        )

    async def search(
        self,
        board: PositionLike,
        limit: Limit | None = None,
        *,
        root_moves: Iterable[Move] | None = None,
    ) -> SearchResult:
        """:meth:`Engine.search` (the low-level call), awaited."""
        return await self._run(
            lambda stopped: self.engine._search(board, limit, root_moves=root_moves, stopped=stopped)[0]
        )

    async def analysis(
        self,
        board: PositionLike,
        limit: Limit | None = None,
        *,
        multipv: int | None = None,
        root_moves: Iterable[Move] | None = None,
        **_: object,
    ) -> AsyncAnalysisResult:
        """Starts an analysis (as :meth:`Engine.analysis`) and returns at once: the same
        :class:`AsyncAnalysisResult` as :meth:`UciProtocol.analysis`, with the same info dicts.
        Raises like :meth:`Engine.search` for a bad board or limit."""
        limit = Limit() if limit is None else limit
        if not isinstance(limit, Limit):
            raise TypeError(f"limit must be a congo.Limit or None, got {type(limit).__name__}")
        multipv = 1 if multipv is None else multipv  # SimpleEngine's default, for the same code
        _core.check_multipv(multipv)
        position = to_position(board)
        _root_moves(position, root_moves)
        loop = asyncio.get_running_loop()
        stopped, started = threading.Event(), threading.Event()
        engine = self.engine

        def stop() -> None:
            stopped.set()  # not yet claimed: stopped as soon as it is
            if started.is_set():  # never the search of an earlier call
                engine.stop()

        result = AsyncAnalysisResult(stop)
        if self._analysis is not None:
            self._analysis.stop()

        def post(info: InfoDict) -> None:
            loop.call_soon_threadsafe(result._post, info)

        def work() -> BestMove:
            started.set()
            claim = engine._claim()
            if stopped.is_set():  # a stop before the claim: the search stops at once
                engine.stop()
            return engine._analysis_on(board, limit, multipv, root_moves, claim, post)

        def done(future: asyncio.Future[BestMove]) -> None:
            if self._analysis is result:
                self._analysis = None
            if future.cancelled():
                result._finish(error=EngineTerminatedError("the analysis was cancelled"))
            elif future.exception() is not None:
                result._finish(error=future.exception())
            else:
                result._finish(future.result())

        future = self._submit(work)
        self._analysis = result
        future.add_done_callback(done)
        return result

    async def configure(self, options: Mapping[str, object]) -> None:
        """Sets what can change on a built-in engine once it is made, with ``congo uci``'s option
        names: ``EvalFile`` (a path, ``""`` for the built-in network), ``Move Overhead``
        (milliseconds), ``TablebasePath`` (a directory, ``""`` for none) and ``Clear Hash`` (a
        button: ``None``). Raises :class:`EngineError` for any other option (switches, weights,
        threads and the table size are set when the :class:`Engine` is made) or a bad value."""

        def work(_: threading.Event) -> None:
            for name, value in options.items():
                key = name.lower()
                try:
                    if key == "evalfile":
                        self.engine.set_eval_file(cast("str | None", value))
                    elif key == "move overhead":
                        self.engine.move_overhead = cast(float, value) / 1000
                    elif key == "tablebasepath":
                        self.engine.set_tablebase(cast("str | None", value) or None)
                    elif key == "clear hash":
                        self.engine.clear()
                    else:
                        raise EngineError(
                            f"option {name!r} cannot be changed on a built-in engine: make a new "
                            "congo.Engine(options=...) instead"
                        )
                except (TypeError, ValueError, OSError) as error:
                    raise EngineError(f"option {name!r} = {value!r}: {error}") from None

        await self._run(work)

    async def ping(self) -> None:
        """Returns once every earlier call has ended (the engine is then ready)."""
        await self._run(lambda _: None)

    def stop(self) -> None:
        """Ends a running search at once (:meth:`Engine.stop`)."""
        if self._analysis is not None:
            self._analysis.stop()
        self.engine.stop()

    async def quit(self) -> None:
        """Stops pondering or an analysis and ends the engine's thread. Idempotent; later calls
        raise :class:`EngineTerminatedError` (the :class:`Engine` itself stays usable)."""
        if self._closed:
            return
        try:
            await self._run(lambda _: self.engine.close())
        finally:
            self._closed = True
            self._executor.shutdown(wait=False)

    async def __aenter__(self) -> AsyncEngine:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.quit()

    def __repr__(self) -> str:
        return f"<AsyncEngine {self.engine!r}>"
