"""Matches between players: engine configurations and simple built-in opponents.

This is what ``congo match`` runs, and how the engine's features and weights were chosen (the logs
are in ``docs/engine.md``). Games start from an opening suite — the bundled balanced one
(:func:`default_openings`), a file of FENs (:func:`read_openings`), or random plies from the start
position (:func:`make_openings`) — and each opening is played twice with colours swapped (a *pair*),
so that neither side profits from a lucky opening. The result reports the Elo difference with its
95 % interval from the pairs (the pentanomial model of :mod:`congo.stats`), the likelihood of
superiority, and, with an :class:`~congo.stats.SPRT`, the log-likelihood ratio; the match stops once
the SPRT accepts a hypothesis.

Players are described by short strings (see :func:`parse_player`)::

    engine:time=0.1              the built-in engine, 0.1 s per move
    engine:nodes=20000,null_move=0   20,000 nodes per move, null-move pruning off
    alphabeta:depth=2            plain alpha-beta over material only, 2 plies
    greedy                       takes the most material now, else a random move
    random                       a random legal move
    uci:congo uci                any engine speaking docs/protocol.md, started with this command line
    uci[Hash=64,time=0.5]:./mybot   the same with options and a per-move limit

Games may be played on a clock (:class:`TimeControl`, ``congo match --tc 10+0.1``): each side's
time is measured around its moves, a side whose clock runs out loses on time, and an outside engine
that answers an illegal move, no move, or dies, loses the game. Records carry each move's remaining
clock (``[%clk]``) and, where the player reported one, its evaluation (``[%eval]``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import functools
import importlib.resources
import math
import random
import shlex
import threading
import time
from collections.abc import Iterable, Sequence
from typing import Callable, Protocol, Union

from congo import _core, pgn
from congo._core import Move, Position
from congo._uci_process import _Connection
from congo.board import Board, Outcome
from congo.distributed import open_pool
from congo.engine import (
    Engine,
    EngineError,
    EngineTerminatedError,
    Limit,
    PlayResult,
    PovScore,
    Score,
    SimpleEngine,
)
from congo.pieces import CROCODILE, ELEPHANT, GIRAFFE, LION, MONKEY, PAWN, SUPERPAWN, ZEBRA
from congo.stats import SPRT, EloEstimate, elo_pentanomial, elo_trinomial

__all__ = [
    "MAX_ALPHABETA_DEPTH",
    "MAX_GAMES",
    "SPRT",
    "Adjudicated",
    "Adjudication",
    "AlphaBetaPlayer",
    "EnginePlayer",
    "GameRecord",
    "GreedyPlayer",
    "MatchInterrupted",
    "MatchResult",
    "Player",
    "RandomPlayer",
    "TimeControl",
    "UciPlayer",
    "default_openings",
    "elo",
    "make_openings",
    "parse_openings",
    "parse_player",
    "play_game",
    "play_match_game",
    "read_openings",
    "run_match",
]

MAX_ALPHABETA_DEPTH = 8
"""The deepest :class:`AlphaBetaPlayer` (plain Python: depth 6 already takes over 30 s a game)."""

Opening = Union[Sequence[Move], str]
"""Where a game starts: moves from the start position, or a FEN."""

MAX_GAMES = 1_000_000
"""The most games one match may ask for (the openings are made up front)."""

# Material values of the simple players (pawn, superpawn, monkey, giraffe, zebra, elephant, crocodile):
# deliberately plain round numbers, independent of the engine's tuned weights.
_MATERIAL = {PAWN: 100, SUPERPAWN: 250, MONKEY: 300, GIRAFFE: 300, ZEBRA: 300, ELEPHANT: 300, CROCODILE: 400}
_WIN = 1_000_000


class Player(Protocol):
    """Anything that picks a move for a board.

    A player may also have ``play(board, limit) -> PlayResult`` (used instead of ``choose``: it
    receives the clock as a :class:`~congo.Limit` in timed games, ``None`` otherwise, and may report
    its evaluation), ``abort()`` (end a move in progress from another thread, for Ctrl-C) and
    ``close()`` (called after each game)."""

    name: str

    def choose(self, board: Board) -> Move:
        """A legal move for the side to move (the game is not over)."""
        ...

    def new_game(self) -> None:
        """Called before each game."""
        ...


class RandomPlayer:
    """A uniformly random legal move."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self._random = random.Random(seed)

    def choose(self, board: Board) -> Move:
        return self._random.choice(list(board.legal_moves))

    def new_game(self) -> None:
        pass


