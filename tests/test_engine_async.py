"""``congo.engine`` under asyncio: ``popen_uci``'s engines and the built-in engine's
``Engine.asyncio()``, driven from one event loop; and the one analysis type that the built-in
engine and ``SimpleEngine`` share."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Awaitable, Iterator
from pathlib import Path
from typing import Any, Callable, TypeVar, Union

import pytest

import congo
from congo.engine import (
    AnalysisResult,
    AsyncAnalysisResult,
    AsyncEngine,
    BestMove,
    EngineTerminatedError,
    EngineTimeoutError,
    Limit,
    PovScore,
    SimpleEngine,
    UciProtocol,
    popen_uci,
)
from tests.engine_support import CONGO_UCI, FOREIGN, MONKEY_MATE

T = TypeVar("T")
AsyncKind = Union[UciProtocol, AsyncEngine]


def run(main: Callable[[], Awaitable[T]]) -> T:
    async def bounded() -> T:
        # No timed assertion: a generous bound that only tells a hang from an answer.
        return await asyncio.wait_for(main(), 300)

    return asyncio.run(bounded())


def _boards(count: int) -> list[congo.Board]:
    """``count`` different positions: the games that follow the n-th legal move, then the first."""
    boards = []
    for n in range(count):
        board = congo.Board()
        for ply in range(n % 7):
            moves = sorted(board.legal_moves, key=lambda m: m.uci())
            board.push(moves[(n + ply) % len(moves)])
        boards.append(board)
    return boards


def _check_info(info: dict[str, Any], board: congo.Board, depth: int) -> None:
    assert info["depth"] == depth
    assert isinstance(info["score"], PovScore)
    assert info["score"].turn == board.turn
    assert info["pv"]
    assert info["pv"][0] in board.legal_moves
    assert info["nodes"] >= 1


def test_sixty_four_engines_from_one_event_loop() -> None:
    boards = _boards(64)

    async def main() -> list[int]:
        # A generous handshake: 64 interpreters start at once on a machine that may have 2 cores.
        started = await asyncio.gather(
            *(popen_uci(CONGO_UCI, timeout=240) for _ in boards), return_exceptions=True
        )
        engines = [pair[1] for pair in started if not isinstance(pair, BaseException)]
        try:
            assert len(engines) == 64, [error for error in started if isinstance(error, BaseException)]
            assert len({engine.pid for engine in engines}) == 64
            infos = await asyncio.gather(
                *(engine.analyse(board, Limit(depth=1)) for engine, board in zip(engines, boards))
            )
            for info, board in zip(infos, boards):
                _check_info(info, board, 1)
            # The engines differ in what they were asked: each answered its own position.
            assert len({info["pv"][0] for info in infos}) > 1
        finally:
            await asyncio.gather(*(engine.quit() for engine in engines), return_exceptions=True)
        return [await engine.returncode for engine in engines]

    assert run(main) == [0] * 64


class _Lines(logging.Handler):
    """The client's log of what it sent and read (``<<`` and ``>>`` lines, at DEBUG)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())

    def sent(self, command: str) -> int:
        return sum(1 for message in self.messages if message.split(" << ", 1)[-1] == command)

    def read(self, prefix: str) -> bool:
        return any(message.split(" >> ", 1)[-1].startswith(prefix) for message in self.messages)


@pytest.fixture
def lines() -> Iterator[_Lines]:
    handler = _Lines()
    logger = logging.getLogger("congo.engine")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


