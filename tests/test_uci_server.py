"""``congo uci`` over a real pipe: a transcript of every command of docs/protocol.md, prompt answers
during a search, repetitions through the move history, and garbage on stdin that never kills it."""

from __future__ import annotations

import queue
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

import congo

ENGINE = [sys.executable, "-m", "congo", "uci"]
MONKEY_MATE = "7/4l2/7/4c2/7/2p4/1M1L3 w 1"

INFO = re.compile(
    r"^info depth \d+ seldepth \d+ multipv \d+ score (cp -?\d+|mate -?\d+)( lowerbound| upperbound)? "
    r"nodes \d+ nps \d+ hashfull \d+ time \d+ pv( [a-g][1-7]([a-g][1-7])+)+$"
)
BESTMOVE = re.compile(r"^bestmove ([a-g][1-7]([a-g][1-7])+|\(none\))( ponder [a-g][1-7]([a-g][1-7])+)?$")


class Pipe:
    """``congo uci`` in a subprocess, spoken to line by line."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0
        )
        self.lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self.stderr = b""
        self.stderr_read = threading.Event()  # set once stderr is read to its end
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.lines.put(None)

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        self.stderr = self.process.stderr.read()
        self.stderr_read.set()

    def send(self, line: str | bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line if isinstance(line, bytes) else line.encode() + b"\n")
        self.process.stdin.flush()

    def read(self, timeout: float = 30.0) -> str:
        line = self.lines.get(timeout=timeout)
        assert line is not None, f"the engine exited: {self.stderr!r}"
        return line

    def until(self, prefix: str, timeout: float = 60.0) -> list[str]:
        """Every line up to and including the first that starts with ``prefix``."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.read(max(0.01, deadline - time.monotonic()))
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def exchange(self, command: str, answer: str) -> list[str]:
        self.send(command)
        return self.until(answer)

    def close(self) -> int:
        if self.process.poll() is None:
            self.send("quit")
        return self.process.wait(timeout=30)


@pytest.fixture
def engine() -> Iterator[Pipe]:
    pipe = Pipe()
    yield pipe
    if pipe.process.poll() is None:
        pipe.process.kill()
        pipe.process.wait()


def shown_fen(engine: Pipe) -> str:
    """The position the engine holds, from ``d`` (a FEN line, then a line of counts)."""
    fen = engine.exchange("d", "info string fen")[-1]
    assert engine.read().startswith("info string ")
    return fen[len("info string fen ") :]


def searched(lines: list[str]) -> tuple[list[str], str]:
    infos = [line for line in lines if line.startswith("info depth")]
    for info in infos:
        if not info.startswith("info depth 0 "):
            assert INFO.match(info), info
    assert BESTMOVE.match(lines[-1]), lines[-1]
    return infos, lines[-1]


def test_transcript_of_every_command(engine: Pipe) -> None:
    # uci: identity, one line per option, uciok.
    lines = engine.exchange("uci", "uciok")
    assert lines[0] == f"id name congo {congo.__version__}"
    assert lines[1] == "id author the congo developers"
    options = {
        line.split(" type ")[0][len("option name ") :]: line for line in lines if line.startswith("option")
    }
    for name in ("Threads", "Hash", "MultiPV", "Ponder", "Move Overhead", "Clear Hash"):
        assert name in options
    for option in congo.Engine.option_info():  # every evaluation weight and search switch
        assert option.name in options
    assert options["Clear Hash"].endswith("type button")
    assert options["null_move"].endswith("type check default true")
    pawn = next(option.default for option in congo.Engine.option_info() if option.name == "pawn")
    assert options["pawn"] == f"option name pawn type spin default {pawn} min 0 max 2000"

    engine.send("debug on")
    engine.send("register later")
    assert engine.exchange("isready", "readyok") == ["readyok"]
    for command in (
        "setoption name Hash value 8",
        "setoption name Threads value 2",
        "setoption name Move Overhead value 50",
        "setoption name Ponder value true",
        "setoption name Clear Hash",
        "setoption name pawn value 110",
        "setoption name null_move value false",
        "setoption name threads value 1",  # names in any case
        "ucinewgame",
    ):
        engine.send(command)
    assert engine.exchange("isready", "readyok") == ["readyok"]  # no complaint about any of them

    # position + go with each limit.
    engine.send("position startpos moves c2c3 a7c5")
    infos, best = searched(engine.exchange("go depth 5", "bestmove"))
    # Exact reports only: a score outside the aspiration window is reported (as a bound) after a
    # second, so whether there are any depends on the machine.
    exact = [info for info in infos if "bound " not in info]
    assert [int(info.split()[2]) for info in exact] == [1, 2, 3, 4, 5]
    assert " ponder " in best
    _, best = searched(engine.exchange("go nodes 1", "bestmove"))
    _, best = searched(engine.exchange("go movetime 50", "bestmove"))
    _, best = searched(engine.exchange("go wtime 2000 btime 2000 winc 20 binc 20 movestogo 10", "bestmove"))
    engine.send(f"position fen {MONKEY_MATE}")
    infos, best = searched(engine.exchange("go mate 1", "bestmove"))
    assert "score mate 1 " in infos[-1]
    assert best == "bestmove b1d3f5d7"
    # searchmoves, MultiPV.
    _, best = searched(engine.exchange("go depth 3 searchmoves d1c2 d1e2", "bestmove"))
    assert best.split()[1] in ("d1c2", "d1e2")
    engine.send("setoption name MultiPV value 3")
    infos, best = searched(engine.exchange("go depth 3", "bestmove"))
    assert [info.split(" multipv ")[1].split()[0] for info in infos if " depth 3 " in info] == ["1", "2", "3"]
    engine.send("setoption name MultiPV value 1")
    # infinite + stop; ponder + ponderhit.
    engine.send("position startpos")
    engine.send("go infinite")
    engine.until("info depth 2")
    _, best = searched(engine.exchange("stop", "bestmove"))
    engine.send("go ponder wtime 1000 btime 1000")
    engine.until("info depth 2")
    _, best = searched(engine.exchange("ponderhit", "bestmove"))
    # A decided position: no move.
    engine.send(f"position fen {MONKEY_MATE} moves b1d3f5d7")
    lines = engine.exchange("go depth 3", "bestmove")
    assert lines == ["info depth 0 score mate 0", "bestmove (none)"]
    # d: the position.
    assert shown_fen(engine) == "3M3/7/7/7/7/7/3L3 b 1"
    assert engine.close() == 0
    assert engine.stderr == b""


