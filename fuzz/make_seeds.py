"""Writes the seed inputs of the fuzz targets (fuzz/seeds/<target>/) from the project's test positions.

    python fuzz/make_seeds.py

The seeds are committed; rerun this after adding positions to tests/data/*.perft or
tests/data/worst.suite. Byte-built positions follow ``congo_fuzz::position_from_bytes``
(fuzz/src/lib.rs): two lion bytes, a side-to-move byte, then one byte per square a1..g7.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
from pathlib import Path

import congo

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "fuzz" / "seeds"
sys.path.insert(0, str(ROOT))

from tests.oracle import load_perft_file  # noqa: E402  (the loader lives in the test tree)

# congo_fuzz::PLACEABLE, in order; a piece byte is 128 + 2 * index + (1 for black).
PLACEABLE = [
    congo.PAWN,
    congo.SUPERPAWN,
    congo.MONKEY,
    congo.GIRAFFE,
    congo.ZEBRA,
    congo.ELEPHANT,
    congo.CROCODILE,
]

# Positions with more moves are left out of the byte-built seeds (congo_fuzz::MANY_MOVES).
MANY_MOVES = 1000

MOVE_TEXTS = [
    "e3e4", "b1d3f5d7", "d2-e3", "d2xe3", "a2-c4-c6x", "b1d3,d3f5", "d1d6", "Mxd3xf5", "Zf3", "cc3",
    "dxe4", "Lxd7#", "exd6=S", "b1", "z9z9", "b1d3f5d7b5d3f1d3f5d7", "  e2e3  ", "E1C3", "b1b1",
    "b1d3,d4f5", "Pe4", "Mb1xd3", "Ex", "-", "",
]  # fmt: skip

MALFORMED_FENS = [
    "", "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ", "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ x 1",
    "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w -1", "8/7/7/7/7/7/7 w 1", "3l3/7/7/7/7/7/3L3 w 99999999999",
    "3l3/7/7/7/7/7/3L3 W 0", "l6/7/7/7/7/7/3L3 w 1", "3l3/7/7/7/7/7/3LL2 w 1", "3l3/7/7/7/7/7/7 b 1",
    "3lP2/7/7/7/7/7/3L3 w 1", "mmmmmmm/mmmmmmm/mmmlmmm/7/7/7/3L3 w 1",
]  # fmt: skip


def position_bytes(board: congo.Board) -> bytes:
    """The bytes ``position_from_bytes`` turns back into this board (both lions on the board)."""
    white_lion, black_lion = board.lion(congo.WHITE), board.lion(congo.BLACK)
    assert white_lion is not None
    assert black_lion is not None
    out = bytearray(
        [
            congo.square_file(white_lion) - 2 + 3 * congo.square_rank(white_lion),
            congo.square_file(black_lion) - 2 + 3 * (6 - congo.square_rank(black_lion)),
            0 if board.turn == congo.WHITE else 1,
        ]
    )
    for sq in congo.SQUARES:
        piece = board.piece_at(sq)
        if piece is None or piece.piece_type == congo.LION:
            out.append(0)
        else:
            out.append(128 + 2 * PLACEABLE.index(piece.piece_type) + (0 if piece.color == congo.WHITE else 1))
    return bytes(out)


def write(target: str, data: bytes) -> None:
    directory = SEEDS / target
    directory.mkdir(parents=True, exist_ok=True)
    (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)


def main() -> None:
    shutil.rmtree(SEEDS, ignore_errors=True)
    suites = [*sorted((ROOT / "tests" / "data").glob("*.perft")), ROOT / "tests" / "data" / "worst.suite"]
    fens = [case.fen for path in suites if path.exists() for case in load_perft_file(path)]
    for fen in fens + MALFORMED_FENS:
        write("fen", fen.encode())
    for text in MOVE_TEXTS:
        write("move_text", text.encode())
    for fen in fens:
        board = congo.Board(fen)
        # Byte-built positions need both lions; the huge worst positions would slow these targets'
        # every run (the FEN target keeps them).
        if board.lion(congo.WHITE) is None or board.lion(congo.BLACK) is None:
            continue
        if board.legal_moves.count() > MANY_MOVES:
            continue
        encoded = position_bytes(board)
        moves = list(board.legal_moves)
        write("play", encoded + bytes([7, 0, 3, 0, 11, 0, 5, 0]))
        for move in moves[:: max(1, len(moves) // 3)][:3]:
            write("san", encoded + board.san(move).encode())
    for data in book_seeds():
        write("book", data)
    print(f"seeds: {sum(1 for _ in SEEDS.rglob('*') if _.is_file())} files in {SEEDS.relative_to(ROOT)}")


def book_seeds() -> list[bytes]:
    """Opening books: the bundled one cut to its first entries, one with a monkey chain, an empty
    one, and damaged copies (each must be refused, not crash)."""
    from congo import _core, book

    entries = book.read_entries(book.default_book())[:40]
    chain_board = congo.Board("7/3l3/1p5/7/2p4/3M3/3L3 w 1")
    chain = [book.Entry(chain_board.zobrist_hash(), m, 3) for m in chain_board.legal_moves]
    books = [_core.book_encode(entries), _core.book_encode(chain), _core.book_encode([])]
    good = books[0]
    return [*books, good[:-7], good[:31], good[:40] + bytes([good[40] ^ 4]) + good[41:], b"CONGOBK\0"]


if __name__ == "__main__":
    main()
