"""``Board.status()``, ``Board.is_valid()`` and ``congo.fen_status``: python-chess's ``Status`` flags
for Congo's rules."""

from __future__ import annotations

import pytest

import congo
from congo import Status


def test_the_start_position_and_any_game_position_are_valid() -> None:
    board = congo.Board()
    assert board.status() is Status.VALID
    assert board.is_valid()
    for uci in ("c2c3", "c6c5", "c3c4", "g7f5"):
        board.push_uci(uci)
        assert board.is_valid(), board.fen()
    # A decided game (a lion captured) is a position the rules reach.
    assert congo.Board("3l3/7/7/7/7/7/7 w 9").is_valid()


@pytest.mark.parametrize(
    ("fen", "flags"),
    [
        ("7/7/7/7/7/7/7 w 1", Status.NO_LIONS),
        ("3ll2/7/7/7/7/7/3L3 w 1", Status.TOO_MANY_BLACK_LIONS),
        ("3l3/7/7/7/7/7/2LL3 w 1", Status.TOO_MANY_WHITE_LIONS),
        ("l6/7/7/7/7/7/3L3 w 1", Status.BLACK_LION_OUTSIDE_CASTLE),
        ("P2l3/7/7/7/7/7/L6 b 1", Status.WHITE_PAWN_ON_FAR_RANK | Status.WHITE_LION_OUTSIDE_CASTLE),
        ("3l3/7/7/7/7/7/3Lp2 w 1", Status.BLACK_PAWN_ON_FAR_RANK),
        (
            "ppppppp/ppppppp/p6/7/7/7/7 w 1",
            Status.NO_LIONS | Status.TOO_MANY_BLACK_PIECES | Status.TOO_MANY_BLACK_PAWNS,
        ),
        ("3l3/7/7/7/7/PPPPPPP/S2L3 w 1", Status.TOO_MANY_WHITE_PAWNS),
        ("3l3/7/7/7/7/1z1z3/3L3 w 1", Status.IMPOSSIBLE_MATERIAL),
        ("3l3/7/7/7/7/EEE4/3L3 w 1", Status.IMPOSSIBLE_MATERIAL),
        ("3l3/7/7/EM5/7/7/3L3 b 1", Status.IMPOSSIBLE_RIVER),
    ],
)
def test_fen_status_reports_every_flag_that_applies(fen: str, flags: Status) -> None:
    assert congo.fen_status(fen) == flags
    valid_for_the_core = not flags & ~(
        Status.TOO_MANY_WHITE_PAWNS
        | Status.TOO_MANY_BLACK_PAWNS
        | Status.IMPOSSIBLE_MATERIAL
        | Status.IMPOSSIBLE_RIVER
    )
    if valid_for_the_core:
        board = congo.Board(fen)
        assert board.status() == flags
        assert not board.is_valid()
    else:
        with pytest.raises(congo.InvalidPositionError):
            congo.Board(fen)


def test_swimmers_count_only_for_the_side_that_just_moved_and_never_crocodiles() -> None:
    # The side to move may have several swimmers (a position set up by hand): the flag is about the
    # side that just moved.
    assert congo.fen_status("3l3/7/7/EM5/7/7/3L3 w 1") == Status.VALID
    assert congo.fen_status("3l3/7/7/EC5/7/7/3L3 b 1") == Status.VALID
    assert congo.fen_status("3l3/7/7/em1E3/7/7/3L3 w 1") == Status.IMPOSSIBLE_RIVER


def test_no_game_reaches_two_swimmers_of_the_side_that_just_moved() -> None:
    # Every move and every null move leaves at most one swimmer of the mover: the flag never fires
    # in play. A position with swimmers of both sides and a monkey, walked two plies deep.
    board = congo.Board("3l3/2p4/1P1m3/1E2M1e/3P3/7/3L3 w 8")
    assert board.is_valid()
    for move in [*board.legal_moves, congo.Move.null()]:
        board.push(move)
        assert board.is_valid(), (board.fen(), move)
        for reply in [*board.legal_moves, congo.Move.null()]:
            board.push(reply)
            assert board.is_valid(), (board.fen(), move, reply)
            board.pop()
        board.pop()


def test_fen_status_raises_for_a_malformed_fen() -> None:
    with pytest.raises(congo.InvalidFenError):
        congo.fen_status("not a fen")
    with pytest.raises(TypeError):
        congo.fen_status(1)  # type: ignore[arg-type]