def test_errors_are_info_strings_and_change_nothing(engine: Pipe) -> None:
    engine.send("position startpos moves c2c3")
    bad = [
        "hello",
        "setoption name Hash value -1",
        "setoption name Nope value 1",
        "setoption name Clear Hash value now",
        "stop now",
    ]
    for command in bad:
        line = engine.exchange(command + "\nisready", "readyok")[0]
        assert line.startswith("info string error: "), (command, line)
    assert shown_fen(engine) == "gmelecz/ppppppp/7/7/2P4/PP1PPPP/GMELECZ b 1"
    # A malformed go still gets its bestmove, so that no controller waits forever.
    for command in ("go depth 0", "go depth many", "go sideways", "go searchmoves a1a7"):
        lines = engine.exchange(command, "bestmove")
        assert lines[0].startswith("info string error: "), lines
        assert lines[-1] == "bestmove (none)", lines
    # A go during a search is refused (that search's bestmove is the one answer).
    engine.send("go infinite")
    engine.until("info depth 1")
    assert engine.exchange("go depth 1", "info string error:")[-1].startswith(
        "info string error: already searching"
    )
    searched(engine.exchange("stop", "bestmove"))
    assert engine.close() == 0


def test_a_rejected_position_leaves_no_position_to_search(engine: Pipe) -> None:
    """After a ``position`` that was rejected, a ``go`` is refused (``bestmove (none)``) instead of
    searching the position before it."""
    rejected = [
        "position fen 8/8/8 w 1",
        "position fen 7/7/7/7/7/7/7 w 1",
        "position startpos moves c2c3 c2c3",
        "position startpos moves zz9",
        "position startpos moves " + "c2c3 c6c5 " * 120_000,  # a line over the 1 MiB limit
    ]
    for command in rejected:
        engine.send("position startpos moves c2c3")
        line = engine.exchange(command + "\nisready", "readyok")[0]
        assert line.startswith("info string error: position"), (command[:40], line)
        assert "no position" in line, line
        assert engine.exchange("d", "info string")[-1].startswith("info string no position")
        lines = engine.exchange("go depth 3", "bestmove")
        assert lines[0].startswith("info string error: no position"), lines
        assert not any(line.startswith("info depth") for line in lines), lines
        assert lines[-1] == "bestmove (none)", lines
    # The next valid position is searched as usual.
    engine.send("position startpos")
    _, best = searched(engine.exchange("go depth 2", "bestmove"))
    assert best != "bestmove (none)"
    assert engine.close() == 0


