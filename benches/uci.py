"""The engine protocol (``congo uci``, docs/protocol.md) over a real pipe: round trips, latencies,
and how much of its clock the engine spends in a game.

    python benches/uci.py                 # everything, about two minutes
    python benches/uci.py --quick         # fewer repetitions and a shorter game
    python benches/uci.py --json FILE     # also keep the figures

Figures (medians unless said):

* ``go nodes 1`` round trip: from writing ``go nodes 1`` to reading ``bestmove`` (target ≤ 1 ms),
  raw over the pipe and through ``SimpleEngine.play``;
* ``position startpos moves …`` with 300 moves: the command and an ``isready`` minus an ``isready``
  alone (target ≤ 1 ms);
* ``stop`` latency during ``go infinite``: from writing ``stop`` to reading ``bestmove`` (≤ 10 ms),
  and ``isready`` → ``readyok`` during a search;
* clock usage: ``congo uci`` against itself through ``congo match`` machinery at 10 s + 0.1 s and
  1 s + 0.02 s: the share of the time left that each move took, by game phase, and the lowest clock.

The machine's load average is printed first: latencies on a shared machine depend on it.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import statistics
import subprocess
import sys
import threading
import time
from typing import Any

import congo
from congo import match
from congo.engine import Limit, SimpleEngine
from congo.files import atomic_output, check_outputs

ENGINE = [sys.executable, "-m", "congo", "uci"]


class Pipe:
    def __init__(self) -> None:
        self.process = subprocess.Popen(ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.lines: queue.SimpleQueue[str] = queue.SimpleQueue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self.lines.put(raw.decode().rstrip("\n"))

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")

    def until(self, prefix: str) -> str:
        while True:
            line = self.lines.get(timeout=60)
            if line.startswith(prefix):
                return line

    def close(self) -> None:
        self.send("quit")
        self.process.wait(timeout=30)


def _ms(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median_ms": 1000 * statistics.median(ordered),
        "p90_ms": 1000 * ordered[int(0.9 * (len(ordered) - 1))],
        "max_ms": 1000 * ordered[-1],
        "n": len(ordered),
    }


def long_game(plies: int, seed: int = 7) -> list[str]:
    """A legal game of ``plies`` moves that is not over (random moves that do not end it)."""
    rng = random.Random(seed)
    while True:
        board = congo.Board()
        for _ in range(plies):
            moves = [m for m in board.legal_moves if _goes_on(board, m)]
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.ply() >= plies:
            return [m.uci() for m in board.move_stack]


def _goes_on(board: congo.Board, move: congo.Move) -> bool:
    board.push(move)
    try:
        return board.outcome() is None
    finally:
        board.pop()


def round_trips(reps: int) -> dict[str, Any]:
    pipe = Pipe()
    pipe.send("uci")
    pipe.until("uciok")
    pipe.send("position startpos")
    for _ in range(20):  # warm up
        pipe.send("go nodes 1")
        pipe.until("bestmove")

    def timed(commands: list[str], answer: str) -> list[float]:
        times = []
        for _ in range(reps):
            start = time.perf_counter()
            for command in commands:
                pipe.send(command)
            pipe.until(answer)
            times.append(time.perf_counter() - start)
        return times

    go = timed(["go nodes 1"], "bestmove")
    ready = timed(["isready"], "readyok")
    moves = " ".join(long_game(300))
    position = timed([f"position startpos moves {moves}", "isready"], "readyok")
    pipe.send("position startpos")
    stop, ready_searching = [], []
    for _ in range(max(10, reps // 20)):
        pipe.send("go infinite")
        pipe.until("info depth 5")
        start = time.perf_counter()
        pipe.send("isready")
        pipe.until("readyok")
        ready_searching.append(time.perf_counter() - start)
        start = time.perf_counter()
        pipe.send("stop")
        pipe.until("bestmove")
        stop.append(time.perf_counter() - start)
    pipe.close()
    isready_median = statistics.median(ready)
    return {
        "go_nodes_1": _ms(go),
        "isready": _ms(ready),
        "position_300_moves_plus_isready": _ms(position),
        "position_300_moves": {"median_ms": 1000 * (statistics.median(position) - isready_median)},
        "stop_to_bestmove": _ms(stop),
        "isready_while_searching": _ms(ready_searching),
    }


def client_round_trip(reps: int) -> dict[str, Any]:
    with SimpleEngine.popen_uci(ENGINE) as engine:
        board = congo.Board()
        for _ in range(20):
            engine.play(board, Limit(nodes=1))
        times = []
        for _ in range(reps):
            start = time.perf_counter()
            engine.play(board, Limit(nodes=1))
            times.append(time.perf_counter() - start)
    return _ms(times)


def clock_usage(base: float, increment: float, games: int) -> dict[str, Any]:
    """``congo uci`` against itself on a clock: per move, the share of the mover's clock it took."""
    engine = match.parse_player(f"uci:{sys.executable} -m congo uci")
    control = match.TimeControl(base, increment)
    openings = match.make_openings((games + 1) // 2, 4, 1)
    shares: dict[str, list[float]] = {"moves 1-10": [], "moves 11-30": [], "moves 31+": []}
    spent_total, lowest, forfeits, plies = 0.0, float("inf"), 0, 0
    for index in range(games):
        game = match.play_match_game(engine, engine, index, openings[index // 2], time_control=control)
        forfeits += isinstance(game.outcome, match.Adjudicated)
        before = {True: base, False: base}
        for ply, clock in enumerate(game.clocks):
            if clock is None:
                continue
            turn = ply % 2 == 0
            spent = before[turn] + increment - clock
            number = ply // 2 + 1
            phase = "moves 1-10" if number <= 10 else "moves 11-30" if number <= 30 else "moves 31+"
            shares[phase].append(spent / before[turn])
            spent_total += spent
            lowest = min(lowest, clock)
            before[turn] = clock
            plies += 1
    return {
        "time_control": str(control),
        "games": games,
        "moves": plies,
        "losses_on_time_or_failures": forfeits,
        "mean_seconds_per_move": spent_total / max(plies, 1),
        "mean_share_of_clock_per_move": {k: statistics.mean(v) if v else None for k, v in shares.items()},
        "lowest_clock_seconds": lowest,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="fewer repetitions, fewer games")
    parser.add_argument("--json", metavar="FILE", help="write the figures to FILE")
    args = parser.parse_args()
    reps = 200 if args.quick else 1000
    try:  # before the work: a bad path fails now, not after it
        check_outputs([args.json] if args.json else [])
    except (OSError, ValueError) as error:
        parser.error(str(error))
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    figures: dict[str, Any] = {"load_average": load}
    figures.update(round_trips(reps))
    figures["client_play_nodes_1"] = client_round_trip(reps // 2)
    for key in (
        "go_nodes_1",
        "isready",
        "stop_to_bestmove",
        "isready_while_searching",
        "client_play_nodes_1",
    ):
        f = figures[key]
        print(
            f"{key:28} median {f['median_ms']:7.3f} ms  p90 {f['p90_ms']:7.3f} ms  max {f['max_ms']:7.3f} ms"
        )
    print(f"{'position_300_moves':28} median {figures['position_300_moves']['median_ms']:7.3f} ms")
    games = 2 if args.quick else 6
    for base, increment in ((10.0, 0.1), (1.0, 0.02)):
        usage = clock_usage(base, increment, games)
        figures[f"clock_usage_{base:g}+{increment:g}"] = usage
        shares = ", ".join(
            f"{k} {100 * v:.1f} %" for k, v in usage["mean_share_of_clock_per_move"].items() if v is not None
        )
        print(
            f"clock {usage['time_control']:>8}: {usage['games']} games, {usage['moves']} moves, "
            f"{1000 * usage['mean_seconds_per_move']:.0f} ms a move; share of the clock per move: {shares}; "
            f"lowest clock {usage['lowest_clock_seconds']:.3f} s; "
            f"time losses {usage['losses_on_time_or_failures']}"
        )
    if args.json:
        with atomic_output(args.json) as out:
            json.dump(figures, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
