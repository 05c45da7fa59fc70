"""Statistics of a bias tally: is this shuffle biased, and how sure can we be?

A tally is an n × n list of counts: ``tally[i][j]`` = how many of N shuffles of a deck
starting in order (card i at position i) put card i at position j. Every shuffle adds a
permutation matrix, so every row and every column sums to N.

Tests (all p-values from ``chi2_sf``, the regularized upper incomplete gamma function):

* **Against uniform**: X² = Σ (O − E)² / E with E = N/n. The cells are not independent
  (rows and columns are fixed at N): one uniform shuffle's indicator matrix has
  covariance (1/(n−1))·(I − J/n)⊗(I − J/n), a projection of rank (n−1)² scaled by
  1/(n−1), so X² → (n/(n−1))·χ²((n−1)²). We report X²·(n−1)/n on (n−1)² degrees of
  freedom; its mean is exactly (n−1)² for every N.
* **Against an exact matrix** P: row i of the tally is exactly Multinomial(N, P[i]),
  since each shuffle places card i independently of the others. Each row gets a
  Pearson test (cells with expectation below 5 pooled, df = bins − 1); a count in a
  cell the model says is impossible is a certain mismatch. The n row p-values are
  combined by Bonferroni: p = min(1, n · min pᵢ), valid however the rows depend.
* **Fixed points**: the histogram of fixed points per shuffle against the rencontres
  probabilities D(n, k)/n!, by Pearson with the small tail bins pooled, together with
  the exact probability that every shuffle was a derangement (which is how Sattolo's
  algorithm shows itself at once); the two are combined by Bonferroni (×2).

Verdicts. The page re-tests every time it redraws, for as long as the tally runs, and a
fixed significance level crossed "eventually" is a false alarm waiting to happen:
repeated tests on accumulating data inflate the error rate without bound (Armitage,
McPherson & Rowe 1969; by the law of the iterated logarithm any fixed level is crossed
with probability 1 if one waits forever). So "biased" needs p < 1e-9: by the union
bound, even 4 redraws a second for 8 hours (115,200 looks) keep the chance of any false
alarm below 1.2e-4, and the looks are so correlated that the true rate is far smaller.
p < 1e-3 is "suspicious" (worth watching, never called biased), and nothing is said
before every cell expects at least 5 counts, where the chi-square approximation holds.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Sequence

BIASED_P = 1e-9
SUSPICIOUS_P = 1e-3
MIN_EXPECTED = 5.0
LOOKS_PER_SESSION = 4 * 60 * 60 * 8  # 4 redraws a second for 8 hours, for the union bound above

_EPSILON = 1e-16
_MAX_ITERATIONS = 100_000
_TINY = 1e-300
_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


# --- the chi-square tail -----------------------------------------------------------------


def chi2_sf(statistic: float, df: float) -> float:
    """Return P(χ²(df) ≥ statistic), accurate to about 1e-12 relative (0.0 once it underflows)."""
    return math.exp(chi2_log_sf(statistic, df))


def chi2_log_sf(statistic: float, df: float) -> float:
    """Return ln P(χ²(df) ≥ statistic), finite far below the smallest float p-value."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, not {df}")
    return log_gamma_q(df / 2, statistic / 2)


def gamma_q(a: float, x: float) -> float:
    """Return the regularized upper incomplete gamma function Q(a, x) = Γ(a, x)/Γ(a)."""
    return math.exp(log_gamma_q(a, x))


def log_gamma_q(a: float, x: float) -> float:
    """Return ln Q(a, x): a series below x = a + 1, a continued fraction above (Numerical Recipes §6.2)."""
    if a <= 0:
        raise ValueError(f"Q(a, x) needs a > 0, not {a}")
    if x <= 0:
        return 0.0
    if x < a + 1:
        # here Q ≥ about 1/2 for large a, so 1 − P loses nothing that matters
        return math.log1p(-_gamma_p_series(a, x))
    return _log_gamma_q_fraction(a, x)


