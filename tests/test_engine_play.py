"""The python-chess vocabulary of the built-in engine: limits with game clocks, scores that compare
and carry their point of view, ``analyse`` with MultiPV, ``play`` with pondering, root moves."""

from __future__ import annotations

import copy
import pickle
import time

import pytest

import congo
from congo.engine import MAX_MATE, Cp, Engine, Limit, Mate, MateGiven, PlayResult, PovScore, Score

MONKEY_MATE = "7/4l2/7/4c2/7/2p4/1M1L3 w 1"


def test_scores_sort_like_python_chess() -> None:
    ordered = [Mate(0), Mate(-1), Mate(-5), Cp(-300), Cp(0), Cp(20), Mate(7), Mate(1), MateGiven]
    assert sorted(reversed(ordered)) == ordered
    assert all(a < b for a, b in zip(ordered, ordered[1:]))
    assert Cp(20) == Score(cp=20)
    assert Mate(3) == Score(mate=3)
    assert MateGiven != Mate(0)
    assert -MateGiven == Mate(0)
    assert -Mate(0) == MateGiven
    assert -Cp(35) == Cp(-35)
    assert -Mate(2) == Mate(-2)
    assert +Cp(4) == Cp(4)
    assert max(Cp(900), Mate(9)) == Mate(9)
    assert str(MateGiven) == "#+0"
    assert repr(MateGiven) == "MateGiven"
    assert pickle.loads(pickle.dumps(MateGiven)) is MateGiven
    assert copy.deepcopy(Score(cp=3)) == Cp(3)
    with pytest.raises(TypeError):
        _ = Cp(1) < 2


def test_pov_scores() -> None:
    score = PovScore(Cp(40), congo.BLACK)
    assert score.relative == Cp(40)
    assert score.turn is congo.BLACK
    assert score.black() == Cp(40)
    assert score.white() == Cp(-40)
    assert score.pov(congo.WHITE) == Cp(-40)
    assert PovScore(Mate(0), congo.WHITE).black() is MateGiven
    assert score == PovScore(Cp(-40), congo.WHITE)
    assert -score == PovScore(Cp(-40), congo.BLACK)
    assert not score.is_mate()
    assert PovScore(Mate(2), True).is_mate()
    assert repr(score) == "PovScore(Score(cp=40, mate=None), BLACK)"
    assert len({score, PovScore(Cp(-40), congo.WHITE)}) == 1


def test_limits_with_clocks() -> None:
    limit = Limit(white_clock=60, black_clock=55.5, white_inc=1, black_inc=1, remaining_moves=20, mate=3)
    assert limit.white_clock == 60
    assert limit.remaining_moves == 20
    Limit(white_clock=-0.2)  # a fallen flag: allowed, counts as no time left
    for bad in (
        {"mate": 0},
        {"mate": MAX_MATE + 1},
        {"white_clock": float("nan")},
        {"black_clock": 1e300},
        {"white_clock": 1, "white_inc": -1},
        {"white_inc": 1},
        {"black_clock": 5, "black_inc": 1, "white_inc": 1},
        {"remaining_moves": 10},
        {"white_clock": 1, "remaining_moves": 0},
    ):
        with pytest.raises(ValueError, match=r"mate|clock|inc|remaining_moves"):
            Limit(**bad)
    for bad_type in ({"mate": 1.5}, {"white_clock": "1"}, {"remaining_moves": True}):
        with pytest.raises(TypeError):
            Limit(**bad_type)


