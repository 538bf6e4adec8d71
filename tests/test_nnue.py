"""The learned evaluation (``nnue=1``) and its trainer, ``benches/tuning/nnue.py``.

The engine's evaluation of a position equals the one computed in numpy from the network file the
engine was built with: an independent check of the inputs (each perspective, Black's board turned
around), the accumulators updated move by move, and the integer arithmetic. The trainer, run on a
few games, lowers its loss and writes a file that reads back as it wrote it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

import congo  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benches" / "tuning"))

import nnue  # noqa: E402


def positions() -> list[str]:
    """Openings of the balanced suite, and the positions of a few games played on from them
    (captures, drownings, monkey chains and promotions along the way)."""
    lines = (ROOT / "benches/openings-500.txt").read_text().splitlines()
    fens = [line.split(";")[0].strip() for line in lines]
    fens = [fen for fen in fens if fen and not fen.startswith("#")][:40]
    engine = congo.Engine()
    for opening in fens[:6]:
        board = congo.Board(opening)
        for _ in range(60):
            if board.is_game_over():
                break
            move = engine.search(board, congo.Limit(nodes=300)).move
            assert move is not None
            board.push(move)
            fens.append(board.fen())
    fens += ["7/4l2/7/4c2/7/2p4/1M1L3 w 1", "2l4/5C1/1P5/2G4/7/7/4L2 b 1", "3l3/7/7/7/7/7/3L3 w 1"]
    return fens


def test_the_engine_evaluates_as_the_network_file_says() -> None:
    fens = positions()
    learned = congo.Engine(options={"nnue": 1})
    expected = nnue.centipawns(nnue.NNUE_BIN, fens)
    assert [learned.evaluate(fen) for fen in fens] == expected
    # and the network is not the hand-written evaluation
    hand = congo.Engine(options={"nnue": 0})
    assert [congo.Engine().evaluate(fen) for fen in fens] == expected  # the default is the network
    assert [hand.evaluate(fen) for fen in fens] != expected


def test_the_learned_evaluation_plays_through_the_engine_options() -> None:
    board = congo.Board()
    result = congo.Engine(options={"nnue": 1}).search(board, congo.Limit(depth=5))
    assert result.move in board.legal_moves
    assert congo.Engine(options={"nnue": 1}).evaluate(board) == congo.Engine(options={"nnue": 1}).evaluate(
        board.mirror()
    )


def test_training_lowers_the_loss_and_writes_a_file_that_reads_back(tmp_path: Path) -> None:
    import texel

    fens, labels, games = texel.selfplay_data(8, 60, seed=5, workers=1, minutes=None)
    data = tmp_path / "data.npz"
    np.savez_compressed(
        data,
        fens_sp=np.array(fens),
        y_sp=np.array(labels),
        g_sp=np.array(games),
        fens_tb=np.array([], dtype=str),
        y_tb=np.array([], dtype=float),
    )
    out, report = tmp_path / "net.bin", tmp_path / "report.txt"
    args = ["--data", str(data), "--hidden", "8", "--epochs", "3", "--batch", "64", "--out", str(out)]
    assert nnue.main([*args, "--report", str(report)]) == 0
    lines = report.read_text().splitlines()
    losses = [float(line.rsplit(" ", 1)[1]) for line in lines if "training loss" in line]
    assert len(losses) == 3
    assert losses[-1] < losses[0]
    assert any(line.startswith("held-out loss: hand-written") for line in lines)
    w1, b1, w2, _, scale = nnue.read_network(out)
    assert w1.shape == (nnue.INPUTS, 8)
    assert b1.shape == (8,)
    assert w2.shape == (16,)
    assert scale > 0
    damaged = tmp_path / "damaged.bin"
    damaged.write_bytes(out.read_bytes() + b"\0")
    with pytest.raises(ValueError, match="bytes after the network"):
        nnue.read_network(damaged)


def test_a_network_whose_accumulators_could_overflow_is_refused() -> None:
    w1 = np.zeros((nnue.INPUTS, 4), dtype=np.int16)
    b1 = np.zeros(4, dtype=np.int16)
    nnue.check_accumulator_range(w1, b1)
    w1[:2, 3] = 30_000  # two pieces on the board with these inputs: 60,000
    with pytest.raises(ValueError, match="hidden unit 3 could reach 60000"):
        nnue.check_accumulator_range(w1, b1)
