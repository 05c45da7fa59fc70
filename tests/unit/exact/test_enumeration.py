"""Enumeration: every path of a port's below() answers, replayed with its exact probability."""

import math
from fractions import Fraction
from itertools import permutations

import pytest

from shufflelab.exact.enumeration import enumerate_port
from shufflelab.exact.errors import NotEnumerable

from .helpers import cyclic, enumerated


@pytest.mark.parametrize("algorithm_id", ["fisher-yates", "splice", "stack"])
@pytest.mark.parametrize("n", range(0, 7))
def test_the_correct_ports_give_every_order_exactly_once_in_n_factorial(algorithm_id, n):
    dist = enumerated(algorithm_id, n)
    assert dist == {order: Fraction(1, math.factorial(n)) for order in permutations(range(n))}


@pytest.mark.parametrize("n", range(2, 7))
def test_off_by_one_gives_exactly_the_single_cycle_orders_uniformly(n):
    dist = enumerated("fisher-yates-off-by-one", n)
    cycles = [o for o in permutations(range(n)) if cyclic(o)]
    assert dist == {o: Fraction(1, math.factorial(n - 1)) for o in cycles}


def test_enumeration_weights_paths_by_their_bounds():
    # random-comparator draws a variable number of coins, so paths have different weights
    dist = enumerated("random-comparator", 3)
    assert sum(dist.values()) == 1
    assert len(dist) == 6 and len(set(dist.values())) > 1


def test_enumerating_a_float_drawing_port_is_refused():
    with pytest.raises(NotEnumerable):
        enumerate_port("random-key", 3)


def test_cut_paths_are_reported_not_counted():
    dist, cut = enumerate_port("fisher-yates", 4, max_draws=2)
    assert dist == {} and cut == 1
