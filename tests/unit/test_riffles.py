"""A real deck's riffles: rising sequences, Bayer & Diaconis's likelihoods, how many riffles an order looks like."""

import math
import re
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflelab import riffles
from shufflelab.algorithms import fisher_yates, riffle_gsr
from shufflelab.cards import DeckSpec, standard_deck
from shufflelab.errors import ShuffleLabError
from shufflelab.exact.orders import outcome_distribution
from shufflelab.rng import StreamRng


def likelihood(order, k):
    numerator, denominator = riffles.riffle_chance(len(order), riffles.rising_sequences(order), k)
    return Fraction(numerator, denominator)


@pytest.mark.parametrize("order, rising", [
    ([0, 1, 2, 3], 1), ([3, 2, 1, 0], 4), ([0, 2, 1, 3], 2), ([2, 0, 3, 1], 2), ([1, 0, 2, 3], 2),
    ([2, 3, 0, 1], 2), ([1, 3, 0, 2], 3), ([0], 1), ([], 0),
])
def test_rising_sequences_by_hand(order, rising):
    # [2, 0, 3, 1]: 0 1 and 2 3 each rise top to bottom, two packets interleaved
    assert riffles.rising_sequences(order) == rising


@pytest.mark.parametrize("n", range(1, 6))
@pytest.mark.parametrize("k", range(1, 4))
def test_every_orders_likelihood_is_the_ports_exact_chance(n, k):
    # the project's riffle-gsr walked over every path: this pins the rising-sequence convention too
    dist = outcome_distribution("riffle-gsr", n, {"passes": k})
    for order in permutations(range(n)):
        assert likelihood(order, k) == dist.get(order, 0), order


@pytest.mark.parametrize("n", range(1, 7))
@pytest.mark.parametrize("k", range(0, 5))
def test_likelihoods_sum_to_one_over_all_orders(n, k):
    assert sum(likelihood(order, k) for order in permutations(range(n))) == 1


def test_no_riffles_leave_only_new_deck_order():
    assert likelihood(list(range(5)), 0) == 1
    assert all(likelihood(order, 0) == 0 for order in permutations(range(5)) if list(order) != list(range(5)))


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 60), st.integers(0, 7), st.text(min_size=1, max_size=12))
def test_k_riffles_never_give_more_than_2_to_the_k_rising_sequences(n, k, seed):
    deck = riffle_gsr(list(range(n)), StreamRng(seed), passes=k) if k else list(range(n))
    rising = riffles.rising_sequences(deck)
    assert 1 <= rising <= min(2 ** k, n)
    assert likelihood(deck, k) > 0
    result = riffles.assess(deck)
    assert result["rising"] == rising
    assert result["likelihoods"][k]["numerator"] > 0


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 60))
def test_the_most_likely_k_of_new_deck_order_is_0(n):
    # from 4 cards on a perfect shuffle gives it less than 1/8 of the chance 0 riffles give it (1/n! < 1/8)
    result = riffles.assess(list(range(n)))
    assert result["best_k"] == 0 and result["uniform_plausible"] == (n <= 3)
    if n <= 3:
        assert result["sentence"].startswith("Looks well shuffled: 1 rising sequence; ")
        return
    # 1 riffle gives it (n+1)/2^n, within a factor of 8 of 0 riffles' 1 up to 5 cards
    assert result["plausible"] == ([0] if n >= 6 else [0, 1, 2] if n == 4 else [0, 1])
    assert result["sentence"] == "Not shuffled at all: this is new-deck order (1 rising sequence)."


def test_one_riffle_of_52_cards_looks_like_one_riffle():
    deck = riffle_gsr(list(range(52)), StreamRng("one riffle"), passes=1)
    result = riffles.assess(deck)
    assert result["rising"] == 2 and result["best_k"] == 1 and result["plausible"] == [1]
    assert result["sentence"].startswith("Not shuffled enough: 2 rising sequences, which looks like 1 riffle ")


def test_a_fisher_yates_deck_looks_well_shuffled():
    deck = fisher_yates(list(range(52)), StreamRng("well shuffled"))
    result = riffles.assess(deck)
    assert result["uniform_plausible"] and result["plausible_high"] is None
    assert result["plausible"] == list(range(result["plausible_low"], riffles.MAX_RIFFLES + 1))
    assert result["sentence"].startswith("Looks well shuffled: ")


