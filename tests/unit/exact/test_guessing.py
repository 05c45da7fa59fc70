"""The guessing game: best expected scores after k GSR riffles, checked against the project's own riffle-gsr."""

import math
import re
from fractions import Fraction
from itertools import permutations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflelab.errors import ShuffleLabError
from shufflelab.exact import guessing, posterior
from shufflelab.exact.guessing import (
    enumerated_feedback_expected,
    feedback_expected,
    guess_report,
    harmonic,
    no_feedback_expected,
    order_probability,
    random_deck_expected,
    simulated_feedback_expected,
)
from shufflelab.exact.matrices import position_matrix_from_distribution
from shufflelab.exact.orders import outcome_distribution
from shufflelab.exact.posterior import Shown, best_guess, prefix_probability
from shufflelab.riffles import rising_sequences
from shufflelab.tally import FastRng

ROOT = Path(__file__).resolve().parents[3]
GUESSING_PAGE = ROOT / "docs" / "explanation" / "guessing.md"  # the table of 52-card scores


def brute_force_feedback(dist, n):
    """Play the best guesser on every order of the project's own distribution, prefix by prefix."""
    total = Fraction(0)
    for m in range(n):
        by_prefix: dict = {}
        for order, p in dist.items():
            extension = by_prefix.setdefault(order[:m], {})
            extension[order[m]] = extension.get(order[m], 0) + p
        total += sum(max(extension.values()) for extension in by_prefix.values())
    return total


def test_two_and_three_cards_by_hand():
    # one riffle of 2 cards: in order 3/4 (cut 0, 2, or 1 with the top card dropped first), reversed 1/4
    assert no_feedback_expected(2, 1) == Fraction(3, 2)
    assert enumerated_feedback_expected(2, 1) == Fraction(7, 4)  # 0 first (3/4), then the last card for sure
    # 3 cards: 012 has 4/8; 102, 120, 021, 201 have 1/8 each. Top card 0 w.p. 5/8; after 0, card 1 (4/8);
    # after 1 or 2, 1/8 each; the last card always: 5/8 + 6/8 + 1
    assert enumerated_feedback_expected(3, 1) == Fraction(19, 8)
    # without feedback: 0 on top 5/8, 1 in the middle 4/8, 2 at the bottom 5/8
    assert no_feedback_expected(3, 1) == Fraction(7, 4)


def test_no_riffle_leaves_the_deck_known():
    for n in range(1, 7):
        assert no_feedback_expected(n, 0) == n == enumerated_feedback_expected(n, 0) == feedback_expected(n, 0)


@pytest.mark.parametrize("n", range(1, 7))
@pytest.mark.parametrize("k", range(1, 4))
def test_the_rising_sequence_formula_is_the_projects_riffle_gsr(n, k):
    dist = outcome_distribution("riffle-gsr", n, {"passes": k})
    assert sum(dist.values()) == 1
    for order in permutations(range(n)):
        assert order_probability(order, k) == dist.get(order, 0)


def test_rising_sequences_count_values_not_positions():
    # 1 2 0: card 0 lies below card 1 but card 1 above 2 in order: rising sequences {0}, {1, 2}; its inverse has 3
    assert rising_sequences((1, 2, 0)) == 2
    assert rising_sequences((2, 0, 1)) == 2
    assert rising_sequences((2, 1, 0)) == 3
    assert rising_sequences((0, 1, 2)) == 1


@pytest.mark.parametrize("n", range(1, 6))
@pytest.mark.parametrize("k", range(1, 4))
def test_both_games_equal_brute_force_on_the_projects_distribution(n, k):
    dist = outcome_distribution("riffle-gsr", n, {"passes": k})
    matrix = position_matrix_from_distribution(dist, n)
    assert no_feedback_expected(n, k) == sum(max(column) for column in zip(*matrix))
    assert enumerated_feedback_expected(n, k) == brute_force_feedback(dist, n)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 6), st.integers(0, 4), st.data())
def test_the_closed_form_posterior_equals_the_sum_over_orders(n, k, data):
    order = data.draw(st.permutations(range(n)))
    m = data.draw(st.integers(0, n))
    prefix = tuple(order[:m])
    listed = sum((order_probability(o, k) for o in permutations(range(n)) if o[:m] == prefix), Fraction(0))
    assert prefix_probability(n, k, prefix) == listed


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 7), st.integers(0, 4), st.data())
def test_the_best_guess_is_the_most_likely_next_card(n, k, data):
    order = data.draw(st.permutations(range(n)))
    m = data.draw(st.integers(0, n - 1))
    state = Shown(n)
    for card in order[:m]:
        state.show(card)
    before = prefix_probability(n, k, order[:m])
    if before == 0:
        return
    chances = {c: prefix_probability(n, k, (*order[:m], c)) / before for c in range(n) if c not in order[:m]}
    card, chance = best_guess(state, 1 << k)
    assert chance == chances[card] == max(chances.values())


