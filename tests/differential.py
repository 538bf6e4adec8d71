"""Soak test: random games played on the Rust core and on the oracle, compared at every position.

    python -m tests.differential --games 4000 --seed 1 [--positions-only] [--time-limit 180] [--jobs 2]
    python -m tests.differential --replay "3l3/7/7/2M4/2pp3/7/4L2 w 10" c4c2e4

Each game starts from the start position, a position of the perft suites (tests/data/*.perft) or a
random valid position (``--positions-only``: random positions only) and plays random moves until
the game is over or a ply limit; every position is compared (FEN, legal moves, outcome, Zobrist
hash against a from-scratch hash; one position in ``--thorough-every`` also every move's parsing,
``is_capture`` and ``captured_squares``). Game ``g`` of seed ``S`` depends on ``(S, g)`` only, so
runs are reproducible whatever ``--jobs``.

Progress goes to stderr; the last line on stdout reads ``agreed on N positions in G games
(D disagreements)``. On a disagreement the run stops, prints a minimized reproduction (a FEN and a
move list, replayable with ``--replay``) and exits with status 1.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Generator, Sequence
from pathlib import Path

import congo
from tests.differential_support import (
    Disagreement,
    RandomChooser,
    compare_game,
    follow,
    minimize,
    pick,
    random_picker,
    random_position,
)
from tests.oracle import load_perft_file

DATA = Path(__file__).parent / "data"


def suite_fens() -> list[str]:
    """The FENs of every perft suite in tests/data."""
    return [case.fen for path in sorted(DATA.glob("*.perft")) for case in load_perft_file(path)]


class GameResult:
    """What one soak game reports back: its number, positions compared, and any disagreement."""

    def __init__(self, game: int, positions: int, disagreement: Disagreement | None) -> None:
        self.game = game
        self.positions = positions
        self.disagreement = disagreement


_SUITE: list[str] = []


def _init_worker(suite: list[str]) -> None:
    _SUITE[:] = suite


def play_one(job: tuple[int, int, bool, int]) -> GameResult:
    """Play game ``game`` of ``seed`` (deterministic in both) and compare core and oracle."""
    seed, game, positions_only, thorough_every = job
    rng = random.Random(f"congo-differential:{seed}:{game}")
    chooser = RandomChooser(rng)
    kind = "random" if positions_only else pick(chooser, ["random"] * 7 + ["start"] * 2 + ["suite"])
    if kind == "start":
        fen, max_plies = congo.STARTING_FEN, 300
    elif kind == "suite" and _SUITE:
        fen, max_plies = pick(chooser, _SUITE), 200
    else:
        fen, max_plies = random_position(chooser), 150
    picker = random_picker(chooser, capture_bias=pick(chooser, [0.0, 0.0, 0.3, 0.7]))
    try:
        positions = compare_game(
            fen,
            picker,
            thorough=lambda: rng.randrange(thorough_every) == 0,
            max_plies=max_plies,
        )
    except Disagreement as found:
        return GameResult(game, len(found.moves), minimize(found))
    return GameResult(game, positions, None)


def run_soak(
    games: int,
    seed: int,
    *,
    positions_only: bool = False,
    time_limit: float | None = None,
    jobs: int = 1,
    thorough_every: int = 16,
    progress_every: float = 5.0,
) -> tuple[int, int, list[tuple[int, Disagreement]]]:
    """Play up to ``games`` games (fewer if ``time_limit`` seconds pass first); stop at the first
    disagreement. Returns ``(positions agreed, games played, [(game, disagreement)])``; the game
    with the disagreement counts as played, its positions before the disagreement as agreed."""
    started = time.monotonic()
    suite = suite_fens()
    jobs_iter = ((seed, g, positions_only, thorough_every) for g in range(games))
    positions = finished = 0
    found: list[tuple[int, Disagreement]] = []
    last_report = started

    def results() -> Generator[GameResult, None, None]:
        if jobs <= 1:
            _init_worker(suite)
            yield from map(play_one, jobs_iter)
        else:
            with multiprocessing.Pool(jobs, initializer=_init_worker, initargs=(suite,)) as pool:
                yield from pool.imap_unordered(play_one, jobs_iter, chunksize=8)

    stream = results()
    try:
        for result in stream:
            positions += result.positions
            finished += 1
            if result.disagreement is not None:
                found.append((result.game, result.disagreement))
                break
            now = time.monotonic()
            if now - last_report >= progress_every:
                last_report = now
                rate = positions / (now - started)
                print(
                    f"[{now - started:7.1f}s] {finished} games, {positions} positions ({rate:,.0f}/s)",
                    file=sys.stderr,
                    flush=True,
                )
            if time_limit is not None and now - started >= time_limit:
                print(f"time limit of {time_limit:g}s reached", file=sys.stderr)
                break
    finally:
        stream.close()  # leaves the pool's context: remaining workers are terminated
    return positions, finished, found


def replay(fen: str, moves: Sequence[str]) -> int:
    """Replay a reproduction with every check on; 0 if core and oracle agree, else 1."""
    try:
        positions = compare_game(fen, follow(list(moves)), thorough=True)
    except Disagreement as found:
        print(found.report())
        return 1
    print(f"agreed on {positions} positions")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.differential",
        description="Play random games on the Rust core and the oracle and compare every position.",
    )
    parser.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--positions-only",
        action="store_true",
        help="start every game from a random valid position (default: also from the start position "
        "and the perft-suite positions)",
    )
    parser.add_argument(
        "--time-limit", type=float, default=None, metavar="SECONDS", help="stop after this long"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--thorough-every",
        type=int,
        default=16,
        metavar="K",
        help="check every move's parsing and captures in one position out of K (default 16; 1 = all)",
    )
    parser.add_argument(
        "--replay",
        nargs="+",
        metavar=("FEN", "MOVE"),
        help="replay a reproduction: a FEN (quoted) and moves, instead of a soak",
    )
    args = parser.parse_args(argv)
    if args.replay:
        return replay(args.replay[0], args.replay[1:])
    if args.games < 0 or args.jobs < 1 or args.thorough_every < 1:
        parser.error("--games must be >= 0, --jobs and --thorough-every >= 1")

    started = time.monotonic()
    print(
        f"soak: up to {args.games} games, seed {args.seed}, {args.jobs} job(s), congo {congo.__version__}",
        file=sys.stderr,
    )
    positions, games, found = run_soak(
        args.games,
        args.seed,
        positions_only=args.positions_only,
        time_limit=args.time_limit,
        jobs=args.jobs,
        thorough_every=args.thorough_every,
    )
    elapsed = time.monotonic() - started
    print(f"{elapsed:.1f}s, {positions / max(elapsed, 1e-9):,.0f} positions/s", file=sys.stderr)
    for game, disagreement in found:
        print(f"game {game} of seed {args.seed}: minimal reproduction")
        print(disagreement.report())
        moves = " ".join(disagreement.moves)
        print(f'replay: python -m tests.differential --replay "{disagreement.fen}" {moves}'.rstrip())
    game_word = "game" if games == 1 else "games"
    found_word = "disagreement" if len(found) == 1 else "disagreements"
    print(f"agreed on {positions} positions in {games} {game_word} ({len(found)} {found_word})")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
