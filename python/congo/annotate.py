"""Annotated games: an evaluation on every move, glyphs on the mistakes, the engine's better line,
and a summary of each player (``congo annotate``).

Every position of each game's main line is searched (with :func:`congo.analyse_many`, so on every
core or a Ray cluster). A move's *loss* is the expected score the mover gave away with it: the
expected score of the position before the move with the engine's best move, minus that of the
position after the move played, both from the mover's point of view. The expected score of an
evaluation of ``cp`` centipawns is the logistic curve

    E(cp) = 1 / (1 + exp(-cp / 271.6))

(the scale of lichess's "winning chances", 0.00368208 per centipawn): 0.5 for a level position,
0.68 at +2 pawns, 0.91 at +6; a forced win is 1 and a forced loss 0. A move the engine would have
played itself loses nothing. The glyphs, by loss:

============================  ======  ==========
loss in expected score        glyph   NAG
============================  ======  ==========
≥ 0.05 (5 points in 100)      ``?!``  6 (dubious)
≥ 0.10                        ``?``   2 (mistake)
≥ 0.15                        ``??``  4 (blunder)
============================  ======  ==========

At each of them the engine's line from the position before the move (up to :data:`PV_PLIES`
plies) is added as a variation, and the move's comment says what was lost and what was best.
"""

from __future__ import annotations

import collections
import dataclasses
import math
from collections.abc import Iterable, Iterator
from typing import Callable

import congo
from congo.analysis import DEFAULT_HASH_MB, TablebaseLike, analyse_many
from congo.board import Board
from congo.engine import Limit, PovScore, Score, SearchResult
from congo.pgn import NAG_BLUNDER, NAG_DUBIOUS_MOVE, NAG_MISTAKE, ChildNode, Game, GameNode, _eval_text
from congo.tablebase import Tablebase

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "PV_PLIES",
    "SCALE",
    "PlayerSummary",
    "annotate_game",
    "annotate_games",
    "expected_score",
]

SCALE = 1 / 0.00368208
"""Centipawns per unit of the logistic curve of :func:`expected_score`."""

INACCURACY = 0.05
"""The loss in expected score from which a move gets ``?!``."""
MISTAKE = 0.10
"""… ``?``."""
BLUNDER = 0.15
"""… ``??``."""

PV_PLIES = 10
"""The longest better line added as a variation."""

_CP_CAP = 1000
"""Centipawn losses count evaluations up to ± this (a forced result counts as it)."""


def expected_score(score: Score) -> float:
    """The side to move's expected score (0 … 1) for an evaluation: the logistic curve of the
    module's documentation for centipawns, 1 for a forced win, 0 for a forced loss."""
    if score.mate is not None:  # score() tells a win (MateGiven included) from a loss
        return 1.0 if score.score() > 0 else 0.0
    return 1 / (1 + math.exp(-(score.cp or 0) / SCALE))


def _centipawns(score: Score) -> int:
    if score.mate is not None:
        return _CP_CAP if score.score() > 0 else -_CP_CAP
    return max(-_CP_CAP, min(_CP_CAP, score.cp or 0))


@dataclasses.dataclass
class PlayerSummary:
    """One player's moves in a game, as written in the headers."""

    moves: int = 0
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0
    total_loss: float = 0.0
    """The sum of the expected-score losses."""
    total_cp_loss: int = 0
    """The sum of the centipawn losses."""

    @property
    def average_loss(self) -> float:
        """The average expected-score loss per move, in points out of 100."""
        return 100 * self.total_loss / self.moves if self.moves else 0.0

    @property
    def acpl(self) -> float:
        """The average centipawn loss per move."""
        return self.total_cp_loss / self.moves if self.moves else 0.0

    def tags(self, color: str) -> dict[str, str]:
        return {
            f"{color}AverageLoss": f"{self.average_loss:.1f}",
            f"{color}ACPL": f"{self.acpl:.0f}",
            f"{color}Inaccuracies": str(self.inaccuracies),
            f"{color}Mistakes": str(self.mistakes),
            f"{color}Blunders": str(self.blunders),
        }


