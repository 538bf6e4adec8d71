"""benches/ladder.py's computation: the fit of the Elo ladder on synthetic results with a known
answer, the lower bound of a match without an interval, and the docs' table being the one the
recorded results give. No game is played."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

from congo.stats import Z95, elo_from_score, elo_pentanomial

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def ladder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ladder", ROOT / "benches" / "ladder.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ladder"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_chain_adds_the_differences_and_the_variances(ladder: ModuleType) -> None:
    m = ladder.Measured
    matches = [m("b", "a", 100.0, 10.0), m("c", "b", 50.0, 20.0), m("d", "c", -30.0, 5.0)]
    ratings = {r.key: r for r in ladder.fit_ladder(["a", "b", "c", "d"], matches, anchor="a")}
    assert ratings["a"].elo == 0
    assert ratings["a"].error is None
    assert ratings["b"].elo == pytest.approx(100)
    assert ratings["c"].elo == pytest.approx(150)
    assert ratings["d"].elo == pytest.approx(120)
    assert ratings["b"].error == pytest.approx(Z95 * 10)
    assert ratings["c"].error == pytest.approx(Z95 * math.sqrt(10**2 + 20**2))
    assert ratings["d"].error == pytest.approx(Z95 * math.sqrt(10**2 + 20**2 + 5**2))
    assert not any(r.at_least for r in ratings.values())


def test_a_cross_match_is_weighed_by_least_squares(ladder: ModuleType) -> None:
    # Minimising (b - 100)² + (c - b - 100)² + (c - 230)² by hand: 2b = c, 2c - b = 330, so
    # c = 220, b = 110; the normal matrix [[2, -1], [-1, 2]] / σ² has the inverse σ²/3 [[2, 1], [1, 2]].
    m = ladder.Measured
    matches = [m("b", "a", 100.0, 10.0), m("c", "b", 100.0, 10.0), m("c", "a", 230.0, 10.0)]
    ratings = {r.key: r for r in ladder.fit_ladder(["a", "b", "c"], matches, anchor="a")}
    assert ratings["b"].elo == pytest.approx(110)
    assert ratings["c"].elo == pytest.approx(220)
    assert ratings["b"].error == pytest.approx(Z95 * 10 * math.sqrt(2 / 3))
    assert ratings["c"].error == pytest.approx(Z95 * 10 * math.sqrt(2 / 3))
    # The order of the match's players only flips the sign.
    flipped = [m("a", "b", -100.0, 10.0), m("b", "c", -100.0, 10.0), m("a", "c", -230.0, 10.0)]
    again = {r.key: r.elo for r in ladder.fit_ladder(["a", "b", "c"], flipped, anchor="a")}
    assert again["b"] == pytest.approx(110)
    assert again["c"] == pytest.approx(220)


def test_measure_takes_the_printed_interval(ladder: ModuleType) -> None:
    counts = [1, 4, 10, 6, 3]
    measured = ladder.measure("x", "y", counts)
    estimate = elo_pentanomial(counts)
    assert measured.elo == pytest.approx(estimate.elo)
    assert estimate.error is not None
    assert measured.sigma == pytest.approx(estimate.error / Z95)
    assert measured.bound is None


def test_a_match_won_outright_gives_a_lower_bound(ladder: ModuleType) -> None:
    # N pairs all won: the lowest mean s with s + 1.645 sqrt(s (1 - s) / N) = 1 is N / (N + 1.645²).
    for pairs in (5, 30, 100):
        measured = ladder.measure("x", "y", [0, 0, 0, 0, pairs])
        assert measured.sigma is None
        assert measured.bound == pytest.approx(elo_from_score(pairs / (pairs + 1.645**2)), abs=1e-6)
    # Lost outright: the bound is on the other side.
    assert ladder.measure("x", "y", [30, 0, 0, 0, 0]).bound == pytest.approx(-elo_from_score(30 / 32.706025))
    # An undefined interval short of 100 % (99 pairs won, one drawn) bounds it too, a little lower.
    assert ladder.lower_bound([0, 0, 1, 0, 99]) < ladder.lower_bound([0, 0, 0, 0, 100])


def test_rungs_past_a_lopsided_match_are_placed_at_their_lower_bound(ladder: ModuleType) -> None:
    m = ladder.Measured
    matches = [
        m("b", "a", 100.0, 10.0),
        m("c", "b", 300.0, None, 300.0),  # c won every pair: at least +300 over b
        m("d", "c", 50.0, 20.0),
    ]
    ratings = {r.key: r for r in ladder.fit_ladder(["a", "b", "c", "d"], matches, anchor="a")}
    assert not ratings["b"].at_least
    assert ratings["c"].at_least
    assert ratings["c"].elo == pytest.approx(400)
    assert ratings["c"].error == 0
    assert ratings["d"].at_least
    assert ratings["d"].elo == pytest.approx(450)
    assert ratings["d"].error == pytest.approx(Z95 * 20)  # relative to c
    # A rung that nothing connects is left out.
    assert [r.key for r in ladder.fit_ladder(["a", "b", "e"], matches[:1], anchor="a")] == ["a", "b"]


def test_the_docs_table_is_the_recorded_results(ladder: ModuleType) -> None:
    records = ladder.read_raw()
    if not records:
        pytest.skip("no ladder results recorded")
    _, ratings = ladder.report(records)
    table = ladder.docs_table(records, ratings)
    page = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    assert page.split(ladder.BEGIN)[1].split(ladder.END)[0] == "\n" + table
