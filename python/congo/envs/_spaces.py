"""What the Gymnasium and PettingZoo environments share: the observation space and observations,
argument checks and rendering. Needs numpy and gymnasium (both extras bring them)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from congo.envs import render as _render
from congo.envs._start import check_max_plies
from congo.learning import NUM_ACTIONS, NUM_PLANES, PERSPECTIVES, GameState, flip_action

RENDER_MODES = ["human", "ansi", "rgb_array"]

Observation = dict[str, npt.NDArray[Any]]


def observation_space() -> spaces.Dict:
    """``{"observation": uint8 (23, 7, 7) in {0, 1}, "action_mask": int8 (1961,) in {0, 1}}``."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0, 1, (NUM_PLANES, 7, 7), dtype=np.uint8),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
        }
    )


def action_mask(game: GameState, side_to_move: bool = False) -> npt.NDArray[np.int8]:
    """The legal-action mask as a new int8 array (all zeros once the game is over), in the frame of
    the perspective."""
    return np.frombuffer(game.action_mask(side_to_move=side_to_move), dtype=np.int8).copy()


def observation(game: GameState, *, acting: bool = True, side_to_move: bool = False) -> Observation:
    """The planes and the mask; ``acting=False`` gives the all-zero mask of an agent not to act."""
    planes = np.frombuffer(game.observation(side_to_move=side_to_move), dtype=np.uint8)
    mask = action_mask(game, side_to_move) if acting else np.zeros(NUM_ACTIONS, dtype=np.int8)
    return {"observation": planes.reshape(NUM_PLANES, 7, 7).copy(), "action_mask": mask}


def game_action(game: GameState, action: int, side_to_move: bool) -> int:
    """The action of the game for an action an agent chose in its perspective's frame."""
    return flip_action(action) if side_to_move and not game.turn and 0 <= action < NUM_ACTIONS else action


def check_arguments(render_mode: str | None, max_plies: int, perspective: str = "white") -> bool:
    """Raises ``ValueError`` for an unknown render mode, a ply limit that is not an int from 1 to
    ``2**32 - 1`` or an unknown perspective; returns whether the perspective is the side to move's."""
    if perspective not in PERSPECTIVES:
        raise ValueError(f"perspective must be one of {PERSPECTIVES}, got {perspective!r}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {RENDER_MODES}, got {render_mode!r}")
    check_max_plies(max_plies)
    return perspective == "side_to_move"


def render(game: GameState, render_mode: str | None) -> Any:
    """``None`` without a mode; the RGB array for ``rgb_array``; the text for ``ansi``; for
    ``human``, prints the text and returns ``None``."""
    if render_mode is None:
        return None
    if render_mode == "rgb_array":
        return _render.rgb_array(game)
    text = _render.ansi(game)
    if render_mode == "human":
        print(text)
        return None
    return text
