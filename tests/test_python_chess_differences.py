"""The deliberate differences from python-chess listed in docs/api.md that the other test files do
not already pin down."""

from __future__ import annotations

import inspect

import pytest

import congo
import congo.svg

# Chess notions Congo's rules do not have: a python-chess user reaching for them gets an
# AttributeError, not a name that answers something meaningless.
ABSENT = [
    "is_check",
    "is_checkmate",
    "is_stalemate",
    "castling_rights",
    "ep_square",
    "halfmove_clock",
    "can_claim_fifty_moves",
    "is_insufficient_material",
    "pseudo_legal_moves",
]


@pytest.mark.parametrize("name", ABSENT)
def test_chess_only_names_are_absent(name: str) -> None:
    assert not hasattr(congo.Board(), name)


def test_push_checks_legality() -> None:
    board = congo.Board()
    with pytest.raises(congo.IllegalMoveError):
        board.push(congo.Move.from_uci("d1d2"))
    assert board == congo.Board()


def test_a_decided_game_is_valid_and_an_impossible_position_is_refused() -> None:
    assert congo.Board("3l3/7/7/7/7/7/7 w 9").is_valid()
    with pytest.raises(congo.InvalidPositionError):
        congo.Board("7/7/7/7/7/7/7 w 1")
    assert congo.fen_status("7/7/7/7/7/7/7 w 1") == congo.Status.NO_LIONS


def test_epd_has_two_fields_and_hmvc_sets_nothing() -> None:
    board = congo.Board()
    assert board.epd().split() == ["gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ", "w"]
    assert board.set_epd("3l3/7/7/7/7/7/3L3 b hmvc 40; fmvn 7;") == {"hmvc": 40, "fmvn": 7}
    assert board.fen() == "3l3/7/7/7/7/7/3L3 b 7"


def test_the_null_move_has_only_the_congo_spellings() -> None:
    board = congo.Board()
    assert board.parse_san("--") == board.parse_san("0000") == congo.Move.null()
    with pytest.raises(congo.InvalidMoveError):
        board.parse_san("@@@@")
    # Z0 is not a null move here (Z is the zebra).
    with pytest.raises(ValueError):  # noqa: PT011 - either move error is right
        board.parse_san("Z0")


def test_san_marks_a_win_not_a_check() -> None:
    board = congo.Board("7/4l2/7/4c2/7/2p4/1M1L3 w 1")
    assert board.san(congo.Move.from_uci("b1d3f5d7")) == "Mxd3xf5xd7#"
    assert board.parse_san("Mxd3xf5xd7+") == congo.Move.from_uci("b1d3f5d7")


def test_svg_board_has_no_check_argument() -> None:
    parameters = inspect.signature(congo.svg.board).parameters
    assert "check" not in parameters
    assert "flipped" in parameters
    assert congo.svg.Arrow(congo.A1, congo.A2).color == congo.svg.DEFAULT_COLORS["arrow"]
