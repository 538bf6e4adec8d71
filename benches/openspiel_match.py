"""A recorded match: the built-in engine against OpenSpiel's own MCTS bot (random rollouts), both
through OpenSpiel's ``pyspiel.evaluate_bots`` on the game ``python_congo``.

    python benches/openspiel_match.py [--games 10] [--nodes 2000] [--simulations 200]

Prints one line per game (colours, result, plies, the moves) and the score; the recorded run is
``benches/results/openspiel-mcts-match.txt``. Needs ``pip install 'congo-chess[openspiel]'``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import congo
from congo.envs.openspiel import EngineBot


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--nodes", type=int, default=2000, help="engine nodes per move")
    parser.add_argument("--simulations", type=int, default=200, help="MCTS simulations per action")
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts per MCTS leaf")
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = pyspiel.load_game("python_congo", {"max_plies": args.max_plies})
    print(
        f"engine (nodes={args.nodes}) vs OpenSpiel MCTSBot (uct_c=2, max_simulations={args.simulations}, "
        f"RandomRolloutEvaluator n_rollouts={args.rollouts}); max_plies={args.max_plies}; "
        f"congo {congo.__version__}, open_spiel via pyspiel"
    )
    wins = draws = losses = 0
    start = time.perf_counter()
    for index in range(args.games):
        seed = args.seed + index
        evaluator = mcts.RandomRolloutEvaluator(args.rollouts, np.random.RandomState(seed))
        mcts_bot = mcts.MCTSBot(
            game, 2.0, args.simulations, evaluator, random_state=np.random.RandomState(seed + 1000)
        )
        engine_bot = EngineBot(congo.Limit(nodes=args.nodes))
        engine_player = index % 2
        bots = [engine_bot, mcts_bot] if engine_player == 0 else [mcts_bot, engine_bot]
        state = game.new_initial_state()
        game_start = time.perf_counter()
        returns = pyspiel.evaluate_bots(state, bots, seed)
        score = returns[engine_player]
        wins += score > 0
        draws += score == 0
        losses += score < 0
        colour = "White" if engine_player == 0 else "Black"
        moves = " ".join(move.uci() for move in state.game.move_stack())
        verdict = "won" if score > 0 else "drew" if score == 0 else "lost"
        seconds = time.perf_counter() - game_start
        print(
            f"game {index + 1}: engine {colour}, engine {verdict} ({state.game.end}) "
            f"in {state.game.plies} plies, {seconds:.1f} s: {moves}",
            flush=True,
        )
    print(
        f"engine +{wins} ={draws} -{losses} in {args.games} games "
        f"({100 * (wins + draws / 2) / max(args.games, 1):.0f} %), {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
