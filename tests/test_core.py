"""The Rust core through the Python API: perft anchors, bulk calls and the GIL, errors, the CLI."""

from __future__ import annotations

import pytest

import congo
from tests.gil import assert_releases_the_gil

START = congo.STARTING_FEN


def test_perft_anchors_from_the_start() -> None:
    assert [congo.perft(START, d) for d in range(4)] == [1, 24, 576, 14_332]
    assert congo.perft(congo.Board(), 3, bulk=False) == 14_332
    assert congo.perft(congo.Position(), 2) == 576


def test_divide_is_keyed_by_move_string_and_sums_to_perft() -> None:
    split = congo.divide(START, 2)
    assert list(split) == sorted(split)
    assert len(split) == 24
    assert sum(split.values()) == 576
    assert split["c1c3"] == congo.perft(congo.Position().push(congo.Move.from_uci("c1c3")), 1)


def test_decided_position_has_no_moves_below_it() -> None:
    assert congo.perft("3L3/7/7/7/7/7/7 b 1", 3) == 0
    assert congo.divide("3L3/7/7/7/7/7/7 b 1", 2) == {}


@pytest.mark.parametrize(("depth", "error"), [(-1, ValueError), (1.5, TypeError), ("3", TypeError)])
def test_perft_rejects_bad_depths(depth: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        congo.perft(START, depth)  # type: ignore[arg-type]


def test_perft_rejects_what_is_not_a_position() -> None:
    with pytest.raises(TypeError, match=r"a congo\.Position or a FEN str"):
        congo.perft(42, 1)  # type: ignore[arg-type]
    with pytest.raises(congo.InvalidFenError):
        congo.perft("not a fen", 1)


def test_perft_releases_the_gil() -> None:
    """Another Python thread keeps running while perft works in Rust (tests/gil.py: decided by what
    the other thread did during the call, not by how long anything took)."""
    assert_releases_the_gil(lambda: congo.perft(START, 5))


BAD_FENS = {
    "gmelecz/ppppppp/7/7/7/PPPPPPP w 1": (congo.InvalidFenError, "expected 7 ranks"),
    "gmelecz/ppppppp/8/7/7/PPPPPPP/GMELECZ w 1": (congo.InvalidFenError, "invalid character '8' in rank 5"),
    "gmelecz/ppppppp/6/7/7/PPPPPPP/GMELECZ w 1": (congo.InvalidFenError, "rank 5 describes 6 squares"),
    "gmelecz/pppxppp/7/7/7/PPPPPPP/GMELECZ w 1": (congo.InvalidFenError, "invalid character 'x' in rank 6"),
    "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ white 1": (congo.InvalidFenError, "invalid side to move"),
    "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w one": (congo.InvalidFenError, "invalid move number"),
    "gmllecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1": (congo.InvalidPositionError, "black has 2 lions"),
    "gmeeecz/ppppppp/7/7/7/PPPPPPP/GMEEECZ w 1": (congo.InvalidPositionError, "neither lion"),
    "gmelecz/ppppppp/7/7/7/PPPPPPP/GMEEECL w 1": (congo.InvalidPositionError, "outside its castle"),
    "Pmelecz/ppppppp/7/7/7/1PPPPPP/GMELECZ w 1": (congo.InvalidPositionError, "far rank"),
}


@pytest.mark.parametrize("fen", list(BAD_FENS))
def test_bad_fens_raise_named_errors_and_leave_the_board_unchanged(fen: str) -> None:
    error, message = BAD_FENS[fen]
    with pytest.raises(error, match=message):
        congo.Board(fen)
    board = congo.Board()
    board.push_uci("c1c3")
    before = (board.fen(), board.move_stack)
    with pytest.raises(error, match=message):
        board.set_fen(fen)
    assert (board.fen(), board.move_stack) == before
    assert issubclass(error, ValueError)


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("", congo.InvalidMoveError, "empty"),
        ("e3", congo.InvalidMoveError, "two squares"),
        ("e3e", congo.InvalidMoveError, "even number"),
        ("h1h2", congo.InvalidMoveError, "not a square"),
        ("b1d3e4", congo.InvalidMoveError, "not a monkey jump"),
        ("c1c4", congo.IllegalMoveError, "cannot move like that"),
        ("c3c4", congo.IllegalMoveError, "no piece of the side to move"),
        ("c7c5", congo.IllegalMoveError, "no piece of the side to move"),
    ],
)
def test_bad_moves_raise_named_errors_and_leave_the_board_unchanged(
    text: str, error: type[Exception], message: str
) -> None:
    board = congo.Board()
    with pytest.raises(error, match=message):
        board.push_uci(text)
    assert board.fen() == START
    assert board.move_stack == []


def test_moves_after_a_captured_lion_are_illegal() -> None:
    board = congo.Board("3l3/7/7/7/7/7/3L3 w 1")
    board.push_uci("d1d7")
    assert board.outcome() == congo.Outcome(congo.Termination.LION_CAPTURED, congo.WHITE)
    with pytest.raises(congo.IllegalMoveError, match="game is over"):
        board.push_uci("d7d6")
