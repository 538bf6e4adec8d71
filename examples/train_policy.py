"""Self-play data to a trained policy in one script: the engine plays itself, every searched
position becomes planes and a target move, and a linear softmax policy (numpy only) learns to
predict the engine's first action from the planes, restricted to the legal actions by their masks.

    python examples/train_policy.py [--games 24] [--nodes 500] [--epochs 60]

Positions are seen from the side to move (``perspective="side_to_move"``), so one policy plays
both colours; the targets and masks are read in the same frame (``flip_action``). The data are
split by game into training and held-out sets; the script prints the held-out top-1 accuracy of the
policy beside that of a uniformly random legal move. Needs numpy (``pip install 'congo-chess[numpy]'``).
"""

from __future__ import annotations

import argparse

import numpy as np

import congo
from congo import learning, selfplay


def dataset(rows: selfplay.Rows) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Planes (float32, flattened), legal masks and target actions, all in the side to move's frame,
    and each row's game index."""
    positions = [congo.Position(fen) for fen in rows["fen"]]
    planes = learning.encode(positions, perspective="side_to_move").reshape(len(positions), -1)
    masks = np.stack(
        [
            np.frombuffer(learning.GameState(p).action_mask(side_to_move=True), dtype=np.uint8)
            for p in positions
        ]
    ).astype(bool)
    targets = np.array(
        [a if p.turn else learning.flip_action(a) for p, a in zip(positions, rows["best_action"])]
    )
    return planes.astype(np.float32), masks, targets, np.array(rows["game"])


def masked_softmax(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    logits = np.where(masks, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    weights = np.exp(logits)
    normalised: np.ndarray = weights / weights.sum(axis=1, keepdims=True)
    return normalised


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--nodes", type=int, default=500)
    parser.add_argument("--epochs", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    config = selfplay.SelfPlayConfig(nodes=args.nodes, max_plies=120)
    rows = selfplay.merge(selfplay.play_games(args.games, config, seed=args.seed))
    x, masks, targets, games = dataset(rows)
    assert masks[np.arange(len(targets)), targets].all(), "every target is a legal action"
    held_out = games % 4 == 0
    print(f"{len(targets)} positions from {args.games} games ({held_out.sum()} held out)")

    rng = np.random.default_rng(args.seed)
    weights = rng.normal(0, 0.01, (x.shape[1], learning.NUM_ACTIONS)).astype(np.float32)
    train_x, train_m, train_t = x[~held_out], masks[~held_out], targets[~held_out]
    for _ in range(args.epochs):
        probabilities = masked_softmax(train_x @ weights, train_m)
        probabilities[np.arange(len(train_t)), train_t] -= 1.0  # the cross-entropy gradient
        weights -= 0.5 * train_x.T @ probabilities / len(train_t)

    test_x, test_m, test_t = x[held_out], masks[held_out], targets[held_out]
    predicted = np.where(test_m, test_x @ weights, -np.inf).argmax(axis=1)
    accuracy = float((predicted == test_t).mean())
    chance = float((1.0 / test_m.sum(axis=1)).mean())
    print(f"held-out top-1 accuracy: policy {accuracy:.1%}, random legal move {chance:.1%}")


if __name__ == "__main__":
    main()
