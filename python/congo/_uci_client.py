"""Driving an engine that speaks the protocol of ``docs/protocol.md`` (``congo uci``, or any
program in any language) from Python, the way python-chess drives UCI chess engines.

>>> from congo.engine import SimpleEngine, Limit
>>> engine = SimpleEngine.popen_uci(["congo", "uci"])          # doctest: +SKIP
>>> engine.play(congo.Board(), Limit(time=0.1)).move            # doctest: +SKIP
Move.from_uci('a1c3')
>>> engine.quit()                                               # doctest: +SKIP

This module is the session (``SimpleEngine``, ``AnalysisResult``); the protocol's text is
:mod:`congo._uci_protocol` and the process :mod:`congo._uci_process`. Everything public here is
re-exported from :mod:`congo.engine`. One thread per engine reads its output, so
no call ever blocks on a dead or silent engine past its timeout: a process that dies raises
:class:`EngineTerminatedError`, one that does not answer in time ``TimeoutError``, and one that answers
nonsense :class:`EngineError`.
"""

from __future__ import annotations

import contextlib
import enum
import logging
import queue
import subprocess
import threading
import time
import weakref
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Callable

from congo._core import Move
from congo._results import InfoDict, PlayResult
from congo._uci_process import Deadline, _close_connection, _Connection
from congo._uci_protocol import (
    AnalysisComplete,
    BestMove,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    Option,
    OptionValue,
    _error_text,
    _go_command,
    _is_error,
    _merge,
    _Options,
    _parse_info,
    _parse_line,
    _parse_move,
    _parse_option,
    _position_command,
)
from congo.board import Board

if TYPE_CHECKING:
    from congo.engine import Limit

__all__ = [
    "AnalysisComplete",
    "AnalysisResult",
    "BestMove",
    "EngineError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Option",
    "SimpleEngine",
]

LOGGER = logging.getLogger("congo.engine")

_STOP_GRACE = 2.0
"""Seconds an engine gets to answer ``stop`` with its ``bestmove`` before it is given up."""

_MAX_QUEUED_INFOS = 10_000
"""The most infos an analysis keeps for its iterator; older ones not taken give way."""

DEFAULT_SEARCH_TIMEOUT = 600.0
"""Seconds a search bounded only by depth, nodes or mate may take by default before
:class:`EngineTimeoutError` (``search_timeout`` of :meth:`SimpleEngine.popen_uci`)."""


class _Unset(enum.Enum):
    UNSET = 0


_UNSET = _Unset.UNSET


def _check_timeout(name: str, value: float | _Unset | None) -> float | None:
    """A timeout in seconds: ``None`` or a non-negative number. Raises ``TypeError``/``ValueError``."""
    if value is None or value is _UNSET:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number of seconds or None, got {type(value).__name__}")
    if not value >= 0:  # also NaN
        raise ValueError(f"{name} must be a non-negative number of seconds or None, got {value!r}")
    return float(value)


def _log_engine_string(text: str) -> None:
    """Logs an engine's ``info string``: a ``warning: …`` (an option without effect, say) at WARNING,
    so that it is seen by default, the rest at INFO."""
    if text.startswith("warning:"):
        LOGGER.warning("engine: %s", text)
    else:
        LOGGER.info("engine: %s", text)


