"""Deck makers: faster decks in bulk, with exactly the distribution of the catalog's port."""

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from scipy.stats import chi2

from shufflelab import catalog
from shufflelab.exact.orders import outcome_distribution
from shufflelab.tally import FastRng
from shufflelab.tally.makers import random_comparator_decks, riffle_deck_from_labels

from ..scripted import ScriptedRng

MAKER_CASES = [
    ("riffle-gsr", {"passes": 2}),     # labels from bytes
    ("riffle-gsr", {"passes": 9}),     # labels from one word
    ("riffle-gsr", {"passes": 33}),    # labels from two words
    ("random-comparator", {}),
]


def test_every_deck_maker_in_the_catalog_is_checked():
    assert {algorithm_id for algorithm_id, _ in MAKER_CASES} == {
        entry.id for entry in catalog.entries() if entry.deck_maker is not None}


@pytest.mark.parametrize("n, passes", [(2, 1), (3, 1), (3, 2), (4, 1), (4, 2), (5, 1)])
def test_riffle_labels_give_exactly_the_gsr_distribution(n, passes):
    # every labelling of n cards with passes-bit labels is equally likely: enumerate them all
    labellings = list(itertools.product(range(2**passes), repeat=n))
    seen = Counter(tuple(riffle_deck_from_labels(labels)) for labels in labellings)
    made = {deck: Fraction(count, len(labellings)) for deck, count in seen.items()}
    assert made == outcome_distribution("riffle-gsr", n, {"passes": passes})


@pytest.mark.parametrize("algorithm_id, params", MAKER_CASES,
                         ids=["-".join([a, *(f"{k}={v}" for k, v in p.items())]) for a, p in MAKER_CASES])
def test_deck_makers_match_the_exact_order_distribution(algorithm_id, params):
    n, trials = 4, 24_000
    maker = catalog.get(algorithm_id).resolve("deck_maker")
    decks = maker(n, params, FastRng(f"maker-{algorithm_id}"), trials)
    seen = Counter(decks[start : start + n] for start in range(0, len(decks), n))
    exact_dist = outcome_distribution(algorithm_id, n, params)
    assert set(seen) <= {bytes(order) for order in exact_dist}, "a deck the algorithm cannot make"
    observed = [seen[bytes(order)] for order in exact_dist]
    expected = [trials * float(p) for p in exact_dist.values()]
    statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected))
    assert chi2.sf(statistic, len(expected) - 1) > 1e-4, statistic


def test_random_comparator_decks_are_the_port_fed_the_generators_bits_as_coins():
    # the maker's coins are the generator's bits, lowest first; the port given the same
    # coins, deck after deck, must make the same decks
    n, count, seed = 6, 200, "coins"
    made = random_comparator_decks(n, {}, FastRng(seed), count)
    bits = random.Random(seed).getrandbits(32 * 512)  # the maker's first refill: more than these decks use
    coins = ScriptedRng((bits >> k) & 1 for k in range(32 * 512))
    port = catalog.get("random-comparator").port
    assert made == b"".join(bytes(port(range(n), coins)) for _ in range(count))
