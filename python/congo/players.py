"""The players of a match (:mod:`congo.match`, ``congo match``, the match view of ``congo serve``,
the opponent of the Gymnasium environment): engine configurations, outside engines and simple
built-in opponents, all on one base class, :class:`Player`.

Players are described by short strings (see :func:`parse_player`)::

    engine:time=0.1              the built-in engine, 0.1 s per move
    engine:nodes=20000,null_move=0   20,000 nodes per move, null-move pruning off
    alphabeta:depth=2            plain alpha-beta over material only, 2 plies
    mcts:net=net.npz,sims=200    Monte Carlo tree search guided by a network (:mod:`congo.mcts`)
    greedy                       takes the most material now, else a random move
    random                       a random legal move
    uci:congo uci                any engine speaking docs/protocol.md, started with this command line
    uci[Hash=64,time=0.5]:./mybot   the same with options and a per-move limit
    engine:tc=10+0.1             the built-in engine on its own clock: 10 s + 0.1 s a move
    uci[tc=5+0.05]:./mybot       an outside engine on its own clock

A new kind of player is a :class:`Player` subclass here and one entry in ``_KINDS`` (the table
:func:`parse_player` reads its descriptions from).
"""

from __future__ import annotations

import abc
import random
import shlex
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Callable

from congo import _core
from congo._core import Move, Position
from congo.board import Board
from congo.engine import (
    Engine,
    EngineError,
    EngineTerminatedError,
    Limit,
    PlayResult,
    SimpleEngine,
)
from congo.pieces import CROCODILE, ELEPHANT, GIRAFFE, LION, MONKEY, PAWN, SUPERPAWN, ZEBRA

if TYPE_CHECKING:
    from congo.match import TimeControl

__all__ = [
    "MAX_ALPHABETA_DEPTH",
    "AlphaBetaPlayer",
    "EnginePlayer",
    "GreedyPlayer",
    "Player",
    "PlayerFactory",
    "RandomPlayer",
    "UciPlayer",
    "parse_player",
    "player_forms",
]

MAX_ALPHABETA_DEPTH = 8
"""The deepest :class:`AlphaBetaPlayer` (plain Python: depth 6 already takes over 30 s a game)."""

# Material values of the simple players (pawn, superpawn, monkey, giraffe, zebra, elephant, crocodile):
# deliberately plain round numbers, independent of the engine's tuned weights.
_MATERIAL = {PAWN: 100, SUPERPAWN: 250, MONKEY: 300, GIRAFFE: 300, ZEBRA: 300, ELEPHANT: 300, CROCODILE: 400}
_WIN = 1_000_000


class Player(abc.ABC):
    """Anything that picks a move for a board: a subclass sets :attr:`name` and defines
    :meth:`choose`; the other methods do nothing by default, so that the game loop calls each of
    them on every player.

    The game loop calls :meth:`new_game` before each game, :meth:`play` for each move, and
    :meth:`close` when it is done with the player: after the game, or, for a :attr:`reusable`
    player, at the end of the match; :meth:`abort` may come from another thread at any time
    (Ctrl-C, a decided SPRT)."""

    name: str
    """How records and summaries call the player."""

    limit: Limit | None = None
    """The per-move limit the player searches by off the clock (the engines), ``None`` for the
    players that have none (``random``, ``greedy``, ``alphabeta``)."""

    command: list[str] | None = None
    """An outside engine's command line, as its arguments (``None`` for players in this process):
    records keep it in a tag, their names being the engines' ``id name``."""

    time_control: TimeControl | None = None
    """The player's own clock (``tc=`` in its description): a match times this player's moves by it
    instead of the match's ``time_control``, the opponent keeping its own. ``None``: the match's."""

    reusable: bool = False
    """Whether a match may keep the player for game after game (told :meth:`new_game` before each)
    instead of making a fresh one from a new seed for every game: true for players whose start is
    costly and whose play owes nothing to their seed (the built-in engine, an outside engine).
    Players that play by their seed (``random``, ``greedy``) stay fresh per game, so that a game's
    moves depend on its number only."""

    @abc.abstractmethod
    def choose(self, board: Board) -> Move:
        """A legal move for the side to move (the game is not over)."""

    def play(self, board: Board, limit: Limit | None) -> PlayResult:
        """The move for ``board`` and what the player thinks of it (``info``'s ``score``, if it
        knows). ``limit`` is the clock as a :class:`~congo.Limit` in timed games, ``None``
        otherwise. By default :meth:`choose`'s move, with no information."""
        return PlayResult(self.choose(board))

    def new_game(self) -> None:  # noqa: B027 (a no-op by design: most players keep nothing)
        """Called before each game."""

    def abort(self) -> None:  # noqa: B027
        """Ends a move in progress at once; called from another thread (for Ctrl-C)."""

    def close(self) -> None:  # noqa: B027
        """Called when the match is done with the player: frees what it holds (an outside engine's
        process)."""


