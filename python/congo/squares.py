"""Squares and sets of squares.

A square is a plain int, ``sq = rank_index * 7 + file_index``: ``A1 == 0``, ``G1 == 6``, ``A2 == 7``,
``G7 == 48``. The same ints are used by the Rust core.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, MutableSet
from typing import Callable, Final, SupportsInt, Union

from congo import _core

Square = int

A1, B1, C1, D1, E1, F1, G1 = range(0, 7)
A2, B2, C2, D2, E2, F2, G2 = range(7, 14)
A3, B3, C3, D3, E3, F3, G3 = range(14, 21)
A4, B4, C4, D4, E4, F4, G4 = range(21, 28)
A5, B5, C5, D5, E5, F5, G5 = range(28, 35)
A6, B6, C6, D6, E6, F6, G6 = range(35, 42)
A7, B7, C7, D7, E7, F7, G7 = range(42, 49)

SQUARES: Final = list(range(49))
FILE_NAMES: Final = ("a", "b", "c", "d", "e", "f", "g")
RANK_NAMES: Final = ("1", "2", "3", "4", "5", "6", "7")
SQUARE_NAMES: Final = [f + r for r in RANK_NAMES for f in FILE_NAMES]

BB_EMPTY: Final = 0
BB_ALL: Final = (1 << 49) - 1


def _check_square(sq: Square) -> Square:
    if isinstance(sq, bool) or not isinstance(sq, int):
        raise TypeError(f"a square is an int in 0..48, got {sq!r}")
    if not 0 <= sq < 49:
        raise ValueError(f"square {sq} is off the board (squares are 0..48)")
    return sq


def parse_square(name: str) -> Square:
    """The square named ``name`` (``"d4"``). Raises ``ValueError`` for anything else."""
    if not isinstance(name, str):
        raise TypeError(f"a square name is a string like 'd4', got {name!r}")
    try:
        return SQUARE_NAMES.index(name)
    except ValueError:
        raise ValueError(f"{name!r} is not a square (files a-g, ranks 1-7)") from None


def square_name(sq: Square) -> str:
    """The name of a square (``"d4"``). Raises ``ValueError`` off the board."""
    return SQUARE_NAMES[_check_square(sq)]


def square(file_index: int, rank_index: int) -> Square:
    """The square on ``file_index`` (0 = a) and ``rank_index`` (0 = rank 1). Raises ``TypeError``
    for non-ints and ``ValueError`` off the board."""
    for name, value in (("file_index", file_index), ("rank_index", rank_index)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int in 0..6, got {value!r}")
    if not (0 <= file_index < 7 and 0 <= rank_index < 7):
        raise ValueError(f"file {file_index} / rank {rank_index} is off the board (0..6 each)")
    return rank_index * 7 + file_index


def square_file(sq: Square) -> int:
    """The file index of a square, 0 = a … 6 = g."""
    return _check_square(sq) % 7


def square_rank(sq: Square) -> int:
    """The rank index of a square, 0 = rank 1 … 6 = rank 7."""
    return _check_square(sq) // 7


def square_distance(a: Square, b: Square) -> int:
    """King-move distance between two squares."""
    return max(abs(square_file(a) - square_file(b)), abs(square_rank(a) - square_rank(b)))


def square_mirror(sq: Square) -> Square:
    """The square seen from the other side: same file, rank reversed."""
    return square(square_file(sq), 6 - square_rank(sq))


BB_SQUARES: Final = [1 << sq for sq in SQUARES]
BB_RANKS: Final = [0x7F << (7 * r) for r in range(7)]
BB_FILES: Final = [sum(1 << (7 * r + f) for r in range(7)) for f in range(7)]
BB_RIVER: Final[int] = _core.BB_RIVER
"""The river, rank 4: the core's mask."""
BB_CASTLES: Final[tuple[int, int]] = _core.BB_CASTLES
"""Castle masks indexed by colour: ``BB_CASTLES[WHITE]`` is c1–e3, ``BB_CASTLES[BLACK]`` is c5–e7."""

IntoSquareSet = Union[SupportsInt, Iterable[Square]]


