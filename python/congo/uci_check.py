"""``congo uci-check``: does an engine speak the protocol of ``docs/protocol.md``?

A compliance checker for bot authors, in the spirit of fastchess's ``--compliance``: it starts the
engine afresh for each check (so that one failure cannot hide the next), exchanges the lines a
controller such as ``congo match``, ``SimpleEngine`` or a GUI would, and judges the answers strictly:
the handshake, ``isready`` (also during a search), every option announced, ``ucinewgame``, every
``position`` and ``go`` form of the protocol, ``stop``, ``go infinite``, pondering, monkey-chain
moves, decided positions and ``quit``. Every ``bestmove`` must be legal in the position sent, and
every ``info`` line well formed (known fields, integers where integers belong, a principal variation
of legal moves from the position).

>>> report = check_engine(["congo", "uci"])          # doctest: +SKIP
>>> report.ok, len(report.failures)                  # doctest: +SKIP
(True, 0)

Each :class:`CheckResult` names what failed and keeps the last lines exchanged (``>`` sent to the
engine, ``<`` received), which is what the command prints.
"""

from __future__ import annotations

import collections
import dataclasses
import os
import shlex
import subprocess
import time
from collections.abc import Callable, Iterable, Sequence

from congo._uci_process import _Connection
from congo._uci_protocol import EngineTerminatedError, EngineTimeoutError, Option, _parse_option
from congo.board import Board

__all__ = ["CheckResult", "Report", "check_engine", "split_command"]

#: A position with a monkey on b1 that can jump twice (``b1d3f5``) or three times (``b1d3f5d7``).
CHAIN_FEN = "7/4l2/7/4c2/7/2p4/1M1L3 w 1"
#: The start after c2c3 g7f5 d2d3 e6e5, sent as a FEN.
MIDDLE_FEN = "gmelec1/pppp1pp/4pz1/7/2PP3/PP2PPP/GMELECZ w 3"
#: A decided position: bare lions, a draw; ``go`` must answer ``bestmove (none)``.
DECIDED_FEN = "2l4/7/7/7/7/7/4L2 w 1"

_SHOWN_SENT = 4
_SHOWN_RECEIVED = 8
"""A failure shows the last lines sent and received (a flood of ``info`` lines must not push the
``go`` that caused it out of sight), with ``…`` where lines are left out."""

_INFO_INTEGERS = frozenset(("depth", "seldepth", "nodes", "nps", "hashfull", "multipv", "tbhits", "time"))
_INFO_INTEGERS_ANY_SIGN = frozenset(("cpuload", "currmovenumber"))
_INFO_TO_END = frozenset(("pv", "string", "refutation", "currline"))


@dataclasses.dataclass(frozen=True)
class CheckResult:
    """One check: ``status`` is ``"ok"``, ``"fail"`` or ``"skip"``; ``detail`` says what was seen
    (for a failure, what is wrong); ``exchange`` holds the last lines exchanged (``> `` sent,
    ``< `` received) when it failed."""

    name: str
    status: str
    detail: str
    exchange: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Report:
    """What :func:`check_engine` found: the engine's ``id name`` (or ``None``) and every check."""

    command: tuple[str, ...]
    engine_name: str | None
    results: tuple[CheckResult, ...]

    @property
    def failures(self) -> tuple[CheckResult, ...]:
        return tuple(r for r in self.results if r.status == "fail")

    @property
    def ok(self) -> bool:
        """Whether the engine passed every check that applied to it."""
        return not self.failures

    def format(self) -> str:
        """The report as ``congo uci-check`` prints it."""
        name = self.engine_name or "(no id name)"
        lines = [f"{name}: {shlex.join(self.command)}"]
        for result in self.results:
            lines.append(f"  {result.status.upper():<4}  {result.name}: {result.detail}")
            lines.extend(f"          {line}" for line in result.exchange)
        counts = collections.Counter(r.status for r in self.results)
        checks = len(self.results)
        lines.append(
            f"{checks} check{'s' if checks != 1 else ''}: {counts['ok']} passed, "
            f"{counts['fail']} failed, {counts['skip']} skipped"
        )
        return "\n".join(lines)


class _Failed(Exception):
    """A check's verdict: what the engine did wrong."""


