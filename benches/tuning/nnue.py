"""Trains the learned evaluation (``nnue=1``): one command from the Texel data to the network file.

    nice -n 19 python benches/tuning/nnue.py                       # the Texel caches of rounds 2-4
    nice -n 19 python benches/tuning/nnue.py --data A.npz,B.npz --hidden 64 --epochs 12 --lam 0.25

**Data.** The caches ``benches/tuning/texel.py`` writes (``build/tuning/data-*.npz``: self-play
positions labelled with the game's result for the side to move, and tablebase positions labelled
exactly). A cache of a run cut short (``texel.py --minutes``, named ``…-partialN.npz``) is refused
unless ``--allow-partial``. Only quiet positions are kept, as for Texel. Held out: self-play games
whose index ends in 0 and one tablebase position in ten, of every file, so that the held-out loss
of the network and of the hand-written evaluation (fitted on the same files' other positions)
compare fairly.

**Network** (``rust/congo-core/src/search/nnue.rs`` evaluates it): 784 inputs per perspective —
(own or the opponent's piece) × 8 roles × 49 squares, the board turned around (ranks flipped,
colours swapped) for Black's perspective — into one shared layer of ``--hidden`` units, kept as an
accumulator per perspective; the two, clipped to [0, 1], side to move first, into one output.
The output ``z`` is a logit: the expected score of the side to move is ``1 / (1 + e^(-z))``, and
the engine reads it as ``z / c`` centipawns with ``c = K·ln 10 / 400``, the Texel scale (``K``
fitted to the hand-written evaluation), so that the search's margins keep their meaning.

**Target.** ``λ·sigmoid(c·eval) + (1 - λ)·result`` for self-play positions (``eval``: the hand-written
evaluation, ``--lam``), the exact result for tablebase positions; cross-entropy, Adam.

**Write-back.** Quantised (first layer ×64 in i16, output ×64 in i16, i32 sums, as the engine
computes) into ``rust/congo-core/src/search/nnue.bin`` (``--dry-run``: not). Printed, and written to
``--report``: the held-out loss against the game results of the hand-written evaluation and of the
network, float and quantised.
"""

from __future__ import annotations

import argparse
import math
import struct
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
NNUE_BIN = ROOT / "rust/congo-core/src/search/nnue.bin"
DEFAULT_DATA = ",".join(
    str(ROOT / "build/tuning" / name)
    for name in (
        "data-g5000-n500-t60000-s2.npz",
        "data-g8000-n500-t80000-s3.npz",
        "data-g12000-n500-t100000-s4.npz",
    )
)

from congo import MAX_PIECES_PER_COLOR, tuning  # noqa: E402
from congo.files import atomic_output, check_outputs  # noqa: E402
from congo.learning import encode  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import texel  # noqa: E402
from texel import cross_entropy, fit_scale  # noqa: E402

SQUARES = 49
ROLES = 8
INPUTS = 2 * ROLES * SQUARES
QA = 64  # first layer scale: weights and biases are i16 multiples of 1/64, clipped at QA
QB = 64  # output layer scale
MAGIC = b"CONGONET"


