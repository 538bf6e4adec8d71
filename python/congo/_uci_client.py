"""Driving an engine that speaks the protocol of ``docs/protocol.md`` (``congo uci``, or any
program in any language) from Python, the way python-chess drives UCI chess engines: with asyncio,
or with blocking calls.

>>> import asyncio, congo
>>> from congo.engine import Limit, popen_uci
>>> async def main() -> None:
...     transport, engine = await popen_uci(["congo", "uci"])
...     result = await engine.play(congo.Board(), Limit(time=0.1))
...     await engine.quit()
>>> asyncio.run(main())                                         # doctest: +SKIP

>>> from congo.engine import SimpleEngine
>>> engine = SimpleEngine.popen_uci(["congo", "uci"])          # doctest: +SKIP
>>> engine.play(congo.Board(), Limit(time=0.1)).move            # doctest: +SKIP
Move.from_uci('a1c3')
>>> engine.quit()                                               # doctest: +SKIP

**One implementation of the protocol.** :class:`UciProtocol` is the session, written for asyncio:
its commands are coroutines, so one event loop drives any number of engines, cancelling a task
that awaits a search tells the engine ``stop`` (and leaves it usable), and ``asyncio.wait_for``
bounds a call. :class:`SimpleEngine` is python-chess's design over it: an event loop on a daemon
thread of its own per engine, each call submitted to it with ``asyncio.run_coroutine_threadsafe``
and waited for. Nothing of the protocol is written twice; the blocking layer only carries calls,
results and Ctrl-C (which cancels the call, as cancelling a task does). The protocol's text is
:mod:`congo._uci_protocol` and the process :mod:`congo._uci_process`. Everything public here is
re-exported from :mod:`congo.engine`.

Every wait has an end: a process that dies raises :class:`EngineTerminatedError`, one that does
not answer in time :class:`EngineTimeoutError` (a ``TimeoutError``), and one that answers nonsense
:class:`EngineError`.

:class:`AnalysisResult` (blocking) and :class:`AsyncAnalysisResult` (asyncio) are the running
analyses; the built-in :class:`congo.Engine` returns the same two types
(:meth:`congo.Engine.analysis`, :class:`congo.engine.AsyncEngine`), with the same info dicts.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import enum
import logging
import queue
import threading
import time
import weakref
from collections import deque
from collections.abc import Coroutine, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from congo._core import Move
from congo._results import InfoDict, PlayResult
from congo._uci_process import Deadline, _EngineProcess
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
    "AsyncAnalysisResult",
    "BestMove",
    "EngineError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Option",
    "SimpleEngine",
    "UciProtocol",
    "popen_uci",
]

LOGGER = logging.getLogger("congo.engine")

_T = TypeVar("_T")

_STOP_GRACE = 2.0
"""Seconds an engine gets to answer ``stop`` with its ``bestmove`` before it is given up."""

_MAX_QUEUED_INFOS = 10_000
"""The most infos an analysis keeps for its iterator; older ones not taken give way."""

DEFAULT_SEARCH_TIMEOUT = 600.0
"""Seconds a search bounded only by depth, nodes or mate may take by default before
:class:`EngineTimeoutError` (``search_timeout`` of :func:`popen_uci`)."""


class _Unset(enum.Enum):
    UNSET = 0


_UNSET = _Unset.UNSET


_MAX_ERRORS = 8
"""The engine's error lines kept for one answer (an engine may repeat one without end)."""


def _add_error(errors: list[str], line: str) -> None:
    """Keeps an error line the engine reported, the first :data:`_MAX_ERRORS` of them."""
    if len(errors) < _MAX_ERRORS:
        errors.append(_error_text(line))
    elif len(errors) == _MAX_ERRORS:
        errors.append("… (more errors)")


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


# -- the session, under asyncio -------------------------------------------------------------------


def _stop_grace(deadline: Deadline) -> Deadline:
    """The end of :data:`_STOP_GRACE` from now: the wait for the ``bestmove`` of a search told
    ``stop``, whatever the search's own deadline (``deadline``, a function, is still called: an
    analysis makes way for a waiting command there)."""
    grace = time.monotonic() + _STOP_GRACE
    if callable(deadline):
        given = deadline

        def until() -> float | None:
            given()
            return grace

        return until
    return grace


def _wakes_search(line: str) -> bool:
    """The lines that end a wait of :meth:`UciProtocol._collect` without an info consumer."""
    return line.startswith("bestmove") or (line.startswith("info string") and _is_error(line))


