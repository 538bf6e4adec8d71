"""Trains the lion-bucketed network (format version 2) from ``congo datagen`` files, one command.

    nice -n 19 congo datagen -o build/nnue2/data-s1.bin --positions 400000 --nodes 800 --seed 1
    nice -n 19 python benches/tuning/nnue2.py --data build/nnue2/data-s1.bin --seed 1 \\
        --out build/nnue2/net-s1.nnue --report benches/results/nnue2-train-s1.txt

**Network** (``rust/congo-core/src/search/nnue2.rs`` evaluates it; ``docs/engine.md``, "Network
architectures"): per perspective, the 784 inputs of version 1 (own or the opponent's piece × 8
roles × 49 squares, Black's board turned around) once per square of the perspective's own lion in
its castle, 9 × 784; a shared first layer of 256 units per perspective (an ``EmbeddingBag`` over the
at most 28 active inputs: the inputs are sparse), clipped to [0, 1], side to move first, into 32
units clipped to [0, 1], into one output ``z``, a logit: the expected score of the side to move is
``sigmoid(z)``, read by the engine as ``z · CP_PER_LOGIT`` centipawns, the scale of the version-1
network (so that the search's margins keep their meaning).

**Data and target.** Records of ``congo datagen`` files (:func:`congo.datagen.batches`; each
file's checksum verified). Target ``λ·sigmoid(score / CP_PER_LOGIT) + (1 - λ)·result`` (``--lam``;
the exact result for positions within the endgame tables), binary cross-entropy, Adam, on CPU
with one thread (``--threads``). Held out: the positions of games whose index ends in 0.

**Quantisation** as the engine computes: first layer ×127 in i16, second layer ×64 in i8 (its
weights are kept within ±127/64 while training), its biases ×127·64 in i32, the output ×64 in i16
(biases ×127·64, i32). The held-out loss of the float network and of the integer one (computed
here exactly as the engine does, in numpy) are printed and written to ``--report``.

Needs PyTorch (``pip install 'congo-chess[training]'``, the CPU build is enough); reading and writing
network files (:func:`pack_network`, :func:`read_network`, :func:`centipawns`) needs numpy only.
"""

from __future__ import annotations

import argparse
import importlib
import struct
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]

from congo import MAX_PIECES_PER_COLOR, datagen  # noqa: E402
from congo.files import atomic_output  # noqa: E402
from congo.learning import encode  # noqa: E402

SQUARES = 49
ROLES = 8
INPUTS = 2 * ROLES * SQUARES  # per bucket
BUCKETS = 9
FEATURES = BUCKETS * INPUTS
L1 = 256
L2 = 32
QA = 127  # activations: 1.0 is 127
QB = 64  # second-layer weights: i8 multiples of 1/64
QO = 64  # output weights: i16 multiples of 1/64
MAX_MEN = 2 * MAX_PIECES_PER_COLOR
PAD = FEATURES  # the index of "no input" in a padded index list (a zero row)
CP_PER_LOGIT = 2670 * 64 * 64 / 65536  # the version-1 network's scale (its header's 2670)

MAGIC = b"CONGONET"
FORMAT_VERSION = 2
ARCHITECTURE = 1
HEADER_BYTES = 64
HEADER = struct.Struct("<8sIII4IiiiQ")  # everything before the checksum (56 bytes)
PAYLOAD_BYTES = 2 * (FEATURES * L1 + L1) + L2 * 2 * L1 + 4 * L2 + 2 * L2 + 4
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


def fnv1a64(data: bytes) -> int:
    """FNV-1a, 64 bits, the checksum of network files (over the header's first 56 bytes, then the
    payload)."""
    h = FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


# -- inputs ---------------------------------------------------------------------------------------


