"""The engine's process: started in a process group of its own, its output split into bounded
lines, its input written with a deadline, so that no wait on a dead, silent or flooding engine
lasts past its deadline. The lines it carries are :mod:`congo._uci_protocol`'s.

:class:`_EngineProcess` is the process under asyncio, the one every engine client uses
(:mod:`congo._uci_client`: ``UciProtocol``, and ``SimpleEngine`` over it). :class:`_Connection`
is the same with threads of its own and blocking calls, for ``congo uci-check``, whose strict
session reads the raw lines itself. Both split lines with :class:`_LineSplitter`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from typing import IO, Any, Callable, Union, cast

from congo._uci_protocol import EngineTerminatedError, EngineTimeoutError

LOGGER = logging.getLogger("congo.engine")

Deadline = Union[float, None, Callable[[], Union[float, None]]]
"""When a wait ends: a ``time.monotonic()`` value, none, or a function giving one."""

_MAX_LINE = 1 << 20
"""The longest line read from an engine (bytes, without its line end); a longer one is skipped whole."""

_READ_CHUNK = 1 << 16
"""Bytes asked for by each read of the engine's output."""

_WAKE_PENDING = 1 << 20
"""Bytes waiting that wake a reader whatever lines it waits for (:meth:`_EngineProcess.readline`'s
``wake``): a long search's infos are taken a megabyte at a time, not all at its end."""

_MAX_PENDING = 16 << 20
"""About how many bytes of the engine's output may wait to be taken before its reader waits."""


class _TooLong:
    """Stands for a line longer than :data:`_MAX_LINE`, skipped whole (``size`` bytes)."""

    __slots__ = ("size",)

    def __init__(self, size: int) -> None:
        self.size = size

    def warn(self) -> None:
        """Says that the line was skipped (both readers of an engine's output, threaded and
        asyncio, skip such a line and read on)."""
        LOGGER.warning(
            "skipped a line of %d bytes from the engine (lines are at most %d bytes)", self.size, _MAX_LINE
        )


class _LineSplitter:
    """Splits a byte stream fed in blocks into lines without their line ends. A line longer than
    ``max_line`` bytes is never held in memory or cut into pieces: it comes out once, as a
    :class:`_TooLong`."""

    __slots__ = ("_max_line", "_pending", "_skipped")

    def __init__(self, max_line: int) -> None:
        self._max_line = max_line
        self._pending = bytearray()
        self._skipped = 0  # bytes of an over-long line read so far (0: none)

    def idle(self) -> bool:
        """Whether no part of a line is held (the last block ended with a line end)."""
        return not self._pending and not self._skipped

    def feed(self, chunk: bytes) -> list[bytes | _TooLong]:
        """The lines this block completes."""
        batch: list[bytes | _TooLong] = []
        pending = self._pending
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end < 0 else chunk[start:end]
            if self._skipped:
                self._skipped += len(piece)
            elif len(pending) + len(piece) > self._max_line:
                self._skipped = len(pending) + len(piece)
                pending.clear()
            elif end >= 0 and not pending:
                batch.append(piece[:-1] if piece.endswith(b"\r") else piece)
                start = end + 1
                continue
            else:
                pending += piece
            if end < 0:
                return batch
            if self._skipped:
                batch.append(_TooLong(self._skipped))
                self._skipped = 0
            else:
                batch.append(bytes(pending[:-1] if pending.endswith(b"\r") else pending))
                pending.clear()
            start = end + 1

    def end(self) -> list[bytes | _TooLong]:
        """What is left at the end of the stream: a last line without a line end still counts."""
        if self._skipped:
            skipped, self._skipped = self._skipped, 0
            return [_TooLong(skipped)]
        if self._pending:
            last = bytes(self._pending)
            self._pending.clear()
            return [last]
        return []


