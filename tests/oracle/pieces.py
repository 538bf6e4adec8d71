"""Moves of each piece type (docs/rules.md §4) and monkey jump chains (docs/rules.md §5).

Every generator takes ``(board, sq, white)``: the 49-entry board (``None`` or a piece letter,
upper case = White), the square of the moving piece and its colour. It returns the piece's
moves as *paths*: tuples of squares ``(from, to)`` for a single-leg move, or ``(from, land1,
land2, ...)`` for a monkey chain. A path's string form is its square names concatenated.

No generator looks at whose turn it is or whether the lions are present; that is the job of
``Position.legal_moves`` (docs/rules.md §3, §8). There is no check in Congo, so these are the legal moves.
"""

from __future__ import annotations

from typing import Callable, Optional

from .geometry import (
    KING_STEPS,
    KNIGHT_TARGETS,
    LEAP2,
    ORTHO_LEAPS,
    RIVER_RANK,
    STEP,
    Direction,
    E,
    W,
    across_river,
    castle,
    forward,
    in_river,
    rank_of,
)

Board = tuple[Optional[str], ...]
Path = tuple[int, ...]


def is_enemy(piece: str | None, white: bool) -> bool:
    """Whether ``piece`` (possibly ``None``) belongs to the opponent of ``white``."""
    return piece is not None and piece.isupper() != white


def can_land(board: Board, target: int, white: bool) -> bool:
    """A "move or capture" target: empty or holding an enemy piece (never a friendly one)."""
    piece = board[target]
    return piece is None or piece.isupper() != white


def _targets_to_paths(sq: int, targets: list[int]) -> list[Path]:
    """Single-leg paths ``(sq, t)``, each target once (a square reached two ways is one move)."""
    seen: list[int] = []
    for t in targets:
        if t not in seen:
            seen.append(t)
    return [(sq, t) for t in seen]


# --------------------------------------------------------------------------- lion (§4)


def lion_moves(board: Board, sq: int, white: bool) -> list[Path]:
    """Lion: king step (move or capture) inside its own castle, plus the facing capture.

    Facing capture (docs/rules.md §4): walk the three forward rays (N, NE, NW for White; S, SE, SW for
    Black) over empty squares; if the first piece met is the enemy lion, capturing it is legal.
    The lion never flies to an empty square.
    """
    own_castle = castle(white)
    targets = [t for t in KING_STEPS[sq] if t in own_castle and can_land(board, t, white)]
    enemy_lion = "l" if white else "L"
    dr = forward(white)
    for direction in ((0, dr), (1, dr), (-1, dr)):
        ray = STEP[direction]
        t = ray[sq]
        while t is not None and board[t] is None:
            t = ray[t]
        if t is not None and board[t] == enemy_lion:
            targets.append(t)
    return _targets_to_paths(sq, targets)


# --------------------------------------------------------------------------- zebra (§4)


def zebra_moves(board: Board, sq: int, white: bool) -> list[Path]:
    """Zebra: knight leap, move or capture."""
    return _targets_to_paths(sq, [t for t in KNIGHT_TARGETS[sq] if can_land(board, t, white)])


# --------------------------------------------------------------------------- elephant (§4)


def elephant_moves(board: Board, sq: int, white: bool) -> list[Path]:
    """Elephant: leap 1 or 2 squares orthogonally, move or capture; the middle square is ignored."""
    return _targets_to_paths(sq, [t for t in ORTHO_LEAPS[sq] if can_land(board, t, white)])


# --------------------------------------------------------------------------- giraffe (§4)


def giraffe_moves(board: Board, sq: int, white: bool) -> list[Path]:
    """Giraffe: NON-capturing king step, plus a leap of exactly 2 in any of 8 directions
    (move or capture; the middle square is ignored)."""
    steps = [t for t in KING_STEPS[sq] if board[t] is None]
    leaps = [t for t in LEAP2[sq] if can_land(board, t, white)]
    return _targets_to_paths(sq, steps + leaps)


# --------------------------------------------------------------------------- crocodile (§4)


def crocodile_moves(board: Board, sq: int, white: bool) -> list[Path]:
    """Crocodile: king step (move or capture) anywhere, plus a slide depending on the river.

    * Not in the river: a rook slide along its own file toward the river (from either side),
      over empty squares, stopping at the first piece (captured if an enemy) or at the river
      square (it may land on it or capture on it); never past the river, never away from it.
    * In the river: a rook slide along rank 4 in both directions, capturing the first enemy
      met; no vertical slide from the river.

    The first square of a slide is also a king step; it is one move, listed once.
    """
    targets = [t for t in KING_STEPS[sq] if can_land(board, t, white)]
    if in_river(sq):
        slide_directions: tuple[Direction, ...] = (E, W)
    else:
        slide_directions = ((0, 1),) if rank_of(sq) < RIVER_RANK else ((0, -1),)
    for direction in slide_directions:
        ray = STEP[direction]
        t = ray[sq]
        while t is not None:
            if board[t] is None:
                targets.append(t)
                if in_river(t) and not in_river(sq):
                    break  # a file slide stops at the river square
                t = ray[t]
            else:
                if is_enemy(board[t], white):
                    targets.append(t)
                break
    return _targets_to_paths(sq, targets)


