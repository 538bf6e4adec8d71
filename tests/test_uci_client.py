"""``congo.engine.SimpleEngine`` over real subprocesses: against ``congo uci``, and against a tiny
engine that does not use this library at all (``tests/foreign_engine.py``), including one killed in
the middle of a search, one that crashes, one that hangs and ones that answer nonsense."""

from __future__ import annotations

import asyncio
import os
import shlex
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import congo
from congo.engine import (
    AnalysisResult,
    Cp,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    Limit,
    PlayResult,
    PovScore,
    SimpleEngine,
)
from tests.engine_support import CONGO_UCI, FOREIGN, MONKEY_MATE, silent_engine, stopped_while_starting


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
    assert time.perf_counter() - start < 2.0  # before White's clock runs out
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
    assert time.perf_counter() - start < 20  # not the 30 s the search would take
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
    engine = SimpleEngine.popen_uci([*FOREIGN, "--mode", "hang"])
    engine.timeout = 0.5  # after the handshake, which a loaded machine may slow down
    start = time.perf_counter()
    with pytest.raises(TimeoutError):
        engine.play(congo.Board(), Limit(time=0.1))
    # The search's time, the timeout, and a grace period for stop: then it is killed (the bound
    # only tells that from waiting for ever).
    assert time.perf_counter() - start < 30
    with pytest.raises(EngineTerminatedError):
        engine.play(congo.Board(), Limit(time=0.1))
    engine.quit()
    # A program that never completes the handshake.
    sleeper = [sys.executable, "-c", "import time; time.sleep(60)"]
    with pytest.raises(TimeoutError):
        SimpleEngine.popen_uci(sleeper, timeout=0.5)


def test_a_start_is_cancelled_from_another_thread_while_the_handshake_waits(tmp_path: Path) -> None:
    silent, pid_file = silent_engine(tmp_path)
    cancel = threading.Event()
    # With no timeout only the cancel can end this start.
    error = stopped_while_starting(
        lambda: SimpleEngine.popen_uci(silent, timeout=None, cancel=cancel), cancel.set, pid_file
    )
    assert isinstance(error, EngineTerminatedError)
    assert "cancelled" in str(error)


def test_a_start_cancelled_before_it_begins_starts_nothing() -> None:
    cancel = threading.Event()
    cancel.set()
    # Not FileNotFoundError: the program is not even looked for.
    with pytest.raises(EngineTerminatedError, match="cancelled before it began"):
        SimpleEngine.popen_uci("/nonexistent/engine", cancel=cancel)


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
    process = engine._connection.process
    del engine
    import gc

    gc.collect()
    assert process.wait(timeout=10) is not None


@pytest.mark.skipif(not Path("/proc/self/task").is_dir() or os.name != "posix", reason="needs Linux /proc")
@pytest.mark.parametrize("end", ["timeout", "quit"])
def test_no_process_started_by_the_engine_outlives_its_client(end: str) -> None:
    """Review: an engine behind a wrapper (`sh -c "engine"`, as scripts and `uci:` players often
    are) that hung was 'killed' by killing the shell: the engine itself ran on, orphaned."""
    # `deaf`: reads nothing after the handshake (so never sees its input end); `; true`: the shell
    # forks the engine rather than becoming it.
    command = f"{shlex.join(FOREIGN)} --mode deaf; true"
    engine = SimpleEngine.popen_uci(["sh", "-c", command], search_timeout=0.3)
    engine.timeout = 0.5  # after the handshake: a slow start on a loaded machine fails nothing
    shell = engine._connection.process.pid
    children = Path(f"/proc/{shell}/task/{shell}/children").read_text().split()
    assert len(children) == 1
    inner = int(children[0])
    if end == "timeout":
        with pytest.raises(EngineError):  # a timeout, or a command it did not read in time
            engine.play(congo.Board(), Limit(depth=5))
    engine.quit()
    deadline = time.monotonic() + 10
    while _alive(inner) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(inner), f"the engine {inner} outlived its client"


