"""Read game records and summarise each game: players, result, moves, final position, problems.

    python examples/read_games.py games.pgn

Without a file it reads a small built-in sample, which includes a record with an illegal move to show
how problems are reported.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from typing import TextIO

import congo.pgn

SAMPLE = """\
[Event "Sample"]
[White "Ada"]
[Black "Bert"]
[Result "1-0"]
[Variant "Congo"]

1. Zf3 Ec5 {the elephant leaps} 2. cc3 (2. Ee3 Gc7) 2... Gc7 3. Ee3 Eee5 1-0

[Event "Sample"]
[White "Cleo"]
[Black "Dan"]
[Result "*"]
[Variant "Congo"]
[SetUp "1"]
[FEN "7/4l2/7/4c2/7/2p4/1M1L3 w 1"]

1. Mxd3xf5xd7# *

[Event "Broken"]
[Result "*"]

1. Zf3 Ec5 2. Zf9 cc3 *
"""


def summarise(handle: TextIO, out: TextIO) -> int:
    """Prints one line per game (and its problems); returns the number of games."""
    count = 0
    for game in congo.pgn.iter_games(handle):
        count += 1
        board = game.end().board()
        white, black = game.headers.get("White", "?"), game.headers.get("Black", "?")
        print(
            f"{count}. {white} - {black} {game.headers.get('Result', '*')}:"
            f" {len(game.mainline_moves())} moves, final position {board.fen()}",
            file=out,
        )
        print(f"   {game.board().variation_san(game.mainline_moves())}", file=out)
        for error in game.errors:
            print(f"   problem: {error}", file=out)
    return count


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args:
        with open(args[0], encoding="utf-8") as handle:
            summarise(handle, sys.stdout)
    else:
        summarise(io.StringIO(SAMPLE), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