class UciProtocol:
    """An engine speaking the protocol of ``docs/protocol.md``, driven with asyncio (python-chess's
    ``chess.engine.UciProtocol``). Made by :func:`popen_uci`; every command is a coroutine.

    Commands are serialised (one at a time, from any task of the engine's loop); a running
    analysis or ponder search is stopped by the next command. Every wait has an end: ``timeout``
    (seconds) bounds every exchange that should be quick (the handshake, ``isready``, options, a
    command the engine must read) and is added to a search's own time (its ``time`` limit, or the
    side to move's clock) as the most it may take; ``search_timeout`` bounds a search limited only
    by depth, nodes or mate. A call's own ``timeout=`` replaces both for that call. ``None`` waits
    without end (never on a dead engine). A wait that runs out raises :class:`EngineTimeoutError`.

    Cancelling a task that awaits a search (``task.cancel()``, ``asyncio.wait_for``, a Ctrl-C in
    ``asyncio.run``) tells the engine ``stop`` at once; its ``bestmove`` is read by the next
    command, which the engine then answers as usual (an ``isready`` follows every ``stop``, and
    whatever comes before its ``readyok`` is dropped: no late answer is taken for a later search's).

    Any ``info string error…`` the engine prints in answer to a command of a call (an option it
    refused, a position it rejected, a ``go`` it could not start) makes the call raise
    :class:`EngineError` instead of returning; the client stays in step with the engine.
    """

    def __init__(
        self,
        process: _EngineProcess,
        *,
        timeout: float | None,
        search_timeout: float | None = DEFAULT_SEARCH_TIMEOUT,
    ) -> None:
        self._process = process
        self.timeout = _check_timeout("timeout", timeout)
        self.search_timeout = _check_timeout("search_timeout", search_timeout)
        self.id: dict[str, str] = {}
        """What the engine said about itself: ``name``, ``author``."""
        self.options: Mapping[str, Option] = _Options()
        """The options the engine announced, by name (any case)."""
        self.config: dict[str, OptionValue] = {}
        """The option values sent to the engine so far."""
        self._lock = asyncio.Lock()
        self._waiting = 0  # commands waiting for the engine: a running analysis makes way
        self._searching = False  # a go was sent whose bestmove was not read
        self._stop_sent = False  # ... and it was told stop
        self._owed_ready = 0  # isready sent whose readyok was not read
        self._analysis: AsyncAnalysisResult | None = None
        self._game: object = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def returncode(self) -> asyncio.Future[int]:
        """The exit code of the engine process, once it has exited (python-chess's name)."""
        return self._process._exit

    @property
    def pid(self) -> int:
        """The engine's process id."""
        return self._process.pid

    def _deadline(self, extra: float | None = 0.0) -> float | None:
        if self.timeout is None or extra is None:
            return None
        return time.monotonic() + self.timeout + extra

    async def _send(self, line: str) -> None:
        """Sends a command; the engine has ``timeout`` to read it."""
        await self._process.send(line, self._deadline())

    async def _handshake(self, cancel: threading.Event | None) -> None:
        await self._send("uci")
        deadline = self._deadline()

        def until() -> float | None:
            # The read looks at its deadline again at least every 0.1 s while it waits: the
            # moment to notice a start cancelled from another thread.
            if cancel is not None and cancel.is_set():
                raise EngineTerminatedError("the engine's start was cancelled during its handshake")
            return deadline

        options = _Options()
        while True:
            line = await self._process.readline(
                deadline if cancel is None else until, "during the handshake (uci)"
            )
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

    async def _acquire(self) -> None:
        """Takes the engine for a command: ends a running analysis or pondering first."""
        self._waiting += 1
        try:
            if self._analysis is not None:
                self._analysis.stop()
            await self._lock.acquire()
        finally:
            self._waiting -= 1
        if self._searching or self._owed_ready:  # (nothing to read, the common case: no await)
            try:
                await self._resync()
            except BaseException:
                self._lock.release()
                raise

    def _stop_now(self) -> None:
        """Tells a running search ``stop`` without waiting (its ``bestmove`` is read later). An
        ``isready`` follows it: the ``stop`` may reach an engine whose search has just ended, and
        many engines answer even an idle ``stop`` with a ``bestmove``; everything up to the
        ``readyok`` is read and dropped before the next command (:meth:`_resync`), so that no
        such answer is ever taken for the next search's."""
        if self._searching and not self._stop_sent:
            self._stop_sent = True
            self._owed_ready += 1
            self._process.write("stop\nisready\n")

    async def _resync(self, *, ready: bool = True) -> None:
        """Ends a search whose ``bestmove`` was never read (pondering, or a call cancelled or
        timed out) with ``stop``, and reads every ``readyok`` still owed: everything up to them is
        discarded. The ``bestmove`` has a grace period (:data:`_STOP_GRACE`), each ``readyok`` the
        ``timeout`` of any ``isready`` (at least the grace); an engine that does not answer in
        time is killed. ``ready=False`` returns at the ``bestmove``: the ``readyok`` is then read
        by the next command (a call that timed out ends as soon as its engine has stopped)."""
        if not self._searching and not (ready and self._owed_ready):
            return
        stop_deadline = time.monotonic() + _STOP_GRACE
        readline = self._process.readline
        self._stop_now()  # if not told yet; an engine that does not read it is killed below
        try:
            while self._searching:
                line = await readline(stop_deadline, "after stop")
                if line.startswith("bestmove"):
                    self._searching = False
                elif line == "readyok" and self._owed_ready:
                    self._owed_ready -= 1
        except TimeoutError:
            await self._process.aclose()
            raise EngineTerminatedError("the engine did not answer stop in time and was killed") from None
        if not ready:
            return
        ready_deadline = None if self.timeout is None else max(stop_deadline, time.monotonic() + self.timeout)
        try:
            while self._owed_ready:
                # A bestmove here answered a stop that came after its search had ended: dropped.
                if await readline(ready_deadline, "waiting for readyok after stop") == "readyok":
                    self._owed_ready -= 1
        except TimeoutError:
            await self._process.aclose()
            raise EngineTerminatedError(
                "the engine did not answer isready after stop in time and was killed"
            ) from None

    async def _read_ready(self, deadline: float | None) -> list[str]:
        """Reads up to the ``readyok`` owed: the errors the engine reported before it (in answer to
        the commands sent since the last exchange). An engine that does not answer by
        ``deadline`` is killed (:class:`EngineTimeoutError`): a late ``readyok`` would put the
        client out of step with it."""
        errors: list[str] = []
        while True:
            try:
                line = await self._process.readline(deadline, "waiting for readyok")
            except EngineTimeoutError as error:
                await self._process.aclose()
                raise EngineTimeoutError(f"{error}; it was killed") from None
            if line == "readyok":
                self._owed_ready -= 1
                return errors
            if _is_error(line):
                _add_error(errors, line)
            elif line.startswith("info string"):
                _log_engine_string(line[len("info string") :].strip())

    async def _ready(self) -> list[str]:
        """``isready`` … ``readyok``, within ``timeout``: see :meth:`_read_ready`."""
        self._owed_ready += 1
        await self._send("isready")
        return await self._read_ready(self._deadline())

    async def _set_option(self, name: str, value: OptionValue, *, managed_ok: bool = False) -> None:
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
            await self._send(f"setoption name {option.name}")
        else:
            text = str(value).lower() if isinstance(value, bool) else str(value)
            await self._send(f"setoption name {option.name} value {text}")
        # Only an option the engine took is recorded: the engine answers isready after it has
        # dealt with the setoption, so whatever error it had comes before readyok.
        errors = await self._ready()
        if errors:
            shown = option.name if option.type == "button" else f"{option.name} = {value!r}"
            raise EngineError(f"the engine refused option {shown}: {'; '.join(errors)}")
        if option.type != "button":
            self.config[option.name] = value

    # -- public API ---------------------------------------------------------------------------

    async def configure(self, options: Mapping[str, OptionValue]) -> None:
        """Sets options (python-chess's ``configure``); a button is pressed with the value ``None``.
        Raises :class:`EngineError` for an option the engine does not have, one the client manages
        itself (``MultiPV``, ``Ponder``), a value out of range, or a value the engine refused (it
        answered ``info string error…``: a ``Hash`` it cannot allocate, a ``TablebasePath`` it
        cannot open). The options before the failing one are set; the failing one and those after
        it are not, and :attr:`config` holds only what the engine took."""
        await self._acquire()
        try:
            for name, value in options.items():
                await self._set_option(name, value)
            await self._ready()
        finally:
            self._lock.release()

    async def ping(self) -> None:
        """``isready`` … ``readyok``: raises :class:`EngineTimeoutError` if the engine does not
        answer within ``timeout`` (it is killed: a late answer would put the client out of step)."""
        await self._acquire()
        try:
            await self._ready()
        finally:
            self._lock.release()

    async def _start_search(
        self,
        board: Board,
        limit: Limit | None,
        *,
        multipv: int | None,
        root_moves: Iterable[Move] | None,
        game: object,
        options: Mapping[str, OptionValue],
        infinite: bool = False,
        confirm: bool = True,
    ) -> None:
        """Sends the position and ``go`` (options first, if any). With ``confirm`` an ``isready``
        goes between them and this reads up to its ``readyok``, raising if the engine rejected the
        position: for :meth:`analysis`, which returns while the engine searches. Without it (for
        :meth:`analyse` and :meth:`play`, whose ``bestmove`` is their point of sync) the caller's
        :meth:`_collect` tells a rejected position by the error that comes before the search's
        output."""
        if not isinstance(board, Board):
            raise TypeError(f"board must be a congo.Board, got {type(board).__name__}")
        roots = None if root_moves is None else list(root_moves)
        for name, value in options.items():
            await self._set_option(name, value)
        multipv_option = self.options.get("MultiPV")  # looked up without regard to case
        if multipv_option is not None:
            if self.config.get(multipv_option.name) != (multipv or 1):  # set once, not every search
                await self._set_option(multipv_option.name, multipv or 1, managed_ok=True)
        elif multipv not in (None, 1):
            raise EngineError("the engine has no MultiPV option")
        commands = []
        if game is not None and game != self._game:
            self._game = game
            commands.append("ucinewgame")
        commands.append(_position_command(board))
        if confirm:
            # The engine has dealt with the position when it answers isready, so an error before
            # readyok means it rejected the position (a line too long, a move it finds illegal)
            # and may search whatever it had before; that search is stopped and the call fails,
            # never answered with the old position. One write, one round trip.
            commands.append("isready")
            self._owed_ready += 1
        commands.append(_go_command(limit, root_moves=roots, infinite=infinite))
        self._searching, self._stop_sent = True, False
        await self._process.send("\n".join(commands), self._deadline())
        if confirm:
            errors = await self._read_ready(self._deadline())
            if errors:
                await self._resync()
                raise EngineError(f"the engine rejected the position: {'; '.join(errors)}")

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

    async def _collect(
        self,
        board: Board,
        deadline: Deadline,
        on_info: Callable[[InfoDict], object] | None = None,
    ) -> tuple[BestMove, dict[int, InfoDict]]:
        """Reads a search's output up to its ``bestmove``: the latest info of every line. Raises
        :class:`EngineError` at the ``bestmove`` if the engine reported an error during the search.

        An error before any of the search's output is the engine refusing the position (or the
        ``go``): the search, if the engine started one anyway (of the position it had before), is
        told ``stop`` at once, and the call fails, never answered with the old position. Without
        ``on_info`` nothing before the ``bestmove`` needs an answer, so only it, an error or the
        end wakes the wait: infos in blocks of their own cost no turn of the loop."""
        lines: dict[int, InfoDict] = {}
        errors: list[str] = []
        searched = False  # an info of the search came (not a string)
        refused = False  # an error came before it
        # Without a consumer of every info, only the last principal variation of each line is
        # read into moves (the rest of every info still is): a flood of infos costs little.
        latest_pv: dict[int, str] = {}
        readline = self._process.readline
        queued = self._process.queued_line
        wake = _wakes_search if on_info is None else None
        while True:
            try:
                # A line already read comes without a wait (and without a coroutine).
                line = queued()
                if line is None:
                    line = await readline(deadline, "during a search", wake)
            except TimeoutError:
                if refused:  # it was told stop and had its grace
                    await self._process.aclose()
                    raise EngineTerminatedError(
                        f"the engine rejected the position or its search ({'; '.join(errors)}) and did "
                        "not answer stop in time and was killed"
                    ) from None
                # Give the engine a chance to answer stop; keep it only if it does (otherwise it is
                # killed): either way the caller learns of the timeout.
                with contextlib.suppress(EngineError):
                    await self._resync(ready=False)
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
                        _add_error(errors, line)
                        if not searched and not refused:
                            # Whatever it searches now is not this position: stopped, with the
                            # grace any stop has for its bestmove.
                            refused = True
                            self._stop_now()
                            deadline = _stop_grace(deadline)
                    _log_engine_string(info["string"])
                elif info:
                    searched = True
                    rank = info.get("multipv", 1)
                    if rank in lines:
                        _merge(lines[rank], info)
                    else:  # the line's first info: nothing to merge into (a copy: on_info has it)
                        lines[rank] = info.copy() if on_info is not None else info
                if on_info is not None:
                    on_info(info)
            elif line.startswith("bestmove"):
                self._searching = False
                if refused:
                    raise EngineError(f"the engine rejected the position or its search: {'; '.join(errors)}")
                if errors:
                    raise EngineError(f"the engine reported an error in the search: {'; '.join(errors)}")
                for rank, pv in latest_pv.items():
                    lines.setdefault(rank, {})["pv"] = _parse_line(board, pv.split())
                return self._bestmove(line, board), lines
            elif line == "readyok" and self._owed_ready:
                self._owed_ready -= 1
            elif line.strip():
                LOGGER.warning("ignoring unexpected output during a search: %r", line)

    async def _search(
        self,
        board: Board,
        limit: Limit,
        multipv: int | None,
        root_moves: Iterable[Move] | None,
        game: object,
        options: Mapping[str, OptionValue] | None,
        timeout: float | _Unset | None,
    ) -> tuple[BestMove, dict[int, InfoDict]]:
        """One search to its ``bestmove``, for :meth:`play` and :meth:`analyse` (the lock held):
        the position and ``go`` in one write, no ``isready`` between them (see :meth:`_collect`)."""
        await self._start_search(
            board,
            limit,
            multipv=multipv,
            root_moves=root_moves,
            game=game,
            options=options or {},
            confirm=False,
        )
        return await self._collect(board, self._search_deadline(board, limit, timeout))

    @staticmethod
    def _bestmove(line: str, board: Board) -> BestMove:
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
            ponder = _parse_move(board.position.push(move), tokens[3])
        return BestMove(move, ponder)

    async def play(
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
        await self._acquire()
        try:
            best, lines = await self._search(board, limit, None, root_moves, game, options, timeout)
            if ponder and best.move is not None and best.ponder is not None:
                after = board.copy()
                after.push(best.move)
                after.push(best.ponder)
                if after.outcome() is None:
                    self._searching, self._stop_sent = True, False
                    await self._send(f"{_position_command(after)}\n{_go_command(limit, ponder=True)}")
            return PlayResult(best.move, best.ponder, lines.get(1, {}))
        except asyncio.CancelledError:
            self._stop_now()
            raise
        finally:
            self._lock.release()

    async def analyse(
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
        await self._acquire()
        try:
            _, lines = await self._search(board, limit, multipv, root_moves, game, options, timeout)
            ranked = [lines[rank] for rank in sorted(lines)]
            if multipv is None:
                return ranked[0] if ranked else {}
            return ranked[:multipv]
        except asyncio.CancelledError:
            self._stop_now()
            raise
        finally:
            self._lock.release()

    async def analysis(
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
    ) -> AsyncAnalysisResult:
        """Starts an analysis and returns once the engine searches (python-chess's ``analysis``):
        an :class:`AsyncAnalysisResult` to iterate over (``async for``) infos as they come, with
        :meth:`~AsyncAnalysisResult.stop` and :meth:`~AsyncAnalysisResult.wait`; as an async
        context manager it stops the analysis at the end of the block and waits for its end. With
        no ``limit`` the engine searches until stopped (or until ``timeout``, if given), or until
        the next command; with a limit, ``timeout`` is as with :meth:`play`. Raises like
        :meth:`play`; an error or a timeout during the analysis comes out of ``wait()`` and of the
        iteration."""
        _check_timeout("timeout", timeout)
        await self._acquire()
        try:
            await self._start_search(
                board,
                limit,
                multipv=multipv,
                root_moves=root_moves,
                game=game,
                options=options or {},
                infinite=limit is None,
            )
        except BaseException as error:
            if isinstance(error, asyncio.CancelledError):
                self._stop_now()
            self._lock.release()
            raise
        result = AsyncAnalysisResult(self._stop_now)
        self._analysis = result
        search_deadline = self._search_deadline(board, limit, timeout)

        def deadline() -> float | None:
            if self._waiting:  # a command waits: the analysis makes way
                result.stop()
            # After stop, the engine has a short grace to answer, whatever the search's own time.
            ends = [t for t in (search_deadline, result._stop_deadline) if t is not None]
            return min(ends) if ends else None

        self._spawn(self._pump(result, board, deadline))
        return result

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)  # the loop keeps only a weak reference
        task.add_done_callback(self._tasks.discard)

    async def _pump(self, result: AsyncAnalysisResult, board: Board, deadline: Deadline) -> None:
        """Feeds an analysis with the engine's infos until its ``bestmove`` (a task of its own)."""
        try:
            best, _ = await self._collect(board, deadline, on_info=result._post)
            result._finish(best)
        except asyncio.CancelledError:  # the loop is closing
            self._stop_now()
            result._finish(error=EngineTerminatedError("the analysis was cancelled"))
            raise
        except BaseException as error:  # handed to the consumer
            result._finish(error=error)
        finally:
            self._analysis = None
            self._lock.release()

    async def quit(self) -> None:
        """Ends the engine: stops what it is doing, says ``quit``, waits up to ``timeout`` for it
        to exit and kills it otherwise. Idempotent; the engine cannot be used afterwards."""
        process = self._process
        if process.closed:
            return
        try:
            await self._acquire()
        except EngineError:
            await process.aclose()
            return
        try:
            grace = _STOP_GRACE if self.timeout is None else self.timeout
            with contextlib.suppress(EngineError):
                await process.send("quit", time.monotonic() + grace)
                await process._wait_exit(grace)
        finally:
            await process.aclose()
            self._lock.release()

    def kill(self) -> None:
        """Kills the engine process at once, from any thread (a call waiting on it raises
        :class:`EngineTerminatedError`). For emergencies; :meth:`quit` is the orderly way."""
        self._process.kill()

    def __repr__(self) -> str:
        return f"<UciProtocol (pid={self._process.pid}) {self.id.get('name', '?')!r}>"


async def popen_uci(
    command: str | list[str],
    *,
    timeout: float | None = 10.0,
    search_timeout: float | None = DEFAULT_SEARCH_TIMEOUT,
    **popen_args: Any,
) -> tuple[asyncio.SubprocessTransport, UciProtocol]:
    """Starts an engine and shakes hands (``uci`` … ``uciok``): python-chess's
    ``chess.engine.popen_uci``, a coroutine returning the process's transport and the engine, a
    :class:`UciProtocol`. ``command`` is the program's path or its argument list
    (``["congo", "uci"]``); ``popen_args`` go to ``subprocess.Popen``. On POSIX the engine gets a
    process group of its own (unless ``popen_args`` arrange one), killed with it. ``timeout`` and
    ``search_timeout``: see :class:`UciProtocol`. python-chess's ``setpgrp`` is accepted and changes
    nothing.

    Raises ``OSError`` if the program cannot be started, :class:`EngineTimeoutError` if it does not
    complete the handshake within ``timeout`` seconds, :class:`EngineTerminatedError` if it exits,
    and ``ValueError`` for a negative or NaN timeout. Cancelled, it kills the process."""
    return await _popen_uci(command, timeout, search_timeout, None, popen_args)


async def _popen_uci(
    command: str | list[str],
    timeout: float | None,
    search_timeout: float | None,
    cancel: threading.Event | None,
    popen_args: dict[str, Any],
) -> tuple[asyncio.SubprocessTransport, UciProtocol]:
    _check_timeout("timeout", timeout)
    _check_timeout("search_timeout", search_timeout)
    args = [command] if isinstance(command, str) else list(command)
    # python-chess's own argument, for its users' code: the engine has a process group of its
    # own anyway.
    popen_args = {key: value for key, value in popen_args.items() if key != "setpgrp"}
    process = await _EngineProcess.start(args, popen_args)
    engine = UciProtocol(process, timeout=timeout, search_timeout=search_timeout)
    try:
        await engine._handshake(cancel)
    except BaseException:
        await process.aclose()  # killed and reaped: nothing outlives a failed start
        raise
    assert process._transport is not None
    return process._transport, engine


def _merge_into_lines(lines: list[InfoDict], info: InfoDict) -> None:
    """Merges an info into what is known of the line it is about (``multipv``, 1 the best; a line
    not seen yet is added): the ``multipv`` of both analysis results, asyncio and blocking."""
    if "string" not in info and info:
        rank = info.get("multipv", 1)
        while len(lines) < rank:
            lines.append({})
        _merge(lines[rank - 1], info)


class AsyncAnalysisResult:
    """A running analysis under asyncio (python-chess's ``AnalysisResult``): ``async for info in
    analysis`` gives infos as they arrive; :attr:`info` is the latest merged info of the best line,
    :attr:`multipv` of every line. :meth:`stop` asks the engine to stop (at once, no await),
    ``await wait()`` waits for the end and returns the :class:`BestMove`. ``async with`` stops and
    waits at the end of the block; a plain ``with`` only stops. Infos not taken are kept up to the
    latest 10,000. Returned by :meth:`UciProtocol.analysis` and by the built-in engine's
    :meth:`congo.engine.AsyncEngine.analysis`, with the same info dicts."""

    def __init__(self, stop: Callable[[], object] | None = None) -> None:
        self._stopper = stop
        self._queue: deque[InfoDict] = deque(maxlen=_MAX_QUEUED_INFOS)
        self._waiters: list[asyncio.Future[None]] = []
        self._finished = False
        self._best: BestMove | None = None
        self._error: BaseException | None = None
        self._stop_sent = False
        self._stop_deadline: float | None = None
        self.multipv: list[InfoDict] = [{}]

    @property
    def info(self) -> InfoDict:
        """The latest information about the best line (several infos merged)."""
        return self.multipv[0]

    def _wake(self) -> None:
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def _sleep(self) -> None:
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        await waiter

    def _post(self, info: InfoDict) -> None:
        _merge_into_lines(self.multipv, info)
        self._queue.append(info)
        self._wake()

    def _finish(self, best: BestMove | None = None, error: BaseException | None = None) -> None:
        self._best, self._error = best, error
        self._finished = True
        self._wake()

    def stop(self) -> None:
        """Asks the engine to stop (it answers with its best move); returns at once."""
        if self._finished or self._stop_sent:
            return
        self._stop_sent = True
        self._stop_deadline = time.monotonic() + _STOP_GRACE
        if self._stopper is not None:
            self._stopper()

    async def wait(self) -> BestMove:
        """Waits for the end of the analysis. Raises what ended it badly (the engine died, it
        overran its time, it answered nonsense)."""
        while not self._finished:
            await self._sleep()
        if self._error is not None:
            raise self._error
        assert self._best is not None
        return self._best

    def would_block(self) -> bool:
        """Whether :meth:`get` would wait for the next info."""
        return not self._queue and not self._finished

    def empty(self) -> bool:
        """Whether no info is waiting (the analysis may still produce more)."""
        return not self._queue

    async def get(self) -> InfoDict:
        """The next info, waiting for it; raises :class:`AnalysisComplete` at the end (or what
        ended the analysis badly)."""
        while not self._queue:
            if self._finished:
                if self._error is not None:
                    raise self._error
                raise AnalysisComplete()
            await self._sleep()
        return self._queue.popleft()

    async def next(self) -> InfoDict | None:
        """The next info, or ``None`` at the end."""
        try:
            return await self.get()
        except AnalysisComplete:
            return None

    def __aiter__(self) -> AsyncAnalysisResult:
        return self

    async def __anext__(self) -> InfoDict:
        try:
            return await self.get()
        except AnalysisComplete:
            raise StopAsyncIteration from None

    def __enter__(self) -> AsyncAnalysisResult:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    async def __aenter__(self) -> AsyncAnalysisResult:
        return self

    async def __aexit__(self, *_: object) -> None:
        self.stop()
        with contextlib.suppress(EngineError):
            await self.wait()


# -- the blocking layer ------------------------------------------------------------------------


class AnalysisResult:
    """A running analysis (python-chess's ``SimpleAnalysisResult``, under the name congo has always
    given it): iterate over it for infos as they arrive; :attr:`info` is the latest merged info of
    the best line, :attr:`multipv` of every line. :meth:`stop` asks the engine to stop,
    :meth:`wait` waits for the end and returns the :class:`BestMove`. Used as a context manager, it
    stops and waits at the end of the block. A Ctrl-C while it waits (in :meth:`get`, the
    iteration or :meth:`wait`) stops the analysis too. Infos not taken are kept up to the latest
    10,000 (older ones give way, so that an analysis nobody iterates over cannot fill the memory).

    :meth:`SimpleEngine.analysis` and the built-in :meth:`congo.Engine.analysis` both return it,
    with the same info dicts (``score`` a :class:`~congo.engine.PovScore`)."""

    _DONE = object()

    def __init__(self, stop: Callable[[], object] | None = None) -> None:
        self._stopper = stop
        # Bounded: the oldest infos not taken give way (the merged :attr:`info` keeps up anyway).
        self._queue: queue.Queue[object] = queue.Queue(maxsize=_MAX_QUEUED_INFOS)
        self._finished = threading.Event()
        self._best: BestMove | None = None
        self._error: BaseException | None = None
        self._stop_sent = False
        self.multipv: list[InfoDict] = [{}]

    @property
    def info(self) -> InfoDict:
        """The latest information about the best line (several infos merged)."""
        return self.multipv[0]

    def _post(self, info: InfoDict) -> None:
        """Takes an info (from the one thread that feeds the analysis)."""
        _merge_into_lines(self.multipv, info)
        self._put(info)

    def _put(self, item: object) -> None:
        """Queues an item without ever waiting (only the feeding thread puts)."""
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
        if self._stopper is not None:
            # A dead engine is reported by whatever feeds the analysis.
            with contextlib.suppress(EngineError, RuntimeError):
                self._stopper()

    def wait(self) -> BestMove:
        """Waits for the end of the analysis. Raises what ended it badly (the engine died, it
        overran its time, it answered nonsense)."""
        try:
            while not self._finished.wait(0.1):
                pass
        except BaseException:  # Ctrl-C: never leave the engine searching
            self.stop()
            raise
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
            except BaseException:  # Ctrl-C: never leave the engine searching
                self.stop()
                raise
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


class _LoopThread:
    """An event loop running on a daemon thread of its own, for one :class:`SimpleEngine`."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name="congo-engine-loop", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        loop = self.loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_forever()
        finally:
            # Whatever is left (a start cut short by Ctrl-C) ends now, killing what it started.
            tasks = asyncio.all_tasks(loop)
            for task in tasks:
                task.cancel()
            if tasks:
                loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
            loop.close()

    def submit(self, coroutine: Coroutine[Any, Any, _T]) -> concurrent.futures.Future[_T]:
        try:
            return asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        except RuntimeError:  # the loop is closed
            coroutine.close()
            raise EngineTerminatedError("the engine was closed") from None

    def stop(self) -> None:
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(self.loop.stop)


def _result(future: concurrent.futures.Future[_T]) -> _T:
    """Waits for a call submitted to an engine's loop; a Ctrl-C (or any exception) while waiting
    cancels it, as cancelling a task does (a search is told stop)."""
    try:
        while True:
            # Short waits keep Ctrl-C responsive on every platform. (From Python 3.11 on, the
            # futures' TimeoutError is the built-in one, which EngineTimeoutError also is.)
            try:
                return future.result(0.1)
            except concurrent.futures.TimeoutError:
                if future.done():
                    return future.result()
    except BaseException:
        future.cancel()
        raise


async def _close_on_loop(process: _EngineProcess) -> None:
    try:
        await process.aclose()
    finally:
        asyncio.get_running_loop().stop()


def _shutdown(loop: _LoopThread, process: _EngineProcess) -> None:
    """Ends an engine's process and loop: at :meth:`SimpleEngine.quit`, or as the finalizer of an
    engine that was never closed (no process outlives its client)."""
    process.kill()
    with contextlib.suppress(EngineTerminatedError):
        loop.submit(_close_on_loop(process))


async def _forward(inner: AsyncAnalysisResult, outer: AnalysisResult) -> None:
    """Hands an analysis's infos from the engine's loop to its blocking :class:`AnalysisResult`."""
    try:
        async for info in inner:
            outer._post(info)
        outer._best = await inner.wait()
    except asyncio.CancelledError:  # the loop is closing: the engine with it
        outer._error = EngineTerminatedError("the engine was closed")
        raise
    except BaseException as error:  # handed to the consumer
        outer._error = error
    finally:
        outer._finish()


class _ConnectionView:
    """The engine's process as :class:`SimpleEngine` shows it to tests and diagnostics."""

    def __init__(self, engine: SimpleEngine) -> None:
        self._engine = engine
        self.process = engine.protocol._process

    @property
    def closed(self) -> bool:
        return self.process.closed

    def send(self, line: str, deadline: float | None) -> None:
        self._engine._call(self.process.send(line, deadline))

    def kill(self) -> None:
        self.process.kill()


class SimpleEngine:
    """A blocking client for an engine speaking the protocol of ``docs/protocol.md``, shaped like
    python-chess's ``chess.engine.SimpleEngine``: the synchronous wrapper over
    :class:`UciProtocol` (its :attr:`protocol`), whose event loop runs on a daemon thread of its
    own. Create it with :meth:`popen_uci`; use it in a ``with`` block or call :meth:`quit`.

    Calls are serialised (one command at a time, from any thread). Every wait has an end:
    ``timeout`` (seconds) bounds every exchange that should be quick (the handshake, ``isready``,
    options, a command the engine must read) and is added to a search's own time (its ``time``
    limit, or the side to move's clock) as the most it may take; ``search_timeout`` bounds a search
    limited only by depth, nodes or mate. A call's own ``timeout=`` replaces both for that call.
    ``None`` waits without end (never on a dead engine). A wait that runs out raises
    :class:`EngineTimeoutError`. A Ctrl-C during a call stops the engine's search; the engine is
    usable afterwards.

    Any ``info string error…`` the engine prints in answer to a command of a call (an option it
    refused, a position it rejected, a ``go`` it could not start) makes the call raise
    :class:`EngineError` instead of returning; the client stays in step with the engine.
    """

    def __init__(self, protocol: UciProtocol, loop: _LoopThread) -> None:
        self.protocol = protocol
        """The asyncio engine this one wraps (python-chess's name)."""
        self._loop = loop
        self._closed = False
        self._finalizer = weakref.finalize(self, _shutdown, loop, protocol._process)

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
        loop = _LoopThread()
        try:
            _, protocol = _result(
                loop.submit(_popen_uci(command, timeout, search_timeout, cancel, popen_args))
            )
        except BaseException:
            loop.stop()
            raise
        return cls(protocol, loop)

    def _call(self, coroutine: Coroutine[Any, Any, _T]) -> _T:
        """Runs a coroutine of the engine on its loop and waits for it."""
        if self._closed:
            coroutine.close()
            raise EngineTerminatedError("the engine was closed")
        return _result(self._loop.submit(coroutine))

    @property
    def _connection(self) -> _ConnectionView:
        return _ConnectionView(self)

    @property
    def id(self) -> dict[str, str]:
        """What the engine said about itself: ``name``, ``author``."""
        return self.protocol.id

    @property
    def options(self) -> Mapping[str, Option]:
        """The options the engine announced, by name (any case)."""
        return self.protocol.options

    @property
    def config(self) -> dict[str, OptionValue]:
        """The option values sent to the engine so far."""
        return self.protocol.config

    @property
    def timeout(self) -> float | None:
        """Seconds for a quick exchange, added to a search's own time (see :class:`SimpleEngine`)."""
        return self.protocol.timeout

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        self.protocol.timeout = _check_timeout("timeout", value)

    @property
    def search_timeout(self) -> float | None:
        """Seconds a search bounded only by depth, nodes or mate may take."""
        return self.protocol.search_timeout

    @search_timeout.setter
    def search_timeout(self, value: float | None) -> None:
        self.protocol.search_timeout = _check_timeout("search_timeout", value)

    def configure(self, options: Mapping[str, OptionValue]) -> None:
        """Sets options: :meth:`UciProtocol.configure`."""
        self._call(self.protocol.configure(options))

    def ping(self) -> None:
        """``isready`` … ``readyok``: :meth:`UciProtocol.ping`."""
        self._call(self.protocol.ping())

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
        """The engine's move (python-chess's ``play``), as :meth:`UciProtocol.play`: a
        :class:`~congo.engine.PlayResult` with ``move`` (``None`` if the engine has none),
        ``ponder`` and the last ``info`` of the best line. ``ponder=True``: the engine goes on
        thinking about the expected reply until the next command; ``game``: when it differs from
        the previous call's, the engine is told ``ucinewgame``; ``options``: for this search (kept
        until changed); ``timeout``: the most seconds to wait for the answer."""
        _check_timeout("timeout", timeout)
        return self._call(
            self.protocol.play(
                board,
                limit,
                ponder=ponder,
                root_moves=root_moves,
                game=game,
                options=options,
                timeout=timeout,
            )
        )

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
        """Analyses a position (python-chess's ``analyse``), as :meth:`UciProtocol.analyse`: the
        :data:`~congo.engine.InfoDict` of the best line, or with ``multipv=N`` a list of the best
        ``N`` lines' infos, best first."""
        _check_timeout("timeout", timeout)
        return self._call(
            self.protocol.analyse(
                board,
                limit,
                multipv=multipv,
                root_moves=root_moves,
                game=game,
                options=options,
                timeout=timeout,
            )
        )

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
        """Starts an analysis and returns once the engine searches (python-chess's ``analysis``):
        an :class:`AnalysisResult` to iterate over infos as they come, with
        :meth:`~AnalysisResult.stop` and :meth:`~AnalysisResult.wait`; as a context manager it
        stops the analysis at the end of the block. With no ``limit`` the engine searches until
        stopped (or until ``timeout``, if given); with a limit, ``timeout`` is as with :meth:`play`.
        Raises like :meth:`play`; an error or a timeout during the analysis comes out of
        :meth:`AnalysisResult.wait` and of the iteration."""
        _check_timeout("timeout", timeout)
        return self._call(
            self._start_analysis(
                board,
                limit,
                multipv=multipv,
                root_moves=root_moves,
                game=game,
                options=options,
                timeout=timeout,
            )
        )

    async def _start_analysis(
        self,
        board: Board,
        limit: Limit | None,
        *,
        multipv: int | None,
        root_moves: Iterable[Move] | None,
        game: object,
        options: Mapping[str, OptionValue] | None,
        timeout: float | _Unset | None,
    ) -> AnalysisResult:
        inner = await self.protocol.analysis(
            board, limit, multipv=multipv, root_moves=root_moves, game=game, options=options, timeout=timeout
        )
        loop = asyncio.get_running_loop()
        outer = AnalysisResult(lambda: loop.call_soon_threadsafe(inner.stop))
        self.protocol._spawn(_forward(inner, outer))
        return outer

    def quit(self) -> None:
        """Ends the engine: stops what it is doing, says ``quit``, waits up to ``timeout`` for it
        to exit and kills it otherwise. Idempotent; the engine cannot be used afterwards."""
        if self._closed:
            return
        try:
            with contextlib.suppress(EngineError):
                self._call(self.protocol.quit())
        finally:
            self._closed = True
            self._finalizer()
            if threading.current_thread() is not self._loop.thread:
                self._loop.thread.join(10)

    close = quit

    def kill(self) -> None:
        """Kills the engine process at once, from any thread (a call waiting on it raises
        :class:`EngineTerminatedError`). For emergencies such as Ctrl-C; :meth:`quit` is the
        orderly way."""
        self.protocol.kill()

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(self, *_: object) -> None:
        self.quit()

    def __repr__(self) -> str:
        name = self.id.get("name", "?")
        return f"<SimpleEngine (pid={self.protocol.pid}) {name!r}>"
