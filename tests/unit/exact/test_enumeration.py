"""Enumeration: every path of a shuffle's below() answers, walked with its exact probability, within its limits."""

import inspect
import math
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import catalog_tables
from shufflelab import catalog
from shufflelab.errors import ShuffleLabError
from shufflelab.exact import enumeration
from shufflelab.exact.enumeration import MAX_PATH_DRAWS, MAX_PORT_PATHS, PROGRESS_PATHS, enumerate_port, walk_steps
from shufflelab.exact.errors import ExactTooCostly, NotEnumerable
from shufflelab.exact.matrices import position_matrix_from_distribution
from shufflelab.exact.orders import outcome_distribution, total_variation_to_uniform

from .helpers import cyclic, enumerated


@pytest.mark.parametrize("algorithm_id", ["fisher-yates", "splice", "stack"])
@pytest.mark.parametrize("n", range(0, 7))
def test_the_correct_ports_give_every_order_exactly_once_in_n_factorial(algorithm_id, n):
    dist = enumerated(algorithm_id, n)
    assert dist == {order: Fraction(1, math.factorial(n)) for order in permutations(range(n))}


@pytest.mark.parametrize("n", range(2, 7))
def test_off_by_one_gives_exactly_the_single_cycle_orders_uniformly(n):
    dist = enumerated("fisher-yates-off-by-one", n)
    cycles = [o for o in permutations(range(n)) if cyclic(o)]
    assert dist == {o: Fraction(1, math.factorial(n - 1)) for o in cycles}


def test_enumeration_weights_paths_by_their_bounds():
    # random-comparator draws a variable number of coins, so paths have different weights
    dist = enumerated("random-comparator", 3)
    assert sum(dist.values()) == 1
    assert len(dist) == 6 and len(set(dist.values())) > 1


def test_enumerating_a_float_drawing_port_is_refused():
    with pytest.raises(NotEnumerable):
        enumerate_port("random-key", 3)


def test_cut_paths_are_reported_not_counted():
    dist, cut = enumerate_port("fisher-yates", 4, max_draws=2)
    assert dist == {} and cut == 1


# --- the walk against every built-in's whole-order model --------------------------------------------

# the largest deck each model is walked on, and with which parameters (each entry's walk): a second or less in all
WALKED = catalog_tables.walked()
# what the walk refuses, and why (each entry's walk_refused): floats, srand's 2^32 seeds, and paths that never end
REFUSED = catalog_tables.refused()
MODELLED = [entry.id for entry in catalog.ALGORITHMS if entry.orders != catalog.ENUMERATE]


def test_every_built_in_model_is_walked_or_refused_for_a_stated_reason():
    assert sorted(MODELLED) == sorted([*WALKED, *REFUSED])


@pytest.mark.parametrize("algorithm_id", sorted(WALKED))
def test_the_walk_agrees_exactly_with_each_whole_order_model(algorithm_id):
    params, largest = WALKED[algorithm_id]
    for n in range(2, largest + 1):
        assert enumerated(algorithm_id, n, params) == outcome_distribution(algorithm_id, n, params), n


@pytest.mark.parametrize("algorithm_id", sorted(REFUSED))
def test_the_walk_refuses_what_it_cannot_finish_saying_why(algorithm_id):
    error, message = REFUSED[algorithm_id]
    with pytest.raises(error, match=message):
        enumerate_port(algorithm_id, 3, max_paths=1000)


# --- random-comparator, derived by hand in docs/explanation/exact-answers.md -----------------


def test_random_comparator_on_three_cards_is_the_hand_derived_distribution():
    assert enumerated("random-comparator", 3) == {
        (0, 1, 2): Fraction(1, 4), (0, 2, 1): Fraction(1, 4),
        (1, 0, 2): Fraction(1, 8), (1, 2, 0): Fraction(1, 8),
        (2, 0, 1): Fraction(1, 8), (2, 1, 0): Fraction(1, 8),
    }
    assert total_variation_to_uniform(enumerated("random-comparator", 3), 3) == Fraction(1, 6)
    quarter, eighth3 = Fraction(1, 4), Fraction(3, 8)
    assert position_matrix_from_distribution(enumerated("random-comparator", 3), 3) == [
        [Fraction(1, 2), quarter, quarter], [quarter, eighth3, eighth3], [quarter, eighth3, eighth3]]


