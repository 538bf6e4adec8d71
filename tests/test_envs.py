"""The environments pass their frameworks' own checkers: PettingZoo's api_test and seed_test,
Gymnasium's check_env, OpenSpiel's random simulation test; and the engine beats OpenSpiel's MCTS bot.

Each test is skipped when its framework is not installed (``pip install 'congo-chess[envs]'``)."""

from __future__ import annotations

from typing import SupportsFloat

import pytest

import congo
from congo.learning import NUM_ACTIONS, NUM_PLANES, STOP_ACTION

CHAIN_FEN = "7/4l2/7/4c2/7/2p4/1M1L3 w 1"


# -- PettingZoo -------------------------------------------------------------------------------


def test_pettingzoo_api_and_seed_tests() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from congo.envs.pettingzoo import env

    api_test(env(), num_cycles=1000, verbose_progress=False)
    seed_test(env, num_cycles=500)


def test_pettingzoo_renders_text_and_images() -> None:
    pytest.importorskip("pettingzoo")
    from congo.envs.pettingzoo import env

    text_env = env(render_mode="ansi")
    text_env.reset()
    assert "White to move" in text_env.render()
    image_env = env(render_mode="rgb_array")
    image_env.reset()
    image = image_env.render()
    assert image.shape == (336, 336, 3)
    assert image.dtype.name == "uint8"
    assert len({tuple(pixel) for pixel in image.reshape(-1, 3)[::97]}) > 4


def test_pettingzoo_keeps_the_agent_during_a_chain_and_scores_the_win() -> None:
    pytest.importorskip("pettingzoo")
    from congo.envs.pettingzoo import raw_env
    from congo.learning import GameState

    environment = raw_env()
    environment.reset()
    environment.game = GameState(congo.Position(CHAIN_FEN))
    actions = environment.game.actions_of(congo.Move.from_uci("b1d3f5d7"))
    for action in actions:
        assert environment.agent_selection == "player_0"
        observation = environment.observe("player_0")
        assert observation["action_mask"][action] == 1
        assert observation["observation"].shape == (NUM_PLANES, 7, 7)
        environment.step(action)
    assert environment.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert all(environment.terminations.values())


def test_pettingzoo_illegal_action_loses() -> None:
    pytest.importorskip("pettingzoo")
    from congo.envs.pettingzoo import env

    environment = env()
    environment.reset()
    environment.step(STOP_ACTION)  # PettingZoo's wrapper logs the illegal move and ends the game
    assert environment.rewards["player_0"] == -1
    assert environment.terminations["player_0"]


# -- Gymnasium --------------------------------------------------------------------------------


@pytest.mark.parametrize("opponent", ["random", "greedy", "engine:nodes=200"])
def test_gymnasium_check_env(opponent: str) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from congo.envs.gymnasium import ENV_ID, CongoEnv

    check_env(CongoEnv(opponent=opponent))
    for mode in ("ansi", "rgb_array"):
        check_env(gymnasium.make(ENV_ID, opponent=opponent, render_mode=mode).unwrapped)


def test_gymnasium_episode_as_black_and_illegal_actions() -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("gymnasium")
    from congo.envs.gymnasium import CongoEnv

    env = CongoEnv(opponent="random", agent_color="black", max_plies=40)
    observation, _ = env.reset(seed=4)
    assert not observation["observation"][16].any()  # Black to move: the opponent has played
    rng = np.random.default_rng(0)
    steps, terminated, truncated = 0, False, False
    reward: SupportsFloat = 0.0
    while not (terminated or truncated):
        assert np.array_equal(observation["action_mask"], env.action_masks())
        action = rng.choice(np.flatnonzero(env.action_masks()))
        observation, reward, terminated, truncated, info = env.step(action)
        steps += 1
    assert steps > 5
    assert reward in (-1.0, 0.0, 1.0)
    assert truncated == (info["end"] == "move_limit")
    env.reset(seed=1)
    _, reward, terminated, _, info = env.step(STOP_ACTION)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    with pytest.raises(ValueError, match="agent_color"):
        CongoEnv(agent_color="red")
    with pytest.raises(ValueError, match="unknown player"):
        CongoEnv(opponent="nobody")


# -- OpenSpiel --------------------------------------------------------------------------------


def test_openspiel_random_simulation_test() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import congo.envs.openspiel

    game = pyspiel.load_game("python_congo")
    assert game.num_distinct_actions() == NUM_ACTIONS
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    short = pyspiel.load_game("python_congo", {"max_plies": 20})
    pyspiel.random_sim_test(short, num_sims=10, serialize=False, verbose=False)
    state = game.new_initial_state()
    assert len(state.legal_actions()) == 24
    assert state.observation_tensor(0) == pytest.approx(list(congo.encode(congo.Board()).reshape(-1)))