@pytest.mark.parametrize("go", ["go", "go infinite", "go searchmoves a2a3", "go mate 50"])
@pytest.mark.parametrize("close_stdout", [False, True])
def test_the_end_of_input_stops_any_search_and_exits(go: str, close_stdout: bool) -> None:
    process = subprocess.Popen(
        ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0
    )
    assert process.stdin is not None
    assert process.stdout is not None
    try:
        process.stdin.write(f"position startpos\n{go}\n".encode())
        process.stdin.flush()
        first = process.stdout.readline()
        assert first.startswith(b"info depth"), first
        if close_stdout:
            process.stdout.close()
        process.stdin.close()
        assert process.wait(timeout=30) == 0
        if not close_stdout:
            assert any(line.startswith(b"bestmove ") for line in process.stdout.read().splitlines())
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_stop_and_isready_are_answered_at_once_during_a_search(engine: Pipe) -> None:
    engine.exchange("uci", "uciok")
    isready, stop = [], []
    for _ in range(10):
        engine.send("position startpos")
        engine.send("go infinite")
        engine.until("info depth 3")
        start = time.perf_counter()
        engine.exchange("isready", "readyok")
        isready.append(time.perf_counter() - start)
        start = time.perf_counter()
        engine.exchange("stop", "bestmove")
        stop.append(time.perf_counter() - start)
    # Answered while an infinite search runs, which nothing else ends: any answer shows it (each
    # exchange fails after its timeout). The latencies (about 0.1 ms and 0.5 ms) are benchmark
    # figures, in docs/performance.md (benches/uci.py); the bound only tells an answer from none.
    assert max(isready) < 20, isready
    assert max(stop) < 20, stop
    assert engine.close() == 0


def test_the_move_history_counts_for_repetitions(engine: Pipe) -> None:
    # White has only its lion, a zebra and pawns: hopeless, unless a position repeats.
    fen = "gmelecz/ppppppp/7/7/7/PPPPPPP/3L2Z w 1"
    engine.send(f"position fen {fen}")
    infos, _ = searched(engine.exchange("go depth 4", "bestmove"))
    assert int(infos[-1].split(" score cp ")[1].split()[0]) < -500
    # The same position after both zebras went out and back: g1f3 now repeats a position of the game.
    engine.send(f"position fen {fen} moves g1f3 g7f5 f3g1 f5g7")
    infos, best = searched(engine.exchange("go depth 4", "bestmove"))
    assert " score cp 0 " in infos[-1]
    assert best.split()[1] == "g1f3"
    assert engine.close() == 0


def test_quit_and_the_end_of_input_end_a_search(engine: Pipe) -> None:
    engine.send("go infinite")
    engine.until("info depth 2")
    engine.send("quit")
    assert engine.process.wait(timeout=30) == 0  # an infinite search: quit ended it
    # The controller disappears mid-search: the engine stops and exits.
    other = Pipe()
    other.send("go infinite")
    other.until("info depth 2")
    assert other.process.stdin is not None
    other.process.stdin.close()
    assert other.process.wait(timeout=10) == 0


def test_ctrl_c_ends_it_quietly(engine: Pipe) -> None:
    engine.send("go infinite")
    engine.until("info depth 2")
    engine.process.send_signal(signal.SIGINT)
    assert engine.process.wait(timeout=30) == 130
    engine.stderr_read.wait(timeout=30)  # all of it, however long the reader takes
    assert b"Traceback" not in engine.stderr


def _garbage(rng: random.Random) -> bytes:
    kind = rng.randrange(8)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
    words = [
        "uci", "isready", "go", "stop", "position", "startpos", "fen", "moves", "setoption", "name", "value",
        "Hash", "Threads", "MultiPV", "depth", "nodes", "movetime", "wtime", "btime", "winc", "binc",
        "movestogo", "mate", "infinite", "ponder", "ponderhit", "searchmoves", "ucinewgame", "debug", "on",
        "d", "-1", "0", "1", "99999999999999999999999", "3.5", "a1a7", "c2c3", "b1d3f5d7", "é", "\x00",
        "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ", "w", "b", "7/7/7/7/7/7/7",
    ]  # fmt: skip
    line = " ".join(rng.choice(words) for _ in range(rng.randrange(1, 12)))
    if kind == 1:
        line = "go " + line
    elif kind == 2:
        line = "position " + line
    elif kind == 3:
        line = "setoption name " + line
    return line.encode("utf-8", "surrogateescape") + b"\n"


def test_garbage_on_stdin_never_kills_it(engine: Pipe) -> None:
    rng = random.Random(20261201)
    for _ in range(3000):
        data = _garbage(rng)
        if b"quit" in data:
            continue
        engine.send(data if data.endswith(b"\n") else data + b"\n")
        if rng.random() < 0.02:
            engine.send("stop")
    engine.send(b"x" * (2 << 20) + b"\n")  # a line too long to read
    engine.send("stop")
    engine.send("setoption name Threads value 1")
    engine.send("setoption name MultiPV value 1")
    engine.send("position startpos")
    deadline = time.monotonic() + 60
    lines: list[str] = []
    # A search started by the garbage may still run: stop it until the engine is idle and answers.
    while not lines or lines[-1] != "readyok":
        engine.send("stop")
        lines = engine.exchange("isready", "readyok")
        assert time.monotonic() < deadline
    _, best = searched(engine.exchange("go depth 2", "bestmove"))
    assert best.startswith("bestmove ")
    assert engine.close() == 0
    assert b"panicked" not in engine.stderr, engine.stderr
    assert b"Traceback" not in engine.stderr, engine.stderr
