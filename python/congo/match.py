"""Matches between players: engine configurations and simple built-in opponents.

This is what ``congo match`` runs, and how the engine's features and weights were chosen (the logs
are in ``docs/engine.md``). Games start from varied, random but reproducible openings, and each
opening is played twice with colours swapped, so that neither side profits from a lucky opening.

Players are described by short strings (see :func:`parse_player`)::

    engine:time=0.1              the built-in engine, 0.1 s per move
    engine:nodes=20000,null_move=0   20,000 nodes per move, null-move pruning off
    alphabeta:depth=2            plain alpha-beta over material only, 2 plies
    greedy                       takes the most material now, else a random move
    random                       a random legal move
"""

from __future__ import annotations

import dataclasses
import math
import random
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Protocol

from congo import pgn
from congo._core import Move, Position
from congo.board import Board, Outcome
from congo.engine import Engine, Limit
from congo.pieces import CROCODILE, ELEPHANT, GIRAFFE, LION, MONKEY, PAWN, SUPERPAWN, ZEBRA

__all__ = [
    "AlphaBetaPlayer",
    "EnginePlayer",
    "GameRecord",
    "GreedyPlayer",
    "MatchResult",
    "Player",
    "RandomPlayer",
    "elo",
    "make_openings",
    "parse_player",
    "play_game",
    "run_match",
]

# Material values of the simple players (pawn, superpawn, monkey, giraffe, zebra, elephant, crocodile):
# deliberately plain round numbers, independent of the engine's tuned weights.
_MATERIAL = {PAWN: 100, SUPERPAWN: 250, MONKEY: 300, GIRAFFE: 300, ZEBRA: 300, ELEPHANT: 300, CROCODILE: 400}
_WIN = 1_000_000


