"""Play a random game of Congo and save it as a game record.

    python examples/random_game.py --seed 7 --plies 120 --output game.pgn

Prints the moves in SAN and the result; writes the record to ``--output`` (default: print it).
"""

from __future__ import annotations

import argparse
import io
import random
import sys
from collections.abc import Sequence

from _output import save

import congo
import congo.pgn


def play(seed: int, max_plies: int) -> congo.Board:
    """A game of uniformly random legal moves, until it ends or reaches ``max_plies``."""
    rng = random.Random(seed)
    board = congo.Board()
    while not board.is_game_over(claim_draw=True, max_plies=max_plies):
        board.push(rng.choice(list(board.legal_moves)))
    return board


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--plies", type=int, default=200, help="stop after this many plies (default 200)")
    parser.add_argument("--output", help="write the game record to this file")
    args = parser.parse_args(argv)

    board = play(args.seed, args.plies)
    print(board.root().variation_san(board.move_stack))
    outcome = board.outcome(claim_draw=True, max_plies=args.plies)
    assert outcome is not None
    print(f"{outcome.result()} ({outcome.termination.name.lower().replace('_', ' ')})")

    game = congo.pgn.Game.from_board(board)
    game.headers["Event"] = "Random game"
    game.headers["White"] = game.headers["Black"] = f"random (seed {args.seed})"
    game.headers["Result"] = outcome.result()
    if args.output:
        record = io.StringIO()
        congo.pgn.write_game(record, game)
        save(args.output, record.getvalue())
        print(f"saved to {args.output}")
    else:
        print()
        print(game)
    return 0


if __name__ == "__main__":
    sys.exit(main())