def _material(position: Position) -> int:
    """Material balance for the side to move; a captured lion is a win or a loss."""
    if not position.pieces_mask(LION, position.turn):
        return -_WIN
    if not position.pieces_mask(LION, not position.turn):
        return _WIN
    total = 0
    for piece_type, value in _MATERIAL.items():
        own = bin(position.pieces_mask(piece_type, position.turn)).count("1")
        theirs = bin(position.pieces_mask(piece_type, not position.turn)).count("1")
        total += value * (own - theirs)
    return total


class GreedyPlayer:
    """One ply of material: the move that leaves the most material (a lion capture first), ties
    broken at random."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "greedy"
        self._random = random.Random(seed)

    def choose(self, board: Board) -> Move:
        position = board.position
        scored = [(-_material(position.push(move)), move) for move in position.legal_moves()]
        best = max(score for score, _ in scored)
        return self._random.choice([move for score, move in scored if score == best])

    def new_game(self) -> None:
        pass


class AlphaBetaPlayer:
    """Fixed-depth alpha-beta (negamax) over material only: the classic baseline opponent. Captures
    are tried first; ties between equally good root moves are broken at random."""

    def __init__(self, depth: int = 2, seed: int = 0) -> None:
        if isinstance(depth, bool) or not isinstance(depth, int):
            raise ValueError(f"alphabeta depth must be a positive int, got {depth!r}")
        if not 1 <= depth <= MAX_ALPHABETA_DEPTH:
            raise ValueError(
                f"alphabeta depth must be from 1 to {MAX_ALPHABETA_DEPTH}, got {depth} "
                "(it searches in plain Python: each ply multiplies its time; use engine:depth=N deeper)"
            )
        self.name = f"alphabeta:depth={depth}"
        self.depth = depth
        self._random = random.Random(seed)

    def _negamax(self, position: Position, depth: int, alpha: int, beta: int) -> int:
        outcome = position.outcome()
        if outcome is not None:
            return 0 if outcome.winner is None else -_WIN
        if depth == 0:
            return _material(position)
        moves = sorted(position.legal_moves(), key=lambda m: not position.is_capture(m))
        best = -2 * _WIN
        for move in moves:
            score = -self._negamax(position.push(move), depth - 1, -beta, -alpha)
            if score > best:
                best = score
                alpha = max(alpha, score)
                if alpha >= beta:
                    break
        return best

    def choose(self, board: Board) -> Move:
        position = board.position
        scored = []
        for move in position.legal_moves():
            # A full window at the root, so that every move's score is exact and ties are real.
            scored.append((-self._negamax(position.push(move), self.depth - 1, -2 * _WIN, 2 * _WIN), move))
        best = max(score for score, _ in scored)
        return self._random.choice([move for score, move in scored if score == best])

    def new_game(self) -> None:
        pass


class EnginePlayer:
    """The built-in engine with a per-move limit and options; its table is cleared between games. On
    a clock it plays by the clock (its time manager) instead of the per-move limit."""

    def __init__(
        self,
        limit: Limit,
        *,
        threads: int = 1,
        hash_mb: int = _core.GAME_POOL_HASH_MB,
        options: dict[str, int] | None = None,
        name: str = "engine",
    ) -> None:
        self.name = name
        self.limit = limit
        self.engine = Engine(threads=threads, hash_mb=hash_mb, options=options)

    def choose(self, board: Board) -> Move:
        move = self.engine.search(board, self.limit).move
        if move is None:  # only for a finished game, which a match never asks about
            raise RuntimeError(f"the engine found no move in {board.fen()}")
        return move

    def play(self, board: Board, limit: Limit | None) -> PlayResult:
        """The engine's move and what it thinks of it, by the clock in ``limit`` if there is one."""
        return self.engine.play(board, self.limit if limit is None else limit)

    def new_game(self) -> None:
        self.engine.clear()

    def abort(self) -> None:
        """Ends a search in progress at once (from another thread)."""
        self.engine.stop()