def _gamma_p_series(a: float, x: float) -> float:
    term = total = 1.0 / a
    denominator = a
    for _ in range(_MAX_ITERATIONS):
        denominator += 1
        term *= x / denominator
        total += term
        if term < total * _EPSILON:
            return min(1.0, total * math.exp(_log_power_over_gamma(a, x)))
    raise ArithmeticError(f"the gamma series did not converge for a={a}, x={x}")


def _log_gamma_q_fraction(a: float, x: float) -> float:
    # modified Lentz evaluation of Γ(a, x) e^x x^−a
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, _MAX_ITERATIONS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < _EPSILON:
            return math.log(h) + _log_power_over_gamma(a, x)
    raise ArithmeticError(f"the gamma continued fraction did not converge for a={a}, x={x}")


def _log_power_over_gamma(a: float, x: float) -> float:
    """Return ln(x^a e^−x / Γ(a)) without the cancellation of its large terms."""
    if a < 10:
        return a * math.log(x) - x - math.lgamma(a)
    # a·ln x − x − lnΓ(a) = a·(ln(1+u) − u) + (a ln a − a − lnΓ(a)), u = (x − a)/a,
    # and the last bracket is ½ln(a/2π) minus Stirling's small correction
    u = (x - a) / a
    return a * _log1p_minus(u) + 0.5 * math.log(a) - _LOG_SQRT_2PI - _stirling_correction(a)


def _log1p_minus(u: float) -> float:
    """Return ln(1 + u) − u, accurately even for small u."""
    if abs(u) > 0.25:
        return math.log1p(u) - u
    if u == 0:
        return 0.0
    # −u²/2 + u³/3 − u⁴/4 + …
    total, power, k = 0.0, u * u, 2
    while True:
        term = power / k
        total += -term if k % 2 == 0 else term
        if abs(term) <= 1e-17 * abs(total):
            return total
        power *= u
        k += 1


def _stirling_correction(a: float) -> float:
    """Return lnΓ(a) − [(a − ½)ln a − a + ½ln 2π] for a ≥ 10."""
    inverse = 1 / a
    square = inverse * inverse
    return inverse * (1 / 12 - square * (1 / 360 - square * (1 / 1260 - square * (1 / 1680 - square / 1188))))


# --- results ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChiSquare:
    """A chi-square test: the statistic compared with χ²(df), and its upper-tail p-value."""

    statistic: float
    df: int
    p_value: float
    log10_p_value: float

    def as_dict(self) -> dict:
        """Return the test as plain data."""
        return asdict(self)


@dataclass(frozen=True)
class Deviation:
    """The cell farthest from its expectation, as |observed/expected − 1| in percent."""

    percent: float
    card: int
    position: int
    observed: int
    expected: float

    def as_dict(self) -> dict:
        """Return the deviation as plain data."""
        return asdict(self)


@dataclass(frozen=True)
class Verdict:
    """A plain-language conclusion: level is one of the LEVELS, text says it to a person."""

    level: str
    text: str

    def as_dict(self) -> dict:
        """Return the verdict as plain data."""
        return asdict(self)


LEVELS = ("too-few", "no-bias", "suspicious", "biased")
MODEL_LEVELS = ("too-few", "matches", "suspicious", "mismatch")


@dataclass(frozen=True)
class ExactComparison:
    """A tally against an exact matrix: per-row tests combined by Bonferroni."""

    p_value: float
    log10_p_value: float
    worst_card: int
    row_p_values: list[float]
    impossible: list[tuple[int, int, int]] = field(default_factory=list)  # (card, position, count)

    def as_dict(self) -> dict:
        """Return the comparison as plain data (tuples become lists)."""
        data = asdict(self)
        data["impossible"] = [list(cell) for cell in self.impossible]
        return data


def _chi_square(statistic: float, df: int) -> ChiSquare:
    if df <= 0:
        return ChiSquare(statistic, df, 1.0, 0.0)
    log_p = chi2_log_sf(max(statistic, 0.0), df)
    return ChiSquare(statistic, df, math.exp(log_p), log_p / math.log(10))


# --- the position tally -------------------------------------------------------------------------


