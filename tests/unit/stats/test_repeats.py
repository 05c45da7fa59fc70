"""Repeated decks: pairs counted exactly, Poisson tails and intervals as scipy and mpmath give them, and the number of
decks a small-seeded engine can deal read back from its repeats."""

import math
import random

import mpmath
import pytest
from scipy import stats as scipy_stats

from shufflelab.stats import repeats


def test_pairs_are_counted_by_multiplicity_across_calls():
    counter = repeats.RepeatCounter()
    a, b, c = bytes([0, 1, 2]), bytes([2, 1, 0]), bytes([1, 0, 2])
    counter.add_decks(a + b + a, 3)
    counter.add_decks(a + c + b, 3)
    assert (counter.orders, counter.pairs) == (6, 3 + 1)  # a three times: 3 pairs; b twice: 1


@pytest.mark.parametrize("observed, mean", [(1, 0.5), (3, 0.5), (10, 2.0), (2, 7.0), (40, 30.0), (1, 1e-6), (5, 1e-3)])
def test_the_poisson_upper_tail_is_scipys(observed, mean):
    expected = math.log10(scipy_stats.poisson.sf(observed - 1, mean))
    assert repeats.poisson_log10_upper_tail(observed, mean) == pytest.approx(expected, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("observed, log10_mean", [(1, -58.2), (3, -40.0), (100, -20.0)])
def test_the_upper_tail_keeps_its_logarithm_far_below_a_float(observed, log10_mean):
    mpmath.mp.dps = 60
    mean = mpmath.mpf(10) ** log10_mean
    exact = mpmath.log10(mpmath.nsum(lambda j: mpmath.exp(-mean) * mean ** j / mpmath.factorial(j), [observed, mpmath.inf]))
    assert repeats.poisson_log10_upper_tail(observed, 10.0 ** log10_mean) == pytest.approx(float(exact), rel=1e-9)


@pytest.mark.parametrize("observed", [0, 1, 4, 30, 4710, 10**7])
def test_the_interval_is_garwoods_from_the_chi_square(observed):
    low, high = repeats.poisson_interval(observed)
    expected_low = 0.0 if observed == 0 else scipy_stats.chi2.ppf(0.025, 2 * observed) / 2
    expected_high = scipy_stats.chi2.ppf(0.975, 2 * observed + 2) / 2
    assert low == pytest.approx(expected_low, rel=1e-6) and high == pytest.approx(expected_high, rel=1e-6)


def engine_orders(bits: int, count: int, seed: int) -> bytes:
    """Orders of 52 cards from an engine that seeds a fresh generator from ``bits`` bits for each deal."""
    picker = random.Random(seed)
    return b"".join(bytes(random.Random(picker.getrandbits(bits)).sample(range(52), 52)) for _ in range(count))


def test_a_20_bit_engine_is_seen_to_deal_about_a_million_decks():
    counter = repeats.RepeatCounter()
    counter.add_decks(engine_orders(20, 20_000, seed=1), 52)
    report = repeats.repeats_report(counter.orders, counter.pairs, 52)
    assert report.applies and report.decks_low <= 2**20 <= report.decks_high
    assert 150 <= report.pairs <= 240 and report.log10_p < -1000  # about C(20000, 2)/2^20 = 191 pairs
    sentence = repeats.repeats_sentence(report)
    assert sentence.startswith(f"Many decks repeat: {report.pairs:,} pairs of identical orders among 20,000, so this "
                               "engine can deal only about ") and " million different decks" in sentence
    assert "as if its seed had about 20 bits; a fair shuffle of 52 cards would repeat none." in sentence


def test_a_fair_shuffle_of_52_cards_repeats_nothing_and_bounds_the_decks_from_below():
    counter = repeats.RepeatCounter()
    picker = random.Random(7)
    counter.add_decks(b"".join(bytes(picker.sample(range(52), 52)) for _ in range(20_000)), 52)
    report = repeats.repeats_report(counter.orders, counter.pairs, 52)
    assert report.pairs == 0 and report.log10_p == 0.0 and report.decks is None and report.decks_high is None
    assert report.decks_low == pytest.approx(repeats.pairs_among(20_000) / 3.6889, rel=1e-3)  # Garwood's 3.689 for 0
    assert repeats.repeats_sentence(report) == ("No deck repeats among 20,000 orders, as expected of a fair shuffle: "
                                                "the engine can deal at least about 54 million different decks (a "
                                                "seed of 26 bits or more).")


def test_small_decks_repeat_under_any_shuffle_and_the_test_stands_aside():
    report = repeats.repeats_report(1000, 4000, 5)  # 120 decks: 1,000 orders repeat whatever the shuffle
    assert not report.applies and report.log10_p == 0.0
    assert repeats.repeats_sentence(report).startswith("Repeated decks: not a test here: 1,000 orders of 5 cards")


def test_a_repeat_a_fair_shuffle_could_give_is_not_called_a_flaw():
    report = repeats.repeats_report(1000, 1, 12)  # 12! = 479,001,600 decks: 0.001 pairs expected, one seen
    assert report.applies and -3.1 < report.log10_p < -2.9
    assert repeats.repeats_sentence(report) == ("1 pair of identical orders among 1,000, where a fair shuffle of 12 "
                                                "cards expects about 0.00104: not enough to say the engine deals "
                                                "fewer decks.")