def _alive(pid: int) -> bool:
    """Whether a process runs (a zombie, dead but not yet reaped by its new parent, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


CLOSES_ITS_OUTPUT = """
import os, sys, time
for line in sys.stdin:
    if line.startswith("uci"):
        print("id name closer\\nuciok", flush=True)
    elif line.startswith("isready"):
        print("readyok", flush=True)
    elif line.startswith("go"):
        os.close(1)
        time.sleep(3600)
"""


def test_an_engine_that_closes_its_output_mid_search_is_said_so_and_killed() -> None:
    """Review: an engine that closed its output but ran on was reported as 'the engine process
    died' and left running until quit."""
    engine = SimpleEngine.popen_uci([sys.executable, "-c", CLOSES_ITS_OUTPUT], search_timeout=30)
    with pytest.raises(EngineTerminatedError, match="closed its output during a search"):
        engine.play(congo.Board(), Limit(depth=5))
    assert engine._connection.process.wait(timeout=10) is not None
    engine.quit()


# -- every wait has an end -----------------------------------------------------------


def test_a_hung_engine_times_out_under_depth_and_node_limits() -> None:
    board = congo.Board()
    # The engine's own default for a search that only depth or nodes bound.
    engine = SimpleEngine.popen_uci([*FOREIGN, "--mode", "hang"], search_timeout=0.5)
    with pytest.raises(EngineTimeoutError) as raised:
        engine.play(board, Limit(depth=5))
    assert isinstance(raised.value, EngineError)
    assert isinstance(raised.value, TimeoutError)
    # It did not answer stop either: it was killed, and the client says so.
    assert engine._connection.process.poll() is not None
    with pytest.raises(EngineTerminatedError):
        engine.play(board, Limit(nodes=10))
    engine.quit()
    # A timeout of the call itself, under a node limit, with no default at all.
    engine = SimpleEngine.popen_uci([*FOREIGN, "--mode", "hang"], search_timeout=None)
    with pytest.raises(EngineTimeoutError):
        engine.analyse(board, Limit(nodes=10), timeout=0.2)
    engine.quit()
    # An analysis with a depth limit ends with the timeout too.
    engine = SimpleEngine.popen_uci([*FOREIGN, "--mode", "hang"], search_timeout=0.3)
    analysis = engine.analysis(board, Limit(depth=3))
    with pytest.raises(EngineTimeoutError):
        analysis.wait()
    engine.quit()


def test_a_search_that_overruns_but_answers_stop_leaves_the_engine_usable() -> None:
    board = congo.Board()
    with SimpleEngine.popen_uci([*FOREIGN, "--think", "30"], timeout=5) as engine:
        with pytest.raises(EngineTimeoutError, match="in time"):
            engine.play(board, Limit(depth=5), timeout=0.3)
        assert engine._connection.process.poll() is None
        engine.ping()
        assert engine.play(board, Limit(time=0.05)).move == board.parse_uci("a1c3")


def test_timeouts_are_checked() -> None:
    with pytest.raises(ValueError, match="search_timeout"):
        SimpleEngine.popen_uci(FOREIGN, search_timeout=-1)
    with pytest.raises(ValueError, match="timeout"):
        SimpleEngine.popen_uci(FOREIGN, timeout=float("nan"))
    with SimpleEngine.popen_uci(FOREIGN) as engine:
        with pytest.raises(TypeError, match="timeout"):
            engine.play(congo.Board(), Limit(time=0.05), timeout="soon")  # type: ignore[arg-type]
        assert engine.play(congo.Board(), Limit(time=0.05)).move is not None


def test_an_engine_that_reads_nothing_cannot_block_a_call() -> None:
    board = congo.Board()
    engine = SimpleEngine.popen_uci([*FOREIGN, "--mode", "deaf"])
    engine.timeout = 0.5  # after the handshake, which a loaded machine may slow down
    with pytest.raises(EngineTimeoutError, match="killed"):
        engine.play(board, Limit(depth=1))
    # An engine that does not answer a quick exchange is closed, not left out of step.
    with pytest.raises(EngineTerminatedError):
        engine.ping()
    engine.quit()
    # A write far longer than a pipe holds, to an engine that no longer reads: it has an end too.
    engine = SimpleEngine.popen_uci([*FOREIGN, "--mode", "deaf"])
    with pytest.raises(EngineTimeoutError, match="did not read"):
        engine._connection.send("x" * 10_000_000, time.monotonic() + 0.5)
    with pytest.raises(EngineTerminatedError):
        engine.ping()
    engine.quit()


