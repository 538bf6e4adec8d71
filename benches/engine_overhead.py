"""What the engine client costs: the median round trip of ``analyse(Limit(depth=1))`` through the
asyncio client (``congo.engine.popen_uci``) and through ``SimpleEngine`` (the blocking wrapper
over it, its loop on a thread of its own), against the same exchange written to the raw pipe, read
with blocking reads and under asyncio.

    python benches/engine_overhead.py                  # 10 rounds of 200 calls each way
    python benches/engine_overhead.py --rounds 3 --calls 100
    python benches/engine_overhead.py --out benches/results/engine-overhead.txt

The raw pipe writes ``position …`` and ``go depth 1`` and reads, with blocking ``os.read`` on the
same thread, up to ``bestmove``: the least any client can do; under asyncio, a reader callback on
the pipe wakes the waiting task once ``bestmove`` is in: the least any asyncio client can do. The
clients write ``position``, ``isready`` and ``go depth 1`` in one write (the ``isready`` tells a
rejected position from a search of the old one) and parse every line up to ``bestmove``, woken
only by it (the ``readyok`` and infos before it wait in the queue). Each way
has its own ``congo uci`` process; the rounds take turns, so that a change of the machine's load
falls on all of them. The target: the async client within 0.1 ms of the raw pipe.

The machine's load average is printed first: latencies on a shared machine depend on it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time

import congo
from congo.engine import Limit, SimpleEngine, popen_uci
from congo.files import atomic_output, check_outputs

ENGINE = [sys.executable, "-m", "congo", "uci"]


class RawPipe:
    """``congo uci`` over a bare pipe, read with blocking reads on the calling thread."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.stdin = self.process.stdin.fileno()
        self.stdout = self.process.stdout.fileno()
        self.pending = b""
        self.exchange(b"uci\n", b"uciok")

    def exchange(self, command: bytes, answer: bytes) -> None:
        """Writes ``command`` and reads up to the line starting with ``answer``."""
        os.write(self.stdin, command)
        while True:
            end = self.pending.find(b"\n")
            while end >= 0:
                line, self.pending = self.pending[:end], self.pending[end + 1 :]
                if line.startswith(answer):
                    return
                end = self.pending.find(b"\n")
            chunk = os.read(self.stdout, 65536)
            if not chunk:
                raise RuntimeError("congo uci ended")
            self.pending += chunk

    def close(self) -> None:
        os.write(self.stdin, b"quit\n")
        self.process.wait(timeout=30)


async def measure_raw_async(pipe: RawPipe, command: bytes, calls: int) -> list[float]:
    """The raw exchange under asyncio: the least any asyncio client can do (a reader callback on
    the pipe wakes the waiting task once ``bestmove`` is in)."""
    loop = asyncio.get_running_loop()
    waiter: list[asyncio.Future[None]] = []

    def readable() -> None:
        chunk = os.read(pipe.stdout, 65536)
        pipe.pending += chunk
        if b"bestmove" in pipe.pending and waiter and not waiter[0].done():
            pipe.pending = b""
            waiter[0].set_result(None)

    loop.add_reader(pipe.stdout, readable)
    times = []
    try:
        for _ in range(calls):
            start = time.perf_counter()
            waiter[:] = [loop.create_future()]
            os.write(pipe.stdin, command)
            await waiter[0]
            times.append(time.perf_counter() - start)
    finally:
        loop.remove_reader(pipe.stdout)
    return times


def measure_raw(pipe: RawPipe, command: bytes, calls: int) -> list[float]:
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        pipe.exchange(command, b"bestmove")
        times.append(time.perf_counter() - start)
    return times


async def measure_async(engine: congo.engine.UciProtocol, board: congo.Board, calls: int) -> list[float]:
    times = []
    limit = Limit(depth=1)
    for _ in range(calls):
        start = time.perf_counter()
        info = await engine.analyse(board, limit)
        times.append(time.perf_counter() - start)
        assert info["depth"] == 1
    return times


def measure_simple(engine: SimpleEngine, board: congo.Board, calls: int) -> list[float]:
    times = []
    limit = Limit(depth=1)
    for _ in range(calls):
        start = time.perf_counter()
        info = engine.analyse(board, limit)
        times.append(time.perf_counter() - start)
        assert info["depth"] == 1
    return times


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--calls", type=int, default=200, help="calls per round and way")
    parser.add_argument("--out", help="also write the report to this file")
    args = parser.parse_args()
    if args.out:
        check_outputs([args.out])

    moves = ("a1c3", "a7c5", "g1f3")
    board = congo.Board()
    for move in moves:
        board.push_uci(move)
    # The position command the clients send for this board (no irreversible move: the whole game).
    command = f"position startpos moves {' '.join(moves)}\ngo depth 1\n".encode()

    load = os.getloadavg()
    report = [f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores"]
    print(report[0], flush=True)

    loop = asyncio.new_event_loop()
    raw = RawPipe()
    raw_async = RawPipe()
    _, engine = loop.run_until_complete(popen_uci(ENGINE))
    simple = SimpleEngine.popen_uci(ENGINE)
    samples: dict[str, list[float]] = {"raw": [], "raw-async": [], "async": [], "simple": []}
    try:
        # Warm up each way (tables allocated, code paths hot), then the rounds.
        measure_raw(raw, command, 20)
        loop.run_until_complete(measure_raw_async(raw_async, command, 20))
        loop.run_until_complete(measure_async(engine, board, 20))
        measure_simple(simple, board, 20)
        for _ in range(args.rounds):
            samples["raw"] += measure_raw(raw, command, args.calls)
            samples["raw-async"] += loop.run_until_complete(measure_raw_async(raw_async, command, args.calls))
            samples["async"] += loop.run_until_complete(measure_async(engine, board, args.calls))
            samples["simple"] += measure_simple(simple, board, args.calls)
    finally:
        raw.close()
        raw_async.close()
        loop.run_until_complete(engine.quit())
        loop.close()
        simple.quit()

    medians = {way: 1000 * statistics.median(times) for way, times in samples.items()}
    p90 = {way: 1000 * sorted(times)[int(0.9 * (len(times) - 1))] for way, times in samples.items()}
    report.append(f"analyse(Limit(depth=1)) round trip, {args.rounds} rounds x {args.calls} calls each way")
    for way, label in (
        ("raw", "raw pipe (position, go, read to bestmove)"),
        ("raw-async", "raw pipe under asyncio (a reader callback)"),
        ("async", "asyncio client (popen_uci)"),
        ("simple", "SimpleEngine (loop on its own thread)"),
    ):
        line = f"  {label:44} median {medians[way]:7.3f} ms  p90 {p90[way]:7.3f} ms"
        if way != "raw":
            line += (
                f"  {medians[way] - medians['raw']:+.3f} ms"
                f" ({medians[way] / medians['raw']:.2f}x the raw pipe)"
            )
        report.append(line)
    target = medians["async"] - medians["raw"] <= 0.1
    report.append(f"target (async within 0.1 ms of the raw pipe): {'met' if target else 'not met'}")
    text = "\n".join(report) + "\n"
    print(text, end="")
    if args.out:
        with atomic_output(args.out) as out:
            out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
