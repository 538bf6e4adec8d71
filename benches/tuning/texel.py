"""Texel tuning of the evaluation: one command from self-play to the weights file.

    nice -n 19 python benches/tuning/texel.py --games 1000 --nodes 500 --tb-positions 30000

1. **Data.** ``--games`` self-play games (``congo.selfplay``, ``--nodes`` per move, six random opening
   plies), every position after the opening labelled with the game's result for the side to move
   (1, ½, 0); positions with a forced mate found by the search are left out. Plus
   ``--tb-positions`` random positions of up to four men labelled exactly by the endgame tables
   (generated into ``--work`` if missing, about 10 s): win 1, draw ½, loss 0. Only quiet positions
   are kept (no capture or promotion for the side to move, its lion not attacked): the static
   evaluation is what the search trusts there. Games whose index ends in 0, and one tablebase
   position in ten, are held out.
2. **Features.** ``congo.tuning.eval_features``: the evaluation is exactly the dot product of a
   position's features with ``congo.tuning.eval_weights()`` (tested in the core), so the fit is of
   the hand-written evaluation the engine uses with ``nnue=0`` (the default evaluation is the
   network of ``nnue.py``, trained on the same data).
3. **Fit.** Logistic loss (cross-entropy of ``1 / (1 + 10^(-K·eval/400))`` against the label): ``K``
   first, with the current weights; then the weights by Adam, with an L2 pull toward the current
   weights (strength chosen on the held-out set from ``--l2``), then rounded to integers.
4. **Write-back.** ``rust/congo-core/src/search/weights.rs`` is rewritten (``--dry-run``: not);
   rebuild the engine to use them.

The held-out loss before and after is printed (and written to ``--report``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))

import weights_file  # noqa: E402

from congo import tuning  # noqa: E402
from congo.files import atomic_output, check_outputs, check_writable  # noqa: E402
from congo.selfplay import SelfPlayConfig, play_games  # noqa: E402

WEIGHTS_RS = ROOT / "rust/congo-core/src/search/weights.rs"
OPENING_PLIES = 6
MAX_PLIES = 300
CACHE_FORMAT = 1


def selfplay_run(
    games: int, nodes: int, seed: int, workers: int, minutes: float | None
) -> tuple[list[str], list[float], list[int], int]:
    """The labelled self-play positions and how many of the ``games`` were played (fewer when
    ``minutes`` ran out)."""
    fens: list[str] = []
    labels: list[float] = []
    groups: list[int] = []
    played = 0
    start = time.time()
    config = SelfPlayConfig(nodes=nodes, opening_plies=OPENING_PLIES, max_plies=MAX_PLIES)
    for n, rows in enumerate(play_games(games, config, seed=seed, workers=workers)):
        for fen, ply, mate, value, game in zip(
            rows["fen"], rows["ply"], rows["score_mate"], rows["value"], rows["game"], strict=True
        ):
            if ply < OPENING_PLIES or mate != 0:
                continue
            fens.append(fen)
            labels.append((value + 1) / 2)
            groups.append(game)
        played = n + 1
        if played % 50 == 0:
            print(f"  {played} games, {len(fens)} positions, {time.time() - start:.0f} s", file=sys.stderr)
        if minutes is not None and played < games and time.time() - start > 60 * minutes:
            print(f"  time budget reached after {played} games", file=sys.stderr)
            break
    return fens, labels, groups, played


def selfplay_data(
    games: int, nodes: int, seed: int, workers: int, minutes: float | None
) -> tuple[list[str], list[float], list[int]]:
    fens, labels, groups, _ = selfplay_run(games, nodes, seed, workers, minutes)
    return fens, labels, groups


def cache_meta(games: int, nodes: int, tb_positions: int, seed: int, played: int) -> dict[str, object]:
    """What a cache's data depends on, and whether the run that made it was complete: stored in the
    cache (``meta``) and checked when it is read."""
    return {
        "format": CACHE_FORMAT,
        "games": games,
        "played": played,
        "complete": played == games,
        "nodes": nodes,
        "tb_positions": tb_positions,
        "seed": seed,
        "opening_plies": OPENING_PLIES,
        "max_plies": MAX_PLIES,
    }


def cache_path(work: Path, meta: dict[str, object]) -> Path:
    """``data-gG-nN-tT-sS.npz`` for a complete run; a run cut short by ``--minutes`` is
    ``…-partialP.npz`` (P games played), never the complete run's name."""
    name = f"data-g{meta['games']}-n{meta['nodes']}-t{meta['tb_positions']}-s{meta['seed']}"
    if not meta["complete"]:
        name += f"-partial{meta['played']}"
    return work / f"{name}.npz"