# -- bounded lines -------------------------------------------------------------------------------


def _split(chunks: list[bytes], max_line: int) -> list[object]:
    from congo._uci_process import _split_lines, _TooLong

    pending = list(chunks)

    def read(_: int) -> bytes:
        return pending.pop(0) if pending else b""

    lines = [line for batch in _split_lines(read, max_line) for line in batch]
    return [f"too long: {x.size}" if isinstance(x, _TooLong) else x for x in lines]


def test_lines_are_read_in_blocks_and_bounded() -> None:
    assert _split([b"ab\ncd", b"e\r\nfg\n\n", b"last"], 5) == [b"ab", b"cde", b"fg", b"", b"last"]
    # A line of exactly the bound is a line; one byte more and it is skipped whole, even when it
    # spans blocks, and what follows it is read as usual.
    assert _split([b"12345\n123456\nok\n"], 5) == [b"12345", "too long: 6", b"ok"]
    assert _split([b"1234", b"5678", b"9\nok", b"\n"], 5) == ["too long: 9", b"ok"]
    assert _split([b"123", b"456789"], 5) == ["too long: 9"]


def test_a_skipped_line_is_said_with_its_size_and_the_bound(caplog: pytest.LogCaptureFixture) -> None:
    from congo._uci_process import _MAX_LINE, _TooLong

    with caplog.at_level("WARNING", logger="congo.engine"):
        _TooLong(_MAX_LINE + 7).warn()
    assert caplog.messages == [
        f"skipped a line of {_MAX_LINE + 7} bytes from the engine (lines are at most {_MAX_LINE} bytes)"
    ]


def test_an_over_long_line_is_skipped_whole_never_read_as_several() -> None:
    # The engine's line of over 1 MiB has "bestmove e2d3" after its first MiB: a client that cut
    # it into pieces would take that for the answer.
    with SimpleEngine.popen_uci([*FOREIGN, "--mode", "longline"]) as engine:
        board = congo.Board()
        assert engine.play(board, Limit(time=0.05)).move == board.parse_uci("a1c3")
        engine.ping()


# -- errors the engine reports are errors of the call ----------------------------------------------


def test_an_option_the_engine_refuses_is_an_error_and_not_recorded(
    congo_engine: SimpleEngine, tmp_path: Path
) -> None:
    with pytest.raises(EngineError, match="refused option Hash"):
        congo_engine.configure({"Hash": 1048576})
    assert "Hash" not in congo_engine.config
    missing = tmp_path / "nonexistent"
    with pytest.raises(EngineError, match="refused option TablebasePath"):
        congo_engine.configure({"TablebasePath": str(missing)})
    assert "TablebasePath" not in congo_engine.config
    # The options before the refused one were taken; the engine is still in step.
    with pytest.raises(EngineError):
        congo_engine.configure({"Hash": 8, "TablebasePath": str(missing)})
    assert congo_engine.config["Hash"] == 8
    assert congo_engine.play(congo.Board(), Limit(depth=2)).move is not None
    # The same through play's options, and from an engine that does not use this library.
    with pytest.raises(EngineError, match="refused"):
        congo_engine.play(congo.Board(), Limit(depth=2), options={"Hash": 1048576})
    with SimpleEngine.popen_uci(FOREIGN) as foreign:
        foreign.configure({"Hash": 16})
        with pytest.raises(EngineError, match="cannot allocate"):
            foreign.configure({"Hash": 48})
        assert foreign.config["Hash"] == 16


def _long_game(capture_at_the_end: bool) -> congo.Board:
    """A game of 220,001 plies (its position command over 1 MiB with every move), ending with a
    capture into a mate in one for White, or just before that capture."""
    board = congo.Board("7/4l2/7/4c2/2p4/2P4/1M1L3 b 1")
    for _ in range(55_000):
        for move in ("e6e7", "d1e1", "e7e6", "e1d1"):
            board.push_uci(move)
    if capture_at_the_end:
        board.push_uci("c3c2")
    return board


