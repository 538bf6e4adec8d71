"""What the engine client costs: the median round trip of ``analyse(Limit(depth=1))`` through the
asyncio client (``congo.engine.popen_uci``) and through ``SimpleEngine`` (the blocking wrapper
over it, its loop on a thread of its own), against the same exchange written to the raw pipe, read
with blocking reads and under asyncio.

    python benches/engine_overhead.py                  # 20 rounds of 200 calls each way
    python benches/engine_overhead.py --rounds 3 --calls 100
    python benches/engine_overhead.py --out benches/results/engine-overhead.txt

The raw pipe writes ``position …`` and ``go depth 1`` and reads, with blocking ``os.read`` on the
same thread, up to ``bestmove``: the least any client can do; under asyncio, a reader callback on
the pipe wakes the waiting task once ``bestmove`` is in: the least any asyncio client can do. The
client writes the same two commands in one write and parses every line up to ``bestmove``, woken
only by it (the infos before it wait in the queue).

The raw ways and the asyncio client talk to **one** ``congo uci`` process, the client's: the raw
ways borrow its pipes between the client's rounds (the client's reading paused meanwhile), so that
a difference between two processes of the engine is nobody's. ``SimpleEngine`` runs its loop on a
thread of its own, so it has a process of its own. The rounds take turns, so that a change of the
machine's load falls on every way. Besides the round trips, each way's CPU time a call
(``time.process_time`` over its rounds): what the client itself costs.

Pinned (the default where there are two cores or more): the engines run on one core and this
process on another, every way alike. Left to the scheduler (``--no-pin``) the threads of the
client and of the engine share the two cores of this machine as it sees fit, and where it wakes a
task waiting in ``epoll`` (asyncio) differs from where it wakes one blocked in ``read``: a bare
asyncio reader callback then comes out 0.04 to 0.08 ms over the blocking read, run to run, and
0.00 ms pinned. Pinned figures are the client's cost; unpinned ones show what the scheduler adds.
The target: the async client within 0.1 ms of the raw pipe.

The machine's load average is printed first: latencies on a shared machine depend on it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from typing import Callable

import congo
from congo.engine import Limit, SimpleEngine, popen_uci
from congo.files import atomic_output, check_outputs

ENGINE = [sys.executable, "-m", "congo", "uci"]


def cores() -> tuple[int, int] | None:
    """A core for this process and another for the engines, or ``None`` where they cannot be
    pinned apart (fewer than two cores allowed, or no affinity on this platform)."""
    allowed = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    return (allowed[0], allowed[1]) if len(allowed) >= 2 else None


def engine_command(core: int | None) -> list[str]:
    """``congo uci``, on ``core`` if given (this script, run with ``--engine-on``, pins itself and
    becomes the engine: a process keeps its affinity across exec, and its threads inherit it)."""
    return ENGINE if core is None else [sys.executable, os.path.abspath(__file__), "--engine-on", str(core)]


class RawPipe:
    """The raw exchange over the pipes of the client's engine process, borrowed: the client's
    transport stops reading while a raw way reads."""

    def __init__(self, transport: asyncio.SubprocessTransport) -> None:
        stdin = transport.get_pipe_transport(0)
        stdout = transport.get_pipe_transport(1)
        assert isinstance(stdout, asyncio.ReadTransport)
        assert stdin is not None
        pipes = [pipe.get_extra_info("pipe") for pipe in (stdin, stdout)]
        if None in pipes:
            raise SystemExit("this event loop's transports do not show their pipes")
        self.reader = stdout
        self.stdin, self.stdout = (pipe.fileno() for pipe in pipes)

    def measure(self, command: bytes, calls: int) -> list[float]:
        """Blocking reads on this thread: the least any client can do."""
        self.reader.pause_reading()
        os.set_blocking(self.stdout, True)
        times = []
        try:
            for _ in range(calls):
                start = time.perf_counter()
                os.write(self.stdin, command)
                pending = b""
                while b"bestmove" not in pending:
                    chunk = os.read(self.stdout, 65536)
                    if not chunk:
                        raise RuntimeError("congo uci ended")
                    pending += chunk
                times.append(time.perf_counter() - start)
        finally:
            os.set_blocking(self.stdout, False)
            self.reader.resume_reading()
        return times

    async def measure_async(self, command: bytes, calls: int) -> list[float]:
        """A reader callback on the pipe wakes the waiting task once ``bestmove`` is in: the least
        any asyncio client can do."""
        loop = asyncio.get_running_loop()
        waiter: list[asyncio.Future[None]] = []
        pending = [b""]

        def readable() -> None:
            pending[0] += os.read(self.stdout, 65536)
            if b"bestmove" in pending[0] and waiter and not waiter[0].done():
                pending[0] = b""
                waiter[0].set_result(None)

        self.reader.pause_reading()
        loop.add_reader(self.stdout, readable)
        times = []
        try:
            for _ in range(calls):
                start = time.perf_counter()
                waiter[:] = [loop.create_future()]
                os.write(self.stdin, command)
                await waiter[0]
                times.append(time.perf_counter() - start)
        finally:
            loop.remove_reader(self.stdout)
            self.reader.resume_reading()
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


def timed(run: Callable[[int], list[float]], calls: int, cpu: dict[str, float], way: str) -> list[float]:
    """``run(calls)``'s round trips; its CPU time is added to ``cpu[way]``."""
    start = time.process_time()
    times = run(calls)
    cpu[way] = cpu.get(way, 0.0) + time.process_time() - start
    return times


