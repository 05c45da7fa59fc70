"""The position tally against uniform (with the dependent-cells correction) and against an exact matrix."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from shufflelab.errors import ShuffleLabError
from shufflelab.exact.matrices import position_matrix
from shufflelab.stats.positions import (
    chi_square_exact,
    chi_square_uniform,
    cressie_read,
    largest_deviation,
    pooled_bins,
    position_report,
)
from shufflelab.stats.verdicts import MIN_EXPECTED
from shufflelab.tally import FastRng

from .helpers import port_tally

# --- the uniform test and its correction for dependent cells ----------------------------------------


def test_corrected_statistic_is_chi_square_on_n_minus_1_squared_df_under_uniform_shuffles():
    # 600 independent tallies of 120 Fisher-Yates shuffles of 5 cards: the corrected statistic
    # must have mean (n−1)² = 16 (exactly, for any N) and variance ≈ 2·16; the naive one has
    # mean n(n−1) = 20, which is why the correction is needed
    n, trials, tallies = 5, 120, 600
    rng = FastRng(11)
    corrected, p_values = [], []
    for _ in range(tallies):
        test = chi_square_uniform(port_tally("fisher-yates", n, trials, rng))
        assert test.df == (n - 1) ** 2
        corrected.append(test.statistic)
        p_values.append(test.p_value)
    mean = sum(corrected) / tallies
    variance = sum((x - mean) ** 2 for x in corrected) / (tallies - 1)
    standard_error = math.sqrt(2 * 16 / tallies)
    assert abs(mean - 16) < 4 * standard_error
    assert abs(mean * n / (n - 1) - 20) < 5 * standard_error  # the uncorrected statistic's mean
    assert 32 * 0.75 < variance < 32 * 1.25
    assert scipy_stats.kstest(p_values, "uniform").pvalue > 1e-3


def test_uniform_statistic_is_the_pearson_sum_scaled():
    counts = [[3, 1, 0], [0, 2, 2], [1, 1, 2]]
    trials, n = 4, 3
    pearson = sum((o - trials / n) ** 2 / (trials / n) for row in counts for o in row)
    test = chi_square_uniform(counts)
    assert test.statistic == pytest.approx(pearson * (n - 1) / n)
    assert test.p_value == pytest.approx(scipy_stats.chi2.sf(test.statistic, 4))


def test_tally_must_be_a_sum_of_permutations():
    with pytest.raises(ShuffleLabError, match="square"):
        chi_square_uniform([[1, 0], [0]])
    with pytest.raises(ShuffleLabError, match="sum"):
        chi_square_uniform([[2, 0], [0, 1]])


def test_swap_any_is_called_biased_and_fisher_yates_is_not():
    rng = FastRng(5)
    fair = position_report(port_tally("fisher-yates", 12, 6000, rng))
    biased = position_report(port_tally("swap-any", 12, 6000, rng))
    assert fair["verdict"]["level"] == "no-bias"
    assert biased["verdict"]["level"] == "biased"
    assert biased["deviation"]["percent"] > fair["deviation"]["percent"]


def test_too_few_shuffles_gives_no_verdict():
    report = position_report(port_tally("swap-any", 10, 20, FastRng(1)))
    assert report["minimum_trials"] == 50
    assert report["verdict"]["level"] == "too-few"


def test_one_card_deck_is_never_biased():
    report = position_report([[7]])
    assert report["verdict"]["level"] == "no-bias"


def test_largest_deviation_finds_the_cell():
    counts = [[6, 2], [2, 6]]
    deviation = largest_deviation(counts)
    assert (deviation.percent, deviation.observed, deviation.expected) == (50.0, 6, 4.0)


# --- against an exact matrix ------------------------------------------------------------------------------


def test_exact_comparison_accepts_the_true_model_and_rejects_uniform():
    rng = FastRng(8)
    counts = port_tally("swap-any", 10, 8000, rng)
    assert chi_square_exact(counts, position_matrix("swap-any", 10)).p_value > 1e-6
    assert chi_square_exact(counts, position_matrix("fisher-yates", 10)).p_value < 1e-9


def test_exact_comparison_p_values_are_not_too_small_under_the_model():
    # 200 tallies of a correct model: Bonferroni p-values may be conservative, never liberal
    rng = FastRng(9)
    matrix = position_matrix("naive-pairs", 6)
    p_values = [chi_square_exact(port_tally("naive-pairs", 6, 300, rng), matrix).p_value for _ in range(200)]
    assert sum(p < 0.05 for p in p_values) <= 20


def test_a_count_in_an_impossible_cell_is_a_certain_mismatch():
    counts = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]  # the identity, which Sattolo never makes
    matrix = position_matrix("fisher-yates-off-by-one", 3)
    comparison = chi_square_exact(counts, matrix)
    assert comparison.p_value == 0.0 and len(comparison.impossible) == 3
    report = position_report(counts, matrix)
    assert report["exact_verdict"]["level"] == "mismatch"  # decisive even after one shuffle


def test_row_pooling_keeps_every_bin_at_five_expected():
    bins = pooled_bins([20.0, 0.1, 3.0, 0.2, 10.0], [20, 1, 4, 0, 9])
    assert all(expected >= MIN_EXPECTED for expected, _ in bins)
    assert sum(o for _, o in bins) == 34


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0.01, 30), min_size=1, max_size=30), st.data())
def test_which_cells_pool_never_depends_on_the_counts(expected, data):
    first = data.draw(st.lists(st.integers(0, 50), min_size=len(expected), max_size=len(expected)))
    second = data.draw(st.lists(st.integers(0, 50), min_size=len(expected), max_size=len(expected)))
    assert [e for e, _ in pooled_bins(expected, first)] == [e for e, _ in pooled_bins(expected, second)]


def test_an_expectation_a_rounding_error_below_five_is_not_pooled():
    trials, n = 260, 52
    matrix = position_matrix("fisher-yates", n)  # 1/52 as sums of products: some cells compute below it
    for row in matrix:
        expected = [trials * float(p) for p in row]
        assert len(pooled_bins(expected, [5] * n)) == n
    assert min(trials * float(p) for row in matrix for p in row) < MIN_EXPECTED


def test_report_with_exact_matrix_is_plain_data():
    rng = FastRng(2)
    matrix = position_matrix("riffle-gsr", 8, {"passes": 2})
    report = position_report(port_tally("riffle-gsr", 8, 2000, rng, {"passes": 2}), matrix)
    assert report["exact_verdict"]["level"] == "matches"
    assert report["verdict"]["level"] == "biased"
    assert isinstance(report["exact"]["row_p_values"], list)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.floats(0.5, 1e6), st.integers(0, 10**6)), min_size=2, max_size=20))
def test_cressie_read_is_scipys_power_divergence(cells):
    expected = [e for e, _ in cells]
    observed = [o for _, o in cells]
    total = sum(observed)
    if total == 0:
        return
    scaled = [e * total / sum(expected) for e in expected]  # the statistic compares counts with the same total
    theirs = scipy_stats.power_divergence(observed, scaled, lambda_="cressie-read").statistic
    assert cressie_read(list(zip(scaled, observed))) == pytest.approx(theirs, rel=1e-9, abs=1e-9)