# --------------------------------------------------------------------------- monkey (§4, §5)


def monkey_moves(board: Board, sq: int, white: bool) -> list[Path]:
    """Monkey: NON-capturing king step, or a jump chain (docs/rules.md §5)."""
    steps: list[Path] = [(sq, t) for t in KING_STEPS[sq] if board[t] is None]
    return steps + monkey_chains(board, sq, white)


def monkey_chains(board: Board, start: int, white: bool) -> list[Path]:
    """Every jump chain of the monkey on ``start``, each prefix a move of its own (docs/rules.md §5).

    1. A jump goes over an adjacent enemy piece (8 directions) to the square immediately
       beyond, which must be on the board and empty. No jumping friends or empty squares.
    2. After each jump the monkey may stop (the path so far is a move) or jump again.
    3. Direction may change freely between jumps.
    4. Each enemy piece may be jumped at most once per move.
    5. Squares may be revisited, including the start square (empty once the monkey left it).
    6. Jumped pieces are removed when the move is complete, so during the search they stay
       on the board (they can neither be landed on nor jumped twice).
    7. Jumping the enemy lion captures it and ends the chain.
    8. Every distinct list of landing squares is a distinct move.
    """
    enemy_lion = "l" if white else "L"
    chains: list[Path] = []

    def is_empty(t: int) -> bool:
        return board[t] is None or t == start  # the start square is empty once the monkey left

    def extend(path: Path, jumped: frozenset[int]) -> None:
        here = path[-1]
        for ray in STEP.values():
            over = ray[here]
            if over is None or over in jumped or not is_enemy(board[over], white):
                continue
            land = ray[over]
            if land is None or not is_empty(land):
                continue
            longer = (*path, land)
            chains.append(longer)
            if board[over] != enemy_lion:  # a lion jump ends the chain (§5.7)
                extend(longer, jumped | {over})

    extend((start,), frozenset())
    return chains


def jumped_squares(path: Path) -> list[int]:
    """The squares jumped over by a monkey chain: the midpoint of every two-square leg."""
    return [(a + b) // 2 for a, b in zip(path, path[1:])]


def is_monkey_jump(path: Path) -> bool:
    """Whether a monkey's path is a jump chain rather than a one-square step."""
    a, b = path[0], path[1]
    return max(abs(a % 7 - b % 7), abs(a // 7 - b // 7)) == 2


# --------------------------------------------------------------------------- pawns (§4)


def _pawn_forward_targets(board: Board, sq: int, white: bool) -> list[int]:
    """One square straight or diagonally forward, move or capture (3 targets)."""
    dr = forward(white)
    return [
        t
        for direction in ((0, dr), (1, dr), (-1, dr))
        if (t := STEP[direction][sq]) is not None and can_land(board, t, white)
    ]


def _retreat_targets(board: Board, sq: int, direction: Direction) -> list[int]:
    """1 or 2 squares in ``direction``, move only, no jumping (every square passed is empty)."""
    ray = STEP[direction]
    targets = []
    t = ray[sq]
    for _ in range(2):
        if t is None or board[t] is not None:
            break
        targets.append(t)
        t = ray[t]
    return targets


def pawn_moves(board: Board, sq: int, white: bool) -> list[Path]:
    """Pawn: one square straight or diagonally forward, move or capture; and ONLY when across
    the river (never while in it), 1 or 2 squares straight backward, move only, no jumping.
    A retreat may end in or cross the river."""
    targets = _pawn_forward_targets(board, sq, white)
    if across_river(sq, white):
        targets += _retreat_targets(board, sq, (0, -forward(white)))
    return _targets_to_paths(sq, targets)


def superpawn_moves(board: Board, sq: int, white: bool) -> list[Path]:
    """Superpawn: the pawn's forward moves/captures, one square sideways (move or capture), and,
    anywhere on the board, 1 or 2 squares straight or diagonally backward, move only, no
    jumping (for 2 squares the intermediate square in that direction must be empty)."""
    targets = _pawn_forward_targets(board, sq, white)
    targets += [t for d in (E, W) if (t := STEP[d][sq]) is not None and can_land(board, t, white)]
    back = -forward(white)
    for direction in ((0, back), (1, back), (-1, back)):
        targets += _retreat_targets(board, sq, direction)
    return _targets_to_paths(sq, targets)


# --------------------------------------------------------------------------- dispatch

MOVE_GENERATORS: dict[str, Callable[[Board, int, bool], list[Path]]] = {
    "L": lion_moves,
    "Z": zebra_moves,
    "E": elephant_moves,
    "G": giraffe_moves,
    "C": crocodile_moves,
    "M": monkey_moves,
    "P": pawn_moves,
    "S": superpawn_moves,
}


def paths_from(board: Board, sq: int) -> list[Path]:
    """All moves of the piece on ``sq`` (its colour taken from its letter); [] on an empty square."""
    piece = board[sq]
    if piece is None:
        return []
    return MOVE_GENERATORS[piece.upper()](board, sq, piece.isupper())