def test_a_long_game_is_sent_from_its_last_irreversible_move() -> None:
    from congo._uci_protocol import _position_command

    board = _long_game(capture_at_the_end=True)
    assert _position_command(board) == f"position fen {board.fen()}"
    after_capture = board.fen()
    board.push_uci("d1e1")
    assert _position_command(board) == f"position fen {after_capture} moves d1e1"
    # A game without irreversible moves is sent whole; from the start position as startpos.
    start = congo.Board()
    start.push_uci("a1c3")
    assert _position_command(start) == "position startpos moves a1c3"
    assert _position_command(congo.Board()) == "position startpos"


@pytest.mark.slow
def test_positions_too_long_for_the_engine_are_errors_not_old_answers(congo_engine: SimpleEngine) -> None:
    # The engine's answer for the previous position must never come back for this one.
    start = congo.Board()
    assert congo_engine.play(start, Limit(depth=1)).move in start.legal_moves
    board = _long_game(capture_at_the_end=True)
    assert congo_engine.play(board, Limit(depth=2)).move == board.parse_uci("b1d3f5d7")
    board.pop()  # no capture: every one of the 220,000 moves can matter for repetitions
    with pytest.raises(EngineError, match="rejected the position"):
        congo_engine.play(board, Limit(depth=1))
    with pytest.raises(EngineError, match="rejected the position"):
        congo_engine.analyse(board, Limit(depth=1))
    assert congo_engine.play(start, Limit(depth=1)).move in start.legal_moves


def test_a_rejected_position_or_a_failed_go_is_an_error() -> None:
    board = congo.Board()
    with SimpleEngine.popen_uci([*FOREIGN, "--mode", "reject"]) as engine:
        assert engine.play(board, Limit(time=0.05)).move == board.parse_uci("a1c3")
        board.push_uci("a1c3")
        # It kept the start position and would answer a1c3 again, not a move of this one.
        with pytest.raises(EngineError, match="I only take the start position"):
            engine.play(board, Limit(time=0.05))
        with pytest.raises(EngineError, match="rejected the position"):
            engine.analysis(board, Limit(time=0.05))
        engine.ping()
    with SimpleEngine.popen_uci([*FOREIGN, "--mode", "goerror"]) as engine:
        with pytest.raises(EngineError, match="something went wrong"):
            engine.play(congo.Board(), Limit(time=0.05))
        with pytest.raises(EngineError, match="something went wrong"):
            engine.analysis(congo.Board(), Limit(time=0.05)).wait()
        engine.ping()  # still in step: the bestmove was read


def test_an_analysis_nobody_iterates_over_keeps_a_bounded_number_of_infos() -> None:
    from congo._uci_client import _MAX_QUEUED_INFOS

    analysis = AnalysisResult(None)
    for nodes in range(2 * _MAX_QUEUED_INFOS):
        analysis._post({"depth": 1, "nodes": nodes})
    analysis._finish()
    kept = list(analysis)
    assert len(kept) < _MAX_QUEUED_INFOS
    assert kept[-1]["nodes"] == 2 * _MAX_QUEUED_INFOS - 1  # the newest are kept
    assert analysis.info["nodes"] == 2 * _MAX_QUEUED_INFOS - 1


LINE_BYTES = st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"").replace(b"\r", b""))


@given(
    lines=st.lists(LINE_BYTES, max_size=30),
    cuts=st.lists(st.integers(min_value=0, max_value=2000), max_size=20),
    max_line=st.integers(min_value=1, max_value=30),
    crlf=st.booleans(),
    last_end=st.booleans(),
)
def test_line_splitting_is_the_same_however_the_stream_is_cut(
    lines: list[bytes], cuts: list[int], max_line: int, crlf: bool, last_end: bool
) -> None:
    # Each line comes out once, whole, or as one "too long" of its length: wherever the blocks end.
    end = b"\r\n" if crlf else b"\n"
    stream = end.join(lines) + (end if last_end and lines else b"")
    points = sorted({0, len(stream), *(cut for cut in cuts if cut < len(stream))})
    chunks = [stream[a:b] for a, b in zip(points, points[1:])]
    expected: list[object] = []
    for number, line in enumerate(lines):
        last = number == len(lines) - 1
        if last and not last_end and not line:
            break  # an empty last line without its end is nothing
        raw = len(line) + (1 if crlf and not (last and not last_end) else 0)  # with its "\r"
        expected.append(line if raw <= max_line else f"too long: {raw}")
    assert _split(chunks, max_line) == expected