class UciPlayer:
    """An engine in another process speaking the protocol of ``docs/protocol.md``, driven through
    :class:`~congo.engine.SimpleEngine`. It is started in its own process group, so that Ctrl-C in
    a terminal reaches the match runner only, and stopped by :meth:`close`."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        limit: Limit | None = None,
        options: dict[str, str] | None = None,
        name: str | None = None,
    ) -> None:
        self.command = list(command)
        self.name = name or "uci:" + shlex.join(self.command)
        self.limit = limit or Limit(time=0.1)
        self.options = dict(options or {})
        self._engine: SimpleEngine | None = None
        self._starting: _Connection | None = None
        self._lock = threading.Lock()
        self._aborted = False
        self._game = 0

    def _started(self) -> SimpleEngine:
        if self._engine is None:
            # SimpleEngine.popen_uci's steps, keeping the process at hand so that abort() can kill
            # an engine still starting (a Ctrl-C must not wait for its handshake).
            connection = _Connection(self.command, {"start_new_session": True})
            with self._lock:
                self._starting = connection
                aborted = self._aborted
            engine = SimpleEngine(connection, timeout=30.0)
            try:
                if aborted:
                    raise EngineTerminatedError(f"{self.name} was stopped while starting")
                engine._handshake()
                engine.configure(self.options)
            except BaseException:
                connection.kill()
                raise
            finally:
                with self._lock:
                    self._starting = None
            engine.timeout = 5.0
            self._engine = engine
        return self._engine

    def choose(self, board: Board) -> Move:
        move = self.play(board, None).move
        if move is None:
            raise EngineError(f"{self.name} answered no move in {board.fen()}")
        return move

    def play(self, board: Board, limit: Limit | None) -> PlayResult:
        return self._started().play(board, self.limit if limit is None else limit, game=self._game)

    def new_game(self) -> None:
        # Started (and its options set) before the clock runs: starting a process takes a while.
        self._game += 1
        self._started()

    def abort(self) -> None:
        """Kills the engine process, even one still starting (a search waiting on it ends with an
        error)."""
        with self._lock:
            self._aborted = True
            starting = self._starting
        if starting is not None:
            starting.kill()
        if self._engine is not None:
            self._engine.kill()

    def close(self) -> None:
        if self._engine is not None:
            self._engine.quit()
            self._engine = None


PlayerFactory = Callable[[int], Player]
"""Makes a fresh player from a seed (each concurrently played game needs its own)."""


def _parse_number(key: str, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{key}={text!r} is not a number") from None


def _parse_int(key: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{key}={text!r} is not an integer") from None


def _parse_limit(settings: dict[str, str]) -> Limit:
    """The per-move limit among ``settings`` (removed from them): ``time``, ``depth``, ``nodes``;
    ``time=0.1`` when none is given."""
    depth_text = settings.pop("depth", None)
    nodes_text = settings.pop("nodes", None)
    time_text = settings.pop("time", None)
    if depth_text is None and nodes_text is None and time_text is None:
        time_text = "0.1"
    return Limit(
        depth=None if depth_text is None else _parse_int("depth", depth_text),
        nodes=None if nodes_text is None else _parse_int("nodes", nodes_text),
        time=None if time_text is None else _parse_number("time", time_text),
    )


def _parse_uci_player(spec: str) -> tuple[str, PlayerFactory]:
    """``uci:COMMAND LINE`` or ``uci[key=value,...]:COMMAND LINE``."""
    head, _, command_line = spec.partition(":")
    settings: dict[str, str] = {}
    if head != "uci":
        if not (head.startswith("uci[") and head.endswith("]")):
            raise ValueError(f"expected uci:COMMAND or uci[key=value,...]:COMMAND, got {spec!r}")
        for item in filter(None, (part.strip() for part in head[4:-1].split(","))):
            key, sep, value = item.partition("=")
            if not sep:
                raise ValueError(f"expected key=value in player {spec!r}, got {item!r}")
            settings[key.strip()] = value.strip()
    try:
        command = shlex.split(command_line)
    except ValueError as error:
        raise ValueError(f"cannot split the command line of {spec!r}: {error}") from None
    if not command:
        raise ValueError(f"player {spec!r} has no command line: expected uci:COMMAND")
    limit = _parse_limit(settings)
    name = "uci:" + command_line.strip()
    return name, lambda seed: UciPlayer(command, limit=limit, options=settings, name=name)


def parse_player(spec: str) -> tuple[str, PlayerFactory]:
    """A player description (see the module docs) as a display name and a factory.

    ``engine:`` takes ``time``, ``depth``, ``nodes`` (the per-move limit; default ``time=0.1``),
    ``threads``, ``hash`` and any engine option (``congo.Engine.option_info()``). ``uci:`` is
    followed by the command line of an engine speaking ``docs/protocol.md``; ``uci[...]`` takes the
    per-move limit keys and any option the engine announces (sent with ``setoption``). On a clock
    (``time_control`` of :func:`run_match`) engines play by the clock instead of their per-move
    limit. Raises ``ValueError`` for an unknown player, key or value.
    """
    if spec.strip().startswith("uci:") or spec.strip().startswith("uci["):
        return _parse_uci_player(spec.strip())
    kind, _, rest = spec.strip().partition(":")
    settings: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"expected key=value in player {spec!r}, got {item!r}")
        settings[key.strip()] = value.strip()
    if kind == "random":
        _no_settings(spec, settings)
        return "random", lambda seed: RandomPlayer(seed)
    if kind == "greedy":
        _no_settings(spec, settings)
        return "greedy", lambda seed: GreedyPlayer(seed)
    if kind == "alphabeta":
        plies = _parse_int("depth", settings.pop("depth", "2"))
        _no_settings(spec, settings)
        AlphaBetaPlayer(plies)  # validates
        return f"alphabeta:depth={plies}", lambda seed: AlphaBetaPlayer(plies, seed)
    if kind == "engine":
        limit = _parse_limit(settings)
        threads = _parse_int("threads", settings.pop("threads", "1"))
        hash_mb = _parse_int("hash", settings.pop("hash", "16"))
        options = {key: _parse_int(key, value) for key, value in settings.items()}
        name = spec.strip()
        Engine(threads=threads, hash_mb=1, options=options)  # validates threads and options now
        return name, lambda seed: EnginePlayer(
            limit, threads=threads, hash_mb=hash_mb, options=options, name=name
        )
    raise ValueError(
        f"unknown player {kind!r}: expected engine[:...], alphabeta[:depth=N], greedy, random or uci:COMMAND"
    )


def _no_settings(spec: str, settings: dict[str, str]) -> None:
    if settings:
        raise ValueError(f"player {spec!r} takes no settings, got {', '.join(settings)}")


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


def parse_openings(text: str, *, source: str = "openings") -> list[str]:
    """The openings of an openings file's text: one FEN a line, or EPD-like, a FEN followed by
    ``;``-separated fields (ignored); ``#`` starts a comment, blank lines are skipped. Raises
    ``ValueError`` naming ``source`` and the line for a bad FEN or a finished game, or when there is
    no opening at all. A byte-order mark before the first line is not part of it."""
    fens: list[str] = []
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        fen = content.split(";", 1)[0].strip()
        if not fen:
            raise ValueError(f"{source}, line {number}: no FEN before ';'")
        try:
            position = Position(fen)
        except ValueError as error:
            raise ValueError(f"{source}, line {number}: {error}") from None
        if position.outcome() is not None:
            raise ValueError(f"{source}, line {number}: the game is already over in {fen!r}")
        fens.append(fen)
    if not fens:
        raise ValueError(f"{source}: no openings in it (expected one FEN a line)")
    return fens


def read_openings(path: str) -> list[str]:
    """The openings of a file (see :func:`parse_openings`). Raises ``ValueError`` for a file that
    cannot be read or holds a bad line."""
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
    return parse_openings(text, source=path)


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


@dataclasses.dataclass(frozen=True)
class Adjudicated:
    """The end of an adjudicated game, shaped like :class:`~congo.Outcome` (``termination``,
    ``winner``, ``result()``) with the ``reason`` in words."""

    termination: Adjudication
    winner: bool | None
    reason: str = ""

    def result(self) -> str:
        return "1/2-1/2" if self.winner is None else ("1-0" if self.winner else "0-1")


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
    index: int = 0
    """The game's number in its match, from 0."""
    start_fen: str | None = None
    """The FEN the game started from when its opening was a position, else ``None``."""

    def result(self) -> str:
        return self.outcome.result()

    def record(self, *, event: str = "congo match", round_number: int | None = None) -> str:
        """The game as a PGN-style record, with ``[%clk]`` and ``[%eval]`` comments where known."""
        game = pgn.Game.from_board(self.board)
        game.headers["Event"] = event
        game.headers["Round"] = str(self.index + 1 if round_number is None else round_number)
        game.headers["White"] = self.white
        game.headers["Black"] = self.black
        game.headers["Result"] = self.result()
        game.headers["Termination"] = self.outcome.termination.name.lower()
        if self.start_fen is None:
            game.headers["Opening"] = " ".join(move.uci() for move in self.opening)
        if self.time_control is not None:
            game.headers["TimeControl"] = str(self.time_control)
        if isinstance(self.outcome, Adjudicated) and self.outcome.reason:
            game.comment = self.outcome.reason
        for node, clock, evaluation in zip(game.mainline(), self.clocks, self.evals):
            if evaluation is not None:
                node.set_eval(PovScore(evaluation, True))
            if clock is not None:
                node.set_clock(max(0.0, clock), digits=3)
        return str(game)


