"""The Board API as a python-chess user expects it: copies, pickling, equality, repr, text, pieces,
the end of the game, and bad input (right exception, clear message, board unchanged)."""

from __future__ import annotations

import copy
import pickle
from typing import Any, Callable

import pytest

import congo
from congo import (
    BLACK,
    WHITE,
    Board,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    Piece,
    Position,
    SquareSet,
    Termination,
)

MONKEY_FEN = "7/4l2/7/4c2/7/2p4/1M1L3 w 1"
SHUFFLE = ["e1e2", "c7c6", "e2e1", "c6c7"]
"""Lions stepping back and forth in `2l4/7/7/7/7/7/4L2 w 1`: the same position every four plies."""


def snapshot(board: Board) -> tuple[str, list[Move]]:
    return board.fen(), board.move_stack


def played(*moves: str, fen: str = congo.STARTING_FEN) -> Board:
    board = Board(fen)
    for move in moves:
        board.push_uci(move)
    return board


# -- construction, equality, repr --------------------------------------------------------------


def test_construction() -> None:
    assert Board().fen() == congo.STARTING_FEN
    assert Board(None).fen() == "3l3/7/7/7/7/7/3L3 w 1"
    assert Board(MONKEY_FEN).fen() == MONKEY_FEN
    assert Board.from_position(Position(MONKEY_FEN)) == Board(MONKEY_FEN)
    with pytest.raises(TypeError):
        Board.from_position(MONKEY_FEN)  # type: ignore[arg-type]


def test_equality_is_by_position_and_boards_are_unhashable() -> None:
    a, b = played("g1f3"), Board("gmelecz/ppppppp/7/7/5Z1/PPPPPPP/GMELEC1 b 1")
    assert a == b  # the move stack does not count, as in python-chess
    assert a != Board()
    assert a != "not a board"
    with pytest.raises(TypeError):
        hash(a)
    assert {a.position: 1}[b.position] == 1


def test_repr_evaluates_back() -> None:
    board = played("g1f3", "c7c5")
    assert repr(board) == "Board('gm1lecz/ppppppp/2e4/7/5Z1/PPPPPPP/GMELEC1 w 2')"
    assert eval(repr(board), {"Board": Board}) == board
    assert eval(repr(board.position), {"Position": Position}) == board.position
    move = Move.from_uci("b1d3f5")
    assert eval(repr(move), {"Move": Move}) == move
    piece = Piece.from_symbol("m")
    assert eval(repr(piece), {"Piece": Piece}) == piece


# -- copies and pickling ---------------------------------------------------------------------------


def test_copy_with_and_without_stack() -> None:
    board = played("g1f3", "c7c5", "c2c3")
    full = board.copy()
    assert full == board
    assert full.move_stack == board.move_stack
    assert full is not board
    full.pop()
    assert len(board.move_stack) == 3  # independent
    assert board.copy(stack=False).move_stack == []
    assert board.copy(stack=0).move_stack == []
    assert [m.uci() for m in board.copy(stack=2).move_stack] == ["c7c5", "c2c3"]
    assert board.copy(stack=2).root() == played("g1f3")
    assert board.copy(stack=10).move_stack == board.move_stack
    assert copy.copy(board).move_stack == board.move_stack
    assert copy.deepcopy(board).move_stack == board.move_stack
    with pytest.raises(TypeError):
        board.copy(stack="all")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="non-negative"):
        board.copy(stack=-1)


def test_pickling_round_trips() -> None:
    board = played("b1d3f5", fen=MONKEY_FEN)
    again = pickle.loads(pickle.dumps(board))
    assert again == board
    assert again.move_stack == board.move_stack
    assert again.root() == board.root()
    again.pop()
    assert again.fen() == MONKEY_FEN
    for value in [
        board.position,
        Move.from_uci("b1d3f5"),
        Piece.from_symbol("S"),
        SquareSet([congo.A1, congo.G7]),
        congo.RIVER,
        Outcome(Termination.LION_CAPTURED, WHITE),
    ]:
        assert pickle.loads(pickle.dumps(value)) == value


def test_position_is_a_frozen_hashable_value() -> None:
    position = Position()
    with pytest.raises(AttributeError):
        position.turn = False  # type: ignore[misc]
    assert Position() == position
    assert hash(Position()) == hash(position)
    seen = {position: "start"}
    assert seen[Board().position] == "start"
    assert copy.copy(position) is position
    assert copy.deepcopy(position) is position
    assert position.push(Move.from_uci("g1f3")) != position  # a new value; the old one is unchanged
    assert position.fen() == congo.STARTING_FEN
    assert Position(MONKEY_FEN) != Position(MONKEY_FEN.replace(" 1", " 2"))  # the move number counts


