"""Untrusted input (issue 13): positions bounded by the rules, documented errors for every bad value,
safe pickles, and long calls that answer Ctrl-C.

Every test here failed before the fix it guards.
"""

from __future__ import annotations

import io
import pickle

import pytest

import congo
import congo.pgn
from congo import Board, InvalidPositionError, Piece, Position

#: The FEN of issue 13: about 6.3e9 monkey chains, 30 Black pieces.
MONKEY_BOMB = "3l3/eeeeeee/1e1e1e1/eeeeeee/1e1e1e1/eeeeeee/Me1L1e1 w 1"
#: Fourteen pieces of each colour: the most RULES §9 allows (decision A21).
FULL = congo.STARTING_FEN
#: One Black pawn too many.
FIFTEEN_BLACK = "gmelecz/ppppppp/p6/7/7/PPPPPPP/GMELECZ w 1"


# =============================================================================== the piece limit


def test_a_fen_with_more_than_fourteen_pieces_of_a_colour_is_rejected() -> None:
    with pytest.raises(InvalidPositionError, match=r"black has 30 pieces \(at most 14 of each colour"):
        Board(MONKEY_BOMB)
    with pytest.raises(InvalidPositionError, match="black has 15 pieces"):
        Position(FIFTEEN_BLACK)
    with pytest.raises(InvalidPositionError, match="white has 15 pieces"):
        Board("gmelecz/ppppppp/7/7/P6/PPPPPPP/GMELECZ w 1")
    assert Board(FULL).fen() == FULL


def test_the_piece_limit_holds_for_every_way_of_making_a_position() -> None:
    board = Board()
    before = board.fen()
    with pytest.raises(InvalidPositionError, match="white has 15 pieces"):
        board.set_piece_at(congo.D4, Piece.from_symbol("C"))
    with pytest.raises(InvalidPositionError, match="black has 15 pieces"):
        board.set_fen(FIFTEEN_BLACK)
    with pytest.raises(InvalidPositionError, match="black has 15 pieces"):
        board.set_board_fen(FIFTEEN_BLACK.split()[0])
    crowd = {sq: Piece.from_symbol("p") for sq in range(14, 42)}
    crowd[congo.D1] = Piece.from_symbol("L")
    with pytest.raises(InvalidPositionError, match="black has 28 pieces"):
        board.set_piece_map(crowd)
    assert board.fen() == before
    with pytest.raises(InvalidPositionError, match="black has 28 pieces"):
        Position.from_piece_map({sq: (piece.piece_type, piece.color) for sq, piece in crowd.items()})
    # Replacing a piece keeps the count: allowed.
    board.set_piece_at(congo.A2, Piece.from_symbol("C"))
    assert board.piece_at(congo.A2) == Piece.from_symbol("C")


class _Forged:
    """Pickles as a call that makes a position from any FEN: what a tampered pickle can do."""

    def __init__(self, fen: str) -> None:
        self.fen = fen

    def __reduce__(self) -> tuple[type[Position], tuple[str]]:
        return (Position, (self.fen,))


def test_a_pickle_cannot_smuggle_in_an_oversized_position() -> None:
    with pytest.raises(InvalidPositionError, match="black has 30 pieces"):
        pickle.loads(pickle.dumps(_Forged(MONKEY_BOMB)))


def test_a_record_with_an_oversized_fen_tag_is_refused() -> None:
    text = f'[Variant "Congo"]\n[SetUp "1"]\n[FEN "{MONKEY_BOMB}"]\n\n1. Mb3 *\n'
    game = congo.pgn.read_game(io.StringIO(text))
    assert game is not None
    assert any("black has 30 pieces" in str(error) for error in game.errors)
    with pytest.raises(congo.pgn.PgnError, match=r"bad FEN tag .*black has 30 pieces"):
        congo.pgn.read_game(io.StringIO(text), strict=True)
