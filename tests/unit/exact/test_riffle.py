"""Riffle distances: Bayer & Diaconis's exact total variation after k GSR riffles."""

import math
from fractions import Fraction
from itertools import permutations

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflelab.errors import ShuffleLabError
from shufflelab.exact.orders import outcome_distribution, total_variation_to_uniform
from shufflelab.exact.riffle import eulerian_row, riffle_kl, riffle_separation, riffle_tv


def test_eulerian_numbers_count_orders_by_descents():
    for n in range(1, 7):
        row = eulerian_row(n)
        counts = [0] * n
        for order in permutations(range(n)):
            counts[sum(order[i] > order[i + 1] for i in range(n - 1))] += 1
        assert list(row) == counts


@pytest.mark.parametrize("n", range(1, 6))
def test_riffle_tv_equals_the_distance_of_the_composed_distribution(n):
    distances = riffle_tv(n, 4)
    for k, distance in enumerate(distances, start=1):
        dist = outcome_distribution("riffle-gsr", n, {"passes": k})
        assert distance == total_variation_to_uniform(dist, n)


def test_riffle_tv_famous_values_for_52_cards():
    distances = [float(d) for d in riffle_tv(52, 10)]
    assert distances[4] == pytest.approx(0.924, abs=5e-4)
    assert distances[6] == pytest.approx(0.334, abs=5e-4)
    assert distances[7] == pytest.approx(0.167, abs=5e-4)
    assert all(a > b for a, b in zip(distances[3:], distances[4:]))


def test_riffle_tv_is_exact_and_fast_enough_for_104_cards_and_twelve_riffles():
    distances = riffle_tv(104, 12)
    assert all(isinstance(d, Fraction) and 0 <= d <= 1 for d in distances)
    assert float(distances[-1]) < float(distances[8]) < 1


@pytest.mark.parametrize("n, max_k, named", [(0, 3, "at least 1 card, not 0"), (5, 0, "at least 1, not 0")])
def test_riffle_tv_refuses_empty_decks_and_no_riffles(n, max_k, named):
    with pytest.raises(ShuffleLabError, match=named):
        riffle_tv(n, max_k)


# --- separation and Kullback-Leibler ---------------------------------------------------------------------------

def test_separation_is_the_product_formula_and_the_eulerian_maximum():
    for n in (1, 2, 5, 13, 52):
        for k, separation in enumerate(riffle_separation(n, 12), start=1):
            product = Fraction(1)
            for i in range(1, n):
                product *= 1 - Fraction(i, 2**k)
            assert separation == 1 - product
            # max over orders of 1 − n!·P(order), every rising-sequence count r = 1..n occurring
            chances = [Fraction(math.comb(2**k + n - r, n), 2 ** (k * n)) for r in range(1, n + 1)]
            assert all(count > 0 for count in eulerian_row(n))
            assert separation == max(1 - math.factorial(n) * chance for chance in chances)


@pytest.mark.parametrize("n", range(1, 6))
def test_separation_and_kl_match_the_composed_distribution(n):
    for k, (separation, kl) in enumerate(zip(riffle_separation(n, 4), riffle_kl(n, 4)), start=1):
        dist = outcome_distribution("riffle-gsr", n, {"passes": k})
        uniform = Fraction(1, math.factorial(n))
        assert separation == max(1 - dist.get(order, 0) / uniform for order in permutations(range(n)))
        expected = sum(float(p) * math.log(p / uniform) for p in dist.values())
        assert kl == pytest.approx(expected, rel=1e-12, abs=1e-15)


def mp_kl(n, k):
    """KL(P_k ‖ uniform) with 60 significant digits, straight from the definition."""
    with mpmath.workdps(60):
        factorial = mpmath.factorial(n)
        total = mpmath.mpf(0)
        for r in range(1, n + 1):
            chance = mpmath.binomial(2**k + n - r, n) / mpmath.mpf(2) ** (k * n)
            if chance:
                total += eulerian_row(n)[r - 1] * chance * mpmath.log(factorial * chance)
        return total


@pytest.mark.parametrize("n", [2, 7, 52, 104])
def test_kl_agrees_with_mpmath_to_twelve_digits(n):
    for k, kl in enumerate(riffle_kl(n, 20), start=1):
        assert kl == pytest.approx(float(mp_kl(n, k)), rel=1e-12), (n, k)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 80), st.integers(1, 14))
def test_separation_bounds_tv_and_pinsker_bounds_kl(n, max_k):
    for tv, separation, kl in zip(riffle_tv(n, max_k), riffle_separation(n, max_k), riffle_kl(n, max_k)):
        assert 0 <= tv <= separation <= 1
        assert kl >= 2 * float(tv) ** 2 * (1 - 1e-12)  # Pinsker, in nats
        assert kl >= 0


def test_riffle_distances_refuse_empty_decks_and_no_riffles():
    for distance in (riffle_separation, riffle_kl):
        with pytest.raises(ShuffleLabError, match="at least 1 card, not 0"):
            distance(0, 3)
        with pytest.raises(ShuffleLabError, match="at least 1, not 0"):
            distance(3, 0)
