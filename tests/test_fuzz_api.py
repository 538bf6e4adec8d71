"""Fuzzing the Python surface with hypothesis: whatever a stranger passes as a FEN, a move
string, SAN, a pickle or a search limit, the answer is a result or one of the documented errors,
and a call that fails leaves the board as it was.

The core's parsers have coverage-guided fuzz targets of their own; these tests hold
the bindings and the Python layer to the same standard.
"""

from __future__ import annotations

import math
import pickle
import random
from typing import Any, Callable

from hypothesis import assume, given
from hypothesis import strategies as st

import congo
from congo import Board, InvalidFenError, InvalidMoveError, InvalidPositionError, Move, Position
from congo.board import _unpickle

#: What a FEN may raise: its two documented errors.
FEN_ERRORS = (InvalidFenError, InvalidPositionError)
#: What a move string or SAN may raise (AmbiguousMoveError is an IllegalMoveError).
MOVE_ERRORS = (InvalidMoveError, congo.IllegalMoveError)

FENS = [
    congo.STARTING_FEN,
    "7/4l2/7/4c2/7/2p4/1M1L3 w 1",
    "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35",
    "2Ml2M/Mpp1e1M/2p1pM1/MMpeeeM/4p2/Mpp1eMM/2ML1M1 w 1",
    "3L3/7/7/7/7/7/7 b 3",
]

#: Text with everything a parser may choke on: FEN characters, separators, digits beyond 7, wide
#: digits, lone surrogates, NULs.
HOSTILE_TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from("LZEGCMPSlzegcmps01234567789/ wWbB-x,\t\n+#!?="),
        st.characters(codec=None),
        st.sampled_from(["\ud800", "\udfff", "\x00", "\uff11", "\u0663"]),
    ),
    max_size=60,
)


@st.composite
def mutated_fens(draw: st.DrawFn) -> str:
    """A valid FEN with a few characters replaced, inserted or removed."""
    chars = list(draw(st.sampled_from(FENS)))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(chars)))
        op = draw(st.sampled_from(["replace", "insert", "delete"]))
        c = draw(st.sampled_from("LZEGCMPSlzegcmps1234567/ wb0\ud800"))
        if op == "insert" or not chars:
            chars.insert(i, c)
        elif op == "replace":
            chars[min(i, len(chars) - 1)] = c
        else:
            del chars[min(i, len(chars) - 1)]
    return "".join(chars)


def _check_message(error: Exception) -> None:
    """A documented error says what is wrong, and never through an overflow."""
    assert str(error)
    assert not isinstance(error, OverflowError)


def _check_position(board: Board) -> None:
    """A position that was accepted is valid: it round-trips and respects docs/rules.md §9."""
    assert Board(board.fen()) == board
    for color in congo.COLORS:
        assert len(board.occupied_co[color]) <= congo.MAX_PIECES_PER_COLOR
    assert len(board.pieces(congo.LION, congo.WHITE)) + len(board.pieces(congo.LION, congo.BLACK)) >= 1


@given(st.one_of(HOSTILE_TEXT, mutated_fens()))
def test_any_fen_is_a_position_or_a_documented_error(fen: str) -> None:
    try:
        board = Board(fen)
    except FEN_ERRORS as error:
        _check_message(error)
        return
    _check_position(board)
    assert len(board.legal_moves) == len(list(board.legal_moves))


@given(st.one_of(HOSTILE_TEXT, st.sampled_from(["b1d3f5d7", "b1-d3-f5x", "b1d3,d3f5", "Mxd3xf5", "e3e4"])))
def test_any_move_string_is_a_move_or_a_documented_error(text: str) -> None:
    try:
        move = Move.from_uci(text)
    except InvalidMoveError:
        move = None
    if move is not None:
        assert Move.from_uci(move.uci()) == move
    for fen in FENS[:3]:
        board = Board(fen)
        before = board.fen(), board.move_stack
        for parse in (board.push_uci, board.push_san):
            try:
                parse(text)
            except MOVE_ERRORS:
                assert (board.fen(), board.move_stack) == before
            else:
                board.pop()


def _random_game(fen: str, plies: int, seed: int, *, edits: float = 0.0) -> Board:
    """A board after up to `plies` random moves from `fen`; with probability `edits` after each
    move, the side to move is flipped by hand."""
    rng = random.Random(seed)
    board = Board(fen)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
        if rng.random() < edits:
            board.turn = not board.turn
    return board


