"""Shared machinery of the differential tests: the Rust core (``congo``) against the oracle
(``tests.oracle``).

Used by the pytest/hypothesis tests (``tests/test_differential.py``) and by the soak command
(``python -m tests.differential``). Nothing here imports hypothesis.

* :class:`Chooser` - the source of every random decision. :class:`RandomChooser` wraps
  :class:`random.Random` for the soak; the tests wrap hypothesis draws, so that a failure shrinks
  (every decision is an integer that shrinks toward 0 = "simpler": fewer pieces, feature off,
  first move in sorted order, shorter game).
* :func:`random_position` - a random *valid* position (docs/rules.md §9), weighted toward the rules that are
  easy to get wrong: monkeys with jump chains, crocodiles in and out of the river, superpawns,
  pieces of the side to move in the river (they drown), facing lions, crowded castles.
* :func:`check_position` - compares core and oracle on one position; :func:`compare_game` plays a
  game on both, comparing every position; a mismatch raises :class:`Disagreement`.
* :func:`minimize` - shrinks a disagreement to a short move list from a FEN with few pieces.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Callable, Optional, Protocol, TypeVar

import congo
from tests.oracle import Position, move_string, parse_move
from tests.oracle.fen import MAX_PIECES_PER_COLOR, board_fen, validate_board
from tests.oracle.geometry import BLACK_CASTLE, STEP, WHITE_CASTLE, square
from tests.oracle.pieces import Board, Path, is_monkey_jump, jumped_squares

T = TypeVar("T")

# =============================================================================== random decisions


class Chooser(Protocol):
    """The source of every random decision of the generators."""

    def integer(self, low: int, high: int) -> int:
        """An integer in ``[low, high]``; "simpler" values are the low ones."""

    def chance(self, probability: float) -> bool:
        """True with the given probability; False is the "simpler" answer."""


class RandomChooser:
    """A :class:`Chooser` backed by :class:`random.Random` (the soak)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def chance(self, probability: float) -> bool:
        return self.rng.random() < probability


def pick(chooser: Chooser, items: Sequence[T]) -> T:
    """One of ``items`` (the first is the "simplest")."""
    return items[chooser.integer(0, len(items) - 1)]


def pick_weighted(chooser: Chooser, weighted: Sequence[tuple[T, int]]) -> T:
    """One item of ``(item, weight)`` pairs, with probability proportional to its weight."""
    n = chooser.integer(0, sum(weight for _, weight in weighted) - 1)
    for item, weight in weighted:
        if n < weight:
            return item
        n -= weight
    raise AssertionError("unreachable")


# =============================================================================== positions

#: Piece letters for random filling, with weights (the lion is placed separately).
FILLER_PIECES: tuple[tuple[str, int], ...] = (
    ("P", 6),
    ("S", 2),
    ("M", 3),
    ("C", 3),
    ("E", 2),
    ("Z", 2),
    ("G", 2),
)
NON_LION = "PSMCEZG"
RIVER_SQUARES = tuple(square(f, 3) for f in range(7))
WHITE_CASTLE_SQUARES = tuple(sorted(WHITE_CASTLE, key=lambda sq: (abs(sq % 7 - 3), sq)))  # d1 first
BLACK_CASTLE_SQUARES = tuple(sorted(BLACK_CASTLE, key=lambda sq: (abs(sq % 7 - 3), -sq)))  # d7 first
KING_DIRECTIONS = tuple(STEP)


@dataclass
class _Layout:
    """A board under construction: pieces, and squares that must stay empty."""

    board: list[str | None] = field(default_factory=lambda: [None] * 49)
    reserved: set[int] = field(default_factory=set)

    def free(self, sq: int) -> bool:
        return self.board[sq] is None and sq not in self.reserved

    def place(self, sq: int, piece: str) -> bool:
        """Put ``piece`` on a free square; a pawn on its promotion rank becomes a superpawn. Refused
        once the piece's colour has 14 pieces (docs/rules.md §9, decision A21); lions are placed first."""
        if not self.free(sq):
            return False
        same_colour = sum(
            1 for other in self.board if other is not None and other.isupper() == piece.isupper()
        )
        if same_colour >= MAX_PIECES_PER_COLOR:
            return False
        if (piece == "P" and sq >= 42) or (piece == "p" and sq < 7):
            piece = "S" if piece == "P" else "s"
        self.board[sq] = piece
        return True

    def free_squares(self, squares: Sequence[int] = range(49)) -> list[int]:
        return [sq for sq in squares if self.free(sq)]