# -- moves ------------------------------------------------------------------------------------------


def test_legal_moves_view() -> None:
    board = Board()
    moves = board.legal_moves
    assert len(moves) == moves.count() == 24
    assert bool(moves)
    assert Move.from_uci("g1f3") in moves
    assert Move.from_uci("g1g3") not in moves
    assert "g1f3" not in moves
    board.push_san("Zf3")
    assert len(moves) == 24
    assert Move.from_uci("c7c5") in moves
    assert "LegalMoveGenerator" in repr(moves)
    decided = Board("3L3/7/7/7/7/7/7 b 1")
    assert not decided.legal_moves
    assert len(decided.legal_moves) == 0


def test_push_pop_peek() -> None:
    board = Board()
    move = Move.from_uci("g1f3")
    board.push(move)
    assert board.peek() == move
    assert board.ply() == 1
    assert board.turn == BLACK
    assert board.pop() == move
    assert board == Board()
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()


def test_illegal_push_leaves_the_board_unchanged() -> None:
    board = played("g1f3")
    before = snapshot(board)
    for bad in [Move.from_uci("g1f3"), Move.from_uci("c7c4"), Move.from_uci("b2b3")]:
        with pytest.raises(IllegalMoveError, match="illegal move"):
            board.push(bad)
        assert snapshot(board) == before
    for text, error in [("c7c4", IllegalMoveError), ("zz", InvalidMoveError), ("", InvalidMoveError)]:
        with pytest.raises(error):
            board.push_uci(text)
        assert snapshot(board) == before


def test_captures() -> None:
    board = Board(MONKEY_FEN)
    chain = Move.from_uci("b1d3f5")
    assert board.is_capture(chain)
    assert not board.is_capture(Move.from_uci("b1a1"))
    assert board.captured_squares(chain) == SquareSet([congo.C2, congo.E4])
    with pytest.raises(IllegalMoveError):
        board.captured_squares(Move.from_uci("b1b5"))


def test_is_legal() -> None:
    board = Board()
    assert board.is_legal(Move.from_uci("g1f3"))
    assert not board.is_legal(Move.from_uci("g1g2"))


# -- pieces -----------------------------------------------------------------------------------------


def test_piece_queries() -> None:
    board = Board()
    assert board.piece_at(congo.D1) == Piece(congo.LION, WHITE)
    assert board.piece_at(congo.D4) is None
    assert board.piece_type_at(congo.B7) == congo.MONKEY
    assert board.color_at(congo.B7) == BLACK
    assert board.pieces(congo.PAWN, WHITE) == SquareSet(congo.BB_RANKS[1])
    assert board.lion(BLACK) == congo.D7
    assert len(board.piece_map()) == 28
    assert board.occupied == board.occupied_co(WHITE) | board.occupied_co(BLACK)


def test_set_piece_at_keeps_the_position_valid() -> None:
    board = played("g1f3")
    board.set_piece_at(congo.A2, Piece.from_symbol("C"))
    assert board.piece_at(congo.A2) == Piece.from_symbol("C")
    assert board.move_stack == []  # the history no longer leads here
    assert board.remove_piece_at(congo.A2) == Piece.from_symbol("C")
    assert board.remove_piece_at(congo.A2) is None
    before = snapshot(board)
    for square, piece, message in [
        (congo.A1, Piece.from_symbol("L"), "2 lions"),
        (congo.A7, Piece.from_symbol("P"), "far rank"),
    ]:
        with pytest.raises(InvalidPositionError, match=message):
            board.set_piece_at(square, piece)
        assert snapshot(board) == before
    with pytest.raises(InvalidPositionError, match="outside its castle"):
        board.set_piece_map({congo.A1: Piece.from_symbol("L"), congo.D7: Piece.from_symbol("l")})
    assert snapshot(board) == before
    board.set_piece_map({congo.D1: Piece.from_symbol("L")})
    assert board.fen() == "7/7/7/7/7/7/3L3 b 1"
    with pytest.raises(InvalidPositionError, match="neither lion"):
        board.remove_piece_at(congo.D1)


def test_setters_of_turn_and_move_number() -> None:
    board = Board()
    board.turn = BLACK
    board.fullmove_number = 7
    assert board.fen() == "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ b 7"
    assert board.ply() == 13
    with pytest.raises(TypeError, match="a colour is WHITE"):
        board.turn = 2  # type: ignore[assignment]
    with pytest.raises(TypeError):
        board.fullmove_number = "8"  # type: ignore[assignment]
    with pytest.raises(ValueError, match="fullmove_number must be from 0 to 4294967295, got -1"):
        board.fullmove_number = -1
    assert board.fen() == "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ b 7"