def test_an_engines_warning_is_logged_as_a_warning(
    congo_engine: SimpleEngine, caplog: pytest.LogCaptureFixture
) -> None:
    # A weight of the hand-written evaluation while the network evaluates: congo uci warns at the
    # next search, and the client passes it on at WARNING (seen by default), not at INFO.
    congo_engine.configure({"tempo": 0})
    with caplog.at_level("WARNING", logger="congo.engine"):
        congo_engine.play(congo.Board(), Limit(depth=1))
    warned = [r for r in caplog.records if "no effect while nnue is on: tempo" in r.getMessage()]
    assert len(warned) == 1
    assert warned[0].levelname == "WARNING"
    caplog.clear()
    congo_engine.configure({"nnue": False})
    with caplog.at_level("WARNING", logger="congo.engine"):
        congo_engine.play(congo.Board(), Limit(depth=1))
    assert not [r for r in caplog.records if "no effect" in r.getMessage()]


def test_a_ctrl_c_during_a_call_stops_the_search_and_the_engine_answers_the_next_one(
    congo_engine: SimpleEngine,
) -> None:
    # The blocking wrapper cancels the call on the engine's loop, as cancelling a task does: the
    # engine is told stop, and the next call reads that search's bestmove before its own.
    process = congo_engine._connection.process
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started with it ignored
    timer = threading.Timer(0.5, signal.raise_signal, (signal.SIGINT,))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        congo_engine.play(congo.Board(), Limit())  # no limit: only stop ends it
    timer.join()
    board = congo.Board()
    assert congo_engine.play(board, Limit(depth=2)).move in board.legal_moves
    assert process.poll() is None  # the same process, never killed
    assert congo_engine._connection.process is process


@given(
    lines=st.lists(LINE_BYTES | st.sampled_from([b"\xe2\x82", "é".encode(), b"bestmove a1c3"]), max_size=30),
    cuts=st.lists(st.integers(min_value=0, max_value=2000), max_size=20),
    crlf=st.booleans(),
)
def test_the_asyncio_reader_gives_the_splitters_lines(
    lines: list[bytes], cuts: list[int], crlf: bool
) -> None:
    # The reader takes a block of whole lines at once, decoded together: the same lines as the
    # splitter's, wherever the blocks end.
    from congo._uci_process import _MAX_LINE, _EngineProcess

    stream = (b"\r\n" if crlf else b"\n").join(lines) + (b"\n" if lines else b"")
    points = sorted({0, len(stream), *(cut for cut in cuts if cut < len(stream))})
    chunks = [stream[a:b] for a, b in zip(points, points[1:])]

    async def read() -> list[object]:
        process = _EngineProcess(asyncio.get_running_loop(), own_group=False)
        for chunk in chunks:
            process.pipe_data_received(1, chunk)
        process.pipe_connection_lost(1, None)
        assert process._pending == sum(len(x) + 64 if isinstance(x, str) else 64 for x in process._lines)
        return list(process._lines)

    expected: list[object] = [
        x.decode("utf-8", "replace") if isinstance(x, bytes) else x for x in _split(chunks, _MAX_LINE)
    ]
    assert asyncio.run(read()) == [*expected, None]


MULTIPV_ENGINE = """
import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name lines\\nuciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        for rank in ("30000000", "-3", "0", "x", "2"):
            print(f"info depth 3 multipv {rank} score cp 7 pv a2a3", flush=True)
        print("bestmove a2a3", flush=True)
    elif word == "quit":
        break
"""