def test_the_engine_beats_openspiel_mcts() -> None:
    np = pytest.importorskip("numpy")
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import mcts

    from congo.envs.openspiel import EngineBot

    game = pyspiel.load_game("python_congo", {"max_plies": 200})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    mcts_bot = mcts.MCTSBot(game, 2.0, 60, evaluator, random_state=np.random.RandomState(2))
    engine_bot = EngineBot(congo.Limit(nodes=2000))
    for bots, engine_player in (([engine_bot, mcts_bot], 0), ([mcts_bot, engine_bot], 1)):
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)
        assert returns[engine_player] == 1.0, returns


def test_the_side_to_move_perspective_in_both_environments() -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    from congo.envs.gymnasium import CongoEnv
    from congo.envs.pettingzoo import env

    api_test(env(perspective="side_to_move"), num_cycles=300, verbose_progress=False)
    check_env(CongoEnv(agent_color="black", perspective="side_to_move"))
    black = CongoEnv(agent_color="black", perspective="side_to_move")
    observation, _ = black.reset(seed=2)
    # Black sees its own pieces in planes 0-7, its home rank in row 0.
    assert observation["observation"][0, 1].sum() >= 6
    assert not observation["observation"][16].any()
    rng = np.random.default_rng(3)
    for _ in range(20):
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, _, terminated, truncated, info = black.step(action)
        assert "illegal_action" not in info
        if terminated or truncated:
            break
    with pytest.raises(ValueError, match="perspective"):
        CongoEnv(perspective="mine")


def test_gymnasium_against_an_outside_engine_over_the_protocol() -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("gymnasium")
    import sys

    from congo.envs.gymnasium import CongoEnv

    env = CongoEnv(opponent=f"uci[nodes=300]:{sys.executable} -m congo uci", agent_color="black")
    try:
        observation, _ = env.reset(seed=1)
        rng = np.random.default_rng(0)
        for _ in range(200):
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, reward, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                break
        assert terminated or truncated
        assert reward == -1.0  # random play loses to the engine
    finally:
        env.close()


# -- start positions and argument bounds -------------------------------------------

FINISHED_FEN = "3M3/7/7/7/7/7/3L3 b 1"  # after the monkey's chain took the lion
BLACK_TO_MOVE_FEN = "7/4l2/7/4c2/7/2p4/1M1L3 b 1"


def test_pettingzoo_starts_from_a_fen_a_board_or_a_position() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from congo.envs.pettingzoo import env, raw_env

    environment = raw_env()
    environment.reset(options={"fen": CHAIN_FEN})
    assert environment.game.position.fen() == CHAIN_FEN
    assert environment.agent_selection == "player_0"
    for action in environment.game.actions_of(congo.Move.from_uci("b1d3f5d7")):
        environment.step(action)
    assert environment.rewards == {"player_0": 1.0, "player_1": -1.0}
    environment.reset(options={"board": congo.Board(BLACK_TO_MOVE_FEN)})
    assert environment.agent_selection == "player_1"
    assert environment.game.position.fen() == BLACK_TO_MOVE_FEN
    environment.reset(options={"position": congo.Position(CHAIN_FEN)}, seed=3)
    assert environment.game.position.fen() == CHAIN_FEN
    environment.reset()  # and back to the usual start
    assert environment.game.position.fen() == congo.STARTING_FEN
    # The wrapped environment passes the options through; the framework's checker still passes.
    wrapped = env()
    wrapped.reset(options={"fen": BLACK_TO_MOVE_FEN})
    assert wrapped.agent_selection == "player_1"
    api_test(env(), num_cycles=50, verbose_progress=False)


def test_environments_reject_unknown_options_and_bad_start_positions() -> None:
    pytest.importorskip("pettingzoo")
    from congo.envs.gymnasium import CongoEnv
    from congo.envs.pettingzoo import raw_env

    for environment in (raw_env(), CongoEnv()):
        with pytest.raises(ValueError, match="unknown reset option 'fenn'"):
            environment.reset(options={"fenn": CHAIN_FEN})
        with pytest.raises(ValueError, match="one start position"):
            environment.reset(options={"fen": CHAIN_FEN, "board": congo.Board()})
        with pytest.raises(congo.InvalidFenError):
            environment.reset(options={"fen": "not a fen"})
        with pytest.raises(ValueError, match="already over"):
            environment.reset(options={"fen": FINISHED_FEN})
        with pytest.raises(TypeError, match=r"congo\.Board"):
            environment.reset(options={"board": CHAIN_FEN})
        with pytest.raises(TypeError, match=r"congo\.Position"):
            environment.reset(options={"position": congo.Board()})
    with pytest.raises(ValueError, match="unknown reset option 'options'"):
        CongoEnv().reset(options={"options": 1})


def test_gymnasium_starts_from_a_position() -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("gymnasium")
    from congo.envs.gymnasium import CongoEnv

    env = CongoEnv(opponent="random")
    observation, info = env.reset(options={"fen": CHAIN_FEN})
    assert np.array_equal(observation["observation"], congo.encode(congo.Position(CHAIN_FEN)))
    assert info["plies"] == 0
    for action in env.game.actions_of(congo.Move.from_uci("b1d3f5d7")):
        observation, reward, terminated, truncated, info = env.step(action)
    assert (reward, terminated, truncated, info["end"]) == (1.0, True, False, "lion_captured")
    # Black's agent in a position with White to move: the opponent moves first.
    black = CongoEnv(opponent="greedy", agent_color="black")
    _, info = black.reset(options={"position": congo.Position(BLACK_TO_MOVE_FEN)})
    assert info["plies"] == 0
    assert black.action_masks().any()


