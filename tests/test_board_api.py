"""The Board API as a python-chess user expects it: copies, pickling, equality, repr, text, pieces,
the end of the game, and bad input (right exception, clear message, board unchanged)."""

from __future__ import annotations

import collections
import concurrent.futures
import copy
import pickle
from typing import Any, Callable

import pytest

import congo
import congo.engine
from congo import (
    BLACK,
    WHITE,
    Board,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidPositionError,
    LegalMoveGenerator,
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
ZEBRA_SHUFFLE = ["g1f3", "g7f5", "f3g1", "f5g7"]
"""Zebras out and back from the start: the same position every four plies."""


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
    for bad in ["5", 2.0, True]:  # the documented TypeError for a wrong type
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


# =============================================================================== missing, wanted


def test_generate_legal_moves_and_captures_with_masks() -> None:
    board = Board(MONKEY_FEN)
    monkey = list(board.generate_legal_moves(congo.BB_SQUARES[congo.B1]))
    assert {m.uci() for m in monkey} == {"b1a1", "b1a2", "b1b2", "b1c1", "b1d3", "b1d3f5", "b1d3f5d7"}
    onto_f5 = list(board.generate_legal_moves(to_mask=SquareSet([congo.F5])))
    assert [m.uci() for m in onto_f5] == ["b1d3f5"]
    captures = [m.uci() for m in board.generate_legal_captures()]
    assert set(captures) == {"b1d3", "b1d3f5", "b1d3f5d7", "d1c2"}
    assert [m.uci() for m in board.generate_legal_captures(to_mask=[congo.D7])] == ["b1d3f5d7"]
    assert list(Board().generate_legal_captures()) == []
    assert len(list(Board().generate_legal_moves())) == 24


def test_find_move() -> None:
    board = Board(MONKEY_FEN)
    assert board.find_move(congo.B1, congo.B2) == Move.from_uci("b1b2")
    assert board.find_move(congo.B1, congo.F5) == Move.from_uci("b1d3f5")
    assert Board().find_move(congo.G1, congo.F3) == Move.from_uci("g1f3")
    with pytest.raises(IllegalMoveError, match="no legal move from g1 to g7"):
        Board().find_move(congo.G1, congo.G7)


def test_attackers_and_attacks() -> None:
    board = Board(MONKEY_FEN)
    # The monkey on b1 attacks the lion on e6 through its chain; the black pawn on c2 attacks d1.
    assert board.attackers(WHITE, congo.E6) == SquareSet([congo.B1])
    assert board.is_attacked_by(WHITE, congo.E6)
    assert board.attackers(BLACK, congo.D1) == SquareSet([congo.C2])
    assert not board.is_attacked_by(BLACK, congo.A7)
    assert board.attackers_mask(WHITE, congo.E4) == 1 << congo.B1
    assert congo.E6 in board.attacks(congo.B1)
    assert congo.C2 in board.attacks(congo.B1)
    assert board.attacks(congo.C2) == SquareSet([congo.B1, congo.C1, congo.D1])
    assert board.attacks(congo.A7) == SquareSet()
    # Steps that never capture do not attack.
    start = Board()
    assert congo.B2 not in start.attacks(congo.A1)  # the giraffe's step
    assert start.attacks(congo.A1) == SquareSet([congo.A3, congo.C3, congo.C1])


def test_empty_clear_and_clear_board() -> None:
    # python-chess's empty board has no pieces; a Congo position needs a lion, so both stay.
    empty = Board.empty()
    assert empty.fen() == "3l3/7/7/7/7/7/3L3 w 1"
    board = Board()
    board.push_uci("g1f3")
    board.clear_board()
    assert board.fen() == "3l3/7/7/7/7/7/3L3 b 1"
    assert board.move_stack == []
    board.clear()
    assert board.fen() == "3l3/7/7/7/7/7/3L3 w 1"

    class Mine(Board):
        pass

    assert type(Mine.empty()) is Mine


def test_transform_and_flip_horizontal() -> None:
    board = Board(MONKEY_FEN)
    flipped = board.transform(congo.flip_horizontal)
    assert flipped.fen() == "7/2l4/7/2c4/7/4p2/3L1M1 w 1"
    assert flipped.transform(congo.flip_horizontal) == board
    assert congo.flip_vertical(congo.BB_RANKS[0]) == congo.BB_RANKS[6]
    assert congo.flip_diagonal(1 << congo.B1) == 1 << congo.A2
    assert congo.flip_anti_diagonal(1 << congo.A1) == 1 << congo.G7
    with pytest.raises(congo.InvalidPositionError, match="outside its castle"):
        Board().transform(congo.flip_vertical)
    board.apply_transform(congo.flip_horizontal)
    assert board == flipped


def test_transposition_key_ignores_the_move_number() -> None:
    a = Board("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1")
    b = Board("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 9")
    c = Board("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ b 1")
    assert a.transposition_key() == b.transposition_key() != c.transposition_key()
    counts: collections.Counter[bytes] = collections.Counter()
    board = Board()
    for uci in ZEBRA_SHUFFLE * 2:
        counts[board.transposition_key()] += 1
        board.push_uci(uci)
    counts[board.transposition_key()] += 1
    assert counts[Board().transposition_key()] == 3
    assert {a.transposition_key(): "x"}[b.transposition_key()] == "x"


def test_square_set_methods() -> None:
    s = SquareSet([congo.A1, congo.D4])
    assert s.union([congo.B1]) == SquareSet([congo.A1, congo.B1, congo.D4])
    assert s.issubset([congo.A1, congo.D4, congo.G7])
    assert not s.issubset([congo.A1])
    assert s.issuperset([congo.D4])
    assert not s.issuperset([congo.E5])
    assert s <= [congo.A1, congo.D4]
    assert s >= {congo.A1}
    t = s.copy()
    t.update([congo.B2], SquareSet([congo.C3]))
    assert t == {congo.A1, congo.B2, congo.C3, congo.D4}
    assert s == [congo.D4, congo.A1]
    assert s == {congo.A1, congo.D4}
    assert s == s.mask
    assert s != "a1"
    assert SquareSet.ray(congo.A1, congo.C3) == SquareSet([0, 8, 16, 24, 32, 40, 48])
    assert SquareSet.ray(congo.A1, congo.B3) == SquareSet()
    assert SquareSet.ray(congo.D1, congo.D3) == congo.BB_FILES[3]
    assert SquareSet.between(congo.A1, congo.D4) == SquareSet([congo.B2, congo.C3])
    assert SquareSet.between(congo.A1, congo.B2) == SquareSet()
    assert SquareSet.from_square(congo.G7) == SquareSet([congo.G7])
    assert sorted(SquareSet([congo.A1, congo.B1]).carry_rippler()) == [0, 1, 2, 3]
    assert s.intersection([congo.A1]) == [congo.A1]
    assert s.difference([congo.A1]) == [congo.D4]
    # Reprs have one width whatever the mask.
    widths = {len(repr(SquareSet(mask))) for mask in (0, 1, 1 << 48, congo.BB_ALL)}
    assert widths == {len("SquareSet(0x0_0000_0000_0000)")}


def test_occupied_co_indexed_by_colour() -> None:
    board = Board()
    assert board.occupied_co[WHITE] == SquareSet(congo.BB_RANKS[0] | congo.BB_RANKS[1])
    assert board.occupied_co[BLACK] == board.occupied_co(BLACK)
    assert int(board.occupied_co[BLACK]) == congo.BB_RANKS[5] | congo.BB_RANKS[6]


def test_unicode_takes_python_chess_keywords() -> None:
    board = Board(MONKEY_FEN)
    text = board.unicode(invert_color=True, borders=True, empty_square=".", orientation=BLACK)
    lines = text.splitlines()
    assert lines[0].startswith("1 ")
    assert lines[-1] == "  g f e d c b a"
    assert "♚" in lines[0]
    assert "♔" in lines[5]
    assert "." in text
    assert board.unicode(empty_square="x").count("x") > 20


# =============================================================================== wrong before


def test_is_legal_raises_type_error_for_a_non_move() -> None:
    with pytest.raises(TypeError, match=r"expected a congo\.Move, got str"):
        Board().is_legal("g1f3")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Board().is_legal(None)  # type: ignore[arg-type]


def _tally(seed: int) -> congo.PlayoutStats:
    return congo.random_playouts(congo.STARTING_FEN, 20, seed=seed)


def test_playout_stats_pickle_hash_and_add() -> None:
    a, b = _tally(1), _tally(2)
    assert pickle.loads(pickle.dumps(a)) == a
    assert len({a, pickle.loads(pickle.dumps(a))}) == 1
    total = a + b
    assert total.games == 40
    assert total.plies == a.plies + b.plies
    assert sum([a, b]) == total
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        assert sum(pool.map(_tally, [1, 2])) == total
    with pytest.raises(ValueError, match="must equal games"):
        congo.PlayoutStats(games=2, white_wins=1)


def test_setting_turn_or_move_number_keeps_the_move_stack() -> None:
    board = Board()
    board.push_uci("g1f3")
    board.turn = board.turn
    board.fullmove_number = board.fullmove_number
    assert board.move_stack == [Move.from_uci("g1f3")]
    board.turn = WHITE
    board.fullmove_number = 5
    assert board.fen().endswith(" w 5")
    assert len(board.move_stack) == 1
    assert board.pop() == Move.from_uci("g1f3")
    assert board.fen() == congo.STARTING_FEN


def test_documented_errors_for_move_numbers_and_ply_limits() -> None:
    board = Board()
    with pytest.raises(ValueError, match="fullmove_number must be from 0 to 4294967295"):
        board.fullmove_number = 2**70
    with pytest.raises(TypeError, match="max_plies must be an int"):
        board.outcome(max_plies="3")  # type: ignore[arg-type]


def test_legal_move_generator_of_a_position() -> None:
    position = Board(MONKEY_FEN).position
    view = LegalMoveGenerator(position)
    assert len(view) == 12
    assert Move.from_uci("b1d3f5d7") in view
    assert bool(view)
    with pytest.raises(TypeError, match="LegalMoveGenerator takes"):
        LegalMoveGenerator(42)


def test_is_repetition_needs_a_positive_count() -> None:
    board = Board()
    assert board.is_repetition(1)
    assert not board.is_repetition(2)
    for bad in (0, -1):
        with pytest.raises(ValueError, match="count must be at least 1"):
            board.is_repetition(bad)


def test_colours_as_ints() -> None:
    board = Board()
    assert board.pieces(congo.PAWN, 1) == board.pieces(congo.PAWN, WHITE)  # type: ignore[arg-type]
    assert board.pieces(congo.LION, 0) == SquareSet([congo.D7])  # type: ignore[arg-type]
    for bad in (2, -1, "white", None):
        with pytest.raises(TypeError, match="a colour is WHITE"):
            board.pieces(congo.PAWN, bad)  # type: ignore[arg-type]


class _Subclass(Board):
    pass


def test_root_and_mirror_keep_a_subclass() -> None:
    board = _Subclass()
    board.push_uci("g1f3")
    assert type(board.root()) is _Subclass
    assert board.root() == Board()
    assert type(board.mirror()) is _Subclass


def test_position_piece_at_returns_a_piece() -> None:
    position = Position()
    assert position.piece_at(congo.D1) == Piece.from_symbol("L") == Board().piece_at(congo.D1)
    assert position.piece_map()[congo.A7] == Piece.from_symbol("g")


def test_search_and_analysis_both_take_no_limit() -> None:
    engine = congo.Engine(hash_mb=1)
    board = Board()
    import threading

    threading.Timer(0.3, engine.stop).start()
    result = engine.search(board)  # until stop(), like analysis()
    assert result.move is not None
