"""The end of a game: :class:`Outcome` and its :class:`Termination`.

The core decides every ending (docs/rules.md §8) and hands back these objects; this module only defines
their Python shape, as python-chess does (an ``enum.Enum`` and a frozen dataclass).
"""

from __future__ import annotations

import dataclasses
import enum

from congo.pieces import Color

__all__ = ["Outcome", "Termination"]


class Termination(enum.Enum):
    """How a game ended."""

    LION_CAPTURED = 1
    """A lion was captured (by any piece, a monkey jump or the facing capture); the capturer wins."""
    NO_LEGAL_MOVES = 2
    """The side to move has no legal move and loses (there is no stalemate in Congo). No valid
    position reaches it (see ``docs/rules.md``); the rule is kept for completeness."""
    BARE_LIONS = 3
    """Only the two lions are left and the side to move cannot capture the other: a draw."""
    THREEFOLD_REPETITION = 4
    """The same position occurred for the third time and a draw was claimed."""
    MOVE_LIMIT = 5
    """The caller's ply limit was reached: a draw."""


@dataclasses.dataclass(frozen=True)
class Outcome:
    """The end of a game: how it ended and who won (``None`` for a draw)."""

    termination: Termination
    winner: Color | None

    def result(self) -> str:
        """``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner else "0-1"
