"""Whole-order distributions: the models checked against the enumerated ports, and their distance to uniform."""

import math
from fractions import Fraction
from itertools import permutations

import pytest

from shufflelab import catalog
from shufflelab.errors import ShuffleLabError
from shufflelab.exact.orders import ideal_rand_residue_weights, outcome_distribution, total_variation_to_uniform

from .helpers import SMALL_PARAMS, enumerated

# --- the models, checked against the ports ----------------------------------------------------


@pytest.mark.parametrize("n", range(0, 7))
def test_swap_any_model_equals_the_enumerated_port(n):
    assert outcome_distribution("swap-any", n) == enumerated("swap-any", n)


@pytest.mark.parametrize("n", range(0, 5))
def test_naive_pairs_model_equals_the_enumerated_port(n):
    assert outcome_distribution("naive-pairs", n) == enumerated("naive-pairs", n)


@pytest.mark.parametrize("n", range(0, 7))
def test_one_gsr_riffle_model_equals_the_enumerated_port(n):
    one = {"passes": 1}
    assert outcome_distribution("riffle-gsr", n, one) == enumerated("riffle-gsr", n, one)


def test_c_rand_residue_weights_count_all_rand_values():
    for n in (1, 2, 3, 7, 52, 108):
        weights = ideal_rand_residue_weights(n)
        assert sum(weights) == 32768
        assert weights == [sum(1 for v in range(32768) if v % n == j) for j in range(n)]


# --- whole-order distributions ---------------------------------------------------------------------


@pytest.mark.parametrize("algorithm_id", [entry.id for entry in catalog.entries()])
def test_every_distribution_sums_to_one(algorithm_id):
    for n in range(0, 6):
        dist = outcome_distribution(algorithm_id, n, SMALL_PARAMS.get(algorithm_id))
        assert sum(dist.values()) == 1
        assert all(p > 0 for p in dist.values())
        assert all(sorted(order) == list(range(n)) for order in dist)


def test_random_key_is_exactly_uniform_by_exchangeability():
    assert outcome_distribution("random-key", 4) == {o: Fraction(1, 24) for o in permutations(range(4))}


def test_splice_and_stack_are_uniform_at_seven_cards():
    for algorithm_id in ("splice", "stack"):
        dist = outcome_distribution(algorithm_id, 7)
        assert total_variation_to_uniform(dist, 7) == 0


def test_cut_insert_never_moves_the_bottom_card():
    dist = outcome_distribution("cut-insert", 5, {"repetitions": 40})
    assert all(order[-1] == 4 for order in dist)
    assert len(dist) == math.factorial(4)


def test_total_variation_of_uniform_and_of_a_point():
    uniform = {o: Fraction(1, 6) for o in permutations(range(3))}
    assert total_variation_to_uniform(uniform, 3) == 0
    assert total_variation_to_uniform({(0, 1, 2): Fraction(1)}, 3) == Fraction(5, 6)


def test_more_than_seven_cards_is_refused():
    with pytest.raises(ShuffleLabError, match="0 to 7"):
        outcome_distribution("fisher-yates", 8)