class _Skipped(Exception):
    """A check that does not apply to this engine (it announces no ``Ponder`` option, say)."""


class _Session:
    """One engine process, with the transcript of what was exchanged."""

    def __init__(self, command: Sequence[str], timeout: float) -> None:
        self.timeout = timeout
        self.transcript: collections.deque[str] = collections.deque(maxlen=10_000)
        self.connection = _Connection(list(command), {})
        self.name: str | None = None
        self.options: dict[str, Option] = {}

    def excerpt(self) -> tuple[str, ...]:
        """The lines of the exchange a failure shows: the last few sent and received, in order."""
        lines = list(self.transcript)
        sent = [i for i, line in enumerate(lines) if line.startswith(">")][-_SHOWN_SENT:]
        received = [i for i, line in enumerate(lines) if line.startswith("<")][-_SHOWN_RECEIVED:]
        shown: list[str] = []
        previous = -1
        for i in sorted({*sent, *received}):
            if i != previous + 1:
                shown.append("…")
            shown.append(lines[i])
            previous = i
        return tuple(shown)

    def send(self, line: str) -> None:
        self.transcript.append(f"> {line}")
        try:
            self.connection.send(line, time.monotonic() + self.timeout)
        except EngineTerminatedError as error:
            raise _Failed(str(error)) from None
        except EngineTimeoutError:
            raise _Failed(f"the engine did not read {line!r} within {self.timeout:g} s") from None

    def read(self, waiting_for: str, timeout: float | None = None) -> str:
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        try:
            line = self.connection.read(deadline, f"while waiting for {waiting_for}")
        except EngineTerminatedError as error:
            raise _Failed(str(error)) from None
        except EngineTimeoutError:
            seconds = self.timeout if timeout is None else timeout
            raise _Failed(f"no {waiting_for} within {seconds:g} s") from None
        self.transcript.append(f"< {line}")
        return line

    def until(self, word: str, waiting_for: str, timeout: float | None = None) -> list[str]:
        """The lines up to and including the first whose first word is ``word``."""
        lines = []
        while True:
            line = self.read(waiting_for, timeout)
            lines.append(line)
            if line.split()[:1] == [word]:
                return lines

    def handshake(self) -> list[str]:
        self.send("uci")
        lines = self.until("uciok", "uciok after uci")
        for line in lines:
            words = line.split()
            if words[:2] == ["id", "name"]:
                self.name = line.split(None, 2)[2] if len(words) > 2 else ""
            elif words[:1] == ["option"]:
                option = _parse_option(line)
                if option is None:
                    raise _Failed(f"a malformed option line: {line!r}")
                self.options[option.name.lower()] = option
        return lines

    def ready(self, after: str, *, searching: bool = False) -> list[str]:
        """``isready`` answered by ``readyok``; the lines before it, which must hold no error and no
        ``bestmove`` (during a ``go infinite`` or ``go ponder``, one must wait for ``stop``)."""
        self.send("isready")
        lines = self.until("readyok", f"readyok after {after}")
        errors = [line for line in lines if _is_error(line)]
        if errors:
            raise _Failed(f"an error after {after}: {errors[0]!r}")
        if any(line.startswith("bestmove") for line in lines):
            if searching:
                raise _Failed(f"a bestmove before stop or ponderhit, after {after}")
            raise _Failed(f"a bestmove with no go pending, after {after}")
        return lines

    def close(self) -> int | None:
        """Ends the engine (``quit``, then a kill if it lingers); its exit status if it quit."""
        if self.connection.closed:
            return None
        code = None
        try:
            self.connection.send("quit", time.monotonic() + 1.0)
            code = self.connection.process.wait(timeout=self.timeout)
        except (OSError, subprocess.TimeoutExpired, EngineTerminatedError, EngineTimeoutError):
            code = None  # an engine that will not quit is killed below
        self.connection.kill()
        return code


def _is_error(line: str) -> bool:
    words = line.split(None, 3)
    return len(words) >= 3 and words[:2] == ["info", "string"] and words[2].lower().startswith("error")