def features(board: np.ndarray, white: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The active inputs of the side to move and of its opponent, ``(N, 28)`` int64 each, padded
    with :data:`PAD`, from ``board`` ``(N, 49)`` int8 (``+role`` white, ``-role`` black, squares a1 …
    g7) and ``white`` (White to move), as ``nnue2.rs`` computes them."""
    n = len(board)
    sq = np.arange(SQUARES)
    file, rank = sq % 7, sq // 7
    flipped = (6 - rank) * 7 + file
    role = np.abs(board).astype(np.int64) - 1  # -1: empty
    is_white = board > 0
    occupied = board != 0
    views = []
    for view_white in (True, False):
        own_lion = board == (8 if view_white else -8)
        has = own_lion.any(axis=1)
        lion_sq = own_lion.argmax(axis=1)
        lf, lr = lion_sq % 7, lion_sq // 7
        lr = lr if view_white else 6 - lr
        bucket = np.where(has, np.minimum(lr, 2) * 3 + np.clip(lf, 2, 4) - 2, 0)
        theirs = is_white != view_white
        square = sq if view_white else flipped
        index = bucket[:, None] * INPUTS + ((theirs * ROLES + role) * SQUARES + square[None, :])
        index = np.where(occupied, index, PAD)
        index.sort(axis=1)  # the pads (the largest index) last
        views.append(index[:, :MAX_MEN])
    wv, bv = views
    stm = np.where(white[:, None], wv, bv)
    opp = np.where(white[:, None], bv, wv)
    assert stm.shape == (n, MAX_MEN)
    return stm, opp


def boards_of_fens(fens: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """``(board, white)`` of FENs, as :func:`congo.datagen.batches` gives them."""
    planes = encode(fens)[:, : 2 * ROLES].reshape(len(fens), 2 * ROLES, SQUARES)
    roles = np.arange(1, ROLES + 1)[None, :, None]
    board = (planes[:, :ROLES] * roles).sum(axis=1) - (planes[:, ROLES:] * roles).sum(axis=1)
    white = np.array([fen.split()[1] == "w" for fen in fens])
    return board.astype(np.int8), white


# -- the file -------------------------------------------------------------------------------------


class Quantised:
    """The integers of a network file: ``w1 (FEATURES, L1)``, ``b1 (L1,)`` i16; ``w2 (L2, 2·L1)`` i8;
    ``b2 (L2,)`` i32; ``w3 (L2,)`` i16; ``b3`` and ``scale_q16``."""

    def __init__(
        self,
        w1: np.ndarray,
        b1: np.ndarray,
        w2: np.ndarray,
        b2: np.ndarray,
        w3: np.ndarray,
        b3: int,
        scale_q16: int,
    ) -> None:
        self.w1, self.b1, self.w2, self.b2, self.w3 = w1, b1, w2, b2, w3
        self.b3, self.scale_q16 = b3, scale_q16

    def check_ranges(self) -> None:
        """Raises ``ValueError`` where the engine would refuse the file: an accumulator that could
        leave ``i16`` (per bucket: the bias plus the 28 largest columns), a second-layer sum or
        the output that could leave ``i32``."""
        w = np.abs(self.w1.astype(np.int64)).reshape(BUCKETS, INPUTS, L1)
        largest = -np.sort(-w, axis=1)[:, :MAX_MEN].sum(axis=1)  # (BUCKETS, L1)
        bound = np.abs(self.b1.astype(np.int64))[None, :] + largest
        if bound.max() > 32767:
            b, unit = np.unravel_index(int(bound.argmax()), bound.shape)
            raise ValueError(
                f"first-layer unit {unit} could reach {int(bound[b, unit])} in lion bucket {b}, "
                "beyond an i16 accumulator"
            )
        sums = np.abs(self.b2.astype(np.int64)) + QA * np.abs(self.w2.astype(np.int64)).sum(axis=1)
        if sums.max() > 2**31 - 1:
            raise ValueError(
                f"second-layer unit {int(sums.argmax())} could reach {int(sums.max())}, beyond an i32 sum"
            )
        out = abs(self.b3) + QA * int(np.abs(self.w3.astype(np.int64)).sum())
        if out > 2**31 - 1 or (out * self.scale_q16) >> 16 > 2**31 - 1:
            raise ValueError(
                f"the output could reach {out} x {self.scale_q16} / 2^16, beyond an i32 evaluation"
            )

    def logits(self, stm: np.ndarray, opp: np.ndarray) -> np.ndarray:
        """The output as the engine computes it (integer arithmetic), as a logit."""
        w1 = np.vstack([self.w1.astype(np.int64), np.zeros((1, L1), np.int64)])  # the PAD row
        out = np.empty(len(stm), dtype=np.float64)
        for i in range(0, len(stm), 8192):
            a = [w1[x[i : i + 8192]].sum(axis=1) + self.b1 for x in (stm, opp)]
            x = np.concatenate([np.clip(a[0], 0, QA), np.clip(a[1], 0, QA)], axis=1)
            h = np.clip((x @ self.w2.astype(np.int64).T + self.b2) >> 6, 0, QA)
            out[i : i + 8192] = (h @ self.w3.astype(np.int64) + self.b3) / (QA * QO)
        return out

    def centipawns(self, stm: np.ndarray, opp: np.ndarray) -> list[int]:
        raw = np.round(self.logits(stm, opp) * QA * QO).astype(np.int64)
        return [int(v) for v in (raw * self.scale_q16) >> 16]


def pack_network(q: Quantised) -> bytes:
    """The bytes of a version-2 network file (``docs/engine.md``, "Network files"): the 64-byte
    header (magic, version, header size, architecture, buckets, inputs per bucket, L1, L2, QA, QB,
    the output scale, payload size, checksum), then ``w1`` (input-major), ``b1`` (i16), ``w2``
    (unit-major, i8), ``b2`` (i32), ``w3`` (i16), ``b3`` (i32), little-endian."""
    payload = b"".join(
        [
            q.w1.astype("<i2").tobytes(),
            q.b1.astype("<i2").tobytes(),
            q.w2.astype("i1").tobytes(),
            q.b2.astype("<i4").tobytes(),
            q.w3.astype("<i2").tobytes(),
            struct.pack("<i", q.b3),
        ]
    )
    assert len(payload) == PAYLOAD_BYTES
    head = HEADER.pack(
        MAGIC,
        FORMAT_VERSION,
        HEADER_BYTES,
        ARCHITECTURE,
        BUCKETS,
        INPUTS,
        L1,
        L2,
        QA,
        QB,
        q.scale_q16,
        PAYLOAD_BYTES,
    )
    return head + struct.pack("<Q", fnv1a64(head + payload)) + payload


def read_network(path: Path) -> Quantised:
    """A version-2 network file back as its integers (header and checksum checked as the engine
    checks them; ``ValueError`` naming the file otherwise)."""
    data = path.read_bytes()
    if data[:8] != MAGIC:
        raise ValueError(f"{path}: not a network file (no {MAGIC.decode()} magic)")
    if len(data) < HEADER_BYTES:
        raise ValueError(f"{path}: the network file ends early, at byte {len(data)}")
    fields = HEADER.unpack_from(data)
    expected = (FORMAT_VERSION, HEADER_BYTES, ARCHITECTURE, BUCKETS, INPUTS, L1, L2, QA, QB)
    if fields[1:10] != expected:
        raise ValueError(f"{path}: not a version-2 network of this architecture: {fields[1:10]}")
    scale_q16, payload_bytes = fields[10], fields[11]
    if payload_bytes != PAYLOAD_BYTES or len(data) != HEADER_BYTES + PAYLOAD_BYTES:
        raise ValueError(f"{path}: {len(data)} bytes, a version-2 network has {HEADER_BYTES + PAYLOAD_BYTES}")
    (checksum,) = struct.unpack_from("<Q", data, HEADER.size)
    if fnv1a64(data[: HEADER.size] + data[HEADER_BYTES:]) != checksum:
        raise ValueError(f"{path}: checksum mismatch: the file is damaged")
    at = HEADER_BYTES

    def take(dtype: str, count: int) -> np.ndarray:
        nonlocal at
        out = np.frombuffer(data, dtype, count, at)
        at += out.nbytes
        return out

    w1 = take("<i2", FEATURES * L1).reshape(FEATURES, L1)
    b1 = take("<i2", L1)
    w2 = take("i1", L2 * 2 * L1).reshape(L2, 2 * L1)
    b2 = take("<i4", L2)
    w3 = take("<i2", L2)
    (b3,) = struct.unpack_from("<i", data, at)
    q = Quantised(w1, b1, w2, b2, w3, b3, scale_q16)
    try:
        q.check_ranges()
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None
    return q


def centipawns(path: Path, fens: list[str]) -> list[int]:
    """The evaluations the engine gives these positions with this file (``EvalFile``), computed
    here from the file: an independent check of the engine's inputs, buckets and arithmetic."""
    board, white = boards_of_fens(fens)
    return read_network(path).centipawns(*features(board, white))


# -- training -------------------------------------------------------------------------------------


def load(paths: list[Path], limit: int | None) -> dict[str, np.ndarray]:
    parts: dict[str, list[np.ndarray]] = {
        k: [] for k in ("board", "white", "score", "result", "exact", "game")
    }
    total = 0
    for path in paths:
        for batch in datagen.batches(path):
            for key, values in parts.items():
                values.append(batch[key])
            total += len(batch["board"])
            if limit is not None and total >= limit:
                break
        if limit is not None and total >= limit:
            break
    data = {key: np.concatenate(values) for key, values in parts.items()}
    if limit is not None:
        data = {key: values[:limit] for key, values in data.items()}
    return data


def cross_entropy(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-7, 1 - 1e-7)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def train(args: argparse.Namespace, say: Any) -> int:
    try:
        # Typed as Any: mypy checks this file where PyTorch (an optional extra) is not installed too.
        torch: Any = importlib.import_module("torch")
    except ImportError:
        say("nnue2.py trains with PyTorch: pip install 'congo-chess[training]' (the CPU build is enough)")
        return 2
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    paths = [Path(p) for p in args.data.split(",") if p]
    started = time.monotonic()
    data = load(paths, args.max_positions)
    n = len(data["board"])
    stm, opp = features(data["board"], data["white"])
    target = np.where(
        data["exact"],
        data["result"],
        args.lam / (1 + np.exp(-data["score"].astype(np.float64) / CP_PER_LOGIT))
        + (1 - args.lam) * data["result"],
    ).astype(np.float32)
    held = data["game"] % 10 == 0
    say(
        f"{n} positions from {len(paths)} file(s) ({int(held.sum())} held out: games ending in 0), "
        f"{time.monotonic() - started:.1f} s to read"
    )

    # The layers, created in this order (the seed's draws); Adam takes their parameters in it too.
    ft = torch.nn.EmbeddingBag(FEATURES + 1, L1, mode="sum", padding_idx=PAD)
    torch.nn.init.normal_(ft.weight, 0.0, 0.02)
    with torch.no_grad():
        ft.weight[PAD].zero_()
    b1 = torch.nn.Parameter(torch.full((L1,), 0.1))
    l2 = torch.nn.Linear(2 * L1, L2)
    l3 = torch.nn.Linear(L2, 1)

    def net(s: Any, o: Any) -> Any:
        a_s = torch.clamp(ft(s) + b1, 0, 1)
        a_o = torch.clamp(ft(o) + b1, 0, 1)
        h = torch.clamp(l2(torch.cat([a_s, a_o], dim=1)), 0, 1)
        return l3(h).squeeze(1)

    opt = torch.optim.Adam([ft.weight, b1, l2.weight, l2.bias, l3.weight, l3.bias], lr=args.lr)
    train_idx = np.flatnonzero(~held)
    held_idx = np.flatnonzero(held)
    ts, to, ty = (torch.from_numpy(a) for a in (stm, opp, target))
    w2_limit = 127 / QB

    def float_loss(idx: np.ndarray) -> float:
        with torch.no_grad():
            z = torch.cat(
                [net(ts[idx[i : i + 16384]], to[idx[i : i + 16384]]) for i in range(0, len(idx), 16384)]
            )
        return cross_entropy(torch.sigmoid(z).double().numpy(), target[idx].astype(np.float64))

    for epoch in range(args.epochs):
        order = rng.permutation(train_idx)
        total = 0.0
        if epoch == args.epochs * 2 // 3:
            for group in opt.param_groups:
                group["lr"] = args.lr * 0.3
        for start in range(0, len(order), args.batch):
            idx = torch.from_numpy(order[start : start + args.batch])
            z = net(ts[idx], to[idx])
            loss = torch.nn.functional.binary_cross_entropy_with_logits(z, ty[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                l2.weight.clamp_(-w2_limit, w2_limit)
                ft.weight[PAD].zero_()
            total += float(loss.detach()) * len(idx)
        say(
            f"  epoch {epoch + 1}/{args.epochs}: training loss {total / len(order):.5f}, "
            f"held-out {float_loss(held_idx):.5f}  ({time.monotonic() - started:.0f} s)"
        )

    with torch.no_grad():
        w1 = ft.weight[:FEATURES].double().numpy()
        q = Quantised(
            np.clip(np.round(w1 * QA), -32767, 32767).astype(np.int16),
            np.clip(np.round(b1.double().numpy() * QA), -32767, 32767).astype(np.int16),
            np.clip(np.round(l2.weight.double().numpy() * QB), -127, 127).astype(np.int8),
            np.round(l2.bias.double().numpy() * QA * QB).astype(np.int32),
            np.clip(np.round(l3.weight.double().numpy()[0] * QO), -32767, 32767).astype(np.int16),
            round(float(l3.bias[0]) * QA * QO),
            round(CP_PER_LOGIT / (QA * QO) * 65536),
        )
    q.check_ranges()
    y_held = target[held_idx].astype(np.float64)
    results = data["result"][held_idx].astype(np.float64)
    z_q = q.logits(stm[held_idx], opp[held_idx])
    p_q = 1 / (1 + np.exp(-z_q))
    p_search = 1 / (1 + np.exp(-data["score"][held_idx].astype(np.float64) / CP_PER_LOGIT))
    float_held, quantised_held = float_loss(held_idx), cross_entropy(p_q, y_held)
    say(f"held-out loss against the target: float {float_held:.5f}, quantised {quantised_held:.5f}")
    say(
        f"held-out loss against the game results: quantised network {cross_entropy(p_q, results):.5f}, "
        f"the data's search scores {cross_entropy(p_search, results):.5f}, "
        f"a constant {cross_entropy(np.full_like(results, results.mean()), results):.5f}"
    )
    if args.out is not None:
        data_bytes = pack_network(q)
        with atomic_output(args.out, "wb") as out:
            out.write(data_bytes)
        say(f"wrote {args.out} ({len(data_bytes)} bytes)")
    say(f"{time.monotonic() - started:.0f} s in all")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", required=True, help="comma-separated congo datagen files")
    parser.add_argument("--max-positions", type=int, default=None, help="read at most this many")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--lam", type=float, default=0.5, help="weight of the search score in the target")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="PyTorch's threads (1)")
    parser.add_argument("--out", type=Path, default=None, help="the network file to write")
    parser.add_argument("--report", type=Path, default=None, help="also write the log here")
    args = parser.parse_args(argv)
    lines: list[str] = []

    def say(text: str) -> None:
        print(text, flush=True)
        lines.append(text)

    say("nnue2.py " + " ".join(sys.argv[1:] if argv is None else argv))
    status = train(args, say)
    if args.report is not None:
        with atomic_output(args.report, "w") as out:
            out.write("\n".join(lines) + "\n")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
