"""A plain, pure-Python oracle for the rules of Congo, as specified by the project's docs/rules.md.

Written from the rules text alone, for clarity rather than speed, and used to check the Rust
core in differential tests. Standard library only; imports nothing from ``congo``.

Modules, in the order of docs/rules.md:

* :mod:`.geometry` - squares, river, castles (§1)
* :mod:`.pieces` - one move generator per piece type, monkey jump chains (§4, §5)
* :mod:`.execution` - drowning (§6) and executing a move (§7)
* :mod:`.position` - :class:`Position`, legal moves, outcome (§3, §8)
* :mod:`.fen`, :mod:`.notation` - position strings and move strings (§9)
* :mod:`.perft` - perft and divide (§10); :mod:`.perft_file` - the perft-suite file format
"""

from .geometry import parse_square, square_name
from .notation import move_string, normalize_move, parse_move
from .perft import divide, perft
from .perft_file import PerftCase, load_perft_file
from .position import STARTING_FEN, Outcome, Position, piece_moves

__all__ = [
    "STARTING_FEN",
    "Outcome",
    "PerftCase",
    "Position",
    "divide",
    "load_perft_file",
    "move_string",
    "normalize_move",
    "parse_move",
    "parse_square",
    "perft",
    "piece_moves",
    "square_name",
]
