"""Move strings (docs/rules.md §9).

The canonical form is the squares concatenated in lower case: ``e3e4``, ``d1d6``, and for a
monkey chain every landing square, ``b5b3d3f5``. On input the MindSports forms ``d2-e3``,
``d2xe3``, ``a2-c4-c6x`` and the comma form ``b1d3,d3f5`` are accepted too.
"""

from __future__ import annotations

import re

from .geometry import parse_square, square_name
from .pieces import Path

_SQUARE = "[a-g][1-7]"
_CONCATENATED = re.compile(f"(?:{_SQUARE}){{2,}}")
# MindSports: squares separated by '-' (move) or 'x' (capture), optionally a trailing 'x'.
_MINDSPORTS = re.compile(f"{_SQUARE}(?:[-x]{_SQUARE})+x?")


def _split_squares(text: str) -> list[str]:
    return [text[i : i + 2] for i in range(0, len(text), 2)]


def normalize_move(move: str) -> str:
    """The canonical concatenated form of a move string, or ValueError if malformed.

    >>> normalize_move("a2-c4-c6x")
    'a2c4c6'
    >>> normalize_move("b1d3,d3f5")
    'b1d3f5'
    """
    if not isinstance(move, str):
        raise ValueError(f"move must be a string, not {type(move).__name__}")
    if _CONCATENATED.fullmatch(move):
        return move
    if _MINDSPORTS.fullmatch(move):
        return "".join(re.findall(_SQUARE, move))
    if "," in move:
        legs = move.split(",")
        if not all(_CONCATENATED.fullmatch(leg) for leg in legs):
            raise ValueError(f"malformed move {move!r}: every comma-separated leg must be squares")
        squares = _split_squares(legs[0])
        for leg in legs[1:]:
            leg_squares = _split_squares(leg)
            if leg_squares[0] != squares[-1]:
                raise ValueError(f"malformed move {move!r}: leg {leg!r} does not start where the last ended")
            squares += leg_squares[1:]
        return "".join(squares)
    raise ValueError(f"malformed move {move!r}")


def parse_move(move: str) -> Path:
    """The path of squares of a move string (any accepted form)."""
    canonical = normalize_move(move)
    return tuple(parse_square(name) for name in _split_squares(canonical))


def move_string(path: Path) -> str:
    """The canonical string of a path: the square names concatenated."""
    return "".join(square_name(sq) for sq in path)
