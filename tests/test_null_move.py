"""The null move: python-chess's ``Move.null()``, a pass that uses up a piece's turn in the river."""

from __future__ import annotations

import copy
import io
import pickle
import sys

import pytest

import congo
from congo import pgn as congo_pgn
from congo.engine import Limit, SimpleEngine


def test_the_null_move_is_0000_falsy_and_equal_to_its_parse() -> None:
    null = congo.Move.null()
    assert not null
    assert congo.Move.from_uci("c1c3")
    assert null.uci() == str(null) == "0000"
    assert null == congo.Move.from_uci("0000") == pickle.loads(pickle.dumps(null)) == copy.copy(null)
    assert hash(null) == hash(congo.Move.from_uci("0000"))
    assert null.path == ()
    assert (null.from_square, null.to_square) == (0, 0)
    assert null != congo.Move(congo.A1, congo.A2)


def test_push_passes_the_turn_and_pop_takes_it_back() -> None:
    board = congo.Board()
    board.push(congo.Move.null())
    assert board.fen() == "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ b 1"
    assert board.move_stack == [congo.Move.null()]
    board.push(congo.Move.null())
    assert board.fen() == "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 2"
    assert board.pop() == congo.Move.null()
    assert board.pop() == congo.Move.null()
    assert board == congo.Board()
    assert board.move_stack == []


def test_a_null_move_drowns_the_movers_swimmers_and_only_theirs() -> None:
    # Black's pawn on b4 and White's elephant on e4 each entered the river on their side's last
    # move. Black passes: the pawn drowns, as after any Black move that leaves it there; the
    # elephant is White's and stays. White passes: now the elephant drowns. A crocodile never does.
    board = congo.Board("3l3/7/7/1p2E2/7/7/3L3 b 5")
    board.push(congo.Move.null())
    assert board.fen() == "3l3/7/7/4E2/7/7/3L3 w 6"
    board.push(congo.Move.null())
    assert board.fen() == "3l3/7/7/7/7/7/3L3 b 6"
    assert board.zobrist_hash() == congo.Board(board.fen()).zobrist_hash()
    board.pop()
    board.pop()
    assert board.fen() == "3l3/7/7/1p2E2/7/7/3L3 b 5"
    crocodile = congo.Board("3l3/7/7/4C2/7/7/3L3 w 1")
    crocodile.push(congo.Move.null())
    assert crocodile.fen() == "3l3/7/7/4C2/7/7/3L3 b 1"


def test_a_null_move_drowns_exactly_what_any_real_move_elsewhere_would() -> None:
    # The same swimmers drown after the pass as after a quiet move far from the river.
    board = congo.Board("3l3/7/7/1p2E2/7/7/3L3 w 5")
    real = board.copy()
    real.push_uci("d1d2")
    board.push(congo.Move.null())
    assert board.board_fen().split("/")[3] == real.board_fen().split("/")[3] == "1p5"


def test_the_null_move_is_never_legal_nor_generated() -> None:
    board = congo.Board()
    null = congo.Move.null()
    assert null not in board.legal_moves
    assert not board.is_legal(null)
    assert not board.is_capture(null)
    assert all(move for move in board.legal_moves)
    with pytest.raises(congo.IllegalMoveError, match="null move"):
        board.captured_squares(null)
    assert congo.perft(board, 3) == 14332


def test_san_writes_and_reads_two_dashes() -> None:
    board = congo.Board()
    assert board.san(congo.Move.null()) == "--"
    assert board.lan(congo.Move.null()) == "--"
    assert board.parse_san("--") == congo.Move.null()
    assert board.san_and_push(congo.Move.null()) == "--"
    assert board.turn == congo.BLACK
    assert board.san_and_push(board.parse_san("Zf5")) == "Zf5"
    line = [congo.Move.null(), congo.Move.from_uci("g7f5"), congo.Move.null()]
    assert congo.Board().variation_san(line) == "1. -- Zf5 2. --"


def test_pickles_and_copies_keep_null_moves() -> None:
    board = congo.Board("3l3/7/7/1p2E2/7/7/3L3 b 5")
    board.push(congo.Move.null())
    board.push_uci("e4e5")
    for other in (pickle.loads(pickle.dumps(board)), board.copy(), copy.deepcopy(board)):
        assert other.move_stack == board.move_stack
        assert other.fen() == board.fen()
        assert other.root().fen() == "3l3/7/7/1p2E2/7/7/3L3 b 5"


def test_san_and_push_leaves_the_board_unchanged_on_an_illegal_move() -> None:
    board = congo.Board()
    with pytest.raises(congo.IllegalMoveError):
        board.san_and_push(congo.Move.from_uci("d1d2"))
    assert board == congo.Board()
    assert board.move_stack == []


def test_a_game_with_a_null_move_exports_it_as_two_dashes() -> None:
    board = congo.Board()
    board.push_san("Zf3")
    board.push(congo.Move.null())
    game = congo_pgn.Game.from_board(board)
    assert "1. Zf3 --" in str(game)


def test_records_read_two_dashes_as_a_null_move_and_write_them_back() -> None:
    text = "1. Zf3 -- 2. Zg5 -- (2... Ec5) *"
    game = congo_pgn.read_game(io.StringIO(text))
    assert game is not None
    assert game.errors == []
    assert [move.uci() for move in game.mainline_moves()] == ["g1f3", "0000", "f3g5", "0000"]
    assert game.end().board().fen() == "gmelecz/ppppppp/6Z/7/7/PPPPPPP/GMELEC1 w 3"
    assert str(game).endswith(text)


def test_an_engine_over_the_protocol_plays_from_a_board_holding_a_null_move() -> None:
    # The client sends the moves since the last irreversible one, the null move as 0000; the
    # built-in server reads it as a pass, as other engines do.
    board = congo.Board("3l3/2p4/7/1p2E2/7/7/3L3 b 5")
    board.push(congo.Move.null())
    board.push_uci("e4e5")
    board.push(congo.Move.null())
    with SimpleEngine.popen_uci([sys.executable, "-m", "congo", "uci"]) as engine:
        result = engine.play(board, Limit(depth=2))
    assert result.move is not None
    assert board.is_legal(result.move)
