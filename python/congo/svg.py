"""SVG rendering of Congo boards, for notebooks, web pages and documents.

:func:`board` draws a position with the river (rank 4, blue water with waves) and the two castles
(outlined 3×3 blocks), coordinates, the last move (highlighted squares; a monkey chain is drawn along
every leg), arrows and marked squares. The result is a :class:`SvgWrapper`: a ``str`` holding one
self-contained ``<svg>`` element (no fonts, images or scripts needed except for the coordinate
letters) that Jupyter displays through ``_repr_svg_``.

Piece glyphs
------------
Congo has no standard piece images, so ``congo`` draws its own: every piece is a disc, light (White)
or dark (Black), carrying an emblem in the contrasting colour:

============  ==================================================
piece         emblem
============  ==================================================
lion          a crown (the piece whose capture decides the game)
zebra         three diagonal stripes
elephant      a head with two big ears and a trunk
giraffe       a long neck and head, with spots
crocodile     open jaws with teeth
monkey        a face with two round ears
pawn          a chess pawn
superpawn     a chess pawn with a star for a head, on a double ring
============  ==================================================

>>> import congo, congo.svg
>>> image = congo.svg.board(congo.Board(), size=300)
>>> image.startswith("<svg")
True
"""

from __future__ import annotations

import dataclasses
import html
import math
import re
from collections.abc import Iterable, Mapping
from typing import Final, Union

from congo._core import Move, Position
from congo.board import Board, to_position
from congo.pieces import BLACK, PIECE_NAMES, WHITE, Color, Piece
from congo.squares import (
    BB_CASTLES,
    BB_RIVER,
    FILE_NAMES,
    RANK_NAMES,
    IntoSquareSet,
    Square,
    SquareSet,
    _check_square,
    parse_square,
    square_file,
    square_rank,
)

__all__ = ["DEFAULT_COLORS", "MARGIN", "SQUARE_SIZE", "Arrow", "SvgWrapper", "board", "piece"]

SQUARE_SIZE: Final = 45
"""The side of one square in SVG user units (the ``viewBox`` is 7 squares plus the margins)."""
MARGIN: Final = 20
"""The width of the coordinate margin around the board, when coordinates are drawn."""

DEFAULT_COLORS: Final[Mapping[str, str]] = {
    "square light": "#eadfc0",
    "square dark": "#d2bd8c",
    "castle light": "#ecc9a4",
    "castle dark": "#d5a679",
    "castle outline": "#7a2c12",
    "river light": "#5d9fd8",
    "river dark": "#4a8bc8",
    "river wave": "#d8ecfb",
    "margin": "#3b3328",
    "coord": "#efe6cf",
    "lastmove": "#f4e04d",
    "chain": "#e8620c",
    "arrow": "#15781b",
    "arrow green": "#15781b",
    "arrow red": "#882020",
    "arrow yellow": "#e68f00",
    "arrow blue": "#003088",
    "square mark": "#c0392b",
    "white piece": "#fbf8ef",
    "white emblem": "#1d1d1d",
    "black piece": "#262626",
    "black emblem": "#f4efe2",
    "piece outline": "#111111",
}
"""The colours :func:`board` uses, by role; pass ``colors={"river light": "#39f", ...}`` to change some."""