class Player(Protocol):
    """Anything that picks a move for a board."""

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
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise ValueError(f"alphabeta depth must be a positive int, got {depth!r}")
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
    """The built-in engine with a per-move limit and options; its table is cleared between games."""

    def __init__(
        self,
        limit: Limit,
        *,
        threads: int = 1,
        hash_mb: int = 16,
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

    def new_game(self) -> None:
        self.engine.clear()


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


def parse_player(spec: str) -> tuple[str, PlayerFactory]:
    """A player description (see the module docs) as a display name and a factory.

    ``engine:`` takes ``time``, ``depth``, ``nodes`` (the per-move limit; default ``time=0.1``),
    ``threads``, ``hash`` and any engine option (``congo.Engine.option_info()``). Raises
    ``ValueError`` for an unknown player, key or value.
    """
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
        depth_text = settings.pop("depth", None)
        nodes_text = settings.pop("nodes", None)
        time_text = settings.pop("time", None)
        if depth_text is None and nodes_text is None and time_text is None:
            time_text = "0.1"
        limit = Limit(
            depth=None if depth_text is None else _parse_int("depth", depth_text),
            nodes=None if nodes_text is None else _parse_int("nodes", nodes_text),
            time=None if time_text is None else _parse_number("time", time_text),
        )
        threads = _parse_int("threads", settings.pop("threads", "1"))
        hash_mb = _parse_int("hash", settings.pop("hash", "16"))
        options = {key: _parse_int(key, value) for key, value in settings.items()}
        name = spec.strip()
        Engine(threads=threads, hash_mb=1, options=options)  # validates threads and options now
        return name, lambda seed: EnginePlayer(
            limit, threads=threads, hash_mb=hash_mb, options=options, name=name
        )
    raise ValueError(f"unknown player {kind!r}: expected engine[:...], alphabeta[:depth=N], greedy or random")


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


@dataclasses.dataclass
class GameRecord:
    """One finished game."""

    white: str
    black: str
    opening: list[Move]
    board: Board
    """The final board; its move stack holds the whole game, opening included."""
    outcome: Outcome

    def result(self) -> str:
        return self.outcome.result()

    def record(self, *, event: str = "congo match", round_number: int = 1) -> str:
        """The game as a PGN-style record."""
        game = pgn.Game.from_board(self.board)
        game.headers["Event"] = event
        game.headers["Round"] = str(round_number)
        game.headers["White"] = self.white
        game.headers["Black"] = self.black
        game.headers["Result"] = self.result()
        game.headers["Termination"] = self.outcome.termination.name.lower()
        game.headers["Opening"] = " ".join(move.uci() for move in self.opening)
        return str(game)


def play_game(
    white: Player,
    black: Player,
    opening: Sequence[Move] = (),
    *,
    max_plies: int = 200,
) -> GameRecord:
    """Plays one game from the start position after ``opening``. A threefold repetition or
    ``max_plies`` moves in all end it as a draw."""
    board = Board()
    for move in opening:
        board.push(move)
    white.new_game()
    black.new_game()
    while True:
        outcome = board.outcome(claim_draw=True, max_plies=max_plies)
        if outcome is not None:
            return GameRecord(white.name, black.name, list(opening), board, outcome)
        player = white if board.turn else black
        board.push(player.choose(board))


@dataclasses.dataclass
class MatchResult:
    """Wins, draws and losses from the first player's point of view, and the games."""

    first: str
    second: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    games: list[GameRecord] = dataclasses.field(default_factory=list)

    @property
    def played(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """The first player's score fraction, 0 … 1."""
        return (self.wins + 0.5 * self.draws) / self.played if self.played else 0.5

    def elo(self) -> tuple[float, float]:
        """The Elo difference (first minus second) and its 95 % error bar."""
        return elo(self.wins, self.draws, self.losses)

    def summary(self) -> str:
        difference, error = self.elo()
        return (
            f"{self.first} vs {self.second}: +{self.wins} ={self.draws} -{self.losses} "
            f"({self.played} games), score {100 * self.score:.1f}%, "
            f"Elo {_format_elo(difference)} ± {error:.0f}"
        )


def _format_elo(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}" if value else "0"


def _elo_of(score: float) -> float:
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def elo(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """The Elo difference implied by a match score and the half-width of its 95 % confidence
    interval (normal approximation over per-game results; infinite when the score is 0 or 100 %)."""
    games = wins + draws + losses
    if games == 0:
        return 0.0, math.inf
    score = (wins + 0.5 * draws) / games
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / games
    margin = 1.96 * math.sqrt(variance / games)
    low, high = _elo_of(score - margin), _elo_of(score + margin)
    error = (high - low) / 2 if math.isfinite(low) and math.isfinite(high) else math.inf
    return _elo_of(score), error


def run_match(
    first: tuple[str, PlayerFactory],
    second: tuple[str, PlayerFactory],
    *,
    games: int,
    opening_plies: int = 4,
    seed: int = 1,
    max_plies: int = 200,
    concurrency: int = 1,
    on_game: Callable[[MatchResult, GameRecord], object] | None = None,
) -> MatchResult:
    """Plays ``games`` games (pairs of games on the same opening with colours swapped; an odd last
    game has the first player White). ``concurrency`` games run at once, each in its own thread; each
    game gets fresh players. ``on_game(result so far, game)`` is called after each game, in order of
    completion, from one thread at a time."""
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    first_name, make_first = first
    second_name, make_second = second
    openings = make_openings((games + 1) // 2, opening_plies, seed)
    result = MatchResult(first_name, second_name)
    lock = threading.Lock()

    def play(index: int) -> None:
        # Fresh players for every game, seeded from the game's number: the same games whatever the
        # concurrency (with node or depth limits).
        a, b = make_first(seed * 100_003 + 2 * index), make_second(seed * 100_003 + 2 * index + 1)
        opening = openings[index // 2]
        first_is_white = index % 2 == 0
        white, black = (a, b) if first_is_white else (b, a)
        game = play_game(white, black, opening, max_plies=max_plies)
        winner = game.outcome.winner
        with lock:
            if winner is None:
                result.draws += 1
            elif winner == first_is_white:
                result.wins += 1
            else:
                result.losses += 1
            result.games.append(game)
            if on_game is not None:
                on_game(result, game)

    if concurrency == 1:
        for index in range(games):
            play(index)
    else:
        with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="congo-match") as pool:
            for future in [pool.submit(play, index) for index in range(games)]:
                future.result()
    return result


def write_records(path: str, games: Iterable[GameRecord], *, event: str) -> None:
    """Saves games as PGN-style records, one after the other."""
    with open(path, "w", encoding="utf-8") as out:
        for number, game in enumerate(games, 1):
            out.write(game.record(event=event, round_number=number))
            out.write("\n\n")