def tally_trials(tally: Sequence[Sequence[int]]) -> int:
    """Return N, checking that the tally is square and every row and column sums to it."""
    n = len(tally)
    if any(len(row) != n for row in tally):
        raise ValueError("a tally must be square: n rows of n counts")
    if n == 0:
        return 0
    trials = sum(tally[0])
    if any(sum(row) != trials for row in tally) or any(sum(column) != trials for column in zip(*tally)):
        raise ValueError("every row and column of a tally must sum to the number of shuffles")
    if any(count < 0 for row in tally for count in row):
        raise ValueError("a tally cannot hold negative counts")
    return trials


def minimum_trials(n: int) -> int:
    """Return the fewest shuffles for which every cell expects MIN_EXPECTED counts under uniform."""
    return math.ceil(MIN_EXPECTED * n)


def chi_square_uniform(tally: Sequence[Sequence[int]]) -> ChiSquare:
    """Return X²·(n−1)/n of the tally against uniform placement, on (n−1)² degrees of freedom."""
    trials = tally_trials(tally)
    n = len(tally)
    if n < 2 or trials == 0:
        return ChiSquare(0.0, 0, 1.0, 0.0)
    squares = sum(count * count for row in tally for count in row)
    # Σ(O − E)²/E with E = N/n is n(ΣO² − N²)/N; scaled by (n − 1)/n, in exact integers
    statistic = (n - 1) * (squares - trials * trials) / trials
    return _chi_square(statistic, (n - 1) ** 2)


def largest_deviation(tally: Sequence[Sequence[int]], matrix: Sequence[Sequence[float]] | None = None) -> Deviation | None:
    """Return the cell with the largest |observed/expected − 1| (uniform expectation unless a matrix is given)."""
    trials = tally_trials(tally)
    n = len(tally)
    if trials == 0 or n == 0:
        return None
    worst = None
    for card, row in enumerate(tally):
        for position, observed in enumerate(row):
            expected = trials / n if matrix is None else trials * float(matrix[card][position])
            if expected <= 0:
                continue
            percent = abs(observed / expected - 1) * 100
            if worst is None or percent > worst.percent:
                worst = Deviation(percent, card, position, observed, expected)
    return worst


def chi_square_exact(tally: Sequence[Sequence[int]], matrix: Sequence[Sequence[float]]) -> ExactComparison:
    """Return the tally against an exact matrix: each card's row is Multinomial(N, P[card])."""
    trials = tally_trials(tally)
    n = len(tally)
    if len(matrix) != n or any(len(row) != n for row in matrix):
        raise ValueError(f"the exact matrix must be {n} × {n}, like the tally")
    impossible = [(card, position, count)
                  for card, row in enumerate(tally) for position, count in enumerate(row)
                  if count and float(matrix[card][position]) <= 0]
    row_p = [_row_test(row, matrix[card], trials).p_value for card, row in enumerate(tally)]
    if impossible:
        worst = impossible[0][0]
        return ExactComparison(0.0, -math.inf, worst, row_p, impossible)
    worst = min(range(n), key=row_p.__getitem__) if n else 0
    combined = min(1.0, n * row_p[worst]) if n else 1.0
    log10_p = math.log10(combined) if combined > 0 else _log10_bonferroni(tally, matrix, trials, worst, n)
    return ExactComparison(combined, log10_p, worst, row_p, [])


def _log10_bonferroni(tally, matrix, trials: int, card: int, n: int) -> float:
    # the worst row's p-value underflowed: take it from its log instead
    test = _row_test(tally[card], matrix[card], trials)
    return min(0.0, test.log10_p_value + math.log10(n))


def _row_test(counts: Sequence[int], probabilities: Sequence[float], trials: int) -> ChiSquare:
    """Return Pearson's test of one multinomial row, pooling cells expecting under MIN_EXPECTED."""
    total = sum(float(p) for p in probabilities if float(p) > 0)
    if trials == 0 or total <= 0:
        return ChiSquare(0.0, 0, 1.0, 0.0)
    cells = sorted((trials * float(p) / total, count) for p, count in zip(probabilities, counts) if float(p) > 0)
    bins = _pool_small(cells)
    statistic = sum((observed - expected) ** 2 / expected for expected, observed in bins)
    return _chi_square(statistic, len(bins) - 1)