# the eight orders whose cards 0 and 1 fill the first two places or the last two
RANDOM_COMPARATOR_4_LIKELY = [(0, 1, 2, 3), (0, 1, 3, 2), (1, 0, 2, 3), (1, 0, 3, 2),
                              (2, 3, 0, 1), (2, 3, 1, 0), (3, 2, 0, 1), (3, 2, 1, 0)]


def test_random_comparator_on_four_cards_is_the_hand_derived_distribution():
    expected = {order: Fraction(1, 32) for order in permutations(range(4))}
    expected.update({order: Fraction(1, 16) for order in RANDOM_COMPARATOR_4_LIKELY})
    dist = enumerated("random-comparator", 4)
    assert dist == expected
    assert total_variation_to_uniform(dist, 4) == Fraction(1, 6)
    # every card is equally likely at every place: only whole orders show this bias
    assert position_matrix_from_distribution(dist, 4) == [[Fraction(1, 4)] * 4 for _ in range(4)]


# --- any function, its limits and its progress ---------------------------------------------------------


def swap_any(cards, rng):
    deck = list(cards)
    for i in range(len(deck) - 1, -1, -1):
        j = rng.below(len(deck))
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_a_plain_function_is_walked_like_a_port():
    for n in range(1, 5):
        assert enumerate_port(swap_any, n) == (outcome_distribution("swap-any", n), 0)
    with pytest.raises(ShuffleLabError, match="takes no parameters"):
        enumerate_port(swap_any, 3, {"passes": 2})


def test_the_path_limit_says_the_limit_the_paths_walked_and_the_mass_they_cover():
    with pytest.raises(ExactTooCostly) as refused:
        enumerate_port(swap_any, 3, max_paths=9)  # 27 equally likely paths: 9 cover a third
    assert str(refused.value) == ("swap_any on 3 cards has more than 9 paths: the walk stopped after 9, "
                                  "which cover 33.33% of the probability")
    assert MAX_PORT_PATHS == 1_000_000


def test_an_unfinished_walk_never_says_it_covers_100_percent():
    def one_draw(cards, rng):
        rng.below(100_000)
        return list(cards)

    with pytest.raises(ExactTooCostly, match=r"which cover 99\.99% of the probability"):
        enumerate_port(one_draw, 1, max_paths=99_999)  # 99.999%
    assert inspect.signature(enumerate_port).parameters["max_paths"].default == MAX_PORT_PATHS


def endless(cards, rng):
    while True:
        rng.below(2)


def rejection(cards, rng):
    while rng.below(2):  # every path ends, but there are endlessly many
        pass
    return list(cards)


@pytest.mark.parametrize("shuffle", [endless, rejection], ids=lambda f: f.__name__)
def test_a_path_of_more_than_max_path_draws_draws_is_refused(shuffle):
    with pytest.raises(ExactTooCostly, match=f"{shuffle.__name__} on 2 cards drew more than 1,000 times on one path"):
        enumerate_port(shuffle, 2)
    assert MAX_PATH_DRAWS == 1_000


def test_draw_limit_swallowed_by_the_shuffle_still_stops_the_path():
    def stubborn(cards, rng):
        for _ in range(2 * MAX_PATH_DRAWS):
            try:
                rng.below(2)
            except BaseException:  # noqa: B036 - what careless user code does
                pass
        return list(cards)

    with pytest.raises(ExactTooCostly, match="drew more than 1,000 times"):
        enumerate_port(stubborn, 2, max_paths=3)  # were the path counted, the next would not end soon


def test_random_is_refused_even_when_the_shuffle_swallows_the_refusal():
    def sneaky(cards, rng):
        try:
            rng.random()
        except BaseException:  # noqa: B036 - what careless user code does
            pass
        return list(cards)

    with pytest.raises(NotEnumerable, match=r"sneaky calls rng\.random\(\)"):
        enumerate_port(sneaky, 3)


