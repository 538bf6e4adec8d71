"""The one progress reporter of the ``congo`` command line.

On a terminal it redraws one line of standard error in place. Anywhere else (a pipe, a file, a CI
log) it prints a whole line: when the work passes each tenth of its known length, at the end, and
in any case at least every :data:`INTERVAL` seconds (from a background thread, so that a long step
with no news, such as one root move of a deep perft, still shows that the command is alive).
Every long command uses it: perft, match, selfplay, tablebase generate/verify/stats, annotate.
"""

from __future__ import annotations

import sys
import threading
import time
from types import TracebackType
from typing import TextIO

INTERVAL = 10.0
"""Seconds between two progress lines at most when standard error is not a terminal."""


def bar(done: int, total: int, text: str, width: int = 30) -> str:
    """``[#####.....] 5/10 text``."""
    filled = width * done // total if total else width
    return f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {text}"


class Progress:
    """Progress of ``total`` steps (``None``: unknown) on ``stream`` (default: ``sys.stderr``).

    ``update(done, text)`` after each step; ``close()`` (or leaving the ``with`` block) clears the
    terminal line. Off a terminal, nothing is printed in the first ``grace`` seconds (quick work
    stays quiet), and ``interval`` is the longest silence (default :data:`INTERVAL`): the line is
    then repeated with how long the command has been running (``text`` until the first update)."""

    def __init__(
        self,
        total: int | None = None,
        *,
        stream: TextIO | None = None,
        interval: float | None = None,
        show_bar: bool = True,
        text: str = "",
        grace: float = 0.0,
    ) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.interval = INTERVAL if interval is None else interval
        self.show_bar = show_bar
        self.grace = grace
        self.interactive = _isatty(self.stream)
        self.started = time.monotonic()
        self._line = text
        self._tenth = -1
        self._printed = self.started
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._heartbeat: threading.Thread | None = None
        if not self.interactive and self.interval > 0:
            self._heartbeat = threading.Thread(target=self._beat, name="congo-progress", daemon=True)
            self._heartbeat.start()

    def line(self, done: int, text: str, total: int | None) -> str:
        if self.show_bar and total:
            return bar(done, total, text)
        return text

    def update(
        self, done: int, text: str = "", *, total: int | None = None, fraction: float | None = None
    ) -> None:
        """Step ``done`` of ``total`` (default: the total given at the start) is finished;
        ``fraction`` (0 … 1), if given, measures the tenths instead of ``done / total``."""
        total = self.total if total is None else total
        line = self.line(done, text, total)
        with self._lock:
            self._line = line
            if self.interactive:
                self._write("\r\x1b[2K" + line)
                return
            now = time.monotonic()
            if now - self.started < self.grace:
                return
            if fraction is None:
                fraction = done / total if total else None
            tenth = -1 if fraction is None else min(10, int(10 * fraction))
            if (tenth != -1 and tenth != self._tenth) or now - self._printed >= self.interval:
                self._tenth = tenth
                self._printed = now
                self._write(line + "\n")

    def note(self, text: str) -> None:
        """A line of its own (e.g. a warning), printed above the progress line."""
        with self._lock:
            if self.interactive:
                self._write("\r\x1b[2K" + text + "\n" + self._line)
            else:
                self._write(text + "\n")

    def close(self) -> None:
        """Stops the heartbeat and clears the terminal line."""
        self._closed.set()
        if self._heartbeat is not None and self._heartbeat is not threading.current_thread():
            self._heartbeat.join()
        with self._lock:
            if self.interactive and self._line:
                self._write("\r\x1b[2K")
            self._line = ""

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def _beat(self) -> None:
        while not self._closed.wait(min(self.interval, 1.0) if self.interval > 1 else self.interval):
            with self._lock:
                now = time.monotonic()
                if now - self._printed < self.interval:
                    continue
                self._printed = now
                elapsed = now - self.started
                self._write(
                    f"{self._line}  ({elapsed:.0f} s)\n" if self._line else f"working ({elapsed:.0f} s)\n"
                )

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # stderr closed: progress is not worth a crash
            pass


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