def read_meta(data: Any) -> dict[str, Any] | None:
    """A cache's ``meta``, or ``None`` for a cache written before texel.py stored one."""
    if "meta" not in data.files:
        return None
    meta: dict[str, Any] = json.loads(str(data["meta"][()]))
    return meta


def cache_note(path: Path, data: Any, *, allow_partial: bool) -> str:
    """What a reader of a cache should say of it; raises ``SystemExit`` for a partial cache
    unless ``allow_partial``."""
    meta = read_meta(data)
    if meta is None:
        return " (no completeness record: written before texel.py kept one)"
    if not meta.get("complete", False):
        shown = f"{meta.get('played')} of {meta.get('games')} games"
        if not allow_partial:
            raise SystemExit(
                f"{path}: the data of a run cut short ({shown}); --allow-partial to use it anyway"
            )
        return f" (partial: {shown})"
    return ""


LETTERS = {
    "pawn": "p",
    "superpawn": "s",
    "monkey": "m",
    "giraffe": "g",
    "zebra": "z",
    "elephant": "e",
    "crocodile": "c",
}


def tablebase_data(count: int, directory: Path, seed: int) -> tuple[list[str], list[float]]:
    from congo.tablebase import Tablebase, generate

    if not directory.is_dir() or not any(directory.iterdir()):
        generate(directory=directory, men=4, threads=1)
    tb = Tablebase(directory)
    rng = random.Random(seed)
    pieces = list(LETTERS.values())
    fens: list[str] = []
    labels: list[float] = []
    while len(fens) < count:
        board = [["" for _ in range(7)] for _ in range(7)]  # board[rank][file], rank 0 = White's back rank
        board[rng.randrange(3)][rng.randrange(2, 5)] = "L"
        board[rng.randrange(4, 7)][rng.randrange(2, 5)] = "l"
        for _ in range(rng.choice((1, 2, 2))):
            while True:
                r, f = rng.randrange(7), rng.randrange(7)
                if not board[r][f]:
                    break
            letter = rng.choice(pieces)
            board[r][f] = letter.upper() if rng.random() < 0.5 else letter
        ranks = []
        for r in range(6, -1, -1):
            text, empty = "", 0
            for f in range(7):
                if board[r][f]:
                    text += (str(empty) if empty else "") + board[r][f]
                    empty = 0
                else:
                    empty += 1
            ranks.append(text + (str(empty) if empty else ""))
        fen = "/".join(ranks) + (" w 1" if rng.random() < 0.5 else " b 1")
        try:
            wdl = tb.probe_wdl(fen)
        except ValueError:
            continue
        if wdl is None:
            continue
        fens.append(fen)
        labels.append((wdl + 1) / 2)
    return fens, labels


