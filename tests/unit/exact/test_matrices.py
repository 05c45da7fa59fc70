"""Position matrices: the models against the distributions, their known shapes, and seeded tallies."""

import math
from fractions import Fraction

import pytest

from catalog_tables import monte_carlo
from shufflelab import catalog
from shufflelab.exact.enumeration import run_steps
from shufflelab.exact.errors import ExactTooCostly, NoExactMatrix
from shufflelab.exact.matrices import (
    MAX_WALKED_CARDS,
    cut_insert_step_matrix,
    matrix_power,
    matrix_power_steps,
    matrix_seconds_estimate,
    position_matrix,
    position_matrix_from_distribution,
    power_products,
    riffle_gsr_pass_matrix,
)
from shufflelab.exact.orders import outcome_distribution
from shufflelab.exact.physical import PHYSICAL_SECONDS_AT_52
from shufflelab.stats.positions import chi_square_exact
from shufflelab.tally import FastRng

from ..stats.helpers import port_tally
from .helpers import SMALL_PARAMS, WITH_MATRIX, enumerated


@pytest.mark.parametrize("algorithm_id", WITH_MATRIX)
def test_exact_matrix_equals_the_one_implied_by_the_distribution(algorithm_id):
    params = SMALL_PARAMS.get(algorithm_id)
    for n in range(1, 6):
        dist = outcome_distribution(algorithm_id, n, params)
        assert position_matrix(algorithm_id, n, params, exact=True) == position_matrix_from_distribution(dist, n)


@pytest.mark.parametrize("algorithm_id", WITH_MATRIX)
def test_float_matrix_agrees_with_the_exact_one(algorithm_id):
    params = SMALL_PARAMS.get(algorithm_id)
    for n in (1, 2, 6):
        floats = position_matrix(algorithm_id, n, params)
        exacts = position_matrix(algorithm_id, n, params, exact=True)
        assert all(abs(f - float(e)) < 1e-12 for fr, er in zip(floats, exacts) for f, e in zip(fr, er))


@pytest.mark.parametrize("algorithm_id", ["riffle-gsr", "riffle-physical", "cut-insert"])
def test_default_passes_at_six_cards_match_enumeration(algorithm_id):
    n = 6
    params = {"repetitions": 200} if algorithm_id == "cut-insert" else None
    dist = outcome_distribution(algorithm_id, n, params)
    implied = position_matrix_from_distribution(dist, n)
    floats = position_matrix(algorithm_id, n, params)
    assert all(abs(f - float(e)) < 1e-12 for fr, er in zip(floats, implied) for f, e in zip(fr, er))


def test_random_comparators_matrix_on_three_cards_is_summed_from_the_hand_derived_orders():
    # docs/explanation/exact-answers.md, "random-comparator by hand": 0 1 2 and 0 2 1 have 1/4 each, the other four orders 1/8
    quarter, eighth = Fraction(1, 4), Fraction(1, 8)
    expected = [
        # card 0 at place 0: 012, 021; at 1: 102, 201; at 2: 120, 210
        [quarter + quarter, eighth + eighth, eighth + eighth],
        # card 1 at place 0: 102, 120; at 1: 012, 210; at 2: 021, 201
        [eighth + eighth, quarter + eighth, quarter + eighth],
        # card 2 at place 0: 201, 210; at 1: 021, 120; at 2: 012, 102
        [eighth + eighth, quarter + eighth, quarter + eighth],
    ]
    assert position_matrix("random-comparator", 3, exact=True) == expected
    assert position_matrix("random-comparator", 3) == [[float(p) for p in row] for row in expected]


def test_random_comparators_matrix_walks_up_to_six_cards_and_says_so_beyond():
    assert len(position_matrix("random-comparator", MAX_WALKED_CARDS)) == MAX_WALKED_CARDS
    with pytest.raises(ExactTooCostly, match="^random-comparator's exact matrix walks every path of the sort, "
                                             "so it needs 0 to 6 cards, not 52$"):
        position_matrix("random-comparator", 52)


@pytest.mark.parametrize("entry", [e for e in catalog.ALGORITHMS if e.matrix_max_n is not None], ids=lambda e: e.id)
def test_a_matrix_with_a_reach_is_offered_up_to_it_and_refused_beyond(entry):
    # matrix_max_n is the catalog's word for how far the matrix goes: the analysis must agree
    assert len(position_matrix(entry.id, entry.matrix_max_n, entry.test_params)) == entry.matrix_max_n
    with pytest.raises(ExactTooCostly, match=f"not {entry.matrix_max_n + 1}$"):
        position_matrix(entry.id, entry.matrix_max_n + 1, entry.test_params)


@pytest.mark.usefixtures("only_built_ins_afterwards")  # tests/unit/conftest.py
def test_an_entry_without_a_matrix_says_why():
    catalog.register(catalog.Algorithm("test-no-matrix", "No matrix", "a test", "Keep the deck.", catalog.BIASED,
                                       lambda cards, rng: list(cards), no_matrix_reason="a test entry has none"))
    with pytest.raises(NoExactMatrix, match="^a test entry has none$"):
        position_matrix("test-no-matrix", 5)


@pytest.mark.parametrize("algorithm_id", ["fisher-yates", "splice", "stack", "random-key"])
def test_unbiased_algorithms_have_the_uniform_matrix_at_104_cards(algorithm_id):
    n = 104
    matrix = position_matrix(algorithm_id, n)
    assert all(abs(x - 1 / n) < 1e-14 for row in matrix for x in row)


