"""Statistics of a bias tally: p-values against SciPy, the dependent-cells correction, verdicts, fixed points."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import permutations

import pytest
from scipy import special
from scipy import stats as scipy_stats

from shufflelab import algorithms, exact, stats
from shufflelab.rng import FastRng
from shufflelab.tally import Tally


def tally(algorithm_id: str, n: int, trials: int, rng: FastRng, params: dict | None = None) -> list[list[int]]:
    counts = [[0] * n for _ in range(n)]
    deck = list(range(n))
    for _ in range(trials):
        for position, card in enumerate(algorithms.shuffled(deck, algorithm_id, rng, params)):
            counts[card][position] += 1
    return counts


def fixed_point_histogram(algorithm_id: str, n: int, trials: int, rng: FastRng) -> list[int]:
    histogram = [0] * (n + 1)
    deck = list(range(n))
    for _ in range(trials):
        order = algorithms.shuffled(deck, algorithm_id, rng)
        histogram[sum(card == position for position, card in enumerate(order))] += 1
    return histogram


# --- p-values -------------------------------------------------------------------------------

DEGREES = [0.5, 1, 2, 3, 7.3, 16, 49, 100, 2601, 10609]


def statistics_for(df: float) -> list[float]:
    sd = math.sqrt(2 * df)
    points = [1e-9, 0.01, 0.5, 1, 2, df / 2, df, df + 1, df + 2, 2 * df, 5 * df + 50, 20 * df + 500, 1e5, 1e6]
    points += [df + k * sd for k in (-5, -3, -1, -0.5, 0.5, 1, 3, 10, 40)]
    return [x for x in points if x > 0]


@pytest.mark.parametrize("df", DEGREES)
def test_chi2_sf_matches_scipy_to_1e10_relative(df):
    for x in statistics_for(df):
        reference = scipy_stats.chi2.sf(x, df)
        if reference > 1e-300:
            assert stats.chi2_sf(x, df) == pytest.approx(reference, rel=1e-10, abs=0)


@pytest.mark.parametrize("df", DEGREES)
def test_chi2_log_sf_matches_scipy_where_scipy_does_not_underflow(df):
    for x in statistics_for(df):
        reference = scipy_stats.chi2.logsf(x, df)
        if math.isfinite(reference):
            assert stats.chi2_log_sf(x, df) == pytest.approx(reference, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("df", DEGREES)
def test_chi2_log_sf_stays_accurate_beyond_float_underflow(df):
    # SciPy's logsf is log(sf) and gives -inf there; mpmath's incomplete gamma does not
    import mpmath  # a test dependency (pyproject.toml): a missing one must fail, not skip
    mpmath.mp.dps = 40
    for x in (20 * df + 2000, 1e5, 1e6):
        reference = float(mpmath.log(mpmath.gammainc(df / 2, x / 2, mpmath.inf, regularized=True)))
        assert stats.chi2_log_sf(x, df) == pytest.approx(reference, rel=1e-12)


def test_gamma_q_matches_scipy_gammaincc():
    for a in (0.25, 1, 3.5, 12, 60.5, 700, 5304.5):
        for x in (1e-6, 0.3, a / 3, a - 1, a, a + 1, a + 3 * math.sqrt(a), 4 * a + 10):
            reference = special.gammaincc(a, x)
            if reference > 1e-300:
                assert stats.gamma_q(a, x) == pytest.approx(reference, rel=1e-10)


def test_chi2_sf_edges():
    assert stats.chi2_sf(0, 4) == 1.0
    assert stats.chi2_sf(1e9, 4) == 0.0
    assert stats.chi2_log_sf(1e9, 4) < -1e8
    with pytest.raises(ValueError):
        stats.chi2_sf(1, 0)


# --- the uniform test and its correction for dependent cells ----------------------------------------


def test_corrected_statistic_is_chi_square_on_n_minus_1_squared_df_under_uniform_shuffles():
    # 600 independent tallies of 120 Fisher-Yates shuffles of 5 cards: the corrected statistic
    # must have mean (n−1)² = 16 (exactly, for any N) and variance ≈ 2·16; the naive one has
    # mean n(n−1) = 20, which is why the correction is needed
    n, trials, tallies = 5, 120, 600
    rng = FastRng(11)
    corrected, p_values = [], []
    for _ in range(tallies):
        test = stats.chi_square_uniform(tally("fisher-yates", n, trials, rng))
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
    test = stats.chi_square_uniform(counts)
    assert test.statistic == pytest.approx(pearson * (n - 1) / n)
    assert test.p_value == pytest.approx(scipy_stats.chi2.sf(test.statistic, 4))


def test_tally_must_be_a_sum_of_permutations():
    with pytest.raises(ValueError, match="square"):
        stats.chi_square_uniform([[1, 0], [0]])
    with pytest.raises(ValueError, match="sum"):
        stats.chi_square_uniform([[2, 0], [0, 1]])


def test_swap_any_is_called_biased_and_fisher_yates_is_not():
    rng = FastRng(5)
    fair = stats.position_report(tally("fisher-yates", 12, 6000, rng))
    biased = stats.position_report(tally("swap-any", 12, 6000, rng))
    assert fair["verdict"]["level"] == "no-bias"
    assert biased["verdict"]["level"] == "biased"
    assert biased["deviation"]["percent"] > fair["deviation"]["percent"]


def test_too_few_shuffles_gives_no_verdict():
    report = stats.position_report(tally("swap-any", 10, 20, FastRng(1)))
    assert report["minimum_trials"] == 50
    assert report["verdict"]["level"] == "too-few"


def test_one_card_deck_is_never_biased():
    report = stats.position_report([[7]])
    assert report["verdict"]["level"] == "no-bias"


def test_largest_deviation_finds_the_cell():
    counts = [[6, 2], [2, 6]]
    deviation = stats.largest_deviation(counts)
    assert (deviation.percent, deviation.observed, deviation.expected) == (50.0, 6, 4.0)


# --- against an exact matrix ------------------------------------------------------------------------------


def test_exact_comparison_accepts_the_true_model_and_rejects_uniform():
    rng = FastRng(8)
    counts = tally("swap-any", 10, 8000, rng)
    assert stats.chi_square_exact(counts, exact.position_matrix("swap-any", 10)).p_value > 1e-6
    assert stats.chi_square_exact(counts, exact.position_matrix("fisher-yates", 10)).p_value < 1e-9


def test_exact_comparison_p_values_are_not_too_small_under_the_model():
    # 200 tallies of a correct model: Bonferroni p-values may be conservative, never liberal
    rng = FastRng(9)
    matrix = exact.position_matrix("naive-pairs", 6)
    p_values = [stats.chi_square_exact(tally("naive-pairs", 6, 300, rng), matrix).p_value for _ in range(200)]
    assert sum(p < 0.05 for p in p_values) <= 20


def test_a_count_in_an_impossible_cell_is_a_certain_mismatch():
    counts = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]  # the identity, which Sattolo never makes
    matrix = exact.position_matrix("fisher-yates-off-by-one", 3)
    comparison = stats.chi_square_exact(counts, matrix)
    assert comparison.p_value == 0.0 and len(comparison.impossible) == 3
    report = stats.position_report(counts, matrix)
    assert report["exact_verdict"]["level"] == "mismatch"  # decisive even after one shuffle


def test_row_pooling_keeps_every_bin_at_five_expected():
    bins = stats._pool_small(sorted([(0.1, 1), (0.2, 0), (3.0, 4), (10.0, 9), (20.0, 20)]))
    assert all(expected >= stats.MIN_EXPECTED for expected, _ in bins)
    assert sum(o for _, o in bins) == 34


def test_report_with_exact_matrix_is_plain_data():
    rng = FastRng(2)
    matrix = exact.position_matrix("riffle-gsr", 8, {"passes": 2})
    report = stats.position_report(tally("riffle-gsr", 8, 2000, rng, {"passes": 2}), matrix)
    assert report["exact_verdict"]["level"] == "matches"
    assert report["verdict"]["level"] == "biased"
    assert isinstance(report["exact"]["row_p_values"], list)


# --- verdict thresholds -----------------------------------------------------------------------------------


@pytest.mark.parametrize("p, level", [(1e-12, "biased"), (9.9e-10, "biased"), (1e-9, "suspicious"),
                                      (5e-4, "suspicious"), (1e-3, "no-bias"), (0.4, "no-bias")])
def test_verdict_levels(p, level):
    assert stats.verdict(p, 1000, 100).level == level


def test_threshold_keeps_hours_of_redraws_below_1e4_false_alarms():
    assert stats.LOOKS_PER_SESSION * stats.BIASED_P < 2e-4


# --- fixed points -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(0, 7))
def test_rencontres_distribution_counts_fixed_points(n):
    counts = [0] * (n + 1)
    for order in permutations(range(n)):
        counts[sum(card == position for position, card in enumerate(order))] += 1
    assert stats.fixed_point_distribution(n) == [Fraction(c, math.factorial(n)) for c in counts]


def test_off_by_one_is_flagged_biased_at_once_with_an_explanation():
    histogram = fixed_point_histogram("fisher-yates-off-by-one", 52, 25, FastRng(4))
    assert histogram[0] == 25
    report = stats.fixed_point_report(histogram)
    assert report["verdict"]["level"] == "biased"
    assert "Sattolo" in report["explanation"]
    assert report["log10_p_value"] < -9


def test_fisher_yates_fixed_points_look_uniform():
    report = stats.fixed_point_report(fixed_point_histogram("fisher-yates", 20, 3000, FastRng(6)))
    assert report["verdict"]["level"] == "no-bias"
    assert report["mean_observed"] == pytest.approx(1, abs=0.1)


def test_n_minus_one_fixed_points_is_impossible():
    histogram = [0] * 11
    histogram[9] = 1
    histogram[1] = 40
    report = stats.fixed_point_report(histogram)
    assert report["impossible"] == [9] and report["verdict"]["level"] == "biased"


def test_fixed_point_pooling_and_degrees_of_freedom():
    rng = FastRng(3)
    report = stats.fixed_point_report(fixed_point_histogram("fisher-yates", 52, 400, rng))
    assert 2 <= report["chi_square"]["df"] <= 5
    assert sum(report["expected"]) == pytest.approx(400)


# --- what the lab shows -------------------------------------------------------------------------


def tally_of(algo_id: str, n: int, trials: int, seed: int = 5):
    t = Tally(algo_id, n, seed=seed)
    t.run(trials)
    return t


@pytest.mark.parametrize("algo_id, level", [
    ("fisher-yates", "no-bias"),
    ("swap-any", "biased"),
    ("random-comparator", "biased"),
    ("fisher-yates-off-by-one", "biased"),
])
def test_summary_calls_the_known_shuffles_what_they_are(algo_id, level):
    t = tally_of(algo_id, 52, 20_000)
    summary = stats.summarize(t.counts, t.fixed_points)
    assert summary["verdict"] == level
    assert summary["sentence"][0].isupper() and summary["sentence"].endswith(".")
    assert dict(summary["figures"])["Shuffles"] == "20,000"


def test_summary_says_nothing_before_enough_shuffles():
    t = tally_of("swap-any", 52, 100)
    summary = stats.summarize(t.counts, t.fixed_points)
    assert summary["verdict"] == "too-few" and "260 needed" in summary["sentence"]


def test_summary_unmasks_sattolo_by_its_fixed_points_before_the_position_test_can():
    t = tally_of("fisher-yates-off-by-one", 52, 100)  # the position test needs 260
    summary = stats.summarize(t.counts, t.fixed_points)
    assert summary["verdict"] == "biased"
    assert "Sattolo" in summary["fixed_points"]["sentence"]


def test_summary_compares_with_the_exact_matrix_when_there_is_one():
    t = tally_of("swap-any", 8, 5_000)
    figures = dict(stats.summarize(t.counts, t.fixed_points, exact.position_matrix("swap-any", 8))["figures"])
    assert figures["Against the exact matrix"].startswith("consistent with its exact model")
    assert "Against the exact matrix" not in dict(stats.summarize(t.counts, t.fixed_points)["figures"])


def test_fixed_point_bars_put_the_tail_in_one_bar_and_sum_to_one():
    t = tally_of("fisher-yates", 52, 3_000)
    bars = stats.summarize(t.counts, t.fixed_points)["fixed_points"]
    assert bars["labels"] == ["0", "1", "2", "3", "4", "5+"]
    assert sum(bars["observed"]) == pytest.approx(1) and sum(bars["expected"]) == pytest.approx(1)
    assert bars["expected"][0] == pytest.approx(math.exp(-1), rel=1e-6)
