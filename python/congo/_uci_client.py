"""Driving an engine that speaks the protocol of ``docs/protocol.md`` (``congo uci``, or any
program in any language) from Python, the way python-chess drives UCI chess engines.

>>> from congo.engine import SimpleEngine, Limit
>>> engine = SimpleEngine.popen_uci(["congo", "uci"])          # doctest: +SKIP
>>> engine.play(congo.Board(), Limit(time=0.1)).move            # doctest: +SKIP
Move.from_uci('a1c3')
>>> engine.quit()                                               # doctest: +SKIP

Everything here is re-exported from :mod:`congo.engine`. One thread per engine reads its output, so
no call ever blocks on a dead or silent engine past its timeout: a process that dies raises
:class:`EngineTerminatedError`, one that does not answer in time ``TimeoutError``, and one that answers
nonsense :class:`EngineError`.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import enum
import logging
import os
import queue
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, TYPE_CHECKING, Any, Callable, Union

from congo._core import STARTING_FEN, Move, Position
from congo._results import InfoDict, PlayResult, PovScore, Score
from congo.board import Board
from congo.pieces import BLACK, PAWN, WHITE

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

OptionValue = Union[str, int, bool, None]

Deadline = Union[float, None, Callable[[], Union[float, None]]]
"""When a wait ends: a ``time.monotonic()`` value, none, or a function giving one."""

_MAX_LINE = 1 << 20
"""The longest line read from an engine (bytes, without its line end); a longer one is skipped whole."""

_READ_CHUNK = 1 << 16
"""Bytes asked for by each read of the engine's output."""

_MAX_PENDING = 16 << 20
"""About how many bytes of the engine's output may wait to be taken before its reader waits."""

_STOP_GRACE = 2.0
"""Seconds an engine gets to answer ``stop`` with its ``bestmove`` before it is given up."""

_MANAGED_OPTIONS = ("multipv", "ponder")
"""Options that :meth:`SimpleEngine.analyse` and :meth:`SimpleEngine.play` set themselves."""

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


def _is_error(line: str) -> bool:
    """Whether a line is an error report: ``info string error…`` (``docs/protocol.md``)."""
    words = line.split(None, 3)
    return len(words) >= 3 and words[:2] == ["info", "string"] and words[2].lower().startswith("error")


def _error_text(line: str) -> str:
    """What an ``info string error: …`` line says, without its prefix."""
    text = line.split(None, 2)[2]
    return text[len("error") :].lstrip(" :") or text


def _log_engine_string(text: str) -> None:
    """Logs an engine's ``info string``: a ``warning: …`` (an option without effect, say) at WARNING,
    so that it is seen by default, the rest at INFO."""
    if text.startswith("warning:"):
        LOGGER.warning("engine: %s", text)
    else:
        LOGGER.info("engine: %s", text)


class EngineError(RuntimeError):
    """The engine did something the protocol does not allow: an answer that makes no sense, an
    illegal move, an option it does not have."""