def test_one_riffle_of_52_cards_is_exact_with_feedback_and_no_riffle_calls_every_card():
    assert f"{float(feedback_expected(52, 1)):.4f}" == "31.1695"  # the reference's 31.1695…, not the simulated 31.19
    assert feedback_expected(52, 0) == 52
    assert guessing.exact_expected(52, 1, "full")[1] == "states" and guessing.exact_expected(52, 2, "full") is None


@pytest.mark.parametrize("n", range(1, 9))
def test_the_sum_over_states_equals_the_enumeration(n):
    for k in (range(5) if n < 8 else (1, 3)):
        assert feedback_expected(n, k) == enumerated_feedback_expected(n, k)


def test_random_decks():
    assert harmonic(4) == Fraction(25, 12)
    assert random_deck_expected(52, "full") == sum(Fraction(1, i) for i in range(1, 53))
    assert float(random_deck_expected(52, "full")) == pytest.approx(4.5380, abs=1e-4)
    assert random_deck_expected(52, "none") == 1


@pytest.mark.parametrize("n", [2, 5, 8, 13])
def test_feedback_helps_and_more_riffles_bring_both_down_to_a_random_decks(n):
    ks = range(0, 15)
    none = [no_feedback_expected(n, k) for k in ks]
    full = [enumerated_feedback_expected(n, k) if n <= 5 else feedback_expected(n, k) for k in ks]
    assert all(f >= g for f, g in zip(full, none))
    assert all(f > g for f, g in zip(full[1:], none[1:]))  # once shuffled, seeing cards always helps
    for series, floor in ((none, Fraction(1)), (full, harmonic(n))):
        assert all(a > b for a, b in zip(series, series[1:]))
        assert all(value > floor for value in series)
        assert series[-1] - floor < Fraction(1, 1000)


def test_the_simulation_finds_the_exact_value_within_its_error():
    for n, k in ((8, 2), (12, 3)):
        exact = feedback_expected(n, k)
        mean, error = simulated_feedback_expected(n, k, 3000, FastRng(f"test {n} {k}"))
        assert 0 < error < 0.05
        assert abs(mean - float(exact)) < 4 * error


def test_a_seed_repeats_its_simulation():
    first = simulated_feedback_expected(30, 5, 20, FastRng("again"))
    assert first == simulated_feedback_expected(30, 5, 20, FastRng("again"))
    assert first != simulated_feedback_expected(30, 5, 20, FastRng("other"))


def test_reports():
    report = guess_report(3, 1, "full")
    assert report == {"cards": 3, "riffles": 1, "feedback": "full", "random_deck": "11/6",
                      "random_deck_value": pytest.approx(11 / 6), "exact": True, "expected": "19/8",
                      "expected_value": 2.375, "method": "every order"}
    assert guess_report(12, 3, "full")["method"] == "states"
    assert guess_report(52, 7, "none")["exact"] is True
    simulated = guess_report(21, 7, "full", 10, "s")
    assert simulated["exact"] is False and simulated["method"] == "simulated"
    assert {"standard_error", "samples", "seed"} <= set(simulated)


@pytest.mark.parametrize("call, message", [
    (lambda: guess_report(53, 1, "full", 10, "s"), "1 to 52 cards, not 53"),
    (lambda: guess_report(65, 1, "none"), "1 to 64 cards, not 65"),
    (lambda: guess_report(0, 1, "none"), "not 0"),
    (lambda: guess_report(5, 17, "none"), "riffles must be 0 to 16, not 17"),
    (lambda: guess_report(5, -1, "full"), "not -1"),
    (lambda: guess_report(5, 1, "some"), "'some'"),
    (lambda: simulated_feedback_expected(30, 1, 1, FastRng(1)), "not 1"),
    (lambda: enumerated_feedback_expected(9, 1), "not 9"),
    (lambda: feedback_expected(21, 2), "not 21"),
])
def test_bad_values_are_named(call, message):
    with pytest.raises(ShuffleLabError, match=re.escape(message)):
        call()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 10**40), min_size=1, max_size=20), st.lists(st.integers(0, 10**40), min_size=1, max_size=20))
def test_polynomial_products_are_exact(a, b):
    product = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            product[i + j] += x * y
    assert posterior._multiply(a, b) == product


def test_run_polynomials_count_ordered_cuts():
    for u in range(1, 8):
        assert sum(posterior.run_polynomial(u)) == sum(math.factorial(p) * _stirling(u, p) for p in range(1, u + 1))
    assert posterior.run_polynomial(3) == (1, 6, 6)  # p!·S(3, p): 1, 2·3, 6


def _stirling(u, p):
    return sum((-1) ** i * math.comb(p, i) * (p - i) ** u for i in range(p + 1)) // math.factorial(p)


# --- the guessing page's table --------------------------------------------------------------------