class SimpleEngine:
    """A blocking client for an engine speaking the protocol of ``docs/protocol.md``, shaped like
    python-chess's ``chess.engine.SimpleEngine``. Create it with :meth:`popen_uci`; use it in a
    ``with`` block or call :meth:`quit`.

    Calls are serialised (one command at a time, from any thread). Every wait has an end:
    ``timeout`` (seconds) bounds every exchange that should be quick (the handshake, ``isready``,
    options, a command the engine must read) and is added to a search's own time (its ``time``
    limit, or the side to move's clock) as the most it may take; ``search_timeout`` bounds a search
    limited only by depth, nodes or mate. A call's own ``timeout=`` replaces both for that call.
    ``None`` waits without end (never on a dead engine). A wait that runs out raises
    :class:`EngineTimeoutError`.

    Any ``info string error…`` the engine prints in answer to a command of a call (an option it
    refused, a position it rejected, a ``go`` it could not start) makes the call raise
    :class:`EngineError` instead of returning; the client stays in step with the engine.
    """

    def __init__(
        self,
        connection: _Connection,
        *,
        timeout: float | None,
        search_timeout: float | None = DEFAULT_SEARCH_TIMEOUT,
    ) -> None:
        self._connection = connection
        self.timeout = _check_timeout("timeout", timeout)
        self.search_timeout = _check_timeout("search_timeout", search_timeout)
        self.id: dict[str, str] = {}
        """What the engine said about itself: ``name``, ``author``."""
        self.options: Mapping[str, Option] = _Options()
        """The options the engine announced, by name (any case)."""
        self.config: dict[str, OptionValue] = {}
        """The option values sent to the engine so far."""
        self._lock = threading.Lock()
        self._searching = False
        self._analysis: AnalysisResult | None = None
        self._game: object = None
        self._finalizer = weakref.finalize(self, _close_connection, connection)

    @classmethod
    def popen_uci(
        cls,
        command: str | list[str],
        *,
        timeout: float | None = 10.0,
        search_timeout: float | None = DEFAULT_SEARCH_TIMEOUT,
        cancel: threading.Event | None = None,
        **popen_args: Any,
    ) -> SimpleEngine:
        """Starts an engine and shakes hands (``uci`` … ``uciok``). ``command`` is the program's path
        or its argument list (``["congo", "uci"]``), as with python-chess; ``popen_args`` go to
        ``subprocess.Popen``. ``timeout`` and ``search_timeout``: see :class:`SimpleEngine`.

        ``cancel`` makes the start abortable from another thread: once the event is set, the
        handshake stops waiting within a tenth of a second, the process (and its process group) is
        killed and :class:`EngineTerminatedError` raised; set before the call, nothing is started.
        A match runner gives each outside player such an event, so that a Ctrl-C does not wait
        out the handshake of an engine that never answers. The event covers the start only: stop
        an engine already returned with :meth:`kill`.

        Raises ``OSError`` if the program cannot be started, :class:`EngineTimeoutError` (a
        ``TimeoutError``) if it does not complete the handshake within ``timeout`` seconds,
        :class:`EngineTerminatedError` if it exits or the start is cancelled, and ``ValueError``
        for a negative or NaN timeout."""
        _check_timeout("timeout", timeout)
        _check_timeout("search_timeout", search_timeout)
        if cancel is not None and cancel.is_set():
            raise EngineTerminatedError("the engine's start was cancelled before it began")
        args = [command] if isinstance(command, str) else list(command)
        connection = _Connection(args, popen_args)
        engine = cls(connection, timeout=timeout, search_timeout=search_timeout)
        try:
            engine._handshake(cancel)
        except BaseException:
            connection.kill()
            raise
        return engine

    def _deadline(self, extra: float | None = 0.0) -> float | None:
        if self.timeout is None or extra is None:
            return None
        return time.monotonic() + self.timeout + extra

    def _send(self, line: str) -> None:
        """Sends a command; the engine has ``timeout`` to read it."""
        self._connection.send(line, self._deadline())

    def _handshake(self, cancel: threading.Event | None) -> None:
        self._send("uci")
        deadline = self._deadline()

        def until() -> float | None:
            # Read looks at its deadline again at least every 0.1 s while it waits: the moment
            # to notice a cancelled start.
            if cancel is not None and cancel.is_set():
                raise EngineTerminatedError("the engine's start was cancelled during its handshake")
            return deadline

        options = _Options()
        while True:
            line = self._connection.read(until, "during the handshake (uci)")
            if line == "uciok":
                break
            if line.startswith("id "):
                _, key, *value = line.split(None, 2)
                self.id[key] = value[0] if value else ""
            elif line.startswith("option "):
                option = _parse_option(line)
                if option is None:
                    LOGGER.warning("ignoring a malformed option line: %r", line)
                else:
                    options.add(option)
        self.options = options

    # -- command discipline -------------------------------------------------------------------

    def _acquire(self) -> None:
        """Takes the engine for a command: ends a running analysis or pondering first."""
        analysis = self._analysis
        if analysis is not None:
            analysis.stop()
            analysis._finished.wait()
        self._lock.acquire()
        try:
            self._resync()
        except BaseException:
            self._lock.release()
            raise

    def _resync(self) -> None:
        """Ends a search whose ``bestmove`` was never read (pondering, or a call interrupted by a
        timeout or Ctrl-C): ``stop``, then everything up to that ``bestmove`` is discarded."""
        if not self._searching:
            return
        connection = self._connection
        deadline = time.monotonic() + _STOP_GRACE
        try:
            connection.send("stop", deadline)
            while not connection.read(deadline, "after stop").startswith("bestmove"):
                pass
        except TimeoutError:
            connection.kill()
            raise EngineTerminatedError("the engine did not answer stop in time and was killed") from None
        self._searching = False

    def _ready(self) -> list[str]:
        """``isready`` … ``readyok``: the errors the engine reported before its ``readyok`` (in
        answer to the commands sent since the last exchange). An engine that does not answer within
        ``timeout`` is killed (:class:`EngineTimeoutError`): a late ``readyok`` would put the client
        out of step with it."""
        self._send("isready")
        deadline = self._deadline()
        errors: list[str] = []
        while True:
            try:
                line = self._connection.read(deadline, "waiting for readyok")
            except EngineTimeoutError as error:
                self._connection.kill()
                raise EngineTimeoutError(f"{error}; it was killed") from None
            if line == "readyok":
                return errors
            if _is_error(line):
                errors.append(_error_text(line))
            elif line.startswith("info string"):
                _log_engine_string(line[len("info string") :].strip())

    def _set_option(self, name: str, value: OptionValue, *, managed_ok: bool = False) -> None:
        try:
            option = self.options[name]
        except KeyError:
            known = ", ".join(self.options)
            raise EngineError(f"the engine has no option {name!r}; it has {known}") from None
        if option.is_managed() and not managed_ok:
            raise EngineError(f"option {option.name!r} is set automatically (by analyse, analysis or play)")
        value = option.parse(value)
        if option.type != "button" and self.config.get(option.name) == value:
            return
        if option.type == "button":
            self._send(f"setoption name {option.name}")
        else:
            text = str(value).lower() if isinstance(value, bool) else str(value)
            self._send(f"setoption name {option.name} value {text}")
        # Only an option the engine took is recorded: the engine answers isready after it has
        # dealt with the setoption, so whatever error it had comes before readyok.
        errors = self._ready()
        if errors:
            shown = option.name if option.type == "button" else f"{option.name} = {value!r}"
            raise EngineError(f"the engine refused option {shown}: {'; '.join(errors)}")
        if option.type != "button":
            self.config[option.name] = value

    def _new_game(self, game: object) -> None:
        if game is not None and game != self._game:
            self._game = game
            self._send("ucinewgame")

    # -- public API ---------------------------------------------------------------------------

    def configure(self, options: Mapping[str, OptionValue]) -> None:
        """Sets options (python-chess's ``configure``); a button is pressed with the value ``None``.
        Raises :class:`EngineError` for an option the engine does not have, one the client manages
        itself (``MultiPV``, ``Ponder``), a value out of range, or a value the engine refused (it
        answered ``info string error…``: a ``Hash`` it cannot allocate, a ``TablebasePath`` it
        cannot open). The options before the failing one are set; the failing one and those after
        it are not, and :attr:`config` holds only what the engine took."""
        self._acquire()
        try:
            for name, value in options.items():
                self._set_option(name, value)
            self._ready()
        finally:
            self._lock.release()

    def ping(self) -> None:
        """``isready`` … ``readyok``: raises :class:`EngineTimeoutError` if the engine does not
        answer within ``timeout`` (it is killed: a late answer would put the client out of step)."""
        self._acquire()
        try:
            self._ready()
        finally:
            self._lock.release()

    def _start_search(
        self,
        board: Board,
        limit: Limit | None,
        *,
        multipv: int | None,
        root_moves: Iterable[Move] | None,
        game: object,
        options: Mapping[str, OptionValue],
        infinite: bool = False,
        ponder: bool = False,
    ) -> None:
        if not isinstance(board, Board):
            raise TypeError(f"board must be a congo.Board, got {type(board).__name__}")
        roots = None if root_moves is None else list(root_moves)
        self._new_game(game)
        for name, value in options.items():
            self._set_option(name, value)
        if "multipv" in (name.lower() for name in self.options):
            self._set_option("MultiPV", multipv or 1, managed_ok=True)
        elif multipv not in (None, 1):
            raise EngineError("the engine has no MultiPV option")
        self._send(_position_command(board))
        # The engine has dealt with the position when it answers isready: a position it rejected
        # (a line too long, a move it finds illegal) is an error of this call, not a search of
        # whatever position it had before.
        errors = self._ready()
        if errors:
            raise EngineError(f"the engine rejected the position: {'; '.join(errors)}")
        self._send(_go_command(limit, root_moves=roots, ponder=ponder, infinite=infinite))
        self._searching = True

    def _search_deadline(
        self, board: Board, limit: Limit | None, timeout: float | _Unset | None
    ) -> float | None:
        """When a search must have ended: ``timeout`` from now if the call gave one; otherwise its
        time plus :attr:`timeout`, or :attr:`search_timeout` for a search that only depth, nodes or
        mate bound; none for an analysis without a limit (it runs until stopped)."""
        if timeout is not _UNSET:
            seconds = _check_timeout("timeout", timeout)
            return None if seconds is None else time.monotonic() + seconds
        if limit is None:
            return None
        own_clock = limit.white_clock if board.turn else limit.black_clock
        budgets = [t for t in (limit.time, own_clock) if t is not None]
        if not budgets:
            return None if self.search_timeout is None else time.monotonic() + self.search_timeout
        return self._deadline(max(0.0, min(budgets)))

    def _collect(
        self, board: Board, deadline: Deadline, on_info: Callable[[InfoDict], object] | None = None
    ) -> tuple[BestMove, dict[int, InfoDict]]:
        """Reads a search's output up to its ``bestmove``: the latest info of every line. Raises
        :class:`EngineError` at the ``bestmove`` if the engine reported an error during the search."""
        lines: dict[int, InfoDict] = {}
        errors: list[str] = []
        # Without a consumer of every info, only the last principal variation of each line is
        # read into moves (the rest of every info still is): a flood of infos costs little.
        latest_pv: dict[int, str] = {}
        while True:
            try:
                line = self._connection.read(deadline, "during a search")
            except TimeoutError:
                # Give the engine a chance to answer stop; keep it only if it does (otherwise it is
                # killed): either way the caller learns of the timeout.
                with contextlib.suppress(EngineError):
                    self._resync()
                raise
            if line.startswith("info"):
                head, pv_mark, pv = line.partition(" pv ")
                if on_info is None and pv_mark and not line.startswith("info string"):
                    info = _parse_info(head, board)
                    latest_pv[info.get("multipv", 1)] = pv
                else:
                    info = _parse_info(line, board)
                if "string" in info:
                    if _is_error(line):
                        errors.append(_error_text(line))
                    _log_engine_string(info["string"])
                elif info:
                    _merge(lines.setdefault(info.get("multipv", 1), {}), info)
                if on_info is not None:
                    on_info(info)
            elif line.startswith("bestmove"):
                self._searching = False
                if errors:
                    raise EngineError(f"the engine reported an error in the search: {'; '.join(errors)}")
                for rank, pv in latest_pv.items():
                    lines.setdefault(rank, {})["pv"] = _parse_line(board, pv.split())
                return self._bestmove(line, board), lines
            elif line.strip():
                LOGGER.warning("ignoring unexpected output during a search: %r", line)

    def _bestmove(self, line: str, board: Board) -> BestMove:
        tokens = line.split()
        if len(tokens) < 2:
            raise EngineError(f"the engine answered {line!r}: bestmove without a move")
        if tokens[1] in ("(none)", "0000"):
            return BestMove(None, None)
        try:
            move = board.parse_uci(tokens[1])
        except ValueError as error:
            raise EngineError(f"the engine answered an illegal move {tokens[1]!r}: {error}") from None
        ponder = None
        if len(tokens) >= 4 and tokens[2] == "ponder":
            after = Board.from_position(board.position)
            after.push(move)
            ponder = _parse_move(after, tokens[3])
        return BestMove(move, ponder)

    def play(
        self,
        board: Board,
        limit: Limit,
        *,
        ponder: bool = False,
        root_moves: Iterable[Move] | None = None,
        game: object = None,
        info: object = None,
        options: Mapping[str, OptionValue] | None = None,
        timeout: float | _Unset | None = _UNSET,
    ) -> PlayResult:
        """The engine's move (python-chess's ``play``): a :class:`~congo.engine.PlayResult` with
        ``move`` (``None`` if the engine has none), ``ponder`` and the last ``info`` of the best line.

        ``ponder=True``: the engine goes on thinking about the expected reply until the next command
        (which stops it). ``game``: any object; when it differs from the previous call's, the engine
        is told ``ucinewgame``. ``options``: options for this search (kept until changed). ``info``
        is accepted for python-chess compatibility (every info is always parsed). ``timeout``: the
        most seconds to wait for the search's answer (``None``: no end); by default the search's
        own time plus the engine's :attr:`timeout`, or its :attr:`search_timeout` for a search
        that only depth, nodes or mate bound.

        Raises :class:`EngineError` for an illegal or malformed move or an error the engine
        reported (a position it rejected, say), :class:`EngineTimeoutError` if the search overruns
        its time, :class:`EngineTerminatedError` if the engine dies."""
        _check_timeout("timeout", timeout)
        self._acquire()
        try:
            self._start_search(
                board, limit, multipv=None, root_moves=root_moves, game=game, options=options or {}
            )
            best, lines = self._collect(board, self._search_deadline(board, limit, timeout))
            if ponder and best.move is not None and best.ponder is not None:
                after = board.copy()
                after.push(best.move)
                after.push(best.ponder)
                if after.outcome() is None:
                    self._send(_position_command(after))
                    self._send(_go_command(limit, ponder=True))
                    self._searching = True
            return PlayResult(best.move, best.ponder, lines.get(1, {}))
        finally:
            self._lock.release()

    def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int | None = None,
        root_moves: Iterable[Move] | None = None,
        game: object = None,
        info: object = None,
        options: Mapping[str, OptionValue] | None = None,
        timeout: float | _Unset | None = _UNSET,
    ) -> Any:
        """Analyses a position (python-chess's ``analyse``): the :data:`~congo.engine.InfoDict` of
        the best line, or with ``multipv=N`` a list of the best ``N`` lines' infos, best first.
        ``timeout`` and errors as with :meth:`play`."""
        _check_timeout("timeout", timeout)
        self._acquire()
        try:
            self._start_search(
                board, limit, multipv=multipv, root_moves=root_moves, game=game, options=options or {}
            )
            _, lines = self._collect(board, self._search_deadline(board, limit, timeout))
            ranked = [lines[rank] for rank in sorted(lines)]
            if multipv is None:
                return ranked[0] if ranked else {}
            return ranked[:multipv]
        finally:
            self._lock.release()

    def analysis(
        self,
        board: Board,
        limit: Limit | None = None,
        *,
        multipv: int | None = None,
        root_moves: Iterable[Move] | None = None,
        game: object = None,
        info: object = None,
        options: Mapping[str, OptionValue] | None = None,
        timeout: float | _Unset | None = _UNSET,
    ) -> AnalysisResult:
        """Starts an analysis and returns at once (python-chess's ``analysis``): an
        :class:`AnalysisResult` to iterate over infos as they come, with :meth:`~AnalysisResult.stop`
        and :meth:`~AnalysisResult.wait`; as a context manager it stops the analysis at the end of
        the block. With no ``limit`` the engine searches until stopped (or until ``timeout``, if
        given); with a limit, ``timeout`` is as with :meth:`play`. Raises like :meth:`play`; an
        error or a timeout during the analysis comes out of :meth:`AnalysisResult.wait` and of the
        iteration."""
        _check_timeout("timeout", timeout)
        self._acquire()
        try:
            self._start_search(
                board,
                limit,
                multipv=multipv,
                root_moves=root_moves,
                game=game,
                options=options or {},
                infinite=limit is None,
            )
        except BaseException:
            self._lock.release()
            raise
        result = AnalysisResult(self)
        self._analysis = result
        search_deadline = self._search_deadline(board, limit, timeout)

        def deadline() -> float | None:
            # After stop, the engine has a short grace to answer, whatever the search's own time.
            ends = [t for t in (search_deadline, result._stop_deadline) if t is not None]
            return min(ends) if ends else None

        threading.Thread(
            target=self._pump, args=(result, board, deadline), name="congo-engine-analysis", daemon=True
        ).start()
        return result

    def _pump(self, result: AnalysisResult, board: Board, deadline: Deadline) -> None:
        """Feeds an analysis with the engine's infos until its ``bestmove`` (on its own thread)."""
        try:
            best, _ = self._collect(board, deadline, on_info=result._post)
            result._best = best
        except BaseException as error:  # handed to the consumer
            result._error = error
        finally:
            self._analysis = None
            result._finish()
            self._lock.release()

    def quit(self) -> None:
        """Ends the engine: stops what it is doing, says ``quit``, waits up to ``timeout`` for it
        to exit and kills it otherwise. Idempotent; the engine cannot be used afterwards."""
        connection = self._connection
        if connection.closed:
            return
        try:
            self._acquire()
        except EngineError:
            connection.kill()
            return
        try:
            try:
                grace = _STOP_GRACE if self.timeout is None else self.timeout
                connection.send("quit", time.monotonic() + grace)
                connection.process.wait(timeout=grace)
            except (EngineError, subprocess.TimeoutExpired):
                pass
        finally:
            connection.kill()
            self._lock.release()

    close = quit

    def kill(self) -> None:
        """Kills the engine process at once, from any thread (a call waiting on it raises
        :class:`EngineTerminatedError`). For emergencies such as Ctrl-C; :meth:`quit` is the
        orderly way."""
        self._connection.kill()

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(self, *_: object) -> None:
        self.quit()

    def __repr__(self) -> str:
        name = self.id.get("name", "?")
        return f"<SimpleEngine (pid={self._connection.process.pid}) {name!r}>"


