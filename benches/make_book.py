"""Makes the bundled opening book, ``python/congo/data/book.cbk``, from the engine's own games.

The built-in engine (``congo.Engine``, one thread, a fresh 16 MiB table per game) plays itself
from the start position at ``--nodes`` nodes a move. For the first ``--vary`` plies each move is
drawn uniformly (``random.Random(--seed)``) among the engine's ``--multipv`` best lines that score
within ``--window`` centipawns of the best, so that the games branch the way good play branches;
after that the engine plays its best move. A game ends as ``congo match`` ends it (a lion taken,
no legal move, bare lions, threefold repetition) or is drawn after ``--max-plies`` plies. The games
go to ``--games-out`` as PGN-style records, and the book is then what ``congo book make`` makes
of them::

    python benches/make_book.py                       # 2000 games at 3000 nodes (20 min), then:
    congo book make build/book-games.pgn -o python/congo/data/book.cbk --min-games 2 --max-ply 12

(the script runs that last step itself through ``congo.book.make``), and the summary is written to
``benches/results/book.txt``. Deterministic for a seed (node-limited searches on one thread).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import sys
import time

import congo
from congo import book, pgn
from congo.files import atomic_output, check_outputs

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "python" / "congo" / "data" / "book.cbk"
GAMES = ROOT / "build" / "book-games.pgn"
RESULTS = ROOT / "benches" / "results" / "book.txt"


def play_game(rng: random.Random, args: argparse.Namespace) -> pgn.Game:
    """One game of the engine against itself, varied in its first plies."""
    engine = congo.Engine(hash_mb=16)
    board = congo.Board()
    limit = congo.Limit(nodes=args.nodes)
    while not board.is_game_over(claim_draw=True, max_plies=args.max_plies):
        if board.ply() < args.vary:
            infos = engine.analyse(board, limit, multipv=args.multipv)
            best = infos[0]["score"].relative
            close = [
                info["pv"][0]
                for info in infos
                if info["pv"]
                and best.score(mate_score=100_000) - info["score"].relative.score(mate_score=100_000)
                <= args.window
            ]
            move = rng.choice(close)
        else:
            played = engine.play(board, limit)
            assert played.move is not None
            move = played.move
        board.push(move)
    game = pgn.Game.from_board(board)
    game.headers["White"] = game.headers["Black"] = f"congo {congo.__version__} nodes={args.nodes}"
    game.headers["Result"] = board.result(claim_draw=True, max_plies=args.max_plies)
    return game


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=2000, help="games to play (default: 2000)")
    parser.add_argument("--nodes", type=int, default=3000, help="nodes a move (default: 3000)")
    parser.add_argument(
        "--vary", type=int, default=12, help="plies chosen among the best lines (default: 12)"
    )
    parser.add_argument("--multipv", type=int, default=4, help="lines considered there (default: 4)")
    parser.add_argument("--window", type=int, default=30, help="centipawns from the best (default: 30)")
    parser.add_argument(
        "--max-plies", type=int, default=200, help="draw after this many plies (default: 200)"
    )
    parser.add_argument("--min-games", type=int, default=2, help="the book's --min-games (default: 2)")
    parser.add_argument("--max-ply", type=int, default=12, help="the book's --max-ply (default: 12)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the choices (default: 1)")
    parser.add_argument("--games-out", type=pathlib.Path, default=GAMES, help=f"records (default: {GAMES})")
    parser.add_argument("--out", type=pathlib.Path, default=OUT, help=f"the book (default: {OUT})")
    parser.add_argument("--results", type=pathlib.Path, default=RESULTS, help="summary file")
    args = parser.parse_args()

    os.makedirs(args.games_out.parent, exist_ok=True)
    try:  # before the games (minutes): a bad path, or two outputs that are one file
        check_outputs([args.games_out, args.out, args.results])
    except (OSError, ValueError) as error:
        parser.error(str(error))
    rng = random.Random(args.seed)
    start = time.perf_counter()
    results = {"1-0": 0, "0-1": 0, "1/2-1/2": 0}
    with atomic_output(args.games_out, "w") as records:
        for number in range(1, args.games + 1):
            game = play_game(rng, args)
            game.headers["Round"] = str(number)
            results[game.headers["Result"]] += 1
            print(game, file=records, end="\n\n")
            if number % 50 == 0:
                print(f"{number} games, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    played = time.perf_counter() - start
    entries, counts = book.make([args.games_out], min_games=args.min_games, max_ply=args.max_ply)
    book.write(args.out, entries, inputs=[args.games_out])
    size = args.out.stat().st_size
    with book.open_reader(args.out) as reader:
        top = [(e.move.uci(), e.weight) for e in reader.find_all(congo.Board())]
    summary = [
        "The bundled opening book, python/congo/data/book.cbk (benches/make_book.py).",
        "",
        f"Games: {args.games} of congo.Engine against itself, one thread, {args.nodes} nodes a move;",
        f"  the first {args.vary} plies drawn among the {args.multipv} best lines within {args.window} cp",
        f"  of the best (seed {args.seed}); a draw after {args.max_plies} plies.",
        f"  Results: {results['1-0']} wins for White, {results['0-1']} for Black, "
        f"{results['1/2-1/2']} draws;",
        f"  {played:.0f} s to play.",
        f"Book: congo book make --min-games {args.min_games} --max-ply {args.max_ply}:",
        f"  {counts['entries']} entries, {counts['positions']} positions, {size} bytes.",
        "Start position: " + ", ".join(f"{move} {weight}" for move, weight in top),
    ]
    with atomic_output(args.results, "w") as out:
        out.write("\n".join(summary) + "\n")
    print("\n".join(summary))


if __name__ == "__main__":
    main()