def _split_lines(read: Callable[[int], bytes], max_line: int) -> Iterator[list[bytes | _TooLong]]:
    """The lines of a byte stream read in blocks (``read(n)`` returns at most ``n`` bytes, ``b""``
    at its end), in batches (those each block completes), split by a :class:`_LineSplitter`."""
    splitter = _LineSplitter(max_line)
    while True:
        chunk = read(_READ_CHUNK)
        if not chunk:
            break
        batch = splitter.feed(chunk)
        if batch:
            yield batch
    rest = splitter.end()
    if rest:
        yield rest


_Line = Union[str, _TooLong, None]
"""A line of the engine's output, an over-long line skipped, or ``None`` for the end of it."""


class _LineBuffer:
    """The engine's lines not yet taken, in batches, bounded: when :data:`_MAX_PENDING` bytes
    wait, the reading thread waits too (and the engine blocks on its output), so that a flood
    never fills the memory."""

    def __init__(self) -> None:
        self._batches: collections.deque[tuple[list[_Line], int]] = collections.deque()
        self._size = 0
        self._ready = threading.Condition()
        self.closed = False

    def put(self, batch: list[_Line]) -> None:
        size = sum(len(item) + 64 if isinstance(item, str) else 64 for item in batch)
        with self._ready:
            while self._size >= _MAX_PENDING and not self.closed:
                self._ready.wait()
            self._batches.append((batch, size))
            self._size += size
            self._ready.notify_all()

    def get(self, timeout: float) -> list[_Line]:
        """The next batch; raises ``queue.Empty`` after ``timeout`` seconds without one."""
        with self._ready:
            if not self._batches and not self._ready.wait_for(lambda: self._batches, timeout):
                raise queue.Empty
            batch, size = self._batches.popleft()
            self._size -= size
            self._ready.notify_all()
            return batch

    def close(self) -> None:
        """Lets a waiting reader go (what it still puts is kept, but never makes it wait)."""
        with self._ready:
            self.closed = True
            self._ready.notify_all()


