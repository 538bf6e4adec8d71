"""Match statistics: the Elo difference with a 95 % interval, the likelihood of superiority and the
sequential probability ratio test (SPRT), as engine testers (fishtest, fastchess, cutechess) compute
them. Pure Python, no dependency; used by :mod:`congo.match` and ``congo match``.

Two ways of counting results:

* the **trinomial**: each game on its own, a loss, a draw or a win (0, ½ or 1 point);
* the **pentanomial**: games in *pairs* on the same opening with colours swapped, each pair one of
  five outcomes, 0, ½, 1, 1½ or 2 points (two losses; a loss and a draw; two draws or a win and a
  loss; a win and a draw; two wins). The two games of a pair are correlated (the opening favours one
  colour), so the trinomial's variance is wrong for paired games — usually too large; the pentanomial
  counts each pair as one sample and gets it right (M. Van den Bergh, "A practical introduction to
  the GSPRT", and fishtest since 2019).

**Elo** is the logistic Elo: a score fraction ``s`` means ``-400 log10(1/s - 1)`` Elo. The interval
is the normal approximation on the mean score of the samples (games or pairs): ``s ± 1.96 sd/√N``
with ``sd`` the samples' standard deviation, each end turned into Elo (the interval is not symmetric
in Elo; ``±`` prints half its width, as fastchess does). It is not defined — :attr:`EloEstimate.interval`
is ``None``, printed "too few games" — when there is fewer than two samples, when every sample is the
same (no variance: two draws), or when an end of the score interval reaches 0 or 1 (infinite Elo).

The **likelihood of superiority** (LOS) is the probability that the first player is the stronger
under that same normal approximation: ``Φ((s - ½) / (sd/√N))``; ``None`` where the interval is not
defined for lack of variance.

The **SPRT** (:class:`SPRT`) tests H0: Elo = ``elo0`` against H1: Elo = ``elo1`` with error rates
``alpha`` (accepting H1 when H0 holds) and ``beta`` (the converse). After each sample it compares
the log-likelihood ratio (LLR) with the bounds ``ln(beta / (1 - alpha))`` and
``ln((1 - beta) / alpha)``: below the lower, H0 is accepted; above the upper, H1. The LLR is the
*generalized* one (GSPRT) of fishtest and fastchess: for each hypothesis the distribution over the
outcomes (three or five) that is most likely given the observed frequencies among those whose
expected score is the hypothesis's score, and the LLR is the log of their likelihood ratio,
``N · Σ p̂ᵢ ln(p₁ᵢ / p₀ᵢ)``. That constrained maximum is ``pᵢ = p̂ᵢ / (1 + θ (aᵢ - s))`` with ``aᵢ``
the outcome scores and ``θ`` the root of ``Σ p̂ᵢ (aᵢ - s) / (1 + θ (aᵢ - s)) = 0`` (M. Van den
Bergh, "Comments on normalized Elo", proposition 1.1), found here by bisection. An outcome never
seen counts as 0.001 of a sample (as fishtest and fastchess regularize), so that the maximum exists.

``elo0`` and ``elo1`` are logistic Elo by default (``model="logistic"``), the unit that the rest of
this module and ``congo match`` print. ``model="normalized"`` takes them in normalized Elo (fishtest's
default since 2020: the expected score's distance from ½ divided by its standard deviation, scaled
so that for small differences and no draws it equals logistic Elo), whose constrained maximum is
found by the fixed-point iteration of the same paper (section 4). Normalized Elo bounds mean the same
thing at any draw rate; logistic bounds are easier to read, and the interval ``congo match`` prints
is in logistic Elo — hence the default.

>>> from congo.stats import SPRT, elo_pentanomial
>>> print(elo_pentanomial([1, 4, 10, 6, 3]))
Elo +44 ± 72 (95 %, 24 pairs)
>>> test = SPRT(elo0=0, elo1=10)
>>> print(test.status(test.llr_pentanomial([1, 4, 10, 6, 3])))
LLR: 0.29 (-2.94, 2.94) [0.00, 10.00]
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence

__all__ = [
    "PENTANOMIAL_SCORES",
    "SPRT",
    "TRINOMIAL_SCORES",
    "EloEstimate",
    "Measured",
    "Rating",
    "elo_from_score",
    "elo_lower_bound",
    "elo_pentanomial",
    "elo_trinomial",
    "expected_score",
    "fit_ratings",
    "los_pentanomial",
    "los_trinomial",
    "measure_match",
    "normalized_elo_pentanomial",
]

TRINOMIAL_SCORES = (0.0, 0.5, 1.0)
"""The score of a loss, a draw and a win."""

PENTANOMIAL_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""The score fraction of a pair of games worth 0, ½, 1, 1½ and 2 points."""

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the standard normal distribution."""

MAX_COUNT = 2**53
"""The largest count accepted (exact as a float; far beyond any match, and it keeps every
intermediate value of the arithmetic finite and nonzero)."""

_REGULARIZE = 1e-3
"""What an outcome never seen counts for in the SPRT (fishtest and fastchess use the same)."""

_NELO_SCALE = 800 / math.log(10)
"""Normalized Elo per unit of t-value (``(s - ½) / sd``)."""

_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
"""A decimal number in ASCII, as ``--sprt`` takes it."""


def expected_score(elo: float) -> float:
    """The expected score fraction of a player ``elo`` logistic Elo stronger: ``1 / (1 + 10^(-elo/400))``."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_from_score(score: float) -> float:
    """The logistic Elo difference of a score fraction: ``-400 log10(1/score - 1)``; ``±inf`` at 1 and 0.

    Raises ``ValueError`` for a score outside 0 … 1."""
    if not 0 <= score <= 1:
        raise ValueError(f"a score fraction is from 0 to 1, got {score}")
    if score == 0:
        return -math.inf
    if score == 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def _format_elo(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    text = f"{value:+.0f}"
    return "0" if text in ("+0", "-0") else text


@dataclasses.dataclass(frozen=True)
class EloEstimate:
    """An Elo difference measured from results, with its 95 % interval where one is defined."""

    elo: float
    """The point estimate, logistic Elo (``±inf`` for a score of 100 % or 0 %; ``nan`` without results)."""
    interval: tuple[float, float] | None
    """The 95 % interval in Elo, or ``None``: too few results (see the module docs)."""
    score: float
    """The mean score fraction (``nan`` without results)."""
    samples: int
    """How many samples: games (trinomial) or game pairs (pentanomial)."""
    paired: bool
    """Whether the samples are game pairs (pentanomial)."""
    los: float | None
    """The likelihood of superiority, 0 … 1, or ``None`` where not defined."""

    @property
    def error(self) -> float | None:
        """Half the interval's width in Elo (what ``±`` prints), or ``None``."""
        return None if self.interval is None else (self.interval[1] - self.interval[0]) / 2

    def __str__(self) -> str:
        unit = ("pair" if self.paired else "game") + "s" * (self.samples != 1)
        if self.samples == 0:
            return "Elo: no games"
        if self.interval is None or self.error is None:
            return f"Elo {_format_elo(self.elo)} (too few games for an interval, {self.samples} {unit})"
        return f"Elo {_format_elo(self.elo)} ± {self.error:.0f} (95 %, {self.samples} {unit})"


def _mean_variance(scores: Sequence[float], counts: Sequence[float]) -> tuple[float, float, float]:
    total = float(sum(counts))
    mean = sum(a * n for a, n in zip(scores, counts)) / total
    variance = sum(n * (a - mean) ** 2 for a, n in zip(scores, counts)) / total
    return total, mean, variance


def _check_counts(counts: Sequence[int], size: int, what: str) -> list[int]:
    values = list(counts)
    if len(values) != size:
        raise ValueError(f"{what} takes {size} counts, got {len(values)}")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{what} counts must be ints, got {type(value).__name__}")
        if value < 0:
            raise ValueError(f"{what} counts must not be negative, got {value}")
        if value > MAX_COUNT:
            raise ValueError(f"{what} counts must be at most 2**53, got one of {value.bit_length()} bits")
    return values


def _estimate(scores: Sequence[float], counts: Sequence[int], paired: bool) -> EloEstimate:
    samples = sum(counts)
    if samples == 0:
        return EloEstimate(math.nan, None, math.nan, 0, paired, None)
    _, mean, variance = _mean_variance(scores, counts)
    elo = elo_from_score(min(1.0, max(0.0, mean)))
    if samples < 2 or variance <= 0:
        return EloEstimate(elo, None, mean, samples, paired, None)
    error = math.sqrt(variance / samples)
    los = 0.5 * (1 + math.erf((mean - 0.5) / (error * math.sqrt(2))))
    low, high = mean - Z95 * error, mean + Z95 * error
    interval = None
    if low > 0 and high < 1:
        interval = (elo_from_score(low), elo_from_score(high))
    return EloEstimate(elo, interval, mean, samples, paired, los)


def elo_trinomial(wins: int, draws: int, losses: int) -> EloEstimate:
    """The Elo difference (first player minus second) from games counted one by one."""
    losses, draws, wins = _check_counts([losses, draws, wins], 3, "a trinomial")
    return _estimate(TRINOMIAL_SCORES, [losses, draws, wins], paired=False)


def elo_pentanomial(counts: Sequence[int]) -> EloEstimate:
    """The Elo difference from game pairs: ``counts`` of pairs worth 0, ½, 1, 1½ and 2 points to the
    first player, in that order (fastchess's ``Ptnml(0-2)``)."""
    return _estimate(PENTANOMIAL_SCORES, _check_counts(counts, 5, "a pentanomial"), paired=True)


def los_trinomial(wins: int, draws: int, losses: int) -> float | None:
    """The likelihood of superiority from games counted one by one (``None``: no variance)."""
    return elo_trinomial(wins, draws, losses).los


def los_pentanomial(counts: Sequence[int]) -> float | None:
    """The likelihood of superiority from game pairs (``None``: no variance)."""
    return elo_pentanomial(counts).los


def normalized_elo_pentanomial(counts: Sequence[int]) -> tuple[float, float] | None:
    """Normalized Elo (fishtest's and fastchess's ``nElo``) from game pairs, with half its 95 %
    interval: the mean pair score's distance from ½ over the per-game standard deviation
    (``√2`` times a pair's), times ``800 / ln 10``; the interval is ``±1.96 · 800 / ln 10 / √(2N)``
    for ``N`` pairs. ``None`` where it is not defined: fewer than two pairs, or no variance (every
    pair the same)."""
    values = _check_counts(counts, 5, "a pentanomial")
    pairs, mean, variance = _mean_variance(PENTANOMIAL_SCORES, values) if sum(values) else (0.0, 0.5, 0.0)
    if pairs < 2 or variance <= 0:
        return None
    nelo = (mean - 0.5) / math.sqrt(2 * variance) * _NELO_SCALE
    return nelo, Z95 * _NELO_SCALE / math.sqrt(2 * pairs)


def elo_lower_bound(counts: Sequence[int]) -> float:
    """A one-sided 95 % lower bound on the Elo of the first player over the second from game pairs
    (counts of 0, ½, 1, 1½, 2 points), for where the interval is not defined (a score at or near
    100 %): the lowest mean pair score ``s`` whose one-sided 95 % interval ``s + 1.645 sd/√N`` still
    reaches the observed mean, with the variance of a pair score of mean ``s`` bounded by
    ``s (1 - s)`` (a score in 0 … 1); for ``N`` pairs all won this is ``s = N / (N + 2.7)``.
    Negative (an upper bound on the loss) when the first player scored below half; ``-inf``
    without pairs."""
    values = _check_counts(counts, 5, "a pentanomial")
    pairs = sum(values)
    if pairs == 0:
        return -math.inf
    mean = sum(c * k / 4 for k, c in enumerate(values)) / pairs
    if mean < 0.5:
        return -elo_lower_bound(values[::-1])
    z = 1.645
    # Solve s + z sqrt(s (1 - s) / N) = mean for s (the smaller root is below mean).
    low, high = 0.0, mean
    for _ in range(100):
        mid = (low + high) / 2
        if mid + z * math.sqrt(mid * (1 - mid) / pairs) < mean:
            low = mid
        else:
            high = mid
    return elo_from_score(low) if low > 0 else -math.inf


# -- the generalized SPRT ------------------------------------------------------------------------------


def _root_denominators(probs: Sequence[float], shifts: Sequence[float]) -> list[float]:
    """The denominators ``1 + θ dᵢ`` at the root ``θ`` of ``Σ pᵢ dᵢ / (1 + θ dᵢ) = 0``, a decreasing
    function on the interval where every denominator is positive (``shifts`` has a positive and a
    negative value, ``probs`` are positive); found by bisection.

    The root lies next to an end of that interval when an outcome is rare (an outcome never seen
    counts 0.001 of a sample, so with 2**44 one-sided samples its frequency is about 10⁻¹⁷): there
    ``1 + θ dᵢ`` of the outcome that sets that end is far below the precision of ``θ`` itself, and
    computed from ``θ`` it was 0 (a ``ZeroDivisionError``) or a sum of rounding errors (an LLR of the
    wrong sign from about 2**38 samples). So ``θ`` is kept as its distance from each end, and each
    end's own outcome takes its denominator from that distance, exactly."""
    top, bottom = shifts.index(max(shifts)), shifts.index(min(shifts))
    low, high = -1 / shifts[top], -1 / shifts[bottom]  # the ends: denominators of 0
    width = high - low

    def denominators(above_low: float, below_high: float) -> list[float]:
        return [
            above_low * d if i == top else -below_high * d if i == bottom else 1 + (low + above_low) * d
            for i, d in enumerate(shifts)
        ]

    # The bracket, as distances from the low end (x) and from the high end (y) of each side.
    x_lo, y_lo, x_hi, y_hi = 0.0, width, width, 0.0
    for _ in range(2000):
        x_mid, y_mid = (x_lo + x_hi) / 2, (y_lo + y_hi) / 2
        if x_mid in (x_lo, x_hi) and y_mid in (y_lo, y_hi):
            break
        slope = sum(p * d / q for p, d, q in zip(probs, shifts, denominators(x_mid, y_mid)))
        if slope > 0:
            x_lo, y_lo = x_mid, y_mid
        else:
            x_hi, y_hi = x_mid, y_mid
    # Strictly inside: each end's denominator is a positive distance, never 0.
    x = max((x_lo + x_hi) / 2, math.ulp(0.0))
    y = max((y_lo + y_hi) / 2, math.ulp(0.0))
    return denominators(x, y)


def _mle_mean(scores: Sequence[float], probs: Sequence[float], target: float) -> list[float]:
    """The distribution over ``scores`` of mean ``target`` that is most likely given the observed
    frequencies ``probs`` (all positive): ``pᵢ / (1 + θ (aᵢ - target))`` (see
    :func:`_root_denominators`)."""
    shifts = [a - target for a in scores]
    mle = [p / q for p, q in zip(probs, _root_denominators(probs, shifts))]
    total = sum(mle)
    return [q / total for q in mle]


def _mle_t_value(scores: Sequence[float], probs: Sequence[float], t_value: float) -> list[float]:
    """The most likely distribution given ``probs`` among those with ``(mean - ½) / sd = t_value``:
    the fixed-point iteration of Van den Bergh, "Comments on normalized Elo", section 4."""
    mle = [1 / len(scores)] * len(scores)
    for _ in range(1000):
        _, mean, variance = _mean_variance(scores, mle)
        sigma = math.sqrt(variance)
        phi = [a - 0.5 - 0.5 * t_value * sigma * (1 + ((a - mean) / sigma) ** 2) for a in scores]

        new = [p / q for p, q in zip(probs, _root_denominators(probs, phi))]
        change = max(abs(a - b) for a, b in zip(new, mle))
        mle = new
        if change < 1e-9:
            break
    total = sum(mle)
    return [q / total for q in mle]


@dataclasses.dataclass(frozen=True)
class SPRT:
    """A sequential probability ratio test of H0: Elo = ``elo0`` against H1: Elo = ``elo1`` with
    false-positive rate ``alpha`` and false-negative rate ``beta`` (see the module docs).

    Raises ``ValueError`` unless ``elo0 < elo1``, ``0 < alpha, beta`` and ``alpha + beta < 1``, and
    ``model`` is ``"logistic"`` or ``"normalized"``."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"SPRT {name} must be a number, got {type(value).__name__}")
            if not math.isfinite(value):
                raise ValueError(f"SPRT {name} must be finite, got {value}")
        if not -1000 <= self.elo0 < self.elo1 <= 1000:
            raise ValueError(
                f"SPRT needs elo0 < elo1 (within ±1000), got elo0={self.elo0:g} elo1={self.elo1:g}"
            )
        if not (0 < self.alpha < 1 and 0 < self.beta < 1 and self.alpha + self.beta < 1):
            raise ValueError(
                "SPRT needs 0 < alpha, 0 < beta, alpha + beta < 1, "
                f"got alpha={self.alpha:g} beta={self.beta:g}"
            )
        if self.model not in ("logistic", "normalized"):
            raise ValueError(f"SPRT model must be 'logistic' or 'normalized', got {self.model!r}")

    @classmethod
    def parse(cls, text: str | Sequence[str]) -> SPRT:
        """From ``"elo0=0 elo1=10 alpha=0.05 beta=0.05"`` (words or a list of them; commas also
        separate; any key may be left out for its default; ``model=normalized`` switches the unit).
        Numbers are written in ASCII: digits, an optional sign, point and exponent (not the other
        scripts' digits, underscores or ``inf`` that ``float`` would take). Raises ``ValueError``
        for an unknown key, a key given twice, or a bad value."""
        words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        settings: dict[str, object] = {}
        for word in (part for item in words for part in item.replace(",", " ").split()):
            key, sep, value = word.partition("=")
            if not sep:
                raise ValueError(
                    f"--sprt expects key=value words (elo0, elo1, alpha, beta, model), got {word!r}"
                )
            if key in settings:
                raise ValueError(f"--sprt gives {key} twice: give each key once")
            if key == "model":
                settings[key] = value
            elif key in ("elo0", "elo1", "alpha", "beta"):
                if not _NUMBER.fullmatch(value):
                    raise ValueError(f"--sprt {key}={value!r} is not a number")
                settings[key] = float(value)
            else:
                raise ValueError(f"--sprt has no key {key!r}: expected elo0, elo1, alpha, beta or model")
        return cls(**settings)  # type: ignore[arg-type]

    @property
    def lower_bound(self) -> float:
        """``ln(beta / (1 - alpha))``: an LLR at or below it accepts H0."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper_bound(self) -> float:
        """``ln((1 - beta) / alpha)``: an LLR at or above it accepts H1."""
        return math.log((1 - self.beta) / self.alpha)

    def _llr(self, scores: Sequence[float], counts: Sequence[int]) -> float:
        if sum(counts) == 0:
            return 0.0
        regularized = [float(n) if n else _REGULARIZE for n in counts]
        total = sum(regularized)
        probs = [n / total for n in regularized]
        if self.model == "logistic":
            p0 = _mle_mean(scores, probs, expected_score(self.elo0))
            p1 = _mle_mean(scores, probs, expected_score(self.elo1))
        else:
            # A pair's t-value is √2 times a game's for the same normalized Elo (fastchess, fishtest).
            factor = math.sqrt(2) if len(scores) == 5 else 1.0
            p0 = _mle_t_value(scores, probs, factor * self.elo0 / _NELO_SCALE)
            p1 = _mle_t_value(scores, probs, factor * self.elo1 / _NELO_SCALE)
        return total * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1))

    def llr_trinomial(self, wins: int, draws: int, losses: int) -> float:
        """The log-likelihood ratio of H1 to H0 from games counted one by one."""
        counts = _check_counts([losses, draws, wins], 3, "a trinomial")
        return self._llr(TRINOMIAL_SCORES, counts)

    def llr_pentanomial(self, counts: Sequence[int]) -> float:
        """The log-likelihood ratio of H1 to H0 from game pairs (counts of 0, ½, 1, 1½, 2 points)."""
        return self._llr(PENTANOMIAL_SCORES, _check_counts(counts, 5, "a pentanomial"))

    def decision(self, llr: float) -> str | None:
        """``"H1"`` (the LLR reached the upper bound), ``"H0"`` (the lower) or ``None`` (go on)."""
        if llr >= self.upper_bound:
            return "H1"
        if llr <= self.lower_bound:
            return "H0"
        return None

    def status(self, llr: float) -> str:
        """The line fishtest and fastchess print: ``LLR: 2.95 (-2.94, 2.94) [0.00, 10.00]``."""
        unit = "" if self.model == "logistic" else " normalized"
        return (
            f"LLR: {llr:.2f} ({self.lower_bound:.2f}, {self.upper_bound:.2f}) "
            f"[{self.elo0:.2f}, {self.elo1:.2f}]{unit}"
        )

    def __str__(self) -> str:
        model = "" if self.model == "logistic" else " model=normalized"
        return f"elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g}{model}"