PlayerFactory = Callable[[int], Player]
"""Makes a fresh player from a seed (each concurrently played game needs its own)."""


class RandomPlayer(Player):
    """A uniformly random legal move."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self._random = random.Random(seed)

    def choose(self, board: Board) -> Move:
        return self._random.choice(list(board.legal_moves))


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


class GreedyPlayer(Player):
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


class AlphaBetaPlayer(Player):
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


class EnginePlayer(Player):
    """The built-in engine with a per-move limit and options; its table is cleared between games. On
    a clock it plays by the clock (its time manager) instead of the per-move limit. A match keeps
    one per player and worker for all its games (:attr:`~Player.reusable`)."""

    reusable = True
    limit: Limit

    def __init__(
        self,
        limit: Limit,
        *,
        threads: int = 1,
        hash_mb: int = _core.GAME_POOL_HASH_MB,
        options: dict[str, int | str] | None = None,
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


class UciPlayer(Player):
    """An engine in another process speaking the protocol of ``docs/protocol.md``, driven through
    :class:`~congo.engine.SimpleEngine`. It is started in its own process group, so that Ctrl-C in
    a terminal reaches the match runner only, and stopped by :meth:`close`.

    One process plays game after game (:attr:`~Player.reusable`: a match keeps one per player and
    worker), told ``ucinewgame`` before each. An engine that failed during a game (it died, stopped
    answering, answered something that is not a move) is not trusted with the next: :meth:`new_game`
    kills it and starts a new process, counted in :attr:`restarts`."""

    reusable = True
    limit: Limit
    command: list[str]

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
        self._cancel = threading.Event()  # set by abort(): ends a start in progress too
        self._lock = threading.Lock()  # orders abort() against the engine becoming known
        self._game = 0
        self._failed = False
        self.restarts = 0
        """How many times :meth:`new_game` replaced a process that had failed."""

    def _started(self) -> SimpleEngine:
        if self._engine is not None:
            return self._engine
        # A Ctrl-C must not wait for a handshake: abort() cancels the start.
        engine = SimpleEngine.popen_uci(self.command, timeout=30.0, cancel=self._cancel)
        with self._lock:
            self._engine = engine  # from here on abort() kills it
            aborted = self._cancel.is_set()
        try:
            if aborted:
                raise EngineTerminatedError(f"{self.name} was stopped while starting")
            engine.configure(self.options)
        except BaseException:
            self._engine = None
            engine.kill()
            raise
        engine.timeout = 5.0
        # Records and summaries name an engine by its id name (the command line is in a tag).
        self.name = engine.id.get("name") or self.name
        return engine

    def choose(self, board: Board) -> Move:
        move = self.play(board, None).move
        if move is None:
            raise EngineError(f"{self.name} answered no move in {board.fen()}")
        return move

    def play(self, board: Board, limit: Limit | None) -> PlayResult:
        try:
            return self._started().play(board, self.limit if limit is None else limit, game=self._game)
        except BaseException:
            # Dead, hung or out of step with us: whatever the game makes of it, the next game
            # gets a new process.
            self._failed = True
            raise

    @property
    def failed(self) -> bool:
        """Whether the engine failed in its last game (:meth:`new_game` then starts a new one)."""
        return self._failed

    def new_game(self) -> None:
        if self._failed and self._engine is not None:
            engine, self._engine = self._engine, None
            engine.kill()
            self.restarts += 1
        self._failed = False
        # Started (and its options set) before the clock runs: starting a process takes a while.
        self._game += 1
        self._started()

    def abort(self) -> None:
        """Kills the engine process, even one still starting (a search waiting on it ends with an
        error)."""
        with self._lock:
            self._cancel.set()
            engine = self._engine
        if engine is not None:
            engine.kill()

    def close(self) -> None:
        if self._engine is not None:
            self._engine.quit()
            self._engine = None


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


def _pop_clock(spec: str, settings: dict[str, str]) -> TimeControl | None:
    """The player's own clock among ``settings`` (``tc``, removed from them); ``None`` without one."""
    text = settings.pop("tc", None)
    if text is None:
        return None
    from congo.match import TimeControl  # here: congo.match imports this module

    try:
        return TimeControl.parse(text)
    except ValueError as error:
        raise ValueError(f"player {spec!r}: {error}") from None