class _Connection:
    """The engine process: its output read in blocks and split into bounded lines on threads of
    their own, its input written by a thread of its own (so that a write to an engine that reads
    nothing has an end too)."""

    def __init__(self, args: list[str], popen_args: dict[str, Any]) -> None:
        # On POSIX the engine gets a process group of its own (unless the caller arranges one):
        # a wrapper script's children die with it (a killed `sh -c "engine"` left its engine
        # running), and a Ctrl-C at the terminal reaches the client, which stops the search.
        self._own_group = os.name == "posix" and not (
            {"start_new_session", "process_group", "preexec_fn"} & popen_args.keys()
        )
        if self._own_group:
            popen_args = {**popen_args, "start_new_session": True}
        self.process = subprocess.Popen(
            args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            **popen_args,
        )
        self.lines = _LineBuffer()
        self._taken: collections.deque[_Line] = collections.deque()  # the rest of a batch
        self._debug = False
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        self.eof = False
        self.closed = False
        self.broken_input = False
        self._writes: queue.SimpleQueue[tuple[bytes, threading.Event] | None] = queue.SimpleQueue()
        threading.Thread(target=self._read_stdout, name="congo-engine-stdout", daemon=True).start()
        self._stderr_reader = threading.Thread(
            target=self._read_stderr, name="congo-engine-stderr", daemon=True
        )
        self._stderr_reader.start()
        threading.Thread(target=self._write_stdin, name="congo-engine-stdin", daemon=True).start()

    @staticmethod
    def _pipe_lines(pipe: IO[bytes] | None, take: Callable[[list[_Line]], object]) -> None:
        """Hands the lines of a pipe, in batches, to ``take`` until the pipe ends (or fails)."""
        assert pipe is not None
        with contextlib.suppress(OSError, ValueError):
            for batch in _split_lines(pipe.read, _MAX_LINE):
                take([raw if isinstance(raw, _TooLong) else raw.decode("utf-8", "replace") for raw in batch])

    def _read_stdout(self) -> None:
        self._pipe_lines(self.process.stdout, self.lines.put)
        self.lines.put([None])

    def _read_stderr(self) -> None:
        def keep(batch: list[_Line]) -> None:
            for line in batch:
                text = f"<a line of {line.size} bytes>" if isinstance(line, _TooLong) else str(line)
                self.stderr_tail.append(text if len(text) <= 1000 else text[:1000] + "…")

        self._pipe_lines(self.process.stderr, keep)

    def _write_stdin(self) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        while True:
            item = self._writes.get()
            if item is None:
                return
            data, done = item
            try:
                stdin.write(data)
                stdin.flush()
            except (OSError, ValueError):
                self.broken_input = True
            done.set()

    def terminated_error(self, doing: str) -> EngineTerminatedError:
        if self.closed:
            return EngineTerminatedError("the engine was closed")
        try:
            code = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        if code is None:  # it closed a pipe but runs on: it can answer nothing more
            pipe = "input" if self.broken_input and not self.eof else "output"
            self.kill()
            tail = "; its last words: " + " | ".join(self.stderr_tail) if self.stderr_tail else ""
            return EngineTerminatedError(f"the engine closed its {pipe} {doing} and was killed{tail}")
        self._stderr_reader.join(timeout=1.0)  # its last words may still be in the pipe
        detail = f" (exit code {code})"
        tail = "; its last words: " + " | ".join(self.stderr_tail) if self.stderr_tail else ""
        return EngineTerminatedError(f"the engine process died {doing}{detail}{tail}")

    def send(self, line: str, deadline: float | None) -> None:
        """Writes a line, waiting until ``deadline`` (a ``time.monotonic()`` value) at most for the
        engine to take it; an engine that does not is killed (:class:`EngineTimeoutError`)."""
        if self.eof or self.closed or self.broken_input or self.process.poll() is not None:
            raise self.terminated_error("before a command could be sent")
        LOGGER.debug("%d << %s", self.process.pid, line)
        done = threading.Event()
        self._writes.put((line.encode("utf-8") + b"\n", done))
        while not done.wait(0.1 if deadline is None else max(0.0, min(deadline - time.monotonic(), 0.1))):
            if deadline is not None and time.monotonic() >= deadline:
                self.kill()
                raise EngineTimeoutError("the engine did not read its input in time and was killed")
        if self.broken_input:
            raise self.terminated_error("while a command was sent")

    def read(self, deadline: Deadline, doing: str) -> str:
        """The next line, waiting until ``deadline`` (a ``time.monotonic()`` value, or a function
        giving it, looked at again while waiting) at most. A line longer than :data:`_MAX_LINE` is
        skipped whole (and logged)."""
        if self.eof:
            raise self.terminated_error(doing)
        while True:
            limit = deadline() if callable(deadline) else deadline
            remaining = None if limit is None else limit - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise EngineTimeoutError(f"the engine did not answer in time {doing}")
            if not self._taken:
                try:
                    # Short waits keep Ctrl-C responsive on every platform.
                    self._taken.extend(self.lines.get(0.1 if remaining is None else min(remaining, 0.1)))
                except queue.Empty:
                    continue
                self._debug = LOGGER.isEnabledFor(logging.DEBUG)  # once a batch: floods are cheap
            line = self._taken.popleft()
            if line is None:
                self.eof = True
                raise self.terminated_error(doing)
            if isinstance(line, _TooLong):
                line.warn()
                continue
            if self._debug:
                LOGGER.debug("%d >> %s", self.process.pid, line)
            return line

    def kill(self) -> None:
        self.closed = True
        if self._own_group:  # the engine and whatever it started
            with contextlib.suppress(OSError):
                os.killpg(self.process.pid, signal.SIGKILL)
        if self.process.poll() is None:
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        self.lines.close()
        self._writes.put(None)
        for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()


def _close_connection(connection: _Connection) -> None:
    """The finalizer of an engine that was never closed: no process outlives its client."""
    if not connection.closed:
        connection.kill()