class EngineTerminatedError(EngineError):
    """The engine process is gone (it exited, crashed or was killed), or was closed."""


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine did not answer in time: a quick exchange within the engine's ``timeout``, a
    search within its own time plus ``timeout`` (or ``search_timeout`` when only depth, nodes or
    mate bound it). Both an :class:`EngineError` and a ``TimeoutError``. The engine is usable
    afterwards if it answered ``stop``; otherwise it was killed and later calls raise
    :class:`EngineTerminatedError`."""


class AnalysisComplete(Exception):
    """Raised by :meth:`AnalysisResult.get` when the analysis is over and every info was taken."""


@dataclasses.dataclass(frozen=True)
class Option:
    """An option the engine announced (python-chess's ``Option``): ``type`` is ``"spin"``,
    ``"check"``, ``"combo"``, ``"button"`` or ``"string"``."""

    name: str
    type: str
    default: OptionValue
    min: int | None
    max: int | None
    var: list[str]

    def parse(self, value: OptionValue) -> OptionValue:
        """``value`` checked against the option's type and range. Raises :class:`EngineError`."""
        if self.type == "check":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return value.lower() == "true"
            raise EngineError(f"option {self.name!r} takes true or false, got {value!r}")
        if self.type == "spin":
            try:
                number = int(value)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                raise EngineError(f"option {self.name!r} takes an integer, got {value!r}") from None
            if isinstance(value, bool) or (self.min is not None and number < self.min):
                raise EngineError(f"option {self.name!r} must be at least {self.min}, got {value!r}")
            if self.max is not None and number > self.max:
                raise EngineError(f"option {self.name!r} must be at most {self.max}, got {value!r}")
            return number
        if self.type == "combo":
            if value not in self.var:
                raise EngineError(f"option {self.name!r} must be one of {self.var}, got {value!r}")
            return value
        if self.type == "button":
            if value is not None:
                raise EngineError(f"option {self.name!r} is a button: it takes None, got {value!r}")
            return None
        text = "" if value is None else str(value)
        if "\n" in text or "\r" in text:
            raise EngineError(f"option {self.name!r}: a value cannot contain a line break")
        return text

    def is_managed(self) -> bool:
        """Whether the client sets this option itself (``MultiPV``, ``Ponder``, ``UCI_…``)."""
        return self.name.lower() in _MANAGED_OPTIONS or self.name.lower().startswith("uci_")


class _Options(Mapping[str, Option]):
    """The announced options, looked up without regard to case (as the protocol asks)."""

    def __init__(self) -> None:
        self._options: dict[str, Option] = {}

    def add(self, option: Option) -> None:
        self._options[option.name.lower()] = option

    def __getitem__(self, name: str) -> Option:
        return self._options[name.lower()]

    def __iter__(self) -> Iterator[str]:
        return (option.name for option in self._options.values())

    def __len__(self) -> int:
        return len(self._options)

    def __repr__(self) -> str:
        return f"<Options {list(self)}>"


@dataclasses.dataclass
class BestMove:
    """The end of a search: the move and the expected reply (python-chess's ``BestMove``)."""

    move: Move | None
    ponder: Move | None


def _parse_option(line: str) -> Option | None:
    """An ``option name … type …`` line, or ``None`` if it is malformed."""
    tokens = line.split()
    if len(tokens) < 5 or tokens[1] != "name" or "type" not in tokens[2:]:
        return None
    type_at = tokens.index("type", 2)
    name = " ".join(tokens[2:type_at])
    if not name or type_at + 1 >= len(tokens):
        return None
    kind = tokens[type_at + 1]
    fields: dict[str, list[str]] = {"default": [], "min": [], "max": []}
    var: list[str] = []
    current: list[str] | None = None
    for token in tokens[type_at + 2 :]:
        if token in fields:
            current = fields[token]
        elif token == "var":
            var.append("")
            current = None
        elif current is not None:
            current.append(token)
        elif var:
            var[-1] = f"{var[-1]} {token}".strip()
    default_text = " ".join(fields["default"])
    try:
        low = int(fields["min"][0]) if fields["min"] else None
        high = int(fields["max"][0]) if fields["max"] else None
        default: OptionValue
        if kind == "spin":
            default = int(default_text) if default_text else None
        elif kind == "check":
            default = default_text.lower() == "true"
        elif kind == "button":
            default = None
        elif kind in ("combo", "string"):
            default = "" if default_text == "<empty>" else default_text
        else:
            return None
    except ValueError:
        return None
    return Option(name, kind, default, low, high, var)


def _parse_move(board: Board, text: str) -> Move | None:
    try:
        return board.parse_uci(text)
    except ValueError:
        return None


_INFO_INTEGERS = frozenset(
    ("depth", "seldepth", "nodes", "nps", "hashfull", "multipv", "currmovenumber", "tbhits")
)


def _parse_info(line: str, board: Board) -> InfoDict:
    """An ``info …`` line as an :data:`InfoDict`; what does not parse is left out (and logged)."""
    info: InfoDict = {}
    tokens = line.split()[1:]
    i = 0
    integers = _INFO_INTEGERS
    while i < len(tokens):
        key = tokens[i]
        i += 1
        try:
            if key in integers:
                info[key] = int(tokens[i])  # type: ignore[literal-required]
                i += 1
            elif key == "time":
                info["time"] = int(tokens[i]) / 1000
                i += 1
            elif key == "score":
                kind, value = tokens[i], int(tokens[i + 1])
                i += 2
                if kind == "cp":
                    relative = Score(cp=value)
                elif kind == "mate":
                    relative = Score(mate=value)
                else:
                    raise ValueError(f"score {kind}")
                info["score"] = PovScore(relative, board.turn)
                while i < len(tokens) and tokens[i] in ("lowerbound", "upperbound"):
                    info[tokens[i]] = True  # type: ignore[literal-required]
                    i += 1
            elif key == "currmove":
                move = _parse_move(board, tokens[i])
                i += 1
                if move is not None:
                    info["currmove"] = move
            elif key == "pv":
                info["pv"] = _parse_line(board, tokens[i:])
                i = len(tokens)
            elif key == "string":
                info["string"] = line.split(None, 2)[2] if len(line.split(None, 2)) > 2 else ""
                i = len(tokens)
            elif key in ("refutation", "currline"):
                i = len(tokens)  # moves to the end of the line, not kept
        except (IndexError, ValueError) as error:
            LOGGER.warning("ignoring a malformed part of %r: %s", line, error)
    return info


def _merge(into: InfoDict, info: InfoDict) -> None:
    """Adds a newer info to what is known of a line: a new score replaces the old one's bounds."""
    if "score" in info:
        into.pop("lowerbound", None)
        into.pop("upperbound", None)
    into.update(info)


def _parse_line(board: Board, texts: list[str]) -> list[Move]:
    """The moves of a principal variation, as far as they are legal in turn."""
    walker = Board.from_position(board.position)
    moves: list[Move] = []
    for text in texts:
        move = _parse_move(walker, text)
        if move is None:
            LOGGER.warning("ignoring the rest of a principal variation from %r on", text)
            break
        walker.push(move)
        moves.append(move)
    return moves


def _material(position: Position) -> tuple[int, int]:
    """What only an irreversible move changes (``rules::repetition``): the pieces and the pawns."""
    pawns = position.pieces_mask(PAWN, WHITE) | position.pieces_mask(PAWN, BLACK)
    return bin(position.occupied_mask()).count("1"), bin(pawns).count("1")


def _since_irreversible(board: Board) -> tuple[Position, list[Move]]:
    """The position after the board's last irreversible move (a capture, a drowning or a promotion)
    and the moves since: all an engine needs for repetitions, since no earlier position can recur.

    Material never grows in a game, so the positions with the current material are the last ones
    of the move stack: a search over the stack's tails (doubling, then halving) finds the first of
    them in time that grows with their number only."""
    history, current = board._history, board.position
    now = _material(current)
    if _material(history.root(current)) == now:
        return history.root(current), history.moves()

    def same(tail: int) -> bool:
        return _material(history.copy(tail).root(current)) == now

    low, high = 0, 1  # same(low) holds; high: a tail that may not
    while same(high):
        low, high = high, 2 * high
    high -= 1  # the longest tail with the current material lies in low … high
    while low < high:
        middle = (low + high + 1) // 2
        if same(middle):
            low = middle
        else:
            high = middle - 1
    tail = history.copy(low)
    return tail.root(current), tail.moves()


def _position_command(board: Board) -> str:
    """The ``position`` command of a board, as short as repetitions allow: the position after its
    last irreversible move and the moves since (the whole game when there was none)."""
    root, moves = _since_irreversible(board)
    fen = root.fen()
    start = "startpos" if fen == STARTING_FEN else f"fen {fen}"
    return f"position {start} moves {' '.join(m.uci() for m in moves)}" if moves else f"position {start}"


def _millis(seconds: float) -> int:
    return max(0, round(seconds * 1000))


def _go_command(
    limit: Limit | None,
    *,
    root_moves: list[Move] | None = None,
    ponder: bool = False,
    infinite: bool = False,
) -> str:
    parts = ["go"]
    if ponder:
        parts.append("ponder")
    if limit is not None:
        for name, value in (("wtime", limit.white_clock), ("btime", limit.black_clock)):
            if value is not None:
                parts += [name, str(_millis(value))]
        for name, value in (("winc", limit.white_inc), ("binc", limit.black_inc)):
            if value is not None:
                parts += [name, str(_millis(value))]
        if limit.remaining_moves is not None:
            parts += ["movestogo", str(limit.remaining_moves)]
        if limit.depth is not None:
            parts += ["depth", str(limit.depth)]
        if limit.nodes is not None:
            parts += ["nodes", str(limit.nodes)]
        if limit.mate is not None:
            parts += ["mate", str(limit.mate)]
        if limit.time is not None:
            parts += ["movetime", str(max(1, _millis(limit.time)))]
    if infinite:
        parts.append("infinite")
    if root_moves is not None:
        parts += ["searchmoves", *(m.uci() for m in root_moves)]
    return " ".join(parts)


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
        **popen_args: Any,
    ) -> SimpleEngine:
        """Starts an engine and shakes hands (``uci`` … ``uciok``). ``command`` is the program's path
        or its argument list (``["congo", "uci"]``), as with python-chess; ``popen_args`` go to
        ``subprocess.Popen``. ``timeout`` and ``search_timeout``: see :class:`SimpleEngine`.
        Raises ``OSError`` if the program cannot be started, :class:`EngineTimeoutError` (a
        ``TimeoutError``) if it does not complete the handshake within ``timeout`` seconds,
        :class:`EngineTerminatedError` if it exits, and ``ValueError`` for a negative or NaN
        timeout."""
        _check_timeout("timeout", timeout)
        _check_timeout("search_timeout", search_timeout)
        args = [command] if isinstance(command, str) else list(command)
        connection = _Connection(args, popen_args)
        engine = cls(connection, timeout=timeout, search_timeout=search_timeout)
        try:
            engine._handshake()
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

    def _handshake(self) -> None:
        self._send("uci")
        deadline = self._deadline()
        options = _Options()
        while True:
            line = self._connection.read(deadline, "during the handshake (uci)")
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
