"""A score with the side it is seen from: the value of :meth:`congo.pgn.GameNode.eval`.

A minimal stand-in kept apart so that it can give way to ``congo.engine.PovScore`` (the engine
protocol's, python-chess's shape) by changing one import in ``congo/pgn.py``.
"""

from __future__ import annotations

import dataclasses

from congo.engine import Score

__all__ = ["PovScore"]


def _negated(score: Score) -> Score:
    if score.mate is not None:
        return Score(mate=-score.mate)
    return Score(cp=-(score.cp or 0))


@dataclasses.dataclass(frozen=True)
class PovScore:
    """``relative``: the score from the point of view of ``turn`` (``congo.WHITE`` is ``True``).

    A ``Score(mate=0)`` (the side to move has already lost) has no negation in :class:`Score`: it
    is returned unchanged by :meth:`pov`, so read such a score through ``relative`` and ``turn``."""

    relative: Score
    turn: bool

    def pov(self, color: bool) -> Score:
        """The score from ``color``'s point of view."""
        return self.relative if color == self.turn else _negated(self.relative)

    def white(self) -> Score:
        """The score from White's point of view."""
        return self.pov(True)

    def black(self) -> Score:
        """The score from Black's point of view."""
        return self.pov(False)

    def is_mate(self) -> bool:
        """Whether the score is a forced result."""
        return self.relative.mate is not None