def test_a_shuffle_that_draws_differently_on_replay_is_refused():
    calls = []

    def forgetful(cards, rng):
        calls.append(1)
        rng.below(2)
        rng.below(2 + len(calls) % 2)  # depends on how often it ran, not only on its draws
        return list(cards)

    with pytest.raises(NotEnumerable, match=r"not a function of its draws: .* draw 2 asked below\(3\) and then below\(2\)"):
        enumerate_port(forgetful, 2)


def test_progress_is_reported_every_progress_paths_paths_and_once_at_the_end(monkeypatch):
    monkeypatch.setattr(enumeration, "PROGRESS_SECONDS", float("inf"))  # paths alone, however slow the machine
    reports = []
    enumerate_port("swap-any", 6, progress=lambda paths, covered: reports.append((paths, covered)))
    paths = [p for p, _ in reports]
    assert paths == [*range(PROGRESS_PATHS, 6 ** 6, PROGRESS_PATHS), 6 ** 6]
    # equally likely paths: the mass covered is the share of paths walked
    assert all(covered == pytest.approx(p / 6 ** 6) for p, covered in reports)
    assert reports[-1] == (6 ** 6, 1.0)


def test_progress_is_also_reported_when_a_blink_goes_by(monkeypatch):
    monkeypatch.setattr(enumeration, "PROGRESS_SECONDS", 0.0)  # every look at the clock finds it late
    reports = []
    enumerate_port("swap-any", 4, progress=lambda paths, covered: reports.append(paths))
    assert reports == [64, 128, 192, 256, 256]


def walked_to_the_end(walk) -> tuple[list, object]:
    """Return (every value the generator yielded, what it returned)."""
    steps = []
    while True:
        try:
            steps.append(next(walk))
        except StopIteration as done:
            return steps, done.value


# swap-any on 5 cards: 3,125 equally likely paths; random-comparator 720 and cut-insert 225 of unequal weights
@pytest.mark.parametrize("algorithm_id, n, params", [("swap-any", 5, None), ("random-comparator", 6, None),
                                                     ("cut-insert", 5, {"repetitions": 2})])
def test_walk_steps_yields_growing_coverage_and_returns_what_enumerate_port_returns(monkeypatch, algorithm_id, n,
                                                                                    params):
    monkeypatch.setattr(enumeration, "PROGRESS_SECONDS", float("inf"))  # paths alone, however slow the machine
    monkeypatch.setattr(enumeration, "PROGRESS_PATHS", 50)  # divides no path count here: no step at the end
    steps, returned = walked_to_the_end(walk_steps(algorithm_id, n, params))
    assert len(steps) >= 3
    assert all(0 < covered < 1 for covered in steps)
    assert all(earlier < later for earlier, later in zip(steps, steps[1:]))
    dist, cut = returned
    assert sum(dist.values()) == 1 and cut == 0
    assert returned == enumerate_port(algorithm_id, n, params)


def test_walk_steps_stops_at_enumerate_ports_limits_with_its_messages():
    walk = walk_steps("swap-any", 5, max_paths=1000)
    with pytest.raises(ExactTooCostly) as stepped:
        walked_to_the_end(walk)
    with pytest.raises(ExactTooCostly) as driven:
        enumerate_port("swap-any", 5, max_paths=1000)
    assert str(stepped.value) == str(driven.value) and "more than 1,000 paths" in str(driven.value)


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 4)), max_size=5))
@settings(max_examples=60, deadline=None)
def test_any_swap_program_walks_to_permutations_whose_probabilities_sum_to_one(program):
    # "swap position i with below(m)" steps: each path is one run, so the walk runs exactly the product of the bounds
    def shuffle(cards, rng):
        deck = list(cards)
        for i, m in program:
            j = rng.below(m)
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    reports = []
    dist, cut = enumerate_port(shuffle, 4, progress=lambda paths, covered: reports.append(paths))
    assert sum(dist.values()) == 1 and cut == 0
    assert all(sorted(order) == [0, 1, 2, 3] for order in dist)
    assert reports[-1] == math.prod(m for _, m in program)