# -- ratings from many matches -------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Measured:
    """One match's Elo difference ``first - second`` and its standard error, or a lower bound
    (what :func:`fit_ratings` takes; :func:`measure_match` makes one from pairs)."""

    first: str
    second: str
    elo: float
    sigma: float | None
    """The standard error in Elo; ``None``: no interval, ``elo`` is then the lower bound."""
    bound: float | None = None
    """For a match without an interval: the one-sided 95 % lower bound on ``first - second``."""


def measure_match(first: str, second: str, pentanomial: Sequence[int]) -> Measured:
    """The Elo difference of a match from its pentanomial counts (:func:`elo_pentanomial`) and its
    standard error: half the printed 95 % interval over 1.96 (so a lopsided match, whose interval is
    wide on the strong side, counts for little); where no interval is defined, the one-sided lower
    bound of :func:`elo_lower_bound` instead."""
    counts = list(pentanomial)
    estimate = elo_pentanomial(counts)
    if estimate.interval is None or not 0 < estimate.score < 1:
        bound = elo_lower_bound(counts)
        return Measured(first, second, bound, None, bound)
    assert estimate.error is not None
    return Measured(first, second, estimate.elo, estimate.error / Z95)


@dataclasses.dataclass(frozen=True)
class Rating:
    """A player's fitted Elo (:func:`fit_ratings`)."""

    key: str
    elo: float
    error: float | None
    """Half the 95 % interval; ``None`` for the anchor."""
    at_least: bool = False
    """Placed through a lower bound: ``elo`` is a lower bound, ``error`` the interval relative to it."""
    at_most: bool = False
    """Placed through the other side of such a bound (a player that lost every pair, or scored too
    evenly for an interval, against a placed one): ``elo`` is an upper bound."""