@given(
    st.sampled_from(FENS[:4]),
    st.integers(0, 40),
    st.integers(0, 2**32),
)
def test_pickles_round_trip_along_random_games(fen: str, plies: int, seed: int) -> None:
    # Now and then the side to move is set by hand: the stack is kept, and so is it in the pickle.
    board = _random_game(fen, plies, seed, edits=0.05)
    again = pickle.loads(pickle.dumps(board))
    assert again.fen() == board.fen()
    assert again.move_stack == board.move_stack
    while again.move_stack:
        assert again.pop() == board.pop()
        assert again.fen() == board.fen()


@given(st.sampled_from(FENS[:3]), st.integers(0, 20), st.data())
def test_a_tampered_pickle_loads_consistently_or_is_refused(
    fen: str, plies: int, data: st.DataObject
) -> None:
    board = _random_game(fen, plies, plies)
    root, _ = board._history.encode(board.position)
    tampered_history = data.draw(
        st.one_of(
            HOSTILE_TEXT,
            st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq @wb0123 ", max_size=40),
        )
    )
    tampered_root = data.draw(st.one_of(st.just(root), mutated_fens()))
    try:
        loaded = _unpickle(tampered_root, tampered_history)
    except ValueError:
        return
    # Whatever loaded is a consistent game: its stack leads to its position.
    replay = loaded.root()
    for move in loaded.move_stack:
        replay.push(move)
    assert replay.fen().split()[0] == loaded.fen().split()[0]


NUMBERS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**200), max_value=2**200),
    st.sampled_from([10**400, -(10**400), 2**63, 2**64, 2**127, 2**128]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=3),
)


@given(
    st.fixed_dictionaries(
        {},
        optional={
            "depth": NUMBERS,
            "nodes": NUMBERS,
            "time": NUMBERS,
            "mate": NUMBERS,
            "white_clock": NUMBERS,
            "black_clock": NUMBERS,
            "white_inc": NUMBERS,
            "black_inc": NUMBERS,
            "remaining_moves": NUMBERS,
        },
    )
)
def test_any_limit_is_a_limit_or_a_documented_error(kwargs: dict[str, Any]) -> None:
    try:
        limit = congo.Limit(**kwargs)
    except (TypeError, ValueError) as error:
        _check_message(error)
        return
    if limit.time is not None:
        assert math.isfinite(limit.time)
        assert limit.time > 0
    if limit.depth is not None:
        assert 1 <= limit.depth <= congo.engine.MAX_DEPTH


@given(NUMBERS, NUMBERS)
def test_any_number_for_squares_and_counts_is_a_result_or_a_documented_error(a: Any, b: Any) -> None:
    board = Board()
    before = board.fen()
    calls: list[Callable[[], object]] = [
        lambda: Move(a, b),
        lambda: board.piece_at(a),
        lambda: board.pieces(a, b),
        lambda: board.attackers(b, a),
        lambda: board.find_move(a, b),
        lambda: setattr(board, "fullmove_number", a),
        lambda: board.is_repetition(a),
        lambda: board.outcome(max_plies=a),
        lambda: congo.perft(congo.STARTING_FEN, a) if isinstance(a, int) and a <= 2 else None,
        lambda: (
            congo.random_playouts(congo.STARTING_FEN, a, max_plies=b)
            if not (isinstance(a, int) and a > 3)
            else None
        ),
    ]
    for call in calls:
        try:
            call()
        except (TypeError, ValueError) as error:
            _check_message(error)
        assert board.fen().split()[0] == before.split()[0]
        board.fullmove_number = 1


@given(
    st.dictionaries(
        st.integers(0, 48),
        st.sampled_from([congo.Piece.from_symbol(c) for c in "LZEGCMPSlzegcmps"]),
        max_size=32,
    )
)
def test_any_piece_map_is_a_position_or_an_invalid_position_error(pieces: dict[int, congo.Piece]) -> None:
    try:
        position = Position.from_piece_map(pieces)
    except InvalidPositionError as error:
        _check_message(error)
        return
    assume(position.legal_move_count() < 100_000)
    _check_position(Board.from_position(position))
