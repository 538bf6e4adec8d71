"""The engine protocol of ``docs/protocol.md`` as text, with no I/O: the errors an engine's answers
can raise, the options it announces, and the parsing of its lines (``option``, ``info``,
``bestmove``) and the writing of the client's (``position``, ``go``).

The process that carries these lines is :mod:`congo._uci_process`; the session that speaks them,
:mod:`congo._uci_client` (``SimpleEngine``).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Union

from congo._core import STARTING_FEN, Move, Position
from congo._results import InfoDict, PovScore, Score, Wdl
from congo.board import Board

if TYPE_CHECKING:
    from congo.engine import Limit

LOGGER = logging.getLogger("congo.engine")

OptionValue = Union[str, int, bool, None]

_MANAGED_OPTIONS = ("multipv", "ponder")
"""Options that :meth:`SimpleEngine.analyse` and :meth:`SimpleEngine.play` set themselves."""


def _is_error(line: str) -> bool:
    """Whether a line is an error report: ``info string error…`` (``docs/protocol.md``)."""
    words = line.split(None, 3)
    return len(words) >= 3 and words[:2] == ["info", "string"] and words[2].lower().startswith("error")


def _error_text(line: str) -> str:
    """What an ``info string error: …`` line says, without its prefix."""
    text = line.split(None, 2)[2]
    return text[len("error") :].lstrip(" :") or text


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
                number = _integer(value) if isinstance(value, str) else int(value)  # type: ignore[arg-type]
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

    def get(self, name: str, default: Option | None = None) -> Option | None:  # type: ignore[override]
        # One dict lookup (Mapping's get goes through __getitem__ and an exception): every search
        # looks up MultiPV.
        return self._options.get(name.lower(), default)

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
        low = _integer(fields["min"][0]) if fields["min"] else None
        high = _integer(fields["max"][0]) if fields["max"] else None
        default: OptionValue
        if kind == "spin":
            default = _integer(default_text) if default_text else None
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


def _integer(text: str) -> int:
    """An integer of the protocol: ASCII digits with an optional sign (``int`` alone also takes
    other scripts' digits, underscores and spaces). Raises ``ValueError``."""
    # isdigit() on ASCII text is exactly 0-9; cheaper than a regular expression, for every
    # number of every info line.
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not (digits.isascii() and digits.isdigit()):
        raise ValueError(f"not an integer: {text!r}")
    return int(text)


def _parse_move(board: Board | Position, text: str) -> Move | None:
    try:
        return board.parse_uci(text)
    except ValueError:
        return None


_INFO_INTEGERS = frozenset(
    ("depth", "seldepth", "nodes", "nps", "hashfull", "multipv", "currmovenumber", "tbhits")
)
_MAX_MULTIPV = 1024
"""The highest line number of an info kept: the client keeps a dict per line up to the highest
seen, so an engine's ``multipv 30000000`` would otherwise cost gigabytes (and ``multipv 0`` or a
negative one would name no line)."""


def _parse_info(line: str, board: Board) -> InfoDict:
    """An ``info …`` line as an :data:`InfoDict`; what does not parse is left out (and logged)."""
    info: InfoDict = {}
    tokens = line.split()
    i = 1  # after "info"
    count = len(tokens)
    integers = _INFO_INTEGERS
    while i < count:
        key = tokens[i]
        i += 1
        try:
            if key in integers:
                text = tokens[i]
                # Plain ASCII digits (nearly every number of every info) go to int directly;
                # anything else gets _integer's checks and its error.
                value = int(text) if text.isdigit() and text.isascii() else _integer(text)
                i += 1
                if key == "multipv" and not 1 <= value <= _MAX_MULTIPV:
                    raise ValueError(f"multipv {value} is not a line from 1 to {_MAX_MULTIPV}")
                info[key] = value  # type: ignore[literal-required]
            elif key == "time":
                text = tokens[i]
                info["time"] = (int(text) if text.isdigit() and text.isascii() else _integer(text)) / 1000
                i += 1
            elif key == "score":
                kind, value = tokens[i], _integer(tokens[i + 1])
                i += 2
                if kind == "cp":
                    relative = Score(cp=value)
                elif kind == "mate":
                    relative = Score(mate=value)
                else:
                    raise ValueError(f"score {kind}")
                info["score"] = PovScore(relative, board.turn)
                while i < count and tokens[i] in ("lowerbound", "upperbound"):
                    info[tokens[i]] = True  # type: ignore[literal-required]
                    i += 1
            elif key == "wdl":
                # The engine's chances for the side to move, per mille.
                chances = [_integer(token) for token in tokens[i : i + 3]]
                if len(chances) != 3 or min(chances) < 0:
                    raise ValueError(f"wdl takes three counts, got {tokens[i : i + 3]}")
                i += 3
                info["wdl"] = Wdl(*chances)
            elif key == "currmove":
                move = _parse_move(board, tokens[i])
                i += 1
                if move is not None:
                    info["currmove"] = move
            elif key == "pv":
                info["pv"] = _parse_line(board, tokens[i:])
                i = count
            elif key == "string":
                info["string"] = line.split(None, 2)[2] if len(line.split(None, 2)) > 2 else ""
                i = count
            elif key in ("refutation", "currline"):
                i = count  # moves to the end of the line, not kept
        except (IndexError, ValueError) as error:
            LOGGER.warning("ignoring a malformed part of %r: %s", line, error)
    return info


def _merge(into: InfoDict, info: InfoDict) -> None:
    """Adds a newer info to what is known of a line: a new score replaces the old one's bounds."""
    if "score" in info:
        into.pop("lowerbound", None)
        into.pop("upperbound", None)
        into.pop("wdl", None)  # the chances of the old score
    into.update(info)


def _parse_line(board: Board, texts: list[str]) -> list[Move]:
    """The moves of a principal variation, as far as they are legal in turn (walked on positions,
    not boards: no move stack is kept, and a call costs a third as much)."""
    position = board.position
    moves: list[Move] = []
    for text in texts:
        try:
            move = position.parse_uci(text)
        except ValueError:
            LOGGER.warning("ignoring the rest of a principal variation from %r on", text)
            break
        position = position.push(move)
        moves.append(move)
    return moves


def _since_irreversible(board: Board) -> tuple[Position, list[Move]]:
    """The position after the board's last irreversible move (a capture, a drowning or a promotion)
    and the moves since: all an engine needs for repetitions, since no earlier position can recur.
    The core's ``History.repeatable`` finds that tail (``docs/rules.md``, repetition)."""
    current = board.position
    tail = board._history.repeatable(current)
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