def annotate_game(game: Game, results: list[SearchResult], *, annotator: str) -> Game:
    """Annotates a game in place from the searches of its main line's positions (``results[i]``
    for the position after ``i`` moves) and returns it. Raises ``ValueError`` when the number of
    results does not fit the game."""
    nodes: list[ChildNode] = list(game.mainline())
    if not results and not nodes:
        return game
    if len(results) != len(nodes) + 1:
        raise ValueError(f"{len(results)} searches for a game of {len(nodes)} moves")
    summaries = {True: PlayerSummary(), False: PlayerSummary()}
    # One board walks the main line (a node's board() replays the game: quadratic in its length).
    walk = game.board()
    turn = walk.turn
    for i, node in enumerate(nodes):
        if i:
            walk.push(nodes[i - 1].move)
        before, after = results[i], results[i + 1]
        mover = turn if i % 2 == 0 else not turn
        node.set_eval(PovScore(after.score, not mover))
        best = before.score
        played = -after.score
        if before.move == node.move:
            loss, cp_loss = 0.0, 0
        else:
            loss = max(0.0, expected_score(best) - expected_score(played))
            cp_loss = max(0, _centipawns(best) - _centipawns(played))
        summary = summaries[mover]
        summary.moves += 1
        summary.total_loss += loss
        summary.total_cp_loss += cp_loss
        if loss < INACCURACY or before.move is None:
            continue
        if loss >= BLUNDER:
            nag, word = NAG_BLUNDER, "Blunder"
            summary.blunders += 1
        elif loss >= MISTAKE:
            nag, word = NAG_MISTAKE, "Mistake"
            summary.mistakes += 1
        else:
            nag, word = NAG_DUBIOUS_MOVE, "Inaccuracy"
            summary.inaccuracies += 1
        node.nags.add(nag)
        best_san = walk.san(before.move)
        shift = f"{_eval_text(PovScore(best, mover))} → {_eval_text(PovScore(after.score, not mover))}"
        node.comment = (
            f"{node.comment} ({shift}) {word}: {100 * loss:.0f} points lost; {best_san} was best."
        ).strip()
        line = before.pv[:PV_PLIES] if before.pv else [before.move]
        _add_side_line(node.parent, line)
    game.headers["Annotator"] = annotator
    for color, summary in (("White", summaries[True]), ("Black", summaries[False])):
        for key, value in summary.tags(color).items():
            game.headers[key] = value
    return game


def _add_side_line(parent: GameNode, moves: list[congo.Move]) -> None:
    """Adds the engine's line as the last variation at ``parent`` (moves already known legal)."""
    if parent.has_variation(moves[0]):
        return
    node = parent._add(moves[0])
    for move in moves[1:]:
        node = node._add(move)


def _positions(game: Game) -> Iterator[Board]:
    """The main line's positions, on one board that changes between yields (each is copied when
    ``analyse_many`` reads it)."""
    board = game.board()
    yield board
    for node in game.mainline():
        board.push(node.move)
        yield board


def annotate_games(
    games: Iterable[Game],
    limit: Limit,
    *,
    workers: int | None = None,
    hash_mb: int = DEFAULT_HASH_MB,
    ray: str | None = None,
    progress: Callable[[int, int], object] | None = None,
    tablebase: TablebaseLike | None = None,
) -> Iterator[Game]:
    """Annotates each game (see the module's documentation) and yields it, in input order, as soon
    as its last position has been searched. Games are read lazily, a few positions ahead.

    A game that cannot be searched (its ``FEN`` tag is bad: it has no moves) is yielded unchanged.
    ``progress(games_done, positions_done)`` is called after each game. The searches are those of
    :func:`congo.analyse_many` (same ``workers``, ``hash_mb``, ``ray``, ``tablebase``), so node
    and depth limits give the same annotations on any number of workers. With ``tablebase`` (endgame
    tables, see :mod:`congo.tablebase`) every position the tables cover gets its exact value: a
    draw, or a forced win or loss with its distance (``[%eval #n]``). Raises like
    ``analyse_many``."""
    waiting: collections.deque[tuple[Game, int]] = collections.deque()

    def positions() -> Iterator[Board]:
        for game in games:
            try:
                game.board()
            except ValueError:
                waiting.append((game, 0))
                continue
            waiting.append((game, len(game.mainline_moves()) + 1))
            yield from _positions(game)

    if tablebase is not None and not isinstance(tablebase, Tablebase):
        tablebase = Tablebase(tablebase)
    described = _describe(limit)
    if tablebase is not None:
        described += f", tables up to {tablebase.max_men} men"
    annotator = f"congo {congo.__version__} ({described})"
    done_games = 0
    done_positions = 0
    buffer: list[SearchResult] = []

    def ready() -> Iterator[Game]:
        nonlocal done_games, done_positions, buffer
        while waiting and len(buffer) >= waiting[0][1]:
            game, count = waiting.popleft()
            results, buffer = buffer[:count], buffer[count:]
            if count:
                annotate_game(game, results, annotator=annotator)
            done_games += 1
            done_positions += count
            if progress is not None:
                progress(done_games, done_positions)
            yield game

    searches = analyse_many(
        positions(), limit, workers=workers, hash_mb=hash_mb, ray=ray, tablebase=tablebase
    )
    for result in searches:
        buffer.append(result)
        yield from ready()
    yield from ready()


def _describe(limit: Limit) -> str:
    parts = [f"{name}={value}" for name, value in dataclasses.asdict(limit).items() if value is not None]
    return ", ".join(parts) or "no limit"