def _pool_small(cells: list[tuple[float, int]]) -> list[tuple[float, int]]:
    """Merge (expected, observed) cells, smallest first, until every bin expects MIN_EXPECTED or one is left."""
    bins = list(cells)  # sorted by expectation, smallest first
    while len(bins) > 1 and bins[0][0] < MIN_EXPECTED:
        (e1, o1), (e2, o2) = bins[0], bins[1]
        merged = (e1 + e2, o1 + o2)
        bins = sorted([merged] + bins[2:])
    return bins


def verdict(p_value: float, trials: int, needed: int, *, decisive: bool = False,
            log10_p_value: float | None = None, model: bool = False) -> Verdict:
    """Return the plain-language verdict for a p-value after ``trials`` shuffles.

    ``decisive`` marks evidence that needs no minimum (a count where none is possible,
    or an exact tail probability), so a verdict may come before ``needed`` shuffles.
    ``model`` words it as a comparison with an exact model instead of with uniform.
    """
    levels = MODEL_LEVELS if model else LEVELS
    shown = _format_p(p_value, log10_p_value)
    if trials < needed and not (decisive and p_value < BIASED_P):
        return Verdict(levels[0], f"too few shuffles yet: {trials:,} of the {needed:,} needed for a verdict")
    if p_value < BIASED_P:
        what = "does not match its exact model" if model else "biased"
        return Verdict(levels[3], f"{what}: p {shown} after {trials:,} shuffles (threshold 1e-9)")
    if p_value < SUSPICIOUS_P:
        return Verdict(levels[2], f"suspicious: p {shown} after {trials:,} shuffles; not enough to call it, keep shuffling")
    what = "consistent with its exact model" if model else "no bias detected"
    return Verdict(levels[1], f"{what} at {trials:,} shuffles (p {shown})")


def _format_p(p_value: float, log10_p_value: float | None = None) -> str:
    if p_value > 0:
        return f"= {p_value:.3g}"
    if log10_p_value is not None and math.isfinite(log10_p_value):
        return f"≈ 1e{math.floor(log10_p_value)}"
    return "= 0 (impossible under the model)"


def position_report(tally: Sequence[Sequence[int]], exact_matrix: Sequence[Sequence[float]] | None = None) -> dict:
    """Return everything the page shows about a tally, as plain data.

    Keys: trials, cards, minimum_trials, uniform (test), deviation, verdict, and with an
    exact matrix also exact (comparison), exact_deviation and exact_verdict.
    """
    trials = tally_trials(tally)
    n = len(tally)
    needed = minimum_trials(n)
    uniform = chi_square_uniform(tally)
    deviation = largest_deviation(tally)
    report = {
        "trials": trials,
        "cards": n,
        "minimum_trials": needed,
        "uniform": uniform.as_dict(),
        "deviation": deviation.as_dict() if deviation else None,
        "verdict": (verdict(uniform.p_value, trials, needed, log10_p_value=uniform.log10_p_value).as_dict()
                    if n >= 2 else Verdict("no-bias", "a deck of one card cannot be biased").as_dict()),
    }
    if exact_matrix is not None:
        comparison = chi_square_exact(tally, exact_matrix)
        exact_deviation = largest_deviation(tally, exact_matrix)
        report["exact"] = comparison.as_dict()
        report["exact_deviation"] = exact_deviation.as_dict() if exact_deviation else None
        report["exact_verdict"] = verdict(
            comparison.p_value, trials, needed, decisive=bool(comparison.impossible),
            log10_p_value=comparison.log10_p_value, model=True).as_dict()
    return report


# --- fixed points -------------------------------------------------------------------------------


def derangements(m: int) -> int:
    """Return !m, the number of orders of m cards with no card in place."""
    previous, current = 1, 0  # !0, !1
    if m == 0:
        return 1
    for k in range(2, m + 1):
        previous, current = current, (k - 1) * (current + previous)
    return current