def test_an_engines_line_number_outside_any_line_is_ignored(tmp_path: Path) -> None:
    """One `info multipv 30000000` made the client build a list of 30 million lines (4.1 GiB in
    60 s); `multipv -3` raised IndexError out of the analysis."""
    from congo._uci_protocol import _MAX_MULTIPV, _parse_info

    for bad in ("30000000", str(_MAX_MULTIPV + 1), "-3", "0"):
        assert "multipv" not in _parse_info(f"info depth 3 multipv {bad} nodes 5", congo.Board())
        assert _parse_info(f"info depth 3 multipv {bad} nodes 5", congo.Board())["nodes"] == 5
    assert _parse_info(f"info multipv {_MAX_MULTIPV}", congo.Board())["multipv"] == _MAX_MULTIPV
    script = tmp_path / "lines.py"
    script.write_text(MULTIPV_ENGINE, encoding="utf-8")
    engine = SimpleEngine.popen_uci([sys.executable, str(script)], timeout=30)
    try:
        with engine.analysis(congo.Board(), Limit(depth=3)) as analysis:
            analysis.wait()
        assert len(analysis.multipv) == 2
        assert analysis.multipv[1]["depth"] == 3
        assert engine.play(congo.Board(), Limit(depth=3)).move == congo.Move.from_uci("a2a3")
    finally:
        engine.quit()


ERROR_FLOOD_ENGINE = """
import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name errors\\nuciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        sys.stdout.write("".join(f"info string error number {n}\\n" for n in range(50_000)))
        print("bestmove a2a3", flush=True)
    elif word == "quit":
        break
"""


def test_an_engine_repeating_an_error_is_not_kept_without_end(tmp_path: Path) -> None:
    """Every `info string error` line of a search was kept for its EngineError: an engine repeating
    one grew the client (and the message) without bound, under timeout=None for ever."""
    from congo._uci_client import _MAX_ERRORS

    script = tmp_path / "errors.py"
    script.write_text(ERROR_FLOOD_ENGINE, encoding="utf-8")
    engine = SimpleEngine.popen_uci([sys.executable, str(script)], timeout=60)
    try:
        with pytest.raises(EngineError) as error:
            engine.play(congo.Board(), Limit(depth=1))
        text = str(error.value)
        assert "search: number 0; number 1;" in text
        assert f"number {_MAX_ERRORS - 1};" in text
        assert f"number {_MAX_ERRORS};" not in text
        assert text.endswith("… (more errors)")
    finally:
        engine.quit()


# -- what a search sends ----------------------------------------------------------------


LOGGING_ENGINE = """
import sys
log = open(sys.argv[1], "a", encoding="utf-8")
for line in sys.stdin:
    log.write(line)
    log.flush()
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name logger\\noption name MultiPV type spin default 1 min 1 max 4\\nuciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        print("info depth 1 score cp 5 pv a1c3\\nbestmove a1c3", flush=True)
    elif word == "quit":
        break
"""


def test_analyse_and_play_send_the_position_and_go_with_nothing_between(tmp_path: Path) -> None:
    """Their bestmove is their point of sync: an isready before each go cost a round trip of the
    engine (benches/engine_overhead.py). analysis, which returns while the engine searches, still
    confirms the position with one."""
    script, log = tmp_path / "logger.py", tmp_path / "commands.txt"
    script.write_text(LOGGING_ENGINE, encoding="utf-8")
    board = congo.Board()
    with SimpleEngine.popen_uci([sys.executable, str(script), str(log)], timeout=30) as engine:
        engine.analyse(board, Limit(depth=1))  # the first sets MultiPV (and waits for readyok)
        start = len(log.read_text(encoding="utf-8").splitlines())
        assert engine.analyse(board, Limit(depth=1))["pv"] == [board.parse_uci("a1c3")]
        assert engine.play(board, Limit(depth=1)).move == board.parse_uci("a1c3")
        searches = log.read_text(encoding="utf-8").splitlines()[start:]
        assert searches == [
            "position startpos",
            "go depth 1",
            "position startpos",
            "go depth 1",
        ]
        with engine.analysis(board, Limit(depth=1)) as analysis:
            analysis.wait()
        last = log.read_text(encoding="utf-8").splitlines()[-3:]
        assert last == ["position startpos", "isready", "go depth 1"]


