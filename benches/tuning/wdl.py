"""Fits the engine's win/draw/loss model on self-play outcomes: one command, data to constants.

    nice -n 19 python benches/tuning/wdl.py --games 20000 --nodes 300

1. **Data.** ``--games`` self-play games (``congo.selfplay``, ``--nodes`` per move, six random
   opening plies). Every searched position gives one record: the search's score in centipawns from
   the side to move's view, the ply (moves played before it: the phase feature, as python-chess's
   ``wdl(ply=...)``), and the game's result for the side to move (win, draw, loss). Positions where
   the search found a forced result are left out: mates map to 1000/0/0 or 0/0/1000 without a model.
   No tablebase labels: the model describes what the engine's own score means in its own games.
2. **Model.** Stockfish's shape: ``win = 1 / (1 + exp((a - cp) / b))``,
   ``loss = 1 / (1 + exp((a + cp) / b))``, ``draw = 1 - win - loss``, with ``a`` and ``b``
   quadratic in ``m = min(ply, PLY_CAP) / 100``. Symmetric by construction; ``a > 0`` keeps the
   draw share positive.
3. **Fit.** Maximum likelihood of the observed outcomes (damped Newton steps on the six
   parameters) on the training games; games whose index ends in 0 or 5 are held out.
4. **Calibration.** On the held-out games, per decile of predicted win probability (0–10 %, …,
   90–100 %): the count, the predicted and observed expected score and W/D/L. Written to
   ``--report`` with the constants to paste into ``rust/congo-core/src/search/wdl.rs``.
"""

from __future__ import annotations

import argparse
import datetime
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]

PLY_CAP = 240
CP_CAP = 4000


def collect(games: int, nodes: int, seed: int, budget: float) -> dict[str, np.ndarray]:
    from congo.selfplay import SelfPlayConfig, play_games

    config = SelfPlayConfig(nodes=nodes)
    cp: list[int] = []
    ply: list[int] = []
    outcome: list[int] = []
    game: list[int] = []
    men: list[int] = []
    started = time.monotonic()
    for index, rows in enumerate(play_games(games, config, seed=seed)):
        for score_cp, score_mate, row_ply, value, fen in zip(
            rows["score_cp"], rows["score_mate"], rows["ply"], rows["value"], rows["fen"], strict=True
        ):
            if score_mate != 0:
                continue
            cp.append(score_cp)
            ply.append(row_ply)
            outcome.append(value)
            game.append(index)
            men.append(sum(c.isalpha() for c in fen.split()[0]))
        if time.monotonic() - started > budget:
            print(f"  time budget spent: stopping after {index + 1} games", flush=True)
            break
        if (index + 1) % 250 == 0:
            print(f"  {index + 1} games, {len(cp)} positions, {time.monotonic() - started:.0f} s", flush=True)
    return {
        "cp": np.clip(np.array(cp, dtype=np.float64), -CP_CAP, CP_CAP),
        "m": np.minimum(np.array(ply, dtype=np.float64), PLY_CAP) / 100.0,
        "outcome": np.array(outcome, dtype=np.int64),
        "game": np.array(game, dtype=np.int64),
        "men": np.array(men, dtype=np.int64),
    }


