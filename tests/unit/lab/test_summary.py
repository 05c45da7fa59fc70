"""What the lab shows about a tally: one verdict sentence, the figures, the fixed-point bars."""

import math

import pytest

from shufflelab.exact.matrices import position_matrix
from shufflelab.lab.summary import summarize
from shufflelab.tally import Tally


def tally_of(algo_id: str, n: int, trials: int, seed: int = 5) -> Tally:
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
    summary = summarize(t.counts, t.fixed_points)
    assert summary["verdict"] == level
    assert summary["sentence"][0].isupper() and summary["sentence"].endswith(".")
    assert dict(summary["figures"])["Shuffles"] == "20,000"


def test_summary_says_nothing_before_enough_shuffles():
    t = tally_of("swap-any", 52, 100)
    summary = summarize(t.counts, t.fixed_points)
    assert summary["verdict"] == "too-few" and "260 needed" in summary["sentence"]


def test_summary_unmasks_sattolo_by_its_fixed_points_before_the_position_test_can():
    t = tally_of("fisher-yates-off-by-one", 52, 100)  # the position test needs 260
    summary = summarize(t.counts, t.fixed_points)
    assert summary["verdict"] == "biased"
    assert "Sattolo" in summary["fixed_points"]["sentence"]


def test_summary_compares_with_the_exact_matrix_when_there_is_one():
    t = tally_of("swap-any", 8, 5_000)
    figures = dict(summarize(t.counts, t.fixed_points, position_matrix("swap-any", 8))["figures"])
    assert figures["Against the exact matrix"].startswith("consistent with its exact model")
    assert "Against the exact matrix" not in dict(summarize(t.counts, t.fixed_points)["figures"])


def test_fixed_point_bars_put_the_tail_in_one_bar_and_sum_to_one():
    t = tally_of("fisher-yates", 52, 3_000)
    bars = summarize(t.counts, t.fixed_points)["fixed_points"]
    assert bars["labels"] == ["0", "1", "2", "3", "4", "5+"]
    assert sum(bars["observed"]) == pytest.approx(1) and sum(bars["expected"]) == pytest.approx(1)
    assert bars["expected"][0] == pytest.approx(math.exp(-1), rel=1e-6)


def test_the_heat_map_in_words_names_its_extreme_cells():
    from shufflelab.lab.summary import heat_summary

    tally = [[6, 2, 2], [2, 6, 2], [2, 2, 6]]  # the identity shows through: 1.8× on the diagonal
    assert heat_summary(tally) == (
        "Most over-represented: card 2 at position 2, 1.80× as often as uniform. "
        "Most under-represented: card 0 at position 1, 0.60× as often as uniform.")
    assert heat_summary([[0, 0], [0, 0]]) == "Nothing counted yet: every cell is grey."
