"""congo: the rules of the chess variant Congo in a Rust core, with a python-chess-style API.

>>> import congo
>>> board = congo.Board()
>>> len(board.legal_moves)
24
>>> board.push_uci("c1c3")
Move.from_uci('c1c3')
>>> congo.perft(board, 2)
576
"""

from __future__ import annotations

from congo._core import (
    STARTING_BOARD_FEN,
    STARTING_FEN,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Position,
    __version__,
)
from congo.board import Board, LegalMoveGenerator, Outcome, Termination
from congo.perft import divide, perft
from congo.pieces import (
    BLACK,
    COLOR_NAMES,
    COLORS,
    CROCODILE,
    ELEPHANT,
    GIRAFFE,
    LION,
    MONKEY,
    PAWN,
    PIECE_NAMES,
    PIECE_SYMBOLS,
    PIECE_TYPES,
    SUPERPAWN,
    UNICODE_PIECE_SYMBOLS,
    WHITE,
    ZEBRA,
    Color,
    Piece,
    PieceType,
    piece_name,
    piece_symbol,
)
from congo.squares import (
    A1, A2, A3, A4, A5, A6, A7,
    B1, B2, B3, B4, B5, B6, B7,
    BB_ALL,
    BB_CASTLES,
    BB_EMPTY,
    BB_FILES,
    BB_RANKS,
    BB_RIVER,
    BB_SQUARES,
    C1, C2, C3, C4, C5, C6, C7,
    CASTLES,
    D1, D2, D3, D4, D5, D6, D7,
    E1, E2, E3, E4, E5, E6, E7,
    F1, F2, F3, F4, F5, F6, F7,
    FILE_NAMES,
    G1, G2, G3, G4, G5, G6, G7,
    RANK_NAMES,
    RIVER,
    SQUARE_NAMES,
    SQUARES,
    Square,
    SquareSet,
    parse_square,
    square,
    square_distance,
    square_file,
    square_mirror,
    square_name,
    square_rank,
)  # fmt: skip

__all__ = [
    "A1", "A2", "A3", "A4", "A5", "A6", "A7",
    "B1", "B2", "B3", "B4", "B5", "B6", "B7",
    "BB_ALL", "BB_CASTLES", "BB_EMPTY", "BB_FILES", "BB_RANKS", "BB_RIVER", "BB_SQUARES",
    "BLACK",
    "C1", "C2", "C3", "C4", "C5", "C6", "C7",
    "CASTLES", "COLORS", "COLOR_NAMES", "CROCODILE",
    "D1", "D2", "D3", "D4", "D5", "D6", "D7",
    "E1", "E2", "E3", "E4", "E5", "E6", "E7",
    "ELEPHANT",
    "F1", "F2", "F3", "F4", "F5", "F6", "F7",
    "FILE_NAMES",
    "G1", "G2", "G3", "G4", "G5", "G6", "G7",
    "GIRAFFE", "LION", "MONKEY", "PAWN", "PIECE_NAMES", "PIECE_SYMBOLS", "PIECE_TYPES",
    "RANK_NAMES", "RIVER", "SQUARES", "SQUARE_NAMES", "STARTING_BOARD_FEN", "STARTING_FEN",
    "SUPERPAWN", "UNICODE_PIECE_SYMBOLS", "WHITE", "ZEBRA",
    "Board", "Color", "IllegalMoveError", "InvalidFenError", "InvalidMoveError",
    "InvalidPositionError", "LegalMoveGenerator", "Move", "Outcome", "Piece", "PieceType",
    "Position", "Square", "SquareSet", "Termination",
    "__version__", "divide", "parse_square", "perft", "piece_name", "piece_symbol", "square",
    "square_distance", "square_file", "square_mirror", "square_name", "square_rank",
]  # fmt: skip