def _invert(matrix: list[list[float]], size: int) -> list[list[float]]:
    """The inverse of a symmetric positive-definite matrix (Gauss-Jordan, partial pivoting)."""
    work = [row[:] + [1.0 if i == j else 0.0 for j in range(size)] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(work[r][col]))
        if abs(work[pivot][col]) < 1e-300:
            raise ValueError("the matches do not connect every player to the anchor")
        work[col], work[pivot] = work[pivot], work[col]
        factor = work[col][col]
        work[col] = [value / factor for value in work[col]]
        for row in range(size):
            if row != col and work[row][col] != 0.0:
                scale = work[row][col]
                work[row] = [a - scale * b for a, b in zip(work[row], work[col])]
    return [row[size:] for row in work]


def _wls(keys: Sequence[str], anchor: str, matches: Sequence[Measured]) -> dict[str, tuple[float, float]]:
    """Weighted least squares over ``matches`` (all with a ``sigma``) of the ratings of ``keys``
    with ``anchor`` fixed at 0: each key's rating and standard error."""
    free = [key for key in keys if key != anchor]
    index = {key: i for i, key in enumerate(free)}
    size = len(free)
    normal = [[0.0] * size for _ in range(size)]
    rhs = [0.0] * size
    for m in matches:
        assert m.sigma is not None
        weight = 1 / m.sigma**2
        row = [0.0] * size
        if m.first in index:
            row[index[m.first]] += 1.0
        if m.second in index:
            row[index[m.second]] -= 1.0
        for i in range(size):
            rhs[i] += weight * row[i] * m.elo
            for j in range(size):
                normal[i][j] += weight * row[i] * row[j]
    covariance = _invert(normal, size) if size else []
    ratings = {anchor: (0.0, 0.0)}
    for key, i in index.items():
        value = sum(covariance[i][j] * rhs[j] for j in range(size))
        ratings[key] = (value, math.sqrt(max(covariance[i][i], 0.0)))
    return ratings


