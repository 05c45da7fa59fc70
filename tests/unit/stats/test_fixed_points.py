"""Fixed points: the rencontres distribution, and how Sattolo's algorithm gives itself away at once."""

import math
from fractions import Fraction
from itertools import permutations

import pytest

from shufflelab.stats.fixed_points import fixed_point_distribution, fixed_point_report
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


def test_fixed_point_pooling_and_degrees_of_freedom():
    rng = FastRng(3)
    report = fixed_point_report(fixed_point_histogram("fisher-yates", 52, 400, rng))
    assert 2 <= report["chi_square"]["df"] <= 5
    assert sum(report["expected"]) == pytest.approx(400)
