"""Fixed points: the rencontres distribution, and how Sattolo's algorithm gives itself away at once."""

import math
from fractions import Fraction
from itertools import permutations

import pytest

from shufflelab.stats.fixed_points import fixed_point_bars, fixed_point_distribution, fixed_point_report
from shufflelab.tally import FastRng

from .helpers import fixed_point_histogram


@pytest.mark.parametrize("n", range(0, 7))
def test_rencontres_distribution_counts_fixed_points(n):
    counts = [0] * (n + 1)
    for order in permutations(range(n)):
        counts[sum(card == position for position, card in enumerate(order))] += 1
    assert fixed_point_distribution(n) == [Fraction(c, math.factorial(n)) for c in counts]


def test_off_by_one_is_flagged_biased_at_once_with_an_explanation():
    histogram = fixed_point_histogram("fisher-yates-off-by-one", 52, 25, FastRng(4))
    assert histogram[0] == 25
    report = fixed_point_report(histogram)
    assert report["verdict"]["level"] == "biased"
    assert "Sattolo" in report["explanation"]
    assert report["log10_p_value"] < -9


def test_fisher_yates_fixed_points_look_uniform():
    report = fixed_point_report(fixed_point_histogram("fisher-yates", 20, 3000, FastRng(6)))
    assert report["verdict"]["level"] == "no-bias"
    assert report["mean_observed"] == pytest.approx(1, abs=0.1)


def test_n_minus_one_fixed_points_is_impossible():
    histogram = [0] * 11
    histogram[9] = 1
    histogram[1] = 40
    report = fixed_point_report(histogram)
    assert report["impossible"] == [9] and report["verdict"]["level"] == "biased"


def test_the_tested_bars_are_the_drawn_bars_fixed_before_any_data():
    assert fixed_point_bars(52) == [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 52)]
    assert fixed_point_bars(3) == [(0, 0), (1, 1), (2, 2), (3, 3)]
    report = fixed_point_report(fixed_point_histogram("fisher-yates", 52, 400, FastRng(3)))
    assert report["bars_tested"] == 6
    assert sum(report["expected"]) == pytest.approx(400)


def _compositions(total, parts):
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first,) + rest


@pytest.mark.parametrize(("n", "trials"), [(4, 14), (6, 12), (8, 9)])
def test_no_threshold_is_crossed_more_often_than_it_says_exactly_enumerated(n, trials):
    """Every histogram of ``trials`` fair shuffles, with its exact multinomial chance: P(p <= a) <= a for every a."""
    probabilities = fixed_point_distribution(n)
    possible = [k for k in range(n + 1) if probabilities[k]]
    outcomes = []
    for counts in _compositions(trials, len(possible)):
        histogram = [0] * (n + 1)
        for k, count in zip(possible, counts):
            histogram[k] = count
        chance = Fraction(math.factorial(trials))
        for k, count in zip(possible, counts):
            chance = chance * probabilities[k] ** count / math.factorial(count)
        outcomes.append((fixed_point_report(histogram)["p_value"], chance))
    assert sum(chance for _, chance in outcomes) == 1
    outcomes.sort(key=lambda outcome: outcome[0])
    crossed = Fraction(0)
    for p_value, chance in outcomes:
        crossed += chance
        # every level a p-value can take: the chance of reaching it is no more than the level
        assert crossed <= Fraction(p_value) * (1 + Fraction(1, 10**12)) or p_value >= 1
    assert outcomes[0][0] < 1e-3  # the enumeration reaches small p-values, so the check above has teeth
