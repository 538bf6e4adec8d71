"""The engine's process: started in a process group of its own, its output read in blocks and split
into bounded lines by threads of their own, its input written by a thread of its own, so that no
wait on a dead, silent or flooding engine lasts past its deadline. The lines it carries are
:mod:`congo._uci_protocol`'s.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any, Callable, Union

if TYPE_CHECKING:
    pass

from congo._uci_protocol import EngineTerminatedError, EngineTimeoutError

LOGGER = logging.getLogger("congo.engine")

Deadline = Union[float, None, Callable[[], Union[float, None]]]
"""When a wait ends: a ``time.monotonic()`` value, none, or a function giving one."""

_MAX_LINE = 1 << 20
"""The longest line read from an engine (bytes, without its line end); a longer one is skipped whole."""

_READ_CHUNK = 1 << 16
"""Bytes asked for by each read of the engine's output."""

_MAX_PENDING = 16 << 20
"""About how many bytes of the engine's output may wait to be taken before its reader waits."""


class _TooLong:
    """Stands for a line longer than :data:`_MAX_LINE`, skipped whole (``size`` bytes)."""

    __slots__ = ("size",)

    def __init__(self, size: int) -> None:
        self.size = size


def _split_lines(read: Callable[[int], bytes], max_line: int) -> Iterator[list[bytes | _TooLong]]:
    """The lines of a byte stream read in blocks (``read(n)`` returns at most ``n`` bytes, ``b""``
    at its end), without their line ends, in batches (those each block completes). A line longer
    than ``max_line`` bytes is never held in memory or cut into pieces: it comes out once, as a
    :class:`_TooLong`. A last line without a line end still counts."""
    pending = bytearray()
    skipped = 0  # bytes of an over-long line read so far (0: none)
    while True:
        chunk = read(_READ_CHUNK)
        if not chunk:
            break
        batch: list[bytes | _TooLong] = []
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end < 0 else chunk[start:end]
            if skipped:
                skipped += len(piece)
            elif len(pending) + len(piece) > max_line:
                skipped = len(pending) + len(piece)
                pending.clear()
            elif end >= 0 and not pending:
                batch.append(piece[:-1] if piece.endswith(b"\r") else piece)
                start = end + 1
                continue
            else:
                pending += piece
            if end < 0:
                break
            if skipped:
                batch.append(_TooLong(skipped))
                skipped = 0
            else:
                batch.append(bytes(pending[:-1] if pending.endswith(b"\r") else pending))
                pending.clear()
            start = end + 1
        if batch:
            yield batch
    if skipped:
        yield [_TooLong(skipped)]
    elif pending:
        yield [bytes(pending)]


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
                LOGGER.warning(
                    "skipped a line of %d bytes from the engine (lines are at most %d bytes)",
                    line.size,
                    _MAX_LINE,
                )
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