def perspectives(fens: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Inputs of the side to move and of its opponent, ``(N, 784)`` uint8 each, and the hand-written
    evaluation and quietness from the core (``eval``, ``quiet``)."""
    stm_rows, opp_rows, evals, quiet = [], [], [], []
    for i in range(0, len(fens), 50_000):
        chunk = fens[i : i + 50_000]
        planes = encode(chunk)[:, : 2 * ROLES]  # (n, 16, 7, 7): white roles, black roles; row 0 = rank 1
        white = planes.reshape(len(chunk), INPUTS)
        # Black's view: its own pieces first, the board turned around (rank 1 becomes rank 7).
        black = np.concatenate([planes[:, ROLES:], planes[:, :ROLES]], axis=1)[:, :, ::-1, :]
        black = np.ascontiguousarray(black).reshape(len(chunk), INPUTS)
        white_to_move = np.array([fen.split()[1] == "w" for fen in chunk])
        stm_rows.append(np.where(white_to_move[:, None], white, black))
        opp_rows.append(np.where(white_to_move[:, None], black, white))
        out = tuning.eval_features(chunk)
        evals.extend(out["eval"])
        quiet.extend(out["quiet"])
    return (
        np.concatenate(stm_rows),
        np.concatenate(opp_rows),
        np.column_stack([np.array(evals, dtype=np.float64), np.array(quiet, dtype=np.float64)]),
    )


def sigmoid(z: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1.0 / (1.0 + np.exp(-z))
    return out


class Network:
    """The float network: ``W1 (784, H)``, ``b1 (H,)``, ``w2 (2H,)``, ``b2``."""

    def __init__(self, hidden: int, rng: np.random.Generator) -> None:
        self.w1 = rng.normal(0.0, 0.05, (INPUTS, hidden)).astype(np.float32)
        self.b1 = np.full(hidden, 0.25, dtype=np.float32)
        self.w2 = rng.normal(0.0, 0.1, 2 * hidden).astype(np.float32)
        self.b2 = np.zeros(1, dtype=np.float32)

    def params(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.w2, self.b2]

    def forward(self, stm: np.ndarray, opp: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
        a_stm = stm @ self.w1 + self.b1
        a_opp = opp @ self.w1 + self.b1
        h = np.concatenate([np.clip(a_stm, 0, 1), np.clip(a_opp, 0, 1)], axis=1)
        z = h @ self.w2 + self.b2[0]
        return z, (a_stm, a_opp, h)

    def gradients(
        self, stm: np.ndarray, opp: np.ndarray, dz: np.ndarray, cache: tuple[np.ndarray, ...]
    ) -> list[np.ndarray]:
        a_stm, a_opp, h = cache
        hidden = self.w1.shape[1]
        g_w2 = h.T @ dz
        g_b2 = np.array([dz.sum()], dtype=np.float32)
        dh = dz[:, None] * self.w2[None, :]
        d_stm = dh[:, :hidden] * ((a_stm > 0) & (a_stm < 1))
        d_opp = dh[:, hidden:] * ((a_opp > 0) & (a_opp < 1))
        g_w1 = stm.T @ d_stm + opp.T @ d_opp
        g_b1 = d_stm.sum(axis=0) + d_opp.sum(axis=0)
        return [g_w1, g_b1, g_w2, g_b2]

    def quantised(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        w1 = np.clip(np.round(self.w1 * QA), -32767, 32767).astype(np.int16)
        b1 = np.clip(np.round(self.b1 * QA), -32767, 32767).astype(np.int16)
        w2 = np.clip(np.round(self.w2 * QB), -32767, 32767).astype(np.int16)
        b2 = round(float(self.b2[0]) * QA * QB)
        return w1, b1, w2, b2


def quantised_logits(net: Network, stm: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """The output as the engine computes it (integer sums), as a logit."""
    w1, b1, w2, b2 = net.quantised()
    hidden = w1.shape[1]
    out = np.empty(len(stm), dtype=np.float64)
    for i in range(0, len(stm), 65_536):
        a_stm = stm[i : i + 65_536].astype(np.int32) @ w1.astype(np.int32) + b1
        a_opp = opp[i : i + 65_536].astype(np.int32) @ w1.astype(np.int32) + b1
        h = np.concatenate([np.clip(a_stm, 0, QA), np.clip(a_opp, 0, QA)], axis=1)
        total = h.astype(np.int64) @ w2.astype(np.int64)[: 2 * hidden] + b2
        out[i : i + 65_536] = total / (QA * QB)
    return out


def train(
    net: Network,
    stm: np.ndarray,
    opp: np.ndarray,
    target: np.ndarray,
    epochs: int,
    batch: int,
    lr: float,
    rng: np.random.Generator,
    say: Callable[[str], None],
) -> None:
    params = net.params()
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    b1_, b2_, t = 0.9, 0.999, 0
    n = len(target)
    for epoch in range(epochs):
        order = rng.permutation(n)
        total = 0.0
        rate = lr * (0.3 if epoch >= epochs * 2 // 3 else 1.0)
        for start in range(0, n, batch):
            idx = np.sort(order[start : start + batch])
            xs = stm[idx].astype(np.float32)
            xo = opp[idx].astype(np.float32)
            y = target[idx]
            z, cache = net.forward(xs, xo)
            p = sigmoid(z.astype(np.float64))
            total += cross_entropy(p, y) * len(idx)
            dz = ((p - y) / len(idx)).astype(np.float32)
            grads = net.gradients(xs, xo, dz, cache)
            t += 1
            for param, grad, mi, vi in zip(params, grads, m, v, strict=True):
                mi *= b1_
                mi += (1 - b1_) * grad
                vi *= b2_
                vi += (1 - b2_) * grad * grad
                param -= (rate * (mi / (1 - b1_**t)) / (np.sqrt(vi / (1 - b2_**t)) + 1e-8)).astype(
                    param.dtype
                )
        say(f"  epoch {epoch + 1}/{epochs}: training loss {total / n:.5f}")


MAX_MEN = 2 * MAX_PIECES_PER_COLOR  # men on a board at most: the inputs a perspective can have at once


def check_accumulator_range(w1: np.ndarray, b1: np.ndarray) -> None:
    """Raises ``ValueError`` if an accumulator (``b1`` plus at most 28 columns of ``w1``) could leave
    the ``i16`` range the engine keeps it in (the engine refuses such a file)."""
    largest = -np.sort(-np.abs(w1.astype(np.int64)), axis=0)[:MAX_MEN].sum(axis=0)
    bound = np.abs(b1.astype(np.int64)) + largest
    if bound.max() > 32767:
        unit = int(bound.argmax())
        raise ValueError(f"hidden unit {unit} could reach {int(bound[unit])}, beyond an i16 accumulator")


# The network file (``docs/engine.md``, "Network files"): a 64-byte header, then the payload.
HEADER_BYTES = 64
FORMAT_VERSION = 1
MAX_LAYERS = 4
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
HEADER = struct.Struct("<8sIIII4IiiQ")  # everything before the checksum (56 bytes)


def fnv1a64(data: bytes) -> int:
    """FNV-1a, 64 bits: the checksum ``nnue.rs`` verifies (over the header's first 56 bytes, then
    the payload)."""
    h = FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


def pack_network(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: int, scale_q16: int) -> bytes:
    """The bytes of a network file: header (magic, version, header size, inputs, layers, the
    activation and output scales, payload size, checksum), then W1 (784×H, input-major), b1, w2
    (2H) as i16 and b2 as i32, all little-endian."""
    hidden = w1.shape[1]
    payload = (
        w1.astype("<i2").tobytes() + b1.astype("<i2").tobytes() + w2.astype("<i2").tobytes()
    ) + struct.pack("<i", b2)
    layers = [hidden, 1] + [0] * (MAX_LAYERS - 2)
    head = HEADER.pack(MAGIC, FORMAT_VERSION, HEADER_BYTES, INPUTS, 2, *layers, QA, scale_q16, len(payload))
    # The checksum is Python-speed FNV over 100 kB: a fraction of a second, once per file.
    return head + struct.pack("<Q", fnv1a64(head + payload)) + payload


def write_network(path: Path, net: Network, k: float) -> None:
    """Writes the file ``nnue.rs`` reads (:func:`pack_network`), with the centipawns per output
    unit (×2^16) that ``k`` gives."""
    w1, b1, w2, b2 = net.quantised()
    check_accumulator_range(w1, b1)
    cp_per_logit = 400.0 / (k * math.log(10))
    scale_q16 = round(cp_per_logit / (QA * QB) * 65536)
    data = pack_network(w1, b1, w2, b2, scale_q16)
    with atomic_output(path, "wb") as out:  # the engine compiles this file in: never half of one
        out.write(data)


def read_network(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """A network file back as ``(w1, b1, w2, b2, scale_q16)``, the integers the engine reads
    (checked as the engine checks the header and checksum)."""
    data = path.read_bytes()
    if data[:8] != MAGIC:
        raise ValueError(f"{path}: not a network file (no {MAGIC.decode()} magic)")
    if len(data) < HEADER_BYTES:
        raise ValueError(f"{path}: the network file ends early, at byte {len(data)}")
    fields = HEADER.unpack_from(data)
    version, header_bytes, inputs, layer_count, hidden = fields[1:6]
    scale_q16, payload_bytes = fields[-2], fields[-1]
    if (version, header_bytes, inputs, layer_count) != (FORMAT_VERSION, HEADER_BYTES, INPUTS, 2):
        raise ValueError(f"{path}: not a version {FORMAT_VERSION} network of {INPUTS} inputs")
    (checksum,) = struct.unpack_from("<Q", data, HEADER.size)
    payload = data[HEADER_BYTES:]
    if len(payload) > payload_bytes:
        raise ValueError(f"{path}: {len(payload) - payload_bytes} bytes after the network")
    if len(payload) < payload_bytes:
        raise ValueError(f"{path}: the network file ends early, at byte {len(data)}")
    if fnv1a64(data[: HEADER.size] + payload) != checksum:
        raise ValueError(f"{path}: checksum mismatch: the file is damaged")
    at = HEADER_BYTES
    w1 = np.frombuffer(data, "<i2", INPUTS * hidden, at).reshape(INPUTS, hidden)
    at += w1.nbytes
    b1 = np.frombuffer(data, "<i2", hidden, at)
    at += b1.nbytes
    w2 = np.frombuffer(data, "<i2", 2 * hidden, at)
    at += w2.nbytes
    (b2,) = struct.unpack_from("<i", data, at)
    if at + 4 != len(data):
        raise ValueError(f"{path}: {len(data) - at - 4} bytes after the network")
    return w1, b1, w2, b2, scale_q16


def centipawns(path: Path, fens: list[str]) -> list[int]:
    """The evaluations the engine's ``nnue=1`` gives these positions, computed here from the file
    (an independent check of the engine's inputs, perspectives and integer arithmetic)."""
    w1, b1, w2, b2, scale_q16 = read_network(path)
    stm, opp, _ = perspectives(fens)
    a_stm = stm.astype(np.int64) @ w1.astype(np.int64) + b1
    a_opp = opp.astype(np.int64) @ w1.astype(np.int64) + b1
    h = np.concatenate([np.clip(a_stm, 0, QA), np.clip(a_opp, 0, QA)], axis=1)
    total = h @ w2.astype(np.int64) + b2
    return [int(v) for v in (total * scale_q16) >> 16]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=DEFAULT_DATA, help="comma-separated texel.py caches")
    parser.add_argument("--hidden", type=int, default=64, help="units of the first layer (64)")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--lam", type=float, default=0.5, help="weight of the hand evaluation in the target")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=NNUE_BIN)
    parser.add_argument("--report", type=Path, default=None, help="also write the report here")
    parser.add_argument("--dry-run", action="store_true", help="do not write the network file")
    parser.add_argument(
        "--allow-partial",
        action="store_true",
        help="also train on a texel.py cache of a run cut short by --minutes (refused otherwise)",
    )
    args = parser.parse_args(argv)
    if args.hidden < 1 or args.epochs < 1 or args.batch < 1 or not 0 <= args.lam <= 1:
        parser.error("--hidden, --epochs and --batch must be positive and --lam in [0, 1]")
    lines: list[str] = []

    def say(text: str) -> None:
        print(text, flush=True)
        lines.append(text)

    data_files = [Path(name) for name in args.data.split(",")]
    # Before the training: a bad --out or --report (missing directory, one of the data files, the
    # two the same file) fails now, not after an hour of work.
    outputs = ([] if args.dry_run else [args.out]) + ([args.report] if args.report else [])
    try:
        check_outputs(outputs, inputs=data_files)
    except (OSError, ValueError) as error:
        parser.error(str(error))
    started = time.time()
    rng = np.random.default_rng(args.seed)
    stm_parts, opp_parts, y_parts, e_parts, held_parts, tb_parts = [], [], [], [], [], []
    for path in data_files:
        if not path.is_file():
            raise SystemExit(f"{path}: no such data file (run benches/tuning/texel.py to make it)")
        data = np.load(path)
        note = texel.cache_note(path, data, allow_partial=args.allow_partial)
        fens = [str(f) for f in data["fens_sp"]] + [str(f) for f in data["fens_tb"]]
        stm, opp, extra = perspectives(fens)
        n_sp = len(data["y_sp"])
        quiet = extra[:, 1] > 0
        held = np.concatenate([data["g_sp"] % 10 == 0, rng.random(len(data["y_tb"])) < 0.1])
        tb = np.concatenate([np.zeros(n_sp, bool), np.ones(len(data["y_tb"]), bool)])
        y = np.concatenate([data["y_sp"], data["y_tb"]]).astype(np.float64)
        stm_parts.append(stm[quiet])
        opp_parts.append(opp[quiet])
        y_parts.append(y[quiet])
        e_parts.append(extra[quiet, 0])
        held_parts.append(held[quiet])
        tb_parts.append(tb[quiet])
        say(f"data: {path.name}: {int(quiet.sum())} quiet positions of {len(fens)}{note}")
    stm, opp = np.concatenate(stm_parts), np.concatenate(opp_parts)
    y, evals = np.concatenate(y_parts), np.concatenate(e_parts)
    held, tb = np.concatenate(held_parts), np.concatenate(tb_parts)
    train_set, test = ~held, held
    say(f"{int(train_set.sum())} positions to fit, {int(test.sum())} held out; {time.time() - started:.0f} s")

    k = fit_scale(evals[train_set], y[train_set])
    c = k * math.log(10) / 400
    target = np.where(tb, y, args.lam * sigmoid(c * evals) + (1 - args.lam) * y)
    hand = cross_entropy(sigmoid(c * evals[test]), y[test])
    say(f"K = {k:.3f}; held-out loss of the hand-written evaluation: {hand:.5f}")

    net = Network(args.hidden, rng)
    train(net, stm[train_set], opp[train_set], target[train_set], args.epochs, args.batch, args.lr, rng, say)
    z, _ = net.forward(stm[test].astype(np.float32), opp[test].astype(np.float32))
    float_loss = cross_entropy(sigmoid(z.astype(np.float64)), y[test])
    quant_loss = cross_entropy(sigmoid(quantised_logits(net, stm[test], opp[test])), y[test])
    for part, mask in (("self-play", ~tb[test]), ("tablebase", tb[test])):
        if not mask.any():
            continue
        zq = quantised_logits(net, stm[test][mask], opp[test][mask])
        hand_part = cross_entropy(sigmoid(c * evals[test][mask]), y[test][mask])
        say(
            f"  held-out {part}: hand-written {hand_part:.5f}, "
            f"network {cross_entropy(sigmoid(zq), y[test][mask]):.5f}"
        )
    say(
        f"held-out loss: hand-written {hand:.5f}, network {float_loss:.5f} (quantised {quant_loss:.5f}); "
        f"hidden {args.hidden}, {args.epochs} epochs, lambda {args.lam}; {time.time() - started:.0f} s in all"
    )
    if not args.dry_run:
        write_network(args.out, net, k)
        say(f"wrote {args.out}")
    if args.report:
        with atomic_output(args.report) as out:
            out.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
