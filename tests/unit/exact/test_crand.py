"""c-rand over the real ANSI rand(): golden figures, the model against brute force and the port, and its name."""

import json
import random
from collections import Counter
from fractions import Fraction

import pytest

from shufflelab import algorithms, catalog
from shufflelab.cli import main
from shufflelab.exact import crand
from shufflelab.exact.composition import as_fractions
from shufflelab.exact.enumeration import run_steps
from shufflelab.exact.matrices import matrix_seconds_estimate, position_matrix, position_matrix_from_distribution
from shufflelab.exact.orders import ideal_c_rand, outcome_distribution, total_variation_to_uniform
from shufflelab.rng import CRand


class SrandSeed:
    """An rng whose one draw, the port's ``below(2^32)``, is a chosen srand seed."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def below(self, m: int) -> int:
        assert m == 1 << 32
        return self.seed


def port_deal(n: int, seed: int) -> tuple:
    """Return the c-rand port's deal of 0..n-1 for one srand seed."""
    return tuple(algorithms.c_rand(range(n), SrandSeed(seed)))


def brute_force(n: int) -> dict:
    """Return every residue's deal counted through rng.CRand itself (no shortcut): {order: residues}, over 2^(16+k)."""
    counts: Counter = Counter()
    for residue in range(n << 16):
        generator = CRand(residue)
        deck = list(range(n))
        for i in range(n):
            j = generator.rand() % n
            deck[i], deck[j] = deck[j], deck[i]
        counts[tuple(deck)] += 1
    return as_fractions((dict(counts), n << 16))


@pytest.fixture(scope="module")
def eight() -> tuple:
    """Return c-rand's 8-card distribution over the real rand(), once for the tests that read it (about 2 s)."""
    return crand.orders(8)


# --- golden figures: over all 2^32 srand seeds --------------------------------------------------


def test_two_cards_are_one_in_65536_from_uniform_not_zero():
    dist = outcome_distribution("c-rand", 2)
    assert total_variation_to_uniform(dist, 2) == Fraction(1, 65536)
    assert dist == {(0, 1): Fraction(32769, 65536), (1, 0): Fraction(32767, 65536)}


def test_four_cards_are_51233_in_786432_from_uniform_not_25_in_384():
    assert total_variation_to_uniform(outcome_distribution("c-rand", 4), 4) == Fraction(51233, 786432)
    assert total_variation_to_uniform(as_fractions(ideal_c_rand(4)), 4) == Fraction(25, 384)  # what the ideal model says


def test_eight_cards_reach_only_40317_of_the_40320_orders(eight):
    numerators, denominator = eight
    assert len(numerators) == 40317 and denominator == 1 << 19 and sum(numerators.values()) == 1 << 19
    assert total_variation_to_uniform(as_fractions((numerators, denominator)), 8) == Fraction(1956737, 11796480)


# --- the model against brute force and against the port ----------------------------------------


@pytest.mark.parametrize("n", [1, 2, 4])
def test_the_model_equals_every_residue_dealt_by_rand_itself(n):
    assert outcome_distribution("c-rand", n) == brute_force(n)


@pytest.mark.parametrize("n", [2, 4, 8, 16])
def test_every_seed_deals_what_its_residue_deals_through_the_port(n):
    # srand(seed) sets the state to the seed and rand() steps before it answers: only seed mod 2^(16+k) counts
    chooser = random.Random(n)
    span = n << 16
    for _ in range(300):
        seed = chooser.randrange(1 << 32)
        assert port_deal(n, seed) == crand.residue_deal(n, seed % span) == crand.residue_deal(n, seed), seed
    for seed in range(300):  # the smallest seeds too, and the same residues near the top of the range
        assert port_deal(n, seed) == port_deal(n, (1 << 32) - span + seed) == crand.residue_deal(n, seed)


def test_the_offset_shortcut_deals_each_residue_as_the_lcg_does_at_eight_cards(eight):
    # the 8-card distribution comes from (offsets, high bits): each sampled residue's plain LCG deal must be in it
    numerators, _ = eight
    chooser = random.Random(8)
    assert all(crand.residue_deal(8, r) in numerators for r in (chooser.randrange(8 << 16) for _ in range(2000)))
    # and the shortcut's offsets cover every low half once
    assert sum(crand.high_offsets(8).values()) == 1 << 16


# --- the matrix ---------------------------------------------------------------------------------


def test_the_matrix_at_four_cards_is_the_one_the_orders_imply():
    assert position_matrix("c-rand", 4, exact=True) == position_matrix_from_distribution(outcome_distribution("c-rand", 4), 4)


def test_the_matrix_in_steps_reports_progress_and_is_the_one_the_orders_imply_at_eight_cards(eight):
    fractions = []
    stepped = run_steps(catalog.get("c-rand").resolve("matrix_steps")(8, {}), fractions.append)
    assert fractions and fractions == sorted(fractions) and all(0 < f < 1 for f in fractions)
    numerators, denominator = eight
    cells = [[0] * 8 for _ in range(8)]
    for order, weight in numerators.items():
        for position, card in enumerate(order):
            cells[card][position] += weight
    assert stepped == [[c / denominator for c in row] for row in cells]


def test_only_power_of_two_decks_from_eight_cards_are_estimated_slow():
    assert matrix_seconds_estimate("c-rand", 8) == crand.SECONDS_AT_8
    assert matrix_seconds_estimate("c-rand", 16) == 4 * crand.SECONDS_AT_8
    assert all(matrix_seconds_estimate("c-rand", n) == 0 for n in (1, 2, 4, 5, 12, 32, 52))


def test_other_sizes_keep_the_ideal_rand_model():
    assert outcome_distribution("c-rand", 3) == as_fractions(ideal_c_rand(3))
    assert [crand.is_real_rand_size(n) for n in range(0, 34)] == [n in (1, 2, 4, 8, 16) for n in range(0, 34)]


# --- the model is named -------------------------------------------------------------------------


def test_the_catalog_and_the_reports_name_the_rand_they_model():
    entry = catalog.get("c-rand")
    assert "the real ANSI rand()" in entry.method and "an ideal rand()" in entry.method
    assert all(entry.method_for(n).startswith("the real ANSI rand()") for n in (1, 2, 4, 8, 16))
    assert all(entry.method_for(n).startswith("an ideal rand()'s answer") for n in (0, 3, 5, 7, 32, 52))
    assert catalog.get("swap-any").method_for(4) == catalog.get("swap-any").method


def test_the_cli_says_which_rand_the_exact_answer_is(capsys):
    assert main(["exact", "--algo", "c-rand", "--cards", "3"]) == 0
    assert capsys.readouterr().out.startswith("c-rand on 3 cards: an ideal rand()'s answer, not the real ANSI rand()'s")
    assert main(["exact", "--algo", "c-rand", "--cards", "4", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["method"].startswith("the real ANSI rand(): all 2^32 srand seeds")
    assert report["total_variation"] == "51233/786432" and report["reachable"] == 24
