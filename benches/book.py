"""Opening-book probes from Python: lookups a second through ``congo.book.Reader``, beside a plain
Python ``dict`` holding the same entries (the fastest lookup pure Python has).

    python benches/book.py                # a book of about 100,000 entries, 2,000 positions probed
    python benches/book.py --entries 1000000 --repeat 5

The book is made up front from random games (each position's first legal moves, random weights),
written and read back as a file. Each figure is the best of ``--repeat`` runs over the positions
probed, in lookups a second; the issue asks for at least 1 M from Python. Build the extension in
release mode first (``pip install .``). ``benches/results/book.txt`` holds a run.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from collections.abc import Callable

import congo
from congo import book


def random_boards(rng: random.Random, count: int, plies: int) -> list[congo.Board]:
    """``count`` positions from random games of up to ``plies`` plies (every game ongoing)."""
    boards: list[congo.Board] = []
    while len(boards) < count:
        board = congo.Board()
        for _ in range(rng.randrange(plies)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            boards.append(board.copy(stack=False))
    return boards


def make_book(rng: random.Random, boards: list[congo.Board], entries: int) -> list[book.Entry]:
    """About ``entries`` entries: up to four moves of each board, then of random positions."""
    made: dict[tuple[int, congo.Move], book.Entry] = {}
    extra = iter(random_boards(rng, entries, 40))
    source = iter(boards)
    while len(made) < entries:
        board = next(source, None) or next(extra)
        for move in list(board.legal_moves)[:4]:
            made[board.zobrist_hash(), move] = book.Entry(board.zobrist_hash(), move, rng.randrange(1, 100))
    return list(made.values())


def rate(probe: Callable[[], None], count: int, repeat: int) -> float:
    """Lookups a second: ``count`` lookups per call of ``probe``, the best of ``repeat`` calls."""
    best = min(_timed(probe) for _ in range(repeat))
    return count / best


def _timed(probe: Callable[[], None]) -> float:
    start = time.perf_counter()
    probe()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entries", type=int, default=100_000, help="book size (default: 100000)")
    parser.add_argument("--positions", type=int, default=2_000, help="positions probed (default: 2000)")
    parser.add_argument("--rounds", type=int, default=50, help="passes over them a run (default: 50)")
    parser.add_argument("--repeat", type=int, default=5, help="runs, the best kept (default: 5)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    boards = random_boards(rng, args.positions, 16)
    entries = make_book(rng, boards, args.entries)
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "bench.cbk")
        book.write(path, entries)
        size = os.path.getsize(path)
        start = time.perf_counter()
        reader = book.open_reader(path)
        opened = time.perf_counter() - start
    keys = [b.zobrist_hash() for b in boards]
    misses = random_boards(random.Random(args.seed + 1), args.positions, 60)
    misses = [b for b in misses if b not in reader]
    table: dict[int, list[tuple[congo.Move, int, int]]] = {}
    for entry in sorted(entries, key=lambda e: -e.weight):
        table.setdefault(entry.key, []).append((entry.move, entry.weight, entry.learn))
    n = len(boards) * args.rounds
    generator = random.Random(args.seed)

    def dict_get() -> None:
        get = table.get
        for _ in range(args.rounds):
            for key in keys:
                get(key)

    def dict_board() -> None:
        get = table.get
        for _ in range(args.rounds):
            for board in boards:
                get(board.zobrist_hash())

    def over(call: Callable[[object], object], items: list[object]) -> Callable[[], None]:
        def probe() -> None:
            for _ in range(args.rounds):
                for item in items:
                    call(item)

        return probe

    figures = [
        ("Python dict.get(key)", rate(dict_get, n, args.repeat)),
        ("Python dict.get(board.zobrist_hash())", rate(dict_board, n, args.repeat)),
        ("Reader.get(key)", rate(over(reader.get, list(keys)), n, args.repeat)),
        ("Reader.find(board)", rate(over(reader.find, list(boards)), n, args.repeat)),
        (
            "Reader.get(board), not in the book",
            rate(over(reader.get, list(misses)), len(misses) * args.rounds, args.repeat),
        ),
        ("Reader.find_all(board)", rate(over(reader.find_all, list(boards)), n, args.repeat)),
        (
            "Reader.weighted_choice(board, random=)",
            rate(over(lambda b: reader.weighted_choice(b, random=generator), list(boards)), n, args.repeat),
        ),
    ]
    print(
        f"book: {len(reader):,} entries, {reader.positions:,} positions, {size / 2**20:.1f} MiB, "
        f"read and checked in {opened * 1000:.1f} ms; {len(boards):,} positions probed x {args.rounds}"
    )
    baseline = figures[0][1]
    width = max(len(name) for name, _ in figures)
    for name, per_second in figures:
        print(
            f"  {name:<{width}}  {per_second / 1e6:5.2f} M lookups/s  {1e6 / per_second:5.2f} us"
            f"  {per_second / baseline:5.2f}x dict.get"
        )
    find = dict(figures)["Reader.find(board)"]
    print(
        f"Reader.find(board) at {find / 1e6:.2f} M lookups/s: {'at least' if find >= 1e6 else 'BELOW'} 1 M/s"
    )


if __name__ == "__main__":
    main()