class _DirectReader(asyncio.Protocol):
    """Hands an output pipe's data to :meth:`_EngineProcess.pipe_data_received` in the read's own
    callback. asyncio's subprocess transport passes every read on with ``call_soon``: one more
    turn of the loop for each block of output, a third of a short round trip's turns. The
    pipe's end still goes through the subprocess transport (which learns from it that the pipe
    is closed, after any data, as before)."""

    def __init__(self, process: _EngineProcess, fd: int, inner: asyncio.BaseProtocol) -> None:
        self._process = process
        self._fd = fd
        self._inner = inner

    @classmethod
    def install(cls, process: _EngineProcess, fd: int, pipe: asyncio.BaseTransport | None) -> None:
        """Puts a direct reader on ``pipe`` if its transport allows it (asyncio's and uvloop's
        do); otherwise the data comes the long way."""
        try:
            inner = pipe.get_protocol() if pipe is not None else None
            if inner is None or not hasattr(inner, "data_received"):
                return
            pipe.set_protocol(cls(process, fd, inner))  # type: ignore[union-attr]
        except (AttributeError, NotImplementedError):
            return

    def data_received(self, data: bytes) -> None:
        self._process.pipe_data_received(self._fd, data)

    def eof_received(self) -> bool | None:
        return cast(asyncio.Protocol, self._inner).eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self._inner.connection_lost(exc)


