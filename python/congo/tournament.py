"""Tournaments, and the scheduler under every match: :func:`run_tournament` plays several players
against each other — a **round-robin** (every pair of players) or a **gauntlet** (the first player
against each of the others) — with :func:`congo.match.run_match`'s games, openings and options; a
two-player match is the one-pairing case of the same machinery.

Each *pairing* plays ``games`` games in pairs of one opening with colours swapped, from the same
opening schedule for every pairing (the pair ``k`` of every pairing starts from opening ``k``); the
games of all pairings are interleaved, round by round (pair ``k`` of each pairing, then pair
``k + 1``), so the standings mean something at any time. The result
(:class:`TournamentResult`) counts each pairing as a :class:`~congo.match.MatchResult` (pentanomial
pairs, Elo with its interval) and rates every player from all the pairings at once by the weighted
least-squares fit of :func:`congo.stats.fit_ratings`, relative to the first player.

Players are kept alive across games: each worker of the pool (``concurrency`` threads, or Ray
actors) keeps one instance of each :attr:`~congo.players.Player.reusable` player (the built-in
engine, an outside engine: one process per player and worker, told ``ucinewgame`` between games).

**Resuming** (``resume=PATH``): the state — the configuration's fingerprint, then every finished
game with its number — is kept in ``PATH``, one JSON line per game appended and synced to the disk
as the game ends (a line cut short by a kill is dropped when the state is read back, and its game
played again; the file is made, and rewritten without such a line, atomically). Run again
with the same arguments and ``resume=PATH``, the finished games are taken from it and only the
others played; with deterministic players (node or depth limits, seeded simple players) the
resumed run ends with the same games, counts and LLR as one never interrupted. A state written by
other arguments (other players, games, openings, seed, limits, adjudication) is refused.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import importlib
import json
import math
import os
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Union

from congo import stats
from congo._core import Move
from congo.board import Board
from congo.distributed import open_pool

if TYPE_CHECKING:
    from congo.match import GameRecord, MatchEvent, MatchResult, Opening, _Slot
    from congo.players import PlayerFactory

__all__ = ["FORMATS", "Standing", "TournamentInterrupted", "TournamentResult", "pairings", "run_tournament"]

FORMATS = ("round-robin", "gauntlet")
"""The tournament formats: every pair of players, or the first player against each of the others."""

PlayerSpec = Union[str, "tuple[str, PlayerFactory]"]
"""A player: a description for :func:`congo.players.parse_player`, or a (name, factory) pair."""

STATE_FORMAT = "congo-match-state"
STATE_VERSION = 1


class StateError(ValueError):
    """A resume file that cannot be used: unreadable, not a state, or written by other arguments."""


# -- the scheduler ------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Task:
    """One game to play: its place in the whole run, its pairing and its number in the pairing
    (which says the colours and the pair), and its opening."""

    number: int
    pairing: int
    index: int
    opening: Opening


def _pairing_seed(seed: int, pairing: int) -> int:
    # The first pairing plays with the run's own seed: a match is a one-pairing tournament.
    return seed + 1_000_003 * pairing


def _new_slot() -> _Slot:
    from congo.match import _Slot

    return _Slot()


def _play_task(
    entrants: Sequence[tuple[str, PlayerFactory]],
    pairings: Sequence[tuple[int, int]],
    seed: int,
    recover: bool,
    play_options: Mapping[str, Any],
    slot: _Slot,
    task: _Task,
) -> GameRecord:
    from congo.match import _play_slot_game

    a, b = pairings[task.pairing]
    options = dict(play_options)
    notify = options.get("on_event")
    if notify is not None:
        options["on_event"] = lambda event: notify(_numbered(event, task.number))
    return _play_slot_game(
        slot,
        (a, entrants[a][1]),
        (b, entrants[b][1]),
        task.index,
        task.opening,
        seed=_pairing_seed(seed, task.pairing),
        recover=recover,
        **options,
    )


def _numbered(event: MatchEvent, number: int) -> MatchEvent:
    """``event`` numbered as the run numbers its games (the progress line, the records' ``Round``),
    not by the game's place in its pairing: "game 3" is then one game of the tournament."""
    return event if event.game is None else dataclasses.replace(event, game=number)


def _drive(
    entrants: Sequence[tuple[str, PlayerFactory]],
    pairings: Sequence[tuple[int, int]],
    tasks: Sequence[_Task],
    *,
    seed: int,
    concurrency: int,
    ray: str | None,
    recover: bool,
    play_options: Mapping[str, Any],
    state: _State | None,
    accept: Callable[[_Task, GameRecord], bool],
) -> None:
    """Plays ``tasks`` (those not already in ``state``) on a pool and hands each finished game to
    ``accept`` in task order, after saving it in ``state``; stops when ``accept`` says so. Games
    already in ``state`` are handed over first, without playing."""
    from congo.match import _close_slot, _stop_slot

    done = {} if state is None else state.games
    for task in tasks:
        if task.number in done and accept(task, done[task.number]):
            return
    todo = [task for task in tasks if task.number not in done]
    if not todo:
        return
    workers: int | None = (
        min(concurrency, len(todo)) if ray is None else (concurrency if concurrency > 1 else None)
    )
    work = functools.partial(_play_task, list(entrants), list(pairings), seed, recover, dict(play_options))
    # Closing the pool closes each worker's kept players (their engine processes), on threads and
    # in each Ray actor alike, Ctrl-C or not.
    with open_pool(_new_slot, work, workers=workers, ray=ray, stop=_stop_slot, finish=_close_slot) as pool:
        for task, game in zip(todo, pool.imap(todo, window=2 * pool.workers)):
            game.index = task.index
            if state is not None:
                state.add(task.number, game)
            if accept(task, game):
                break  # leaving the loop stops the games in progress


def _check_run(games: int, concurrency: int) -> None:
    from congo.match import MAX_GAMES

    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games must be from 1 to {MAX_GAMES:,}, got {games}")
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")


# -- the state of a run, for resuming ------------------------------------------------------------------


def _encode(value: Any) -> Any:
    """A game record (or any part of one) as JSON: plain values as they are, the rest tagged."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"$float": repr(value)}
    if isinstance(value, Move):
        return {"$move": value.uci()}
    if isinstance(value, Board):
        return {"$board": [value.root().fen(), [move.uci() for move in value.move_stack]]}
    if isinstance(value, enum.Enum):
        return {"$enum": [type(value).__module__, type(value).__qualname__, value.name]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"$data": [type(value).__module__, type(value).__qualname__, fields]}
    if isinstance(value, (list, tuple)):
        items = [_encode(item) for item in value]
        return items if isinstance(value, list) else {"$tuple": items}
    if isinstance(value, dict):
        return {"$dict": [[_encode(key), _encode(item)] for key, item in value.items()]}
    raise TypeError(f"cannot keep a {type(value).__name__} in a match state")


def _congo_class(module: str, qualname: str) -> Any:
    """A class of this package by name (a state file names nothing else)."""
    if module != "congo" and not module.startswith("congo."):
        raise StateError(f"a match state names {module}.{qualname}, which is not part of congo")
    found: Any = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part)
    if not isinstance(found, type):
        raise StateError(f"a match state names {module}.{qualname}, which is not a class")
    return found


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(item) for item in value]
    if not isinstance(value, dict):
        return value
    (tag, body), *rest = value.items()
    if rest:
        raise StateError(f"a match state holds an object with several keys: {sorted(value)}")
    if tag == "$float":
        return float(body)
    if tag == "$move":
        return Move.from_uci(body)
    if tag == "$board":
        fen, moves = body
        board = Board(fen)
        for move in moves:
            board.push(Move.from_uci(move))
        return board
    if tag == "$enum":
        kind = _congo_class(body[0], body[1])
        if not issubclass(kind, enum.Enum):
            raise StateError(f"a match state names {body[1]} as an enumeration")
        return kind[body[2]]
    if tag == "$data":
        kind = _congo_class(body[0], body[1])
        if not dataclasses.is_dataclass(kind):
            raise StateError(f"a match state names {body[1]} as a record")
        make: Callable[..., Any] = kind  # type: ignore[assignment]
        values = {name: _decode(item) for name, item in body[2].items()}
        fields = {f.name: f for f in dataclasses.fields(kind)}
        made = make(**{name: item for name, item in values.items() if name in fields and fields[name].init})
        for name, item in values.items():
            if name in fields and not fields[name].init:
                object.__setattr__(made, name, item)
        return made
    if tag == "$tuple":
        return tuple(_decode(item) for item in body)
    if tag == "$dict":
        return {_decode(key): _decode(item) for key, item in body}
    raise StateError(f"a match state holds an unknown value {tag!r}")


def _describe(value: Any) -> Any:
    """What a run's argument contributes to its fingerprint: its content where it has one that
    JSON can hold (records, rules, limits), a callback nothing, anything else its kind."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (Move, Board, enum.Enum)):
        return _encode(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _describe(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_describe(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _describe(item) for key, item in value.items()}
    if callable(value):
        return None
    path = getattr(value, "directory", None) or getattr(value, "path", None)
    if isinstance(path, (str, os.PathLike)):
        return {type(value).__qualname__: os.fspath(path)}
    return type(value).__qualname__


def _configuration(
    kind: str,
    entrants: Sequence[tuple[str, PlayerFactory]],
    pairings: Sequence[tuple[int, int]],
    tasks: Sequence[_Task],
    settings: Mapping[str, Any],
) -> dict[str, Any]:
    """What a run's games depend on, to compare a resumed run with the one that wrote the state."""
    schedule = hashlib.sha256()
    for task in tasks:
        opening = task.opening if isinstance(task.opening, str) else " ".join(m.uci() for m in task.opening)
        schedule.update(f"{task.number} {task.pairing} {task.index} {opening}\n".encode())
    from congo import _core

    return {
        "kind": kind,
        # Another version's engine plays other games: its state resumed would mix two runs.
        "congo_version": _core.__version__,
        "players": [[name, getattr(factory, "description", None)] for name, factory in entrants],
        "pairings": [list(pairing) for pairing in pairings],
        "games": len(tasks),
        "schedule": schedule.hexdigest(),
        **{key: _describe(value) for key, value in sorted(settings.items())},
    }


def _fingerprint(configuration: Mapping[str, Any]) -> str:
    text = json.dumps(configuration, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class _State:
    """A run's finished games on disk: a JSON line saying what run it is (its fingerprint and
    configuration), then one line per finished game, each appended whole and synced to the disk
    before the game counts as finished (a constant cost per game, whatever the length of the run).
    A last line cut short by a kill is not a game: it is dropped when the state is read (the file
    rewritten without it, atomically) and that game played again."""

    def __init__(self, path: str, configuration: dict[str, Any]) -> None:
        self.path = path
        self.configuration = configuration
        self.fingerprint = _fingerprint(configuration)
        self.games: dict[int, GameRecord] = {}
        self._lock = threading.Lock()
        header = {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "fingerprint": self.fingerprint,
            "configuration": configuration,
        }
        lines = self._load() if os.path.exists(path) else None
        if lines is None or lines[1]:
            # A new state, or one whose torn last line must go before anything is appended.
            kept = [json.dumps(header)] if lines is None else lines[0]
            self._rewrite(kept)
        elif not os.access(path, os.W_OK):  # refused now, not after the first game
            raise StateError(f"cannot write the match state {path}: permission denied")

    def _rewrite(self, lines: list[str]) -> None:
        from congo._files import atomic_output

        try:
            with atomic_output(self.path) as out:
                out.write("".join(line + "\n" for line in lines))
        except OSError as error:
            raise StateError(f"cannot write the match state {self.path}: {error.strerror or error}") from None

    def _load(self) -> tuple[list[str], bool]:
        """Reads the games; returns the good lines and whether a torn last line was dropped."""
        try:
            with open(self.path, "rb") as handle:
                data = handle.read()
            text = data.decode("utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or error
            raise StateError(f"cannot read the match state {self.path}: {reason}") from None
        *lines, tail = text.split("\n")
        torn = tail != ""  # the last write did not reach its newline
        try:
            head = json.loads(lines[0]) if lines else None
        except json.JSONDecodeError:
            head = None
        if not isinstance(head, dict) or head.get("format") != STATE_FORMAT:
            raise StateError(f"{self.path} is not a match state (written by --resume)")
        if head.get("version") != STATE_VERSION:
            version = head.get("version")
            raise StateError(f"{self.path}: a match state of version {version}, expected {STATE_VERSION}")
        if head.get("fingerprint") != self.fingerprint:
            theirs = head.get("configuration")
            theirs = theirs if isinstance(theirs, dict) else {}
            differ = sorted(
                key
                for key in set(self.configuration) | set(theirs)
                if theirs.get(key) != self.configuration.get(key)
            )
            raise StateError(
                f"{self.path} holds the state of another match or tournament (it differs in: "
                f"{', '.join(differ) or 'its fingerprint'}): run the same command to resume it, or "
                "give another file"
            )
        good = lines[:1]
        for number, line in enumerate(lines[1:], 2):
            try:
                entry = json.loads(line)
                self.games[int(entry["number"])] = _decode(entry["game"])
            except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as error:
                raise StateError(f"{self.path}, line {number}: a damaged match state ({error})") from None
            good.append(line)
        return good, torn

    def add(self, number: int, game: GameRecord) -> None:
        line = json.dumps({"number": number, "game": _encode(game)}, separators=(",", ":"))
        with self._lock:
            try:
                with open(self.path, "a", encoding="utf-8") as out:
                    out.write(line + "\n")
                    out.flush()
                    os.fsync(out.fileno())
            except OSError as error:
                raise StateError(
                    f"cannot write the match state {self.path}: {error.strerror or error}"
                ) from None
            self.games[number] = game


def _open_state(
    resume: str | os.PathLike[str] | None,
    kind: str,
    entrants: Sequence[tuple[str, PlayerFactory]],
    pairings: Sequence[tuple[int, int]],
    tasks: Sequence[_Task],
    settings: Mapping[str, Any],
) -> _State | None:
    if resume is None:
        return None
    configuration = _configuration(kind, entrants, pairings, tasks, settings)
    state = _State(os.fspath(resume), configuration)
    for number, game in state.games.items():
        if not 0 <= number < len(tasks):
            raise StateError(f"{state.path}: a damaged match state (game {number} of {len(tasks)})")
        game.index = tasks[number].index
    return state


# -- tournaments --------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Standing:
    """A player's line of the standings."""

    player: str
    points: float
    games: int
    wins: int
    draws: int
    losses: int
    elo: float | None
    """Elo relative to the tournament's first player (``None``: not connected to it yet)."""
    error: float | None
    """Half the 95 % interval of :attr:`elo` (``None``: the first player, or no interval)."""
    at_least: bool = False
    """:attr:`elo` is a lower bound (placed through a pairing won outright)."""
    at_most: bool = False
    """:attr:`elo` is an upper bound (placed through a pairing lost outright, or one of even pairs
    only)."""

    def elo_text(self) -> str:
        if self.elo is None:
            return "-"
        value = f"{self.elo:+.0f}"
        if self.at_least:  # a lower bound: an interval about it would mislead
            return ">= " + value
        if self.at_most:
            return "<= " + value
        return value if self.error is None else f"{value} ± {self.error:.0f}"


class TournamentResult:
    """The pairings of a tournament, each a :class:`~congo.match.MatchResult` from its first
    player's point of view, and every finished game in the order played."""

    def __init__(self, players: Sequence[str], format: str, pairings: Sequence[tuple[int, int]]) -> None:
        from congo.match import MatchResult

        self.players = list(players)
        self.format = format
        self.pairings = list(pairings)
        self.matches: list[MatchResult] = [MatchResult(self.players[a], self.players[b]) for a, b in pairings]
        self.games: list[GameRecord] = []
        """Every finished game, in the order played (see :attr:`numbers`)."""
        self.numbers: list[int] = []
        """Each game's number in the tournament, from 0 (the record's ``Round`` is it plus one)."""
        self.pairing_of: list[int] = []
        """Each game's pairing (an index into :attr:`pairings` and :attr:`matches`)."""
        self._id_names: dict[int, str] = {}

    def name(self, player: int) -> str:
        """How the standings call a player (an index into :attr:`players`): an outside engine by
        its ``id name`` once it has played, unless another player goes by the same name; else
        its description."""
        found = self._id_names.get(player)
        if found is None:
            return self.players[player]
        others = {self._id_names.get(i, name) for i, name in enumerate(self.players) if i != player}
        return self.players[player] if found in others else found

    @property
    def played(self) -> int:
        return len(self.games)

    def add(self, pairing: int, number: int, game: GameRecord) -> None:
        a, b = self.pairings[pairing]
        white, black = (a, b) if game.index % 2 == 0 else (b, a)
        for player, name, command in (
            (white, game.white, game.white_command),
            (black, game.black, game.black_command),
        ):
            if command is not None:  # an outside engine: named by what it says it is
                self._id_names[player] = name
        self.matches[pairing].add(game)
        self.games.append(game)
        self.numbers.append(number)
        self.pairing_of.append(pairing)

    def ratings(self) -> dict[str, stats.Rating]:
        """Each connected player's Elo relative to the first, by :func:`congo.stats.fit_ratings`
        over the pairings with finished pairs."""
        measured = []
        for (a, b), result in zip(self.pairings, self.matches):
            if not result.pairs:
                continue
            first, second, counts = self.players[a], self.players[b], list(result.pentanomial)
            if sum(k * c for k, c in enumerate(counts)) < 2 * sum(counts):  # the winner first
                first, second, counts = second, first, counts[::-1]
            measured.append(stats.measure_match(first, second, counts))
        try:
            fitted = stats.fit_ratings(self.players, measured, self.players[0])
        except ValueError:  # not connected yet
            return {}
        return {rating.key: rating for rating in fitted}

    def _order(self) -> list[tuple[int, Standing]]:
        counts = [[0.0] * 5 for _ in self.players]  # points, games, W, D, L
        for (a, b), result in zip(self.pairings, self.matches):
            for player, wins, losses in ((a, result.wins, result.losses), (b, result.losses, result.wins)):
                row = counts[player]
                row[0] += wins + 0.5 * result.draws
                row[1] += result.played
                row[2] += wins
                row[3] += result.draws
                row[4] += losses
        ratings = self.ratings()
        lines = []
        for player, (points, played, won, drawn, lost) in enumerate(counts):
            rating = ratings.get(self.players[player])
            standing = Standing(
                self.name(player),
                points,
                int(played),
                int(won),
                int(drawn),
                int(lost),
                None if rating is None else rating.elo,
                None if rating is None else rating.error,
                False if rating is None else rating.at_least,
                False if rating is None else rating.at_most,
            )
            lines.append((player, standing))
        return sorted(
            lines,
            key=lambda line: (
                -line[1].points,
                -(line[1].elo if line[1].elo is not None else -math.inf),
                line[0],
            ),
        )

    def standings(self) -> list[Standing]:
        """The players by points (then by Elo), with their games and fitted Elo."""
        return [standing for _, standing in self._order()]

    def table(self) -> str:
        """The standings as a table: rank, player, points of games, W/D/L, Elo ± half its interval."""
        lines = self.standings()
        width = max(len("player"), *(len(s.player) for s in lines))
        rows = [f" #  {'player':<{width}}  {'points':>11}  {'+W =D -L':>14}  Elo (vs {self.name(0)})"]
        for rank, s in enumerate(lines, 1):
            score = f"{s.points:g}/{s.games}"
            record = f"+{s.wins} ={s.draws} -{s.losses}"
            rows.append(f"{rank:>2}  {s.player:<{width}}  {score:>11}  {record:>14}  {s.elo_text()}")
        return "\n".join(rows)

    def cross_table(self) -> str:
        """Points of the row's player against the column's (``points/games``), players in standings
        order; ``-`` where they did not meet."""
        order = [player for player, _ in self._order()]
        cell: dict[tuple[int, int], str] = {}
        for (a, b), result in zip(self.pairings, self.matches):
            cell[a, b] = f"{result.wins + 0.5 * result.draws:g}/{result.played}"
            cell[b, a] = f"{result.losses + 0.5 * result.draws:g}/{result.played}"
        width = max(len(self.name(player)) for player in order)
        heads = [f"{i + 1:>2}" for i in range(len(order))]
        columns = [max(7, *(len(cell.get((row, column), "-")) for row in order)) for column in order]
        rows = [f"{'':>2}  {'':<{width}}  " + "  ".join(f"{h:>{w}}" for h, w in zip(heads, columns))]
        for i, row in enumerate(order):
            cells = ["x" if row == column else cell.get((row, column), "-") for column in order]
            name = self.name(row)
            rows.append(
                f"{i + 1:>2}  {name:<{width}}  " + "  ".join(f"{c:>{w}}" for c, w in zip(cells, columns))
            )
        return "\n".join(rows)

    def summary(self) -> str:
        """The standings table, the cross-table and each pairing's line (score, Elo, pairs)."""
        parts = [self.table(), "", self.cross_table(), ""]
        for (a, b), result in zip(self.pairings, self.matches):
            if result.played:
                # The score, then the Elo line as congo match gives it (a one-sided bound where
                # every pair went one way); the players named as the standings name them (two
                # engines may share an id name).
                score, elo = result.summary().splitlines()[:2]
                score = score.replace(
                    f"{result.first} vs {result.second}:", f"{self.name(a)} vs {self.name(b)}:", 1
                )
                parts.append(f"{score}; {elo}")
        return "\n".join(parts)

    def records(self, *, event: str = "congo tournament") -> Iterable[str]:
        """Every game's record, in the order of the games' numbers (``Round``: the number plus one)."""
        for number, game in sorted(zip(self.numbers, self.games), key=lambda item: item[0]):
            yield game.record(event=event, round_number=number + 1)

    def write_records(self, path: str | os.PathLike[str], *, event: str = "congo tournament") -> None:
        """Saves every game (:meth:`records`) to ``path``, replaced whole once all are written."""
        from congo._files import atomic_output

        with atomic_output(path, inputs=()) as out:
            for record in self.records(event=event):
                out.write(record)
                out.write("\n\n")


class TournamentInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run_tournament`: the games in progress were abandoned; ``result`` holds
    every finished game."""

    def __init__(self, result: TournamentResult) -> None:
        super().__init__()
        self.result = result


def pairings(count: int, format: str) -> list[tuple[int, int]]:
    """The pairs of entrant indices that meet in a tournament of ``count`` entrants.

    ``"round-robin"``: every entrant meets every other, ``(a, b)`` with ``a < b``;
    ``"gauntlet"``: entrant 0 meets each of the others. Each pair plays ``games`` games in
    :func:`run_tournament`.

    Raises:
        ValueError: ``format`` is not one of :data:`FORMATS`.
    """
    if format == "round-robin":
        return [(a, b) for a in range(count) for b in range(a + 1, count)]
    if format == "gauntlet":
        return [(0, b) for b in range(1, count)]
    raise ValueError(f"unknown tournament format {format!r}: expected {' or '.join(FORMATS)}")


def _entrants(players: Sequence[PlayerSpec]) -> list[tuple[str, PlayerFactory]]:
    from congo.players import parse_player

    if isinstance(players, str):
        raise TypeError("players must be a list of player descriptions, not one string")
    entrants = [parse_player(p) if isinstance(p, str) else (p[0], p[1]) for p in players]
    if len(entrants) < 2:
        raise ValueError(f"a tournament needs at least two players, got {len(entrants)}")
    # Standings need one name per player: the same description twice gets #2, #3, ...
    seen: dict[str, int] = {}
    named = []
    for name, factory in entrants:
        seen[name] = seen.get(name, 0) + 1
        named.append((name if seen[name] == 1 else f"{name} #{seen[name]}", factory))
    return named


def run_tournament(
    players: Sequence[PlayerSpec],
    *,
    format: str = "round-robin",
    games: int = 2,
    openings: Sequence[str] | None = None,
    opening_plies: int | None = None,
    seed: int = 1,
    max_plies: int = 200,
    concurrency: int = 1,
    time_control: Any = None,
    on_game: Callable[[TournamentResult, GameRecord], object] | None = None,
    ray: str | None = None,
    recover: bool = False,
    resume: str | os.PathLike[str] | None = None,
    on_event: Callable[[MatchEvent], object] | None = None,
    allow_repeats: bool = False,
    **play_options: Any,
) -> TournamentResult:
    """Plays a tournament: with ``format="round-robin"`` every pair of ``players``, with
    ``"gauntlet"`` the first player against each of the others, ``games`` games per pairing in
    pairs of one opening with colours swapped (the pairing's first player White in its even games).

    ``players``: descriptions (``"engine:nodes=20000"``, ``"uci:./mybot"``: see
    :func:`congo.players.parse_player`, each with its own limit and options) or ``(name,
    factory)`` pairs as :func:`congo.match.run_match` takes them. The openings, ``seed``,
    ``max_plies``, ``concurrency``, ``ray`` and ``time_control`` are those of
    :func:`~congo.match.run_match`, as are further keyword arguments of
    :func:`~congo.match.play_game` (adjudication). ``on_game(result so far, game)`` is called after
    each game, in the order of the games' numbers, from this thread; ``on_event`` and
    ``allow_repeats`` are run_match's, for each pairing.

    ``recover``: an outside engine that cannot be (re)started before a game loses that game instead
    of ending the tournament (one that crashes during a game always loses it, and is started anew
    for its next game). ``resume``: a file keeping the tournament's state after each game, from
    which an interrupted tournament goes on (see the module docs).

    Ctrl-C raises :class:`TournamentInterrupted` with the finished games. Raises ``ValueError`` for
    fewer than two players, an unknown format, a bad number of games or openings, or a resume file
    of another tournament, before any game."""
    from congo.match import MatchEvent, _schedule, repeated_pairs

    entrants = _entrants(players)
    _check_run(games, concurrency)
    pairs = pairings(len(entrants), format)
    schedule = _schedule((games + 1) // 2, openings, opening_plies, seed)
    tasks: list[_Task] = []
    for index in range(0, games, 2):  # round by round: pair k of every pairing, then pair k + 1
        for pairing in range(len(pairs)):
            for game in (index, index + 1)[: games - index]:
                tasks.append(_Task(len(tasks), pairing, game, schedule[index // 2]))
    result = TournamentResult([name for name, _ in entrants], format, pairs)
    for (a, b), counted in zip(pairs, result.matches):
        repeats = repeated_pairs(entrants[a], entrants[b], schedule, games=games, time_control=time_control)
        if repeats is None:
            continue
        if not allow_repeats:
            raise ValueError(f"{repeats}: give more openings, fewer games or opening_plies, or allow repeats")
        counted.repeats = repeats
        if on_event is not None:
            on_event(MatchEvent("repeats", repeats))
    options = {
        "max_plies": max_plies,
        "time_control": time_control,
        "on_event": on_event if ray is None else None,  # a callback does not cross to Ray actors
        **play_options,
    }
    settings = {"format": format, "seed": seed, **options}
    state = _open_state(resume, "tournament", entrants, pairs, tasks, settings)
    loaded = set() if state is None else set(state.games)

    def accept(task: _Task, game: GameRecord) -> bool:
        result.add(task.pairing, task.number, game)
        if task.number in loaded:
            return False
        if ray is not None and on_event is not None:
            for event in game.events:
                on_event(_numbered(event, task.number))
        if on_game is not None:
            on_game(result, game)
        return False

    try:
        _drive(
            entrants,
            pairs,
            tasks,
            seed=seed,
            concurrency=concurrency,
            ray=ray,
            recover=recover,
            play_options=options,
            state=state,
            accept=accept,
        )
    except KeyboardInterrupt:
        raise TournamentInterrupted(result) from None
    return result


def run_pairing(
    first: tuple[str, PlayerFactory],
    second: tuple[str, PlayerFactory],
    result: MatchResult,
    *,
    games: int,
    schedule: Sequence[Opening],
    seed: int,
    concurrency: int,
    ray: str | None,
    recover: bool,
    resume: str | os.PathLike[str] | None,
    play_options: Mapping[str, Any],
    on_game: Callable[[MatchResult, GameRecord], object] | None,
) -> None:
    """What :func:`congo.match.run_match` runs: a one-pairing tournament whose games go into
    ``result`` (stopping once its SPRT decides); the games taken from ``resume``'s state are added
    without ``on_game``."""
    entrants = [first, second]
    tasks = [_Task(index, 0, index, schedule[index // 2]) for index in range(games)]
    settings = {"seed": seed, "sprt": None if result.sprt is None else str(result.sprt), **play_options}
    state = _open_state(resume, "match", entrants, [(0, 1)], tasks, settings)
    loaded = set() if state is None else set(state.games)

    def accept(task: _Task, game: GameRecord) -> bool:
        result.add(game)
        if on_game is not None and task.number not in loaded:
            on_game(result, game)
        return result.decision is not None

    _drive(
        entrants,
        [(0, 1)],
        tasks,
        seed=seed,
        concurrency=concurrency,
        ray=ray,
        recover=recover,
        play_options=play_options,
        state=state,
        accept=accept,
    )
