"""Congo as a Gymnasium vector environment: ``num_envs`` self-play games stepped together in Rust
(:class:`congo.learning.VectorGame`), re-exported as ``congo.envs.gymnasium.CongoVectorEnv``.

>>> from congo.envs.gymnasium import CongoVectorEnv
>>> envs = CongoVectorEnv(4)
>>> observations, infos = envs.reset(seed=0)
>>> observations["observation"].shape, observations["action_mask"].sum(axis=1).tolist()
((4, 23, 7, 7), [24, 24, 24, 24])

* One agent plays both colours (self-play): the reward of a step is for the player who acted —
  +1 for the action that wins, -1 for one that loses, else 0. Whose turn it is: plane 16 of the
  observation; ``perspective="side_to_move"`` shows each board from the side to act, so one policy
  plays both colours (``congo.learning.PERSPECTIVES``).
* Spaces: each sub-environment's as :class:`congo.envs.gymnasium.CongoEnv`'s
  (``{"observation": uint8 (23, 7, 7), "action_mask": int8 (1961,)}``, ``Discrete(1961)``), batched
  (``MultiDiscrete``). :meth:`CongoVectorEnv.action_masks` gives the masks alone.
* Autoreset: ``AutoresetMode.SAME_STEP`` (``metadata["autoreset_mode"]``): a game that ends is
  restarted within the step; the observation returned is the new game's (its mask holds a legal
  action), and ``infos["final_obs"][i]`` (with ``infos["_final_obs"]``) is the ended game's last
  observation, whose mask is all zeros.
* An illegal action loses that game (reward -1, terminated, and
  ``infos["final_info"]["illegal_action"]``), as in ``CongoEnv``. A game drawn at ``max_plies``
  moves is truncated; every other end terminates.
* Start positions: ``starts`` as :class:`congo.learning.VectorGame` takes them (a FEN, a list of
  FENs chosen from the seed of ``reset``, or a callable); ``reset(seed=...)`` makes the choices
  reproducible.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from congo._core import DEFAULT_MAX_PLIES
from congo.envs import _spaces
from congo.envs._start import check_max_plies
from congo.learning import NUM_ACTIONS, Start, VectorGame

Observation = dict[str, npt.NDArray[Any]]


class CongoVectorEnv(VectorEnv[Observation, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` self-play Congo games (see the module docs)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        *,
        max_plies: int = DEFAULT_MAX_PLIES,
        perspective: str = "white",
        starts: Start | Iterable[Start] | Callable[[int], Start] | None = None,
        threads: int = 0,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        _spaces.check_arguments(None, max_plies, perspective)
        check_max_plies(max_plies)
        self._games = VectorGame(
            num_envs,
            seed=0,
            starts=starts,
            max_plies=max_plies,
            perspective=perspective,
            on_illegal="forfeit",
            threads=threads,
        )
        self.num_envs = num_envs
        self.max_plies = max_plies
        self.perspective = perspective
        self.render_mode = None
        self.single_observation_space = _spaces.observation_space()
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def _observations(self) -> Observation:
        # New arrays every call: the game's views are overwritten by the next step.
        return {"observation": self._games.observations().copy(), "action_mask": self.action_masks()}

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal-action masks, int8 ``(num_envs, 1961)``, in the perspective's frame."""
        return self._games.action_masks().view(np.int8).copy()

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Starts every game again; ``seed`` (an int) makes the choices of start positions
        reproducible. No options are taken (``ValueError`` for any key)."""
        if isinstance(seed, list):
            raise ValueError("give one seed for all the games (an int), not a list")
        if options:
            raise ValueError(f"CongoVectorEnv.reset takes no options, got {sorted(map(str, options))}")
        super().reset(seed=seed)
        if seed is None:
            self._games.reset()
        else:
            self._games.reset(seed=seed)
        return self._observations(), {}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Observation, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        """Plays one action in each game; see the module docs for the rewards, ends and infos."""
        rewards, terminations, truncations = self._games.step(actions)
        infos: dict[str, Any] = {}
        ended = terminations | truncations
        if ended.any():
            final_planes, final_masks = self._games.final_observations(), self._games.final_action_masks()
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(ended):
                final[i] = {
                    "observation": final_planes[i].copy(),
                    "action_mask": final_masks[i].view(np.int8).copy(),
                }
            infos["final_obs"], infos["_final_obs"] = final, ended.copy()
            # The ended games' own infos, as Gymnasium's SyncVectorEnv gathers them.
            final_info: dict[str, Any] = {}
            illegal = self._games.illegal()
            if illegal.any():
                final_info["illegal_action"], final_info["_illegal_action"] = illegal.copy(), illegal.copy()
            infos["final_info"], infos["_final_info"] = final_info, ended.copy()
        return (
            self._observations(),
            rewards.astype(np.float64),
            terminations.copy(),
            truncations.copy(),
            infos,
        )