REJECTS_AND_IGNORES_GO = """
import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name sulker\\nuciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "position" and "moves" in line:
        print("info string error: position rejected", flush=True)
    elif word == "go" and "infinite" not in line:
        pass  # neither a search nor a bestmove, not even after stop
    elif word == "quit":
        break
"""


def test_a_rejected_position_whose_go_is_never_answered_is_given_up_after_the_stop_grace(
    tmp_path: Path,
) -> None:
    """Once the engine has refused the position, its bestmove is waited for as after any stop (the
    grace), not for the whole search's time (here 10 minutes)."""
    script = tmp_path / "sulker.py"
    script.write_text(REJECTS_AND_IGNORES_GO, encoding="utf-8")
    board = congo.Board()
    board.push_uci("a1c3")
    engine = SimpleEngine.popen_uci([sys.executable, str(script)], timeout=30, search_timeout=600)
    try:
        # Killed: an EngineTerminatedError, which a match counts as the engine's failure (not as
        # an illegal move, as any other EngineError).
        with pytest.raises(EngineTerminatedError, match="rejected the position") as raised:
            engine.play(board, Limit(depth=5))
        assert not isinstance(raised.value, TimeoutError)
        assert "did not answer stop in time and was killed" in str(raised.value)
        assert engine._connection.process.wait(timeout=10) is not None
    finally:
        engine.quit()


ANSWERS_EVERY_STOP = """
import sys, threading, time
def say(text):
    sys.stdout.write(text + "\\n")
    sys.stdout.flush()
lock = threading.Lock()
searching = [0]  # the number of the running search; 0: none
started = [0]
accepted, best = True, "a1c3"
def search(number, move):
    for depth in (1, 2, 3):
        with lock:
            if searching[0] != number:
                return
            say(f"info depth {depth} score cp {depth} pv {move}")
        time.sleep(0.02)
    with lock:
        if searching[0] == number:
            searching[0] = 0
            say(f"bestmove {move}")
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        say("id name answers-every-stop\\nuciok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "position":
        accepted = len(words) <= 4  # startpos, or one move after it
        if accepted:
            best = "a7c5" if len(words) == 4 else "a1c3"
        else:
            say("info string error: position rejected: too many moves")
    elif words[0] == "go":
        if accepted:
            with lock:
                started[0] += 1
                searching[0] = started[0]
            threading.Thread(target=search, args=(started[0], best), daemon=True).start()
        else:
            say("info string error: no position; no search")
            say("bestmove (none)")
    elif words[0] == "stop":
        with lock:  # searching or not, as many engines do
            searching[0] = 0
            say(f"bestmove {best}")
    elif words[0] == "quit":
        break
"""


def test_a_bestmove_answering_a_stop_is_never_taken_for_the_next_search(tmp_path: Path) -> None:
    """Review: the stop sent after a rejected position reached an engine that had already answered
    (bestmove (none)); it answered the stop with another bestmove, which the next call took for its
    own, and every call after was one answer behind. An isready after every stop the client sends
    marks where such answers end."""
    script = tmp_path / "stops.py"
    script.write_text(ANSWERS_EVERY_STOP, encoding="utf-8")
    start, after = congo.Board(), congo.Board()
    after.push_uci("a1c3")
    rejected = after.copy()
    rejected.push_uci("a7c5")
    with SimpleEngine.popen_uci([sys.executable, str(script)], timeout=30) as engine:
        with pytest.raises(EngineError, match="rejected the position"):
            engine.play(rejected, Limit(depth=3))
        for board, answer in ((after, "a7c5"), (start, "a1c3"), (start, "a1c3"), (after, "a7c5")):
            assert engine.play(board, Limit(depth=3)).move == board.parse_uci(answer)
        # A search cancelled by a timeout is stopped the same way: no stale answer comes after.
        with pytest.raises(EngineTimeoutError):
            engine.play(start, Limit(depth=3), timeout=0.001)
        assert engine.analyse(after, Limit(depth=3))["pv"][0] == after.parse_uci("a7c5")


