"""congo.learning.VectorGame: N games stepped at once, compared with N congo.learning.GameState objects."""

from __future__ import annotations

import random
from typing import Any

import pytest

import congo
from congo import learning
from congo.learning import NUM_ACTIONS, NUM_PLANES, GameState, VectorGame, flip_action

np = pytest.importorskip("numpy")

MATE_IN_ONE = "7/4l2/7/4c2/7/2p4/1M1L3 w 1"  # b1d3f5d7 takes the lion: a chain of three jumps
CHAINS = "7/4l2/7/4c2/7/2p4/1M1L3 w 1", "2l4/7/2p1p2/7/2p1p2/1M5/3L3 w 1"


def reference_view(game: GameState, side_to_move: bool) -> tuple[bytes, bytes]:
    return bytes(game.observation(side_to_move=side_to_move)), bytes(
        game.action_mask(side_to_move=side_to_move)
    )


def run_against_games(
    vector: VectorGame, steps: int, side_to_move: bool, rng: random.Random
) -> dict[str, int]:
    """Steps the vector on random legal actions and N plain Games alongside, comparing every output."""
    n = vector.num_games
    games = [vector.game(i) for i in range(n)]
    seen = {"ends": 0, "truncations": 0, "wins": 0, "chain_legs": 0, "restarts_elsewhere": 0}
    for _ in range(steps):
        masks = vector.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(masks[i])) for i in range(n)])
        rewards, terminations, truncations = vector.step(actions)
        finals, final_masks = vector.final_observations(), vector.final_action_masks()
        for i, game in enumerate(games):
            actor = game.turn
            action = int(actions[i])
            completed = game.apply(flip_action(action) if side_to_move and not actor else action)
            seen["chain_legs"] += not completed or game.chain is not None
            if game.is_over():
                seen["ends"] += 1
                seen["truncations"] += game.end == "move_limit"
                seen["wins"] += game.winner is not None
                assert bool(truncations[i]) == (game.end == "move_limit")
                assert bool(terminations[i]) == (game.end != "move_limit")
                expected = 0.0 if game.winner is None else (1.0 if game.winner == actor else -1.0)
                assert rewards[i] == expected
                planes, mask = reference_view(game, side_to_move)
                assert finals[i].tobytes() == planes
                assert final_masks[i].astype(np.uint8).tobytes() == mask
                assert not final_masks[i].any()
                game = games[i] = vector.game(i)
                assert game.plies == 0
                assert game.actions() == []
                seen["restarts_elsewhere"] += game.start.fen() != congo.STARTING_FEN
            else:
                assert (rewards[i], terminations[i], truncations[i]) == (0.0, False, False)
            planes, mask = reference_view(game, side_to_move)
            assert vector.observations()[i].tobytes() == planes
            assert vector.action_masks()[i].astype(np.uint8).tobytes() == mask
    return seen


@pytest.mark.parametrize("perspective", learning.PERSPECTIVES)
def test_a_vector_steps_exactly_as_games_one_by_one(perspective: str) -> None:
    starts = [congo.STARTING_FEN, *CHAINS]
    vector = VectorGame(8, seed=5, starts=starts, max_plies=40, perspective=perspective)
    seen = run_against_games(vector, 500, perspective == "side_to_move", random.Random(1))
    # Auto-resets of every kind happened, monkey chains were played leg by leg.
    assert seen["ends"] >= 30
    assert seen["truncations"] >= 3
    assert seen["wins"] >= 3
    assert seen["chain_legs"] >= 10
    assert seen["restarts_elsewhere"] >= 5


def test_threads_step_exactly_as_one_game_at_a_time() -> None:
    starts = [congo.STARTING_FEN, *CHAINS]
    vector = VectorGame(520, seed=2, starts=starts, max_plies=30, perspective="side_to_move", threads=2)
    seen = run_against_games(vector, 8, True, random.Random(3))
    assert seen["ends"] >= 50