def _check_info(line: str, board: Board) -> str | None:
    """What is wrong with an ``info`` line sent while ``board`` was searched, or None."""
    tokens = line.split()[1:]
    i = 0
    while i < len(tokens):
        key = tokens[i]
        i += 1
        if key in _INFO_TO_END:
            if key == "pv" or key == "refutation" or key == "currline":
                replay = board.copy()
                for text in tokens[i:]:
                    try:
                        move = replay.parse_uci(text)
                    except ValueError:
                        return f"{key} move {text!r} is not legal after {replay.fen()}"
                    if replay.is_game_over():
                        return f"{key} goes on after the game is over at {replay.fen()}"
                    replay.push(move)
                if key == "pv" and i == len(tokens):
                    return "an empty pv"
            return None
        if i >= len(tokens):
            return f"{key} has no value"
        value = tokens[i]
        i += 1
        if key in _INFO_INTEGERS:
            if not (value.isascii() and value.isdigit()):
                return f"{key} {value!r} is not a non-negative integer"
        elif key in _INFO_INTEGERS_ANY_SIGN:
            if not (value.isascii() and value.lstrip("-").isdigit()):
                return f"{key} {value!r} is not an integer"
        elif key == "score":
            if value not in ("cp", "mate") or i >= len(tokens):
                return f"score {value!r}: expected 'score cp N' or 'score mate N'"
            number = tokens[i]
            i += 1
            if not (number.isascii() and number.lstrip("-").isdigit()):
                return f"score {value} {number!r} is not an integer"
            while i < len(tokens) and tokens[i] in ("lowerbound", "upperbound"):
                i += 1
        elif key == "currmove":
            try:
                board.parse_uci(value)
            except ValueError:
                return f"currmove {value!r} is not legal in {board.fen()}"
        elif key == "wdl":
            numbers = [value, *tokens[i : i + 2]]
            i += 2
            if len(numbers) != 3 or not all(n.isascii() and n.isdigit() for n in numbers):
                return f"wdl {' '.join(numbers)!r}: expected three per-mille integers"
        else:
            return f"an unknown field {key!r}"
    return None


def _search(
    session: _Session,
    board: Board,
    position: str,
    go: str,
    *,
    seconds: float,
    allowed: Iterable[str] | None = None,
) -> str:
    """Sends ``position`` and ``go`` for ``board``; checks every line up to ``bestmove`` and the move.
    ``seconds`` is the time the ``go`` itself asks for (0 for a depth or node limit), granted on top
    of the session's timeout. Returns the detail of a pass."""
    session.send(position)
    session.ready(position)
    session.send(go)
    lines = session.until("bestmove", f"bestmove after {go!r}", timeout=seconds + session.timeout)
    for line in lines[:-1]:
        if _is_error(line):
            raise _Failed(f"an error during {go!r}: {line!r}")
        if line.startswith("info"):
            problem = _check_info(line, board)
            if problem is not None:
                raise _Failed(f"a malformed info line ({problem}): {line!r}")
        else:
            raise _Failed(f"an unexpected line during a search: {line!r}")
    words = lines[-1].split()
    if len(words) < 2:
        raise _Failed("bestmove without a move")
    answer = words[1]
    if board.is_game_over():
        if answer != "(none)":
            raise _Failed(f"bestmove {answer} in a decided position ({board.fen()}): expected (none)")
        return "bestmove (none)"
    if answer == "(none)":
        raise _Failed(f"bestmove (none) with legal moves in {board.fen()}")
    try:
        move = board.parse_uci(answer)
    except ValueError:
        raise _Failed(f"bestmove {answer} is not a legal move in {board.fen()}") from None
    if allowed is not None and move.uci() not in set(allowed):
        raise _Failed(f"bestmove {answer} is not one of the searchmoves {sorted(allowed)}")
    if len(words) > 2:
        if words[2] != "ponder" or len(words) != 4:
            raise _Failed(f"a malformed bestmove line: {lines[-1]!r}")
        after = board.copy()
        after.push(move)
        try:
            after.parse_uci(words[3])
        except ValueError:
            raise _Failed(f"ponder move {words[3]} is not legal after {answer}") from None
    return f"bestmove {answer}"


# -- the checks ------------------------------------------------------------------------------------


