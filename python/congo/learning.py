"""What learning agents need: positions as planes, a fixed action space with legal-action masks, a
game played one action at a time, and the left–right mirror for data augmentation.

Everything here is computed in Rust. The module needs only the standard library; :func:`encode`
returns a numpy array and so needs numpy (``pip install 'congo-chess[numpy]'``), while
:func:`encode_bytes` returns the same numbers as a ``bytearray``.

>>> import congo, congo.learning as learning
>>> learning.NUM_PLANES, learning.NUM_ACTIONS
(23, 1961)
>>> game = learning.Game(congo.Position("7/4l2/7/4c2/7/2p4/1M1L3 w 1"))
>>> [learning.action_name(a) for a in game.actions_of(congo.Move.from_uci("b1d3f5"))]
['b1d3', 'd3f5', 'stop']

The layouts (planes, actions, how a monkey chain is played) are documented in ``docs/learning.md``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Union, cast

from congo import _core
from congo._core import (
    NUM_ACTIONS,
    NUM_PLANES,
    PLANE_NAMES,
    PLANE_SIZE,
    STOP_ACTION,
    Game,
    Position,
    action_leg,
    flip_action,
    leg_action,
    mirror_action,
)
from congo.board import Board
from congo.squares import SQUARE_NAMES

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "BOARD_SHAPE",
    "NUM_ACTIONS",
    "NUM_MOVE_KINDS",
    "NUM_PLANES",
    "PERSPECTIVES",
    "PLANE_NAMES",
    "PLANE_SIZE",
    "STOP_ACTION",
    "Game",
    "action_leg",
    "action_name",
    "encode",
    "encode_bytes",
    "flip_action",
    "flip_policy",
    "leg_action",
    "mirror_action",
    "mirror_files",
    "mirror_planes",
    "mirror_policy",
]

BOARD_SHAPE = (7, 7)
"""Rows (ranks, row 0 = rank 1) and columns (files, column 0 = file a) of one plane."""

NUM_MOVE_KINDS: int = _core.NUM_MOVE_KINDS
"""Kinds of leg: an action below :data:`STOP_ACTION` is ``kind * 49 + from_square``."""

PositionLike = Union[Board, Position, Game, str]

PERSPECTIVES = ("white", "side_to_move")
"""Whose side the planes (and masks) are seen from: ``"white"`` — always White's, rank 1 in row 0,
White's pieces in planes 0–7; ``"side_to_move"`` — for Black to move the board is turned around and
the colours swapped, so the side to move always has its pieces in planes 0–7 and its home rank in
row 0, and actions are read in that frame through :func:`flip_action` (plane 16 still tells the real
colour to move). The rules are symmetric under this change of side (``Position.mirror()``)."""


def _numpy_missing() -> str:
    from congo._extras import pip_install

    return (
        f"congo.encode returns a numpy array and needs numpy: {pip_install('numpy')} "
        "(or use congo.learning.encode_bytes, which needs nothing)"
    )


def _repetitions(board: Board) -> int:
    """How often the board's position occurred before in its game (0, 1, or 2 for more)."""
    is_repetition = getattr(board, "is_repetition", None)
    if is_repetition is not None:  # the board's own repetition rule, where it has one
        return 2 if is_repetition(3) else (1 if is_repetition(2) else 0)
    # The core's count, from the board's history (it counts the current position too).
    return min(board._history.repetitions(board.position) - 1, 2)


def _is_single(item: object) -> bool:
    return isinstance(item, (Board, Position, Game, str))


def _collect(items: Iterable[PositionLike]) -> tuple[list[Position], bytes | None]:
    positions: list[Position] = []
    repetitions: list[int] = []
    any_repetition = False
    for item in items:
        if isinstance(item, Position):
            positions.append(item)
            repetitions.append(0)
        elif isinstance(item, Board):
            positions.append(item.position)
            count = _repetitions(item)
            any_repetition = any_repetition or count > 0
            repetitions.append(count)
        elif isinstance(item, Game):
            if item.chain is not None:
                raise ValueError("a Game with a monkey chain under way: use Game.observation()")
            positions.append(item.position)
            count = min(item.repetitions, 2)
            any_repetition = any_repetition or count > 0
            repetitions.append(count)
        elif isinstance(item, str):
            positions.append(Position(item))
            repetitions.append(0)
        else:
            raise TypeError(f"expected Boards, Positions, Games or FENs, got {type(item).__name__}")
    return positions, (bytes(repetitions) if any_repetition else None)


def _side_to_move(perspective: str) -> bool:
    if perspective not in PERSPECTIVES:
        raise ValueError(f"perspective must be one of {PERSPECTIVES}, got {perspective!r}")
    return perspective == "side_to_move"