def fixed_point_distribution(n: int) -> list[Fraction]:
    """Return P(k fixed points) for a uniform order of n cards, k = 0..n: C(n, k)·!(n−k)/n!."""
    total = math.factorial(n)
    return [Fraction(math.comb(n, k) * derangements(n - k), total) for k in range(n + 1)]


def fixed_point_report(histogram: Sequence[int]) -> dict:
    """Return the fixed-point histogram against uniform (h[k] = shuffles with k fixed points), as plain data."""
    n = len(histogram) - 1
    if n < 0:
        raise ValueError("a fixed-point histogram has n + 1 bins, k = 0..n")
    if any(count < 0 for count in histogram):
        raise ValueError("a histogram cannot hold negative counts")
    trials = sum(histogram)
    probabilities = fixed_point_distribution(n)
    expected = [trials * float(p) for p in probabilities]
    impossible = [k for k, count in enumerate(histogram) if count and probabilities[k] == 0]
    pearson = _fixed_point_chi_square(histogram, probabilities, trials)
    log_all_deranged = _log_all_deranged(histogram, probabilities, trials)
    log_p = min(pearson.log10_p_value, log_all_deranged) + math.log10(2)
    if impossible:
        log_p = -math.inf
    p_value = min(1.0, 10 ** log_p) if math.isfinite(log_p) else 0.0
    needed = _fixed_point_minimum(probabilities)
    decisive = bool(impossible) or log_all_deranged + math.log10(2) < math.log10(BIASED_P)
    return {
        "trials": trials,
        "cards": n,
        "observed": list(histogram),
        "expected": expected,
        "probabilities": [float(p) for p in probabilities],
        "mean_observed": (sum(k * c for k, c in enumerate(histogram)) / trials) if trials else None,
        "mean_expected": 1.0 if n >= 1 else 0.0,
        "chi_square": pearson.as_dict(),
        "p_value": p_value,
        "log10_p_value": min(0.0, log_p),
        "minimum_trials": needed,
        "impossible": impossible,
        "verdict": verdict(p_value, trials, needed, decisive=decisive, log10_p_value=min(0.0, log_p)).as_dict(),
        "explanation": _fixed_point_explanation(histogram, probabilities, trials, impossible, log_all_deranged),
    }


def _fixed_point_chi_square(histogram: Sequence[int], probabilities: list[Fraction], trials: int) -> ChiSquare:
    if trials == 0:
        return ChiSquare(0.0, 0, 1.0, 0.0)
    # pool from the top: many fixed points are rare, so the tail bins are merged first
    bins: list[tuple[float, int]] = []
    tail = (0.0, 0)
    for k in range(len(histogram) - 1, -1, -1):
        if probabilities[k] == 0:
            continue
        tail = (tail[0] + trials * float(probabilities[k]), tail[1] + histogram[k])
        if tail[0] >= MIN_EXPECTED:
            bins.append(tail)
            tail = (0.0, 0)
    if tail[0] > 0:
        if bins:
            expected, observed = bins.pop()
            bins.append((expected + tail[0], observed + tail[1]))
        else:
            bins.append(tail)
    statistic = sum((o - e) ** 2 / e for e, o in bins)
    return _chi_square(statistic, len(bins) - 1)


def _log_all_deranged(histogram: Sequence[int], probabilities: list[Fraction], trials: int) -> float:
    """Return log10 P(every shuffle has no fixed point) if that is what was seen, else 0."""
    if trials == 0 or histogram[0] != trials or probabilities[0] == 0:
        return 0.0
    return trials * math.log10(float(probabilities[0]))


def _fixed_point_minimum(probabilities: list[Fraction]) -> int:
    """Return the fewest shuffles for which two bins each expect MIN_EXPECTED."""
    likely = sorted((float(p) for p in probabilities if p), reverse=True)
    if len(likely) < 2:
        return 0
    return math.ceil(MIN_EXPECTED / likely[1])