def _colored(letter: str, white: bool) -> str:
    return letter.upper() if white else letter.lower()


def _place_random(chooser: Chooser, layout: _Layout, squares: Sequence[int], piece: str) -> int | None:
    """Put ``piece`` on a random free square of ``squares``; its square, or None if all are taken."""
    free = layout.free_squares(squares)
    if not free:
        return None
    sq = pick(chooser, free)
    layout.place(sq, piece)
    return sq


def _place_lions(chooser: Chooser, layout: _Layout) -> None:
    """Both lions in their castles; often facing each other (file or diagonal, path clear or with
    one blocker that may move away); rarely one lion missing (a decided game)."""
    mode = pick_weighted(chooser, (("castles", 70), ("facing", 20), ("missing", 3)))
    if mode == "castles":
        layout.place(pick(chooser, WHITE_CASTLE_SQUARES), "L")
        layout.place(pick(chooser, BLACK_CASTLE_SQUARES), "l")
    elif mode == "facing":
        # (white lion, black lion): same file c/d/e, or the c3-d4-e5 / e3-d4-c5 diagonals.
        pairs = [(square(f, rw), square(f, rb)) for f in (3, 2, 4) for rw in (0, 1, 2) for rb in (6, 5, 4)]
        pairs += [(square(2, 2), square(4, 4)), (square(4, 2), square(2, 4))]
        white_sq, black_sq = pick(chooser, pairs)
        layout.place(white_sq, "L")
        layout.place(black_sq, "l")
        df = (black_sq % 7 > white_sq % 7) - (black_sq % 7 < white_sq % 7)
        between = []
        sq = STEP[(df, 1)][white_sq]
        while sq is not None and sq != black_sq:
            between.append(sq)
            sq = STEP[(df, 1)][sq]
        if between and chooser.chance(0.25):
            # one blocker between the lions: moving it away discovers the facing capture
            layout.place(pick(chooser, between), _random_piece(chooser, chooser.chance(0.5)))
        layout.reserved.update(between)
    else:
        white = chooser.chance(0.5)
        own = WHITE_CASTLE_SQUARES if white else BLACK_CASTLE_SQUARES
        squares: Sequence[int] = own if chooser.chance(0.5) else range(49)
        layout.place(pick(chooser, squares), _colored("L", white))


def _place_monkey_chain(chooser: Chooser, layout: _Layout, white: bool, in_river: bool) -> None:
    """A monkey with a chain of 1-6 jumpable enemies laid out along a random walk of jumps
    (landing squares kept empty), plus sometimes extra enemies around it."""
    squares = RIVER_SQUARES if in_river else range(49)
    start = _place_random(chooser, layout, squares, _colored("M", white))
    if start is None:
        return
    here, jumped = start, set()
    for _ in range(chooser.integer(1, 6)):
        options = []
        for d in KING_DIRECTIONS:
            over = STEP[d][here]
            land = STEP[d][over] if over is not None else None
            if over is None or land is None or over in jumped:
                continue
            piece = layout.board[over]
            over_ok = (piece is None and over not in layout.reserved) or (
                piece is not None and piece.isupper() != white and piece.upper() != "L"
            )
            land_ok = layout.board[land] is None or land == start
            if over_ok and land_ok:
                options.append((over, land))
        if not options:
            break
        over, land = pick(chooser, options)
        if layout.board[over] is None:
            layout.place(over, _random_piece(chooser, not white))
        jumped.add(over)
        if land != start:
            layout.reserved.add(land)
        here = land
    for sq in STEP.values():
        neighbour = sq[start]
        if neighbour is not None and chooser.chance(0.2):
            layout.place(neighbour, _random_piece(chooser, not white))


def _random_piece(chooser: Chooser, white: bool) -> str:
    """A random non-lion piece of the given colour (weights: :data:`FILLER_PIECES`)."""
    return _colored(pick_weighted(chooser, FILLER_PIECES), white)


