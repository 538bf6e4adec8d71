"""Analysis at scale: analyse_many with 1 and 2 workers, Ray against threads, and record reading.

    python benches/analysis.py                     # everything (a few minutes)
    python benches/analysis.py --only workers      # or: ray, records, long
    python benches/analysis.py --positions 1000 --nodes 20000 --games 100000

* ``workers``: positions analysed per second at a fixed node count with 1 and 2 workers, and the
  ratio (the target is >= 1.8x on 2 cores).
* ``ray``: the same positions on a local Ray cluster (started here, on 127.0.0.1, and stopped) and on
  threads, with as many workers; the overhead is Ray's time over the threads' (target <= 15 %).
  The cluster's start is not counted; the actors' start is.
* ``records``: games per second through ``read_game`` (full games: every move parsed and checked;
  the tree's nodes are made when first used), the same with the tree walked (``game.end()``),
  ``read_headers`` and ``skip_game`` over a file of ``--games`` games (random games of up to 120
  plies with the seven tags, written once and read back).

* ``long``: annotating one game of ``--plies`` plies (10,000; random moves that do not end the
  game) against as many positions in four-ply games, one worker, 50 nodes a position: the cost per
  position of a long game should be that of a short one (it was quadratic: each position replayed
  the whole game in Python).

The machine's load average is printed first: the figures mean little on a machine busy with other
work. Build in release mode first (``pip install .``).
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import congo
import congo.pgn
from congo.files import atomic_output


def positions(count: int, seed: int = 2024) -> list[congo.Board]:
    """Positions from random games (openings to endgames), each with its game's moves."""
    rng = random.Random(seed)
    boards: list[congo.Board] = []
    board = congo.Board()
    while len(boards) < count:
        moves = list(board.legal_moves)
        if not moves or board.ply() >= 60:
            board = congo.Board()
            continue
        board.push(rng.choice(moves))
        if board.ply() >= 4 and not board.is_game_over():
            boards.append(board.copy())
    return boards


def timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def bench_workers(boards: list[congo.Board], limit: congo.Limit) -> dict[str, float]:
    rates = {}
    for workers in (1, 2):
        cpu = time.process_time()
        seconds = timed(lambda w=workers: list(congo.analyse_many(boards, limit, workers=w)))  # type: ignore[misc]
        cpu = time.process_time() - cpu
        rates[f"workers={workers}"] = len(boards) / seconds
        # CPU seconds per wall second: how many cores the workers actually got (a machine busy with
        # other work caps the ratio below whatever the code allows).
        print(
            f"  {workers} worker(s): {len(boards) / seconds:8.1f} positions/s ({seconds:.1f} s), "
            f"{1000 * cpu / len(boards):.1f} CPU ms per position, {cpu / seconds:.2f} cores busy",
            flush=True,
        )
    ratio = rates["workers=2"] / rates["workers=1"]
    print(f"  2 workers / 1 worker: {ratio:.2f}x   (target >= 1.8x on 2 cores)")
    rates["ratio"] = ratio
    return rates


def bench_ray(boards: list[congo.Board], limit: congo.Limit) -> dict[str, float]:
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # keep Ray on loopback
    ray: Any = importlib.import_module("ray")

    ray.init(_node_ip_address="127.0.0.1", include_dashboard=False, log_to_driver=False)
    try:
        workers = int(ray.cluster_resources().get("CPU", 1))
        address = ray.get_runtime_context().gcs_address
        threaded = timed(lambda: list(congo.analyse_many(boards, limit, workers=workers)))
        on_ray = timed(lambda: list(congo.analyse_many(boards, limit, ray=address)))
    finally:
        ray.shutdown()
    overhead = on_ray / threaded - 1
    print(f"  threads ({workers} workers): {threaded:.1f} s   Ray ({workers} actors): {on_ray:.1f} s")
    print(f"  Ray overhead: {100 * overhead:+.1f} %   (target <= 15 %)")
    return {"threads_s": threaded, "ray_s": on_ray, "overhead": overhead}


