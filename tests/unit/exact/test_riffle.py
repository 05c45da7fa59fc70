"""Riffle distances: Bayer & Diaconis's exact total variation after k GSR riffles."""

from fractions import Fraction
from itertools import permutations

import pytest

from shufflelab.errors import ShuffleLabError
from shufflelab.exact.orders import outcome_distribution, total_variation_to_uniform
from shufflelab.exact.riffle import eulerian_row, riffle_tv


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