def test_off_by_one_has_an_empty_diagonal_and_uniform_elsewhere():
    n = 52
    matrix = position_matrix("fisher-yates-off-by-one", n)
    assert all(matrix[i][i] == 0.0 for i in range(n))
    assert all(abs(matrix[i][j] - 1 / (n - 1)) < 1e-14 for i in range(n) for j in range(n) if i != j)


def test_naive_pairs_closed_form_matches_step_by_step_enumeration():
    for n in range(1, 5):
        implied = position_matrix_from_distribution(enumerated("naive-pairs", n), n)
        assert position_matrix("naive-pairs", n, exact=True) == implied


def test_gsr_pass_matrix_closed_form_rows_and_columns_sum_to_one():
    for n in (1, 2, 7, 52):
        matrix = riffle_gsr_pass_matrix(n, Fraction(1))
        assert all(sum(row) == 1 for row in matrix)
        assert all(sum(column) == 1 for column in zip(*matrix))


def test_cut_insert_fixes_the_bottom_card_and_mixes_the_rest():
    n = 52
    matrix = position_matrix("cut-insert", n)
    assert matrix[n - 1][n - 1] == pytest.approx(1, abs=1e-15)
    assert all(abs(matrix[i][j] - 1 / (n - 1)) < 1e-12 for i in range(n - 1) for j in range(n - 1))


def test_swap_any_is_biased_and_doubly_stochastic_at_52_cards():
    n = 52
    matrix = position_matrix("swap-any", n)
    assert all(abs(sum(row) - 1) < 1e-13 for row in matrix)
    assert all(abs(sum(column) - 1) < 1e-13 for column in zip(*matrix))
    assert max(abs(x * n - 1) for row in matrix for x in row) > 0.3


def test_empty_deck_has_an_empty_matrix():
    assert position_matrix("swap-any", 0) == []


# --- seeded tallies of the ports against the matrices ---------------------------------------------

# (algorithm, cards, params, shuffles): each entry's tallies in the catalog
MONTE_CARLO = monte_carlo()


def test_the_seeded_tallies_cover_every_entry_with_a_matrix_but_those_that_say_why_not():
    # c-rand (tallies=()): its matrix is exact over every seed only on power-of-two decks (tests/unit/exact/test_crand.py);
    # elsewhere it models an ideal rand(): test_c_rand_port_agrees_with_the_ideal_rand_model
    none = {entry.id for entry in catalog.ALGORITHMS if entry.tallies == ()}
    assert {case[0] for case in MONTE_CARLO} | none == set(WITH_MATRIX)


@pytest.mark.parametrize("algorithm_id, n, params, trials", MONTE_CARLO)
def test_seeded_tally_agrees_with_the_exact_matrix(algorithm_id, n, params, trials):
    # fixed seed, so the outcome is deterministic; the bound (p > 1e-6 after Bonferroni
    # over the rows) would fail for a model off by a few percent in any row
    counts = port_tally(algorithm_id, n, trials, FastRng(2024), params=params)
    comparison = chi_square_exact(counts, position_matrix(algorithm_id, n, params))
    assert not comparison.impossible
    assert comparison.p_value > 1e-6


def test_c_rand_port_agrees_with_the_ideal_rand_model():
    n, trials = 6, 16000  # not a power of two: 8 cards would be the real rand()'s matrix
    counts = port_tally("c-rand", n, trials, FastRng(3))
    comparison = chi_square_exact(counts, position_matrix("c-rand", n))
    assert comparison.p_value > 1e-6


def test_a_wrong_matrix_is_caught_by_the_same_tally():
    counts = port_tally("swap-any", 9, 9000, FastRng(2024))
    comparison = chi_square_exact(counts, position_matrix("fisher-yates", 9))
    assert comparison.p_value < 1e-9


# --- what a first matrix costs ---------------------------------------------------------------------


def test_only_the_hand_riffle_and_cut_insert_matrices_are_estimated_slow():
    assert matrix_seconds_estimate("riffle-physical", 52) == PHYSICAL_SECONDS_AT_52
    assert matrix_seconds_estimate("riffle-physical", 13) < 0.1
    # cut-insert's cost is n³ a product, and its repetitions decide the products: 21 for 100,000, none for 1
    assert matrix_seconds_estimate("cut-insert", 128, {"repetitions": 100_000}) == pytest.approx(21 * 0.05)
    assert matrix_seconds_estimate("cut-insert", 128, {"repetitions": 1}) == 0
    assert matrix_seconds_estimate("cut-insert", 52) < 0.1  # the default 15,000 on a pack
    slow = ("riffle-physical", "cut-insert")  # and c-rand on 8 and 16 cards only (test_crand.py)
    assert all(matrix_seconds_estimate(entry.id, 128) == 0 for entry in catalog.entries() if entry.id not in slow)


@pytest.mark.parametrize("k", [1, 2, 3, 7, 8, 15_000, 100_000])
def test_a_power_in_steps_counts_its_products_and_gives_the_power(k):
    step = cut_insert_step_matrix(5)
    steps = matrix_power_steps(step, k)
    fractions = []
    result = run_steps(steps, fractions.append)
    assert len(fractions) == power_products(k) and fractions == sorted(fractions) and fractions[-1:] in ([], [1.0])
    assert result == matrix_power(step, k)
    exact = matrix_power(cut_insert_step_matrix(5, Fraction(1)), k) if k < 100 else None
    assert exact is None or all(math.isclose(a, float(b)) for row, erow in zip(result, exact) for a, b in zip(row, erow))