def _readme_table():
    text = GUESSING_PAGE.read_text(encoding="utf-8")
    start = text.index("| riffles | no feedback (exact) | full feedback (exact) |")
    lines = text[start:].split("\n\n")[0].splitlines()[2:]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def test_the_readmes_exact_rows():
    rows = _readme_table()
    assert [row[0] for row in rows] == [str(k) for k in range(1, 11)] + ["random deck"]
    for k, row in enumerate(rows[:10], start=1):
        assert row[1] == f"{float(no_feedback_expected(52, k)):.4f}"
        exact = f"{float(feedback_expected(52, k)):.4f}" if 52 <= guessing.state_sum_cards(k) else "—"
        assert row[2] == exact, k
    assert rows[10][2].startswith(f"{float(harmonic(52)):.4f} ")


@pytest.mark.slow
@pytest.mark.parametrize("k", [1, 10])
def test_the_readmes_simulated_rows(k):
    """Three rows recomputed from their seeds (each row has its own, so each stands alone): all ten cost a minute."""
    import runpy

    table = runpy.run_path(str(ROOT / "scripts" / "guessing_table.py"), run_name="table")
    mean, error = table["simulated_row"](k)
    assert _readme_table()[k - 1][3] == f"{mean:.2f} ± {error:.2f}"


# --- what the Play tab asks for: the best guesses on one deck, a stopped game's baseline, a simulation in chunks ---


@pytest.mark.parametrize(("n", "k"), [(1, 1), (5, 0), (6, 1), (7, 2), (9, 3)])
def test_the_written_best_guesses_score_the_exact_no_feedback_expectation(n, k):
    from shufflelab.exact.guessing import _position_counts

    guesses = guessing.no_feedback_best_guesses(n, k)
    counts = _position_counts(n, k) if k else [[int(i == j) for j in range(n)] for i in range(n)]
    expected = Fraction(sum(counts[card][place] for place, card in enumerate(guesses)), 1 << (n * k))
    assert expected == guessing.no_feedback_expected(n, k)
    assert len(guesses) == n and all(0 <= card < n for card in guesses)


def test_the_written_best_guesses_follow_the_deck_where_it_is_not_shuffled():
    assert guessing.no_feedback_best_guesses(4, 0) == [0, 1, 2, 3]
    # one riffle of 2 cards: new-deck order has chance 3/4, so each position's best guess is its own card
    assert guessing.no_feedback_best_guesses(2, 1) == [0, 1]


@pytest.mark.parametrize("k", [0, 1, 2])
def test_the_best_guesses_with_feedback_score_what_play_best_says(k):
    rng = FastRng("play-guesses")
    from shufflelab.algorithms import riffle_gsr

    for _ in range(20):
        order = riffle_gsr(range(9), rng, passes=k)
        guesses = guessing.best_feedback_guesses(order, k)
        assert len(guesses) == 9
        assert guessing.play_best(order, k) == sum(g == c for g, c in zip(guesses, order))
    assert guessing.best_feedback_guesses(list(range(6)), 1)[0] == 0  # the top card of a riffled new deck: most likely A


def test_a_stopped_games_random_baseline_sums_the_chances_of_the_cards_played():
    assert guessing.random_deck_prefix_expected(8, 8, "full") == guessing.random_deck_expected(8, "full")
    assert guessing.random_deck_prefix_expected(8, 8, "none") == 1
    assert guessing.random_deck_prefix_expected(10, 3, "full") == Fraction(1, 10) + Fraction(1, 9) + Fraction(1, 8)
    assert guessing.random_deck_prefix_expected(10, 3, "none") == Fraction(3, 10)
    assert guessing.random_deck_prefix_expected(10, 0, "full") == 0
    with pytest.raises(ShuffleLabError, match="0 to 10 of them, not 11"):
        guessing.random_deck_prefix_expected(10, 11, "full")


def test_a_simulation_in_chunks_gives_the_figures_of_one_run():
    whole = guessing.simulated_feedback_expected(24, 2, 9, FastRng("chunks"))
    simulation = guessing.FeedbackSimulation(24, 2, FastRng("chunks"))
    for chunk in (2, 1, 4, 2):
        simulation.add(chunk)
    assert simulation.samples == 9
    assert simulation.estimate() == whole  # the same floats, not merely close: the page shows the CLI's figure
    report = guessing.guess_report(24, 2, "full", 9, "chunks")
    assert {key: report[key] for key in ("expected", "standard_error", "samples")} == {
        "expected": whole[0], "standard_error": whole[1], "samples": 9}


def test_an_estimate_needs_two_decks():
    simulation = guessing.FeedbackSimulation(24, 1, FastRng("few"))
    simulation.add(1)
    with pytest.raises(ShuffleLabError, match="at least 2 decks"):
        simulation.estimate()


def test_guess_start_is_exact_where_it_can_be_and_hands_back_a_simulation_elsewhere():
    report, simulation = guessing.guess_start(8, 1, "full")
    assert simulation is None and report == guessing.guess_report(8, 1, "full")
    report, simulation = guessing.guess_start(30, 2, "full", "s")
    assert simulation is not None and "expected" not in report and report["seed"] == "s"
