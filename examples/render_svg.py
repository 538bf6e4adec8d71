"""Render a Congo position as an SVG image: the last move, a monkey chain, arrows.

    python examples/render_svg.py --output board.svg

By default it draws a monkey capturing two pieces in one chain (``b1d3f5``) and a red arrow for the
lion capture it threatens next; open the SVG in a browser (in Jupyter, a ``congo.svg.board(...)``
value displays itself).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from _output import save

import congo
import congo.svg


def threats(board: congo.Board) -> list[congo.svg.Arrow]:
    """Red arrows for the moves that would win at once if the side that just moved could move again."""
    again = board.copy(stack=False)
    again.turn = not board.turn
    return [
        congo.svg.Arrow(move.from_square, move.to_square, color="#c0392b")
        for move in again.legal_moves
        if again.san(move).endswith("#")
    ]


def render(fen: str, move: str | None, size: int) -> str:
    """The SVG of ``fen`` after ``move`` (if given), with that move highlighted and its threats."""
    board = congo.Board(fen)
    lastmove = board.push_san(move) if move else None
    return congo.svg.board(board, size=size, lastmove=lastmove, arrows=threats(board))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fen", default="7/4l2/7/2c1c2/7/2p4/1M1L3 w 1", help="the position")
    parser.add_argument("--move", default="Mxd3xf5", help="a move to play first, in SAN ('' for none)")
    parser.add_argument("--size", type=int, default=400, help="width in pixels")
    parser.add_argument("--output", default="board.svg", help="the SVG file to write")
    args = parser.parse_args(argv)
    svg = render(args.fen, args.move or None, args.size)
    save(args.output, svg)
    print(f"wrote {args.output} ({len(svg)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
