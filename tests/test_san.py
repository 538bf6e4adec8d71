"""SAN-like notation (docs/notation.md): writing, reading, lines, errors."""

from __future__ import annotations

import random

import pytest

import congo
from congo import AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError, Move

MONKEY_FEN = "7/4l2/7/4c2/7/2p4/1M1L3 w 1"

# The examples table of docs/notation.md.
DOC_EXAMPLES = [
    (congo.STARTING_FEN, "g1f3", "Zf3"),
    (congo.STARTING_FEN, "c1c3", "Ec3"),
    (congo.STARTING_FEN, "c2c3", "cc3"),
    (congo.STARTING_FEN, "b2c3", "bc3"),
    ("3l3/7/7/3pp2/3PP2/7/3L3 w 1", "d3e4", "dxe4"),
    ("3l3/7/7/3pp2/3PP2/7/3L3 w 1", "d3d4", "dxd4"),
    ("3l3/7/1Z5/7/7/7/1Z1L3 w 1", "b1c3", "Z1c3"),
    ("3l3/7/1Z1Z3/7/7/7/1Z1L3 w 1", "b5c3", "Zb5c3"),
    (MONKEY_FEN, "b1a1", "Ma1"),
    (MONKEY_FEN, "b1d3", "Mxd3"),
    (MONKEY_FEN, "b1d3f5", "Mxd3xf5"),
    (MONKEY_FEN, "b1d3f5d7", "Mxd3xf5xd7#"),
    ("3l3/7/7/7/7/7/3L3 w 1", "d1d7", "Lxd7#"),
    ("3l3/1P5/7/7/7/7/3L3 w 1", "b6b7", "b7"),
]


@pytest.mark.parametrize(("fen", "uci", "san"), DOC_EXAMPLES)
def test_documented_examples(fen: str, uci: str, san: str) -> None:
    board = Board(fen)
    move = board.parse_uci(uci)
    assert board.san(move) == san
    assert board.parse_san(san) == move


def test_start_position_moves() -> None:
    board = Board()
    sans = sorted(board.san(move) for move in board.legal_moves)
    assert sans == sorted(
        [
            "Ga3", "Gc3", "Ec3", "Ee3", "Zf3",
            "aa3", "ba3", "ab3", "bb3", "cb3", "bc3", "cc3", "dc3", "cd3", "dd3", "ed3",
            "de3", "ee3", "fe3", "ef3", "ff3", "gf3", "fg3", "gg3",
        ]
    )  # fmt: skip


def test_random_games_round_trip_and_are_unique() -> None:
    rng = random.Random(7)
    for _ in range(8):
        board = Board()
        while not board.is_game_over(max_plies=150):
            moves = list(board.legal_moves)
            sans = [board.san(move) for move in moves]
            assert len(set(sans)) == len(sans), board.fen()
            for move, san in zip(moves, sans):
                assert board.parse_san(san) == move
            board.push(rng.choice(moves))


def test_monkey_chain_inputs_are_lenient() -> None:
    board = Board(MONKEY_FEN)
    chain = Move.from_uci("b1d3f5")
    for text in ["Mxd3xf5", "Md3f5", "Mb1xd3xf5", "Mb1d3f5", "Mbxd3xf5", "M1xd3xf5", "Mxd3xf5!?", "b1d3f5"]:
        assert board.parse_san(text) == chain, text
    assert board.parse_san("b1-d3-f5") == chain
    assert board.parse_san("b1d3,d3f5") == chain


def test_machine_notation_is_accepted() -> None:
    board = Board()
    assert board.parse_san("c1c3") == Move.from_uci("c1c3")
    assert board.parse_san("g1-f3") == Move.from_uci("g1f3")


def test_promotion_suffix() -> None:
    board = Board("3l3/1P5/7/7/7/7/3L3 w 1")
    assert board.parse_san("b7=S") == Move.from_uci("b6b7")
    with pytest.raises(InvalidMoveError, match="only a pawn promotes"):
        board.parse_san("Zb7=S")