def _handshake(session: _Session) -> str:
    if session.name is None:
        raise _Failed("no 'id name' line before uciok")
    return f"id name {session.name!r}, {len(session.options)} options, uciok"


def _isready(session: _Session) -> str:
    session.ready("isready")
    return "readyok"


def _options(session: _Session) -> str:
    checked = 0
    for option in session.options.values():
        if option.type == "button":
            command = f"setoption name {option.name}"
        elif option.type == "check":
            command = f"setoption name {option.name} value {'true' if option.default else 'false'}"
        elif option.default in (None, ""):
            continue  # no value to set it to that is surely valid
        else:
            command = f"setoption name {option.name} value {option.default}"
        session.send(command)
        session.ready(command)
        checked += 1
    return f"{checked} options set to their defaults without an error"


def _new_game(session: _Session) -> str:
    session.send("ucinewgame")
    session.ready("ucinewgame")
    return "readyok after ucinewgame"


def _positions(session: _Session) -> str:
    start = Board()
    after = Board()
    for text in ("c2c3", "g7f5"):
        after.push_uci(text)
    middle = Board(MIDDLE_FEN)
    middle_after = Board(MIDDLE_FEN)
    middle_after.push_uci("e2e3")
    forms = [
        (start, "position startpos"),
        (after, "position startpos moves c2c3 g7f5"),
        (middle, f"position fen {MIDDLE_FEN}"),
        (middle_after, f"position fen {MIDDLE_FEN} moves e2e3"),
    ]
    for board, position in forms:
        _search(session, board, position, "go depth 1", seconds=0)
    return f"{len(forms)} position forms, each answered with a legal move"


def _go_forms(session: _Session) -> str:
    board = Board()
    searchmoves = ["c2c3", "e2e3"]
    forms: list[tuple[str, float, list[str] | None]] = [
        ("go depth 2", 0, None),
        ("go nodes 2000", 0, None),
        ("go movetime 200", 0.2, None),
        ("go wtime 3000 btime 3000", 3, None),
        ("go wtime 3000 btime 3000 winc 30 binc 30", 3, None),
        ("go wtime 3000 btime 3000 movestogo 20", 3, None),
        (f"go depth 3 searchmoves {' '.join(searchmoves)}", 0, searchmoves),
    ]
    for go, seconds, allowed in forms:
        _search(session, board, "position startpos", go, seconds=seconds, allowed=allowed)
    return f"{len(forms)} go forms, each answered with a legal move"


def _infinite_and_stop(session: _Session) -> str:
    session.send("position startpos")
    session.ready("position startpos")
    session.send("go infinite")
    session.ready("go infinite", searching=True)  # readyok during the search, and no bestmove
    session.send("stop")
    _, detail = _after_stop(session, Board())
    return f"readyok during the search, then {detail} after stop"


def _idle_stop(session: _Session) -> str:
    # What a controller does after a stop that may have crossed a search's natural end (the client
    # of congo.engine does after every stop): isready, and everything before its readyok is the
    # answer to that stop, dropped. An answer after the readyok would be taken for the next search's.
    session.send("position startpos")
    session.ready("position startpos")
    session.send("stop")
    session.send("isready")
    lines = session.until("readyok", "readyok after a stop with no search")
    session.ready("a stop with no search and its readyok")  # no bestmove may come later
    if any(line.startswith("bestmove") for line in lines):
        return "a stop with no search answered with a bestmove, before the readyok after it"
    return "a stop with no search ignored; readyok after it"


def _after_stop(session: _Session, board: Board) -> tuple[list[str], str]:
    lines = session.until("bestmove", "bestmove after stop")
    words = lines[-1].split()
    answer = words[1] if len(words) > 1 else ""
    try:
        board.parse_uci(answer)
    except ValueError:
        raise _Failed(f"bestmove {answer!r} after stop is not a legal move in {board.fen()}") from None
    for line in lines[:-1]:
        problem = _check_info(line, board) if line.startswith("info") else "not an info line"
        if problem is not None:
            raise _Failed(f"a malformed line ({problem}): {line!r}")
    return lines, f"bestmove {answer}"