def test_fen_methods() -> None:
    board = played("g1f3")
    assert board.board_fen() == "gmelecz/ppppppp/7/7/5Z1/PPPPPPP/GMELEC1"
    board.set_board_fen(congo.STARTING_BOARD_FEN)
    assert board.fen() == "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ b 1"
    assert board.move_stack == []
    board.reset()
    assert board == Board()
    before = snapshot(board)
    with pytest.raises(InvalidFenError):
        board.set_fen("8/8 w 1")
    with pytest.raises(InvalidPositionError):
        board.set_fen("7/7/7/7/7/7/7 w 1")
    assert snapshot(board) == before


def test_mirror() -> None:
    board = played("g1f3")
    mirrored = board.mirror()
    assert mirrored.fen() == "gmelec1/ppppppp/5z1/7/7/PPPPPPP/GMELECZ w 1"
    assert mirrored.move_stack == []
    assert mirrored.mirror() == board
    assert board.fen() == "gmelecz/ppppppp/7/7/5Z1/PPPPPPP/GMELEC1 b 1"


def test_zobrist_hash() -> None:
    a = played("g1f3", "c7c5", "f3g1", "c5c7")
    assert a.zobrist_hash() == Board().zobrist_hash()  # same placement and side to move
    b = Board()
    b.turn = BLACK
    assert b.zobrist_hash() != Board().zobrist_hash()
    assert isinstance(a.zobrist_hash(), int)
    assert 0 <= a.zobrist_hash() < 2**64


# -- text -------------------------------------------------------------------------------------------


def test_ascii_board_marks_river_and_castles() -> None:
    text = str(Board())
    assert text.splitlines() == [
        "g m e l e c z",
        "p p p p p p p",
        ". . + + + . .",
        "~ ~ ~ ~ ~ ~ ~",
        ". . + + + . .",
        "P P P P P P P",
        "G M E L E C Z",
    ]
    assert Board().unicode(ascii=True) == text


def test_unicode_board() -> None:
    text = Board().unicode(borders=True)
    lines = text.splitlines()
    assert lines[0] == "7 ⓖ ⓜ ⓔ ♚ ⓔ ⓒ ♞"
    assert lines[3] == "4 ≈ ≈ ≈ ≈ ≈ ≈ ≈"
    assert lines[-1] == "  a b c d e f g"
    assert Board().unicode(empty=".").splitlines()[2] == ". . ▫ ▫ ▫ . ."


# -- end of game ------------------------------------------------------------------------------------


def test_lion_capture_and_no_moves() -> None:
    board = played("b1d3f5d7", fen=MONKEY_FEN)
    assert board.outcome() == Outcome(Termination.LION_CAPTURED, WHITE)
    assert board.result() == "1-0"
    assert board.is_game_over()
    stuck = Board("2l4/7/7/7/7/7/4L2 w 1")  # the lions do not face each other
    assert stuck.outcome() == Outcome(Termination.BARE_LIONS, None)
    assert stuck.result() == "1/2-1/2"


def test_threefold_repetition_only_when_claimed() -> None:
    board = Board("2l4/7/7/7/7/7/4L2 w 1")
    board.set_piece_at(congo.A2, Piece.from_symbol("P"))  # not bare lions
    for uci in SHUFFLE * 2:
        assert not board.can_claim_threefold_repetition()
        board.push_uci(uci)
    assert board.is_repetition(3)
    assert board.can_claim_draw()
    assert board.outcome() is None
    assert board.outcome(claim_draw=True) == Outcome(Termination.THREEFOLD_REPETITION, None)
    assert board.result(claim_draw=True) == "1/2-1/2"
    assert board.result() == "*"
    with pytest.raises(TypeError):
        board.is_repetition("3")  # type: ignore[arg-type]


def test_ply_limit_counts_the_move_stack() -> None:
    board = Board("2l4/7/7/7/7/7/P3L2 w 30")
    for uci in SHUFFLE:
        board.push_uci(uci)
    assert board.outcome(max_plies=5) is None
    assert board.outcome(max_plies=4) == Outcome(Termination.MOVE_LIMIT, None)
    assert board.is_game_over(max_plies=4)
    assert board.result(max_plies=4) == "1/2-1/2"
    assert board.ply() == 2 * 29 + 4  # from the move number, as in python-chess
    with pytest.raises(ValueError, match="max_plies must be from 0"):
        board.outcome(max_plies=-1)
    for bad in ["5", 2.0, True]:  # the documented TypeError for a wrong type (issue 14)
        with pytest.raises(TypeError, match="max_plies must be an int"):
            board.outcome(max_plies=bad)  # type: ignore[arg-type]