def _transformed(mask: int, square_map: Callable[[int, int], Square]) -> int:
    """The mask with each square ``(file, rank)`` moved to ``square_map(file, rank)``."""
    out = 0
    while mask:
        low = mask & -mask
        sq = low.bit_length() - 1
        out |= 1 << square_map(sq % 7, sq // 7)
        mask ^= low
    return out


def flip_vertical(bb: int) -> int:
    """The mask with the ranks reversed (rank 1 becomes rank 7), as python-chess's
    ``flip_vertical``."""
    return _transformed(bb & BB_ALL, lambda f, r: (6 - r) * 7 + f)


def flip_horizontal(bb: int) -> int:
    """The mask with the files reversed (file a becomes file g). Congo's board is symmetric under
    it: the river and both castles stay where they are, so ``Board.transform(flip_horizontal)``
    is always a valid position."""
    return _transformed(bb & BB_ALL, lambda f, r: r * 7 + (6 - f))


def flip_diagonal(bb: int) -> int:
    """The mask mirrored on the a1-g7 diagonal (files become ranks)."""
    return _transformed(bb & BB_ALL, lambda f, r: f * 7 + r)


def flip_anti_diagonal(bb: int) -> int:
    """The mask mirrored on the a7-g1 diagonal."""
    return _transformed(bb & BB_ALL, lambda f, r: (6 - f) * 7 + (6 - r))


def _line(a: Square, b: Square) -> tuple[int, int] | None:
    """The step ``(file, rank)`` from ``a`` toward ``b`` when they share a file, rank or diagonal."""
    df, dr = square_file(b) - square_file(a), square_rank(b) - square_rank(a)
    if (df, dr) == (0, 0) or not (df == 0 or dr == 0 or abs(df) == abs(dr)):
        return None
    return (df > 0) - (df < 0), (dr > 0) - (dr < 0)


def _walk(sq: Square, step: tuple[int, int]) -> Iterator[Square]:
    """The squares from ``sq`` (excluded) in the direction ``step`` to the edge of the board."""
    f, r = square_file(sq) + step[0], square_rank(sq) + step[1]
    while 0 <= f < 7 and 0 <= r < 7:
        yield r * 7 + f
        f, r = f + step[0], r + step[1]


def _mask(squares: IntoSquareSet) -> int:
    if isinstance(squares, SquareSet):
        return squares.mask
    if isinstance(squares, int):
        if not 0 <= squares <= BB_ALL:
            raise ValueError(f"square mask {squares:#x} has bits outside the 49 squares")
        return squares
    if hasattr(squares, "__int__") and not hasattr(squares, "__iter__"):
        return _mask(int(squares))
    mask = 0
    for sq in squares:  # type: ignore[union-attr]
        mask |= 1 << _check_square(sq)
    return mask


class SquareSet(MutableSet[Square]):
    """A set of squares over a 49-bit mask, like python-chess's ``SquareSet``.

    Iterates in square order; supports the set operators with other square sets, ints (masks) and
    iterables of squares. ``int(s)`` is the mask.

    >>> SquareSet([A1, D4])
    SquareSet(0x0_0000_0100_0001)
    """

    __slots__ = ("mask",)

    def __init__(self, squares: IntoSquareSet = BB_EMPTY) -> None:
        """Raises ``ValueError`` for a square off the board or a mask wider than 49 bits."""
        self.mask: int = _mask(squares)

    # Set protocol.
    def __contains__(self, sq: object) -> bool:
        return isinstance(sq, int) and 0 <= sq < 49 and bool(self.mask >> sq & 1)

    def __iter__(self) -> Iterator[Square]:
        mask = self.mask
        while mask:
            low = mask & -mask
            yield low.bit_length() - 1
            mask ^= low

    def __reversed__(self) -> Iterator[Square]:
        mask = self.mask
        while mask:
            sq = mask.bit_length() - 1
            yield sq
            mask ^= 1 << sq

    def __len__(self) -> int:
        return bin(self.mask).count("1")

    def add(self, sq: Square) -> None:
        """Adds a square."""
        self.mask |= 1 << _check_square(sq)

    def discard(self, sq: Square) -> None:
        """Removes a square if present."""
        self.mask &= ~(1 << _check_square(sq))

    def remove(self, sq: Square) -> None:
        """Removes a square. Raises ``KeyError`` if absent."""
        if sq not in self:
            raise KeyError(sq)
        self.discard(sq)

    def pop(self) -> Square:
        """Removes and returns the lowest square. Raises ``KeyError`` if empty."""
        if not self.mask:
            raise KeyError("pop from an empty SquareSet")
        sq = (self.mask & -self.mask).bit_length() - 1
        self.mask ^= 1 << sq
        return sq

    def clear(self) -> None:
        """Removes every square."""
        self.mask = BB_EMPTY

    def copy(self) -> SquareSet:
        """A new set with the same squares."""
        return SquareSet(self.mask)

    def tolist(self) -> list[bool]:
        """49 booleans, one per square."""
        return [bool(self.mask >> sq & 1) for sq in SQUARES]

    def mirror(self) -> SquareSet:
        """The set seen from the other side (ranks reversed)."""
        return SquareSet(flip_vertical(self.mask))

    # python-chess's set methods: every argument may be a SquareSet, a mask or squares.
    def union(self, other: IntoSquareSet) -> SquareSet:
        """The squares in either set."""
        return self | other

    def intersection(self, other: IntoSquareSet) -> SquareSet:
        """The squares in both sets."""
        return self & other

    def difference(self, other: IntoSquareSet) -> SquareSet:
        """The squares of this set that are not in ``other``."""
        return self - other

    def symmetric_difference(self, other: IntoSquareSet) -> SquareSet:
        """The squares in exactly one of the sets."""
        return self ^ other

    def issubset(self, other: IntoSquareSet) -> bool:
        """Whether every square of this set is in ``other``."""
        return not self.mask & ~_mask(other)

    def issuperset(self, other: IntoSquareSet) -> bool:
        """Whether every square of ``other`` is in this set."""
        return not _mask(other) & ~self.mask

    def isdisjoint(self, other: IntoSquareSet) -> bool:
        """Whether the sets share no square."""
        return not self.mask & _mask(other)

    def update(self, *others: IntoSquareSet) -> None:
        """Adds the squares of every argument."""
        for other in others:
            self |= other

    def intersection_update(self, *others: IntoSquareSet) -> None:
        """Keeps only the squares in every argument."""
        for other in others:
            self &= other

    def difference_update(self, other: IntoSquareSet) -> None:
        """Removes the squares of ``other``."""
        self -= other

    def symmetric_difference_update(self, other: IntoSquareSet) -> None:
        """Keeps the squares in exactly one of the sets."""
        self ^= other

    def carry_rippler(self) -> Iterator[int]:
        """Every subset of this set, as masks, starting with 0 (the carry-rippler trick)."""
        mask = self.mask
        subset = 0
        while True:
            yield subset
            subset = (subset - mask) & mask
            if not subset:
                break

    @classmethod
    def from_square(cls, sq: Square) -> SquareSet:
        """The set of one square. Raises ``ValueError`` off the board."""
        return cls(1 << _check_square(sq))

    @classmethod
    def ray(cls, a: Square, b: Square) -> SquareSet:
        """The whole line (file, rank or diagonal) through two squares, edge to edge, both included;
        empty when they share none."""
        step = _line(_check_square(a), _check_square(b))
        if step is None:
            return cls()
        back = (-step[0], -step[1])
        return cls([a, *_walk(a, step), *_walk(a, back)])

    @classmethod
    def between(cls, a: Square, b: Square) -> SquareSet:
        """The squares strictly between two squares on a shared line; empty when they share none
        or are neighbours."""
        step = _line(_check_square(a), _check_square(b))
        if step is None:
            return cls()
        squares = []
        for sq in _walk(a, step):
            if sq == b:
                break
            squares.append(sq)
        return cls(squares)

    # Operators.
    def __and__(self, other: IntoSquareSet) -> SquareSet:
        return SquareSet(self.mask & _mask(other))

    __rand__ = __and__

    def __or__(self, other: IntoSquareSet) -> SquareSet:  # type: ignore[override]
        return SquareSet(self.mask | _mask(other))

    __ror__ = __or__

    def __xor__(self, other: IntoSquareSet) -> SquareSet:  # type: ignore[override]
        return SquareSet(self.mask ^ _mask(other))

    __rxor__ = __xor__

    def __sub__(self, other: IntoSquareSet) -> SquareSet:
        return SquareSet(self.mask & ~_mask(other))

    def __invert__(self) -> SquareSet:
        return SquareSet(~self.mask & BB_ALL)

    def __iand__(self, other: IntoSquareSet) -> SquareSet:
        self.mask &= _mask(other)
        return self

    def __ior__(self, other: IntoSquareSet) -> SquareSet:  # type: ignore[override]
        self.mask |= _mask(other)
        return self

    def __ixor__(self, other: IntoSquareSet) -> SquareSet:  # type: ignore[override]
        self.mask ^= _mask(other)
        return self

    def __isub__(self, other: IntoSquareSet) -> SquareSet:
        self.mask &= ~_mask(other)
        return self

    def __int__(self) -> int:
        return self.mask

    def __index__(self) -> int:
        return self.mask

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __eq__(self, other: object) -> bool:
        """Equal to another set, a mask or any iterable of the same squares."""
        if isinstance(other, str):
            return NotImplemented
        try:
            return self.mask == _mask(other)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return NotImplemented

    def __le__(self, other: IntoSquareSet) -> bool:
        return self.issubset(other)

    def __ge__(self, other: IntoSquareSet) -> bool:
        return self.issuperset(other)

    def __lt__(self, other: IntoSquareSet) -> bool:
        return self.issubset(other) and self.mask != _mask(other)

    def __gt__(self, other: IntoSquareSet) -> bool:
        return self.issuperset(other) and self.mask != _mask(other)

    __hash__ = None  # type: ignore[assignment]  # mutable, like python-chess

    def __repr__(self) -> str:
        """Always the 13 hex digits of a 49-bit mask: ``SquareSet(0x0_0000_0100_0001)``."""
        return f"SquareSet({self.mask:#018_x})"

    def __str__(self) -> str:
        rows = []
        for rank in range(6, -1, -1):
            rows.append(" ".join("1" if self.mask >> square(f, rank) & 1 else "." for f in range(7)))
        return "\n".join(rows)

    def __reduce__(self) -> tuple[type[SquareSet], tuple[int]]:
        return (SquareSet, (self.mask,))


class _ConstantSquareSet(SquareSet):
    """A square set that cannot change: the module constants. In-place operators return new sets."""

    __slots__ = ()

    def _refuse(self, *_: object) -> None:
        raise TypeError("this SquareSet is a constant; copy() it first")

    add = discard = _refuse  # type: ignore[assignment]

    def pop(self) -> Square:
        raise TypeError("this SquareSet is a constant; copy() it first")

    def clear(self) -> None:
        raise TypeError("this SquareSet is a constant; copy() it first")

    __iand__ = SquareSet.__and__
    __ior__ = SquareSet.__or__
    __ixor__ = SquareSet.__xor__
    __isub__ = SquareSet.__sub__

    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, "mask"):
            raise TypeError("this SquareSet is a constant; copy() it first")
        object.__setattr__(self, name, value)

    def __reduce__(self) -> tuple[type[SquareSet], tuple[int]]:
        return (SquareSet, (self.mask,))


RIVER: Final[SquareSet] = _ConstantSquareSet(BB_RIVER)
"""The river, rank 4 (a4–g4). A constant: ``RIVER.copy()`` gives a set you can change."""
CASTLES: Final[tuple[SquareSet, SquareSet]] = (
    _ConstantSquareSet(BB_CASTLES[0]),
    _ConstantSquareSet(BB_CASTLES[1]),
)
"""The castles indexed by colour: ``CASTLES[WHITE]`` (c1–e3) and ``CASTLES[BLACK]`` (c5–e7)."""