def _ponder(session: _Session) -> str:
    if "ponder" not in session.options:
        raise _Skipped("the engine announces no Ponder option")
    board = Board()
    board.push_uci("c2c3")
    session.send("setoption name Ponder value true")
    session.send("position startpos moves c2c3")
    session.ready("position startpos moves c2c3")
    session.send("go ponder wtime 3000 btime 3000")
    session.ready("go ponder", searching=True)  # no bestmove before ponderhit
    session.send("ponderhit")
    _search_tail(session, board, "ponderhit")
    session.send("go ponder wtime 3000 btime 3000")
    session.ready("go ponder", searching=True)
    session.send("stop")
    _after_stop(session, board)
    return "no bestmove before ponderhit or stop, a legal one after each"


def _search_tail(session: _Session, board: Board, after: str) -> None:
    lines = session.until("bestmove", f"bestmove after {after}", timeout=3 + session.timeout)
    words = lines[-1].split()
    try:
        board.parse_uci(words[1] if len(words) > 1 else "")
    except ValueError:
        raise _Failed(f"{lines[-1]!r} after {after}: not a legal move in {board.fen()}") from None


def _monkey_chains(session: _Session) -> str:
    board = Board(CHAIN_FEN)
    detail = _search(session, board, f"position fen {CHAIN_FEN}", "go depth 3", seconds=0)
    after = Board(CHAIN_FEN)
    after.push_uci("b1d3f5")
    _search(session, after, f"position fen {CHAIN_FEN} moves b1d3f5", "go depth 2", seconds=0)
    return f"{detail} in a position with chains; a chain b1d3f5 taken in position moves"


def _decided(session: _Session) -> str:
    board = Board(DECIDED_FEN)
    return _search(session, board, f"position fen {DECIDED_FEN}", "go depth 1", seconds=0)


def _quit(session: _Session) -> str:
    session.send("quit")
    try:
        code = session.connection.process.wait(timeout=session.timeout)
    except subprocess.TimeoutExpired:
        raise _Failed(f"still running {session.timeout:g} s after quit") from None
    if code != 0:
        raise _Failed(f"exit status {code} after quit (expected 0)")
    return "exit status 0"


CHECKS: tuple[tuple[str, Callable[[_Session], str]], ...] = (
    ("handshake", _handshake),
    ("isready", _isready),
    ("options", _options),
    ("ucinewgame", _new_game),
    ("position forms", _positions),
    ("go forms", _go_forms),
    ("go infinite, isready during a search, stop", _infinite_and_stop),
    ("stop with no search, isready", _idle_stop),
    ("ponder", _ponder),
    ("monkey chains", _monkey_chains),
    ("decided position", _decided),
    ("quit", _quit),
)
"""The checks, in order; each runs on a fresh engine after its handshake."""


def check_engine(command: Sequence[str], *, timeout: float = 10.0) -> Report:
    """Runs every check of :data:`CHECKS` against the engine started by ``command`` (an argument
    list) and returns the :class:`Report`. ``timeout`` bounds each wait for an answer (a search gets
    its own time on top). Raises ``OSError`` if the program cannot be started, ``ValueError`` for
    an empty command or a timeout that is not positive."""
    if not command:
        raise ValueError("no engine command")
    if not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    results: list[CheckResult] = []
    name: str | None = None
    for check_name, check in CHECKS:
        if results and results[0].status == "fail":  # no handshake: nothing else can be checked
            results.append(CheckResult(check_name, "skip", "the handshake failed"))
            continue
        session = _Session(command, timeout)
        try:
            session.handshake()
            name = name or session.name
            detail = check(session)
        except _Failed as failure:
            results.append(CheckResult(check_name, "fail", str(failure), session.excerpt()))
        except _Skipped as skipped:
            results.append(CheckResult(check_name, "skip", str(skipped)))
        else:
            results.append(CheckResult(check_name, "ok", detail))
        finally:
            session.close()
    return Report(tuple(command), name, tuple(results))


def split_command(words: Sequence[str]) -> list[str]:
    """The engine's argument list from the command line's words: as given, except that a single
    word that is not a file but holds spaces (``"python bot.py"``) is split as a shell would."""
    if len(words) == 1 and " " in words[0] and not os.path.exists(words[0]):
        return shlex.split(words[0])
    return list(words)
