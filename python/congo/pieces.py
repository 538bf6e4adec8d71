"""Colours, piece types and pieces."""

from __future__ import annotations

from typing import Final

Color = bool
"""A side: ``WHITE`` (``True``) or ``BLACK`` (``False``)."""
WHITE: Final = True
BLACK: Final = False
COLORS: Final = (WHITE, BLACK)
COLOR_NAMES: Final = ("black", "white")
"""Indexed by colour: ``COLOR_NAMES[WHITE] == "white"``."""

PieceType = int
"""A piece type, ``PAWN`` (1) … ``LION`` (8)."""
PAWN: Final = 1
SUPERPAWN: Final = 2
MONKEY: Final = 3
GIRAFFE: Final = 4
ZEBRA: Final = 5
ELEPHANT: Final = 6
CROCODILE: Final = 7
LION: Final = 8
PIECE_TYPES: Final = (PAWN, SUPERPAWN, MONKEY, GIRAFFE, ZEBRA, ELEPHANT, CROCODILE, LION)
PIECE_SYMBOLS: Final = (None, "p", "s", "m", "g", "z", "e", "c", "l")
"""Lower-case letters indexed by piece type: ``PIECE_SYMBOLS[MONKEY] == "m"``."""
PIECE_NAMES: Final = (
    None,
    "pawn",
    "superpawn",
    "monkey",
    "giraffe",
    "zebra",
    "elephant",
    "crocodile",
    "lion",
)

UNICODE_PIECE_SYMBOLS: Final = {
    # Congo has no standard glyphs. Chess glyphs stand in where a piece moves like a chess piece
    # (lion ~ king, zebra ~ knight, pawn ~ pawn); the others are circled letters, which keep one
    # column each in a monospaced terminal font (emoji would not).
    "L": "♔",
    "l": "♚",
    "Z": "♘",
    "z": "♞",
    "P": "♙",
    "p": "♟",
    "S": "Ⓢ",
    "s": "ⓢ",
    "M": "Ⓜ",
    "m": "ⓜ",
    "G": "Ⓖ",
    "g": "ⓖ",
    "E": "Ⓔ",
    "e": "ⓔ",
    "C": "Ⓒ",
    "c": "ⓒ",
}
"""The Unicode scheme of :meth:`Board.unicode`: chess glyphs for the lion (king), zebra (knight) and
pawn; circled letters for the other pieces (upper case circled for White, lower case circled for
Black)."""


def piece_symbol(piece_type: PieceType) -> str:
    """The lower-case letter of a piece type. Raises ``ValueError`` for an unknown type."""
    if isinstance(piece_type, int) and 1 <= piece_type <= 8:
        return PIECE_SYMBOLS[piece_type]  # type: ignore[return-value]
    raise ValueError(f"piece type {piece_type!r} is not one of PAWN (1) ... LION (8)")


def piece_name(piece_type: PieceType) -> str:
    """The English name of a piece type. Raises ``ValueError`` for an unknown type."""
    piece_symbol(piece_type)
    return PIECE_NAMES[piece_type]  # type: ignore[return-value]


class Piece:
    """A piece type with a colour. Immutable and hashable.

    >>> Piece.from_symbol("M")
    Piece.from_symbol('M')
    """

    __slots__ = ("color", "piece_type")

    piece_type: PieceType
    color: Color

    def __init__(self, piece_type: PieceType, color: Color) -> None:
        """Raises ``ValueError`` for an unknown piece type and ``TypeError`` for a non-bool colour."""
        piece_symbol(piece_type)
        if not isinstance(color, bool):
            raise TypeError(f"color must be WHITE (True) or BLACK (False), got {color!r}")
        object.__setattr__(self, "piece_type", piece_type)
        object.__setattr__(self, "color", color)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Piece is immutable (cannot set {name!r})")

    def symbol(self) -> str:
        """The FEN letter: upper case for White, lower case for Black."""
        symbol = piece_symbol(self.piece_type)
        return symbol.upper() if self.color else symbol

    def unicode_symbol(self) -> str:
        """The glyph of the Unicode scheme (see ``UNICODE_PIECE_SYMBOLS``)."""
        return UNICODE_PIECE_SYMBOLS[self.symbol()]

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        """The piece for a FEN letter. Raises ``ValueError`` for anything else."""
        if not isinstance(symbol, str) or len(symbol) != 1 or symbol.lower() not in PIECE_SYMBOLS[1:]:
            raise ValueError(f"{symbol!r} is not a piece letter (one of LZEGCMPS, upper or lower case)")
        return cls(PIECE_SYMBOLS.index(symbol.lower()), symbol.isupper())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Piece):
            return self.piece_type == other.piece_type and self.color == other.color
        return NotImplemented

    def __hash__(self) -> int:
        return self.piece_type + (8 if self.color else 0)

    def __repr__(self) -> str:
        return f"Piece.from_symbol({self.symbol()!r})"

    def __str__(self) -> str:
        return self.symbol()

    def __reduce__(self) -> tuple[type[Piece], tuple[PieceType, Color]]:
        return (Piece, (self.piece_type, self.color))