class AnalysisResult:
    """A running analysis (python-chess's ``AnalysisResult``): iterate over it for infos as they
    arrive; :attr:`info` is the latest merged info of the best line, :attr:`multipv` of every line.
    :meth:`stop` asks the engine to stop, :meth:`wait` waits for the end and returns the
    :class:`BestMove`. Used as a context manager, it stops and waits at the end of the block.
    Infos not taken are kept up to the latest 10,000 (older ones give way, so that an analysis
    nobody iterates over cannot fill the memory)."""

    _DONE = object()

    def __init__(self, engine: SimpleEngine) -> None:
        self._engine = engine
        # Bounded: the oldest infos not taken give way (the merged :attr:`info` keeps up anyway).
        self._queue: queue.Queue[object] = queue.Queue(maxsize=_MAX_QUEUED_INFOS)
        self._finished = threading.Event()
        self._best: BestMove | None = None
        self._error: BaseException | None = None
        self._stop_sent = False
        self._stop_deadline: float | None = None
        self.multipv: list[InfoDict] = [{}]

    @property
    def info(self) -> InfoDict:
        """The latest information about the best line (several infos merged)."""
        return self.multipv[0]

    def _post(self, info: InfoDict) -> None:
        if "string" not in info and info:
            rank = info.get("multipv", 1)
            while len(self.multipv) < rank:
                self.multipv.append({})
            _merge(self.multipv[rank - 1], info)
        self._put(info)

    def _put(self, item: object) -> None:
        """Queues an item without ever waiting (only the pump thread puts)."""
        while True:
            try:
                self._queue.put_nowait(item)
                return
            except queue.Full:
                with contextlib.suppress(queue.Empty):
                    self._queue.get_nowait()

    def _finish(self) -> None:
        self._finished.set()
        self._put(self._DONE)

    def stop(self) -> None:
        """Asks the engine to stop (it answers with its best move); returns at once."""
        if self._finished.is_set() or self._stop_sent:
            return
        self._stop_sent = True
        self._stop_deadline = time.monotonic() + _STOP_GRACE
        # A dead engine is reported by the thread that reads its output.
        with contextlib.suppress(EngineError):
            self._engine._connection.send("stop", self._stop_deadline)

    def wait(self) -> BestMove:
        """Waits for the end of the analysis. Raises what ended it badly (the engine died, it
        overran its time, it answered nonsense)."""
        while not self._finished.wait(0.1):
            pass
        if self._error is not None:
            raise self._error
        assert self._best is not None
        return self._best

    def would_block(self) -> bool:
        """Whether :meth:`get` would wait for the next info."""
        return self._queue.empty() and not self._finished.is_set()

    def empty(self) -> bool:
        """Whether no info is waiting (the analysis may still produce more)."""
        return self._queue.empty() or (self._finished.is_set() and self._queue.qsize() <= 1)

    def get(self) -> InfoDict:
        """The next info, waiting for it; raises :class:`AnalysisComplete` at the end."""
        while True:
            try:
                item = self._queue.get(timeout=0.1)
            except queue.Empty:
                continue
            if item is self._DONE:
                self._put(self._DONE)  # later calls end too
                if self._error is not None:
                    raise self._error
                raise AnalysisComplete()
            return item  # type: ignore[return-value]

    def next(self) -> InfoDict | None:
        """The next info, or ``None`` at the end."""
        try:
            return self.get()
        except AnalysisComplete:
            return None

    def __iter__(self) -> Iterator[InfoDict]:
        while True:
            try:
                yield self.get()
            except AnalysisComplete:
                return

    def __enter__(self) -> AnalysisResult:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()
        with contextlib.suppress(EngineError):
            self.wait()
