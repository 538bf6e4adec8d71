"""congo.learning.VectorGame: N games stepped at once, compared with N congo.learning.Games."""

from __future__ import annotations

import random

import pytest

import congo
from congo import learning
from congo.learning import NUM_ACTIONS, NUM_PLANES, Game, VectorGame, flip_action

np = pytest.importorskip("numpy")

MATE_IN_ONE = "7/4l2/7/4c2/7/2p4/1M1L3 w 1"  # b1d3f5d7 takes the lion: a chain of three jumps
CHAINS = "7/4l2/7/4c2/7/2p4/1M1L3 w 1", "2l4/7/2p1p2/7/2p1p2/1M5/3L3 w 1"


def reference_view(game: Game, side_to_move: bool) -> tuple[bytes, bytes]:
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
    reference = Game(congo.Position(MATE_IN_ONE))
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
    chain = Game(congo.Position(MATE_IN_ONE)).actions_of(congo.Move.from_uci("b1d3f5d7"))
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