class _Cancelled(Exception):
    """The match was interrupted while this game was being played."""


def _ask(player: Player, board: Board, limit: Limit | None) -> PlayResult:
    play = getattr(player, "play", None)
    if play is not None:
        result = play(board, limit)
        assert isinstance(result, PlayResult)
        return result
    return PlayResult(player.choose(board))


def play_game(
    white: Player,
    black: Player,
    opening: Opening = (),
    *,
    max_plies: int = 200,
    time_control: TimeControl | None = None,
    cancel: threading.Event | None = None,
) -> GameRecord:
    """Plays one game from the start position after ``opening`` (moves), or from ``opening`` when it
    is a FEN. A threefold repetition or ``max_plies`` moves in all end it as a draw.

    With a ``time_control`` each side's thinking time is measured and taken from its clock; a side
    whose clock runs out loses on time. An outside engine (raising
    :class:`~congo.engine.EngineError`) that answers an illegal move or none, or dies, loses the
    game. ``cancel``, when set from another thread, ends the game early with ``_Cancelled``."""
    start_fen = opening if isinstance(opening, str) else None
    moves: list[Move] = [] if isinstance(opening, str) else list(opening)
    board = Board() if start_fen is None else Board(start_fen)
    for move in moves:
        board.push(move)
    clocks: list[float | None] = [None] * len(moves)
    evals: list[Score | None] = [None] * len(moves)
    white.new_game()
    black.new_game()
    remaining = {True: time_control.base, False: time_control.base} if time_control else {}
    moves_made = {True: 0, False: 0}

    def finish(outcome: Outcome | Adjudicated) -> GameRecord:
        return GameRecord(
            white.name, black.name, moves, board, outcome, clocks, evals, time_control, start_fen=start_fen
        )

    while True:
        if cancel is not None and cancel.is_set():
            raise _Cancelled()
        outcome = board.outcome(claim_draw=True, max_plies=max_plies)
        if outcome is not None:
            return finish(outcome)
        turn = board.turn
        player = white if turn else black
        limit = None
        if time_control is not None:
            limit = Limit(
                white_clock=remaining[True],
                black_clock=remaining[False],
                white_inc=time_control.increment,
                black_inc=time_control.increment,
                remaining_moves=(
                    None
                    if time_control.moves is None
                    else time_control.moves - moves_made[turn] % time_control.moves
                ),
            )
        started = time.perf_counter()
        try:
            played = _ask(player, board, limit)
        except TimeoutError as error:
            if cancel is not None and cancel.is_set():
                raise _Cancelled() from None
            kind = Adjudication.TIME_FORFEIT if time_control else Adjudication.ENGINE_FAILURE
            return finish(Adjudicated(kind, not turn, f"{player.name}: {error}"))
        except EngineError as error:
            if cancel is not None and cancel.is_set():
                raise _Cancelled() from None
            illegal = not isinstance(error, EngineTerminatedError)
            kind = Adjudication.ILLEGAL_MOVE if illegal else Adjudication.ENGINE_FAILURE
            return finish(Adjudicated(kind, not turn, f"{player.name}: {error}"))
        elapsed = time.perf_counter() - started
        if cancel is not None and cancel.is_set():
            raise _Cancelled()
        if time_control is not None:
            remaining[turn] -= elapsed
            if remaining[turn] < 0:
                reason = f"{player.name} ran out of time ({elapsed:.3f} s for its move)"
                return finish(Adjudicated(Adjudication.TIME_FORFEIT, not turn, reason))
            moves_made[turn] += 1
            remaining[turn] += time_control.increment
            if time_control.moves is not None and moves_made[turn] % time_control.moves == 0:
                remaining[turn] += time_control.base
        chosen = played.move
        if chosen is None or not board.is_legal(chosen):
            kind = Adjudication.ENGINE_FAILURE if chosen is None else Adjudication.ILLEGAL_MOVE
            what = "no move" if chosen is None else f"the illegal move {chosen.uci()}"
            return finish(Adjudicated(kind, not turn, f"{player.name} answered {what}"))
        score = played.info.get("score")
        evals.append(None if score is None else score.white())
        clocks.append(remaining[turn] if time_control is not None else None)
        board.push(chosen)


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
) -> GameRecord:
    """Game ``index`` of a match (what :func:`run_match` plays, usable on its own, e.g. on another
    machine): fresh players seeded from the game's number, the first player White in even games,
    then closed again. ``on_players(players)`` is told the players while the game runs (to abort
    them from another thread) and ``[]`` after."""
    make_first, make_second = first[1], second[1]
    a = make_first(seed * 100_003 + 2 * index)
    b = make_second(seed * 100_003 + 2 * index + 1)
    first_is_white = index % 2 == 0
    white, black = (a, b) if first_is_white else (b, a)
    if on_players is not None:
        on_players([a, b])
    try:
        game = play_game(white, black, opening, max_plies=max_plies, time_control=time_control, cancel=cancel)
    finally:
        if on_players is not None:
            on_players([])
        for player in (a, b):
            close = getattr(player, "close", None)
            if close is not None:
                with contextlib.suppress(Exception):
                    close()
    game.index = index
    return game


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
    _points: dict[int, float] = dataclasses.field(default_factory=dict, repr=False, compare=False)

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
        lines.append(f"{estimate}{los}")
        if self.pairs:
            lines.append(f"Ptnml(0-2): [{', '.join(map(str, self.pentanomial))}]")
        if self.sprt is not None:
            verdict = {"H1": "  H1 accepted", "H0": "  H0 accepted", None: ""}[self.decision]
            lines.append(self.sprt.status(0.0 if self.llr is None else self.llr) + verdict)
        return "\n".join(lines)


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
    """A match worker's state (on a thread or a Ray actor): the players of its game in progress, to
    abort them, and the flag that game checks between moves."""

    def __init__(self) -> None:
        self.players: list[Player] = []
        self.cancel = threading.Event()
        self.lock = threading.Lock()

    def track(self, players: list[Player]) -> None:
        with self.lock:
            self.players = players


