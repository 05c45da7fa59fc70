"""What the lab shows about a tally: one verdict sentence, the figures, the fixed-point bars."""

import math

import pytest

from shufflelab.cards import standard_deck
from shufflelab.exact.matrices import position_matrix
from shufflelab.lab.summary import summarize
from shufflelab.lab.words import place_words
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
    assert summary["verdict"] == "too-few"
    assert summary["sentence"] == "Too early to tell: 100 of the 260 shuffles needed for a verdict so far."
    assert "260 needed" in summary["detail"]


def test_summary_unmasks_sattolo_by_its_fixed_points_before_the_position_test_can():
    t = tally_of("fisher-yates-off-by-one", 52, 100)  # the position test needs 260
    summary = summarize(t.counts, t.fixed_points)
    assert summary["verdict"] == "biased"
    assert "Sattolo" in summary["fixed_points"]["sentence"]
    # the fixed points spoke, so the plain sentence says what they saw, not a cell of the heat map
    assert summary["sentence"] == ("Biased: none of its 100 shuffles left a card in place, while a perfect shuffle "
                                   "leaves at least one in place 63% of the time.")


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
        "Most over-represented: the card that started at the bottom at the bottom, 1.80× as often as uniform. "
        "Most under-represented: the card that started on top 2nd from the top, 0.60× as often as uniform.")
    assert heat_summary([[0, 0], [0, 0]]) == "Nothing counted yet: every cell is grey."


# --- the verdict in plain words: one sentence first, the test's own words and the figures behind it -------------------


def test_a_fair_shuffle_reads_fair_so_far_with_no_statistics_in_the_sentence():
    t = tally_of("fisher-yates", 52, 20_000)
    summary = summarize(t.counts, t.fixed_points)
    assert summary["sentence"] == "Fair so far: after 20,000 shuffles, nothing tells it apart from a perfect shuffle."
    assert summary["detail"].startswith("No bias detected at 20,000 shuffles (p = ")
    assert "p =" not in summary["sentence"] and "χ²" not in summary["sentence"]  # the figures are one click away


def test_a_biased_shuffle_names_the_cell_farthest_from_uniform():
    t = tally_of("swap-any", 52, 20_000)
    summary = summarize(t.counts, t.fixed_points)
    worst = max((count, card, position) for card, row in enumerate(t.counts) for position, count in enumerate(row))
    ratio = worst[0] * 52 / 20_000
    face, place = standard_deck().card(worst[1]).label, place_words(worst[2], 52)
    times = f"{round((ratio - 1) * 100)}% more often than" if ratio < 2 else f"{ratio:.1f} times as often as"
    assert summary["sentence"] == (f"Biased: {face} ends up {place} {times} a perfect shuffle would, more than chance "
                                   f"can explain.")
    assert summary["detail"].startswith("Biased: p ≈ 1e-") and "threshold 1e-9" in summary["detail"]


def test_a_cell_never_reached_is_said_as_never():
    t = tally_of("fisher-yates-off-by-one", 8, 2_000)
    summary = summarize(t.counts, t.fixed_points)
    assert summary["sentence"].startswith("Biased: the card that started ") and " never ended up " in summary["sentence"]
    assert summary["sentence"].endswith("in 2,000 shuffles, where a perfect shuffle puts it there 1 time in 8.")


def test_a_suspicious_verdict_says_what_it_saw_and_to_keep_shuffling():
    from shufflelab.lab.summary import plain_sentence

    positions = {"trials": 5_000, "cards": 10, "minimum_trials": 50,
                 "verdict": {"level": "suspicious", "text": "suspicious: p = 2e-4"},
                 "deviation": {"card": 3, "position": 0, "observed": 600, "expected": 500.0, "percent": 20.0}}
    fixed = {"verdict": {"level": "no-bias", "text": ""}, "trials": 5_000, "observed": [1] * 11, "mean_observed": 1.0}
    assert plain_sentence(positions["verdict"], positions, fixed) == (
        "Suspicious: the card that started 4th from the top ends up on top 20% more often than a perfect shuffle "
        "would; not yet enough to call it biased, so keep shuffling.")
    fixed = {"verdict": {"level": "suspicious", "text": ""}, "trials": 5_000, "observed": [1] * 11, "mean_observed": 1.2}
    positions["verdict"] = {"level": "no-bias", "text": ""}
    assert plain_sentence(fixed["verdict"], positions, fixed).startswith(
        "Suspicious: it leaves 1.20 cards where they started per shuffle on average, where a perfect shuffle leaves 1;")


@pytest.mark.parametrize("ratio, words", [
    (1.36, "36% more often than"), (0.64, "36% less often than"), (1.004, "0.4% more often than"),
    (2.5, "2.5 times as often as"), (6.5, "6.5 times as often as"), (12.0, "12 times as often as"),
])
def test_how_often_says_a_ratio_in_words(ratio, words):
    from shufflelab.lab.summary import how_often

    assert how_often(ratio) == words


def test_a_deck_of_one_card_is_fair():
    assert summarize([[7]], [0, 7])["sentence"] == "Fair: a deck of one card cannot be biased."


def test_a_suspicious_verdict_gives_its_odds_in_words_and_leaves_the_p_value_to_the_figures():
    from shufflelab.lab.summary import plain_sentence

    positions = {"trials": 5_000, "cards": 10, "minimum_trials": 50, "uniform": {"p_value": 8.3e-5},
                 "verdict": {"level": "suspicious", "text": "suspicious: p = 8.3e-05"},
                 "deviation": {"card": 3, "position": 0, "observed": 600, "expected": 500.0, "percent": 20.0}}
    fixed = {"verdict": {"level": "no-bias", "text": ""}, "trials": 5_000, "observed": [1] * 11, "mean_observed": 1.0}
    sentence = plain_sentence(positions["verdict"], positions, fixed)
    assert "; a perfect shuffle looks this far off about 1 in 12 thousand times; not yet enough" in sentence
    assert "8.3e-05" not in sentence and "p =" not in sentence


def test_a_shuffle_that_never_drew_from_rng_is_told_so_before_any_figure():
    same = [[10 if card == position else 0 for position in range(4)] for card in range(4)]  # 10 shuffles, one order
    summary = summarize(same, [0, 0, 0, 0, 10], drew=False)
    assert summary["sentence"] == "Biased: your shuffle never called rng, so it gives the same order every time."
    varied = [[25] * 4 for _ in range(4)]
    sentence = summarize(varied, [37, 37, 19, 0, 7], drew=False)["sentence"]
    assert sentence.startswith("Looks fair, but your shuffle never called rng, so its orders come from something")
    assert summarize(varied, [37, 37, 19, 0, 7])["sentence"].startswith("Fair so far: after 100 shuffles")