def predict(params: np.ndarray, cp: np.ndarray, m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = params[0] + params[1] * m + params[2] * m * m
    b = params[3] + params[4] * m + params[5] * m * m
    win = 1.0 / (1.0 + np.exp(np.clip((a - cp) / b, -50, 50)))
    loss = 1.0 / (1.0 + np.exp(np.clip((a + cp) / b, -50, 50)))
    return win, 1.0 - win - loss, loss


def nll(params: np.ndarray, data: dict[str, np.ndarray]) -> float:
    m = data["m"]
    a = params[0] + params[1] * m + params[2] * m * m
    b = params[3] + params[4] * m + params[5] * m * m
    if np.any(a <= 0) or np.any(b <= 0):
        return float("inf")
    win, draw, loss = predict(params, data["cp"], m)
    prob = np.where(data["outcome"] > 0, win, np.where(data["outcome"] < 0, loss, draw))
    return float(-np.mean(np.log(np.maximum(prob, 1e-12))))


def fit(data: dict[str, np.ndarray], start: np.ndarray) -> np.ndarray:
    """Damped Newton on the mean negative log-likelihood, derivatives by central differences (six
    parameters: cheap), each step halved until the loss goes down."""
    params = start.copy()
    scale = np.ones(len(start))
    current = nll(params, data)
    for _ in range(60):
        n = len(params)
        grad = np.zeros(n)
        hess = np.zeros((n, n))
        h = 1e-3 * scale
        for i in range(n):
            e_i = np.zeros(n)
            e_i[i] = h[i]
            grad[i] = (nll(params + e_i, data) - nll(params - e_i, data)) / (2 * h[i])
            for j in range(i, n):
                e_j = np.zeros(n)
                e_j[j] = h[j]
                value = (
                    nll(params + e_i + e_j, data)
                    - nll(params + e_i - e_j, data)
                    - nll(params - e_i + e_j, data)
                    + nll(params - e_i - e_j, data)
                ) / (4 * h[i] * h[j])
                hess[i, j] = hess[j, i] = value
        try:
            step = -np.linalg.solve(hess + 1e-9 * np.eye(n), grad)
        except np.linalg.LinAlgError:
            step = -grad
        if grad @ step >= 0:  # not a descent direction: fall back to the gradient
            step = -grad * 100.0
        size = 1.0
        while size > 1e-6:
            candidate = params + size * step
            value = nll(candidate, data)
            if value < current:
                break
            size /= 2
        else:
            break
        improvement = current - value
        params, current = candidate, value
        if improvement < 1e-9:
            break
    return params


def calibration(params: np.ndarray, data: dict[str, np.ndarray]) -> tuple[list[str], float]:
    win, draw, loss = predict(params, data["cp"], data["m"])
    outcome = data["outcome"]
    lines = [
        "decile of P(win)  count   pred E  obs E   |err|   pred W/D/L (%)       obs W/D/L (%)",
    ]
    worst = 0.0
    for k in range(10):
        low, high = k / 10, (k + 1) / 10
        mask = (win >= low) & ((win < high) if k < 9 else (win <= high))
        count = int(mask.sum())
        if count == 0:
            lines.append(f"{low:4.0%}-{high:4.0%}       {count:6d}")
            continue
        pw, pd, pl = win[mask].mean(), draw[mask].mean(), loss[mask].mean()
        ow = float((outcome[mask] > 0).mean())
        od = float((outcome[mask] == 0).mean())
        ol = float((outcome[mask] < 0).mean())
        pe, oe = pw + pd / 2, ow + od / 2
        err = abs(pe - oe)
        worst = max(worst, err)
        lines.append(
            f"{low:4.0%}-{high:4.0%}       {count:6d}   {pe:6.1%} {oe:6.1%}  {err * 100:4.1f} pp  "
            f"{pw * 100:4.1f} {pd * 100:4.1f} {pl * 100:4.1f}       "
            f"{ow * 100:4.1f} {od * 100:4.1f} {ol * 100:4.1f}"
        )
    return lines, worst


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--nodes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=720.0,
        help="stop self-play after this many seconds, keeping the games played",
    )
    parser.add_argument("--report", type=Path, default=ROOT / "benches" / "results" / "wdl-calibration.txt")
    parser.add_argument("--cache", type=Path, help="an .npz of the records: read if it exists, else written")
    args = parser.parse_args(argv)

    started = time.monotonic()
    print(f"self-play: {args.games} games at {args.nodes} nodes a move", flush=True)
    if args.cache is not None and args.cache.exists():
        data = dict(np.load(args.cache))
    else:
        data = collect(args.games, args.nodes, args.seed, args.max_seconds)
        if args.cache is not None:
            np.savez(args.cache, cp=data["cp"], m=data["m"], outcome=data["outcome"], game=data["game"])
    played = time.monotonic() - started
    held = (data["game"] % 10 == 0) | (data["game"] % 10 == 5)
    train = {key: value[~held] for key, value in data.items()}
    test = {key: value[held] for key, value in data.items()}
    outcome = data["outcome"]
    played_games = int(data["game"].max()) + 1
    print(
        f"{len(outcome)} positions ({int(held.sum())} held out); "
        f"W/D/L {np.mean(outcome > 0):.3f}/{np.mean(outcome == 0):.3f}/{np.mean(outcome < 0):.3f}",
        flush=True,
    )

    start = np.array([100.0, 0.0, 0.0, 100.0, 0.0, 0.0])  # a flat start: the fit needs no guess
    params = fit(train, start)
    lines, worst = calibration(params, test)
    a_int = [round(float(v), 3) for v in params[:3]]
    b_int = [round(float(v), 3) for v in params[3:]]
    report = [
        "Win/draw/loss model fitted on self-play outcomes (benches/tuning/wdl.py)",
        f"command: nice -n 19 python benches/tuning/wdl.py --games {args.games} --nodes {args.nodes} "
        f"--seed {args.seed}",
        f"date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; "
        f"self-play {played:.0f} s, total {time.monotonic() - started:.0f} s",
        f"games: {played_games} of {args.games} asked (indices ending in 0 or 5 held out); "
        f"positions without a forced result: {len(outcome)} "
        f"({len(train['cp'])} train, {len(test['cp'])} held out)",
        f"overall W/D/L (side to move): {np.mean(outcome > 0):.3f} {np.mean(outcome == 0):.3f} "
        f"{np.mean(outcome < 0):.3f}",
        "model: win = 1/(1+exp((a-cp)/b)), loss = 1/(1+exp((a+cp)/b)), draw = 1-win-loss,",
        f"       a, b = c0 + c1*m + c2*m^2 with m = min(ply, {PLY_CAP})/100, cp clamped to +-{CP_CAP}",
        f"A = {a_int}",
        f"B = {b_int}",
        f"held-out mean log-loss: {nll(params, test):.4f} (start {nll(start, test):.4f})",
        "",
        "Calibration on held-out games (E = expected score, win + draw/2):",
        *lines,
        f"largest |predicted - observed| expected score over the deciles: {worst * 100:.1f} pp",
    ]
    text = "\n".join(report) + "\n"
    print(text)
    print("paste into rust/congo-core/src/search/wdl.rs:")
    print(f"const A: [f64; 3] = [{', '.join(repr(v) for v in a_int)}];")
    print(f"const B: [f64; 3] = [{', '.join(repr(v) for v in b_int)}];")
    args.report.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
