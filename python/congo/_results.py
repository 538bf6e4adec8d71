"""Search scores and what engines report: :class:`Score`, :class:`PovScore`, :data:`InfoDict`,
:class:`PlayResult`. Shared by the built-in :class:`~congo.Engine` and the protocol client
:class:`~congo.engine.SimpleEngine`, with python-chess's names and semantics where it has them.

>>> from congo.engine import Cp, Mate, MateGiven, PovScore
>>> [str(score) for score in sorted([Mate(-1), Cp(30), MateGiven, Mate(2), Cp(-500), Mate(0)])]
['#0', '#-1', '-500', '+30', '#2', '#+0']
>>> PovScore(Cp(30), False).white()
Score(cp=-30, mate=None)
"""

from __future__ import annotations

import dataclasses
from typing import TypedDict

from congo import _core
from congo._core import Move

__all__ = ["WDL_DEFAULT_PLY", "Cp", "InfoDict", "Mate", "MateGiven", "PlayResult", "PovScore", "Score", "Wdl"]

WDL_DEFAULT_PLY: int = _core.WDL_DEFAULT_PLY
"""The ply :meth:`Score.wdl` assumes when none is given: about the middle of a game (python-chess's
default too)."""


@dataclasses.dataclass(frozen=True)
class Wdl:
    """Chances of winning, drawing and losing, per mille, from one side's point of view (python-chess's
    ``Wdl``): ``wins + draws + losses == 1000`` for the model's chances.

    >>> from congo.engine import Wdl
    >>> Wdl(600, 300, 100).expectation(), -Wdl(600, 300, 100)
    (0.75, Wdl(wins=100, draws=300, losses=600))
    """

    wins: int
    draws: int
    losses: int

    def total(self) -> int:
        """``wins + draws + losses``."""
        return self.wins + self.draws + self.losses

    def winning_chance(self) -> float:
        """The chance of a win, from 0 to 1."""
        return self.wins / self.total()

    def drawing_chance(self) -> float:
        """The chance of a draw, from 0 to 1."""
        return self.draws / self.total()

    def losing_chance(self) -> float:
        """The chance of a loss, from 0 to 1."""
        return self.losses / self.total()

    def expectation(self) -> float:
        """The expected score, from 0 (a sure loss) to 1 (a sure win): ``(wins + draws / 2) / total``."""
        return (self.wins + 0.5 * self.draws) / self.total()

    def __neg__(self) -> Wdl:
        """The same chances from the other side's point of view."""
        return Wdl(self.losses, self.draws, self.wins)

    def __pos__(self) -> Wdl:
        return self

    def __bool__(self) -> bool:
        return self.total() > 0


_WIN = Wdl(1000, 0, 0)
_LOSS = Wdl(0, 0, 1000)


def _check_ply(ply: object) -> int:
    if isinstance(ply, bool) or not isinstance(ply, int) or ply < 0:
        raise ValueError(f"ply must be a non-negative int (moves played since the start), got {ply!r}")
    return ply


_MATE_ORDER = 100_000
"""The mate score used to order scores: beyond any evaluation in centipawns."""


@dataclasses.dataclass(frozen=True)
class Score:
    """A search score from the side to move's point of view.

    Either ``cp``, an evaluation in centipawns (a pawn is about 100), or ``mate``, a forced result:
    the side to move wins with its ``mate``-th move (capturing the enemy lion, or leaving the opponent
    without a legal move) when positive, and loses after the opponent's ``-mate``-th move when
    negative. ``mate == 0`` means the side to move has already lost; its negation, the opponent's view
    of that position, is :data:`MateGiven`.

    Scores compare and sort as python-chess's do: every loss below every evaluation below every win,
    a slower loss above a faster one and a faster win above a slower one::

        Mate(0) < Mate(-1) < Mate(-5) < Cp(-300) < Cp(20) < Mate(7) < Mate(1) < MateGiven
    """

    cp: int | None = None
    mate: int | None = None

    def is_mate(self) -> bool:
        """Whether this is a forced result rather than an evaluation."""
        return self.mate is not None

    def score(self, *, mate_score: int = 100_000) -> int:
        """The score as one int, a forced win in ``n`` counting as ``mate_score - n`` (and a loss as
        its negation), so that scores of both kinds compare as they should."""
        if self.mate is None:
            return self.cp if self.cp is not None else 0
        if self.mate > 0:
            return mate_score - self.mate
        return -mate_score - self.mate

    def wdl(self, *, ply: int = WDL_DEFAULT_PLY) -> Wdl:
        """The engine's win/draw/loss model for this score (docs/engine.md, "Win/draw/loss"): the
        chances, per mille, of the side to move, at ``ply`` moves since the start of the game (the
        model's phase; python-chess's argument; :data:`WDL_DEFAULT_PLY` when not given: pass
        ``board.ply()`` of the position the score is of). A forced win is ``Wdl(1000, 0, 0)``, a
        forced loss ``Wdl(0, 0, 1000)``. Raises ``ValueError`` for a negative ``ply``.

        >>> from congo.engine import Cp
        >>> w = Cp(150).wdl(ply=40)
        >>> w.wins > w.losses and w.total() == 1000 and -w == Cp(-150).wdl(ply=40)
        True
        """
        ply = _check_ply(ply)
        if self.mate is not None:
            return _WIN if self.mate > 0 else _LOSS
        return Wdl(*_core.wdl(self.cp if self.cp is not None else 0, ply))

    def __neg__(self) -> Score:
        """The same score from the other side's point of view."""
        if self.mate is not None:
            return MateGiven if self.mate == 0 else Score(mate=-self.mate)
        return Score(cp=-(self.cp or 0))

    def __pos__(self) -> Score:
        return self

    def _key(self) -> int:
        return self.score(mate_score=_MATE_ORDER)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() >= other._key()

    def __str__(self) -> str:
        """``+35`` / ``-120`` (centipawns), ``#3`` (wins with its 3rd move), ``#-2`` (loses)."""
        if self.mate is not None:
            return f"#{self.mate}"
        return f"{self.cp if self.cp is not None else 0:+d}"