WAYS = (
    ("raw", "raw pipe (position, go, read to bestmove)"),
    ("raw-async", "raw pipe under asyncio (a reader callback)"),
    ("async", "asyncio client (popen_uci)"),
    ("simple", "SimpleEngine (own process, loop on a thread)"),
)


def measure_placement(pinned: tuple[int, int] | None, rounds: int, calls: int) -> tuple[list[str], float]:
    """Every way's round trips with the processes placed so (see the module's text): the report's
    lines, and the asyncio client's median overhead over the raw pipe (ms)."""
    allowed = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    if pinned is not None:
        os.sched_setaffinity(0, {pinned[0]})  # this thread, and the threads it starts
    elif allowed is not None:
        os.sched_setaffinity(0, allowed)
    command_line = engine_command(None if pinned is None else pinned[1])

    moves = ("a1c3", "a7c5", "g1f3")
    board = congo.Board()
    for move in moves:
        board.push_uci(move)
    # The position command the client sends for this board (no irreversible move: the whole game).
    uci = f"position startpos moves {' '.join(moves)}\ngo depth 1\n".encode()

    load = os.getloadavg()
    placement = (
        "left to the scheduler"
        if pinned is None
        else f"this process on core {pinned[0]}, the engines on core {pinned[1]}"
    )
    loads = " ".join(f"{value:.2f}" for value in load)
    report = [f"{placement}; load average {loads} on {os.cpu_count()} cores"]
    print(report[0], flush=True)

    loop = asyncio.new_event_loop()
    transport, engine = loop.run_until_complete(popen_uci(command_line))
    raw = RawPipe(transport)
    simple = SimpleEngine.popen_uci(command_line)
    ways: dict[str, Callable[[int], list[float]]] = {
        "raw": lambda n: raw.measure(uci, n),
        "raw-async": lambda n: loop.run_until_complete(raw.measure_async(uci, n)),
        "async": lambda n: loop.run_until_complete(measure_async(engine, board, n)),
        "simple": lambda n: measure_simple(simple, board, n),
    }
    samples: dict[str, list[float]] = {way: [] for way in ways}
    cpu: dict[str, float] = {}
    try:
        # Warm up each way (tables allocated, code paths hot), then the rounds.
        for run in ways.values():
            run(20)
        for _ in range(rounds):
            for way, run in ways.items():
                samples[way] += timed(run, calls, cpu, way)
    finally:
        loop.run_until_complete(engine.quit())
        loop.close()
        simple.quit()

    medians = {way: 1000 * statistics.median(times) for way, times in samples.items()}
    p90 = {way: 1000 * sorted(times)[int(0.9 * (len(times) - 1))] for way, times in samples.items()}
    report.append(f"analyse(Limit(depth=1)) round trip, {rounds} rounds x {calls} calls each way")
    for way, label in WAYS:
        line = f"  {label:46} median {medians[way]:7.3f} ms  p90 {p90[way]:7.3f} ms"
        line += "           " if way == "raw" else f"  {medians[way] - medians['raw']:+.3f} ms"
        line += f"  CPU {1e6 * cpu[way] / len(samples[way]):4.0f} us a call"
        report.append(line)
    return report, medians["async"] - medians["raw"]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--calls", type=int, default=200, help="calls per round and way")
    parser.add_argument("--out", help="also write the report to this file")
    parser.add_argument(
        "--placement",
        choices=("both", "pinned", "scheduler"),
        default="both",
        help="pinned apart, left to the scheduler, or one after the other (the default)",
    )
    parser.add_argument("--engine-on", type=int, help=argparse.SUPPRESS)  # the engine's launcher
    args = parser.parse_args()
    if args.engine_on is not None:
        os.sched_setaffinity(0, {args.engine_on})
        os.execv(ENGINE[0], ENGINE)
    if args.out:
        check_outputs([args.out])
    pinned = cores()
    if pinned is None and args.placement != "scheduler":
        print("fewer than two cores to pin apart: the processes are left to the scheduler", flush=True)
    report: list[str] = []
    overhead: dict[str, float] = {}
    for placement in ("pinned", "scheduler"):
        if args.placement in (placement, "both") and (placement == "scheduler" or pinned is not None):
            lines, overhead[placement] = measure_placement(
                pinned if placement == "pinned" else None, args.rounds, args.calls
            )
            print("\n".join(lines[1:]), flush=True)
            report += lines
    judged = "pinned" if "pinned" in overhead else "scheduler"
    verdict = "met" if overhead[judged] <= 0.1 else "not met"
    report.append(
        f"target (async within 0.1 ms of the raw pipe, {judged}): {verdict} ({overhead[judged]:+.3f} ms)"
    )
    print(report[-1])
    if args.out:
        with atomic_output(args.out) as out:
            out.write("\n".join(report) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
