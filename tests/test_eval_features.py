"""The evaluation as features and weights (the tuner's view, benches/tuning/texel.py): the
hand-written evaluation (``nnue=0``) is exactly their dot product."""

from __future__ import annotations

import random

import pytest

import congo
from congo import STARTING_FEN, InvalidFenError, Position, tuning


def random_fens(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < count:
        position = Position(STARTING_FEN)
        for _ in range(120):
            moves = position.legal_moves()
            if not moves or position.outcome() is not None:
                break
            position = position.push(rng.choice(moves))
            fens.append(position.fen())
    return fens[:count]


def test_the_evaluation_is_the_dot_product_of_features_and_weights() -> None:
    names = tuning.eval_feature_names()
    weights = tuning.eval_weights()
    assert len(names) == len(weights) == len(set(names))
    fens = random_fens(500, seed=3)
    out = tuning.eval_features(fens)
    raw: bytes = out["features"]
    assert len(raw) == 2 * len(names) * len(fens)
    assert len(out["eval"]) == len(out["quiet"]) == len(fens)
    for row, evaluation in enumerate(out["eval"]):
        chunk = raw[row * 2 * len(names) : (row + 1) * 2 * len(names)]
        features = [int.from_bytes(chunk[i : i + 2], "little", signed=True) for i in range(0, len(chunk), 2)]
        assert sum(f * w for f, w in zip(features, weights, strict=True)) == evaluation
    assert any(out["quiet"])
    assert not all(out["quiet"])


def test_the_features_are_the_hand_written_evaluations_whatever_the_default() -> None:
    # The tuner fits the hand-written evaluation (nnue=0), not the default network.
    fens = random_fens(200, seed=5)
    hand = congo.Engine(options={"nnue": 0})
    assert tuning.eval_features(fens)["eval"] == [hand.evaluate(fen) for fen in fens]
    assert tuning.eval_features(fens)["eval"] != [congo.Engine().evaluate(fen) for fen in fens]


def test_the_start_position_is_quiet_and_worth_the_tempo() -> None:
    out = tuning.eval_features([STARTING_FEN])
    assert out["quiet"] == [True]
    assert out["eval"] == [tuning.eval_weights()[tuning.eval_feature_names().index("tempo")]]


def test_a_bad_fen_is_an_error() -> None:
    with pytest.raises(InvalidFenError):
        tuning.eval_features(["not a fen"])