def test_planes_skipped_in_steps_are_encoded_on_demand() -> None:
    fast = VectorGame(8, seed=4, planes=False)
    full = VectorGame(8, seed=4)
    for _ in range(120):
        actions = full.random_actions()
        assert (fast.random_actions() == actions).all()
        results = [a.copy() for a in fast.step(actions)]
        for got, expected in zip(results, full.step(actions)):
            assert (got == expected).all()
    assert (fast.observations() == full.observations()).all()
    assert (fast.action_masks() == full.action_masks()).all()


def test_the_terminal_step_keeps_the_final_observation_and_restarts() -> None:
    vector = VectorGame(2, starts=MATE_IN_ONE)
    start_planes, start_masks = vector.observations().copy(), vector.action_masks().copy()
    reference = GameState(congo.Position(MATE_IN_ONE))
    for leg, action in enumerate(reference.actions_of(congo.Move.from_uci("b1d3f5d7"))):
        rewards, terminations, truncations = vector.step([action, action])
        reference.apply(action)
        if leg < 2:  # the same player jumps again: no reward, no end
            assert not terminations.any()
            assert not rewards.any()
    assert reference.end == "lion_captured"
    assert rewards.tolist() == [1.0, 1.0]
    assert terminations.all()
    assert not truncations.any()
    assert vector.final_observations()[0].tobytes() == bytes(reference.observation())
    assert not vector.final_action_masks().any()  # the game is over: nothing can be played
    # The rows show the next game, whose mask is valid for the next action.
    assert (vector.observations() == start_planes).all()
    assert (vector.action_masks() == start_masks).all()
    assert vector.action_masks().sum(axis=1).min() > 0


def test_fen_lists_are_chosen_from_the_seed() -> None:
    def starts(vector: VectorGame) -> list[str]:
        return [vector.game(i).start.fen() for i in range(vector.num_games)]

    a = VectorGame(40, seed=11, starts=list(CHAINS))
    b = VectorGame(40, seed=11, starts=[congo.Board(fen) for fen in CHAINS])
    assert starts(a) == starts(b)
    assert set(starts(a)) == set(CHAINS)
    first = starts(a)
    a.reset(seed=12)
    assert starts(a) != first
    a.reset(seed=11)
    assert starts(a) == first


def test_a_callable_gives_each_next_start() -> None:
    calls: list[int] = []

    def curriculum(index: int) -> str:
        calls.append(index)
        return MATE_IN_ONE if len(calls) % 2 else CHAINS[1]

    vector = VectorGame(3, starts=curriculum)
    assert calls == [0, 1, 2]
    assert [vector.game(i).start.fen() for i in range(3)] == [MATE_IN_ONE, CHAINS[1], MATE_IN_ONE]
    chain = GameState(congo.Position(MATE_IN_ONE)).actions_of(congo.Move.from_uci("b1d3f5d7"))
    for action in chain:  # games 0 and 2 are mated; game 1 plays a random move
        actions = vector.random_actions()
        actions[[0, 2]] = action
        vector.step(actions)
    assert calls[3:] == [0, 2]
    assert vector.game(0).start.fen() == CHAINS[1]
    assert vector.game(0).plies == 0


def test_an_illegal_action_raises_naming_the_game_and_changes_nothing() -> None:
    vector = VectorGame(5, seed=1)
    for _ in range(3):
        vector.step(vector.random_actions())
    before = [a.copy() for a in (vector.observations(), vector.action_masks())]
    histories = [vector.game(i).actions() for i in range(5)]
    actions = vector.random_actions()
    illegal = int(np.flatnonzero(~vector.action_masks()[3])[0])
    actions[3] = illegal
    with pytest.raises(congo.IllegalMoveError, match=f"^game 3: action {illegal} is not legal"):
        vector.step(actions)
    actions[3] = NUM_ACTIONS
    with pytest.raises(ValueError, match=r"game 3: .*out of range"):
        vector.step(actions)
    assert [vector.game(i).actions() for i in range(5)] == histories
    assert (vector.observations() == before[0]).all()
    assert (vector.action_masks() == before[1]).all()
    with pytest.raises(ValueError, match="expected 5 actions"):
        vector.step(actions[:4])
    with pytest.raises(ValueError, match="integers"):
        vector.step(actions.astype(float))