@pytest.mark.parametrize("text", ["", "Qd4", "Zh3", "Zf3x", "Zxxf3", "O-O", "---", "é4", "Zf"])
def test_invalid_san(text: str) -> None:
    board = Board()
    with pytest.raises(InvalidMoveError, match="invalid SAN"):
        board.parse_san(text)


def test_illegal_and_ambiguous_san() -> None:
    board = Board()
    with pytest.raises(IllegalMoveError, match="no legal move matches"):
        board.parse_san("Zf4")
    with pytest.raises(AmbiguousMoveError, match=r"b2c3, c2c3, d2c3") as caught:
        board.parse_san("c3")
    assert isinstance(caught.value, IllegalMoveError)
    assert isinstance(caught.value, ValueError)


def test_type_errors() -> None:
    board = Board()
    with pytest.raises(TypeError):
        board.parse_san(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        board.push_san(b"Zf3")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        board.san("g1f3")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        board.lan("g1f3")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        board.variation_san(["g1f3"])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        board.variation_san(5)  # type: ignore[arg-type]


def test_san_of_an_illegal_move_raises() -> None:
    board = Board()
    with pytest.raises(IllegalMoveError):
        board.san(Move.from_uci("g1g2"))
    with pytest.raises(IllegalMoveError):
        board.lan(Move.from_uci("a2a4"))


def test_failed_push_san_leaves_the_board_unchanged() -> None:
    board = Board()
    board.push_san("Zf3")
    before = (board.fen(), board.move_stack)
    for text in ["c3", "Zf4", "Qd4", "Zg5"]:
        with pytest.raises(ValueError, match="SAN"):
            board.push_san(text)
        assert (board.fen(), board.move_stack) == before


def test_push_san_plays_and_returns_the_move() -> None:
    board = Board()
    move = board.push_san("Zf3")
    assert move == Move.from_uci("g1f3")
    assert board.peek() == move
    assert board.push_san("Ec5") == Move.from_uci("c7c5")


def test_variation_san() -> None:
    board = Board()
    line = [Move.from_uci(u) for u in ["g1f3", "c7c5", "c2c3"]]
    assert board.variation_san(line) == "1. Zf3 Ec5 2. cc3"
    assert board.move_stack == []
    board.push(line[0])
    assert board.variation_san(line[1:]) == "1... Ec5 2. cc3"
    assert board.variation_san([]) == ""
    assert board.variation_san(iter(line[1:])) == "1... Ec5 2. cc3"


def test_variation_san_names_the_illegal_move() -> None:
    board = Board()
    line = [Move.from_uci(u) for u in ["g1f3", "g1f3"]]
    with pytest.raises(IllegalMoveError, match=r"move 2 of the line \(g1f3\)"):
        board.variation_san(line)
    assert board.fen() == congo.STARTING_FEN


def test_lan() -> None:
    board = Board("3l3/7/7/3pp2/3PP2/7/3L3 w 1")
    assert board.lan(Move.from_uci("d3e4")) == "d3xe4"
    assert board.lan(Move.from_uci("d3c4")) == "d3-c4"
    assert board.lan(Move.from_uci("d1e1")) == "Ld1-e1"
    monkey = Board(MONKEY_FEN)
    assert monkey.lan(Move.from_uci("b1d3f5d7")) == "Mb1xd3xf5xd7#"
    assert monkey.lan(Move.from_uci("b1b2")) == "Mb1-b2"


def test_hash_marks_exactly_the_winning_moves() -> None:
    rng = random.Random(3)
    for fen in ["2Ml3/7/7/7/7/7/3L3 w 1", MONKEY_FEN, congo.STARTING_FEN]:
        board = Board(fen)
        while not board.is_game_over(max_plies=120):
            for move in board.legal_moves:
                after = board.copy()
                after.push(move)
                outcome = after.outcome()
                won = outcome is not None and outcome.winner == board.turn
                assert board.san(move).endswith("#") == won
            board.push(rng.choice(list(board.legal_moves)))
