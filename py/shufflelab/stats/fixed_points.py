"""Fixed points: how many cards a shuffle leaves in place, against the rencontres numbers.

The histogram of fixed points per shuffle is tested against D(n, k)/n! by Pearson, the
small tail bins pooled, together with the exact probability that every shuffle was a
derangement (how Sattolo's algorithm shows itself at once); the two are combined by
Bonferroni (×2).
"""

import math
from collections.abc import Sequence
from fractions import Fraction

from ..errors import ShuffleLabError
from .chi2 import ChiSquare, chi_square
from .verdicts import BIASED_P, MIN_EXPECTED, verdict


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
        raise ShuffleLabError("a fixed-point histogram has n + 1 bins, k = 0..n")
    if any(count < 0 for count in histogram):
        raise ShuffleLabError("a histogram cannot hold negative counts")
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
    return chi_square(statistic, len(bins) - 1)


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