class SvgWrapper(str):
    """An SVG document as a ``str`` that Jupyter and IPython display as an image."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        return str(self)


_PGN_COLORS: Final[Mapping[str, str]] = {"G": "green", "R": "red", "Y": "yellow", "B": "blue"}
"""The colour letters of ``[%cal]``/``[%csl]`` annotations (lichess, ChessBase, python-chess)."""


@dataclasses.dataclass(frozen=True)
class Arrow:
    """A straight arrow from the centre of ``tail`` to the centre of ``head``, drawn by :func:`board`;
    an arrow whose tail is its head marks that square with a ring. Frozen and hashable, as
    python-chess's ``chess.svg.Arrow``.

    ``color`` is any SVG colour, or one of the names ``"green"``, ``"red"``, ``"yellow"``, ``"blue"``
    that record annotations use (drawn with :data:`DEFAULT_COLORS`' ``"arrow green"`` … entries).
    Raises ``ValueError`` for a square off the board and ``TypeError`` for a non-int square or a
    non-str colour."""

    tail: Square
    head: Square
    color: str = DEFAULT_COLORS["arrow"]

    def __post_init__(self) -> None:
        _check_square(self.tail)
        _check_square(self.head)
        if not isinstance(self.color, str):
            raise TypeError(f"an arrow colour is a str, got {type(self.color).__name__}")

    def pgn(self) -> str:
        """The arrow as a record annotation item: ``Gc1c3`` (an arrow), ``Rd4`` (a marked square).
        The colours ``red``, ``yellow`` and ``blue`` are written ``R``, ``Y``, ``B``; any other
        colour ``G``, as python-chess does."""
        letter = next((k for k, v in _PGN_COLORS.items() if v == self.color and k != "G"), "G")
        tail = FILE_NAMES[square_file(self.tail)] + RANK_NAMES[square_rank(self.tail)]
        if self.tail == self.head:
            return f"{letter}{tail}"
        return f"{letter}{tail}{FILE_NAMES[square_file(self.head)]}{RANK_NAMES[square_rank(self.head)]}"

    @classmethod
    def from_pgn(cls, pgn: str) -> Arrow:
        """The arrow of a record annotation item (``Gc1c3``, ``Rd4``; without a colour letter,
        green). Raises ``ValueError`` for anything else and ``TypeError`` for a non-str."""
        if not isinstance(pgn, str):
            raise TypeError(f"an arrow annotation is a str, got {type(pgn).__name__}")
        match = _ARROW_ITEM.fullmatch(pgn)
        if match is None:
            raise ValueError(
                f"not an arrow annotation: {pgn!r} (expected a colour letter G, R, Y or B and one or "
                "two squares a1-g7, e.g. Gc1c3 or Rd4)"
            )
        letter, tail, head = match.groups()
        tail_sq = parse_square(tail)
        return cls(tail_sq, parse_square(head) if head else tail_sq, _PGN_COLORS[letter or "G"])


_ARROW_ITEM: Final = re.compile(r"([GRYB])?([a-g][1-7])([a-g][1-7])?")

ArrowLike = Union[Arrow, Move, "tuple[Square, Square]"]
"""What :func:`board` accepts in ``arrows``: an :class:`Arrow`, a ``(tail, head)`` pair of squares, or
a :class:`~congo.Move` (drawn along its whole path, every leg of a monkey chain)."""

# -- piece glyphs (45 × 45 units, centre 22.5, 22.5) --------------------------------------------

_DISC_RADIUS: Final = 19.5

_EMBLEMS: Final[dict[int, str]] = {
    # lion: a crown with three points and a band
    8: (
        '<path d="M11.5 30.5 L10 15.5 L16.5 22 L22.5 11 L28.5 22 L35 15.5 L33.5 30.5 Z" fill="{e}"/>'
        '<rect x="11.5" y="31.5" width="22" height="3.5" rx="1" fill="{e}"/>'
        '<circle cx="22.5" cy="11" r="2.2" fill="{e}"/>'
        '<circle cx="10" cy="15.5" r="2" fill="{e}"/><circle cx="35" cy="15.5" r="2" fill="{e}"/>'
    ),
    # zebra: three diagonal stripes across the disc
    5: (
        '<g clip-path="url(#congo-disc-clip)" fill="{e}">'
        '<path d="M4 22 L22 4 L28 4 L4 28 Z"/>'
        '<path d="M8 36 L36 8 L41 13 L13 41 Z"/>'
        '<path d="M21 45 L45 21 L45 27 L27 45 Z"/>'
        "</g>"
    ),
    # elephant: ears, head and a curled trunk
    6: (
        '<ellipse cx="12.5" cy="19.5" rx="6.5" ry="8.5" fill="{e}"/>'
        '<ellipse cx="32.5" cy="19.5" rx="6.5" ry="8.5" fill="{e}"/>'
        '<circle cx="22.5" cy="18.5" r="7.5" fill="{e}"/>'
        '<path d="M19.5 22 L19.5 31 Q19.5 36 24.5 36 L27.5 36 L27.5 32.5 L24.5 32.5 Q23.5 32.5 23.5 31'
        ' L25.5 22 Z" fill="{e}"/>'
    ),
    # giraffe: long neck and head with ossicones, spots on the neck
    4: (
        '<path d="M15 37 L20.5 14 L26 14 L21.5 37 Z" fill="{e}"/>'
        '<path d="M19 10 Q24 6.5 33 11.5 L33.5 15.5 Q27 16.5 20 16 Z" fill="{e}"/>'
        '<path d="M21 10 L20.5 5.5 M24 9 L24.5 5" stroke="{e}" stroke-width="1.8" stroke-linecap="round"/>'
        '<circle cx="20" cy="24" r="1.5" fill="{d}"/><circle cx="21.5" cy="30" r="1.5" fill="{d}"/>'
        '<circle cx="22" cy="18.5" r="1.3" fill="{d}"/>'
    ),
    # crocodile: open jaws pointing right, with teeth and an eye
    7: (
        '<path d="M7 12 Q9 10 12 11 L38 18.5 L38 21 L7 21 Z" fill="{e}"/>'
        '<path d="M7 24.5 L38 24.5 L38 27 L12 34 Q9 35 7 33 Z" fill="{e}"/>'
        '<path d="M15 21 L17 24.5 L19 21 Z M22 21 L24 24.5 L26 21 Z M29 21 L31 24.5 L33 21 Z" fill="{e}"/>'
        '<path d="M18.5 24.5 L20.5 21.5 L22.5 24.5 Z M25.5 24.5 L27.5 21.5 L29.5 24.5 Z" fill="{e}"/>'
        '<circle cx="12" cy="15.5" r="1.8" fill="{d}"/>'
    ),
    # monkey: face with round ears, a lighter muzzle and eyes
    3: (
        '<circle cx="11" cy="21" r="5" fill="{e}"/><circle cx="34" cy="21" r="5" fill="{e}"/>'
        '<circle cx="22.5" cy="22" r="10" fill="{e}"/>'
        '<ellipse cx="22.5" cy="26" rx="6" ry="4.5" fill="{d}"/>'
        '<ellipse cx="19" cy="19" rx="2.5" ry="3" fill="{d}"/>'
        '<ellipse cx="26" cy="19" rx="2.5" ry="3" fill="{d}"/>'
        '<circle cx="19.3" cy="19.5" r="1.2" fill="{e}"/><circle cx="25.7" cy="19.5" r="1.2" fill="{e}"/>'
    ),
    # pawn: a chess pawn
    1: (
        '<circle cx="22.5" cy="14" r="5.5" fill="{e}"/>'
        '<path d="M19 18.5 L26 18.5 L29.5 31 L15.5 31 Z" fill="{e}"/>'
        '<rect x="12.5" y="31" width="20" height="4" rx="1.5" fill="{e}"/>'
    ),
    # superpawn: a pawn with a star for a head (the double ring is added below)
    2: (
        '<path d="M22.5 6 L24.4 11.2 L29.9 11.4 L25.6 14.8 L27.1 20.1 L22.5 17 L17.9 20.1 L19.4 14.8'
        ' L15.1 11.4 L20.6 11.2 Z" fill="{e}"/>'
        '<path d="M19.5 19 L25.5 19 L29.5 31 L15.5 31 Z" fill="{e}"/>'
        '<rect x="12.5" y="31" width="20" height="4" rx="1.5" fill="{e}"/>'
    ),
}


def _glyph_id(piece: Piece) -> str:
    return f"congo-{'white' if piece.color else 'black'}-{PIECE_NAMES[piece.piece_type]}"


def _glyph(piece: Piece, colors: Mapping[str, str]) -> str:
    """The ``<g>`` that draws one piece in a 45 × 45 box."""
    side = "white" if piece.color else "black"
    disc, emblem, outline = colors[f"{side} piece"], colors[f"{side} emblem"], colors["piece outline"]
    parts = [
        f'<g id="{_glyph_id(piece)}" class="piece {side} {PIECE_NAMES[piece.piece_type]}">',
        f'<circle cx="22.5" cy="22.5" r="{_DISC_RADIUS}" fill="{disc}"'
        f' stroke="{outline}" stroke-width="1.5"/>',
    ]
    if piece.piece_type == 2:
        parts.append(
            f'<circle cx="22.5" cy="22.5" r="16.5" fill="none" stroke="{emblem}" stroke-width="1.2"/>'
        )
    parts.append(_EMBLEMS[piece.piece_type].format(e=emblem, d=disc))
    parts.append("</g>")
    return "".join(parts)


def _clip_def() -> str:
    return (
        f'<clipPath id="congo-disc-clip"><circle cx="22.5" cy="22.5" r="{_DISC_RADIUS - 0.75}"/></clipPath>'
    )


# -- helpers --------------------------------------------------------------------------------------


def _colors(overrides: Mapping[str, str] | None) -> dict[str, str]:
    merged = dict(DEFAULT_COLORS)
    if overrides is None:
        return {key: html.escape(value, quote=True) for key, value in merged.items()}
    if not isinstance(overrides, Mapping):
        raise TypeError(f"colors must be a mapping of names to SVG colours, got {type(overrides).__name__}")
    for key, value in overrides.items():
        if key not in DEFAULT_COLORS:
            raise ValueError(f"unknown colour name {key!r} (one of: {', '.join(DEFAULT_COLORS)})")
        if not isinstance(value, str):
            raise TypeError(f"colour {key!r} must be a str, got {type(value).__name__}")
        merged[key] = value
    return {key: html.escape(value, quote=True) for key, value in merged.items()}


def _size(size: int | None) -> int | None:
    if size is None:
        return None
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"size must be an int (pixels) or None, got {type(size).__name__}")
    if size <= 0:
        raise ValueError(f"size must be positive, got {size}")
    return size


def _orientation(orientation: Color) -> Color:
    if not isinstance(orientation, bool):
        raise TypeError(f"orientation must be WHITE (True) or BLACK (False), got {orientation!r}")
    return orientation


def _fmt(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


class _Geometry:
    def __init__(self, orientation: Color, margin: int) -> None:
        self.orientation = orientation
        self.margin = margin

    def corner(self, sq: Square) -> tuple[float, float]:
        file, rank = square_file(sq), square_rank(sq)
        column, row = (file, 6 - rank) if self.orientation else (6 - file, rank)
        return self.margin + column * SQUARE_SIZE, self.margin + row * SQUARE_SIZE

    def center(self, sq: Square) -> tuple[float, float]:
        x, y = self.corner(sq)
        return x + SQUARE_SIZE / 2, y + SQUARE_SIZE / 2


def _arrow(points: list[tuple[float, float]], color: str, *, css_class: str) -> str:
    """A polyline through ``points`` with a head on its last leg."""
    (x1, y1), (x2, y2) = points[-2], points[-1]
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head_length, head_width, shaft = 15.0, 17.0, 6.5
    tip = (x2 - ux * 4, y2 - uy * 4)
    base = (tip[0] - ux * head_length, tip[1] - uy * head_length)
    shaft_points = [*points[:-1], base]
    line = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in shaft_points)
    left = (base[0] + uy * head_width / 2, base[1] - ux * head_width / 2)
    right = (base[0] - uy * head_width / 2, base[1] + ux * head_width / 2)
    head = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in (tip, left, right))
    return (
        f'<g class="{css_class}" opacity="0.8">'
        f'<polyline points="{line}" fill="none" stroke="{color}" stroke-width="{shaft}"'
        ' stroke-linecap="round" stroke-linejoin="round"/>'
        f'<polygon points="{head}" fill="{color}"/>'
        "</g>"
    )


def _path_of(item: ArrowLike) -> tuple[list[Square], str | None]:
    if isinstance(item, Arrow):
        return [item.tail, item.head], item.color
    if isinstance(item, Move):
        if not item:
            raise ValueError("the null move has no squares to draw an arrow along")
        return list(item.path), None
    if isinstance(item, tuple) and len(item) == 2:
        return [_check_square(item[0]), _check_square(item[1])], None
    raise TypeError(f"an arrow is an Arrow, a Move or a (tail, head) pair of squares, got {item!r}")


def _position(board: Board | Position | None) -> Position | None:
    if board is None:
        return None
    if not isinstance(board, (Board, Position)):
        raise TypeError(f"expected a congo.Board, a congo.Position or None, got {type(board).__name__}")
    return to_position(board)


# -- public functions -----------------------------------------------------------------------------


def piece(piece: Piece, size: int | None = None) -> SvgWrapper:
    """One piece glyph as SVG, ``size`` pixels wide (default 45).

    Raises ``TypeError`` for a non-:class:`~congo.Piece` and ``ValueError`` for a size that is not
    positive."""
    if not isinstance(piece, Piece):
        raise TypeError(f"expected a congo.Piece, got {type(piece).__name__}")
    pixels = _size(size) or SQUARE_SIZE
    colors = _colors(None)
    return SvgWrapper(
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        f' viewBox="0 0 {SQUARE_SIZE} {SQUARE_SIZE}" width="{pixels}" height="{pixels}">'
        f"<defs>{_clip_def()}</defs>{_glyph(piece, colors)}</svg>"
    )


def board(
    board: Board | Position | None = None,
    *,
    size: int | None = None,
    lastmove: Move | None = None,
    arrows: Iterable[ArrowLike] = (),
    orientation: Color = WHITE,
    flipped: bool = False,
    coordinates: bool = True,
    squares: IntoSquareSet | None = None,
    fill: Mapping[Square, str] | None = None,
    colors: Mapping[str, str] | None = None,
) -> SvgWrapper:
    """Renders a board as a self-contained SVG image.

    :param board: a :class:`~congo.Board`, a :class:`~congo.Position`, or ``None`` for an empty board.
    :param size: width and height in pixels; by default the natural size (355 px with coordinates,
        315 px without). The image scales without loss either way (it has a ``viewBox``).
    :param lastmove: a move to highlight: its from-square and every landing square are tinted, and
        a multi-leg monkey chain is also drawn as a line along every leg.
    :param arrows: :class:`Arrow` objects, ``(tail, head)`` pairs of squares, or moves (a monkey
        chain is drawn along its whole path).
    :param orientation: ``WHITE`` draws rank 1 at the bottom, ``BLACK`` rank 7.
    :param flipped: turns the board around from ``orientation`` (python-chess's older keyword:
        ``flipped=True`` with the default orientation draws rank 7 at the bottom).
    :param coordinates: whether to draw file letters and rank numbers in a margin.
    :param squares: squares to mark with a cross (anything :class:`~congo.SquareSet` accepts).
    :param fill: ``{square: colour}`` backgrounds for single squares, drawn over the board colours.
    :param colors: overrides for :data:`DEFAULT_COLORS`.

    Raises ``TypeError`` for an argument of the wrong type and ``ValueError`` for a square off the
    board, a size that is not positive or an unknown colour name. The board is not changed.
    """
    position = _position(board)
    pixels = _size(size)
    if not isinstance(flipped, bool):
        raise TypeError(f"flipped must be a bool, got {flipped!r}")
    flip = _orientation(orientation) ^ flipped
    palette = _colors(colors)
    if lastmove is not None and not isinstance(lastmove, Move):
        raise TypeError(f"lastmove must be a congo.Move or None, got {type(lastmove).__name__}")
    arrow_paths = [_path_of(item) for item in arrows]
    marked = SquareSet(squares) if squares is not None else SquareSet()
    fills: dict[Square, str] = {}
    if fill is not None:
        if not isinstance(fill, Mapping):
            raise TypeError(f"fill must be a mapping of squares to colours, got {type(fill).__name__}")
        for sq, color in fill.items():
            if not isinstance(color, str):
                raise TypeError(f"fill colour for square {sq!r} must be a str, got {type(color).__name__}")
            fills[_check_square(sq)] = html.escape(color, quote=True)

    margin = MARGIN if coordinates else 0
    full = 7 * SQUARE_SIZE + 2 * margin
    geometry = _Geometry(flip, margin)
    out: list[str] = [
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        f' viewBox="0 0 {full} {full}" width="{pixels or full}" height="{pixels or full}"'
        ' class="congo-board" role="img">',
        "<title>Congo board</title>" if position is None else f"<title>{html.escape(position.fen())}</title>",
    ]

    pieces = {} if position is None else position.piece_map()
    used = sorted({p for p in pieces.values()}, key=lambda p: (not p.color, p.piece_type))
    out.append("<defs>")
    out.append(_clip_def())
    out.extend(_glyph(p, palette) for p in used)
    out.append("</defs>")

    if margin:
        out.append(f'<rect x="0" y="0" width="{full}" height="{full}" fill="{palette["margin"]}"/>')

    # Squares: land, castles, river.
    castles = BB_CASTLES[0] | BB_CASTLES[1]
    for sq in range(49):
        x, y = geometry.corner(sq)
        light = (square_file(sq) + square_rank(sq)) % 2 == 1
        shade = "light" if light else "dark"
        if BB_RIVER >> sq & 1:
            kind = f"river {shade}"
        elif castles >> sq & 1:
            kind = f"castle {shade}"
        else:
            kind = f"square {shade}"
        color = fills.get(sq, palette[kind])
        name = FILE_NAMES[square_file(sq)] + RANK_NAMES[square_rank(sq)]
        out.append(
            f'<rect x="{x}" y="{y}" width="{SQUARE_SIZE}" height="{SQUARE_SIZE}"'
            f' class="square {kind} {name}" fill="{color}"/>'
        )

    # Waves on the river.
    river_y = geometry.corner(21)[1]
    left = margin
    waves = []
    for offset in (13.0, 29.0):
        y0 = river_y + offset
        d = [f"M{_fmt(left + 4)} {_fmt(y0)}"]
        steps = 7 * 4
        for i in range(steps):
            x_end = left + 4 + (i + 1) * (7 * SQUARE_SIZE - 8) / steps
            x_ctrl = x_end - (7 * SQUARE_SIZE - 8) / steps / 2
            d.append(f"Q{_fmt(x_ctrl)} {_fmt(y0 + (-3.5 if i % 2 == 0 else 3.5))} {_fmt(x_end)} {_fmt(y0)}")
        waves.append(
            f'<path d="{" ".join(d)}" fill="none" stroke="{palette["river wave"]}" stroke-width="1.6"'
            ' stroke-linecap="round" opacity="0.85"/>'
        )
    out.append(f'<g class="river">{"".join(waves)}</g>')

    # Castle outlines.
    for side in (WHITE, BLACK):
        corners = [geometry.corner(sq) for sq in SquareSet(BB_CASTLES[side])]
        x0 = min(x for x, _ in corners)
        y0 = min(y for _, y in corners)
        inner = 3 * SQUARE_SIZE - 3
        out.append(
            f'<rect x="{x0 + 1.5}" y="{y0 + 1.5}" width="{inner}" height="{inner}"'
            f' fill="none" stroke="{palette["castle outline"]}" stroke-width="3"'
            f' class="castle {"white" if side else "black"}"/>'
        )

    # The last move: tinted squares.
    if lastmove is not None:
        for sq in dict.fromkeys(lastmove.path):
            x, y = geometry.corner(sq)
            out.append(
                f'<rect x="{x}" y="{y}" width="{SQUARE_SIZE}" height="{SQUARE_SIZE}"'
                f' class="lastmove" fill="{palette["lastmove"]}" opacity="0.5"/>'
            )

    # Coordinates.
    if coordinates:
        for i in range(7):
            file_name = FILE_NAMES[i if flip else 6 - i]
            rank_name = RANK_NAMES[6 - i if flip else i]
            x = margin + i * SQUARE_SIZE + SQUARE_SIZE / 2
            y = margin + i * SQUARE_SIZE + SQUARE_SIZE / 2
            for text, tx, ty in (
                (file_name, x, margin / 2),
                (file_name, x, full - margin / 2),
                (rank_name, margin / 2, y),
                (rank_name, full - margin / 2, y),
            ):
                out.append(
                    f'<text x="{_fmt(tx)}" y="{_fmt(ty)}" class="coord" fill="{palette["coord"]}"'
                    ' font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12"'
                    f' font-weight="bold" text-anchor="middle" dominant-baseline="central">{text}</text>'
                )

    # Pieces.
    for sq, p in sorted(pieces.items()):
        x, y = geometry.corner(sq)
        out.append(f'<use xlink:href="#{_glyph_id(p)}" href="#{_glyph_id(p)}" x="{x}" y="{y}"/>')

    # Marked squares.
    for sq in marked:
        cx, cy = geometry.center(sq)
        r = 11
        out.append(
            f'<path d="M{_fmt(cx - r)} {_fmt(cy - r)} L{_fmt(cx + r)} {_fmt(cy + r)}'
            f' M{_fmt(cx + r)} {_fmt(cy - r)} L{_fmt(cx - r)} {_fmt(cy + r)}"'
            f' stroke="{palette["square mark"]}" stroke-width="4" stroke-linecap="round" class="mark"/>'
        )

    # The last move's chain, along every leg, with a dot on each landing square.
    if lastmove is not None and len(lastmove.path) > 2:
        points = [geometry.center(sq) for sq in lastmove.path]
        out.append(_arrow(points, palette["chain"], css_class="chain"))
        for cx, cy in points[1:-1]:
            out.append(
                f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="5" fill="{palette["chain"]}"'
                ' class="chain-landing"/>'
            )

    # Arrows.
    for path, arrow_color in arrow_paths:
        if arrow_color is None:
            color = palette["arrow"]
        elif f"arrow {arrow_color}" in palette:
            color = palette[f"arrow {arrow_color}"]
        else:
            color = html.escape(arrow_color, quote=True)
        points = [geometry.center(sq) for sq in path]
        if path[0] == path[-1] and len(path) == 2:
            cx, cy = points[0]
            out.append(
                f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{SQUARE_SIZE / 2 - 3}" fill="none"'
                f' stroke="{color}" stroke-width="4" opacity="0.8" class="arrow"/>'
            )
        else:
            out.append(_arrow(points, color, css_class="arrow"))

    out.append("</svg>")
    return SvgWrapper("".join(out))
