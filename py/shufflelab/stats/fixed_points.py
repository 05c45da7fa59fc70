"""Fixed points: how many cards a shuffle leaves in place, against the rencontres numbers.

The histogram of fixed points per shuffle is tested against D(n, k)/n! bar by bar, on the
bars the page draws: 0, 1, 2, 3, 4 and "5 or more" cards in place. Each bar's count is
exactly Binomial(N, P(bar)), so its two-sided p-value, 2 × the smaller exact tail, is never
below the chance of so extreme a count; the bars are combined by Bonferroni (× the bars
tested). So P(p ≤ α) ≤ α for every α and every N, small counts included: the verdict's
false-alarm rate is at most its threshold (1e-9 for "biased") by the union bound alone, with
no chi-square approximation. Every shuffle a derangement (how Sattolo's algorithm shows
itself at once) is bar 0's upper tail, P(0 fixed points)^N.
"""

import math
from collections.abc import Sequence
from fractions import Fraction

from ..errors import ShuffleLabError
from .binomial import log10_two_sided
from .verdicts import MIN_EXPECTED, verdict

BARS = 6  # 0, 1, 2, 3, 4 and "5 or more" fixed points: the bars the lab draws, fixed before any data
# The tails' logarithms carry a relative error below 1e-5 at a billion shuffles (lgamma's
# cancellation, checked against SciPy); the p-value is raised by this margin to stay conservative.
LOG10_MARGIN = math.log10(1 + 1e-4)


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


def fixed_point_bars(n: int) -> list[tuple[int, int]]:
    """Return the tested bars as (first k, last k) ranges: 0..4 one by one, then 5..n together."""
    last = BARS - 1
    bars = [(k, k) for k in range(min(last, n + 1))]
    if n >= last:
        bars.append((last, n))
    return bars


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
    bar_logs = _bar_log10_p_values(histogram, probabilities, trials)
    log_p = (min(bar_logs) + math.log10(len(bar_logs)) + LOG10_MARGIN) if bar_logs else 0.0
    if impossible:
        log_p = -math.inf
    log_p = min(0.0, log_p)
    p_value = 10 ** log_p if math.isfinite(log_p) else 0.0
    needed = _fixed_point_minimum(probabilities)
    return {
        "trials": trials,
        "cards": n,
        "observed": list(histogram),
        "expected": expected,
        "probabilities": [float(p) for p in probabilities],
        "mean_observed": (sum(k * c for k, c in enumerate(histogram)) / trials) if trials else None,
        "mean_expected": 1.0 if n >= 1 else 0.0,
        "bars_tested": len(bar_logs),
        "p_value": p_value,
        "log10_p_value": log_p,
        "minimum_trials": needed,
        "impossible": impossible,
        # exact tails: a p-value below the threshold means the same at any count
        "verdict": verdict(p_value, trials, needed, decisive=True, log10_p_value=log_p).as_dict(),
        "explanation": _fixed_point_explanation(histogram, probabilities, trials, impossible,
                                                _log_all_deranged(histogram, probabilities, trials)),
    }


def _bar_log10_p_values(histogram: Sequence[int], probabilities: list[Fraction], trials: int) -> list[float]:
    """Return each testable bar's exact two-sided log10 p-value (a bar of probability 0 or 1 says nothing)."""
    logs = []
    if trials == 0:
        return logs
    for first, last in fixed_point_bars(len(histogram) - 1):
        probability = sum(probabilities[first:last + 1])
        if 0 < probability < 1:
            logs.append(log10_two_sided(sum(histogram[first:last + 1]), trials, float(probability)))
    return logs


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