SLOW_TO_REJECT = """
import sys, threading, time
def say(text):
    sys.stdout.write(text + "\\n")
    sys.stdout.flush()
def search():
    time.sleep(0.3)
    say("info depth 1 score cp 5 pv a1c3")
    say("bestmove a1c3")
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        say("id name slow\\nuciok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "position" and "moves" in words:
        say("info string error: position rejected")
    elif words[0] == "go":
        threading.Thread(target=search, daemon=True).start()
    elif words[0] == "quit":
        break
"""


def test_a_rejected_position_under_a_short_timeout_leaves_the_engine_the_stop_grace(tmp_path: Path) -> None:
    """Review: the wait after a refusal ended at the call's own timeout (0.1 s here), and the
    engine, answering 0.3 s later, was killed; a timed-out search's engine has the grace of any
    stop, and so has this one."""
    script = tmp_path / "slow.py"
    script.write_text(SLOW_TO_REJECT, encoding="utf-8")
    board = congo.Board()
    board.push_uci("a1c3")
    with SimpleEngine.popen_uci([sys.executable, str(script)], timeout=30) as engine:
        with pytest.raises(EngineError, match="rejected the position") as raised:
            engine.analyse(board, Limit(depth=1), timeout=0.1)
        assert not isinstance(raised.value, EngineTerminatedError)
        engine.ping()  # alive, and in step
        assert engine.play(congo.Board(), Limit(depth=1)).move == congo.Board().parse_uci("a1c3")


SLOW_AFTER_STOP = """
import sys, threading, time
lock = threading.Lock()
def say(text):
    with lock:
        sys.stdout.write(text + "\\n")
        sys.stdout.flush()
running = [0]
started = [0]
def search(number, depth):
    for done in range(1, depth + 1):
        time.sleep(0.02)
        with lock:
            if running[0] != number:
                return
        say(f"info depth {done} score cp 1 pv a1c3")
    with lock:
        if running[0] == number:
            running[0] = 0
            sys.stdout.write("bestmove a1c3\\n")
            sys.stdout.flush()
stopped = False
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if stopped:  # a stop costs it a second before it reads on (its readyok comes that late)
        time.sleep(1.0)
        stopped = False
    if words[0] == "uci":
        say("id name slow-after-stop\\nuciok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "go":
        depth = int(words[words.index("depth") + 1]) if "depth" in words else 100_000
        with lock:
            started[0] += 1
            running[0] = started[0]
        threading.Thread(target=search, args=(started[0], depth), daemon=True).start()
    elif words[0] == "stop":
        with lock:
            if running[0]:
                running[0] = 0
                sys.stdout.write("bestmove a1c3\\n")
                sys.stdout.flush()
        stopped = True
    elif words[0] == "quit":
        break
"""


def test_the_isready_after_a_stop_has_the_timeout_of_any_isready(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review: the readyok after a stop had only the stop's grace (2 s, here 0.3 s), not the
    engine's timeout: an engine that answered stop at once but took a moment before reading on was
    killed, silently after a timed-out call; and a timed-out call waited for that readyok too."""
    from congo import _uci_client

    monkeypatch.setattr(_uci_client, "_STOP_GRACE", 0.3)
    script = tmp_path / "slow.py"
    script.write_text(SLOW_AFTER_STOP, encoding="utf-8")
    board = congo.Board()
    a1c3 = board.parse_uci("a1c3")
    with SimpleEngine.popen_uci([sys.executable, str(script)], timeout=30) as engine:
        with pytest.raises(EngineTimeoutError):  # ends once the engine has stopped
            engine.play(board, Limit(depth=100), timeout=0.2)
        assert engine.play(board, Limit(depth=2)).move == a1c3  # alive, in step
        with engine.analysis(board) as analysis:
            assert analysis.get()["pv"] == [a1c3]
        assert analysis.wait().move == a1c3
        engine.ping()  # its readyok came a second late: within the timeout
        assert engine.analyse(board, Limit(depth=2))["depth"] == 2