class _MateGiven(Score):
    """The side to move has already won (the opponent's lion is captured, or it has no move)."""

    def __init__(self) -> None:
        super().__init__(cp=None, mate=0)

    def score(self, *, mate_score: int = 100_000) -> int:
        return mate_score

    def wdl(self, *, ply: int = WDL_DEFAULT_PLY) -> Wdl:
        _check_ply(ply)
        return _WIN

    def __neg__(self) -> Score:
        return Score(mate=0)

    def __repr__(self) -> str:
        return "MateGiven"

    def __str__(self) -> str:
        return "#+0"

    def __reduce__(self) -> str:
        return "MateGiven"


MateGiven: Score = _MateGiven()
"""The score of a game the side to move has already won (python-chess's ``MateGiven``): the
opponent's view of ``Mate(0)``."""


def Cp(cp: int) -> Score:  # python-chess's name
    """An evaluation in centipawns, ``Score(cp=cp)``."""
    return Score(cp=cp)


def Mate(moves: int) -> Score:  # python-chess's name
    """A forced result, ``Score(mate=moves)``: a win with the side to move's ``moves``-th move, or
    (negative) a loss after the opponent's ``-moves``-th move; ``Mate(0)``: already lost."""
    return Score(mate=moves)


class PovScore:
    """A score together with the side whose point of view it is from, as python-chess's ``PovScore``:
    ``relative`` is from ``turn``'s view; :meth:`white`, :meth:`black` and :meth:`pov` turn it to
    either side's.

    >>> from congo.engine import Cp, PovScore
    >>> score = PovScore(Cp(-40), True)
    >>> score.white(), score.black(), score.pov(False) == score.black()
    (Score(cp=-40, mate=None), Score(cp=40, mate=None), True)
    """

    __slots__ = ("relative", "turn")

    relative: Score
    turn: bool

    def __init__(self, relative: Score, turn: bool) -> None:
        self.relative = relative
        self.turn = turn

    def white(self) -> Score:
        """The score from White's point of view."""
        return self.pov(True)

    def black(self) -> Score:
        """The score from Black's point of view."""
        return self.pov(False)

    def pov(self, color: bool) -> Score:
        """The score from ``color``'s point of view."""
        return self.relative if self.turn == color else -self.relative

    def is_mate(self) -> bool:
        """Whether this is a forced result."""
        return self.relative.is_mate()

    def wdl(self, *, ply: int = WDL_DEFAULT_PLY) -> Wdl:
        """:meth:`Score.wdl` of :attr:`relative`: the chances of ``turn``, the side to move (negate
        it, or call ``score.white().wdl(...)``, for the other side's)."""
        return self.relative.wdl(ply=ply)

    def __neg__(self) -> PovScore:
        return PovScore(-self.relative, self.turn)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PovScore):
            return NotImplemented
        return self.white() == other.white()

    def __hash__(self) -> int:
        return hash(self.white())

    def __repr__(self) -> str:
        return f"PovScore({self.relative!r}, {'WHITE' if self.turn else 'BLACK'})"

    def __str__(self) -> str:
        return str(self.relative)


class InfoDict(TypedDict, total=False):
    """What an engine reports about a search (python-chess's ``InfoDict``), any of these keys:
    ``score`` (a :class:`PovScore` from the side to move's point of view in the searched position),
    ``pv`` (the principal variation, best move first), ``depth``, ``seldepth``, ``time`` (seconds
    since the search started), ``nodes``, ``nps``, ``hashfull`` (per mille), ``multipv`` (the line's
    rank from 1, the best), ``lowerbound`` / ``upperbound`` (the score is only a bound, still being
    resolved), ``currmove``, ``currmovenumber``, ``tbhits``, ``string`` (a message from the engine),
    ``wdl`` (a :class:`Wdl`: the engine's chances for the side to move, with ``UCI_ShowWDL``)."""

    score: PovScore
    pv: list[Move]
    depth: int
    seldepth: int
    time: float
    nodes: int
    nps: int
    hashfull: int
    multipv: int
    lowerbound: bool
    upperbound: bool
    currmove: Move
    currmovenumber: int
    tbhits: int
    string: str
    wdl: Wdl


@dataclasses.dataclass
class PlayResult:
    """The move an engine chose (python-chess's ``PlayResult``)."""

    move: Move | None
    """The best move; ``None`` when the engine has none (a finished game)."""
    ponder: Move | None = None
    """The reply the engine expects."""
    info: InfoDict = dataclasses.field(default_factory=lambda: InfoDict())
    """The last information about the best line."""
    draw_offered: bool = False
    resigned: bool = False

    def __repr__(self) -> str:
        return f"<PlayResult move={self.move} ponder={self.ponder} info={dict(self.info)!r}>"
