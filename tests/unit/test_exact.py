"""Exact bias: enumeration of the ports, the models checked against them, matrices, riffle TV, CLI."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from itertools import permutations

import pytest

from shufflelab import algorithms, cli, exact, stats
from shufflelab.rng import FastRng

ALL_BUT_COMPARATOR = [a.id for a in algorithms.ALGORITHMS if a.id != "random-comparator"]
SMALL_PARAMS = {"riffle-gsr": {"passes": 2}, "riffle-physical": {"passes": 2}, "cut-insert": {"repetitions": 3}}


def port(algorithm_id: str, n: int, params: dict | None = None) -> dict:
    dist, cut = exact.enumerate_port(algorithm_id, n, params)
    assert cut == 0
    return dist


def cyclic(order: tuple[int, ...]) -> bool:
    """True when the order, read as a permutation, is one single cycle."""
    seen, k, length = set(), 0, 0
    while k not in seen:
        seen.add(k)
        k = order[k]
        length += 1
    return length == len(order)


def tally(algorithm_id: str, n: int, trials: int, seed: int, params: dict | None = None) -> list[list[int]]:
    rng = FastRng(seed)
    counts = [[0] * n for _ in range(n)]
    deck = list(range(n))
    for _ in range(trials):
        for position, card in enumerate(algorithms.shuffled(deck, algorithm_id, rng, params)):
            counts[card][position] += 1
    return counts


# --- enumeration of the ports ------------------------------------------------------------


@pytest.mark.parametrize("algorithm_id", ["fisher-yates", "splice", "stack"])
@pytest.mark.parametrize("n", range(0, 7))
def test_the_correct_ports_give_every_order_exactly_once_in_n_factorial(algorithm_id, n):
    dist = port(algorithm_id, n)
    assert dist == {order: Fraction(1, math.factorial(n)) for order in permutations(range(n))}


@pytest.mark.parametrize("n", range(2, 7))
def test_off_by_one_gives_exactly_the_single_cycle_orders_uniformly(n):
    dist = port("fisher-yates-off-by-one", n)
    cycles = [o for o in permutations(range(n)) if cyclic(o)]
    assert dist == {o: Fraction(1, math.factorial(n - 1)) for o in cycles}


def test_enumeration_weights_paths_by_their_bounds():
    # random-comparator draws a variable number of coins, so paths have different weights
    dist = port("random-comparator", 3)
    assert sum(dist.values()) == 1
    assert len(dist) == 6 and len(set(dist.values())) > 1


def test_enumerating_a_float_drawing_port_is_refused():
    with pytest.raises(exact.NotEnumerable):
        exact.enumerate_port("random-key", 3)


def test_cut_paths_are_reported_not_counted():
    dist, cut = exact.enumerate_port("fisher-yates", 4, max_draws=2)
    assert dist == {} and cut == 1


# --- the models, checked against the ports ----------------------------------------------------


@pytest.mark.parametrize("n", range(0, 7))
def test_swap_any_model_equals_the_enumerated_port(n):
    assert exact.outcome_distribution("swap-any", n) == port("swap-any", n)


@pytest.mark.parametrize("n", range(0, 5))
def test_naive_pairs_model_equals_the_enumerated_port(n):
    assert exact.outcome_distribution("naive-pairs", n) == port("naive-pairs", n)


@pytest.mark.parametrize("n", range(0, 7))
def test_one_gsr_riffle_model_equals_the_enumerated_port(n):
    one = {"passes": 1}
    assert exact.outcome_distribution("riffle-gsr", n, one) == port("riffle-gsr", n, one)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 52])
def test_physical_pass_steps_reproduce_the_port_draw_for_draw(n):
    port_pass = algorithms.get("riffle-physical")
    for seed in range(300 if n < 20 else 40):
        a, b = FastRng(seed), FastRng(seed)
        assert exact.physical_pass(list(range(n)), a) == port_pass.shuffled(list(range(n)), b, {"passes": 1})
        assert a.below(1 << 30) == b.below(1 << 30)  # and they consumed the same draws


@pytest.mark.parametrize("n, max_draws", [(2, 10), (3, 9), (4, 8)])
def test_physical_pass_distribution_is_bracketed_by_the_truncated_port(n, max_draws):
    # the port can loop forever, so enumerate its paths up to max_draws draws: every order's
    # exact probability lies between what those paths give and that plus the cut-off mass
    seen, cut = exact.enumerate_port("riffle-physical", n, {"passes": 1}, max_draws=max_draws)
    dist = exact.outcome_distribution("riffle-physical", n, {"passes": 1})
    assert cut < Fraction(1, 4)
    assert set(seen) <= set(dist)
    for order, p in dist.items():
        assert seen.get(order, 0) <= p <= seen.get(order, 0) + cut


def test_right_counts_below_the_floor_behave_like_the_floor():
    # run the rest of a pass from the same state with right_count at the floor and far below
    rng = FastRng(5)
    for n in range(1, 14):
        for cut_draw in range(9):
            seed = rng.below(1 << 30)
            decks = []
            for depth in (0, 7, 100):
                deck = list(range(n))
                left_half, left_count, _ = exact.physical_cut(deck, cut_draw, 0)
                right_count = exact.physical_floor(n, left_count) - depth
                draws = FastRng(seed)
                while left_count > 0:
                    take, drop = draws.below(4), draws.below(4)
                    left_count, right_count = exact.physical_drop(deck, left_half, left_count, right_count, take, drop)
                exact.physical_finish(deck, left_half, right_count)
                decks.append(deck)
            assert decks[0] == decks[1] == decks[2]


def test_c_rand_residue_weights_count_all_rand_values():
    for n in (1, 2, 3, 7, 52, 108):
        weights = exact.ideal_rand_residue_weights(n)
        assert sum(weights) == 32768
        assert weights == [sum(1 for v in range(32768) if v % n == j) for j in range(n)]


def test_c_rand_port_agrees_with_the_ideal_rand_model():
    n, trials = 8, 16000
    counts = tally("c-rand", n, trials, seed=3)
    comparison = stats.chi_square_exact(counts, exact.position_matrix("c-rand", n))
    assert comparison.p_value > 1e-6


# --- whole-order distributions ---------------------------------------------------------------------


@pytest.mark.parametrize("algorithm_id", [a.id for a in algorithms.ALGORITHMS])
def test_every_distribution_sums_to_one(algorithm_id):
    for n in range(0, 6):
        dist = exact.outcome_distribution(algorithm_id, n, SMALL_PARAMS.get(algorithm_id))
        assert sum(dist.values()) == 1
        assert all(p > 0 for p in dist.values())
        assert all(sorted(order) == list(range(n)) for order in dist)


def test_random_key_is_exactly_uniform_by_exchangeability():
    assert exact.outcome_distribution("random-key", 4) == {o: Fraction(1, 24) for o in permutations(range(4))}


def test_splice_and_stack_are_uniform_at_seven_cards():
    for algorithm_id in ("splice", "stack"):
        dist = exact.outcome_distribution(algorithm_id, 7)
        assert exact.total_variation_to_uniform(dist, 7) == 0


def test_cut_insert_never_moves_the_bottom_card():
    dist = exact.outcome_distribution("cut-insert", 5, {"repetitions": 40})
    assert all(order[-1] == 4 for order in dist)
    assert len(dist) == math.factorial(4)


def test_passes_compose_as_independent_random_permutations():
    one = exact.outcome_distribution("riffle-gsr", 4, {"passes": 1})
    two = exact.outcome_distribution("riffle-gsr", 4, {"passes": 2})
    expected: dict = {}
    for first, p in one.items():
        for second, q in one.items():
            order = tuple(first[second[j]] for j in range(4))
            expected[order] = expected.get(order, 0) + p * q
    assert two == expected


def test_total_variation_of_uniform_and_of_a_point():
    uniform = {o: Fraction(1, 6) for o in permutations(range(3))}
    assert exact.total_variation_to_uniform(uniform, 3) == 0
    assert exact.total_variation_to_uniform({(0, 1, 2): Fraction(1)}, 3) == Fraction(5, 6)


def test_more_than_seven_cards_is_refused():
    with pytest.raises(ValueError, match="0 to 7"):
        exact.outcome_distribution("fisher-yates", 8)


def test_too_costly_compositions_say_how_far_they_can_go():
    with pytest.raises(exact.ExactTooCostly, match=r"limited to \d+ repetitions"):
        exact.outcome_distribution("cut-insert", 7)


# --- position matrices -------------------------------------------------------------------------


@pytest.mark.parametrize("algorithm_id", ALL_BUT_COMPARATOR)
def test_exact_matrix_equals_the_one_implied_by_the_distribution(algorithm_id):
    params = SMALL_PARAMS.get(algorithm_id)
    for n in range(1, 6):
        dist = exact.outcome_distribution(algorithm_id, n, params)
        assert exact.position_matrix(algorithm_id, n, params, exact=True) == \
            exact.position_matrix_from_distribution(dist, n)


@pytest.mark.parametrize("algorithm_id", ALL_BUT_COMPARATOR)
def test_float_matrix_agrees_with_the_exact_one(algorithm_id):
    params = SMALL_PARAMS.get(algorithm_id)
    for n in (1, 2, 6):
        floats = exact.position_matrix(algorithm_id, n, params)
        exacts = exact.position_matrix(algorithm_id, n, params, exact=True)
        assert all(abs(f - float(e)) < 1e-12 for fr, er in zip(floats, exacts) for f, e in zip(fr, er))


@pytest.mark.parametrize("algorithm_id", ["riffle-gsr", "riffle-physical", "cut-insert"])
def test_default_passes_at_six_cards_match_enumeration(algorithm_id):
    n = 6
    params = {"repetitions": 200} if algorithm_id == "cut-insert" else None
    dist = exact.outcome_distribution(algorithm_id, n, params)
    implied = exact.position_matrix_from_distribution(dist, n)
    floats = exact.position_matrix(algorithm_id, n, params)
    assert all(abs(f - float(e)) < 1e-12 for fr, er in zip(floats, implied) for f, e in zip(fr, er))


def test_random_comparator_has_no_exact_matrix_and_says_why():
    with pytest.raises(exact.NoExactMatrix, match="not a Markov chain"):
        exact.position_matrix("random-comparator", 5)


@pytest.mark.parametrize("algorithm_id", ["fisher-yates", "splice", "stack", "random-key"])
def test_unbiased_algorithms_have_the_uniform_matrix_at_104_cards(algorithm_id):
    n = 104
    matrix = exact.position_matrix(algorithm_id, n)
    assert all(abs(x - 1 / n) < 1e-14 for row in matrix for x in row)


def test_off_by_one_has_an_empty_diagonal_and_uniform_elsewhere():
    n = 52
    matrix = exact.position_matrix("fisher-yates-off-by-one", n)
    assert all(matrix[i][i] == 0.0 for i in range(n))
    assert all(abs(matrix[i][j] - 1 / (n - 1)) < 1e-14 for i in range(n) for j in range(n) if i != j)


def test_naive_pairs_closed_form_matches_step_by_step_enumeration():
    for n in range(1, 5):
        implied = exact.position_matrix_from_distribution(port("naive-pairs", n), n)
        assert exact.position_matrix("naive-pairs", n, exact=True) == implied


def test_gsr_pass_matrix_closed_form_rows_and_columns_sum_to_one():
    for n in (1, 2, 7, 52):
        matrix = exact.riffle_gsr_pass_matrix(n, Fraction(1))
        assert all(sum(row) == 1 for row in matrix)
        assert all(sum(column) == 1 for column in zip(*matrix))


def test_cut_insert_fixes_the_bottom_card_and_mixes_the_rest():
    n = 52
    matrix = exact.position_matrix("cut-insert", n)
    assert matrix[n - 1][n - 1] == pytest.approx(1, abs=1e-15)
    assert all(abs(matrix[i][j] - 1 / (n - 1)) < 1e-12 for i in range(n - 1) for j in range(n - 1))


def test_swap_any_is_biased_and_doubly_stochastic_at_52_cards():
    n = 52
    matrix = exact.position_matrix("swap-any", n)
    assert all(abs(sum(row) - 1) < 1e-13 for row in matrix)
    assert all(abs(sum(column) - 1) < 1e-13 for column in zip(*matrix))
    assert max(abs(x * n - 1) for row in matrix for x in row) > 0.3


def test_empty_deck_has_an_empty_matrix():
    assert exact.position_matrix("swap-any", 0) == []


MONTE_CARLO = [
    ("swap-any", 9, None, 9000),
    ("naive-pairs", 9, None, 9000),
    ("fisher-yates-off-by-one", 9, None, 9000),
    ("splice", 9, None, 9000),
    ("stack", 9, None, 9000),
    ("riffle-gsr", 9, {"passes": 2}, 9000),
    ("cut-insert", 9, {"repetitions": 4}, 9000),
    ("riffle-physical", 16, {"passes": 1}, 6000),
    ("riffle-physical", 9, {"passes": 3}, 6000),
    ("fisher-yates", 9, None, 9000),
    ("random-key", 9, None, 9000),
    ("none", 9, None, 100),
]


@pytest.mark.parametrize("algorithm_id, n, params, trials", MONTE_CARLO)
def test_seeded_tally_agrees_with_the_exact_matrix(algorithm_id, n, params, trials):
    # fixed seed, so the outcome is deterministic; the bound (p > 1e-6 after Bonferroni
    # over the rows) would fail for a model off by a few percent in any row
    counts = tally(algorithm_id, n, trials, seed=2024, params=params)
    comparison = stats.chi_square_exact(counts, exact.position_matrix(algorithm_id, n, params))
    assert not comparison.impossible
    assert comparison.p_value > 1e-6


def test_a_wrong_matrix_is_caught_by_the_same_tally():
    counts = tally("swap-any", 9, 9000, seed=2024)
    comparison = stats.chi_square_exact(counts, exact.position_matrix("fisher-yates", 9))
    assert comparison.p_value < 1e-9


def test_physical_pass_matrix_matches_its_distribution_exactly():
    for n in range(1, 6):
        dist = exact.outcome_distribution("riffle-physical", n, {"passes": 1})
        assert exact.riffle_physical_pass_matrix(n, Fraction(1)) == exact.position_matrix_from_distribution(dist, n)


# --- riffle total variation ------------------------------------------------------------------------


def test_eulerian_numbers_count_orders_by_descents():
    for n in range(1, 7):
        row = exact.eulerian_row(n)
        counts = [0] * n
        for order in permutations(range(n)):
            counts[sum(order[i] > order[i + 1] for i in range(n - 1))] += 1
        assert list(row) == counts


@pytest.mark.parametrize("n", range(1, 6))
def test_riffle_tv_equals_the_distance_of_the_composed_distribution(n):
    distances = exact.riffle_tv(n, 4)
    for k, distance in enumerate(distances, start=1):
        dist = exact.outcome_distribution("riffle-gsr", n, {"passes": k})
        assert distance == exact.total_variation_to_uniform(dist, n)


def test_riffle_tv_famous_values_for_52_cards():
    distances = [float(d) for d in exact.riffle_tv(52, 10)]
    assert distances[4] == pytest.approx(0.924, abs=5e-4)
    assert distances[6] == pytest.approx(0.334, abs=5e-4)
    assert distances[7] == pytest.approx(0.167, abs=5e-4)
    assert all(a > b for a, b in zip(distances[3:], distances[4:]))


def test_riffle_tv_is_exact_and_fast_enough_for_104_cards_and_twelve_riffles():
    distances = exact.riffle_tv(104, 12)
    assert all(isinstance(d, Fraction) and 0 <= d <= 1 for d in distances)
    assert float(distances[-1]) < float(distances[8]) < 1


# --- the command line -----------------------------------------------------------------------------------


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_cli_exact_json_lists_every_order_as_fractions(capsys):
    status, out, _ = run(capsys, "exact", "--algo", "fisher-yates-off-by-one", "--cards", "4", "--json")
    data = json.loads(out)
    assert status == 0
    assert len(data["orders"]) == 24 and data["reachable"] == 6
    probabilities = {tuple(row["order"]): row["probability"] for row in data["orders"]}
    assert probabilities[(1, 2, 3, 0)] == "1/6" and probabilities[(0, 1, 2, 3)] == "0/1"
    assert data["total_variation"] == "3/4"


def test_cli_exact_text_ends_with_the_distance(capsys):
    status, out, _ = run(capsys, "exact", "--algo", "riffle-gsr", "--cards", "3", "--passes", "1")
    assert status == 0
    assert out.splitlines()[-1].startswith("total variation distance to uniform: ")
    assert "0 1 2  1/2  (0.5)" in out


@pytest.mark.parametrize("argv", [
    ("exact", "--cards", "8"),
    ("exact", "--algo", "bogus", "--cards", "3"),
    ("exact", "--algo", "riffle-gsr", "--cards", "3", "--passes", "0"),
    ("exact", "--algo", "cut-insert", "--cards", "7"),
    ("exact",),
    ("riffle-tv", "--cards", "0"),
    ("riffle-tv", "--max-k", "99"),
    ("riffle-tv", "--cards", "x"),
])
def test_cli_bad_arguments_exit_2_with_one_line(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("shufflelab: error: ")
    assert "Traceback" not in err


def test_cli_riffle_tv_json(capsys):
    status, out, _ = run(capsys, "riffle-tv", "--cards", "52", "--max-k", "8", "--json")
    data = json.loads(out)
    assert status == 0 and data["cards"] == 52
    assert [row["k"] for row in data["distances"]] == list(range(1, 9))
    assert data["distances"][6]["value"] == pytest.approx(0.334061, abs=1e-6)
    assert Fraction(data["distances"][6]["exact"]) == exact.riffle_tv(52, 7)[6]


def test_cli_riffle_tv_text(capsys):
    status, out, _ = run(capsys, "riffle-tv", "--max-k", "7")
    assert status == 0
    assert out.splitlines()[-1] == " 7  0.334061"


def test_only_the_hand_riffle_matrix_is_estimated_slow():
    assert exact.matrix_seconds_estimate("riffle-physical", 52) == exact.PHYSICAL_SECONDS_AT_52
    assert exact.matrix_seconds_estimate("riffle-physical", 13) < 0.1
    assert all(exact.matrix_seconds_estimate(a.id, 128) == 0 for a in algorithms.ALGORITHMS if a.id != "riffle-physical")