def _clocked(make: PlayerFactory, clock: TimeControl | None) -> PlayerFactory:
    """``make``, its players on their own ``clock`` when there is one."""
    if clock is None:
        return make

    def clocked(seed: int) -> Player:
        player = make(seed)
        player.time_control = clock
        return player

    return clocked


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
    clock = _pop_clock(spec, settings)
    limit = _parse_limit(settings)
    name = "uci:" + command_line.strip()
    # UciPlayer looked up when a player is made, not bound now: a caller may put a subclass in
    # its place (benches/tuning/versus.py does).
    return name, _clocked(lambda seed: UciPlayer(command, limit=limit, options=settings, name=name), clock)


def _no_settings(spec: str, settings: dict[str, str]) -> None:
    if settings:
        raise ValueError(f"player {spec!r} takes no settings, got {', '.join(settings)}")


def _random_player(spec: str, settings: dict[str, str]) -> tuple[str, PlayerFactory]:
    _no_settings(spec, settings)
    return "random", lambda seed: RandomPlayer(seed)


def _greedy_player(spec: str, settings: dict[str, str]) -> tuple[str, PlayerFactory]:
    _no_settings(spec, settings)
    return "greedy", lambda seed: GreedyPlayer(seed)


def _alphabeta_player(spec: str, settings: dict[str, str]) -> tuple[str, PlayerFactory]:
    plies = _parse_int("depth", settings.pop("depth", "2"))
    _no_settings(spec, settings)
    AlphaBetaPlayer(plies)  # validates
    return f"alphabeta:depth={plies}", lambda seed: AlphaBetaPlayer(plies, seed)


def _engine_player(spec: str, settings: dict[str, str]) -> tuple[str, PlayerFactory]:
    limit = _parse_limit(settings)
    threads = _parse_int("threads", settings.pop("threads", "1"))
    hash_mb = _parse_int("hash", settings.pop("hash", "16"))
    # EvalFile is a path (a network file); every other option is an integer.
    options: dict[str, int | str] = {
        key: value if key.lower() == "evalfile" else _parse_int(key, value) for key, value in settings.items()
    }
    name = spec.strip()
    Engine(threads=threads, hash_mb=1, options=options)  # validates threads and options now
    return name, lambda seed: EnginePlayer(
        limit, threads=threads, hash_mb=hash_mb, options=options, name=name
    )