def _place_boxed(chooser: Chooser, layout: _Layout, white_to_move: bool) -> None:
    """The side to move has only its lion and monkeys, hemmed in: the lion's castle neighbours hold
    its own monkeys and every square within two of them holds an enemy piece, up to the 14 pieces a
    colour may have, so it has few legal moves. (A box with no legal move at all needs more pieces
    than docs/rules.md §9 allows; the core's unit tests check that rule on an unchecked setup.)"""
    own_castle = WHITE_CASTLE_SQUARES if white_to_move else BLACK_CASTLE_SQUARES
    other_castle = BLACK_CASTLE_SQUARES if white_to_move else WHITE_CASTLE_SQUARES
    lion = pick(chooser, own_castle)
    layout.place(lion, _colored("L", white_to_move))
    layout.place(pick(chooser, other_castle), _colored("L", not white_to_move))
    movers = [lion]
    for d in KING_DIRECTIONS:
        sq = STEP[d][lion]
        if (
            sq is not None
            and sq in own_castle
            and not chooser.chance(0.1)
            and layout.place(sq, _colored("M", white_to_move))
        ):
            movers.append(sq)
    for sq in range(49):
        near = any(max(abs(sq % 7 - m % 7), abs(sq // 7 - m // 7)) <= 2 for m in movers)
        if near and not chooser.chance(0.04):
            layout.place(sq, _random_piece(chooser, not white_to_move))
    for _ in range(chooser.integer(0, 6)):
        _place_random(chooser, layout, range(49), _random_piece(chooser, not white_to_move))


def _place_features(chooser: Chooser, layout: _Layout, white_to_move: bool) -> None:
    """Monkey chains, crowded castles, river pieces, crocodiles, superpawns, pawns across the
    river, then random filler, each feature with its own probability."""
    if chooser.chance(0.4):
        for _ in range(chooser.integer(1, 2)):
            white = white_to_move if chooser.chance(0.7) else not white_to_move
            _place_monkey_chain(chooser, layout, white, in_river=chooser.chance(0.3))
    if chooser.chance(0.3):  # crowded castles
        for castle_white, castle_squares in ((True, WHITE_CASTLE_SQUARES), (False, BLACK_CASTLE_SQUARES)):
            if chooser.chance(0.7):
                for sq in castle_squares:
                    if chooser.chance(0.75):
                        owner = castle_white if chooser.chance(0.7) else not castle_white
                        layout.place(sq, _random_piece(chooser, owner))
    if chooser.chance(0.4):  # pieces in the river, mostly of the side to move (they drown)
        for _ in range(chooser.integer(1, 4)):
            owner = white_to_move if chooser.chance(0.7) else not white_to_move
            _place_random(chooser, layout, RIVER_SQUARES, _random_piece(chooser, owner))
    if chooser.chance(0.35):  # crocodiles, in and out of the river
        for _ in range(chooser.integer(1, 3)):
            squares: Sequence[int] = RIVER_SQUARES if chooser.chance(0.35) else range(49)
            _place_random(chooser, layout, squares, _colored("C", chooser.chance(0.5)))
    if chooser.chance(0.3):  # superpawns anywhere
        for _ in range(chooser.integer(1, 3)):
            _place_random(chooser, layout, range(49), _colored("S", chooser.chance(0.5)))
    if chooser.chance(0.3):  # pawns across the river (retreats)
        for _ in range(chooser.integer(1, 4)):
            white = chooser.chance(0.5)
            _place_random(chooser, layout, range(28, 42) if white else range(7, 21), _colored("P", white))
    for _ in range(chooser.integer(0, 16)):
        _place_random(chooser, layout, range(49), _random_piece(chooser, chooser.chance(0.5)))


def random_position(chooser: Chooser) -> str:
    """A random valid position (docs/rules.md §9) as a FEN, weighted toward the tricky rules.

    Lions in their castles (often facing, rarely one missing); monkeys with jump chains (also
    starting in the river); crowded castles; pieces of both sides (above all the side to move) in
    the river; superpawns; crocodiles in and out of the river; pawns across the river; random
    filler; random side to move and move number (sometimes 0, which docs/rules.md §9 accepts).
    """
    layout = _Layout()
    white_to_move = not chooser.chance(0.5)  # White to move is the "simpler" answer
    mode = pick_weighted(chooser, (("normal", 88), ("sparse", 8), ("boxed", 4)))
    if mode == "boxed":
        _place_boxed(chooser, layout, white_to_move)
    else:
        _place_lions(chooser, layout)
    if mode == "sparse":  # lions and at most two other pieces: bare lions and near it
        for _ in range(chooser.integer(0, 2)):
            _place_random(chooser, layout, range(49), _random_piece(chooser, chooser.chance(0.5)))
    elif mode == "normal":
        _place_features(chooser, layout, white_to_move)
    fullmove = 0 if chooser.chance(0.03) else chooser.integer(1, 120)
    board: Board = tuple(layout.board)
    validate_board(board)
    return f"{board_fen(board)} {'w' if white_to_move else 'b'} {fullmove}"


# =============================================================================== comparison


class Disagreement(AssertionError):
    """Core and oracle disagree. ``fen`` + ``moves`` reproduces it: the mismatch is seen in the
    position reached by playing ``moves`` from ``fen`` (or while playing the last of them)."""

    def __init__(self, kind: str, details: list[str], fen: str = "", moves: Sequence[str] = ()) -> None:
        self.kind = kind
        self.details = details
        self.fen = fen
        self.moves = list(moves)
        super().__init__(self.report())

    def __reduce__(self) -> tuple[type[Disagreement], tuple[str, list[str], str, list[str]]]:
        return (Disagreement, (self.kind, self.details, self.fen, self.moves))

    def with_context(self, fen: str, moves: Sequence[str]) -> Disagreement:
        return Disagreement(self.kind, self.details, fen, moves)

    def report(self) -> str:
        lines = [
            f"core and oracle disagree ({self.kind})",
            f"  FEN:   {self.fen}",
            f"  moves: {' '.join(self.moves)}",
        ]
        lines += [f"  - {line}" for line in self.details]
        return "\n".join(lines)


def oracle_captures(board: Board, path: Path) -> set[int]:
    """The squares of the enemy pieces that a legal move (a path of the oracle) captures on ``board``
    (docs/rules.md §4, §5): every jumped square of a monkey chain, else the target square if occupied."""
    piece = board[path[0]]
    assert piece is not None
    if piece.upper() == "M" and is_monkey_jump(path):
        return set(jumped_squares(path))
    return {path[-1]} if board[path[-1]] is not None else set()


def _differences(label: str, core: Sequence[str], oracle: Sequence[str]) -> list[str]:
    extra = sorted(set(core) - set(oracle))
    missing = sorted(set(oracle) - set(core))
    out = []
    if extra:
        out.append(f"{label}: only the core has {' '.join(extra)}")
    if missing:
        out.append(f"{label}: only the oracle has {' '.join(missing)}")
    return out


OracleOutcome = Optional[tuple[str, Optional[bool]]]


def core_outcome(board: congo.Board) -> OracleOutcome:
    """The core's outcome in the oracle's shape ``(termination name, winner)``."""
    outcome = board.outcome()
    return None if outcome is None else (outcome.termination.name, outcome.winner)


def oracle_outcome(position: Position, paths: Sequence[Path], *, full: bool) -> OracleOutcome:
    """``position.outcome()``. With ``full=False`` the oracle is only asked when one of the
    conditions of docs/rules.md §8 can hold (a lion missing, no legal move, two pieces left); otherwise the
    outcome is None by docs/rules.md §8 and the second move generation is saved (the soak's fast path)."""
    if (
        full
        or not paths
        or len(position.board) - position.board.count(None) <= 2
        or not position.has_both_lions()
    ):
        return position.outcome()
    return None


def check_position(board: congo.Board, oracle: Position, *, thorough: bool = True) -> list[Path]:
    """Compare the core board with the oracle position; the oracle's legal paths, or Disagreement.

    Always: FEN, the set of legal move strings (no duplicates), ``len``/``bool`` of
    ``board.legal_moves``, the outcome, and the Zobrist hash against a from-scratch hash of the FEN.
    ``thorough`` also checks, for every legal move, that the oracle's string parses to the same
    legal core move (``parse_uci``, ``in``, ``is_legal``, ``Move.from_uci``, ``path``) and that
    ``is_capture``/``captured_squares`` match the oracle, and asks the oracle for the outcome in
    every position (see :func:`oracle_outcome`).
    """
    fen = board.fen()
    if fen != oracle.fen():
        raise Disagreement("fen", [f"core FEN {fen}", f"oracle FEN {oracle.fen()}"])

    paths = oracle.legal_paths()
    core_list = list(board.legal_moves)
    # compared as paths (cheap); as move strings when they differ, and always when thorough
    if sorted(move.path for move in core_list) != sorted(paths) or thorough:
        oracle_moves = sorted(move_string(path) for path in paths)
        core_moves = sorted(move.uci() for move in core_list)
        if core_moves != oracle_moves:
            details = _differences("legal moves", core_moves, oracle_moves)
            if len(set(core_moves)) != len(core_moves):
                details.append(f"the core lists a move twice: {core_moves}")
            raise Disagreement("legal moves", details)
        if sorted(move.path for move in core_list) != sorted(paths):
            raise Disagreement("legal moves", ["the move strings agree but Move.path does not"])

    problems: list[tuple[str, str]] = []
    if len(board.legal_moves) != len(core_list) or board.legal_moves.count() != len(core_list):
        problems.append(
            ("len", f"len(board.legal_moves) = {len(board.legal_moves)}, it yields {len(core_list)}")
        )
    if bool(board.legal_moves) != bool(core_list):
        problems.append(
            ("bool", f"bool(board.legal_moves) = {bool(board.legal_moves)} with {len(core_list)} moves")
        )

    core_result = core_outcome(board)
    oracle_result = oracle_outcome(oracle, paths, full=thorough)
    if core_result != oracle_result:
        problems.append(("outcome", f"outcome: core {core_result}, oracle {oracle_result}"))

    incremental = board.zobrist_hash()
    scratch = congo.Position(fen).zobrist_hash()
    if incremental != scratch:
        problems.append(("zobrist", f"zobrist_hash() = {incremental:#x}, from scratch {scratch:#x}"))

    if thorough:
        problems += _check_moves(board, oracle, paths, core_list)
    if problems:
        raise Disagreement(problems[0][0], [text for _, text in problems])
    return paths


def _check_moves(
    board: congo.Board, oracle: Position, paths: Sequence[Path], core_list: list[congo.Move]
) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    core_by_string = {move.uci(): move for move in core_list}
    for path in paths:
        text = move_string(path)
        move = core_by_string[text]
        if move.path != path or move.from_square != path[0] or move.to_square != path[-1]:
            problems.append(
                ("move", f"{text}: core path {move.path}, from {move.from_square}, to {move.to_square}")
            )
        if congo.Move.from_uci(text) != move:
            problems.append(("move", f"{text}: Move.from_uci gives a different move"))
        try:
            parsed = board.parse_uci(text)
        except ValueError as error:
            problems.append(("parse", f"{text}: parse_uci raises {error!r}"))
            continue
        if parsed != move or not board.is_legal(move) or move not in board.legal_moves:
            problems.append(("parse", f"{text}: parse_uci/is_legal/in disagree with the move list"))
        captured = oracle_captures(oracle.board, path)
        if board.is_capture(move) != bool(captured):
            problems.append(
                ("capture", f"{text}: is_capture() = {board.is_capture(move)}, oracle {sorted(captured)}")
            )
        core_captured = set(board.captured_squares(move))
        if core_captured != captured:
            problems.append(
                (
                    "capture",
                    f"{text}: captured_squares() = {sorted(core_captured)}, oracle {sorted(captured)}",
                )
            )
    return problems


# =============================================================================== games

#: ``picker(position, paths, ply)``: the index into ``paths`` of the next move, or None to stop.
Picker = Callable[[Position, Sequence[Path], int], Optional[int]]


def compare_game(
    start_fen: str,
    picker: Picker,
    *,
    thorough: bool | Callable[[], bool] = True,
    max_plies: int = 10_000,
) -> int:
    """Play a game on a core :class:`congo.Board` and an oracle position in step, comparing every
    position (:func:`check_position`; ``thorough`` may be a function deciding it per position).
    Returns the number of positions compared. Raises :class:`Disagreement` with ``start_fen`` and
    the moves played so far."""
    moves: list[str] = []
    oracle = Position.from_fen(start_fen)
    try:
        board = congo.Board(start_fen)
    except ValueError as error:
        raise Disagreement("set_fen", [f"the core rejects a valid FEN: {error}"], start_fen) from None
    positions = 0
    for ply in range(max_plies + 1):
        try:
            paths = check_position(
                board, oracle, thorough=thorough if isinstance(thorough, bool) else thorough()
            )
        except Disagreement as found:
            raise found.with_context(start_fen, moves) from None
        except _PASS_THROUGH:
            raise
        except BaseException as error:  # also a Rust panic (pyo3's PanicException)
            raise Disagreement("exception", [f"checking raised {error!r}"], start_fen, moves) from error
        positions += 1
        index = picker(oracle, paths, ply) if ply < max_plies else None
        if index is None:
            break
        path = paths[index]
        text = move_string(path)
        moves.append(text)
        try:
            board.push_uci(text)
        except _PASS_THROUGH:
            raise
        except BaseException as error:
            raise Disagreement("push", [f"the core rejects {text}: {error!r}"], start_fen, moves) from error
        oracle = oracle.play_path(path)
    return positions


_PASS_THROUGH = (KeyboardInterrupt, SystemExit, GeneratorExit)


def follow(moves: Sequence[str]) -> Picker:
    """A picker that plays the given moves (ValueError if one is not legal for the oracle)."""

    def picker(position: Position, paths: Sequence[Path], ply: int) -> int | None:
        if ply >= len(moves):
            return None
        path = parse_move(moves[ply])
        if path not in paths:
            raise ValueError(f"{moves[ply]} is not legal in {position.fen()}")
        return list(paths).index(path)

    return picker


def random_picker(chooser: Chooser, *, capture_bias: float = 0.0, stop_at_outcome: bool = True) -> Picker:
    """A picker choosing moves at random (preferring captures with probability ``capture_bias``);
    it stops when the game is over (a lion missing, no legal move, or bare lions)."""

    def picker(position: Position, paths: Sequence[Path], ply: int) -> int | None:
        if not paths:
            return None
        if stop_at_outcome and oracle_outcome(position, paths, full=False) is not None:
            return None
        if capture_bias and chooser.chance(capture_bias):
            captures = [i for i, path in enumerate(paths) if oracle_captures(position.board, path)]
            if captures:
                return pick(chooser, captures)
        return chooser.integer(0, len(paths) - 1)

    return picker


def oracle_game(chooser: Chooser, start_fen: str, max_plies: int, *, capture_bias: float = 0.0) -> list[str]:
    """The moves of a random game played by the oracle alone (for hypothesis strategies)."""
    position = Position.from_fen(start_fen)
    picker = random_picker(chooser, capture_bias=capture_bias)
    moves: list[str] = []
    for ply in range(max_plies):
        paths = position.legal_paths()
        index = picker(position, paths, ply)
        if index is None:
            break
        moves.append(move_string(paths[index]))
        position = position.play_path(paths[index])
    return moves


# =============================================================================== minimizing


def reproduces(fen: str, moves: Sequence[str], kind: str | None = None) -> Disagreement | None:
    """The disagreement found replaying ``moves`` from ``fen`` (of the given kind, if given), or None.
    None also when the replay is impossible (an invalid FEN or a move the oracle finds illegal)."""
    try:
        Position.from_fen(fen)
        compare_game(fen, follow(moves))
    except Disagreement as found:
        return found if kind is None or found.kind == kind else None
    except ValueError:
        return None
    return None


def minimize(found: Disagreement) -> Disagreement:
    """A smaller reproduction of ``found``: the shortest suffix of its moves that still shows a
    disagreement of the same kind when replayed from the FEN where it starts, then with pieces
    removed one at a time (never a lion) and the move number set to 1 while it still reproduces."""
    fen, moves = found.fen, list(found.moves)
    best = found
    # 1. shortest suffix: replay from the oracle FEN after moves[:i], longest prefix first
    positions = [Position.from_fen(fen)]
    for text in moves:
        positions.append(positions[-1].play_path(parse_move(text)))
    for i in range(len(moves), -1, -1):
        again = reproduces(positions[i].fen(), moves[i:], found.kind)
        if again is not None:
            best, fen, moves = again, positions[i].fen(), moves[i:]
            break
    # 2. fewer pieces, move number 1
    changed = True
    while changed:
        changed = False
        placement, side, number = fen.split()
        board = Position.from_fen(fen).board
        candidates = [f"{placement} {side} 1"] if number != "1" else []
        for sq in range(49):
            piece = board[sq]
            if piece is not None and piece.upper() != "L":
                smaller = list(board)
                smaller[sq] = None
                candidates.append(f"{board_fen(tuple(smaller))} {side} {number}")
        for candidate in candidates:
            again = reproduces(candidate, moves, found.kind)
            if again is not None:
                best, fen, changed = again, candidate, True
                break
    return best