def _fixed_point_explanation(histogram, probabilities, trials, impossible, log_all_deranged) -> str:
    n = len(histogram) - 1
    if impossible:
        k = impossible[0]
        return (f"{histogram[k]:,} shuffle(s) left exactly {k} of {n} cards in place, which no order can do "
                f"(if n−1 cards stay put, so does the last): the tally or the shuffle is broken.")
    if log_all_deranged < 0:
        share = float(probabilities[0])
        return (f"Every one of the {trials:,} shuffles moved every card. A fair shuffle leaves no card in place "
                f"only {share:.1%} of the time, so this happens by chance with probability about "
                f"1e{math.floor(log_all_deranged)}. That is the mark of Sattolo's algorithm "
                f"(fisher-yates-off-by-one), which only makes single-cycle orders.")
    if trials == 0:
        return "No shuffles yet."
    mean = sum(k * c for k, c in enumerate(histogram)) / trials
    return f"On average {mean:.3f} cards stayed in place per shuffle; a fair shuffle leaves 1 on average."


# --- what the bias lab shows ---------------------------------------------------------------------

FIXED_POINT_BARS = 6  # bars for 0..4 fixed points and one for "5 or more"


def summarize(tally: Sequence[Sequence[int]], fixed_points: Sequence[int],
              exact_matrix: Sequence[Sequence[float]] | None = None) -> dict:
    """Return the lab's verdict, its figures and the fixed-point bars, as plain data.

    The verdict is the stronger of the position test and the fixed-point test; each has
    the 1e-9 threshold, so by the union bound their false-alarm rate at most doubles.
    """
    positions = position_report(tally, exact_matrix)
    fixed = fixed_point_report(fixed_points)
    strongest = max((positions["verdict"], fixed["verdict"]), key=lambda v: _strength(v["level"]))
    if positions["verdict"]["level"] == "too-few" and strongest["level"] != "biased":
        strongest = positions["verdict"]  # say nothing until the position test can speak
    return {
        "verdict": strongest["level"],
        "sentence": _sentence(strongest["text"]),
        "figures": _figures(positions, fixed),
        "fixed_points": _fixed_point_bars(fixed),
    }


def _strength(level: str) -> int:
    return LEVELS.index(level)


def _figures(positions: dict, fixed: dict) -> list[tuple[str, str]]:
    uniform = positions["uniform"]
    figures = [
        ("Shuffles", f"{positions['trials']:,}"),
        ("χ² against uniform", f"{uniform['statistic']:,.1f} on {uniform['df']:,} degrees of freedom"),
        ("p-value against uniform", _format_p(uniform["p_value"], uniform["log10_p_value"]).lstrip("= ")),
    ]
    deviation = positions["deviation"]
    if deviation:
        figures.append(("Largest deviation from uniform",
                        f"{deviation['percent']:.1f}% (card {deviation['card']} at position {deviation['position']})"))
    if "exact" in positions:
        exact = positions["exact"]
        figures.append(("p-value against the exact matrix",
                        _format_p(exact["p_value"], exact["log10_p_value"]).lstrip("= ")))
        figures.append(("Against the exact matrix", positions["exact_verdict"]["text"]))
    figures.append(("p-value of the fixed points", _format_p(fixed["p_value"], fixed["log10_p_value"]).lstrip("= ")))
    return figures


def _fixed_point_bars(fixed: dict) -> dict:
    """Shares of shuffles with k fixed points, observed and fair, the tail in one bar."""
    trials = fixed["trials"]
    last = FIXED_POINT_BARS - 1
    observed = [count / trials if trials else 0.0 for count in fixed["observed"]]
    expected = fixed["probabilities"]
    labels = [str(k) for k in range(min(last, len(observed)))]
    bars_observed, bars_expected = observed[:last], expected[:last]
    if len(observed) > last:
        labels.append(f"{last}+")
        bars_observed.append(sum(observed[last:]))
        bars_expected.append(sum(expected[last:]))
    return {
        "labels": labels,
        "observed": bars_observed,
        "expected": bars_expected,
        "sentence": fixed["explanation"] + " " + _sentence(fixed["verdict"]["text"]),
    }


def _sentence(text: str) -> str:
    """Return a verdict's text as a sentence: first letter capital, a full stop at the end."""
    return text[:1].upper() + text[1:] + "."
