"""What learning agents need: positions as planes, a fixed action space with legal-action masks, a
game played one action at a time, and the left–right mirror for data augmentation.

Everything here is computed in Rust. The module needs only the standard library; :func:`encode`
returns a numpy array and so needs numpy (``pip install 'congo-chess[numpy]'``), while
:func:`encode_bytes` returns the same numbers as a ``bytearray``.

>>> import congo, congo.learning as learning
>>> learning.NUM_PLANES, learning.NUM_ACTIONS
(23, 1961)
>>> game = learning.GameState(congo.Position("7/4l2/7/4c2/7/2p4/1M1L3 w 1"))
>>> [learning.action_name(a) for a in game.actions_of(congo.Move.from_uci("b1d3f5"))]
['b1d3', 'd3f5', 'stop']

The layouts (planes, actions, how a monkey chain is played) are documented in ``docs/learning.md``.
"""

from __future__ import annotations

import secrets
import warnings
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Union, cast

from congo import _core
from congo._core import (
    DEFAULT_MAX_PLIES,
    NUM_ACTIONS,
    NUM_PLANES,
    PLANE_NAMES,
    PLANE_SIZE,
    STOP_ACTION,
    GameState,
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

    Game = GameState
    """Deprecated: the old name of :class:`GameState`."""

__all__ = [
    "BOARD_SHAPE",
    "NUM_ACTIONS",
    "NUM_MOVE_KINDS",
    "NUM_PLANES",
    "PERSPECTIVES",
    "PLANE_NAMES",
    "PLANE_SIZE",
    "STOP_ACTION",
    "GameState",
    "VectorGame",
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

PositionLike = Union[Board, Position, GameState, str]

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
    """How often the board's position occurred before in its game (0, 1, or 2 for more), by the
    board's own repetition rule (every board has one; a subclass may change it)."""
    return 2 if board.is_repetition(3) else (1 if board.is_repetition(2) else 0)


def _is_single(item: object) -> bool:
    return isinstance(item, (Board, Position, GameState, str))


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
        elif isinstance(item, GameState):
            if item.chain is not None:
                raise ValueError("a GameState with a monkey chain under way: use GameState.observation()")
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
    :class:`~congo.Position`, a :class:`GameState` (mid-chain too, alone), a FEN, or an iterable of them.
    ``mirror=True`` encodes each position's left–right mirror. ``perspective="side_to_move"`` turns
    the board around for Black to move (see :data:`PERSPECTIVES`). The encoding runs in Rust with
    the GIL released, on ``threads`` threads (0: every core) for a large batch.

    Raises ``TypeError`` for anything else, ``ValueError`` for an unknown perspective or a negative
    thread count, and :class:`~congo.InvalidFenError` / :class:`~congo.InvalidPositionError` for a
    bad FEN."""
    side_to_move = _side_to_move(perspective)
    if isinstance(boards, GameState) and boards.chain is not None:
        if mirror:
            raise ValueError("mirror=True needs a position between moves, not a GameState mid-chain")
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


Start = Union[Board, Position, str]
"""A start position: a board (its current position), a position or a FEN."""


def _start(item: object) -> Position:
    if isinstance(item, Position):
        return item
    if isinstance(item, Board):
        return item.position
    if isinstance(item, str):
        return Position(item)
    raise TypeError(f"a start must be a congo.Board, congo.Position or FEN, got {type(item).__name__}")


class VectorGame:
    """``num_games`` games stepped together: one call plays one action in every game, in Rust with
    the GIL released, and writes the planes, legal-action masks, rewards, terminations and
    truncations into numpy arrays that are reused from step to step (no Python object per game).

    Each game is exactly a :class:`GameState`: a monkey chain is one action per jump with the same
    player acting again, and the repetition rule and ``max_plies`` end games as there. A game that
    ends is restarted within the same step (Gymnasium's "same step" autoreset): its row of
    :meth:`observations` and :meth:`action_masks` then shows the new game (so every mask holds a
    legal action), and :meth:`final_observations` / :meth:`final_action_masks` keep the ended
    game's last planes and mask (all zeros: nothing can be played there).

    * ``starts``: where games start — ``None`` (the usual start), a FEN, :class:`~congo.Position`
      or :class:`~congo.Board`, a list of them (one chosen at random, from ``seed``, at each
      start), or a callable ``starts(index)`` returning one (called, with the GIL held, for each
      game that starts). A start where the game is already over is a ``ValueError``.
    * ``perspective``: ``"white"`` or ``"side_to_move"`` (:data:`PERSPECTIVES`); with the latter
      the masks and the actions given to :meth:`step` are in the side to move's frame.
    * ``planes=False`` skips the planes in :meth:`step` (masks only, the fastest);
      :meth:`observations` then encodes them when called. The final planes are always kept.
    * ``on_illegal``: ``"raise"`` — an illegal action raises :class:`~congo.IllegalMoveError` (a
      ``ValueError``) naming the game, and no game changes; ``"forfeit"`` — the game is lost by the
      player who acted (reward -1, terminated, :meth:`illegal` set) and restarted.
    * ``threads``: threads sharing a step (0: every core; 256 games at least per thread).

    Rewards are for the player who acted: +1 when the action won, -1 when it lost, else 0. The
    arrays returned are views that the next :meth:`step` or :meth:`reset` overwrites (and
    read-only): copy what you keep. Needs numpy.
    """

    def __init__(
        self,
        num_games: int,
        *,
        seed: int | None = None,
        starts: Start | Iterable[Start] | Callable[[int], Start] | None = None,
        max_plies: int = DEFAULT_MAX_PLIES,
        perspective: str = "white",
        planes: bool = True,
        on_illegal: str = "raise",
        threads: int = 0,
    ) -> None:
        try:
            import numpy as np
        except ImportError as error:
            missing = _numpy_missing().replace("congo.encode returns", "VectorGame returns")
            raise ImportError(missing) from error
        if on_illegal not in ("raise", "forfeit"):
            raise ValueError(f"on_illegal must be 'raise' or 'forfeit', got {on_illegal!r}")
        side_to_move = _side_to_move(perspective)
        self._curriculum: Callable[[int], Start] | None = None
        positions: list[Position] | None
        if starts is None:
            positions = [Position()]
        elif isinstance(starts, (Board, Position, str)):
            positions = [_start(starts)]
        elif callable(starts):
            self._curriculum = starts
            positions = None
        else:
            positions = [_start(item) for item in starts]
        self._seed = secrets.randbits(64) if seed is None else seed
        self._core = _core.VectorGameCore(
            num_games,
            positions,
            seed=self._seed,
            max_plies=max_plies,
            side_to_move=side_to_move,
            forfeit=on_illegal == "forfeit",
            planes=planes,
            threads=threads,
        )
        self.num_games: int = len(self._core)
        self.planes = planes
        n = self.num_games
        arrays = self._core.outputs()

        def view(data: bytearray, dtype: type, shape: tuple[int, ...]) -> npt.NDArray[Any]:
            array: npt.NDArray[Any] = np.frombuffer(data, dtype=dtype).reshape(shape)
            array.flags.writeable = False
            return array

        self._planes: npt.NDArray[np.uint8] = view(arrays[0], np.uint8, (n, NUM_PLANES, *BOARD_SHAPE))
        self._masks: npt.NDArray[np.bool_] = view(arrays[1], np.bool_, (n, NUM_ACTIONS))
        self._rewards: npt.NDArray[np.float32] = view(arrays[2], np.float32, (n,))
        self._terminations: npt.NDArray[np.bool_] = view(arrays[3], np.bool_, (n,))
        self._truncations: npt.NDArray[np.bool_] = view(arrays[4], np.bool_, (n,))
        self._illegal: npt.NDArray[np.bool_] = view(arrays[5], np.bool_, (n,))
        self._final_planes: npt.NDArray[np.uint8] = view(arrays[6], np.uint8, (n, NUM_PLANES, *BOARD_SHAPE))
        self._final_masks: npt.NDArray[np.bool_] = view(arrays[7], np.bool_, (n, NUM_ACTIONS))
        self._actions = np.zeros(n, dtype=np.int64)
        self._encoded = planes
        self.reset()

    def __len__(self) -> int:
        return self.num_games

    def _start_games(self, indices: Iterable[int]) -> None:
        curriculum = cast("Callable[[int], Start]", self._curriculum)
        for index in indices:
            self._core.restart(index, _start(curriculum(index)))

    def reset(self, *, seed: int | None = None) -> npt.NDArray[np.uint8]:
        """Starts every game again (with ``seed``, the random choices start again from it) and
        returns :meth:`observations`."""
        self._core.reset(seed)
        if self._curriculum is not None:
            self._start_games(range(self.num_games))
        self._encoded = self.planes
        return self.observations()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """Plays ``actions[i]`` (an int, in the perspective's frame) in game ``i`` for every game;
        returns ``(rewards, terminations, truncations)``. A game that ended is restarted (see the
        class). Raises ``ValueError`` for actions of the wrong shape or type and
        :class:`~congo.IllegalMoveError` (changing nothing) for an illegal one."""
        import numpy as np

        array: npt.NDArray[Any] = np.asarray(actions)
        if array.shape != (self.num_games,):
            raise ValueError(f"expected {self.num_games} actions, got an array of shape {array.shape}")
        if array.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, got dtype {array.dtype}")
        if array.dtype != np.int64 or not array.flags.c_contiguous:
            array = np.ascontiguousarray(array, dtype=np.int64)
        ended = self._core.step(array)
        if ended and self._curriculum is not None:
            done = np.flatnonzero(self._terminations | self._truncations)
            self._start_games(int(i) for i in done)
        self._encoded = self.planes
        return self._rewards, self._terminations, self._truncations

    def observations(self) -> npt.NDArray[np.uint8]:
        """The planes of every game as it stands: ``uint8 (num_games, NUM_PLANES, 7, 7)``."""
        if not self._encoded:
            self._core.encode()
            self._encoded = True
        return self._planes

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action masks: ``bool (num_games, NUM_ACTIONS)``, in the perspective's frame."""
        return self._masks

    def final_observations(self) -> npt.NDArray[np.uint8]:
        """For the games that ended at the last step (``terminations | truncations``): their last
        planes. Other rows are stale."""
        self._core.publish_finals()
        return self._final_planes

    def final_action_masks(self) -> npt.NDArray[np.bool_]:
        """For the games that ended at the last step: their last mask (all zeros, as
        :meth:`GameState.action_mask` gives for a game that is over; the unchanged mask after a
        forfeit). Other rows are stale."""
        self._core.publish_finals()
        return self._final_masks

    def illegal(self) -> npt.NDArray[np.bool_]:
        """Which games the last step forfeited for an illegal action (``on_illegal="forfeit"``)."""
        return self._illegal

    def random_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action of each game (a new array), from each game's generator
        (seeded by ``seed``): random play, and a baseline."""
        import numpy as np

        out = np.empty(self.num_games, dtype=np.int64)
        self._core.random_actions(out)
        return out

    def game(self, index: int) -> GameState:
        """A copy of game ``index`` as a :class:`GameState` (its history too)."""
        return self._core.game(index)


if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        # The old name, kept so that code and pickles made before the rename still work:
        # ``congo.pgn.Game`` is the game record, this module's class is a game under way.
        if name == "Game":
            warnings.warn(
                "congo.learning.Game is now congo.learning.GameState (congo.pgn.Game is the game "
                "record); the old name will be removed",
                DeprecationWarning,
                stacklevel=2,
            )
            return GameState
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
