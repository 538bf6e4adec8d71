"""Matches between players: engine configurations and simple built-in opponents.

This is what ``congo match`` runs, and how the engine's features and weights were chosen (the logs
are in ``docs/engine.md``). Games start from an opening suite — the bundled balanced one
(:func:`default_openings`), a file of FENs (:func:`read_openings`), or random plies from the start
position (:func:`make_openings`) — and each opening is played twice with colours swapped (a *pair*),
so that neither side profits from a lucky opening. The result reports the Elo difference with its
95 % interval from the pairs (the pentanomial model of :mod:`congo.stats`), the likelihood of
superiority, and, with an :class:`~congo.stats.SPRT`, the log-likelihood ratio; the match stops once
the SPRT accepts a hypothesis.

Players are described by short strings (``engine:time=0.1``, ``uci:congo uci``, …): see
:mod:`congo.players`, where they live, and :func:`~congo.players.parse_player`.

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
import threading
import time
from collections.abc import Iterable, Sequence
from typing import Callable, Union

from congo import pgn
from congo._core import Move, Position
from congo.board import Board, Outcome
from congo.distributed import open_pool
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
            played = player.play(board, limit)
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
            with contextlib.suppress(Exception):
                player.close()
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
        with contextlib.suppress(Exception):
            player.abort()


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