def test_a_clock_limit_is_kept() -> None:
    engine = Engine(hash_mb=16)
    assert engine.move_overhead == pytest.approx(0.03)
    board = congo.Board()
    start = time.perf_counter()
    result = engine.search(board, Limit(white_clock=2.0, black_clock=2.0))
    took = time.perf_counter() - start
    assert result.move is not None
    # The move comes before the clock runs out (it plans 40 % of what is left after the overhead,
    # a benchmark figure; the flag falling is the behaviour that matters).
    assert took < 2.0, took
    # Only the side to move's clock counts: Black's does not limit White.
    assert engine.search(board, Limit(black_clock=0.001, depth=3)).depth == 3
    engine.move_overhead = 0.1
    assert engine.move_overhead == pytest.approx(0.1)
    with pytest.raises(ValueError, match="move_overhead"):
        engine.move_overhead = -1
    with pytest.raises(TypeError):
        engine.move_overhead = "fast"  # type: ignore[assignment]


def test_a_mate_limit_stops_at_the_mate() -> None:
    result = Engine(hash_mb=16).search(congo.Board(MONKEY_MATE), Limit(mate=1))
    assert result.score == Mate(1)
    assert result.depth == 1


def test_analyse_and_multipv() -> None:
    engine = Engine(hash_mb=16)
    board = congo.Board(MONKEY_MATE)
    info = engine.analyse(board, Limit(depth=3))
    assert info["score"] == PovScore(Mate(1), congo.WHITE)
    assert info["pv"][0] == congo.Move.from_uci("b1d3f5d7")
    assert info["depth"] == 3
    infos = engine.analyse(board, Limit(depth=4), multipv=3)
    assert [i["multipv"] for i in infos] == [1, 2, 3]
    assert [i["score"].relative for i in infos] == sorted((i["score"].relative for i in infos), reverse=True)
    assert len({i["pv"][0] for i in infos}) == 3
    # Each line's score is what the search of that move alone finds.
    for line in infos:
        alone = Engine(hash_mb=16).analyse(board, Limit(depth=4), root_moves=[line["pv"][0]])
        assert alone["score"] == line["score"]
    few = congo.Board("3l3/7/7/7/7/7/3L3 w 1")
    assert len(engine.analyse(few, Limit(depth=2), multipv=50)) == len(few.legal_moves)
    finished = congo.Board(MONKEY_MATE)
    finished.push_uci("b1d3f5d7")
    over = engine.analyse(finished, Limit(depth=2))
    assert over["score"].relative == Mate(0)
    assert over["pv"] == []
    for bad in (0, 257):
        with pytest.raises(ValueError, match="multipv"):
            engine.analyse(board, Limit(depth=1), multipv=bad)
    with pytest.raises(TypeError):
        engine.analyse(board, Limit(depth=1), multipv="2")  # type: ignore[call-overload]


def test_root_moves() -> None:
    engine = Engine(hash_mb=16)
    board = congo.Board(MONKEY_MATE)
    quiet = board.parse_uci("d1c2")
    assert engine.search(board, Limit(depth=3), root_moves=[quiet]).move == quiet
    with pytest.raises(congo.IllegalMoveError):
        engine.search(board, Limit(depth=3), root_moves=[congo.Move.from_uci("a1a2")])
    with pytest.raises(ValueError, match="empty"):
        engine.search(board, Limit(depth=3), root_moves=[])
    with pytest.raises(TypeError):
        engine.search(board, Limit(depth=3), root_moves=["d1c2"])  # type: ignore[list-item]


def test_play_and_ponder() -> None:
    with Engine(hash_mb=16) as engine:
        board = congo.Board()
        result = engine.play(board, Limit(depth=5), ponder=True)
        assert isinstance(result, PlayResult)
        assert result.move in board.legal_moves
        assert result.info["pv"][0] == result.move
        assert result.ponder == result.info["pv"][1]
        # It ponders now, in the background; any call stops that first.
        time.sleep(0.1)
        assert engine._ponder is not None
        assert engine._ponder.is_alive()
        board.push(result.move)
        board.push(result.ponder)
        start = time.perf_counter()
        assert engine.play(board, Limit(nodes=100)).move in board.legal_moves
        assert time.perf_counter() - start < 30  # the pondering, which has no end, was stopped
        assert engine._ponder is None
        engine.play(board, Limit(depth=2), ponder=True)
    assert engine._ponder is None  # the end of the with block stopped it
