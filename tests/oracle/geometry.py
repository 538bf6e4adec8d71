"""Board geometry of Congo (docs/rules.md §1): squares, river, castles, directions.

Squares are ints ``sq = rank_index * 7 + file_index`` (a1 = 0, g1 = 6, a2 = 7, g7 = 48).
Everything else here is a precomputed table so that the move generators stay short.
"""

from __future__ import annotations

FILES = "abcdefg"
RANKS = "1234567"
SIZE = 7
SQUARES = range(SIZE * SIZE)

#: Rank index of the river, rank 4 (docs/rules.md §1).
RIVER_RANK = 3


def square(file_index: int, rank_index: int) -> int:
    """The square at ``file_index`` (0 = a) and ``rank_index`` (0 = rank 1)."""
    return rank_index * SIZE + file_index


def file_of(sq: int) -> int:
    """File index of a square (0 = file a)."""
    return sq % SIZE


def rank_of(sq: int) -> int:
    """Rank index of a square (0 = rank 1)."""
    return sq // SIZE


def square_name(sq: int) -> str:
    """Lower-case name of a square: ``square_name(0) == "a1"``."""
    if not 0 <= sq < SIZE * SIZE:
        raise ValueError(f"square index out of range: {sq!r}")
    return FILES[file_of(sq)] + RANKS[rank_of(sq)]


def parse_square(name: str) -> int:
    """Index of a lower-case square name: ``parse_square("g7") == 48``."""
    if len(name) != 2 or name[0] not in FILES or name[1] not in RANKS:
        raise ValueError(f"invalid square name: {name!r}")
    return square(FILES.index(name[0]), RANKS.index(name[1]))


def in_river(sq: int) -> bool:
    """Whether a square is on the river, rank 4 (docs/rules.md §1)."""
    return rank_of(sq) == RIVER_RANK


#: The castles (docs/rules.md §1): files c-e, ranks 1-3 for White and 5-7 for Black.
WHITE_CASTLE = frozenset(square(f, r) for f in (2, 3, 4) for r in (0, 1, 2))
BLACK_CASTLE = frozenset(square(f, r) for f in (2, 3, 4) for r in (4, 5, 6))


def castle(white: bool) -> frozenset[int]:
    """The castle of the given colour."""
    return WHITE_CASTLE if white else BLACK_CASTLE


# Directions as (file delta, rank delta). "North" is toward rank 7.
N, S, E, W = (0, 1), (0, -1), (1, 0), (-1, 0)
NE, NW, SE, SW = (1, 1), (-1, 1), (1, -1), (-1, -1)
ORTHOGONAL = (N, S, E, W)
DIAGONAL = (NE, NW, SE, SW)
KING_DIRECTIONS = ORTHOGONAL + DIAGONAL
KNIGHT_JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

Direction = tuple[int, int]


def forward(white: bool) -> int:
    """Rank delta of "forward" for a colour: toward rank 7 for White (docs/rules.md §1)."""
    return 1 if white else -1


def across_river(sq: int, white: bool) -> bool:
    """Whether ``sq`` is across the river for that colour: White ranks 5-7, Black 1-3."""
    return rank_of(sq) > RIVER_RANK if white else rank_of(sq) < RIVER_RANK


def far_rank(white: bool) -> int:
    """Rank index where that colour's pawns promote: rank 7 for White, rank 1 for Black."""
    return SIZE - 1 if white else 0


def _offset(sq: int, df: int, dr: int) -> int | None:
    f, r = file_of(sq) + df, rank_of(sq) + dr
    if 0 <= f < SIZE and 0 <= r < SIZE:
        return square(f, r)
    return None


def _table(df: int, dr: int) -> tuple[int | None, ...]:
    return tuple(_offset(sq, df, dr) for sq in SQUARES)


#: ``STEP[(df, dr)][sq]``: the square one step away in that direction, or None off the board.
STEP: dict[Direction, tuple[int | None, ...]] = {d: _table(*d) for d in KING_DIRECTIONS}

#: ``KING_STEPS[sq]``: the (up to 8) squares adjacent to ``sq``.
KING_STEPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for d in KING_DIRECTIONS if (t := STEP[d][sq]) is not None) for sq in SQUARES
)

#: ``KNIGHT_TARGETS[sq]``: the zebra's leap targets from ``sq``.
KNIGHT_TARGETS: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for d in KNIGHT_JUMPS if (t := _offset(sq, *d)) is not None) for sq in SQUARES
)


def offset(sq: int, direction: Direction, distance: int = 1) -> int | None:
    """The square ``distance`` steps from ``sq`` in ``direction``, or None off the board."""
    return _offset(sq, direction[0] * distance, direction[1] * distance)


#: ``LEAP2[sq]``: the squares exactly two steps away in each of the 8 directions.
LEAP2: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for d in KING_DIRECTIONS if (t := offset(sq, d, 2)) is not None) for sq in SQUARES
)

#: ``ORTHO_LEAPS[sq]``: the elephant's targets, 1 or 2 squares orthogonally.
ORTHO_LEAPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for d in ORTHOGONAL for n in (1, 2) if (t := offset(sq, d, n)) is not None) for sq in SQUARES
)
