"""riffle-physical exactly: the port's steps as a Markov chain, checked against the port itself."""

import heapq
from fractions import Fraction
from itertools import repeat
from operator import add, mul

import pytest

from shufflelab import catalog
from shufflelab.exact.enumeration import enumerate_port
from shufflelab.exact.matrices import position_matrix_from_distribution, splice_start
from shufflelab.exact.orders import outcome_distribution
from shufflelab.exact.physical import (
    _FLOAT_PASSES,
    PROGRESS_EVERY,
    _first_states,
    _successors,
    chain_states,
    matrix,
    matrix_steps,
    pass_matrix,
    physical_cut,
    physical_drop,
    physical_finish,
    physical_floor,
    physical_pass,
)
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


# --- the matrix before it went level by level (slow: O(n⁴) with 16 list passes a state), kept as the reference ---


def _reference_pass_flat(n: int, one, per_cell: int) -> list:
    """Return the final place × card matrix, flat, as the chain did it state by state with a heap."""
    width = -(-n // per_cell)
    zero = one - one
    pending: dict[tuple[int, int, int], list] = {}
    queue: list = []
    final = [zero] * (n * width)

    def add_to(key, flat):
        held = pending.get(key)
        if held is None:
            pending[key] = flat
            heapq.heappush(queue, (-key[0], -key[2], key))
        else:
            pending[key] = list(map(add, held, flat))

    units = [one, one * 1j] if per_cell == 2 else [one]
    for deck, left_half, key in _first_states(n):
        flat = [zero] * (n * width)
        for place, card in enumerate(deck + left_half):
            flat[place * width + card // per_cell] = units[card % per_cell] / 36
        add_to(key, flat)
    while queue:
        key = heapq.heappop(queue)[2]
        flat = pending.pop(key)
        left_count, g, right_count = key
        deck_cells = (n - left_count - g) * width
        start = splice_start(right_count, n - left_count - g) * width
        if left_count <= 0:
            final = list(map(add, final, flat[:start] + flat[deck_cells:] + flat[start:deck_cells]))
            continue
        loops = 4 if right_count == physical_floor(n, left_count) else 1
        flat = list(map(mul, flat, repeat(one / (16 - loops))))
        left_start = deck_cells + left_count * width
        for take, after in _successors(n, key):
            taken_end = left_start + min(take, g) * width
            add_to(after, flat[:start] + flat[left_start:taken_end] + flat[start:deck_cells]
                   + flat[deck_cells:left_start] + flat[taken_end:])
    return final


def _unpack(flat: list, n: int, per_cell: int) -> list:
    """Return P[card][place] from the reference's flat place-major list holding per_cell cards per entry."""
    width = -(-n // per_cell)
    if per_cell == 1:
        return [flat[card::width] for card in range(n)]
    return [[(z.real if card % 2 == 0 else z.imag) for z in flat[card // 2::width]] for card in range(n)]


def _reference_chain_states(n: int) -> int:
    """Count the counters' states by walking every edge."""
    seen = {key for _, _, key in _first_states(n)}
    todo = list(seen)
    while todo:
        key = todo.pop()
        for _, after in _successors(n, key) if key[0] > 0 else ():
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return len(seen)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 6, 7, 9, *(pytest.param(n, marks=pytest.mark.slow) for n in (11, 13))])
def test_pass_matrix_is_the_reference_exactly(n):
    assert pass_matrix(n, Fraction(1)) == _unpack(_reference_pass_flat(n, Fraction(1), 1), n, 1)


@pytest.mark.parametrize("n", [1, 2, 5, 9, 17, 20])
def test_pass_matrix_floats_are_the_reference_floats(n):
    _FLOAT_PASSES.pop(n, None)
    new, old = pass_matrix(n), _unpack(_reference_pass_flat(n, 1.0 + 0j, 2), n, 2)
    for new_row, old_row in zip(new, old, strict=True):
        assert new_row == pytest.approx(old_row, rel=1e-12, abs=0)


@pytest.mark.parametrize("n", [1, 2, 5, 9, 17, 20, pytest.param(26, marks=pytest.mark.slow)])
def test_pass_matrix_floats_are_the_exact_matrix_correctly_rounded(n):
    _FLOAT_PASSES.pop(n, None)
    exact = pass_matrix(n, Fraction(1))
    assert pass_matrix(n) == [[float(p) for p in row] for row in exact]


@pytest.mark.slow
def test_pass_matrix_floats_are_the_reference_floats_at_52():
    new, old = pass_matrix(52), _unpack(_reference_pass_flat(52, 1.0 + 0j, 2), 52, 2)
    for new_row, old_row in zip(new, old, strict=True):
        assert new_row == pytest.approx(old_row, rel=1e-12, abs=0)


def test_chain_states_counts_what_the_walk_counts():
    assert [chain_states(n) for n in range(0, 40, 3)] == [_reference_chain_states(n) for n in range(0, 40, 3)]
    assert chain_states(52) == _reference_chain_states(52) == 10597


def test_matrix_steps_reports_rising_fractions_often_then_the_matrix():
    _FLOAT_PASSES.pop(40, None)
    steps, fractions = matrix_steps(40, {"passes": 2}), []
    while True:
        try:
            fractions.append(next(steps))
        except StopIteration as done:
            result = done.value
            break
    assert fractions == sorted(fractions) and 0 < fractions[0] and fractions[-1] <= 1
    assert len(fractions) == chain_states(40) // PROGRESS_EVERY  # every state counted, the loop's end states too
    assert result == matrix(40, {"passes": 2}, 1.0)
