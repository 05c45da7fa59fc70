"""Composition: independent passes compose as a random walk on orders, and say when that costs too much."""

import pytest

from shufflelab.exact.composition import as_fractions, as_int_dist, then
from shufflelab.exact.errors import ExactTooCostly
from shufflelab.exact.orders import outcome_distribution


def test_passes_compose_as_independent_random_permutations():
    one = outcome_distribution("riffle-gsr", 4, {"passes": 1})
    two = outcome_distribution("riffle-gsr", 4, {"passes": 2})
    expected: dict = {}
    for first, p in one.items():
        for second, q in one.items():
            order = tuple(first[second[j]] for j in range(4))
            expected[order] = expected.get(order, 0) + p * q
    assert two == expected
    assert as_fractions(then(as_int_dist(one), as_int_dist(one))) == expected


def test_too_costly_compositions_say_how_far_they_can_go():
    with pytest.raises(ExactTooCostly, match=r"limited to \d+ repetitions"):
        outcome_distribution("cut-insert", 7)