async def _until(condition: Callable[[], bool]) -> None:
    for _ in range(3000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never came true")


@pytest.mark.parametrize("command", [CONGO_UCI, [*FOREIGN, "--think", "600"]], ids=["congo", "foreign"])
def test_cancelling_a_task_mid_search_sends_stop_and_the_engine_answers_the_next_call(
    command: list[str], lines: _Lines
) -> None:
    board = congo.Board()

    async def main() -> None:
        _, engine = await popen_uci(command, timeout=60)
        try:
            # Infinite for congo uci, ten minutes for the foreign engine: only stop ends either.
            search = asyncio.ensure_future(
                engine.analyse(board, Limit() if command == CONGO_UCI else Limit(depth=99))
            )
            await _until(lambda: lines.read("info depth"))  # it is searching
            assert lines.sent("stop") == 0
            search.cancel()
            with pytest.raises(asyncio.CancelledError):
                await search
            assert lines.sent("stop") == 1  # at once, not at the next call
            # The next call reads the stopped search's bestmove, then gets its own answer.
            result = await engine.play(board, Limit(depth=1) if command == CONGO_UCI else Limit(time=0.05))
            assert result.move in board.legal_moves
            assert engine.returncode.done() is False  # the same process: not killed and restarted
            # The same for an analysis whose consumer is cancelled while it waits for an info.
            analysis = await engine.analysis(board)

            async def consume() -> None:
                async for _ in analysis:
                    pass

            consumer = asyncio.ensure_future(consume())
            await asyncio.sleep(0.05)
            consumer.cancel()
            with pytest.raises(asyncio.CancelledError):
                await consumer
            analysis.stop()
            assert (await analysis.wait()).move in board.legal_moves
            await engine.ping()
        finally:
            await engine.quit()
        assert await engine.returncode == 0

    run(main)


def test_cancelling_a_built_in_search_stops_it_and_the_engine_answers_the_next_call() -> None:
    board = congo.Board()

    async def main() -> None:
        async with congo.Engine(hash_mb=16).asyncio() as engine:
            search = asyncio.ensure_future(engine.analyse(board, Limit()))  # until stopped
            await asyncio.sleep(0.2)
            # The loop ran while the engine searched (a blocking search would never let it).
            assert not search.done()
            search.cancel()
            with pytest.raises(asyncio.CancelledError):
                await search
            assert (await engine.play(board, Limit(depth=2))).move in board.legal_moves
            # Cancelled before its search could begin (queued behind another): nothing is lost.
            first = asyncio.ensure_future(engine.analyse(board, Limit()))
            second = asyncio.ensure_future(engine.analyse(board, Limit()))
            await asyncio.sleep(0.05)
            second.cancel()
            first.cancel()
            for task in (first, second):
                with pytest.raises(asyncio.CancelledError):
                    await task
            assert (await engine.analyse(board, Limit(depth=3)))["depth"] == 3

    run(main)


@pytest.mark.parametrize("kind", ["uci", "built-in"])
def test_wait_for_bounds_a_call_and_the_engine_stays_usable(kind: str) -> None:
    board = congo.Board()

    async def main() -> None:
        engine: AsyncKind
        if kind == "uci":
            _, engine = await popen_uci(CONGO_UCI, timeout=60)
        else:
            engine = congo.Engine(hash_mb=16).asyncio()
        try:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(engine.play(board, Limit()), 0.3)  # an unlimited search
            info = await asyncio.wait_for(engine.analyse(board, Limit(depth=3)), 120)
            _check_info(info, board, 3)
        finally:
            await engine.quit()

    run(main)


def test_every_wait_of_the_asyncio_client_has_an_end() -> None:
    board = congo.Board()

    async def main() -> None:
        # An engine that never answers go: the search's own bound, then it is killed.
        _, engine = await popen_uci([*FOREIGN, "--mode", "hang"], search_timeout=0.5)
        with pytest.raises(EngineTimeoutError):
            await engine.play(board, Limit(depth=5))
        with pytest.raises(EngineTerminatedError):
            await engine.ping()
        await engine.quit()
        # A program that never completes the handshake.
        with pytest.raises(EngineTimeoutError):
            await popen_uci([sys.executable, "-c", "import time; time.sleep(60)"], timeout=0.5)

    run(main)


# -- one analysis type ---------------------------------------------------------------------------


def _analyse_with(engine: Any, board: congo.Board) -> tuple[list[tuple[Any, ...]], BestMove, dict[str, Any]]:
    """What an analysing program does, written once for any engine: the lines of every iteration,
    the best move, and the merged info of the best line."""
    with engine.analysis(board, Limit(depth=5), multipv=2) as analysis:
        assert isinstance(analysis, AnalysisResult)
        seen = [
            (info["depth"], info["multipv"], info["score"], tuple(info["pv"]))
            for info in analysis
            if "score" in info and not {"lowerbound", "upperbound"} & info.keys()
        ]
    best = analysis.wait()
    assert analysis.next() is None
    assert analysis.multipv[1]["multipv"] == 2
    return seen, best, dict(analysis.info)


@pytest.mark.parametrize("fen", [congo.STARTING_FEN, MONKEY_MATE])
def test_the_same_analysing_code_runs_on_both_engines_with_the_same_answers(fen: str) -> None:
    board = congo.Board(fen)
    built_in = _analyse_with(congo.Engine(), board)
    with SimpleEngine.popen_uci(CONGO_UCI) as uci:
        outside = _analyse_with(uci, board)
    # One thread, a fresh table and a depth limit: the same search, so the same lines.
    assert built_in[0] == outside[0]
    assert [depth for depth, rank, *_ in built_in[0] if rank == 1] == [1, 2, 3, 4, 5]
    assert built_in[1] == outside[1]
    assert built_in[1].move == built_in[2]["pv"][0]
    # The same keys, of the same kinds, in the merged info (time and speed differ, of course).
    assert built_in[2].keys() == outside[2].keys()
    for key, value in built_in[2].items():
        assert type(value) is type(outside[2][key]) or {type(value), type(outside[2][key])} == {int, float}, (
            key
        )
    assert built_in[2]["score"] == outside[2]["score"]


def test_the_same_async_analysing_code_runs_on_both_engines() -> None:
    board = congo.Board(MONKEY_MATE)

    async def analyse(engine: AsyncKind) -> tuple[list[tuple[Any, ...]], BestMove]:
        async with await engine.analysis(board, Limit(depth=4)) as analysis:
            assert isinstance(analysis, AsyncAnalysisResult)
            seen = [
                (info["depth"], info["score"], tuple(info["pv"]))
                async for info in analysis
                if "score" in info and not {"lowerbound", "upperbound"} & info.keys()
            ]
        return seen, await analysis.wait()

    async def main() -> None:
        _, uci = await popen_uci(CONGO_UCI, timeout=60)
        try:
            built_in = congo.Engine().asyncio()
            first, second = await asyncio.gather(analyse(built_in), analyse(uci))
            assert first == second
            assert first[1].move == board.parse_uci("b1d3f5d7")
            assert first[0][-1][1].white().mate == 1
            await built_in.quit()
        finally:
            await uci.quit()

    run(main)


def test_an_analysis_without_a_limit_is_stopped_by_the_next_call() -> None:
    engine = congo.Engine(hash_mb=16)
    board = congo.Board()
    analysis = engine.analysis(board)
    assert analysis.get()["depth"] == 1
    # The next call ends the analysis first (as SimpleEngine's does), then searches.
    assert engine.play(board, Limit(depth=2)).move in board.legal_moves
    assert analysis.wait().move in board.legal_moves
    assert analysis.info["depth"] >= 1
    # A bad root move fails the call itself, not later.
    with pytest.raises(congo.IllegalMoveError):
        engine.analysis(board, root_moves=[congo.Move.from_uci("a1a7")])


@pytest.mark.parametrize("kind", ["uci", "built-in"])
def test_after_quit_every_call_says_the_engine_is_closed(kind: str) -> None:
    async def main() -> None:
        engine: AsyncKind
        if kind == "uci":
            # python-chess's setpgrp is taken (the engine has a group of its own anyway).
            _, engine = await popen_uci(CONGO_UCI, timeout=60, setpgrp=True)
        else:
            engine = congo.Engine(hash_mb=16).asyncio()
        await engine.quit()
        await engine.quit()  # idempotent
        with pytest.raises(EngineTerminatedError):
            await engine.play(congo.Board(), Limit(depth=1))
        with pytest.raises(EngineTerminatedError):
            await engine.analysis(congo.Board())

    run(main)


FLOOD = """
import sys
sys.stdin.readline()
print("id name flood\\nuciok", flush=True)
line = "info string " + "x" * 1000 + "\\n"
for _ in range(64 * 1024):  # 64 MiB, four times what the client holds
    sys.stdout.write(line)
sys.stdout.flush()
"""


def test_an_engine_that_floods_its_output_is_read_within_a_bounded_buffer() -> None:
    from congo._uci_process import _MAX_PENDING

    async def main() -> None:
        _, engine = await popen_uci([sys.executable, "-c", FLOOD], timeout=60)
        process = engine._process
        try:
            # Nobody reads: the client stops reading the pipe (the engine blocks on its output).
            await _until(lambda: process._reading_paused)
            await asyncio.sleep(0.2)
            assert process._pending < _MAX_PENDING + (1 << 20)
            # Reading on resumes it, and every line of the flood arrives.
            count = 0
            while True:
                try:
                    line = await process.readline(None, "reading the flood")
                except EngineTerminatedError:
                    break
                assert line.startswith("info string x")
                count += 1
                assert process._pending < _MAX_PENDING + (1 << 20)
            assert count == 64 * 1024
        finally:
            await engine.quit()

    run(main)


def test_cancelling_a_queued_call_never_stops_the_search_running_before_it() -> None:
    board = congo.Board()

    async def main() -> None:
        async with congo.Engine(hash_mb=16).asyncio() as engine:
            first = asyncio.ensure_future(engine.analyse(board, Limit(depth=14)))  # about a second
            second = asyncio.ensure_future(engine.analyse(board, Limit(depth=2)))  # waits its turn
            await asyncio.sleep(0.05)
            assert not first.done()
            second.cancel()
            with pytest.raises(asyncio.CancelledError):
                await second
            assert (await first)["depth"] == 14  # searched to the end, not stopped

    run(main)


def test_the_built_in_analysis_takes_simple_engines_default_multipv() -> None:
    # multipv=None is SimpleEngine's default: code that passes it runs on the built-in engine too.
    with congo.Engine(hash_mb=16).analysis(congo.Board(), Limit(depth=2), multipv=None) as analysis:
        assert [info["multipv"] for info in analysis] == [1, 1]


# -- what a round trip costs the loop (benches/engine_overhead.py measures it) -------------------


def test_the_overhead_benchmark_runs_each_way_on_the_clients_engine(tmp_path: Path) -> None:
    # A bounded sample of the benchmark (its figures belong in benches/results, never in a test):
    # the raw ways borrow the client's pipes, and give them back, and pinning starts the engines.
    import os
    import subprocess

    report = tmp_path / "overhead.txt"
    subprocess.run(
        [sys.executable, "benches/engine_overhead.py", "--rounds", "1", "--calls", "3", "--out", str(report)],
        cwd=Path(__file__).resolve().parent.parent,
        check=True,
        capture_output=True,
        timeout=300,
    )
    text = report.read_text(encoding="utf-8")
    two_cores = hasattr(os, "sched_getaffinity") and len(os.sched_getaffinity(0)) >= 2
    assert text.count("asyncio client (popen_uci)") == (2 if two_cores else 1)
    assert "left to the scheduler" in text
    assert ("the engines on core" in text) == two_cores
    assert "target (async within 0.1 ms of the raw pipe" in text


def test_the_engines_output_is_read_in_blocks_of_at_most_64_kib(monkeypatch: pytest.MonkeyPatch) -> None:
    # asyncio asks for 256 KiB a read: a buffer that the C library maps and unmaps for every read,
    # however little the pipe holds.
    import os

    from congo import _uci_process

    asked: list[tuple[int, int]] = []
    read = os.read

    def record(fd: int, size: int) -> bytes:
        asked.append((fd, size))
        return read(fd, size)

    board = congo.Board()

    async def main() -> None:
        # Over 1 MiB in one line before each bestmove: as fast as the pipe can carry it.
        transport, engine = await popen_uci([*FOREIGN, "--mode", "longline"], timeout=60)
        pipe = transport.get_pipe_transport(1)
        assert pipe is not None
        output = pipe.get_extra_info("pipe").fileno()
        monkeypatch.setattr(os, "read", record)
        try:
            assert (await engine.play(board, Limit(time=0.05))).move == board.parse_uci("a1c3")
        finally:
            monkeypatch.undo()
            await engine.quit()
        sizes = [size for fd, size in asked if fd == output]
        assert len(sizes) >= 16  # a megabyte came through
        assert max(sizes) <= _uci_process._READ_CHUNK

    run(main)


def test_output_goes_to_the_client_without_a_turn_of_the_loop_between() -> None:
    from congo import _uci_process

    async def main() -> None:
        transport, engine = await popen_uci(FOREIGN, timeout=60)
        try:
            for fd in (1, 2):
                pipe = transport.get_pipe_transport(fd)
                assert pipe is not None
                assert isinstance(pipe.get_protocol(), _uci_process._DirectReader)
            await engine.ping()
        finally:
            await engine.quit()

    run(main)


def test_a_search_without_an_info_consumer_wakes_only_for_its_bestmove(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The foreign engine writes a block of infos every 10 ms for half a second: analyse and play
    # need none of them before the bestmove.
    from congo import _uci_process

    waits: list[int] = [0]  # [the handshake's, then one count a call]
    wait_lines = _uci_process._EngineProcess._wait_lines

    async def count(self: Any, *args: Any) -> None:
        waits[-1] += 1
        await wait_lines(self, *args)

    monkeypatch.setattr(_uci_process._EngineProcess, "_wait_lines", count)
    board = congo.Board()

    async def main() -> None:
        _, engine = await popen_uci([*FOREIGN, "--think", "0.5"], timeout=60)
        try:
            waits.append(0)
            info = await engine.analyse(board, Limit(depth=99))
            assert info["depth"] >= 5
            assert info["pv"][0] == board.parse_uci("a1c3")
            waits.append(0)
            assert (await engine.play(board, Limit(depth=99))).move == board.parse_uci("a1c3")
            # An analysis's consumer gets every info as it comes: it is woken for each.
            waits.append(0)
            depths = [
                info["depth"]
                async for info in await engine.analysis(board, Limit(depth=99))
                if "depth" in info
            ]
            assert len(depths) >= 5
        finally:
            await engine.quit()

    run(main)
    _, analyse_waits, play_waits, analysis_waits = waits
    assert analyse_waits <= 2
    assert play_waits <= 2
    assert analysis_waits > 2


def test_a_rejected_position_still_ends_a_search_at_once() -> None:
    # No isready: the error before any of the search's output wakes the wait and stops the search.
    board = congo.Board()
    board.push_uci("a1c3")

    async def main() -> None:
        # A search of ten minutes: only the error can end this call before the bound of run().
        _, engine = await popen_uci([*FOREIGN, "--mode", "reject", "--think", "600"], timeout=60)
        try:
            with pytest.raises(congo.engine.EngineError, match="rejected the position"):
                await engine.analyse(board, Limit(depth=99))
            with pytest.raises(congo.engine.EngineError, match="rejected the position"):
                await engine.play(board, Limit(depth=99))
            await engine.ping()
        finally:
            await engine.quit()

    run(main)
