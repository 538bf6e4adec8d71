"""congo.stats: Elo intervals, LOS and the SPRT, checked against published values (fastchess's test
suite) and against an independent brute-force computation of the generalized likelihood ratio."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

import pytest

from congo import stats
from congo.stats import SPRT


def _golden_max(function: Callable[[float], float], low: float, high: float) -> tuple[float, float]:
    """The maximum of a unimodal function on [low, high] by golden-section search: (argument, value)."""
    ratio = (math.sqrt(5) - 1) / 2
    a, b = low, high
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = function(c), function(d)
    for _ in range(200):
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = function(c)
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = function(d)
    return (c, fc) if fc > fd else (d, fd)


def _loglik(probs: Sequence[float], mle: Sequence[float]) -> float:
    if min(mle) <= 0:
        return -math.inf
    return sum(p * math.log(q) for p, q in zip(probs, mle))


def _best_trinomial(probs: Sequence[float], score: float) -> float:
    """max Σ p̂ ln q over (loss, draw, win) distributions of expected score ``score``: one free
    parameter (the draw rate) once the total and the mean are fixed."""

    def value(draw: float) -> float:
        win = score - draw / 2
        return _loglik(probs, [1 - draw - win, draw, win])

    return _golden_max(value, 0.0, min(1.0, 2 * score, 2 * (1 - score)))[1]


def _best_pentanomial(probs: Sequence[float], score: float) -> float:
    """max Σ p̂ ln q over five-outcome distributions of mean ``score``, by line searches along the
    directions that move mass among three outcomes while keeping the total and the mean (every
    such direction, in turn, until nothing improves)."""
    values = stats.PENTANOMIAL_SCORES
    # A feasible start: the uniform distribution (mean ½) mixed with the end on the score's side.
    weight = abs(score - 0.5) / 0.5
    mle = [(1 - weight) / 5] * 5
    mle[4 if score > 0.5 else 0] += weight
    directions = []
    for i, j, k in itertools.combinations(range(5), 3):
        direction = [0.0] * 5
        direction[i], direction[j], direction[k] = (
            values[j] - values[k],
            values[k] - values[i],
            values[i] - values[j],
        )
        directions.append(direction)
    best = _loglik(probs, mle)
    for _ in range(500):
        before = best
        for direction in directions:
            low = max(-q / v for q, v in zip(mle, direction) if v > 0)
            high = min(-q / v for q, v in zip(mle, direction) if v < 0)

            def value(t: float, direction: list[float] = direction, start: list[float] = mle) -> float:
                return _loglik(probs, [q + t * v for q, v in zip(start, direction)])

            step, found = _golden_max(value, low, high)
            if found > best:
                mle = [q + step * v for q, v in zip(mle, direction)]
                best = found
        if best - before < 1e-15:
            break
    return best


def _regularized(counts: Sequence[int]) -> tuple[float, list[float]]:
    values = [float(n) if n else 1e-3 for n in counts]
    total = sum(values)
    return total, [v / total for v in values]


def test_the_llr_matches_fastchess_published_values() -> None:
    # Disservin/fastchess, app/tests/sprt_test.cpp (its Stats(wins, losses, draws) and
    # Stats(LL, LD, WL, DD, WD, WW)); the expected values are printed to two decimals there.
    assert SPRT(0.5, 2.5).llr_trinomial(21404, 40708, 21184) == pytest.approx(-1.57, abs=0.01)
    assert SPRT(0, 2).llr_trinomial(57433, 106593, 57030) == pytest.approx(-2.59, abs=0.01)
    penta = [223, 9863, 20279 + 1000, 10037, 246]
    assert SPRT(0.5, 2.5).llr_pentanomial(penta) == pytest.approx(-3.07, abs=0.01)
    penta = [871, 26175, 55003 + 980, 26678, 821]
    assert SPRT(0, 2).llr_pentanomial(penta) == pytest.approx(-4.98, abs=0.01)
    # Normalized Elo (fishtest's unit), same source.
    normalized = SPRT(0, 2, model="normalized")
    assert normalized.llr_trinomial(36433, 68692, 36027) == pytest.approx(0.92, abs=0.01)
    normalized = SPRT(-1.75, 0.25, model="normalized")
    assert normalized.llr_trinomial(10871, 20431, 10650) == pytest.approx(2.30, abs=0.01)
    penta = [365, 16618, 36029 + 200, 16974, 390]
    assert SPRT(0, 2, model="normalized").llr_pentanomial(penta) == pytest.approx(2.25, abs=0.01)
    penta = [127, 4883, 10311 + 401, 5150, 104]
    assert SPRT(-1.75, 0.25, model="normalized").llr_pentanomial(penta) == pytest.approx(3.01, abs=0.01)


@pytest.mark.parametrize(
    ("wins", "draws", "losses", "elo0", "elo1"),
    [(30, 50, 20, 0, 10), (120, 300, 140, -5, 5), (7, 0, 3, 0, 50), (0, 12, 0, 0, 10)],
)
def test_the_trinomial_llr_is_the_constrained_likelihood_ratio(
    wins: int, draws: int, losses: int, elo0: float, elo1: float
) -> None:
    """LLR = N (max log-likelihood under H1 - under H0), each maximum found by brute force."""
    total, probs = _regularized([losses, draws, wins])
    s0, s1 = stats.expected_score(elo0), stats.expected_score(elo1)
    expected = total * (_best_trinomial(probs, s1) - _best_trinomial(probs, s0))
    assert SPRT(elo0, elo1).llr_trinomial(wins, draws, losses) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize(
    ("counts", "elo0", "elo1"),
    [([3, 20, 45, 25, 7], 0, 10), ([1, 4, 10, 6, 3], -10, 10), ([0, 2, 9, 0, 1], 0, 20)],
)
def test_the_pentanomial_llr_is_the_constrained_likelihood_ratio(
    counts: list[int], elo0: float, elo1: float
) -> None:
    total, probs = _regularized(counts)
    s0, s1 = stats.expected_score(elo0), stats.expected_score(elo1)
    expected = total * (_best_pentanomial(probs, s1) - _best_pentanomial(probs, s0))
    assert SPRT(elo0, elo1).llr_pentanomial(counts) == pytest.approx(expected, abs=1e-5)


def test_bounds_decisions_and_the_status_line() -> None:
    test = SPRT(elo0=0, elo1=10, alpha=0.05, beta=0.05)
    assert test.lower_bound == pytest.approx(math.log(0.05 / 0.95))
    assert test.upper_bound == pytest.approx(math.log(0.95 / 0.05))
    assert test.status(2.953) == "LLR: 2.95 (-2.94, 2.94) [0.00, 10.00]"
    assert test.decision(3.0) == "H1"
    assert test.decision(-3.0) == "H0"
    assert test.decision(0.0) is None
    assert SPRT(0, 10).llr_pentanomial([0, 0, 0, 0, 0]) == 0.0
    # Many wins accept H1, many losses H0.
    assert test.decision(test.llr_pentanomial([0, 0, 30, 50, 50])) == "H1"
    assert test.decision(test.llr_pentanomial([50, 50, 30, 0, 0])) == "H0"


def test_parsing_and_validation() -> None:
    assert SPRT.parse("elo0=0 elo1=10 alpha=0.05 beta=0.1") == SPRT(0, 10, 0.05, 0.1)
    assert SPRT.parse(["elo0=-5", "elo1=5"]) == SPRT(-5, 5)
    assert SPRT.parse("elo1=3,model=normalized") == SPRT(0, 3, model="normalized")
    assert SPRT.parse([]) == SPRT()
    assert str(SPRT(0, 10)) == "elo0=0 elo1=10 alpha=0.05 beta=0.05"
    for bad, message in [
        ("elo0=10 elo1=0", "elo0 < elo1"),
        ("alpha=0", "alpha"),
        ("alpha=0.6 beta=0.5", "alpha"),
        ("elo0=x", "not a number"),
        ("gamma=1", "no key 'gamma'"),
        ("engine", "key=value"),
        ("model=bayesian", "model"),
        ("elo1=nan", "not a number"),
        # float() takes these; the command line takes ASCII numbers only.
        ("elo1=\u0665", "not a number"),  # ARABIC-INDIC DIGIT FIVE
        ("elo1=\uff15", "not a number"),  # FULLWIDTH DIGIT FIVE
        ("elo1=1_0", "not a number"),
        ("elo1=inf", "not a number"),
        # A key given twice is refused, not decided by the last one.
        ("elo1=5 elo1=10", "elo1 twice"),
        ("model=normalized,model=logistic", "model twice"),
    ]:
        with pytest.raises(ValueError, match=message):
            SPRT.parse(bad)
    with pytest.raises(TypeError, match="elo0"):
        SPRT(elo0="0")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="5 counts"):
        SPRT().llr_pentanomial([1, 2, 3])
    with pytest.raises(ValueError, match="negative"):
        stats.elo_trinomial(-1, 0, 0)


def test_elo_interval_by_hand() -> None:
    # 75 wins, 25 losses: s = 0.75, sd = √(0.75·0.25) = 0.433, se = 0.0433.
    estimate = stats.elo_trinomial(75, 0, 25)
    assert estimate.elo == pytest.approx(-400 * math.log10(1 / 0.75 - 1))
    low, high = 0.75 - stats.Z95 * 0.0433013, 0.75 + stats.Z95 * 0.0433013
    assert estimate.interval == pytest.approx(
        (stats.elo_from_score(low), stats.elo_from_score(high)), abs=0.01
    )
    assert str(estimate) == "Elo +191 ± 81 (95 %, 100 games)"
    # LOS = Φ((s - ½) / se).
    assert estimate.los == pytest.approx(0.5 * (1 + math.erf(0.25 / 0.0433013 / math.sqrt(2))))
    # Pairs: scores 0, ¼, ½, ¾, 1 per game of the pair.
    pairs = stats.elo_pentanomial([1, 4, 10, 6, 3])
    mean = (4 * 0.25 + 10 * 0.5 + 6 * 0.75 + 3 * 1) / 24
    variance = (1 * mean**2 + 4 * (0.25 - mean) ** 2 + 10 * (0.5 - mean) ** 2) / 24
    variance += (6 * (0.75 - mean) ** 2 + 3 * (1 - mean) ** 2) / 24
    assert pairs.score == pytest.approx(mean)
    assert pairs.interval is not None
    assert pairs.interval[1] == pytest.approx(
        stats.elo_from_score(mean + stats.Z95 * math.sqrt(variance / 24))
    )
    assert str(pairs) == "Elo +44 ± 72 (95 %, 24 pairs)"


def test_pairs_narrow_the_interval_of_correlated_games() -> None:
    """Pairs that split 1-1 (a win and a loss, as an opening favouring one colour gives) carry no
    variance between pairs; counted game by game they look like coin flips."""
    pairs = stats.elo_pentanomial([2, 5, 40, 5, 2])
    games = stats.elo_trinomial(2 * 2 + 5 + 40, 5 + 5, 2 * 2 + 5 + 40)
    assert pairs.error is not None
    assert games.error is not None
    assert pairs.error < games.error * 0.6


def test_too_few_games_for_an_interval() -> None:
    for estimate in (
        stats.elo_trinomial(0, 2, 0),  # two draws: no variance
        stats.elo_trinomial(2, 0, 0),  # two wins: infinite Elo
        stats.elo_trinomial(1, 0, 0),
        stats.elo_pentanomial([0, 0, 3, 0, 0]),
        stats.elo_trinomial(9, 1, 0),  # the upper end of the score interval is above 100 %
    ):
        assert estimate.interval is None
        assert estimate.error is None
        assert "too few games for an interval" in str(estimate)
    assert str(stats.elo_trinomial(0, 2, 0)) == "Elo 0 (too few games for an interval, 2 games)"
    assert str(stats.elo_trinomial(2, 0, 0)) == "Elo +inf (too few games for an interval, 2 games)"
    assert stats.elo_trinomial(0, 2, 0).los is None
    assert str(stats.elo_trinomial(0, 0, 0)) == "Elo: no games"
    assert stats.elo_trinomial(1, 0, 1).los == pytest.approx(0.5)


def test_module_examples() -> None:
    import doctest

    failures, tried = doctest.testmod(stats)
    assert tried > 0
    assert failures == 0


def _best_trinomial_t_value(probs: Sequence[float], t_value: float) -> float:
    """max Σ p̂ ln q over (loss, draw, win) distributions with (mean - ½) / sd = ``t_value``: a log
    grid over the loss rate, the win rate solved from the constraint by bisection."""
    best = -math.inf
    for step in range(2000):
        loss = 10 ** (-12 + 10 * step / 2000)

        def excess(win: float, loss: float = loss) -> float:
            draw = 1 - loss - win
            mean = win + 0.5 * draw
            variance = loss * mean**2 + draw * (0.5 - mean) ** 2 + win * (1 - mean) ** 2
            return (mean - 0.5) / math.sqrt(variance) - t_value

        low, high = 1e-15, 0.5
        if excess(low) > 0 or excess(high) < 0:
            continue
        for _ in range(100):
            middle = (low + high) / 2
            low, high = (low, middle) if excess(middle) > 0 else (middle, high)
        win = (low + high) / 2
        best = max(best, _loglik(probs, [loss, 1 - loss - win, win]))
    return best


def test_the_normalized_llr_of_a_degenerate_match_is_the_constrained_likelihood_ratio() -> None:
    """16,700 draws and nothing else, elo0=0 elo1=5 normalized: the brute-force constrained maxima
    give -3.45 (H1 is less likely than H0 given only draws). fastchess's test suite expects +2.97
    for the same counts; its fixed-point iteration stops at a 1e-4 change, from a uniform start,
    which this degenerate case does not survive. congo follows the likelihoods."""
    total, probs = _regularized([0, 16700, 0])
    scale = 800 / math.log(10)
    expected = total * (_best_trinomial_t_value(probs, 5 / scale) - _best_trinomial_t_value(probs, 0.0))
    assert expected == pytest.approx(-3.45, abs=0.01)
    assert SPRT(0, 5, model="normalized").llr_trinomial(0, 16700, 0) == pytest.approx(expected, abs=1e-3)


def test_absurd_counts_are_a_clear_error_never_a_crash() -> None:
    """Review: [0, 0, 10**200, 0, 1] raised ZeroDivisionError (the standard error underflowed to
    0) and 10**400 pairs an OverflowError; up to 2**53 every value is computed."""
    test = SPRT()
    for counts in ([0, 0, 10**200, 0, 1], [10**400, 0, 0, 0, 10**400], [0, 0, 0, 0, 2**53 + 1]):
        with pytest.raises(ValueError, match="at most"):
            stats.elo_pentanomial(counts)
        with pytest.raises(ValueError, match="at most"):
            test.llr_pentanomial(counts)
    with pytest.raises(ValueError, match="at most"):
        stats.elo_trinomial(10**400, 0, 1)
    for counts in ([0, 0, 2**53, 0, 1], [2**53, 2**53, 2**53, 2**53, 2**53], [1, 0, 0, 0, 2**53]):
        estimate = stats.elo_pentanomial(counts)
        assert math.isfinite(estimate.score)
        assert estimate.los is None or 0 <= estimate.los <= 1
        assert math.isfinite(test.llr_pentanomial(counts))
    assert math.isfinite(test.llr_trinomial(2**53, 2**53, 2**53))


@pytest.mark.parametrize("model", ["logistic", "normalized"])
def test_one_sided_counts_up_to_the_largest_give_the_limit_llr(model: str) -> None:
    """One-sided counts (every game or pair the same result) from 2**44 raised ZeroDivisionError,
    and from about 2**38 the LLR lost its sign to rounding. The LLR per sample tends to a limit as
    the count grows (the regularized outcomes fade); it must stay there, not drift from it."""
    test = SPRT(0, 10, model=model)
    # Each with the sign of its LLR: wins favour H1 (+10 Elo), losses and draws (a score of ½) H0.
    cases: list[tuple[str, int, Callable[[int], float]]] = [
        ("all wins", 1, lambda n: test.llr_trinomial(n, 0, 0)),
        ("all losses", -1, lambda n: test.llr_trinomial(0, 0, n)),
        ("all draws", -1, lambda n: test.llr_trinomial(0, n, 0)),
        ("all pairs won", 1, lambda n: test.llr_pentanomial([0, 0, 0, 0, n])),
        ("all pairs lost", -1, lambda n: test.llr_pentanomial([n, 0, 0, 0, 0])),
        ("all pairs drawn", -1, lambda n: test.llr_pentanomial([0, 0, n, 0, 0])),
    ]
    for name, sign, llr in cases:
        # Near the limit from 2**36 on (all draws in normalized Elo come slowest: 10⁻¹⁰ off there).
        limit = llr(2**36) / 2**36
        assert limit * sign > 0, name
        for bits in range(37, 54):
            per_sample = llr(2**bits) / 2**bits
            assert per_sample == pytest.approx(limit, rel=1e-6), f"{name}, 2**{bits}"


def test_the_interval_agrees_with_the_delta_method_for_many_games() -> None:
    """Independent check: for many games the interval's half-width in Elo is the delta method's,
    1.96 · se · dElo/ds with dElo/ds = 400 / (ln 10 · s (1 - s))."""
    for wins, draws, losses in ((2600, 5000, 2400), (4000, 1000, 5000), (3000, 6500, 500)):
        games = wins + draws + losses
        s = (wins + draws / 2) / games
        variance = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s**2) / games
        slope = 400 / (math.log(10) * s * (1 - s))
        delta = stats.Z95 * math.sqrt(variance / games) * slope
        estimate = stats.elo_trinomial(wins, draws, losses)
        assert estimate.error == pytest.approx(delta, rel=0.01)
        assert estimate.elo == pytest.approx(-400 * math.log10((1 - s) / s))


def test_trinomial_los_is_close_to_the_common_formula() -> None:
    """LOS here is Φ((s - ½)/se) (fastchess); the common formula Φ((W - L)/√(W + L)) (cutechess,
    the chessprogramming wiki) differs only by (W - L)²/N in the variance: close when W - L is small
    against N, equal for a match of 1 win 1 loss, and both ½ for W = L."""
    for wins, draws, losses in ((60, 100, 40), (510, 0, 490), (1030, 8000, 970), (7, 7, 7)):
        common = 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))
        games = wins + draws + losses
        by_hand = 0.5 * (
            1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses - (wins - losses) ** 2 / games)))
        )
        los = stats.los_trinomial(wins, draws, losses)
        assert los == pytest.approx(by_hand)
        assert los == pytest.approx(common, abs=0.01)


def test_sprt_bounds_and_a_hand_computed_llr() -> None:
    """Bounds from first principles, and the LLR of wins and losses only: with no draws seen (a
    draw counted as 0.001 of a game) the constrained maxima are nearly Bernoulli(p0), Bernoulli(p1),
    so LLR ≈ W ln(p1/p0) + L ln((1-p1)/(1-p0))."""
    test = SPRT(elo0=-5, elo1=5, alpha=0.1, beta=0.2)
    assert test.lower_bound == pytest.approx(math.log(0.2 / 0.9))
    assert test.upper_bound == pytest.approx(math.log(0.8 / 0.1))
    p0, p1 = stats.expected_score(-5), stats.expected_score(5)
    wins, losses = 600, 400
    by_hand = wins * math.log(p1 / p0) + losses * math.log((1 - p1) / (1 - p0))
    assert test.llr_trinomial(wins, 0, losses) == pytest.approx(by_hand, abs=0.01)
    assert test.decision(by_hand) == "H1"
    assert test.llr_trinomial(0, 0, 0) == 0.0