def test_gymnasium_never_hands_out_an_episode_over_before_the_agent_acts() -> None:
    pytest.importorskip("gymnasium")
    from congo.envs.gymnasium import CongoEnv

    # White to move takes the lion at once (the lions face each other on an open file; the chain
    # position's monkey takes it too): refused for Black's agent, whatever the opponent would play.
    for fen in ("3l3/7/7/7/7/7/3L3 w 1", CHAIN_FEN):
        for opponent in ("random", "greedy"):
            black = CongoEnv(opponent=opponent, agent_color="black")
            for seed in range(8):
                with pytest.raises(ValueError, match="ends the game at once"):
                    black.reset(options={"fen": fen}, seed=seed)
        # White's agent moves first there: a fine start.
        _, info = CongoEnv(agent_color="white").reset(options={"fen": fen})
        assert info["end"] is None
    # One ply allowed and the opponent to move: its move ends the game by the limit.
    with pytest.raises(ValueError, match="move_limit"):
        CongoEnv(agent_color="black", max_plies=1).reset()
    # The usual start: White cannot end the game with its first move.
    black = CongoEnv(opponent="greedy", agent_color="black")
    for seed in range(4):
        _, info = black.reset(seed=seed)
        assert (info["plies"], info["end"]) == (1, None)
        assert black.action_masks().any()


def test_environment_arguments_out_of_range_are_value_errors() -> None:
    pytest.importorskip("pettingzoo")
    from congo.envs.gymnasium import MAX_ALPHABETA_DEPTH, CongoEnv
    from congo.envs.pettingzoo import raw_env

    for huge in (10**30, 2**32):
        with pytest.raises(ValueError, match="max_plies"):
            CongoEnv(max_plies=huge)
        with pytest.raises(ValueError, match="max_plies"):
            raw_env(max_plies=huge)
    assert raw_env(max_plies=2**32 - 1).game.max_plies == 2**32 - 1
    environment = raw_env()
    environment.reset()
    for action in (10**30, -1, NUM_ACTIONS):
        with pytest.raises(ValueError, match="action must be in 0"):
            environment.step(action)
    with pytest.raises(TypeError):
        environment.step(1.5)  # type: ignore[arg-type]
    assert environment.game.plies == 0  # nothing was played
    assert MAX_ALPHABETA_DEPTH == 8
    with pytest.raises(ValueError, match="from 1 to 8"):
        CongoEnv(opponent="alphabeta:depth=1000")
    CongoEnv(opponent=f"alphabeta:depth={MAX_ALPHABETA_DEPTH}")


def test_openspiel_starts_from_a_fen() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import congo.envs.openspiel

    game = pyspiel.load_game("python_congo", {"fen": CHAIN_FEN})
    state = game.new_initial_state()
    assert state.game.position.fen() == CHAIN_FEN
    assert state.current_player() == 0
    for action in state.game.actions_of(congo.Move.from_uci("b1d3f5d7")):
        state.apply_action(action)
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    assert pyspiel.load_game(str(game)).new_initial_state().game.position.fen() == CHAIN_FEN
    # One state from another position; a serialized state keeps its start.
    other = pyspiel.load_game("python_congo").new_initial_state(BLACK_TO_MOVE_FEN)
    assert other.current_player() == 1
    other.apply_action(other.legal_actions()[0])
    restored = other.get_game().deserialize_state(other.serialize())
    assert restored.game.start.fen() == BLACK_TO_MOVE_FEN
    assert restored.game.position == other.game.position
    with pytest.raises(congo.InvalidFenError):
        pyspiel.load_game("python_congo", {"fen": "not a fen"})
    with pytest.raises(ValueError, match="already over"):
        pyspiel.load_game("python_congo", {"fen": FINISHED_FEN})
    with pytest.raises(ValueError, match="max_plies"):
        pyspiel.load_game("python_congo", {"max_plies": 10**9})


def test_gymnasium_makes_the_environment_by_the_documented_id_after_import_gymnasium_alone() -> None:
    pytest.importorskip("gymnasium")
    import re
    import subprocess
    import sys
    from pathlib import Path

    docs = (Path(__file__).parent.parent / "docs" / "learning.md").read_text(encoding="utf-8")
    found = re.search(r'gymnasium\.make\("([^"]+)", opponent="greedy"\)', docs)
    assert found, "docs/learning.md shows how to make the environment after `import gymnasium` alone"
    script = (
        "import sys, gymnasium\n"
        f"env = gymnasium.make({found.group(1)!r}, opponent='greedy')\n"
        "observation, info = env.reset(seed=0)\n"
        "assert int(observation['action_mask'].sum()) == 24\n"
        "assert 'congo.envs.gymnasium' in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