def test_forfeit_mode_loses_the_game_of_an_illegal_action() -> None:
    vector = VectorGame(2, on_illegal="forfeit")
    planes = vector.observations().copy()
    rewards, terminations, _ = vector.step([0, int(vector.random_actions()[1])])
    assert rewards.tolist() == [-1.0, 0.0]
    assert terminations.tolist() == [True, False]
    assert vector.illegal().tolist() == [True, False]
    assert (vector.final_observations()[0] == planes[0]).all()
    assert vector.final_action_masks()[0].sum() == 24  # the position was unchanged


def test_bad_arguments_are_value_errors() -> None:
    with pytest.raises(ValueError, match="already over"):
        VectorGame(2, starts=["2l4/7/7/7/7/7/4L2 w 1"])  # bare lions: a draw
    with pytest.raises(ValueError, match="num_games"):
        VectorGame(0)
    with pytest.raises(ValueError, match="perspective"):
        VectorGame(1, perspective="black")
    with pytest.raises(ValueError, match="on_illegal"):
        VectorGame(1, on_illegal="ignore")
    with pytest.raises(TypeError):
        VectorGame(1, starts=[3])  # type: ignore[list-item]


def test_arrays_have_the_documented_shapes() -> None:
    vector = VectorGame(3)
    assert vector.reset().shape == (3, NUM_PLANES, 7, 7)
    assert vector.action_masks().shape == (3, NUM_ACTIONS)
    assert vector.action_masks().dtype == np.bool_
    rewards, terminations, truncations = vector.step(vector.random_actions())
    assert rewards.dtype == np.float32
    assert terminations.dtype == truncations.dtype == np.bool_
    assert not vector.observations().flags.writeable


def self_play_env(fen: str | None, max_plies: int, side_to_move: bool) -> Any:
    """One self-play game as a plain Gymnasium environment (built here: gymnasium is an extra)."""
    pytest.importorskip("gymnasium")
    import gymnasium

    class SelfPlayEnv(gymnasium.Env[dict[str, Any], Any]):
        """On learning.GameState, for Gymnasium's own SyncVectorEnv to vectorise: the reference that
        CongoVectorEnv must equal."""

        metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012

        def __init__(self, fen: str | None, max_plies: int, side_to_move: bool) -> None:
            from congo.envs import _spaces

            self.fen, self.max_plies, self.side_to_move = fen, max_plies, side_to_move
            self.observation_space = _spaces.observation_space()
            self.action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
            self.game = GameState(None if fen is None else congo.Position(fen), max_plies)

        def _observation(self) -> dict[str, Any]:
            from congo.envs import _spaces

            return _spaces.observation(self.game, side_to_move=self.side_to_move)

        def reset(
            self, *, seed: int | None = None, options: object = None
        ) -> tuple[dict[str, Any], dict[str, Any]]:
            super().reset(seed=seed)
            self.game = GameState(None if self.fen is None else congo.Position(self.fen), self.max_plies)
            return self._observation(), {}

        def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
            actor = self.game.turn
            a = int(action)
            try:
                self.game.apply(flip_action(a) if self.side_to_move and not actor else a)
            except ValueError:  # an illegal action loses
                return self._observation(), -1.0, True, False, {"illegal_action": True}
            if not self.game.is_over():
                return self._observation(), 0.0, False, False, {}
            winner = self.game.winner
            reward = 0.0 if winner is None else (1.0 if winner == actor else -1.0)
            truncated = self.game.end == "move_limit"
            return self._observation(), reward, not truncated, truncated, {}

    return SelfPlayEnv(fen, max_plies, side_to_move)