def features(fens: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    width = len(tuning.eval_feature_names())
    xs, evals, quiet = [], [], []
    for i in range(0, len(fens), 20_000):
        out = tuning.eval_features(fens[i : i + 20_000])
        xs.append(np.frombuffer(out["features"], dtype="<i2").reshape(-1, width))
        evals.extend(out["eval"])
        quiet.extend(out["quiet"])
    return np.concatenate(xs), np.array(evals, dtype=np.int64), np.array(quiet, dtype=bool)


def cross_entropy(p: np.ndarray, y: np.ndarray) -> float:
    """The mean log loss of predicted scores ``p`` against results ``y``."""
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def expected_score(evals: np.ndarray, k: float) -> np.ndarray:
    """Texel's mapping of centipawns to an expected score: ``1 / (1 + 10^(-K·eval/400))``."""
    out: np.ndarray = 1.0 / (1.0 + np.power(10.0, -k * evals / 400.0))
    return out


def loss(x: np.ndarray, y: np.ndarray, w: np.ndarray, k: float) -> float:
    return cross_entropy(expected_score((x @ w.astype(x.dtype)).astype(np.float64), k), y)


def fit_scale(evals: np.ndarray, y: np.ndarray) -> float:
    """The ``K`` with which ``evals`` best predict the results ``y`` (golden-section search: the
    loss is unimodal in K)."""
    lo, hi = 0.05, 5.0
    for _ in range(60):
        a, b = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        if cross_entropy(expected_score(evals, a), y) < cross_entropy(expected_score(evals, b), y):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def fit_k(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    return fit_scale((x @ w.astype(x.dtype)).astype(np.float64), y)


def fit(
    x: np.ndarray, y: np.ndarray, w0: np.ndarray, free: np.ndarray, k: float, l2: float, steps: int
) -> np.ndarray:
    w = w0.astype(np.float64)
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    c = float(k * np.log(10.0) / 400.0)
    lr, b1, b2 = 1.0, 0.9, 0.999
    n = len(y)
    for t in range(1, steps + 1):
        p = 1.0 / (1.0 + np.exp(-c * (x @ w)))
        grad = c * (x.T @ (p - y)) / n + 2 * l2 * (w - w0)
        grad[~free] = 0.0
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad * grad
        w -= lr * (m / (1 - b1**t)) / (np.sqrt(v / (1 - b2**t)) + 1e-12)
        if t == steps // 2:
            lr = 0.3
    return w


def to_weights(w: np.ndarray, names: list[str]) -> dict[str, list[int] | int]:
    index = {name: i for i, name in enumerate(names)}
    roles = weights_file.ROLES

    def group(prefix: str, keys: list[str]) -> list[int]:
        return [int(w[index[f"{prefix}.{key}"]]) for key in keys]

    return {
        "material": group("material", list(roles)),
        "pst": [int(w[index[f"pst.{r}.{i}"]]) for r in roles for i in range(28)],
        "pawn_advance": group("pawn_advance", [str(i) for i in range(7)]),
        "mobility": group("mobility", list(roles)),
        "lion_attack": int(w[index["lion_attack"]]),
        "drown_mover": group("drown_mover", list(roles)),
        "drown_other": group("drown_other", list(roles)),
        "lion_line": int(w[index["lion_line"]]),
        "threat": group("threat", list(roles)),
        "threat_lower": group("threat_lower", list(roles)),
        "tempo": int(w[index["tempo"]]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--nodes", type=int, default=500)
    parser.add_argument("--tb-positions", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=None, help="stop self-play after this long")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--l2", default="1e-7,1e-6,1e-5", help="L2 strengths to try (per cp², per position)")
    parser.add_argument(
        "--tablebases", type=Path, default=None, help="up to four men (default: WORK/tablebases)"
    )
    parser.add_argument("--work", type=Path, default=ROOT / "build/tuning", help="data cache")
    parser.add_argument("--report", type=Path, default=None, help="also write the report here")
    parser.add_argument("--dry-run", action="store_true", help="do not rewrite weights.rs")
    args = parser.parse_args(argv)
    tablebases = args.tablebases or args.work / "tablebases"
    complete = cache_meta(args.games, args.nodes, args.tb_positions, args.seed, args.games)
    cache = cache_path(args.work, complete)
    # Every file this run writes is checked before the self-play: the cache (written only if it
    # is not there yet, else it is an input), weights.rs, --report, and the tables' directory if
    # the tables are to be made; none may be an input or another output.
    try:
        args.work.mkdir(parents=True, exist_ok=True)
        inputs = [cache] if cache.exists() else []
        if tablebases.is_dir():
            inputs += sorted(tablebases.iterdir())
        if not cache.exists() and (not tablebases.is_dir() or not any(tablebases.iterdir())):
            tablebases.mkdir(parents=True, exist_ok=True)
            check_writable(tablebases / "LvL.ctb.check")
        outputs = [] if cache.exists() else [cache]
        outputs += [] if args.dry_run else [WEIGHTS_RS]
        outputs += [args.report] if args.report else []
        check_outputs(outputs, inputs=inputs)
    except (OSError, ValueError) as error:
        parser.error(str(error))
    lines: list[str] = []

    def say(text: str) -> None:
        print(text)
        lines.append(text)

    started = time.time()
    written: list[Path] = []
    if cache.exists():
        data = np.load(cache)
        meta = read_meta(data)
        if meta is not None and meta != complete:
            differ = ", ".join(f"{key} {meta.get(key)}" for key in complete if meta.get(key) != complete[key])
            raise SystemExit(f"{cache}: made by another run ({differ}): remove it to make it again")
        played = args.games
        fens_sp, y_sp, g_sp = list(data["fens_sp"]), data["y_sp"], data["g_sp"]
        fens_tb, y_tb = list(data["fens_tb"]), data["y_tb"]
        say(f"data: cached {cache}{cache_note(cache, data, allow_partial=False)}")
    else:
        t = time.time()
        fens_sp, ysp, gsp, played = selfplay_run(
            args.games, args.nodes, args.seed, args.workers, args.minutes
        )
        y_sp, g_sp = np.array(ysp), np.array(gsp)
        elapsed = time.time() - t
        say(f"self-play: {played} games at {args.nodes} nodes, {len(fens_sp)} positions, {elapsed:.0f} s")
        t = time.time()
        fens_tb, ytb = tablebase_data(args.tb_positions, tablebases, args.seed)
        y_tb = np.array(ytb)
        say(f"tablebases: {len(fens_tb)} positions of up to four men, {time.time() - t:.0f} s")
        meta = cache_meta(args.games, args.nodes, args.tb_positions, args.seed, played)
        # A run cut short is kept under its own name: never read as the complete run's data.
        target = cache_path(args.work, meta)
        with atomic_output(target, "wb") as out:
            np.savez_compressed(
                out,
                fens_sp=np.array(fens_sp),
                y_sp=y_sp,
                g_sp=g_sp,
                fens_tb=np.array(fens_tb),
                y_tb=y_tb,
                meta=np.array(json.dumps(meta)),
            )
        written.append(target)
        if not meta["complete"]:
            say(f"data: cut short by --minutes ({played} of {args.games} games), kept as {target}")

    names = list(tuning.eval_feature_names())
    w0 = np.array(tuning.eval_weights(), dtype=np.float64)
    x_sp, e_sp, q_sp = features([str(f) for f in fens_sp])
    x_tb, _, q_tb = features([str(f) for f in fens_tb])
    assert np.array_equal(x_sp.astype(np.int64) @ w0.astype(np.int64), e_sp), "eval != features . weights"
    held_tb = np.random.default_rng(args.seed).random(len(y_tb)) < 0.1
    held_sp = g_sp % 10 == 0
    x = np.concatenate([x_sp, x_tb]).astype(np.float64)
    y = np.concatenate([y_sp, y_tb])
    quiet = np.concatenate([q_sp, q_tb])
    held = np.concatenate([held_sp, held_tb])
    source = np.concatenate([np.zeros(len(y_sp), bool), np.ones(len(y_tb), bool)])
    train, test = quiet & ~held, quiet & held
    say(
        f"quiet positions: {int(train.sum())} to fit ({int((train & ~source).sum())} self-play, "
        f"{int((train & source).sum())} tablebase), {int(test.sum())} held out "
        f"({int((test & ~source).sum())} self-play, {int((test & source).sum())} tablebase)"
    )
    free = np.abs(x[train]).sum(axis=0) > 0
    free[names.index("material.lion")] = False
    say(f"features: {len(names)}, {int(free.sum())} seen in the data and fitted")
    k = fit_k(x[train], y[train], w0)
    before = loss(x[test], y[test], w0, k)
    fit_before = loss(x[train], y[train], w0, k)
    say(f"K = {k:.3f}; held-out loss with the current weights: {before:.5f} (fit set {fit_before:.5f})")
    best: tuple[float, float, np.ndarray] | None = None
    for l2 in (float(s) for s in args.l2.split(",")):
        w = np.round(fit(x[train], y[train], w0, free, k, l2, args.steps))
        held_loss = loss(x[test], y[test], w, k)
        say(f"  l2 {l2:g}: held-out loss {held_loss:.5f} (fit set {loss(x[train], y[train], w, k):.5f})")
        if best is None or held_loss < best[0]:
            best = (held_loss, l2, w)
    assert best is not None
    after, l2, w = best
    for part, mask in (("self-play", ~source), ("tablebase", source)):
        old, new = loss(x[test & mask], y[test & mask], w0, k), loss(x[test & mask], y[test & mask], w, k)
        say(f"  held-out {part}: {old:.5f} -> {new:.5f}")
    elapsed = time.time() - started
    say(f"held-out loss {before:.5f} -> {after:.5f} (l2 {l2:g}, weights rounded); {elapsed:.0f} s in all")
    tuned = to_weights(w, names)
    material = tuned["material"]
    shown = material[:7] if isinstance(material, list) else material
    say(f"material: {shown} (was {[int(v) for v in w0[:7]]})")
    say(f"mobility: {tuned['mobility']}, lion_attack {tuned['lion_attack']}")
    say(f"lion_line {tuned['lion_line']}, tempo {tuned['tempo']}")
    say(f"pawn_advance: {tuned['pawn_advance']}")
    if not args.dry_run:
        source_line = (
            f"Fitted: {played} self-play games at {args.nodes} nodes a move (seed {args.seed}) and "
            f"{args.tb_positions} tablebase positions; held-out loss {before:.5f} -> {after:.5f}."
        )
        with atomic_output(WEIGHTS_RS) as out:
            out.write(weights_file.render(tuned, source_line))
        say(f"wrote {WEIGHTS_RS.relative_to(ROOT)}")
    if args.report:
        with atomic_output(args.report, inputs=written) as out:
            out.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
