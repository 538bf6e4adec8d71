"""An AlphaZero that learns Congo from scratch on a CPU: self-play with :mod:`congo.mcts`'s batched
search, a replay buffer, training of a PyTorch MLP on the searches' visit distributions and the
games' results, checkpoints, a log, and an export the ``mcts:net=FILE`` player reads.

    nice -n 19 python examples/alphazero.py --out runs/az --hours 2
    congo match "mcts:net=runs/az/network.npz,sims=200" alphabeta:depth=2 --games 100

One command runs the whole loop until its time budget (``--hours``, the self-play and training
time summed over resumed runs) is spent. Each iteration:

1. **Self-play.** ``--games`` games are played at once in one :class:`congo.mcts.Search` (one tree a
   game, kept between moves: tree reuse). Every simulation step hands the network one batch with a
   leaf from each tree (one ``evaluate`` call a batch). The roots get Dirichlet noise
   (``--dirichlet-alpha``); the first ``--temperature-plies`` decisions of a game are sampled from
   the visit counts, later ones take the most visited action. There is no resignation: every game
   is played to its end or to ``--max-plies`` (a draw). A finished game is replaced by a new one
   from the start position. Each decision (a monkey chain's legs are decisions of the same player)
   gives one training position: the root's planes and legal mask seen from the side to move, the
   search's visit distribution (its ``--policy-width`` most visited actions) and, once the game is
   over, its result for that player (+1, 0, -1).
2. **Training.** ``--train-steps`` Adam steps on batches of ``--batch`` positions drawn uniformly
   from the replay buffer (the last ``--buffer`` positions): policy cross-entropy against the visit
   distribution, over the legal actions, plus the value's mean squared error.
3. **Output**, each file written whole or not at all (:func:`congo.files.atomic_output`):
   ``log.jsonl`` every iteration (one JSON object an iteration: iteration, games, positions,
   training steps, losses, time, throughput); every ``--checkpoint-minutes`` and at the end
   ``checkpoint.pt`` (the network, the optimiser, the buffer, the counters and random states, the
   log) and ``network.npz`` (the network in :class:`congo.mcts.MlpNetwork`'s format); every
   ``--snapshot-every`` iterations ``network-NNNN.npz``, for a learning curve by matches.

Run again with the same ``--out`` and it resumes from ``checkpoint.pt`` (the network's shape and the
seed come from the checkpoint, the log is the checkpoint's; games under way when it was written are
started afresh, their positions not kept). ``--hours`` is the total: a resumed run stops when the
sum reaches it.

The network is an MLP (``--hidden``, ReLU layers) on the flattened planes with a policy head over
all ``NUM_ACTIONS`` actions and a ``tanh`` value head: exactly what ``MlpNetwork`` evaluates in
numpy, so the trained agent plays without PyTorch. PyTorch (the CPU build) comes from the
``training`` extra (``pip install 'congo-chess[training]'``); ``import congo`` never imports it.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

import congo
from congo import learning
from congo.files import atomic_output, check_outputs
from congo.mcts import MlpNetwork, Search

if TYPE_CHECKING:
    import numpy.typing as npt
    import torch

INPUTS = learning.NUM_PLANES * learning.BOARD_SHAPE[0] * learning.BOARD_SHAPE[1]
MASK_BYTES = (learning.NUM_ACTIONS + 7) // 8


def _torch() -> Any:
    try:
        import torch
    except ImportError:
        raise SystemExit(
            "examples/alphazero.py trains with PyTorch: pip install 'congo-chess[training]'"
        ) from None
    return torch


def make_model(hidden: Sequence[int]) -> torch.nn.Module:
    """The MLP: ReLU layers on the flattened planes, a policy head and a value head (pre-tanh)."""
    lib = _torch()
    module: Any = lib.nn.Module

    class Net(module):  # type: ignore[misc]  # torch is imported at run time only
        def __init__(self) -> None:
            super().__init__()
            sizes = [INPUTS, *hidden]
            self.body = lib.nn.ModuleList(lib.nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))
            self.policy = lib.nn.Linear(sizes[-1], learning.NUM_ACTIONS)
            self.value = lib.nn.Linear(sizes[-1], 1)

        def forward(self, x: Any) -> tuple[Any, Any]:
            for layer in self.body:
                x = lib.relu(layer(x))
            return self.policy(x), self.value(x).squeeze(1)

    model: torch.nn.Module = Net()
    return model


def export(model: torch.nn.Module) -> MlpNetwork:
    """The model as an :class:`MlpNetwork` (``nn.Linear``'s weight is the transpose of its matrix)."""

    def arrays(layer: Any) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        weight = layer.weight.detach().cpu().numpy().astype(np.float32)
        bias = layer.bias.detach().cpu().numpy().astype(np.float32)
        return np.ascontiguousarray(weight.T), bias

    net: Any = model
    value_weight, value_bias = arrays(net.value)
    return MlpNetwork(
        [arrays(layer) for layer in net.body],
        arrays(net.policy),
        (value_weight.reshape(-1), value_bias.reshape(())),
        perspective="side_to_move",
    )


def write_network(network: MlpNetwork, path: Path) -> None:
    """``network`` to ``path`` whole or not at all (:meth:`MlpNetwork.save` writes through
    :func:`atomic_output`), then read back with :meth:`MlpNetwork.load` as the player reads it."""
    network.save(path)
    MlpNetwork.load(path)


@dataclass
class Replay:
    """A ring buffer of training positions: planes, packed legal masks, the visit distribution's
    ``width`` most visited actions (index, probability; index -1 pads) and the result."""

    capacity: int
    width: int
    size: int = 0
    next: int = 0
    planes: npt.NDArray[np.uint8] = field(init=False)
    masks: npt.NDArray[np.uint8] = field(init=False)
    actions: npt.NDArray[np.int16] = field(init=False)
    probs: npt.NDArray[np.float16] = field(init=False)
    results: npt.NDArray[np.float32] = field(init=False)

    def __post_init__(self) -> None:
        self.planes = np.zeros((self.capacity, learning.NUM_PLANES, *learning.BOARD_SHAPE), np.uint8)
        self.masks = np.zeros((self.capacity, MASK_BYTES), np.uint8)
        self.actions = np.full((self.capacity, self.width), -1, np.int16)
        self.probs = np.zeros((self.capacity, self.width), np.float16)
        self.results = np.zeros(self.capacity, np.float32)

    def add(self, planes: bytes, mask: bytes, policy: npt.NDArray[np.float32], result: float) -> None:
        i = self.next
        self.planes[i] = np.frombuffer(planes, np.uint8).reshape(self.planes.shape[1:])
        self.masks[i] = np.packbits(np.frombuffer(mask, np.uint8).astype(bool))
        top = np.flatnonzero(policy > 0)
        if len(top) > self.width:
            top = top[np.argsort(-policy[top], kind="stable")[: self.width]]
        p = policy[top] / policy[top].sum()
        self.actions[i] = -1
        self.probs[i] = 0
        self.actions[i, : len(top)] = top
        self.probs[i, : len(top)] = p
        self.results[i] = result
        self.next = (i + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def state(self) -> dict[str, Any]:
        n = self.size
        order = np.arange(self.next - n, self.next) % self.capacity  # oldest first
        return {
            "capacity": self.capacity,
            "width": self.width,
            "planes": self.planes[order],
            "masks": self.masks[order],
            "actions": self.actions[order],
            "probs": self.probs[order],
            "results": self.results[order],
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Replay:
        replay = cls(int(state["capacity"]), int(state["width"]))
        n = len(state["results"])
        for name in ("planes", "masks", "actions", "probs", "results"):
            getattr(replay, name)[:n] = state[name]
        replay.size = n
        replay.next = n % replay.capacity
        return replay


@dataclass
class Pending:
    """A game under way: its decisions so far (planes, mask, policy, the player to act)."""

    rows: list[tuple[bytes, bytes, npt.NDArray[np.float32], bool]] = field(default_factory=list)


def self_play(
    search: Search,
    games: list[Pending],
    evaluate: Any,
    replay: Replay,
    args: argparse.Namespace,
) -> dict[str, float]:
    """``args.moves`` decisions at every root of ``search``; finished games go into ``replay``."""
    finished = decisive = plies = 0
    for _ in range(args.moves):
        # Search.run samples with one temperature for all roots: the roots early in their games
        # take the sampled action, the others the most visited.
        greedy = search.run(evaluate, args.sims)
        sampled = search.results(temperature=1.0)
        actions: list[int | None] = []
        for i, game in enumerate(games):
            result = sampled[i] if len(game.rows) < args.temperature_plies else greedy[i]
            state = search.game(i)
            game.rows.append(
                (
                    bytes(state.observation(side_to_move=True)),
                    bytes(state.action_mask(side_to_move=True)),
                    result.policy.copy(),
                    state.turn,
                )
            )
            actions.append(result.best_action)
        search.advance(actions)
        for i, game in enumerate(games):
            if not search.is_over(i):
                continue
            winner = search.game(i).winner
            for planes, mask, policy, turn in game.rows:
                z = 0.0 if winner is None else (1.0 if winner == turn else -1.0)
                replay.add(planes, mask, policy, z)
            finished += 1
            decisive += winner is not None
            plies += len(game.rows)
            games[i] = Pending()
            search.reset(i, congo.Board(), max_plies=args.max_plies)
    return {"games": finished, "decisive": decisive, "plies": plies}


def train(
    model: torch.nn.Module, optimiser: Any, replay: Replay, args: argparse.Namespace, rng: np.random.Generator
) -> dict[str, float]:
    """``args.train_steps`` steps; the mean policy and value losses."""
    torch = _torch()
    model.train()
    policy_total = value_total = 0.0
    for _ in range(args.train_steps):
        idx = rng.integers(0, replay.size, args.batch)
        x = torch.from_numpy(replay.planes[idx].reshape(len(idx), -1).astype(np.float32))
        legal = np.unpackbits(replay.masks[idx], axis=1, count=learning.NUM_ACTIONS).astype(bool)
        target = np.zeros((len(idx), learning.NUM_ACTIONS), np.float32)
        actions = replay.actions[idx].astype(np.int64)
        rows = np.repeat(np.arange(len(idx)), actions.shape[1]).reshape(actions.shape)
        keep = actions >= 0
        target[rows[keep], actions[keep]] = replay.probs[idx][keep]
        logits, value = model(x)
        logits = logits.masked_fill(torch.from_numpy(~legal), -1e9)
        policy_loss = -(torch.from_numpy(target) * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
        value_loss = torch.nn.functional.mse_loss(torch.tanh(value), torch.from_numpy(replay.results[idx]))
        optimiser.zero_grad()
        (policy_loss + value_loss).backward()
        optimiser.step()
        policy_total += policy_loss.item()
        value_total += value_loss.item()
    model.eval()
    steps = max(args.train_steps, 1)
    return {"policy_loss": policy_total / steps, "value_loss": value_total / steps}


def evaluator(model: torch.nn.Module) -> Any:
    """``evaluate(planes, masks)`` for :class:`Search`: the model without gradients, priors the
    softmax over the legal actions."""
    torch = _torch()

    def evaluate(
        planes: npt.NDArray[np.uint8], masks: npt.NDArray[np.bool_]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        with torch.no_grad():
            x = torch.from_numpy(planes.reshape(len(planes), -1).astype(np.float32))
            logits, value = model(x)
            logits = logits.masked_fill(torch.from_numpy(~masks), -1e9)
            priors = torch.softmax(logits, dim=1).numpy()
            return priors, torch.tanh(value).numpy()

    return evaluate


def save_checkpoint(
    path: Path,
    model: torch.nn.Module,
    optimiser: Any,
    replay: Replay,
    rng: np.random.Generator,
    args: argparse.Namespace,
    iteration: int,
    elapsed: float,
    log: list[dict[str, Any]],
    totals: dict[str, int],
) -> None:
    """Everything a resumed run needs, written whole or not at all."""
    torch = _torch()
    state = {
        "hidden": args.hidden,
        "seed": args.seed,
        "model": model.state_dict(),
        "optimiser": optimiser.state_dict(),
        "replay": replay.state(),
        "numpy_rng": rng.bit_generator.state,
        "torch_rng": torch.get_rng_state(),
        "iteration": iteration,
        "elapsed": elapsed,
        "log": log,
        "totals": totals,
    }
    with atomic_output(path, "wb") as file:
        torch.save(state, file)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, required=True, help="the run's directory (resumed if it has one)")
    parser.add_argument("--hours", type=float, default=2.0, help="time budget, summed over resumed runs")
    parser.add_argument("--iterations", type=int, default=None, help="stop after this many iterations")
    parser.add_argument("--hidden", default="256,256", help="the MLP's hidden layer sizes")
    parser.add_argument("--games", type=int, default=32, help="games played at once")
    parser.add_argument("--moves", type=int, default=16, help="decisions of every game per iteration")
    parser.add_argument("--sims", type=int, default=64, help="simulations per decision in self-play")
    parser.add_argument("--c-puct", type=float, default=1.25)
    parser.add_argument("--dirichlet-alpha", type=float, default=0.3)
    parser.add_argument("--dirichlet-fraction", type=float, default=0.25)
    parser.add_argument("--temperature-plies", type=int, default=12, help="sampled decisions a game")
    parser.add_argument("--max-plies", type=int, default=200, help="a game longer than this is a draw")
    parser.add_argument("--buffer", type=int, default=50_000, help="replay buffer positions")
    parser.add_argument(
        "--policy-width", type=int, default=48, help="actions kept of each visit distribution"
    )
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--train-steps", type=int, default=16, help="training steps per iteration")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--weight-decay", type=float, default=1e-4)
    parser.add_argument("--snapshot-every", type=int, default=0, help="keep network-NNNN.npz (0: never)")
    parser.add_argument(
        "--checkpoint-minutes", type=float, default=5.0, help="checkpoint and export at least this often"
    )
    parser.add_argument("--threads", type=int, default=1, help="PyTorch's threads")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        args.hidden = [int(size) for size in args.hidden.split(",")]
    except ValueError:
        parser.error(f"--hidden must be sizes separated by commas, got {args.hidden!r}")
    for name in ("games", "moves", "sims", "buffer", "policy_width", "batch"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if min(args.hidden, default=0) < 1:
        parser.error("--hidden needs at least one layer, each of at least one unit")
    if not (args.hours > 0 and math.isfinite(args.hours)):
        parser.error("--hours must be a positive number")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    torch = _torch()
    torch.set_num_threads(args.threads)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    checkpoint_path, log_path, network_path = out / "checkpoint.pt", out / "log.jsonl", out / "network.npz"
    check_outputs([checkpoint_path, log_path, network_path])

    if checkpoint_path.exists():
        saved = torch.load(checkpoint_path, weights_only=False)
        args.hidden, args.seed = saved["hidden"], saved["seed"]
        model = make_model(args.hidden)
        model.load_state_dict(saved["model"])
        optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
        optimiser.load_state_dict(saved["optimiser"])
        replay = Replay.from_state(saved["replay"])
        rng = np.random.default_rng()
        rng.bit_generator.state = saved["numpy_rng"]
        torch.set_rng_state(saved["torch_rng"])
        iteration, elapsed, log = saved["iteration"], saved["elapsed"], saved["log"]
        totals = saved["totals"]
        print(f"resumed {out} at iteration {iteration} ({elapsed / 3600:.2f} h, {replay.size} positions)")
    else:
        torch.manual_seed(args.seed)
        model = make_model(args.hidden)
        optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
        replay = Replay(args.buffer, args.policy_width)
        rng = np.random.default_rng(args.seed)
        iteration, elapsed, log = 0, 0.0, []
        totals = {"games": 0, "decisive": 0, "positions": 0, "train_steps": 0}
    model.eval()
    evaluate = evaluator(model)
    search = Search(
        [congo.Board()] * args.games,
        c_puct=args.c_puct,
        dirichlet_alpha=args.dirichlet_alpha,
        dirichlet_fraction=args.dirichlet_fraction,
        max_plies=args.max_plies,
        seed=(args.seed * 1_000_003 + iteration) % 2**64,
    )
    games = [Pending() for _ in range(args.games)]
    budget = args.hours * 3600
    last_checkpoint = time.perf_counter()
    while elapsed < budget and (args.iterations is None or iteration < args.iterations):
        started = time.perf_counter()
        played = self_play(search, games, evaluate, replay, args)
        play_time = time.perf_counter() - started
        losses = {"policy_loss": float("nan"), "value_loss": float("nan")}
        train_started = time.perf_counter()
        if replay.size >= args.batch:
            losses = train(model, optimiser, replay, args, rng)
            totals["train_steps"] += args.train_steps
        train_time = time.perf_counter() - train_started
        iteration += 1
        finished = time.perf_counter()
        elapsed += finished - started
        totals["games"] += played["games"]
        totals["decisive"] += played["decisive"]
        totals["positions"] += played["plies"]
        decisions = args.moves * args.games
        record = {
            "iteration": iteration,
            "games": totals["games"],
            "positions": totals["positions"],
            "train_steps": totals["train_steps"],
            "new_games": played["games"],
            "decisive": played["decisive"],
            "mean_plies": played["plies"] / played["games"] if played["games"] else None,
            "policy_loss": None if math.isnan(losses["policy_loss"]) else round(losses["policy_loss"], 4),
            "value_loss": None if math.isnan(losses["value_loss"]) else round(losses["value_loss"], 4),
            "decisions_per_s": round(decisions / play_time, 1),
            "train_steps_per_s": round(args.train_steps / train_time, 1)
            if replay.size >= args.batch
            else None,
            "elapsed_s": round(elapsed, 1),
        }
        log.append(record)
        if args.snapshot_every and iteration % args.snapshot_every == 0:
            write_network(export(model), out / f"network-{iteration:04d}.npz")
        done = elapsed + time.perf_counter() - finished >= budget or iteration == args.iterations
        if done or time.perf_counter() - last_checkpoint >= args.checkpoint_minutes * 60:
            write_network(export(model), network_path)
            save_checkpoint(
                checkpoint_path, model, optimiser, replay, rng, args, iteration, elapsed, log, totals
            )
            last_checkpoint = time.perf_counter()
        with atomic_output(log_path) as file:
            file.writelines(json.dumps(line) + "\n" for line in log)
        elapsed += time.perf_counter() - finished
        print(json.dumps(record), flush=True)
    print(f"{out}: {iteration} iterations, {totals['games']} games, {totals['positions']} positions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