def _components(keys: Sequence[str], matches: Sequence[Measured]) -> list[set[str]]:
    parent = {key: key for key in keys}

    def root(key: str) -> str:
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    for m in matches:
        parent[root(m.first)] = root(m.second)
    groups: dict[str, set[str]] = {}
    for key in parent:
        groups.setdefault(root(key), set()).add(key)
    return list(groups.values())


def fit_ratings(keys: Sequence[str], matches: Sequence[Measured], anchor: str) -> list[Rating]:
    """Each player's Elo relative to ``anchor`` (rated 0) with half its 95 % interval, from any set
    of matches between them, as ``benches/ladder.py`` rates its ladder and ``congo tournament`` its
    players.

    Weighted least squares over the matches with an interval: the ratings ``r`` minimise
    ``Σ ((r_a - r_b - d) / sigma)²`` over the matches ``(a, b)`` of measured difference ``d`` and
    standard error ``sigma``, and a rating's 95 % interval is ``± 1.96 √C_ii`` with ``C = (AᵀWA)⁻¹``,
    the covariance of the fit. Along a chain of matches this is the sum of the differences, the
    variances added; with cross-matches it weighs each path by its precision. Groups of players
    linked to the anchor's group only by matches without an interval (a match won outright) are
    placed, in ``keys`` order, by the largest lower bound among those matches whose winner
    (``first``) is in the group (``at_least``); their intervals are then relative to that placement.
    A group linked only through the losing side of such matches (``second``: a player that lost every
    pair against a placed one, or drew every pair) is placed by the smallest upper bound they give
    (``at_most``), so that a gauntlet's weaker opponents are placed too. Players connected to
    nothing are left out."""
    defined = [m for m in matches if m.sigma is not None]
    bounds = [m for m in matches if m.sigma is None and m.bound is not None and m.bound > -math.inf]
    played = {k for m in matches for k in (m.first, m.second)}
    groups = _components([k for k in keys if k in played or k == anchor], defined)
    group_of = {key: i for i, group in enumerate(groups) for key in group}
    placed: dict[str, Rating] = {}

    def fit_group(group: set[str], base: str, offset: float, at_least: bool, at_most: bool = False) -> None:
        inside = [m for m in defined if m.first in group and m.second in group]
        for key, (value, se) in _wls([k for k in keys if k in group], base, inside).items():
            error = None if key == anchor else Z95 * se
            placed[key] = Rating(key, offset + value, error, at_least, at_most)

    fit_group(groups[group_of[anchor]], anchor, 0.0, False)
    changed = True
    while changed:
        changed = False
        for group in groups:
            if any(k in placed for k in group):
                continue
            # The strongest claim from a bound whose weaker side is already placed.
            best: tuple[float, str] | None = None
            for m in bounds:
                if m.first in group and m.second in placed and m.bound is not None:
                    candidate = placed[m.second].elo + m.bound
                    if best is None or candidate > best[0]:
                        best = (candidate, m.first)
            if best is not None:
                fit_group(group, best[1], best[0], True)
                changed = True
                continue
            # Else the tightest claim from a bound whose stronger side is placed: at most that.
            for m in bounds:
                if m.second in group and m.first in placed and m.bound is not None:
                    candidate = placed[m.first].elo - m.bound
                    if best is None or candidate < best[0]:
                        best = (candidate, m.second)
            if best is not None:
                fit_group(group, best[1], best[0], False, True)
                changed = True
    return [placed[key] for key in keys if key in placed]