def _mcts_player(spec: str, settings: dict[str, str]) -> tuple[str, PlayerFactory]:
    # congo.mcts needs numpy: imported only when such a player is asked for.
    from congo.mcts import MctsPlayer, MlpNetwork

    net = settings.pop("net", None)
    if not net:
        raise ValueError(f"player {spec!r} needs net=FILE (a network file, see docs/learning.md)")
    sims = _parse_int("sims", settings.pop("sims", "800"))
    c_puct = _parse_number("c_puct", settings.pop("c_puct", "1.25"))
    gumbel = _parse_int("gumbel", settings.pop("gumbel", "0")) != 0
    _no_settings(spec, settings)
    network = MlpNetwork.load(net)
    name = spec.strip()
    MctsPlayer(network, sims=sims)  # validates
    return name, lambda seed: MctsPlayer(
        network, sims=sims, c_puct=c_puct, gumbel=gumbel, seed=seed, name=name
    )


_KINDS: dict[str, tuple[str, Callable[[str, dict[str, str]], tuple[str, PlayerFactory]]]] = {
    "engine": ("engine[:...]", _engine_player),
    "alphabeta": ("alphabeta[:depth=N]", _alphabeta_player),
    "mcts": ("mcts:net=FILE[,sims=N]", _mcts_player),
    "greedy": ("greedy", _greedy_player),
    "random": ("random", _random_player),
}
"""The players written ``KIND[:key=value,...]``: the kind, how it is written in an error message,
and what parses its settings (the description and its ``key=value`` pairs)."""


def player_forms() -> list[str]:
    """How each kind of player is written, e.g. ``"alphabeta[:depth=N]"``: every kind
    :func:`parse_player` reads, for help texts and error messages (so that they list them all)."""
    return [*(form for form, _ in _KINDS.values()), "uci:COMMAND", "uci[key=value,...]:COMMAND"]


def parse_player(spec: str) -> tuple[str, PlayerFactory]:
    """A player description (see the module docs) as a display name and a factory.

    ``engine:`` takes ``time``, ``depth``, ``nodes`` (the per-move limit; default ``time=0.1``),
    ``threads``, ``hash``, any engine option (``congo.Engine.option_info()``) and ``EvalFile=PATH``
    (a network file, see ``docs/engine.md``; a path without commas). ``uci:`` is
    followed by the command line of an engine speaking ``docs/protocol.md``; ``uci[...]`` takes the
    per-move limit keys and any option the engine announces (sent with ``setoption``). On a clock
    (``time_control`` of :func:`congo.match.run_match`) engines play by the clock instead of their
    per-move limit. Every player also takes ``tc=BASE+INC`` (or ``MOVES/BASE+INC``, in seconds, as
    :class:`congo.match.TimeControl` reads it): its own clock (:attr:`Player.time_control`), which
    a match times its moves by instead of the match's clock (``--tc``), the opponent keeping its
    own: ``engine:tc=10+0.1``, ``uci[tc=5+0.05]:./mybot``. Raises ``ValueError`` for an unknown
    player, key or value (a bad ``tc`` names the player).
    """
    text = spec.strip()
    name, factory = _parse(spec, text)
    return name, _Described(text, factory)


class _Described:
    """A player factory that keeps the description it was made from: what a resumed match
    (``resume=`` of :func:`congo.match.run_match`) compares, the name alone leaving out a ``uci``
    player's settings."""

    def __init__(self, description: str, make: PlayerFactory) -> None:
        self.description = description
        self._make = make

    def __call__(self, seed: int) -> Player:
        return self._make(seed)


def _parse(spec: str, text: str) -> tuple[str, PlayerFactory]:
    if text.startswith(("uci:", "uci[")):
        return _parse_uci_player(text)
    kind, _, rest = text.partition(":")
    settings: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"expected key=value in player {spec!r}, got {item!r}")
        settings[key.strip()] = value.strip()
    if kind not in _KINDS:
        raise ValueError(f"unknown player {kind!r}: expected one of {', '.join(player_forms())}")
    clock = _pop_clock(spec, settings)
    name, make = _KINDS[kind][1](spec, settings)
    return name, _clocked(make, clock)