def corpus(games: int, distinct: int = 2000, seed: int = 7) -> str:
    """``games`` records: ``distinct`` random games, repeated."""
    rng = random.Random(seed)
    out = io.StringIO()
    for number in range(distinct):
        board = congo.Board()
        while not board.is_game_over(max_plies=120):
            board.push(rng.choice(list(board.legal_moves)))
        game = congo.pgn.Game.from_board(board)
        game.headers.update(Event="Bench", Round=str(number + 1), White=f"W{number}", Black=f"B{number}")
        congo.pgn.write_game(out, game)
    block = out.getvalue()
    return block * (games // distinct) + block[: 0 if games % distinct == 0 else len(block)]


def bench_records(games: int) -> dict[str, float]:
    text = corpus(games)
    rates = {}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.pgn"
        with atomic_output(path) as out:
            out.write(text)
        print(
            f"  {games:,} games, {len(text) / 1e6:.1f} MB, {text.count('.') // games} move numbers per game"
        )

        def read_and_walk(handle: TextIO) -> object:
            game = congo.pgn.read_game(handle)
            if game is not None:
                game.end()  # makes every node of the main line
            return game

        for name, read in (
            ("read_game", congo.pgn.read_game),
            ("… + its tree", read_and_walk),
            ("read_headers", congo.pgn.read_headers),
            ("skip_game", congo.pgn.skip_game),
        ):
            with path.open(encoding="utf-8") as handle:
                count = 0
                start, cpu = time.perf_counter(), time.process_time()
                while read(handle) not in (None, False):
                    count += 1
                seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
            # On a shared machine the wall clock measures the other jobs too: the CPU time this
            # process spent is the library's own cost (one thread, so the two agree when idle).
            rates[name] = count / cpu
            print(
                f"  {name:13} {count / cpu:10,.0f} games/s of CPU time"
                f" ({count / seconds:,.0f} by the wall clock; {cpu:.1f} s CPU for {count:,})",
                flush=True,
            )
    return rates


def long_game(plies: int, seed: int = 5) -> congo.pgn.Game:
    """A game of ``plies`` random moves, none of which ends it (lions are not captured)."""
    rng = random.Random(seed)
    board = congo.Board()
    while len(board.move_stack) < plies:
        moves = list(board.legal_moves)
        rng.shuffle(moves)
        for move in moves:
            board.push(move)
            if board.outcome() is None and any(True for _ in board.legal_moves):
                break
            board.pop()
        else:
            raise RuntimeError("no move keeps the game going")
    return congo.pgn.Game.from_board(board)


def short_games(count: int, seed: int = 5) -> list[congo.pgn.Game]:
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board = congo.Board()
        for _ in range(4):
            board.push(rng.choice(list(board.legal_moves)))
        games.append(congo.pgn.Game.from_board(board))
    return games


def bench_long(plies: int) -> dict[str, float]:
    from congo.annotate import annotate_games

    limit = congo.Limit(nodes=50)
    game = long_game(plies)
    games = short_games(plies // 4)
    figures = {
        "long": timed(lambda: list(annotate_games([game], limit, workers=1))),
        "short": timed(lambda: list(annotate_games(games, limit, workers=1))),
    }
    print(
        f"  one game of {plies:,} plies: {figures['long']:.1f} s; {plies // 4:,} games of 4 plies "
        f"({plies // 4 * 5:,} positions): {figures['short']:.1f} s; "
        f"per position {1e6 * figures['long'] / (plies + 1):.0f} against "
        f"{1e6 * figures['short'] / (plies // 4 * 5):.0f} µs"
    )
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", choices=["workers", "ray", "records", "long"])
    parser.add_argument("--plies", type=int, default=10_000)
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=100_000)
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    limit = congo.Limit(nodes=args.nodes)
    if args.only in (None, "workers", "ray"):
        boards = positions(args.positions)
    if args.only in (None, "workers"):
        print(f"analyse_many, {args.positions} positions at {args.nodes:,} nodes:")
        bench_workers(boards, limit)
    if args.only in (None, "ray"):
        print(f"Ray against threads, {args.positions} positions at {args.nodes:,} nodes:")
        bench_ray(boards, limit)
    if args.only in (None, "records"):
        print("record reading:")
        bench_records(args.games)
    if args.only in (None, "long"):
        print("annotating a long game against short ones:")
        bench_long(args.plies)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