def encode_bytes(
    boards: PositionLike | Iterable[PositionLike],
    *,
    mirror: bool = False,
    perspective: str = "white",
    threads: int = 0,
) -> bytearray:
    """The planes of one position or a batch as raw bytes: ``PLANE_SIZE`` bytes per position,
    position-major, then plane, rank, file (the layout of :func:`encode`). Needs nothing beyond the
    standard library.

    ``boards`` is a :class:`~congo.Board` (its move stack gives the repetition planes), a
    :class:`~congo.Position`, a :class:`Game` (mid-chain too, alone), a FEN, or an iterable of them.
    ``mirror=True`` encodes each position's left–right mirror. ``perspective="side_to_move"`` turns
    the board around for Black to move (see :data:`PERSPECTIVES`). The encoding runs in Rust with
    the GIL released, on ``threads`` threads (0: every core) for a large batch.

    Raises ``TypeError`` for anything else, ``ValueError`` for an unknown perspective or a negative
    thread count, and :class:`~congo.InvalidFenError` / :class:`~congo.InvalidPositionError` for a
    bad FEN."""
    side_to_move = _side_to_move(perspective)
    if isinstance(boards, Game) and boards.chain is not None:
        if mirror:
            raise ValueError("mirror=True needs a position between moves, not a Game mid-chain")
        return boards.observation(side_to_move=side_to_move)
    if _is_single(boards):
        items: Iterable[PositionLike] = [cast("PositionLike", boards)]
    else:
        items = cast("Iterable[PositionLike]", boards)
    positions, repetitions = _collect(items)
    return _core.encode_positions(
        positions, repetitions, mirror=mirror, side_to_move=side_to_move, threads=threads
    )


def encode(
    boards: PositionLike | Iterable[PositionLike],
    *,
    mirror: bool = False,
    perspective: str = "white",
    threads: int = 0,
) -> npt.NDArray[np.uint8]:
    """The planes of a batch as a numpy array of shape ``(N, NUM_PLANES, 7, 7)`` and dtype
    ``uint8`` (values 0 and 1), or ``(NUM_PLANES, 7, 7)`` for a single position. Row 0 of a plane
    is rank 1, column 0 is file a. Plane meanings: :data:`PLANE_NAMES` and ``docs/learning.md``.

    Takes what :func:`encode_bytes` takes; the array shares the bytes Rust wrote (no copy).
    Raises ``ImportError`` when numpy is not installed (``pip install 'congo-chess[numpy]'``)."""
    try:
        import numpy as np
    except ImportError as error:
        raise ImportError(_numpy_missing()) from error
    data = encode_bytes(boards, mirror=mirror, perspective=perspective, threads=threads)
    array = np.frombuffer(data, dtype=np.uint8)
    if _is_single(boards):
        return array.reshape(NUM_PLANES, *BOARD_SHAPE)
    return array.reshape(-1, NUM_PLANES, *BOARD_SHAPE)


def mirror_files(board: Position) -> Position:
    """A position with its files mirrored (a↔g, b↔f, c↔e); side to move and move number kept.
    The rules are symmetric under this mirror, so it is a valid augmentation of training data."""
    if not isinstance(board, Position):
        raise TypeError(f"expected a congo.Position, got {type(board).__name__}")
    return _core.mirror_files(board)


def mirror_planes(planes: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Planes (any leading shape, last axis the files) mirrored left–right: equal to the planes of
    the mirrored positions. A view, not a copy."""
    return planes[..., ::-1]


def mirror_policy(policy: npt.NDArray[np.generic]) -> npt.NDArray[np.generic]:
    """A vector over the actions (last axis of length :data:`NUM_ACTIONS`) permuted by
    :func:`mirror_action`: the policy for the mirrored positions."""
    import numpy as np

    permutation = np.array([mirror_action(a) for a in range(NUM_ACTIONS)])
    return policy[..., permutation]


def flip_policy(policy: npt.NDArray[np.generic]) -> npt.NDArray[np.generic]:
    """A vector over the actions (last axis of length :data:`NUM_ACTIONS`) permuted by
    :func:`flip_action`: between White's frame and Black's side-to-move frame (an involution)."""
    import numpy as np

    permutation = np.array([flip_action(a) for a in range(NUM_ACTIONS)])
    return policy[..., permutation]


def action_name(action: int) -> str:
    """``"stop"`` or the leg in move notation (``"b1d3"``); ``"b1-off"`` for a leg that leaves the
    board. Raises ``ValueError`` for an action out of range."""
    if action == STOP_ACTION:
        return "stop"
    leg = action_leg(action)
    if leg is None:
        return f"{SQUARE_NAMES[action % 49]}-off"
    return SQUARE_NAMES[leg[0]] + SQUARE_NAMES[leg[1]]


def _restore_game(fen: str, max_plies: int, actions: list[int]) -> Game:
    """Unpickles a :class:`Game`: its start and every action applied."""
    game = Game(Position(fen), max_plies)
    for action in actions:
        game.apply(action)
    return game
