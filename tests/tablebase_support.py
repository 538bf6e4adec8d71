"""Random positions for the endgame-table tests and benchmarks."""

from __future__ import annotations

import random

import congo

CASTLES = {True: [c + r for r in "123" for c in "cde"], False: [c + r for r in "567" for c in "cde"]}
PIECE_LETTERS = "PSMGZEC"


def random_fen(rng: random.Random, material: str) -> str:
    """A random valid position (lions in their castles, no pawn on its far rank) of a signature such
    as ``"LZvLP"`` (White's lion and zebra against Black's lion and pawn), either side to move."""
    white, black = material.split("v")
    while True:
        squares = {
            congo.parse_square(rng.choice(CASTLES[True])): "L",
            congo.parse_square(rng.choice(CASTLES[False])): "l",
        }
        for letter in white[1:] + black[1:].lower():
            squares[rng.choice([sq for sq in congo.SQUARES if sq not in squares])] = letter
        ranks = []
        for rank in range(6, -1, -1):
            row = "".join(squares.get(rank * 7 + file, ".") for file in range(7))
            for n in range(7, 0, -1):
                row = row.replace("." * n, str(n))
            ranks.append(row)
        fen = "/".join(ranks) + (" w 1" if rng.random() < 0.5 else " b 1")
        try:
            congo.Position(fen)
        except congo.InvalidPositionError:  # a pawn on its far rank
            continue
        return fen


def random_material(rng: random.Random, pieces: int) -> str:
    """A random signature with ``pieces`` pieces besides the lions, each of either colour."""
    white = black = ""
    for _ in range(pieces):
        if rng.random() < 0.5:
            white += rng.choice(PIECE_LETTERS)
        else:
            black += rng.choice(PIECE_LETTERS)
    return f"L{white}vL{black}"