def _stop_slot(slot: _Slot) -> None:
    """Ends the slot's game in progress (the pool's ``stop`` hook: Ctrl-C, a decided SPRT)."""
    slot.cancel.set()
    with slot.lock:
        playing = list(slot.players)
    for player in playing:
        abort = getattr(player, "abort", None)
        if abort is not None:
            with contextlib.suppress(Exception):
                abort()


def _play_on_slot(
    first: tuple[str, PlayerFactory],
    second: tuple[str, PlayerFactory],
    seed: int,
    max_plies: int,
    time_control: TimeControl | None,
    slot: _Slot,
    item: tuple[int, Opening],
) -> GameRecord:
    index, opening = item
    return play_match_game(
        first,
        second,
        index,
        opening,
        seed=seed,
        max_plies=max_plies,
        time_control=time_control,
        cancel=slot.cancel,
        on_players=slot.track,
    )


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
) -> MatchResult:
    """Plays ``games`` games in pairs: each pair starts from one opening, the first player White in
    the pair's first game (even ``index``) and Black in its second. An odd last game is played
    alone, the first player White: it counts in the wins, draws and losses, not in the pairs.

    The openings: ``openings``, a list of FENs (:func:`read_openings` reads a file), in order and
    over again when there are more pairs than openings; or, with ``opening_plies``, distinct random
    openings of that many plies from the start position (reproducible from ``seed``); by default
    the bundled balanced suite (:func:`default_openings`).

    ``concurrency`` games run at once on the threads of a :mod:`congo.distributed` pool; each game
    gets fresh players (:func:`play_match_game`). ``on_game(result so far, game)`` is called after
    each game, in game order, from this thread. With ``sprt`` (an :class:`~congo.stats.SPRT`) the
    log-likelihood ratio is computed after each finished pair and the match stops as soon as it
    crosses a bound (the games in progress are abandoned): ``result.decision`` says which.

    Ctrl-C (``KeyboardInterrupt``) stops the match promptly: the players of the games in progress
    are aborted, those games dropped, and :class:`MatchInterrupted` raised with the finished ones.
    With ``ray=ADDRESS`` (``"auto"``, ``"ray://host:10001"``, ``"local"``; ``pip install
    'congo-chess[ray]'``) the same pool plays the games on Ray actors over the cluster's CPUs
    (``concurrency`` of them when above 1, else one per CPU), the same games as on threads.

    Raises ``ValueError`` for a number of games outside 1 … :data:`MAX_GAMES`, a concurrency below
    1, both ``openings`` and ``opening_plies``, or a bad opening, before any game is played."""
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games must be from 1 to {MAX_GAMES:,}, got {games}")
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    if sprt is not None and not isinstance(sprt, SPRT):
        raise TypeError(f"sprt must be a congo.stats.SPRT, got {type(sprt).__name__}")
    schedule = _schedule((games + 1) // 2, openings, opening_plies, seed)
    result = MatchResult(first[0], second[0], sprt=sprt)
    task = functools.partial(_play_on_slot, first, second, seed, max_plies, time_control)
    items = ((index, schedule[index // 2]) for index in range(games))
    if ray is None:
        workers: int | None = min(concurrency, games)
    else:
        workers = concurrency if concurrency > 1 else None
    try:
        with open_pool(_Slot, task, workers=workers, ray=ray, stop=_stop_slot) as pool:
            for game in pool.imap(items, window=2 * pool.workers):
                result.add(game)
                if on_game is not None:
                    on_game(result, game)
                if result.decision is not None:
                    break  # leaving the loop stops the games in progress
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
