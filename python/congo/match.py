"""Matches between players: engine configurations and simple built-in opponents.

This is what ``congo match`` runs, and how the engine's features and weights were chosen (the logs
are in ``docs/engine.md``). Games start from an opening suite — the bundled balanced one
(:func:`default_openings`), a file of FEN, EPD or PGN openings (:func:`read_openings`, ordered by
:func:`arrange_openings`), or random plies from the start
position (:func:`make_openings`) — and each opening is played twice with colours swapped (a *pair*),
so that neither side profits from a lucky opening. The result reports the Elo difference with its
95 % interval from the pairs (the pentanomial model of :mod:`congo.stats`), the likelihood of
superiority, and, with an :class:`~congo.stats.SPRT`, the log-likelihood ratio; the match stops once
the SPRT accepts a hypothesis.

Players are described by short strings (``engine:time=0.1``, ``uci:congo uci``, …): see
:mod:`congo.players`, where they live, and :func:`~congo.players.parse_player`.

Games may be played on a clock (:class:`TimeControl`, ``congo match --tc 10+0.1``): each side's
time is measured around its moves, a side whose clock runs out loses on time, and an outside engine
that answers an illegal move, no move, or dies, loses the game (each a :class:`MatchEvent`, told as
it happens). An :class:`Adjudicator` ends games early: resignation and draws by the players' scores,
and endgame tables, exactly. Deterministic players (:func:`is_deterministic`) that would replay a
pair are refused or counted once (:func:`repeated_pairs`). Records carry the date, the engines'
``id name`` and command lines, each move's remaining clock (``[%clk]``) and, where the player
reported them, its evaluation (``[%eval]``) and fastchess's ``{+0.35/12 0.101s, n=4521}``.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import enum
import functools
import importlib.resources
import io
import math
import os
import random
import re
import shlex
import threading
import time
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, Callable, Union

from congo import pgn
from congo._core import Move, Position
from congo.board import Board, Outcome
from congo.engine import EngineError, EngineTerminatedError, Limit, PovScore, Score
from congo.players import (
    MAX_ALPHABETA_DEPTH,
    AlphaBetaPlayer,
    EnginePlayer,
    GreedyPlayer,
    Player,
    RandomPlayer,
    UciPlayer,
    parse_player,
)
from congo.players import PlayerFactory as PlayerFactory  # not in __all__, but named match.PlayerFactory
from congo.players import player_forms as player_forms  # likewise, as every name of congo.players
from congo.stats import (
    SPRT,
    EloEstimate,
    elo_lower_bound,
    elo_pentanomial,
    elo_trinomial,
    normalized_elo_pentanomial,
)
from congo.tablebase import Tablebase, open_tablebase
from congo.tournament import run_tournament

__all__ = [
    "MAX_ALPHABETA_DEPTH",
    "MAX_GAMES",
    "OPENING_FORMATS",
    "SPRT",
    "Adjudicated",
    "Adjudication",
    "Adjudicator",
    "AlphaBetaPlayer",
    "DrawRule",
    "EnginePlayer",
    "GameRecord",
    "GreedyPlayer",
    "MatchEvent",
    "MatchInterrupted",
    "MatchResult",
    "MoveInfo",
    "Player",
    "RandomPlayer",
    "ResignRule",
    "TimeControl",
    "UciPlayer",
    "arrange_openings",
    "default_openings",
    "elo",
    "is_deterministic",
    "make_openings",
    "parse_openings",
    "parse_player",
    "play_game",
    "play_match_game",
    "read_openings",
    "repeated_pairs",
    "run_match",
    "run_tournament",
]

Opening = Union[Sequence[Move], str]
"""Where a game starts: moves from the start position, or a FEN."""

MAX_GAMES = 1_000_000
"""The most games one match may ask for (the openings are made up front)."""


def make_openings(count: int, plies: int, seed: int) -> list[list[Move]]:
    """``count`` distinct random openings of ``plies`` moves from the start position (reproducible
    from ``seed``), none of which ends the game or hangs a lion."""
    rng = random.Random(seed)
    openings: list[list[Move]] = []
    seen: set[int] = set()
    attempts = 0
    while len(openings) < count:
        attempts += 1
        if attempts > 100 * count + 1000:
            raise ValueError(f"could not find {count} distinct openings of {plies} plies")
        position = Position()
        line: list[Move] = []
        for _ in range(plies):
            moves = position.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            line.append(move)
            position = position.push(move)
        if len(line) < plies or position.outcome() is not None or position.zobrist_hash() in seen:
            continue
        # Skip openings where the side to move can take the lion at once.
        if any(child.outcome() is not None for child in map(position.push, position.legal_moves())):
            continue
        seen.add(position.zobrist_hash())
        openings.append(line)
    return openings


OPENING_FORMATS = ("fen", "epd", "pgn")
"""The formats of an openings file (:func:`parse_openings`)."""

_EXPECTED_LINE = (
    "expected a FEN (e.g. '{fen}'), a FEN then ';'-separated fields, or an EPD line "
    "(a position then operations, e.g. '{fen} id \"start\";')"
)


def _opening_line(content: str) -> str:
    """The FEN of one line of a FEN or EPD file. Raises ``ValueError`` saying what was expected."""
    fen = content.split(";", 1)[0].strip()
    if not fen:
        raise ValueError("no FEN before ';'")
    try:
        return Position(fen).fen()
    except ValueError as error:
        first_error = error
    try:
        board, _ = Board.from_epd(content)
    except (ValueError, TypeError):
        expected = _EXPECTED_LINE.format(fen=Board().fen())
        raise ValueError(f"{expected}: {first_error}") from None
    return board.fen()


def _pgn_openings(text: str, source: str, plies: int | None) -> list[str]:
    """The opening of each record of a PGN file: its final position, or the one after its first
    ``plies`` plies (the whole record if it is shorter)."""
    fens: list[str] = []
    handle = io.StringIO(text)
    number = 0
    while True:
        try:
            game = pgn.read_game(handle, strict=True)
        except pgn.PgnError as error:
            where = f"game {number + 1}" + ("" if error.line is None else f" (line {error.line})")
            raise ValueError(f"{source}, {where}: expected a PGN record: {error}") from None
        if game is None:
            return fens
        number += 1
        board = game.board()
        for ply, move in enumerate(game.mainline_moves()):
            if plies is not None and ply >= plies:
                break
            board.push(move)
        if board.outcome() is not None:
            raise ValueError(f"{source}, game {number}: the game is already over in {board.fen()!r}")
        fens.append(board.fen())


def _is_pgn(text: str) -> bool:
    for line in text.splitlines():
        content = line.strip()
        if content and not content.startswith(("#", "%")):
            return content.startswith("[") or re.match(r"\d+\.", content) is not None
    return False


def parse_openings(
    text: str, *, source: str = "openings", format: str | None = None, plies: int | None = None
) -> list[str]:
    """The openings (FENs) of an openings file's text, in one of :data:`OPENING_FORMATS`, found
    from the text when ``format`` is ``None`` (a first line starting with ``[`` or a move number:
    PGN):

    * ``fen``/``epd``: one position a line: a FEN, a FEN followed by ``;``-separated fields
      (ignored), or an EPD line (:meth:`congo.Board.set_epd`: a position then operations); ``#``
      starts a comment, blank lines are skipped;
    * ``pgn``: records (:mod:`congo.pgn`), each giving its final position, or with ``plies`` the
      position after its first ``plies`` plies.

    Raises ``ValueError`` naming ``source``, the line (or the record) and the format expected, for
    a bad line or a finished game, or when there is no opening at all. A byte-order mark before the
    first line is not part of it."""
    if format is not None and format not in OPENING_FORMATS:
        raise ValueError(f"openings format must be one of {', '.join(OPENING_FORMATS)}, got {format!r}")
    if plies is not None and (isinstance(plies, bool) or not isinstance(plies, int) or plies < 0):
        raise ValueError(f"plies must be a number of plies of at least 0, got {plies!r}")
    text = text.removeprefix("\ufeff")
    if format == "pgn" or (format is None and _is_pgn(text)):
        fens = _pgn_openings(text, source, plies)
        if not fens:
            raise ValueError(f"{source}: no openings in it (expected PGN records)")
        return fens
    if plies is not None:
        raise ValueError(f"{source}: plies apply to PGN openings, and this is a file of positions")
    fens = []
    for number, line in enumerate(text.splitlines(), 1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        try:
            fen = _opening_line(content)
        except ValueError as error:
            raise ValueError(f"{source}, line {number}: {error}") from None
        if Position(fen).outcome() is not None:
            raise ValueError(f"{source}, line {number}: the game is already over in {fen!r}")
        fens.append(fen)
    if not fens:
        raise ValueError(
            f"{source}: no openings in it (expected one FEN or EPD position a line, or PGN records)"
        )
    return fens


def read_openings(path: str, *, format: str | None = None, plies: int | None = None) -> list[str]:
    """The openings of a file (see :func:`parse_openings`; ``format`` from the text, or ``pgn``
    for a name ending in ``.pgn``). Raises ``ValueError`` for a file that cannot be read or holds
    a bad line."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_OPENINGS_BYTES + 1)  # bounded: /dev/zero is not a suite
        if len(data) > MAX_OPENINGS_BYTES:
            raise ValueError(f"cannot read the openings {path}: larger than {MAX_OPENINGS_BYTES >> 20} MiB")
        # utf-8-sig: a byte-order mark (what some editors put first) is not part of the first FEN.
        text = data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or error
        raise ValueError(f"cannot read the openings {path}: {reason}") from None
    if format is None and str(path).lower().endswith(".pgn"):
        format = "pgn"
    return parse_openings(text, source=path, format=format, plies=plies)


def arrange_openings(
    openings: Sequence[str], *, order: str = "sequential", seed: int = 1, start: int = 1
) -> list[str]:
    """The openings in the order a match plays them: as given (``"sequential"``) or shuffled
    reproducibly from ``seed`` (``"random"``), then from the ``start``-th one (counted from 1; the
    ones before come after the last), as cutechess's ``-openings order=… start=N``. Raises
    ``ValueError`` for another order or a start outside the openings."""
    if order not in ("sequential", "random"):
        raise ValueError(f"openings order must be sequential or random, got {order!r}")
    arranged = list(openings)
    if isinstance(start, bool) or not isinstance(start, int) or not 1 <= start <= max(1, len(arranged)):
        raise ValueError(f"the openings start must be from 1 to {len(arranged)}, got {start!r}")
    if order == "random":
        random.Random(seed).shuffle(arranged)
    return arranged[start - 1 :] + arranged[: start - 1]


MAX_OPENINGS_BYTES = 256 << 20
"""The largest openings file :func:`read_openings` reads (a million FENs take about 60 MiB)."""


@functools.lru_cache(maxsize=1)
def _bundled_openings() -> tuple[str, ...]:
    text = importlib.resources.files("congo").joinpath("data/openings.txt").read_text(encoding="utf-8")
    return tuple(parse_openings(text, source="congo/data/openings.txt"))


def default_openings() -> list[str]:
    """The bundled balanced suite (``congo/data/openings.txt``): positions a few random plies from
    the start that a search scores near equal, made by ``benches/make_openings.py``. What
    :func:`run_match` and ``congo match`` play when given no openings."""
    return list(_bundled_openings())


@dataclasses.dataclass(frozen=True)
class TimeControl:
    """A game clock: ``base`` seconds for the game (or for each ``moves`` moves, when given), plus
    ``increment`` seconds after each move. Written ``BASE+INC`` or ``MOVES/BASE+INC`` in seconds, as
    in PGN's ``TimeControl`` tag and cutechess: ``10+0.1``, ``60``, ``40/120+1``."""

    base: float
    increment: float = 0.0
    moves: int | None = None

    def __post_init__(self) -> None:
        for name, value, low in (("base", self.base, 0.0), ("increment", self.increment, 0.0)):
            if not math.isfinite(value) or value < low or value > 1e7:
                raise ValueError(f"time control {name} must be from 0 to 10,000,000 seconds, got {value}")
        if self.base <= 0 and self.increment <= 0:
            raise ValueError("a time control needs a base time or an increment")
        if self.moves is not None and not 1 <= self.moves <= 10_000:
            raise ValueError(f"time control moves must be from 1 to 10000, got {self.moves}")

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``BASE[+INC]`` or ``MOVES/BASE[+INC]`` in seconds. Raises ``ValueError``."""
        spec = text.strip()
        moves: int | None = None
        if "/" in spec:
            moves_text, _, spec = spec.partition("/")
            try:
                moves = int(moves_text)
            except ValueError:
                raise ValueError(f"time control {text!r}: {moves_text!r} is not a number of moves") from None
        base_text, _, increment_text = spec.partition("+")
        try:
            base = float(base_text)
            increment = float(increment_text) if increment_text else 0.0
        except ValueError:
            raise ValueError(f"time control {text!r}: expected BASE+INC in seconds, e.g. 10+0.1") from None
        return cls(base, increment, moves)

    def __str__(self) -> str:
        text = f"{self.base:g}" + (f"+{self.increment:g}" if self.increment else "")
        return f"{self.moves}/{text}" if self.moves else text


class Adjudication(enum.Enum):
    """Why a game was ended by the match rather than by the rules."""

    TIME_FORFEIT = 1
    """A side's clock ran out."""
    ILLEGAL_MOVE = 2
    """An outside engine answered a malformed or illegal move."""
    ENGINE_FAILURE = 3
    """An outside engine died, stopped answering, or had no move in a game that was not over."""
    RESIGN = 4
    """A side's own scores said it was lost for long enough (:class:`ResignRule`)."""
    DRAW = 5
    """Both sides' scores stayed near zero for long enough (:class:`DrawRule`)."""
    TABLEBASE = 6
    """The position was in the endgame tables: the game ends with the tables' exact result."""


@dataclasses.dataclass(frozen=True)
class Adjudicated:
    """The end of an adjudicated game, shaped like :class:`~congo.Outcome` (``termination``,
    ``winner``, ``result()``) with the ``reason`` in words."""

    termination: Adjudication
    winner: bool | None
    reason: str = ""

    def result(self) -> str:
        return "1/2-1/2" if self.winner is None else ("1-0" if self.winner else "0-1")


def _key_values(text: str | Sequence[str], what: str, keys: dict[str, str]) -> dict[str, str]:
    """``key=value`` words (space- or comma-separated) with every key among ``keys`` (key: what it
    takes, for the message). Raises ``ValueError`` naming the expected form."""
    words = (
        text.replace(",", " ").split() if isinstance(text, str) else [w for t in text for w in t.split(",")]
    )
    form = " ".join(f"{key}={value}" for key, value in keys.items())
    found: dict[str, str] = {}
    for word in filter(None, (w.strip() for w in words)):
        key, sep, value = word.partition("=")
        if not sep or key not in keys:
            raise ValueError(f"{what}: expected {form}, got {word!r}")
        if key in found:
            raise ValueError(f"{what}: {key} twice")
        found[key] = value
    return found


def _int_value(what: str, key: str, text: str, low: int) -> int:
    if not text.strip().lstrip("+-").isdigit() or int(text) < low:
        raise ValueError(f"{what}: {key} must be an integer of at least {low}, got {text!r}")
    return int(text)


@dataclasses.dataclass(frozen=True)
class ResignRule:
    """Adjudicate a loss for a side whose own reported score is at or below ``-score`` centipawns
    for ``movecount`` of its moves in a row (a move without a score breaks the run). With
    ``twosided``, the scores of both sides must agree: ``movecount`` moves in a row of each side
    (``2 × movecount`` plies) where the loser reports at most ``-score`` and the winner at least
    ``+score``. A mate score counts as beyond any ``score``. As cutechess's and fastchess's
    ``-resign movecount=N score=CP [twosided=true]``."""

    movecount: int
    score: int
    twosided: bool = False

    def __post_init__(self) -> None:
        if self.movecount < 1 or self.score < 0:
            raise ValueError(f"resign: movecount must be at least 1 and score at least 0, got {self}")

    @classmethod
    def parse(cls, text: str | Sequence[str]) -> ResignRule:
        """``movecount=N score=CP [twosided=true]``. Raises ``ValueError``."""
        what = "--resign"
        keys = {"movecount": "N", "score": "CP", "twosided": "true|false"}
        found = _key_values(text, what, keys)
        for key in ("movecount", "score"):
            if key not in found:
                raise ValueError(f"{what}: expected movecount=N score=CP [twosided=true], {key} is missing")
        twosided = found.get("twosided", "false").lower()
        if twosided not in ("true", "false"):
            raise ValueError(f"{what}: twosided must be true or false, got {twosided!r}")
        return cls(
            _int_value(what, "movecount", found["movecount"], 1),
            _int_value(what, "score", found["score"], 0),
            twosided == "true",
        )


@dataclasses.dataclass(frozen=True)
class DrawRule:
    """Adjudicate a draw once at least ``movenumber`` full moves have been played (the board's move
    number, counting the opening's) and both sides' reported scores have been within ``score``
    centipawns of zero for ``movecount`` moves each in a row (``2 × movecount`` plies; a move
    without a score breaks the run). As cutechess's and fastchess's ``-draw movenumber=N
    movecount=N score=CP``."""

    movenumber: int
    movecount: int
    score: int

    def __post_init__(self) -> None:
        if self.movenumber < 0 or self.movecount < 1 or self.score < 0:
            raise ValueError(
                f"draw: movenumber and score must be at least 0, movecount at least 1, got {self}"
            )

    @classmethod
    def parse(cls, text: str | Sequence[str]) -> DrawRule:
        """``movenumber=N movecount=N score=CP``. Raises ``ValueError``."""
        what = "--draw"
        keys = {"movenumber": "N", "movecount": "N", "score": "CP"}
        found = _key_values(text, what, keys)
        for key in keys:
            if key not in found:
                raise ValueError(f"{what}: expected movenumber=N movecount=N score=CP, {key} is missing")
        return cls(
            _int_value(what, "movenumber", found["movenumber"], 0),
            _int_value(what, "movecount", found["movecount"], 1),
            _int_value(what, "score", found["score"], 0),
        )


@dataclasses.dataclass(frozen=True)
class Adjudicator:
    """How the match ends games early: a :class:`ResignRule`, a :class:`DrawRule`, and endgame
    tables (a :class:`~congo.tablebase.Tablebase` or its directory): a position within the tables
    ends the game at once with the tables' exact result (win, draw or loss with best play). The
    rules of the game come first: a game they end is not adjudicated."""

    resign: ResignRule | None = None
    draw: DrawRule | None = None
    tablebase: Tablebase | None = None

    @classmethod
    def create(
        cls,
        *,
        resign: ResignRule | str | Sequence[str] | None = None,
        draw: DrawRule | str | Sequence[str] | None = None,
        tablebase: Tablebase | str | os.PathLike[str] | None = None,
    ) -> Adjudicator:
        """An adjudicator from rules or their text (``"movecount=3 score=600"``) and a tablebase
        or its directory (opened now: a bad directory raises here, before any game)."""
        if resign is not None and not isinstance(resign, ResignRule):
            resign = ResignRule.parse(resign)
        if draw is not None and not isinstance(draw, DrawRule):
            draw = DrawRule.parse(draw)
        if tablebase is not None and not isinstance(tablebase, Tablebase):
            tablebase = open_tablebase(tablebase)
        return cls(resign, draw, tablebase)


@dataclasses.dataclass(frozen=True)
class MoveInfo:
    """What a player said about its move (``None`` where it did not say) and how long it took."""

    elapsed: float
    """Seconds the move took, measured by the match."""
    score: Score | None = None
    """The mover's score from its own point of view."""
    depth: int | None = None
    nodes: int | None = None
    reported_time: float | None = None
    """The search time the player reported (``info time``), in seconds."""

    @property
    def latency(self) -> float | None:
        """The measured time beyond what the player reported (its answer's way to the match)."""
        return None if self.reported_time is None else self.elapsed - self.reported_time

    def comment(self) -> str:
        """The move's comment as fastchess writes it: ``+0.35/12 0.101s, n=4521`` (score from the
        mover's point of view in pawns, ``+M3``/``-M2`` for mates, depth, measured time, nodes),
        ``""`` without a score."""
        if self.score is None:
            return ""
        if self.score.mate is not None:
            value = f"{'+' if self.score.mate > 0 else '-'}M{abs(self.score.mate)}"
        else:
            value = f"{(self.score.cp or 0) / 100:+.2f}"
        text = f"{value}/{self.depth or 0} {self.elapsed:.3f}s"
        return text if self.nodes is None else f"{text}, n={self.nodes}"


@dataclasses.dataclass(frozen=True)
class MatchEvent:
    """Something a match reports as it happens: ``kind`` is ``"illegal_move"``,
    ``"engine_failure"``, ``"time_forfeit"`` or ``"late_move"`` (a move over its clock by less than
    the time margin: reported, not lost), ``"restart"`` (with ``recover``: an outside engine that
    failed in its previous game gets a new process), or ``"repeats"`` (deterministic players would
    replay pairs, said before the first game); ``message`` says it all in words (the move and the
    position, the exit status and the engine's last stderr lines, by how much)."""

    kind: str
    message: str
    player: str = ""
    game: int | None = None
    """The game's number in its match, from 0 (``None``: not about one game); in the records of a
    tournament too, while :func:`run_tournament`'s ``on_event`` is told the game's number in the
    tournament (its progress line's, its records' ``Round`` less one)."""
    fen: str | None = None
    overrun: float | None = None
    """For a time forfeit or a late move: the seconds beyond the clock."""

    def __str__(self) -> str:
        where = "" if self.game is None else f"game {self.game + 1}: "
        return f"{where}{self.message}"


@dataclasses.dataclass
class GameRecord:
    """One finished game."""

    white: str
    black: str
    opening: list[Move]
    board: Board
    """The final board; its move stack holds the whole game, opening included."""
    outcome: Outcome | Adjudicated
    clocks: list[float | None] = dataclasses.field(default_factory=list)
    """Per move of the stack, the mover's clock after it (``None``: untimed, or an opening move)."""
    evals: list[Score | None] = dataclasses.field(default_factory=list)
    """Per move of the stack, the mover's evaluation from White's point of view, where known."""
    time_control: TimeControl | None = None
    """The clock both sides played on (``None``: untimed, or each side on its own)."""
    index: int = 0
    """The game's number in its match, from 0."""
    start_fen: str | None = None
    """The FEN the game started from when its opening was a position, else ``None``."""
    infos: list[MoveInfo | None] = dataclasses.field(default_factory=list)
    """Per move of the stack, what the mover said of it and how long it took (``None``: an
    opening move)."""
    events: list[MatchEvent] = dataclasses.field(default_factory=list)
    """What went wrong during the game (an illegal move, a crash, a time forfeit, a late move)."""
    white_command: str | None = None
    """An outside engine's command line (the names are the engines' ``id name``)."""
    black_command: str | None = None
    date: str = dataclasses.field(default_factory=lambda: time.strftime("%Y.%m.%d", time.gmtime()))
    """The UTC date the game was played, as PGN writes it."""
    white_time_control: TimeControl | None = None
    """White's clock when the sides played on different ones (a player's own ``tc=``), else
    ``None`` (then :attr:`time_control` is both sides')."""
    black_time_control: TimeControl | None = None
    """Black's clock when the sides played on different ones, else ``None``."""

    def result(self) -> str:
        return self.outcome.result()

    def record(self, *, event: str = "congo match", round_number: int | None = None) -> str:
        """The game as a PGN-style record, with ``[%clk]`` and ``[%eval]`` comments where known."""
        game = pgn.Game.from_board(self.board)
        game.headers["Event"] = event
        game.headers["Date"] = self.date
        game.headers["Round"] = str(self.index + 1 if round_number is None else round_number)
        game.headers["White"] = self.white
        game.headers["Black"] = self.black
        game.headers["Result"] = self.result()
        game.headers["Termination"] = self.outcome.termination.name.lower()
        if self.white_command is not None:
            game.headers["WhiteCommand"] = self.white_command
        if self.black_command is not None:
            game.headers["BlackCommand"] = self.black_command
        if self.start_fen is None:
            game.headers["Opening"] = " ".join(move.uci() for move in self.opening)
        if self.white_time_control != self.black_time_control:
            # cutechess's tags for sides on different clocks; "-" is PGN's "no time control".
            for side, control in (("White", self.white_time_control), ("Black", self.black_time_control)):
                game.headers[f"{side}TimeControl"] = "-" if control is None else str(control)
        elif self.time_control is not None:
            game.headers["TimeControl"] = str(self.time_control)
        notes = [self.outcome.reason] if isinstance(self.outcome, Adjudicated) and self.outcome.reason else []
        notes += [event.message for event in self.events if event.message not in notes]
        if notes:
            game.comment = "; ".join(notes)
        infos = self.infos + [None] * (len(self.clocks) - len(self.infos))
        for node, clock, evaluation, info in zip(game.mainline(), self.clocks, self.evals, infos):
            if info is not None and info.comment():
                node.comment = info.comment()
            if evaluation is not None:
                node.set_eval(PovScore(evaluation, True))
            if clock is not None:
                node.set_clock(max(0.0, clock), digits=3)
        return str(game)


def is_deterministic(player: PlayerFactory, time_control: TimeControl | None = None) -> bool:
    """Whether a player plays the same game again from the same opening against the same moves:
    the built-in engine (``engine:``) or an outside one (``uci[...]:``) limited by depth or nodes
    only, on one thread (no ``threads``/``Threads`` above 1), in a game without a clock. Players
    that break ties at random (``alphabeta``, ``greedy``, ``random``) are seeded from each game's
    number, so that a repeated opening gets a different game; anything timed depends on the
    machine's load."""
    made = player(0)
    try:
        limit = made.limit
        if (
            time_control is not None
            or made.time_control is not None
            or limit is None
            or limit.time is not None
            or (limit.depth is None and limit.nodes is None)
        ):
            return False
        if isinstance(made, EnginePlayer):
            return made.engine.threads == 1
        if isinstance(made, UciPlayer):
            threads = {key.lower(): value for key, value in made.options.items()}.get("threads", "1")
            return str(threads).strip() == "1"
        return False
    finally:
        with contextlib.suppress(Exception):
            made.close()


def repeated_pairs(
    first: tuple[str, PlayerFactory],
    second: tuple[str, PlayerFactory],
    openings: Sequence[Opening],
    *,
    games: int,
    time_control: TimeControl | None = None,
) -> str | None:
    """What is wrong when a match of ``games`` games over the pairs' ``openings`` (one a pair)
    would replay a pair exactly: both players deterministic (:func:`is_deterministic`) and fewer
    distinct openings than full pairs; ``None`` when it would not."""
    pairs = games // 2
    distinct = len({opening if isinstance(opening, str) else tuple(opening) for opening in openings[:pairs]})
    if pairs <= distinct:
        return None
    if not (is_deterministic(first[1], time_control) and is_deterministic(second[1], time_control)):
        return None
    return (
        f"{first[0]} and {second[0]} are deterministic (depth or node limits): {pairs} pairs over "
        f"{distinct} distinct openings replay {pairs - distinct} pair{'s' * (pairs - distinct != 1)}"
    )


class _Cancelled(Exception):
    """The match was interrupted while this game was being played."""


def _side_controls(
    white: Player, black: Player, time_control: TimeControl | None
) -> dict[bool, TimeControl | None]:
    """Each side's clock, by colour (``True``: White): the player's own, else the match's."""
    return {True: white.time_control or time_control, False: black.time_control or time_control}


def _record_controls(
    controls: dict[bool, TimeControl | None],
) -> tuple[TimeControl | None, TimeControl | None, TimeControl | None]:
    """:class:`GameRecord`'s ``time_control``, ``white_time_control`` and ``black_time_control``
    for the sides' clocks: the shared one, or each side's when they differ."""
    if controls[True] == controls[False]:
        return controls[True], None, None
    return None, controls[True], controls[False]


class _Adjudication:
    """The state of a game's adjudication: the runs of scores the rules count."""

    def __init__(self, rules: Adjudicator) -> None:
        self.rules = rules
        self.losing = {True: 0, False: 0}  # own moves in a row at or below -score, by side
        self.agreed: tuple[bool, int] = (True, 0)  # (the side losing, plies in a row agreeing)
        self.quiet = 0  # plies in a row within the draw score

    def tablebase(self, board: Board) -> Adjudicated | None:
        if self.rules.tablebase is None:
            return None
        wdl = self.rules.tablebase.probe_wdl(board)
        if wdl is None:
            return None
        dtm = self.rules.tablebase.probe_dtm(board)
        side = "White" if board.turn else "Black"
        if wdl == 0:
            return Adjudicated(Adjudication.TABLEBASE, None, f"tablebase draw in {board.fen()}")
        what = "wins" if wdl > 0 else "loses"
        reason = f"tablebase: {side} to move {what} in {abs(dtm or 0)} plies in {board.fen()}"
        return Adjudicated(Adjudication.TABLEBASE, board.turn if wdl > 0 else not board.turn, reason)

    def after_move(self, board: Board, mover: bool, name: str, score: Score | None) -> Adjudicated | None:
        name = f"{name} ({'White' if mover else 'Black'})"
        """Counts the mover's score (its own point of view) once its move is on ``board``."""
        cp = None if score is None else score.score(mate_score=1_000_000)
        resign, draw = self.rules.resign, self.rules.draw
        if resign is not None:
            if not resign.twosided:
                self.losing[mover] = self.losing[mover] + 1 if cp is not None and cp <= -resign.score else 0
                if self.losing[mover] >= resign.movecount:
                    reason = (
                        f"{name} resigned: its score was at most -{resign.score} cp for "
                        f"{resign.movecount} moves"
                    )
                    return Adjudicated(Adjudication.RESIGN, not mover, reason)
            else:
                loser: bool | None = None
                if cp is not None and abs(cp) >= resign.score and cp != 0:
                    loser = mover if cp < 0 else not mover
                if loser is None:
                    self.agreed = (True, 0)
                else:
                    side, run = self.agreed
                    self.agreed = (loser, run + 1 if side == loser else 1)
                if self.agreed[1] >= 2 * resign.movecount:
                    loser = self.agreed[0]
                    reason = (
                        f"{'White' if loser else 'Black'} resigned: both sides scored it lost by at "
                        f"least {resign.score} cp for {resign.movecount} moves each"
                    )
                    return Adjudicated(Adjudication.RESIGN, not loser, reason)
        if draw is not None:
            self.quiet = self.quiet + 1 if cp is not None and abs(cp) <= draw.score else 0
            if self.quiet >= 2 * draw.movecount and board.fullmove_number > draw.movenumber:
                reason = (
                    f"draw adjudicated: both scores within {draw.score} cp for {draw.movecount} "
                    f"moves each after move {draw.movenumber}"
                )
                return Adjudicated(Adjudication.DRAW, None, reason)
        return None


def play_game(
    white: Player,
    black: Player,
    opening: Opening = (),
    *,
    max_plies: int = 200,
    time_control: TimeControl | None = None,
    cancel: threading.Event | None = None,
    adjudicator: Adjudicator | None = None,
    time_margin: float = 0.0,
    on_event: Callable[[MatchEvent], object] | None = None,
    index: int = 0,
) -> GameRecord:
    """Plays one game from the start position after ``opening`` (moves), or from ``opening`` when it
    is a FEN. A threefold repetition or ``max_plies`` moves in all end it as a draw.

    With a ``time_control`` each side's thinking time is measured and taken from its clock (a
    player with its own clock, :attr:`~congo.players.Player.time_control`, is timed by that one
    instead, the other side by ``time_control``, or untimed without one); a side
    whose clock runs out by more than ``time_margin`` seconds loses on time; a move late by less is
    reported (a ``"late_move"`` event), its clock set to zero before the increment. An outside
    engine (raising :class:`~congo.engine.EngineError`) that answers an illegal move or none, or
    dies, loses the game. ``adjudicator`` ends games early (resignation, draw, endgame tables).
    ``on_event(event)`` is told of each :class:`MatchEvent` as it happens (from this thread); the
    events are in the record too. ``index`` is the game's number in its match. ``cancel``, when
    set from another thread, ends the game early with ``_Cancelled``."""
    if not math.isfinite(time_margin) or time_margin < 0:
        raise ValueError(f"the time margin must be a number of seconds of at least 0, got {time_margin}")
    start_fen = opening if isinstance(opening, str) else None
    moves: list[Move] = [] if isinstance(opening, str) else list(opening)
    board = Board() if start_fen is None else Board(start_fen)
    for move in moves:
        board.push(move)
    clocks: list[float | None] = [None] * len(moves)
    evals: list[Score | None] = [None] * len(moves)
    infos: list[MoveInfo | None] = [None] * len(moves)
    events: list[MatchEvent] = []
    white.new_game()
    black.new_game()
    controls = _side_controls(white, black, time_control)
    remaining = {side: control.base for side, control in controls.items() if control is not None}
    moves_made = {True: 0, False: 0}
    judge = None if adjudicator is None else _Adjudication(adjudicator)

    def report(kind: str, message: str, player: Player, overrun: float | None = None) -> None:
        event = MatchEvent(kind, message, player.name, index, board.fen(), overrun)
        events.append(event)
        if on_event is not None:
            on_event(event)

    def finish(outcome: Outcome | Adjudicated) -> GameRecord:
        white_command, black_command = (
            None if p.command is None else shlex.join(p.command) for p in (white, black)
        )
        shared, white_control, black_control = _record_controls(controls)
        return GameRecord(
            white.name,
            black.name,
            moves,
            board,
            outcome,
            clocks,
            evals,
            shared,
            index,
            start_fen,
            infos,
            events,
            white_command,
            black_command,
            white_time_control=white_control,
            black_time_control=black_control,
        )

    def lose(kind: Adjudication, player: Player, reason: str, overrun: float | None = None) -> GameRecord:
        report(kind.name.lower(), reason, player, overrun)
        return finish(Adjudicated(kind, not board.turn, reason))

    while True:
        if cancel is not None and cancel.is_set():
            raise _Cancelled()
        outcome = board.outcome(claim_draw=True, max_plies=max_plies)
        if outcome is not None:
            return finish(outcome)
        if judge is not None:
            verdict = judge.tablebase(board)
            if verdict is not None:
                return finish(verdict)
        turn = board.turn
        player = white if turn else black
        who = f"{player.name} ({'White' if turn else 'Black'})"  # both may share an id name
        limit = None
        control = controls[turn]
        if control is not None:
            # Each clock with its own increment; an untimed opponent's clock is left out.
            white_inc, black_inc = (
                None if c is None else c.increment for c in (controls[True], controls[False])
            )
            limit = Limit(
                white_clock=remaining.get(True),
                black_clock=remaining.get(False),
                white_inc=white_inc,
                black_inc=black_inc,
                remaining_moves=None
                if control.moves is None
                else control.moves - moves_made[turn] % control.moves,
            )
        started = time.perf_counter()
        try:
            played = player.play(board, limit)
        except TimeoutError as error:
            if cancel is not None and cancel.is_set():
                raise _Cancelled() from None
            if control is None:
                return lose(Adjudication.ENGINE_FAILURE, player, f"{who}: {error} in {board.fen()}")
            elapsed = time.perf_counter() - started
            over = elapsed - remaining[turn]
            reason = f"{who} lost on time: no move after {elapsed:.3f} s, {1000 * over:.0f} ms over its clock"
            return lose(Adjudication.TIME_FORFEIT, player, reason, over)
        except EngineError as error:
            if cancel is not None and cancel.is_set():
                raise _Cancelled() from None
            if isinstance(error, EngineTerminatedError):
                return lose(Adjudication.ENGINE_FAILURE, player, f"{who} failed: {error}")
            return lose(Adjudication.ILLEGAL_MOVE, player, f"{who}: {error} in {board.fen()}")
        elapsed = time.perf_counter() - started
        if cancel is not None and cancel.is_set():
            raise _Cancelled()
        if control is not None:
            remaining[turn] -= elapsed
            if remaining[turn] < -time_margin:
                reason = (
                    f"{who} lost on time: {elapsed:.3f} s for its move, "
                    f"{-1000 * remaining[turn]:.0f} ms over its clock"
                )
                return lose(Adjudication.TIME_FORFEIT, player, reason, -remaining[turn])
            if remaining[turn] < 0:
                message = (
                    f"{who} was {-1000 * remaining[turn]:.0f} ms late with move "
                    f"{board.fullmove_number} (within the {1000 * time_margin:.0f} ms margin)"
                )
                report("late_move", message, player, -remaining[turn])
                remaining[turn] = 0.0
            moves_made[turn] += 1
            remaining[turn] += control.increment
            if control.moves is not None and moves_made[turn] % control.moves == 0:
                remaining[turn] += control.base
        chosen = played.move
        if chosen is None:
            return lose(Adjudication.ENGINE_FAILURE, player, f"{who} answered no move in {board.fen()}")
        if not board.is_legal(chosen):
            reason = f"{who} played the illegal move {chosen.uci()} in {board.fen()}"
            return lose(Adjudication.ILLEGAL_MOVE, player, reason)
        score = played.info.get("score")
        evals.append(None if score is None else score.white())
        clocks.append(remaining[turn] if control is not None else None)
        depth, nodes, reported = (played.info.get(key) for key in ("depth", "nodes", "time"))
        infos.append(
            MoveInfo(
                elapsed,
                None if score is None else score.pov(turn),
                depth if isinstance(depth, int) else None,
                nodes if isinstance(nodes, int) else None,
                float(reported) if isinstance(reported, (int, float)) else None,
            )
        )
        board.push(chosen)
        if judge is not None:
            verdict = judge.after_move(board, turn, player.name, infos[-1].score if infos[-1] else None)
            if verdict is not None:
                return finish(verdict)


def play_match_game(
    first: tuple[str, PlayerFactory],
    second: tuple[str, PlayerFactory],
    index: int,
    opening: Opening,
    *,
    seed: int = 1,
    max_plies: int = 200,
    time_control: TimeControl | None = None,
    cancel: threading.Event | None = None,
    on_players: Callable[[list[Player]], object] | None = None,
    adjudicator: Adjudicator | None = None,
    time_margin: float = 0.0,
    on_event: Callable[[MatchEvent], object] | None = None,
) -> GameRecord:
    """Game ``index`` of a match (what :func:`run_match` plays, usable on its own, e.g. on another
    machine): fresh players seeded from the game's number, the first player White in even games,
    then closed again. ``on_players(players)`` is told the players while the game runs (to abort
    them from another thread) and ``[]`` after. (:func:`run_match` keeps its
    :attr:`~congo.players.Player.reusable` players from one game to the next instead.)"""
    slot = _Slot()
    if cancel is not None:
        slot.cancel = cancel
    try:
        return _play_slot_game(
            slot,
            ("first", first[1]),
            ("second", second[1]),
            index,
            opening,
            seed=seed,
            on_players=on_players,
            max_plies=max_plies,
            time_control=time_control,
            adjudicator=adjudicator,
            time_margin=time_margin,
            on_event=on_event,
        )
    finally:
        slot.close()


@dataclasses.dataclass
class MatchResult:
    """Wins, draws and losses from the first player's point of view, the game pairs, and the games.

    Games ``2k`` and ``2k+1`` of a match share an opening with colours swapped: once both are in,
    the pair's points for the first player (0, ½, 1, 1½ or 2) are counted in :attr:`pentanomial`."""

    first: str
    second: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    games: list[GameRecord] = dataclasses.field(default_factory=list)
    pentanomial: list[int] = dataclasses.field(default_factory=lambda: [0] * 5)
    """Pairs worth 0, ½, 1, 1½ and 2 points to the first player (fastchess's ``Ptnml(0-2)``)."""
    sprt: SPRT | None = None
    """The test the match ran under, if any."""
    llr: float | None = None
    """The SPRT's log-likelihood ratio after the last finished pair (``None`` without an SPRT)."""
    decision: str | None = None
    """``"H1"`` or ``"H0"`` once the SPRT accepted one (the match then stopped), else ``None``."""
    repeats: str | None = None
    """Set when deterministic players replay pairs (:func:`repeated_pairs` says how): each distinct
    pair is then counted once, the replays kept in :attr:`games` but not in the counts."""
    replayed: int = 0
    """Games not counted because they replayed a pair already counted (with :attr:`repeats`)."""
    _points: dict[int, float] = dataclasses.field(default_factory=dict, repr=False, compare=False)
    _pair_of_opening: dict[object, int] = dataclasses.field(default_factory=dict, repr=False, compare=False)

    @property
    def played(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def pairs(self) -> int:
        """Finished game pairs."""
        return sum(self.pentanomial)

    @property
    def score(self) -> float:
        """The first player's score fraction, 0 … 1."""
        return (self.wins + 0.5 * self.draws) / self.played if self.played else 0.5

    def estimate(self) -> EloEstimate:
        """The Elo difference (first minus second) with its 95 % interval and the likelihood of
        superiority: from the pairs (pentanomial) once a pair is finished, else from the games
        (trinomial). See :mod:`congo.stats`."""
        if self.pairs:
            return elo_pentanomial(self.pentanomial)
        return elo_trinomial(self.wins, self.draws, self.losses)

    def elo(self) -> tuple[float, float]:
        """The Elo difference and half its 95 % interval (``inf`` where no interval is defined);
        :meth:`estimate` says more."""
        estimate = self.estimate()
        if estimate.samples == 0:
            return 0.0, math.inf
        return estimate.elo, math.inf if estimate.error is None else estimate.error

    def add(self, game: GameRecord) -> None:
        """Counts a finished game (``game.index`` says which player had White and which pair it
        belongs to) and keeps it; with an :attr:`sprt`, updates :attr:`llr` and :attr:`decision`
        when it completes a pair."""
        winner = game.outcome.winner
        first_is_white = game.index % 2 == 0
        # Outside engines (those with a command) by their id name, unless both share one.
        named = [(game.white, game.white_command), (game.black, game.black_command)]
        (first_name, first_command), (second_name, second_command) = named if first_is_white else named[::-1]
        first_name = first_name if first_command is not None else self.first
        second_name = second_name if second_command is not None else self.second
        if first_name != second_name:
            self.first, self.second = first_name, second_name
        if self.repeats is not None:
            opening = game.start_fen or tuple(move.uci() for move in game.opening)
            if self._pair_of_opening.setdefault(opening, game.index // 2) != game.index // 2:
                self.games.append(game)
                self.replayed += 1
                return
        if winner is None:
            self.draws += 1
            points = 0.5
        elif winner == first_is_white:
            self.wins += 1
            points = 1.0
        else:
            self.losses += 1
            points = 0.0
        self.games.append(game)
        partner = game.index ^ 1
        if partner in self._points:
            self.pentanomial[round(2 * (points + self._points.pop(partner)))] += 1
            if self.sprt is not None:
                self.llr = self.sprt.llr_pentanomial(self.pentanomial)
                self.decision = self.sprt.decision(self.llr)
        else:
            self._points[game.index] = points

    def standing(self, game: GameRecord) -> str:
        """A progress line after ``game``: the score so far, the LLR under an SPRT, the last game."""
        llr = "" if self.llr is None else f"  LLR {self.llr:.2f}"
        return (
            f"+{self.wins} ={self.draws} -{self.losses}  {100 * self.score:.1f}%{llr}  "
            f"(last: {game.white} vs {game.black} {game.result()})"
        )

    def summary(self) -> str:
        """The standings as ``congo match`` prints them: the score, the Elo difference with its
        interval and the LOS, the pairs, and the SPRT's line (see ``docs/engine.md``)."""
        estimate = self.estimate()
        lines = [
            f"{self.first} vs {self.second}: +{self.wins} ={self.draws} -{self.losses} "
            f"({self.played} games), score {100 * self.score:.1f}%"
        ]
        los = "" if estimate.los is None else f", LOS {100 * estimate.los:.1f} %"
        extra = ""
        if self.pairs:
            normalized = normalized_elo_pentanomial(self.pentanomial)
            if normalized is not None:
                extra = f", nElo {normalized[0]:+.0f} ± {normalized[1]:.0f}"
            elif estimate.interval is None and estimate.score != 0.5:
                bound = elo_lower_bound(self.pentanomial)
                extra = f", {'at least' if estimate.score > 0.5 else 'at most'} {bound:+.0f} (one-sided 95 %)"
        lines.append(f"{estimate}{los}{extra}")
        if self.pairs:
            lines.append(f"Ptnml(0-2): [{', '.join(map(str, self.pentanomial))}]")
        if self.sprt is not None:
            verdict = {"H1": "  H1 accepted", "H0": "  H0 accepted", None: ""}[self.decision]
            lines.append(self.sprt.status(0.0 if self.llr is None else self.llr) + verdict)
        if self.repeats is not None:
            lines.append(
                f"repeats: {self.repeats}; {self.replayed} replayed game{'s' * (self.replayed != 1)} "
                "not counted (each distinct pair once)"
            )
        adjudicated = collections.Counter(
            game.outcome.termination.name.lower()
            for game in self.games
            if game.outcome.termination in (Adjudication.RESIGN, Adjudication.DRAW, Adjudication.TABLEBASE)
        )
        if adjudicated:
            lines.append(
                "adjudicated: " + ", ".join(f"{kind} {n}" for kind, n in sorted(adjudicated.items()))
            )
        lines.extend(self._timing())
        return "\n".join(lines)

    def _timing(self) -> list[str]:
        """Per player: the latency (measured time beyond the reported search time), the moves late
        within the time margin and the games lost on time with their overruns, where there are any."""
        latency: dict[str, list[float]] = {}
        late: dict[str, list[float]] = {}
        forfeits: dict[str, list[float]] = {}
        for game in self.games:
            white_first = True if game.start_fen is None else Board(game.start_fen).turn
            for ply, info in enumerate(game.infos):
                if info is not None and info.latency is not None:
                    name = game.white if (ply % 2 == 0) == white_first else game.black
                    latency.setdefault(name, []).append(info.latency)
            for event in game.events:
                if event.kind == "late_move" and event.overrun is not None:
                    late.setdefault(event.player, []).append(1000 * event.overrun)
                if event.kind == "time_forfeit" and event.overrun is not None:
                    forfeits.setdefault(event.player, []).append(1000 * event.overrun)
        lines = []
        for name, values in latency.items():
            mean, worst = 1000 * sum(values) / len(values), 1000 * max(values)
            lines.append(f"latency {name}: mean {mean:.1f} ms, max {worst:.1f} ms ({len(values)} moves)")
        for name, overruns in late.items():
            count = len(overruns)
            lines.append(
                f"late {name}: {count} move{'s' * (count != 1)} within the time margin, "
                f"at most {max(overruns):.0f} ms over"
            )
        for name, overruns in forfeits.items():
            count = len(overruns)
            lines.append(
                f"lost on time {name}: {count} game{'s' * (count != 1)}, by {min(overruns):.0f} to "
                f"{max(overruns):.0f} ms"
            )
        return lines


def elo(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """The Elo difference implied by a match score, counting games one by one, and the half-width of
    its 95 % interval: ``inf`` where the interval is not defined (no variance, a score of 0 or
    100 %, or an end of the interval beyond them). :func:`congo.stats.elo_trinomial` says more."""
    estimate = elo_trinomial(wins, draws, losses)
    if estimate.samples == 0:
        return 0.0, math.inf
    return estimate.elo, math.inf if estimate.error is None else estimate.error


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run_match`: the games in progress were abandoned; ``result`` holds every
    finished game."""

    def __init__(self, result: MatchResult) -> None:
        super().__init__()
        self.result = result


class _Slot:
    """A match worker's state (on a thread or a Ray actor): the players it keeps from one game to
    the next (the :attr:`~congo.players.Player.reusable` ones, by the key of the player they play
    for), the players of its game in progress, to abort them, and the flag that game checks
    between moves."""

    def __init__(self) -> None:
        self.players: list[Player] = []
        self.cancel = threading.Event()
        self.lock = threading.Lock()
        self.kept: dict[Hashable, Player] = {}

    def track(self, players: list[Player]) -> None:
        with self.lock:
            self.players = players

    def player(self, key: Hashable, factory: PlayerFactory, seed: int) -> Player:
        """The player for ``key``: the one kept from an earlier game, or a new one from ``seed``."""
        kept = self.kept.get(key)
        if kept is not None:
            return kept
        player = factory(seed)
        if player.reusable:
            self.kept[key] = player
        return player

    def release(self, player: Player) -> None:
        """After a game: closes a player that is not kept."""
        if not any(player is kept for kept in self.kept.values()):
            with contextlib.suppress(Exception):
                player.close()

    def close(self) -> None:
        """Closes the kept players (the end of the match)."""
        kept, self.kept = list(self.kept.values()), {}
        for player in kept:
            with contextlib.suppress(Exception):
                player.close()


def _stop_slot(slot: _Slot) -> None:
    """Ends the slot's game in progress (the pool's ``stop`` hook: Ctrl-C, a decided SPRT)."""
    slot.cancel.set()
    with slot.lock:
        playing = list(slot.players)
    for player in playing:
        with contextlib.suppress(Exception):
            player.abort()


def _close_slot(slot: _Slot) -> None:
    """Closes the slot's kept players (the pool's ``finish`` hook: the end of the match)."""
    slot.close()


def _start_failure(player: Player) -> str | None:
    """Starts ``player`` for its next game (an outside engine's process, anew after a failure):
    ``None`` once started, else why it could not be."""
    try:
        player.new_game()
    except (EngineError, OSError, TimeoutError) as failure:
        return f"{player.name} could not be started for this game: {failure or type(failure).__name__}"
    return None


def _forfeited(
    white: Player,
    black: Player,
    opening: Opening,
    white_failed: bool,
    reason: str,
    play_options: dict[str, Any],
) -> GameRecord:
    """The record of a game lost before its first move by a player that could not be started."""
    moves: list[Move] = [] if isinstance(opening, str) else list(opening)
    board = Board(opening) if isinstance(opening, str) else Board()
    for move in moves:
        board.push(move)
    outcome = Adjudicated(Adjudication.ENGINE_FAILURE, not white_failed, reason)
    shared, white_control, black_control = _record_controls(
        _side_controls(white, black, play_options.get("time_control"))
    )
    return GameRecord(
        white.name,
        black.name,
        moves,
        board,
        outcome,
        [None] * len(moves),
        [None] * len(moves),
        shared,
        start_fen=opening if isinstance(opening, str) else None,
        white_time_control=white_control,
        black_time_control=black_control,
    )


def _play_slot_game(
    slot: _Slot,
    first: tuple[Hashable, PlayerFactory],
    second: tuple[Hashable, PlayerFactory],
    index: int,
    opening: Opening,
    *,
    seed: int,
    recover: bool = False,
    on_players: Callable[[list[Player]], object] | None = None,
    **play_options: Any,
) -> GameRecord:
    """Game ``index`` of a pairing on ``slot``: its players kept or made (seeded from the game's
    number), the first player White in even games; ``play_options`` go to :func:`play_game`.
    With ``recover``, a player that cannot be started loses the game instead of raising."""
    a = slot.player(first[0], first[1], seed * 100_003 + 2 * index)
    b = slot.player(second[0], second[1], seed * 100_003 + 2 * index + 1)
    first_is_white = index % 2 == 0
    white, black = (a, b) if first_is_white else (b, a)
    track = slot.track if on_players is None else on_players
    track([a, b])
    on_event = play_options.get("on_event")
    notes: list[MatchEvent] = []  # said before the game starts, kept in its record

    def note(kind: str, message: str, player: Player) -> None:
        event = MatchEvent(kind, message, player.name, index)
        notes.append(event)
        if on_event is not None:
            on_event(event)

    try:
        for player in (white, black) if recover else ():
            if isinstance(player, UciPlayer) and player.failed:
                note(
                    "restart",
                    f"{player.name} failed in its previous game: a new process plays this one",
                    player,
                )
        for player in (white, black) if recover else ():
            failure = _start_failure(player)
            if failure is not None:
                note("engine_failure", failure, player)
                game = _forfeited(white, black, opening, player is white, failure, play_options)
                break
        else:
            game = play_game(white, black, opening, cancel=slot.cancel, index=index, **play_options)
    finally:
        track([])
        slot.release(a)
        slot.release(b)
    game.index = index
    game.events[:0] = notes
    return game


def _schedule(
    pairs: int, openings: Sequence[str] | None, opening_plies: int | None, seed: int
) -> list[Opening]:
    """The opening of each pair: the given FENs or the bundled suite, in order and over again when
    the match is longer; or distinct random openings of ``opening_plies`` plies."""
    if openings is not None and opening_plies is not None:
        raise ValueError("give openings or opening_plies, not both")
    if opening_plies is not None:
        return list(make_openings(pairs, opening_plies, seed))
    if openings is None:
        fens: list[str] = default_openings()
    else:
        if isinstance(openings, str):
            raise TypeError("openings must be a list of FENs (read a file with match.read_openings)")
        fens = list(openings)
        if not fens:
            raise ValueError("openings is empty")
        for fen in fens:
            if Position(fen).outcome() is not None:
                raise ValueError(f"the game is already over in the opening {fen!r}")
    return [fens[pair % len(fens)] for pair in range(pairs)]


def run_match(
    first: tuple[str, PlayerFactory],
    second: tuple[str, PlayerFactory],
    *,
    games: int,
    openings: Sequence[str] | None = None,
    opening_plies: int | None = None,
    seed: int = 1,
    max_plies: int = 200,
    concurrency: int = 1,
    time_control: TimeControl | None = None,
    sprt: SPRT | None = None,
    on_game: Callable[[MatchResult, GameRecord], object] | None = None,
    ray: str | None = None,
    adjudicator: Adjudicator | None = None,
    time_margin: float = 0.0,
    on_event: Callable[[MatchEvent], object] | None = None,
    allow_repeats: bool = False,
    recover: bool = False,
    resume: str | os.PathLike[str] | None = None,
) -> MatchResult:
    """Plays ``games`` games in pairs: each pair starts from one opening, the first player White in
    the pair's first game (even ``index``) and Black in its second. An odd last game is played
    alone, the first player White: it counts in the wins, draws and losses, not in the pairs.

    The openings: ``openings``, a list of FENs (:func:`read_openings` reads a file), in order and
    over again when there are more pairs than openings; or, with ``opening_plies``, distinct random
    openings of that many plies from the start position (reproducible from ``seed``); by default
    the bundled balanced suite (:func:`default_openings`).

    ``concurrency`` games run at once on the threads of a :mod:`congo.distributed` pool. Each
    worker keeps its :attr:`~congo.players.Player.reusable` players (the built-in engine, an
    outside engine: one process per player and worker, told ``ucinewgame`` between games) from
    game to game; the others are made fresh for each game, seeded from its number
    (:func:`play_match_game`). ``on_game(result so far, game)`` is called after each game, in game
    order, from this thread. With ``sprt`` (an :class:`~congo.stats.SPRT`) the
    log-likelihood ratio is computed after each finished pair and the match stops as soon as it
    crosses a bound (the games in progress are abandoned): ``result.decision`` says which.

    Ctrl-C (``KeyboardInterrupt``) stops the match promptly: the players of the games in progress
    are aborted, those games dropped, and :class:`MatchInterrupted` raised with the finished ones.
    With ``ray=ADDRESS`` (``"auto"``, ``"ray://host:10001"``, ``"local"``; ``pip install
    'congo-chess[ray]'``) the same pool plays the games on Ray actors over the cluster's CPUs
    (``concurrency`` of them when above 1, else one per CPU), the same games as on threads.

    ``adjudicator`` (:class:`Adjudicator`) ends games early by resignation, draw or endgame tables;
    ``time_margin`` is how many seconds a move may overrun its clock and be reported, not lost.
    ``on_event(event)`` is told of each :class:`MatchEvent` (an illegal move, a crash, a time
    forfeit, a late move) as it happens, from the thread playing the game (on Ray, from this
    thread once the game is in).

    Deterministic players (:func:`is_deterministic`) replay a pair exactly when its opening comes
    round again: such a match is refused (``ValueError``) unless ``allow_repeats``; then it is played,
    said (a ``"repeats"`` event before the first game, and the summary) and each distinct pair is
    counted once in the pairs, the Elo and the SPRT.

    An outside engine that dies or fails during a game loses it and is started anew for its next
    game. ``recover``: one that cannot be (re)started before a game loses that game too and the
    match goes on (without it, the match ends with the error). ``resume=PATH``: the match's state
    (its fingerprint and the finished games) is kept in ``PATH``, each game synced to it as it ends; a
    match run again with the same arguments and ``resume=PATH`` takes its finished games from it
    (without calling ``on_game`` for them) and plays the others: with deterministic players it ends
    with the same games, counts and LLR as a match never interrupted (see :mod:`congo.tournament`).

    Raises ``ValueError`` for a number of games outside 1 … :data:`MAX_GAMES`, a concurrency below
    1, both ``openings`` and ``opening_plies``, a bad opening, or a ``resume`` file of another
    match, before any game is played."""
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games must be from 1 to {MAX_GAMES:,}, got {games}")
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    if sprt is not None and not isinstance(sprt, SPRT):
        raise TypeError(f"sprt must be a congo.stats.SPRT, got {type(sprt).__name__}")
    schedule = _schedule((games + 1) // 2, openings, opening_plies, seed)
    result = MatchResult(first[0], second[0], sprt=sprt)
    repeats = repeated_pairs(first, second, schedule, games=games, time_control=time_control)
    if repeats is not None:
        if not allow_repeats:
            raise ValueError(
                f"{repeats}: give more openings, fewer games or --opening-plies, or allow repeats"
            )
        result.repeats = repeats
        if on_event is not None:
            on_event(MatchEvent("repeats", repeats))
    play_options: dict[str, Any] = {
        "max_plies": max_plies,
        "time_control": time_control,
        "adjudicator": adjudicator,
        "time_margin": time_margin,
        "on_event": on_event if ray is None else None,
    }

    def finished(result: MatchResult, game: GameRecord) -> None:
        if ray is not None and on_event is not None:
            for event in game.events:  # told here: a callback does not cross to Ray actors
                on_event(event)
        if on_game is not None:
            on_game(result, game)

    from congo.tournament import run_pairing

    try:
        run_pairing(
            first,
            second,
            result,
            games=games,
            schedule=schedule,
            seed=seed,
            concurrency=concurrency,
            ray=ray,
            recover=recover,
            resume=resume,
            play_options=play_options,
            on_game=finished,
        )
    except KeyboardInterrupt:
        raise MatchInterrupted(result) from None
    return result


def write_records(path: str, games: Iterable[GameRecord], *, event: str) -> None:
    """Saves games as PGN-style records, one after the other (``Round`` is each game's number in
    its match). The file is replaced whole once every record is written (``congo._files``)."""
    from congo._files import atomic_output

    with atomic_output(path, inputs=()) as out:
        for game in games:
            out.write(game.record(event=event))
            out.write("\n\n")