class _EngineProcess(asyncio.SubprocessProtocol):
    """The engine process under asyncio, for :class:`congo._uci_client.UciProtocol`: its output
    split into bounded lines as it arrives (reading pauses while :data:`_MAX_PENDING` bytes wait to
    be taken, so that a flood never fills the memory), its input written with an end to every
    wait (a command the engine does not take by its deadline kills it), the last lines of its
    error output kept for the error that reports its end.

    :meth:`poll`, :meth:`wait` and :meth:`kill` may be called from any thread (the synchronous
    :class:`~congo._uci_client.SimpleEngine` and a match's Ctrl-C do); everything else runs on the
    loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, own_group: bool) -> None:
        self._loop = loop
        self._own_group = own_group
        self._transport: asyncio.SubprocessTransport | None = None
        self._stdin: asyncio.WriteTransport | None = None
        self._stdout: asyncio.ReadTransport | None = None
        self._splitter = _LineSplitter(_MAX_LINE)
        self._stderr_splitter = _LineSplitter(_MAX_LINE)
        self._lines: collections.deque[_Line] = collections.deque()
        self._pending = 0  # bytes in _lines
        self._reading_paused = False
        self._writing_paused = False
        self._waiter: asyncio.Future[None] | None = None  # a reader waiting for lines
        self._wake: Callable[[str], bool] | None = None  # the lines it waits for (None: any)
        self._drainer: asyncio.Future[None] | None = None  # a writer waiting for the engine to read
        self._timer: asyncio.TimerHandle | None = None  # wakes a waiting reader: see _arm
        self._timer_when = 0.0
        self.pid = -1
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        self.eof = False  # the reader came to the end of the output
        self.closed = False  # killed by the client
        self.broken_input = False
        self.returncode: int | None = None
        self._exited = threading.Event()
        self._exit: asyncio.Future[int] = loop.create_future()
        self._stderr_done: asyncio.Future[None] = loop.create_future()

    @classmethod
    async def start(cls, args: list[str], popen_args: dict[str, Any]) -> _EngineProcess:
        """Starts the engine. Raises ``OSError`` if it cannot be started."""
        loop = asyncio.get_running_loop()
        # On POSIX the engine gets a process group of its own (unless the caller arranges one):
        # a wrapper script's children die with it (a killed `sh -c "engine"` left its engine
        # running), and a Ctrl-C at the terminal reaches the client, which stops the search.
        own_group = os.name == "posix" and not (
            {"start_new_session", "process_group", "preexec_fn"} & popen_args.keys()
        )
        if own_group:
            popen_args = {**popen_args, "start_new_session": True}
        process = cls(loop, own_group)
        await loop.subprocess_exec(
            lambda: process,
            *args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            **popen_args,
        )
        return process

    # -- asyncio's callbacks ------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # Cast, not checked: uvloop's transports (Ray's workers run on its loop) have asyncio's
        # methods without being its classes.
        transport = cast(asyncio.SubprocessTransport, transport)
        self._transport = transport
        self.pid = transport.get_pid()
        stdin = cast(asyncio.WriteTransport, transport.get_pipe_transport(0))
        stdout = cast(asyncio.ReadTransport, transport.get_pipe_transport(1))
        # Paused whenever a byte waits: a write is done once the engine has taken all of it.
        stdin.set_write_buffer_limits(high=0)
        self._stdin, self._stdout = stdin, stdout
        # asyncio's pipe transports read up to 256 KiB a call: a buffer that size is mapped and
        # unmapped by the C library for every read (above its mmap threshold), a good third of
        # a short round trip's cost (benches/engine_overhead.py). The engine's output comes in
        # lines; reads of _READ_CHUNK, as the threaded reader's, come from the heap.
        for fd in (1, 2):
            reader = transport.get_pipe_transport(fd)
            if getattr(reader, "max_size", 0) > _READ_CHUNK:
                with contextlib.suppress(AttributeError):  # a loop whose transports fix it
                    reader.max_size = _READ_CHUNK  # type: ignore[union-attr]
            _DirectReader.install(self, fd, reader)

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if fd == 2:
            self._keep_stderr(self._stderr_splitter.feed(data))
            return
        if data.endswith(b"\n") and len(data) <= _MAX_LINE and self._splitter.idle():
            # The common block, whole lines none of which can be too long: decoded and split at
            # once, the same lines as the splitter's (a line end is never inside a UTF-8 sequence).
            text = data.decode("utf-8", "replace")
            lines = text.split("\n")
            lines.pop()
            if "\r" in text:
                lines = [line[:-1] if line.endswith("\r") else line for line in lines]
            self._lines.extend(lines)
            self._pending += sum(map(len, lines)) + 64 * len(lines)
            self._taken(lines)
            return
        batch = self._splitter.feed(data)
        if batch:
            self._take(batch)

    def pipe_connection_lost(self, fd: int, exc: BaseException | None) -> None:
        if fd == 0:
            self.broken_input = True
            self._wake_drainer()
        elif fd == 1:
            self._take([*self._splitter.end(), None])
        elif fd == 2:
            self._keep_stderr(self._stderr_splitter.end())
            if not self._stderr_done.done():
                self._stderr_done.set_result(None)

    def process_exited(self) -> None:
        assert self._transport is not None
        code = self._transport.get_returncode()
        self.returncode = code
        self._exited.set()
        if not self._exit.done() and code is not None:
            self._exit.set_result(code)

    def pause_writing(self) -> None:
        self._writing_paused = True

    def resume_writing(self) -> None:
        self._writing_paused = False
        self._wake_drainer()

    def _take(self, batch: Sequence[bytes | _TooLong | None]) -> None:
        lines: list[_Line] = []
        for raw in batch:
            line: _Line = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
            lines.append(line)
            self._pending += len(line) + 64 if isinstance(line, str) else 64
        self._lines.extend(lines)
        self._taken(lines)

    def _taken(self, lines: Sequence[_Line]) -> None:
        """After ``lines`` were queued: reading pauses if too many wait; a waiting reader wakes,
        unless it waits for lines its :meth:`readline` named (``wake``) and these are none of them
        (then the lines wait in the queue for it: one turn of the loop saved)."""
        if self._pending >= _MAX_PENDING and not self._reading_paused and self._stdout is not None:
            self._reading_paused = True
            with contextlib.suppress(RuntimeError):
                self._stdout.pause_reading()
        if LOGGER.isEnabledFor(logging.DEBUG):  # as they come: a waiting reader may take them later
            for line in lines:
                if isinstance(line, str):
                    LOGGER.debug("%d >> %s", self.pid, line)
        waiter = self._waiter
        if waiter is None or waiter.done():
            return
        wake = self._wake
        if (
            wake is None
            or self._pending >= _WAKE_PENDING
            or any(not isinstance(line, str) or wake(line) for line in lines)
        ):
            waiter.set_result(None)

    def _keep_stderr(self, batch: list[bytes | _TooLong]) -> None:
        for raw in batch:
            text = (
                f"<a line of {raw.size} bytes>"
                if isinstance(raw, _TooLong)
                else raw.decode("utf-8", "replace")
            )
            self.stderr_tail.append(text if len(text) <= 1000 else text[:1000] + "…")

    def _wake_drainer(self) -> None:
        drainer = self._drainer
        if drainer is not None and not drainer.done():
            drainer.set_result(None)

    # -- reading and writing ------------------------------------------------------------------

    def _tail(self) -> str:
        return "; its last words: " + " | ".join(self.stderr_tail) if self.stderr_tail else ""

    async def terminated_error(self, doing: str) -> EngineTerminatedError:
        """The error that says the engine is gone, and how: waits a second at most for its exit
        code and its last words; one that closed its output but runs on is killed."""
        if self.closed:
            return EngineTerminatedError("the engine was closed")
        code = await self._wait_exit(1.0)
        if code is None:  # it closed a pipe but runs on: it can answer nothing more
            pipe = "input" if self.broken_input and not self.eof else "output"
            await self.aclose()
            return EngineTerminatedError(f"the engine closed its {pipe} {doing} and was killed{self._tail()}")
        # Its last words may still be in the pipe.
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._stderr_done), 1.0)
        return EngineTerminatedError(f"the engine process died {doing} (exit code {code}){self._tail()}")

    async def _wait_exit(self, timeout: float) -> int | None:
        if self.returncode is not None:
            return self.returncode
        try:
            return await asyncio.wait_for(asyncio.shield(self._exit), timeout)
        except asyncio.TimeoutError:
            return None

    def _usable(self) -> bool:
        return not (self.eof or self.closed or self.broken_input or self.returncode is not None)

    def write(self, text: str) -> None:
        """Writes lines (``text`` ends with a line end) without waiting; what the engine has not
        taken yet waits in the transport. For ``stop`` when a search is cancelled."""
        if self._usable() and self._stdin is not None:
            if LOGGER.isEnabledFor(logging.DEBUG):
                for line in text.splitlines():
                    LOGGER.debug("%d << %s", self.pid, line)
            self._stdin.write(text.encode("utf-8"))

    async def send(self, text: str, deadline: float | None) -> None:
        """Writes a line (or several, joined by line ends), waiting until ``deadline`` (a
        ``time.monotonic()`` value) at most for the engine to take them; an engine that does not is
        killed (:class:`EngineTimeoutError`)."""
        if not self._usable():
            raise await self.terminated_error("before a command could be sent")
        self.write(text + "\n")
        while self._writing_paused and not self.broken_input and not self.closed:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                await self.aclose()
                raise EngineTimeoutError("the engine did not read its input in time and was killed")
            drainer = self._drainer = self._loop.create_future()
            timer = None if remaining is None else self._loop.call_later(remaining, _wake, drainer)
            try:
                await drainer
            finally:
                self._drainer = None
                if timer is not None:
                    timer.cancel()
        if self.broken_input or self.closed:
            raise await self.terminated_error("while a command was sent")

    async def readline(
        self, deadline: Deadline, doing: str, wake: Callable[[str], bool] | None = None
    ) -> str:
        """The next line, waiting until ``deadline`` (a ``time.monotonic()`` value, or a function
        giving it, looked at again at least every tenth of a second while waiting) at most. A line
        longer than :data:`_MAX_LINE` is skipped whole (and logged).

        ``wake``: while this call waits, only a line for which it is true (or the end, or
        :data:`_WAKE_PENDING` bytes waiting) wakes it; the lines before are returned all the same,
        in order, from the queue. For a reader that needs nothing before a certain line: every
        block of output before it then costs no turn of the loop."""
        lines = self._lines
        while True:
            if not lines:
                if self.eof or self.closed:
                    raise await self.terminated_error(doing)
                await self._wait_lines(deadline, doing, wake)
                if not lines:
                    continue
            line = self._pop()
            if line is None:
                self.eof = True
                raise await self.terminated_error(doing)
            if isinstance(line, _TooLong):
                line.warn()
                continue
            return line

    def _pop(self) -> _Line:
        """Takes the next queued item (there is one); reading resumes once half the bound waits."""
        line = self._lines.popleft()
        self._pending -= len(line) + 64 if isinstance(line, str) else 64
        if self._reading_paused and self._pending < _MAX_PENDING // 2 and self._stdout is not None:
            self._reading_paused = False
            with contextlib.suppress(RuntimeError):
                self._stdout.resume_reading()
        return line

    def queued_line(self) -> str | None:
        """The next line if it has been read already (what :meth:`readline` would return at once,
        without a coroutine), otherwise ``None``: then :meth:`readline` waits for it, or says
        that the engine has gone."""
        lines = self._lines
        if lines and isinstance(lines[0], str):
            return cast(str, self._pop())
        return None

    async def _wait_lines(self, deadline: Deadline, doing: str, wake: Callable[[str], bool] | None) -> None:
        """Waits for a line (one for which ``wake`` is true, if given), the end, a kill or the
        deadline (:class:`EngineTimeoutError`)."""
        limit = deadline() if callable(deadline) else deadline
        remaining = None if limit is None else limit - time.monotonic()
        if remaining is not None and remaining <= 0:
            raise EngineTimeoutError(f"the engine did not answer in time {doing}")
        if callable(deadline):  # looked at again soon: it may change (or raise) meanwhile
            remaining = 0.1 if remaining is None else min(remaining, 0.1)
        waiter = self._waiter = self._loop.create_future()
        self._wake = wake
        if remaining is not None:
            self._arm(remaining)
        try:
            await waiter
        finally:
            self._waiter = None
            self._wake = None

    def _arm(self, remaining: float) -> None:
        """Makes sure a waiting reader is woken ``remaining`` seconds from now at the latest. One
        timer serves many waits (scheduling and cancelling one per wait was a good part of a
        round trip's cost): a timer set for an earlier wait's, earlier deadline only wakes the
        reader early, to look at its own deadline again and arm the timer anew."""
        when = self._loop.time() + remaining
        if self._timer is not None:
            if self._timer_when <= when:
                return
            self._timer.cancel()
        self._timer_when = when
        self._timer = self._loop.call_at(when, self._timer_fired)

    def _timer_fired(self) -> None:
        self._timer = None
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    # -- the end ------------------------------------------------------------------------------

    def poll(self) -> int | None:
        """The exit code, or ``None`` while the process runs (from any thread)."""
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Waits for the exit code (from any thread but the loop's). Raises
        ``subprocess.TimeoutExpired`` after ``timeout`` seconds."""
        if not self._exited.wait(timeout):
            raise subprocess.TimeoutExpired(f"engine {self.pid}", timeout or 0.0)
        assert self.returncode is not None
        return self.returncode

    def kill(self) -> None:
        """Kills the engine (and its process group) at once, from any thread: a wait on it ends
        with :class:`EngineTerminatedError`."""
        self.closed = True
        if self.returncode is None and self.pid > 0:
            if self._own_group:  # the engine and whatever it started
                with contextlib.suppress(OSError):
                    os.killpg(self.pid, signal.SIGKILL)
            with contextlib.suppress(OSError):  # Windows has no SIGKILL: any signal terminates
                os.kill(self.pid, getattr(signal, "SIGKILL", signal.SIGTERM))
        with contextlib.suppress(RuntimeError):  # a loop already closed has nobody to wake
            self._loop.call_soon_threadsafe(self._wake_all)

    def _wake_all(self) -> None:
        for future in (self._waiter, self._drainer):
            if future is not None and not future.done():
                future.set_result(None)

    async def aclose(self) -> None:
        """Kills the engine if it runs, waits (5 s at most) for its exit and closes the pipes."""
        if self.returncode is None:
            self.kill()
            await self._wait_exit(5.0)
        self.closed = True
        self._wake_all()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._transport is not None:
            self._transport.close()


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