def test_plausible_ks_are_those_within_a_factor_of_8_of_the_best():
    deck = riffle_gsr(list(range(52)), StreamRng("four"), passes=4)
    result = riffles.assess(deck)
    n = 52
    chances = [likelihood(deck, k) for k in range(riffles.MAX_RIFFLES + 1)]
    best = max(max(chances), Fraction(1, math.factorial(n)))
    assert result["plausible"] == [k for k, chance in enumerate(chances) if 8 * chance >= best]
    assert result["best_k"] == chances.index(max(chances))
    for row, chance in zip(result["likelihoods"], chances):
        assert Fraction(row["numerator"], row["denominator"]) == chance
        if chance:
            assert row["log10_vs_uniform"] == pytest.approx(math.log10(chance * math.factorial(n)), abs=1e-12)


@pytest.mark.parametrize("a, b", [(1, 1), (3, 7), (2**1040 + 1, 3**500), (7**300, 2), (1, 10**400)])
def test_log10_ratio_handles_integers_past_floats(a, b):
    expected = math.log10(a) - math.log10(b)
    assert riffles.log10_ratio(a, b) == pytest.approx(expected, rel=1e-14, abs=1e-14)


@given(st.integers(-3, 80), st.integers(-3, 80))
def test_comb_is_maths(a, b):
    assert riffles.comb(a, b) == (math.comb(a, b) if a >= 0 and b >= 0 else 0)


def test_parse_order_reads_codes_in_any_case_and_ten_either_way():
    deck = standard_deck()
    text = " ".join(deck.codes(list(range(52)))).replace("0H", "10h").replace("0D", "Td").replace("AS", "as")
    assert riffles.parse_order(text.replace(" ", ", ", 3), deck) == list(range(52))


def test_parse_order_reads_the_suit_symbols_the_page_draws():
    deck = standard_deck()
    labels = [deck.card(card).label for card in range(52)]  # "A♣" … "10♣" … "K♠", as the page shows them
    assert riffles.parse_order(" ".join(labels), deck) == list(range(52))
    assert riffles.parse_order(" ".join(reversed(labels)).replace("♠", "♤"), deck) == list(reversed(range(52)))


@pytest.mark.parametrize("text, named", [
    ("", "no cards given"),
    ("AC " + "9" * 300, "card 2, '" + "9" * 23 + "…', is not a card of"),  # shortened: it is quoted on a phone
    ("AC 2C ZZ", "card 3, 'ZZ', is not a card of 1 standard pack"),
    ("AC 2C AC", "AC is given twice (cards 1 and 3)"),
    ("AC 2C 3C", "3 cards given, 1 standard pack (52 cards) has 52: missing 4C 5C"),
    ("X1", "not a card of 1 standard pack"),
])
def test_parse_order_names_bad_input_in_one_line(text, named):
    with pytest.raises(ShuffleLabError, match=re.escape(named)) as caught:
        riffles.parse_order(text, standard_deck())
    assert "\n" not in str(caught.value)


def test_parse_order_knows_jokers_and_stripped_packs():
    deck = DeckSpec(kind="euchre", jokers=2)
    codes = deck.codes(deck.ids())
    assert codes[-2:] == ["X1", "X2"] and len(codes) == 26
    assert riffles.parse_order(" ".join(reversed(codes)), deck) == list(reversed(range(26)))


@pytest.mark.parametrize("order", [[0, 0], [1, 2], [0, "1"]])
def test_rising_sequences_refuses_what_is_not_an_order(order):
    with pytest.raises(ShuffleLabError, match="must hold each of"):
        riffles.rising_sequences(order)


def test_assess_refuses_a_single_card_and_a_bad_max_k():
    with pytest.raises(ShuffleLabError, match="at least 2 cards"):
        riffles.assess([0])
    with pytest.raises(ShuffleLabError, match="max k must be 0 to 20"):
        riffles.assess([0, 1], 21)


def test_a_max_k_too_small_still_gives_a_sentence():
    result = riffles.assess([3, 2, 1, 0], 1)
    assert result["plausible"] == [] and result["uniform_plausible"]
    assert "fits more than 1 riffles" in result["sentence"]


def test_each_distance_has_one_meaning():
    assert [key for key, _, _ in riffles.DISTANCE_MEANINGS] == ["tv", "separation", "kl"]
    assert all(meaning and name for _, name, meaning in riffles.DISTANCE_MEANINGS)
