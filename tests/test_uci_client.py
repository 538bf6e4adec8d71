"""``congo.engine.SimpleEngine`` over real subprocesses: against ``congo uci``, and against a tiny
engine that does not use this library at all (``tests/foreign_engine.py``), including one killed in
the middle of a search, one that crashes, one that hangs and ones that answer nonsense."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import congo
from congo.engine import (
    AnalysisResult,
    Cp,
    EngineError,
    EngineTerminatedError,
    Limit,
    PlayResult,
    PovScore,
    SimpleEngine,
)

CONGO_UCI = [sys.executable, "-m", "congo", "uci"]
FOREIGN = [sys.executable, str(Path(__file__).with_name("foreign_engine.py"))]
MONKEY_MATE = "7/4l2/7/4c2/7/2p4/1M1L3 w 1"


@pytest.fixture
def congo_engine() -> Iterator[SimpleEngine]:
    with SimpleEngine.popen_uci(CONGO_UCI) as engine:
        yield engine


@pytest.fixture
def foreign() -> Iterator[SimpleEngine]:
    with SimpleEngine.popen_uci(FOREIGN) as engine:
        yield engine


def test_handshake_id_and_options(congo_engine: SimpleEngine) -> None:
    assert congo_engine.id == {"name": f"congo {congo.__version__}", "author": "the congo developers"}
    options = congo_engine.options
    assert options["hash"] is options["Hash"]  # any case
    assert options["Threads"].type == "spin"
    assert options["Threads"].min == 1
    assert options["Clear Hash"].type == "button"
    assert options["null_move"].default is True
    assert options["Move Overhead"].default == 30
    assert "Ponder" in options
    assert options["Ponder"].is_managed()


def test_play_analyse_and_configure(congo_engine: SimpleEngine) -> None:
    board = congo.Board()
    result = congo_engine.play(board, Limit(depth=4))
    assert isinstance(result, PlayResult)
    assert result.move in board.legal_moves
    assert result.info["depth"] == 4
    assert isinstance(result.info["score"], PovScore)
    assert result.info["score"].turn == congo.WHITE
    assert result.info["pv"][0] == result.move
    assert result.ponder == result.info["pv"][1]
    # The same answer as the built-in engine, on a fresh table (one thread, depth: deterministic).
    congo_engine.configure({"Clear Hash": None})
    assert (
        congo_engine.play(board, Limit(depth=5)).move
        == congo.Engine(hash_mb=16).play(board, Limit(depth=5)).move
    )

    board = congo.Board(MONKEY_MATE)
    info = congo_engine.analyse(board, Limit(depth=3))
    assert info["score"].white().mate == 1
    assert info["pv"][0].uci() == "b1d3f5d7"
    infos = congo_engine.analyse(board, Limit(depth=3), multipv=3)
    assert [i["multipv"] for i in infos] == [1, 2, 3]
    assert infos[0]["score"].relative >= infos[1]["score"].relative >= infos[2]["score"].relative
    assert len({i["pv"][0] for i in infos}) == 3
    only = [board.parse_uci("d1c2")]
    assert congo_engine.play(board, Limit(depth=3), root_moves=only).move == only[0]

    congo_engine.configure({"Hash": 8, "null_move": False, "pawn": 120})
    assert congo_engine.config["Hash"] == 8
    assert congo_engine.config["null_move"] is False
    for bad, message in (
        ({"Nope": 1}, "no option"),
        ({"Hash": 0}, "at least 1"),
        ({"null_move": "maybe"}, "true or false"),
        ({"MultiPV": 2}, "set automatically"),
        ({"Clear Hash": 3}, "button"),
    ):
        with pytest.raises(EngineError, match=message):
            congo_engine.configure(bad)
    congo_engine.ping()


def test_play_on_a_clock_and_with_pondering(congo_engine: SimpleEngine) -> None:
    board = congo.Board()
    limit = Limit(white_clock=2.0, black_clock=2.0, white_inc=0.05, black_inc=0.05)
    start = time.perf_counter()
    result = congo_engine.play(board, limit, ponder=True)
    assert time.perf_counter() - start < 1.0
    assert result.move is not None
    assert result.ponder is not None
    # The engine ponders in the background; the next command stops it first.
    time.sleep(0.2)
    board.push(result.move)
    board.push(result.ponder)
    assert congo_engine.play(board, limit, game="next").move in board.legal_moves
    assert congo_engine.play(board, Limit(nodes=1)).move in board.legal_moves
    # A finished game: no move.
    finished = congo.Board(MONKEY_MATE)
    finished.push_uci("b1d3f5d7")
    played = congo_engine.play(finished, Limit(depth=2))
    assert played.move is None
    assert played.info["score"].relative.mate == 0


def test_analysis_iterates_and_stops(congo_engine: SimpleEngine) -> None:
    board = congo.Board()
    with congo_engine.analysis(board, multipv=2) as analysis:
        assert isinstance(analysis, AnalysisResult)
        depths = set()
        for info in analysis:
            if "depth" in info:
                depths.add(info["depth"])
            if len(depths) >= 4:
                break
    best = analysis.wait()
    assert best.move in board.legal_moves
    assert analysis.info["multipv"] == 1
    assert analysis.multipv[1]["multipv"] == 2
    # An analysis with a limit ends by itself; get() then says so.
    analysis = congo_engine.analysis(board, Limit(depth=3))
    assert analysis.wait().move is not None
    infos = list(analysis)
    assert infos
    assert infos[-1]["depth"] == 3
    assert analysis.next() is None
    # A command during an analysis ends it first.
    analysis = congo_engine.analysis(board)
    assert congo_engine.play(board, Limit(nodes=100)).move is not None
    assert analysis.wait().move is not None


def test_quit_is_final_and_idempotent() -> None:
    engine = SimpleEngine.popen_uci(CONGO_UCI)
    process = engine._connection.process
    engine.quit()
    assert process.poll() == 0
    engine.quit()
    with pytest.raises(EngineTerminatedError):
        engine.play(congo.Board(), Limit(nodes=1))


def test_the_foreign_engine(foreign: SimpleEngine) -> None:
    assert foreign.id["name"] == "Foreign Table Engine"
    assert foreign.options["Style"].var == ["solid", "wild"]
    board = congo.Board()
    result = foreign.play(board, Limit(time=0.05))
    assert result.move == board.parse_uci("a1c3")
    assert result.info["score"] == PovScore(Cp(result.info["score"].relative.cp or 0), congo.WHITE)
    infos = foreign.analyse(board, Limit(time=0.05), multipv=3)
    assert [i["pv"][0].uci() for i in infos] == ["a1c3", "g1f3", "e2d3"]
    foreign.configure({"Style": "wild", "Hash": 4})
    with pytest.raises(EngineError):
        foreign.configure({"Style": "reckless"})
    board.push_uci("a1c3")
    result = foreign.play(board, Limit(white_clock=3, black_clock=3))
    assert result.move == board.parse_uci("a7c5")
    white = result.info["score"].white().cp
    assert white is not None
    assert white > 0
    with foreign.analysis(board) as analysis:
        seen = [analysis.get() for _ in range(4)]
    assert analysis.wait().move == board.parse_uci("a7c5")
    bounded = [info for info in seen if info.get("upperbound")]
    assert len(bounded) == 1
    assert bounded[0]["depth"] == 2
    assert "lowerbound" not in bounded[0]
    # The exact score that came after replaced the bound in the merged info.
    assert "upperbound" not in analysis.info
    # A position it does not know: no move.
    board.push_uci("g7f5")
    assert foreign.play(board, Limit(time=0.05)).move is None


def test_an_engine_killed_in_the_middle_of_a_search() -> None:
    engine = SimpleEngine.popen_uci([*FOREIGN, "--think", "30"])
    process = engine._connection.process
    killer = threading.Timer(0.3, lambda: os.kill(process.pid, signal.SIGKILL))
    killer.start()
    start = time.perf_counter()
    with pytest.raises(EngineTerminatedError, match="died"):
        engine.play(congo.Board(), Limit(depth=5))
    assert time.perf_counter() - start < 5
    with pytest.raises(EngineTerminatedError):
        engine.ping()
    engine.quit()
    # The same during an analysis.
    engine = SimpleEngine.popen_uci(FOREIGN)
    analysis = engine.analysis(congo.Board())
    analysis.get()
    os.kill(engine._connection.process.pid, signal.SIGKILL)
    with pytest.raises(EngineTerminatedError):
        analysis.wait()
    engine.quit()


def test_a_crash_is_reported_with_its_last_words() -> None:
    engine = SimpleEngine.popen_uci([*FOREIGN, "--mode", "crash"])
    with pytest.raises(EngineTerminatedError, match=r"exit code 3.*simulated crash"):
        engine.play(congo.Board(), Limit(time=1))
    engine.quit()


def test_an_engine_that_hangs_times_out() -> None:
    engine = SimpleEngine.popen_uci([*FOREIGN, "--mode", "hang"], timeout=0.5)
    start = time.perf_counter()
    with pytest.raises(TimeoutError):
        engine.play(congo.Board(), Limit(time=0.1))
    # The search's time, the timeout, and a grace period for stop: then it is killed.
    assert time.perf_counter() - start < 10
    with pytest.raises(EngineTerminatedError):
        engine.play(congo.Board(), Limit(time=0.1))
    engine.quit()
    # A program that never completes the handshake.
    sleeper = [sys.executable, "-c", "import time; time.sleep(60)"]
    with pytest.raises(TimeoutError):
        SimpleEngine.popen_uci(sleeper, timeout=0.5)


def test_nonsense_and_illegal_moves_are_engine_errors() -> None:
    with SimpleEngine.popen_uci([*FOREIGN, "--mode", "nonsense"]) as engine:
        assert engine.id["name"] == "Foreign Table Engine"  # the garbage lines were skipped
        with pytest.raises(EngineError, match="illegal move 'banana'"):
            engine.play(congo.Board(), Limit(time=0.05))
        # Still usable afterwards: the bestmove was read.
        engine.ping()
    with (
        SimpleEngine.popen_uci([*FOREIGN, "--mode", "illegal"]) as engine,
        pytest.raises(EngineError, match="a1a7"),
    ):
        engine.play(congo.Board(), Limit(time=0.05))
    with pytest.raises(FileNotFoundError):
        SimpleEngine.popen_uci("/nonexistent/engine")


def test_no_process_outlives_its_client() -> None:
    engine = SimpleEngine.popen_uci(FOREIGN)
    process: subprocess.Popen[bytes] = engine._connection.process
    del engine
    import gc

    gc.collect()
    assert process.wait(timeout=10) is not None
