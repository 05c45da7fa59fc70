"""riffle-physical exactly: the port's steps as a Markov chain, checked against the port itself."""

from fractions import Fraction

import pytest

from shufflelab import catalog
from shufflelab.exact.enumeration import enumerate_port
from shufflelab.exact.matrices import position_matrix_from_distribution
from shufflelab.exact.orders import outcome_distribution
from shufflelab.exact.physical import pass_matrix, physical_cut, physical_drop, physical_finish, physical_floor, physical_pass
from shufflelab.tally import FastRng


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 52])
def test_physical_pass_steps_reproduce_the_port_draw_for_draw(n):
    port_pass = catalog.get("riffle-physical")
    for seed in range(300 if n < 20 else 40):
        a, b = FastRng(seed), FastRng(seed)
        assert physical_pass(list(range(n)), a) == port_pass.shuffled(list(range(n)), b, {"passes": 1})
        assert a.below(1 << 30) == b.below(1 << 30)  # and they consumed the same draws


@pytest.mark.parametrize("n, max_draws", [(2, 10), (3, 9), (4, 8)])
def test_physical_pass_distribution_is_bracketed_by_the_truncated_port(n, max_draws):
    # the port can loop forever, so enumerate its paths up to max_draws draws: every order's
    # exact probability lies between what those paths give and that plus the cut-off mass
    seen, cut = enumerate_port("riffle-physical", n, {"passes": 1}, max_draws=max_draws)
    dist = outcome_distribution("riffle-physical", n, {"passes": 1})
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
                left_half, left_count, _ = physical_cut(deck, cut_draw, 0)
                right_count = physical_floor(n, left_count) - depth
                draws = FastRng(seed)
                while left_count > 0:
                    take, drop = draws.below(4), draws.below(4)
                    left_count, right_count = physical_drop(deck, left_half, left_count, right_count, take, drop)
                physical_finish(deck, left_half, right_count)
                decks.append(deck)
            assert decks[0] == decks[1] == decks[2]


def test_physical_pass_matrix_matches_its_distribution_exactly():
    for n in range(1, 6):
        dist = outcome_distribution("riffle-physical", n, {"passes": 1})
        assert pass_matrix(n, Fraction(1)) == position_matrix_from_distribution(dist, n)
