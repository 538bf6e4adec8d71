"""Pictures of a :class:`congo.learning.GameState` for the environments: text (``ansi``) and an RGB
raster drawn with numpy alone (``rgb_array``; no fonts, no SVG renderer needed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from congo.learning import GameState
from congo.squares import SQUARE_NAMES

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

SQUARE_PIXELS = 48
"""Side of one square in the raster."""

_LIGHT = (240, 217, 181)
_DARK = (181, 136, 99)
_RIVER = (112, 163, 214)
_CASTLE_TINT = (-28, -6, 22)
_HIGHLIGHT = (236, 200, 40)
_LETTERS = "PSMGZECL"
"""Piece letters in plane order (pawn … lion)."""

# 5×7 glyphs of the piece letters, one string of five columns per row.
_GLYPHS = {
    "L": ["10000", "10000", "10000", "10000", "10000", "10000", "11111"],
    "Z": ["11111", "00001", "00010", "00100", "01000", "10000", "11111"],
    "E": ["11111", "10000", "10000", "11110", "10000", "10000", "11111"],
    "G": ["01110", "10001", "10000", "10111", "10001", "10001", "01111"],
    "C": ["01110", "10001", "10000", "10000", "10000", "10001", "01110"],
    "M": ["10001", "11011", "10101", "10101", "10001", "10001", "10001"],
    "P": ["11110", "10001", "10001", "11110", "10000", "10000", "10000"],
    "S": ["01111", "10000", "10000", "01110", "00001", "00001", "11110"],
}


def ansi(game: GameState) -> str:
    """The board as it stands (mid-chain too) as text, rank 7 on top, upper case White, ``~`` the
    river and ``+`` the castles; then the side to act and any chain under way."""
    planes = game.observation()
    rows = []
    for rank in range(6, -1, -1):
        cells = []
        for file in range(7):
            sq = rank * 7 + file
            cell = "~" if rank == 3 else ("+" if planes[18 * 49 + sq] else ".")
            for plane in range(16):
                if planes[plane * 49 + sq]:
                    letter = _LETTERS[plane % 8]
                    cell = letter if plane < 8 else letter.lower()
            cells.append(cell)
        rows.append(f"{rank + 1} " + " ".join(cells))
    lines = [*rows, "  a b c d e f g"]
    chain = game.chain
    who = "White" if game.turn else "Black"
    if game.is_over():
        winner = {True: "White wins", False: "Black wins", None: "draw"}[game.winner]
        lines.append(f"game over: {game.end} ({winner})")
    elif chain is not None:
        lines.append(f"{who}'s monkey chain: {'-'.join(SQUARE_NAMES[s] for s in chain)} (jump or stop)")
    else:
        lines.append(f"{who} to move")
    return "\n".join(lines) + "\n"


def rgb_array(game: GameState) -> npt.NDArray[np.uint8]:
    """The board as an RGB image of shape ``(336, 336, 3)``: rank 7 on top, the river blue, the
    castles tinted, White pieces light discs and Black pieces dark discs with their letter, the
    chain's monkey outlined in yellow. Shown as it stands mid-chain."""
    import numpy as np

    from congo.learning import NUM_PLANES

    px = SQUARE_PIXELS
    planes = np.frombuffer(game.observation(), dtype=np.uint8).reshape(NUM_PLANES, 7, 7)
    image = np.empty((7 * px, 7 * px, 3), dtype=np.int16)
    for rank in range(7):
        for file in range(7):
            color = _RIVER if rank == 3 else (_LIGHT if (rank + file) % 2 else _DARK)
            block = np.array(color, dtype=np.int16)
            if planes[18, rank, file]:
                block = block + np.array(_CASTLE_TINT, dtype=np.int16)
            image[(6 - rank) * px : (7 - rank) * px, file * px : (file + 1) * px] = block
    yy, xx = np.mgrid[0:px, 0:px]
    distance = np.hypot(yy - (px - 1) / 2, xx - (px - 1) / 2)
    disc = distance <= px * 0.40
    rim = disc & (distance > px * 0.40 - 2)
    ring = (distance <= px * 0.48) & (distance > px * 0.44)
    for side in range(2):
        fill, ink = ((246, 246, 240), (20, 20, 20)) if side == 0 else ((34, 34, 34), (240, 240, 240))
        for role in range(8):
            glyph = np.kron(
                np.array([[c == "1" for c in row] for row in _GLYPHS[_LETTERS[role]]]), np.ones((3, 3))
            )
            for rank, file in zip(*np.nonzero(planes[side * 8 + role])):
                cell = image[(6 - rank) * px : (7 - rank) * px, file * px : (file + 1) * px]
                cell[disc] = fill
                cell[rim] = ink
                top, left = (px - glyph.shape[0]) // 2, (px - glyph.shape[1]) // 2
                cell[top : top + glyph.shape[0], left : left + glyph.shape[1]][glyph > 0] = ink
    for rank, file in zip(*np.nonzero(planes[21])):
        image[(6 - rank) * px : (7 - rank) * px, file * px : (file + 1) * px][ring] = _HIGHLIGHT
    return np.clip(image, 0, 255).astype(np.uint8)
