"""Exact binomial tails: against exact sums of fractions on small counts, and SciPy on large ones."""

import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom

from shufflelab.stats.binomial import log10_binomial_tails, log10_two_sided


def _exact_tails(observed, trials, probability):
    p = Fraction(probability)
    terms = [math.comb(trials, k) * p**k * (1 - p) ** (trials - k) for k in range(trials + 1)]
    return sum(terms[: observed + 1]), sum(terms[observed:])


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 60).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
       st.floats(1e-4, 1 - 1e-4))
def test_tails_equal_exact_sums_of_fractions(counts, probability):
    observed, trials = counts
    lower, upper = log10_binomial_tails(observed, trials, probability)
    exact_lower, exact_upper = _exact_tails(observed, trials, probability)
    assert 10**lower == pytest.approx(float(exact_lower), rel=1e-11)
    assert 10**upper == pytest.approx(float(exact_upper), rel=1e-11)


@pytest.mark.parametrize("trials", [10**4, 10**6, 10**9])
@pytest.mark.parametrize("probability", [0.36787944117144233, 0.0036598468273437135, 0.5])
@pytest.mark.parametrize("sigmas", [-40, -6.5, -1, 0, 0.3, 6.5, 40])
def test_tails_of_large_counts_agree_with_scipy_far_below_the_thresholds(trials, probability, sigmas):
    mean, spread = trials * probability, math.sqrt(trials * probability * (1 - probability))
    observed = min(trials, max(0, round(mean + sigmas * spread)))
    ours = log10_binomial_tails(observed, trials, probability)
    theirs = (binom.logcdf(observed, trials, probability), binom.logsf(observed - 1, trials, probability))
    for mine, log_e in zip(ours, theirs):
        if math.isfinite(log_e):  # SciPy underflows near 1e-300; mpmath checks that far below
            assert mine == pytest.approx(log_e / math.log(10), rel=1e-5, abs=1e-5)


@pytest.mark.parametrize(("observed", "trials", "probability"), [(5, 10**4, 0.36787944117144233),
                                                                   (1500, 2000, 0.0036598468273437135)])
def test_tails_far_below_1e_300_agree_with_mpmath(observed, trials, probability):
    mpmath.mp.dps = 30
    lower, upper = log10_binomial_tails(observed, trials, probability)
    exact_lower = mpmath.betainc(trials - observed, observed + 1, 0, 1 - probability, regularized=True)
    exact_upper = mpmath.betainc(observed, trials - observed + 1, 0, probability, regularized=True)
    assert min(lower, upper) < -300
    assert lower == pytest.approx(float(mpmath.log10(exact_lower)), rel=1e-9)
    assert upper == pytest.approx(float(mpmath.log10(exact_upper)), rel=1e-9)


def test_all_successes_is_the_power_of_the_probability():
    assert log10_binomial_tails(1000, 1000, 0.25)[1] == pytest.approx(1000 * math.log10(0.25))
    assert log10_binomial_tails(0, 1000, 0.25) == (pytest.approx(1000 * math.log10(0.75)), 0.0)


def test_two_sided_doubles_the_smaller_tail_and_stops_at_one():
    lower, upper = log10_binomial_tails(3, 100, 0.2)
    assert log10_two_sided(3, 100, 0.2) == pytest.approx(min(lower, upper) + math.log10(2))
    assert log10_two_sided(20, 100, 0.2) == 0.0


@pytest.mark.parametrize(("observed", "trials", "probability"), [(-1, 5, 0.5), (6, 5, 0.5), (1, 5, 0.0), (1, 5, 1.0)])
def test_impossible_arguments_are_refused(observed, trials, probability):
    with pytest.raises(ValueError):
        log10_binomial_tails(observed, trials, probability)