def test_root() -> None:
    board = played("g1f3", "c7c5")
    assert board.root() == Board()
    assert board.root().move_stack == []
    assert Board(MONKEY_FEN).root() == Board(MONKEY_FEN)


def test_outcome_result() -> None:
    assert Outcome(Termination.NO_LEGAL_MOVES, BLACK).result() == "0-1"
    assert Outcome(Termination.MOVE_LIMIT, None).result() == "1/2-1/2"


# -- bad input --------------------------------------------------------------------------------------

CALLS: list[tuple[str, Callable[[Board], Any], type[Exception]]] = [
    ("Board(int)", lambda b: Board(5), TypeError),  # type: ignore[arg-type]
    ("Board(bytes)", lambda b: Board(b"x"), TypeError),  # type: ignore[arg-type]
    ("piece_at(str)", lambda b: b.piece_at("a1"), TypeError),  # type: ignore[arg-type]
    ("piece_at(49)", lambda b: b.piece_at(49), ValueError),
    ("piece_at(-1)", lambda b: b.piece_at(-1), ValueError),
    ("piece_at(huge)", lambda b: b.piece_at(2**70), ValueError),
    ("piece_type_at(1.0)", lambda b: b.piece_type_at(1.0), TypeError),  # type: ignore[arg-type]
    ("color_at(None)", lambda b: b.color_at(None), TypeError),  # type: ignore[arg-type]
    ("pieces(9)", lambda b: b.pieces(9, WHITE), ValueError),
    ("pieces(color=2)", lambda b: b.pieces(1, 2), TypeError),  # type: ignore[arg-type]
    ("push(str)", lambda b: b.push("g1f3"), TypeError),  # type: ignore[arg-type]
    ("push(None)", lambda b: b.push(None), TypeError),  # type: ignore[arg-type]
    ("push_uci(int)", lambda b: b.push_uci(5), TypeError),  # type: ignore[arg-type]
    ("parse_uci(bad)", lambda b: b.parse_uci("e3h4"), InvalidMoveError),
    ("is_capture(str)", lambda b: b.is_capture("g1f3"), TypeError),  # type: ignore[arg-type]
    ("captured_squares(str)", lambda b: b.captured_squares("g1f3"), TypeError),  # type: ignore[arg-type]
    ("set_fen(int)", lambda b: b.set_fen(5), TypeError),  # type: ignore[arg-type]
    ("set_board_fen(full fen)", lambda b: b.set_board_fen(congo.STARTING_FEN), ValueError),
    ("set_piece_at(50)", lambda b: b.set_piece_at(50, None), ValueError),
    ("set_piece_at(str piece)", lambda b: b.set_piece_at(0, "L"), TypeError),  # type: ignore[arg-type]
    ("remove_piece_at(str)", lambda b: b.remove_piece_at("a1"), TypeError),  # type: ignore[arg-type]
    ("set_piece_map(list)", lambda b: b.set_piece_map([1]), TypeError),  # type: ignore[arg-type]
    ("set_piece_map(str values)", lambda b: b.set_piece_map({0: "L"}), TypeError),  # type: ignore[dict-item]
    ("set_piece_map(str keys)", lambda b: b.set_piece_map({"a1": Piece(8, True)}), TypeError),  # type: ignore[dict-item]
    ("copy(stack=str)", lambda b: b.copy(stack="x"), TypeError),  # type: ignore[arg-type]
    ("san(str)", lambda b: b.san("g1f3"), TypeError),  # type: ignore[arg-type]
    ("parse_san(None)", lambda b: b.parse_san(None), TypeError),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("name", "call", "error"), CALLS, ids=[c[0] for c in CALLS])
def test_bad_input_raises_and_leaves_the_board_unchanged(
    name: str, call: Callable[[Board], Any], error: type[Exception]
) -> None:
    board = played("g1f3")
    before = snapshot(board)
    with pytest.raises(error) as caught:
        call(board)
    assert str(caught.value)  # a message that says what is wrong
    assert "panic" not in str(caught.value).lower()
    assert snapshot(board) == before


def test_error_hierarchy() -> None:
    for error in [InvalidFenError, InvalidPositionError, InvalidMoveError, IllegalMoveError]:
        assert issubclass(error, ValueError)
    assert issubclass(congo.AmbiguousMoveError, IllegalMoveError)