@pytest.mark.parametrize(("fen", "perspective"), [(None, "white"), (CHAINS[1], "side_to_move")])
def test_the_vector_env_equals_gymnasiums_own_sync_vector_env(fen: str | None, perspective: str) -> None:
    from gymnasium.utils.env_checker import check_env, data_equivalence
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    from congo.envs.gymnasium import CongoVectorEnv

    side_to_move = perspective == "side_to_move"
    check_env(self_play_env(fen, 24, side_to_move), skip_render_check=True)  # the reference is sound
    n = 4
    makers = [lambda: self_play_env(fen, 24, side_to_move) for _ in range(n)]
    reference = SyncVectorEnv(makers, autoreset_mode=AutoresetMode.SAME_STEP)
    envs = CongoVectorEnv(n, max_plies=24, perspective=perspective, starts=fen)
    assert envs.metadata["autoreset_mode"] == reference.metadata["autoreset_mode"]
    assert envs.single_observation_space == reference.single_observation_space
    assert envs.observation_space == reference.observation_space
    assert envs.action_space == reference.action_space
    got: tuple[Any, ...] = envs.reset(seed=3)
    assert data_equivalence(got, reference.reset(seed=3), exact=True)
    rng, ends = random.Random(5), 0
    for step in range(400):
        masks = got[0]["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        if step % 50 == 7:  # now and then an illegal action
            actions[step % n] = int(np.flatnonzero(masks[step % n] == 0)[0])
        got = envs.step(actions)
        assert data_equivalence(got, reference.step(actions), exact=True)
        assert envs.observation_space.contains(got[0])
        if "final_obs" in got[4]:
            ends += int(got[4]["_final_obs"].sum())
            for i in np.flatnonzero(got[4]["_final_obs"]):
                assert envs.single_observation_space.contains(got[4]["final_obs"][i])
    assert ends >= 20


def test_the_vector_env_runs_under_gymnasiums_wrappers_and_benchmark() -> None:
    from gymnasium.utils.env_checker import data_equivalence
    from gymnasium.utils.passive_env_checker import check_action_space, check_observation_space
    from gymnasium.utils.performance import benchmark_vector_step
    from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

    from congo.envs.gymnasium import CongoVectorEnv

    envs = CongoVectorEnv(3, max_plies=10, starts=list(CHAINS))
    check_observation_space(envs.single_observation_space)
    check_action_space(envs.single_action_space)
    # Determinism from the seed, and fresh arrays every call.
    first = envs.reset(seed=7)
    assert data_equivalence(first, envs.reset(seed=7), exact=True)
    observation = first[0]["observation"]
    envs.step(envs.action_space.sample())
    assert (observation == first[0]["observation"]).all()
    # Gymnasium's episode statistics, with its reading of the autoreset mode.
    wrapped: Any = DictInfoToList(RecordEpisodeStatistics(envs))
    observations, _ = wrapped.reset(seed=1)
    rng, episodes = random.Random(2), 0
    for _ in range(60):
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in observations["action_mask"]])
        observations, _, terminations, truncations, infos = wrapped.step(actions)
        for i, info in enumerate(infos):
            if terminations[i] or truncations[i]:
                assert 1 <= info["episode"]["l"] <= 10 * 3  # plies, each up to a few chain legs
                episodes += 1
    assert episodes >= 6
    # Random actions of the action space: nearly all illegal, each forfeits its game.
    assert benchmark_vector_step(envs, target_duration=1, seed=0) > 0
    _, rewards, terminations, _, infos = envs.step(np.zeros(3, dtype=np.int64))
    assert rewards.tolist() == [-1.0] * 3
    assert terminations.all()
    assert infos["final_info"]["illegal_action"].all()


def test_a_step_releases_the_gil() -> None:
    from tests.gil import assert_releases_the_gil

    games = VectorGame(20_000, seed=1, threads=1)  # a step of tens of milliseconds
    assert_releases_the_gil(lambda: games.step(games.random_actions()))
