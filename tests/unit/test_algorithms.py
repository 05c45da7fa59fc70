"""Algorithms: permutations for any seed, golden outputs, and the ports' exact behaviour."""

import builtins
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflelab import algorithms, catalog
from shufflelab.algorithms import comparator_merge_sort, js_splice
from shufflelab.rng import StreamRng

from .scripted import ScriptedRng

GOLDEN = json.loads((Path(__file__).resolve().parent.parent / "golden" / "algorithms_v1.json").read_text("utf-8"))
BUILT_IN = catalog.ALGORITHMS
# cut-insert's default 15,000 repetitions make property runs slow without adding coverage
LIGHT_PARAMS = {"cut-insert": {"repetitions": 30}}


@pytest.mark.parametrize("algorithm", BUILT_IN, ids=lambda a: a.id)
@settings(max_examples=25, deadline=None)
@given(n=st.integers(0, 60), seed=st.text(max_size=12))
def test_every_algorithm_returns_a_permutation(algorithm, n, seed):
    cards = list(range(n))
    order = algorithm.shuffled(cards, StreamRng(seed), LIGHT_PARAMS.get(algorithm.id))
    assert sorted(order) == cards
    assert cards == list(range(n)), "the input must be left alone"


@pytest.mark.parametrize("algorithm", BUILT_IN, ids=lambda a: a.id)
@settings(max_examples=10, deadline=None)
@given(seed=st.text(max_size=12))
def test_a_seed_gives_the_same_order_every_time(algorithm, seed):
    params = LIGHT_PARAMS.get(algorithm.id)
    first = algorithm.shuffled(range(40), StreamRng(seed), params)
    assert algorithm.shuffled(range(40), StreamRng(seed), params) == first


@pytest.mark.parametrize("case", GOLDEN["algorithms"], ids=lambda c: f"{c['algo']}-{c['n']}-{c['params']}")
def test_golden_outputs_never_change(case):
    order = catalog.get(case["algo"]).shuffled(list(range(case["n"])), StreamRng(case["seed"]), case["params"])
    assert order == case["order"]


def test_every_algorithm_has_golden_vectors():
    assert {case["algo"] for case in GOLDEN["algorithms"]} == {a.id for a in BUILT_IN}


def test_algorithms_shuffle_any_items_not_only_ids():
    cards = ["A♠", "K♥", "Q♦", "J♣"]
    assert sorted(catalog.get("riffle-physical").shuffled(cards, StreamRng("2"))) == sorted(cards)


# --- the ports behave as their articles describe (scripted answers make this exact) -------


def test_fisher_yates_swaps_each_last_unshuffled_card():
    rng = ScriptedRng([0, 0, 0])  # below(4), below(3), below(2)
    assert algorithms.fisher_yates([0, 1, 2, 3], rng) == [1, 2, 3, 0]
    assert rng.exhausted


@given(seed=st.text(max_size=8), n=st.integers(2, 30))
def test_off_by_one_never_lets_a_card_stay(seed, n):
    order = algorithms.fisher_yates_off_by_one(list(range(n)), StreamRng(seed))
    assert all(order[i] != i for i in range(n))
    # and it is a single cycle: following the order from card 0 visits every card
    seen, at = set(), 0
    while at not in seen:
        seen.add(at)
        at = order[at]
    assert len(seen) == n


def test_naive_pairs_can_swap_a_card_with_itself():
    rng = ScriptedRng([1, 1, 2, 2, 0, 0])  # three swaps, each of a card with itself
    assert algorithms.naive_pairs([0, 1, 2], rng) == [0, 1, 2]
    assert rng.exhausted


def test_swap_any_walks_down_swapping_with_any_position():
    rng = ScriptedRng([2, 2, 0])  # i=2 with 2, i=1 with 2, i=0 with 0
    assert algorithms.swap_any([0, 1, 2], rng) == [0, 2, 1]


def test_c_rand_uses_rand_mod_n_from_a_32_bit_srand_seed():
    rng = ScriptedRng([1])  # srand(1): rand() gives 16838, 5758, 10113, 17515
    # i=0 j=16838%4=2: [2,1,0,3]; i=1 j=5758%4=2: [2,0,1,3]; i=2 j=10113%4=1: [2,1,0,3]; i=3 j=3
    assert algorithms.c_rand([0, 1, 2, 3], rng) == [2, 1, 0, 3]
    assert rng.exhausted


def test_c_rand_can_never_pick_beyond_rand_max():
    order = algorithms.c_rand(list(range(40000)), StreamRng("9"))
    position = {card: p for p, card in enumerate(order)}
    # j = rand() % n < 32768, so position p >= 32768 is touched only at step p: card c >= 32768
    # leaves at its own step and can only come back to a position after c
    assert all(position[c] < 32768 or position[c] > c for c in range(32768, 40000))


def test_stack_pushes_the_picked_card_to_the_end():
    rng = ScriptedRng([0, 0, 0])
    assert algorithms.stack(["a", "b", "c"], rng) == ["a", "b", "c"]
    rng = ScriptedRng([1, 1, 0])  # [a,c,b] -> [a,b,c] -> [b,c,a]
    assert algorithms.stack(["a", "b", "c"], rng) == ["b", "c", "a"]


def test_splice_reinserts_at_count_which_may_pass_the_end():
    rng = ScriptedRng([0, 0, 0])
    # [a,b,c] -> take a, insert at 3 (end) -> [b,c,a]; take b, insert at 2 -> [c,a,b];
    # take c, insert at 1 -> [a,c,b]
    assert algorithms.splice(["a", "b", "c"], rng) == ["a", "c", "b"]


def test_riffle_physical_one_pass_with_its_first_drop_empty():
    # cut 8/2+4-4=4: left [0,1,2,3], deck [4,5,6,7]; rightCount = 4-0 = 4
    # take 2 from leftHalf.splice(4, 2): nothing (the article's empty first drop); rightCount 4-1+2 = 5
    # take 3 from leftHalf.splice(2, 3): [2,3] into deck at 5 -> past the end, appended; leftCount -1
    # rightCount 5-0+3 = 8; the rest [0,1] goes in at 8 -> appended
    rng = ScriptedRng([4, 0, 2, 1, 3, 0])
    assert algorithms.riffle_physical(list(range(8)), rng, passes=1) == [4, 5, 6, 7, 2, 3, 0, 1]
    assert rng.exhausted


def test_riffle_physical_odd_deck_with_the_lowest_draw_cuts_nothing():
    # 7 // 2 + 0 - 4 = -1 cuts nothing, as the article's 7/2 + 0 - 4 = -0.5 does (truncated to 0)
    rng = ScriptedRng([0, 0])
    assert algorithms.riffle_physical(list(range(7)), rng, passes=1) == list(range(7))
    assert rng.exhausted


@pytest.mark.parametrize("sizes", [range(0, 2001), [99_999, 100_001]], ids=["to 2000", "large"])
def test_riffle_physical_whole_number_cut_is_the_articles_fractional_cut(sizes):
    # the article's deck.length / 2 is a float on odd decks; splice reads a delete count as
    # JavaScript does (truncated, a negative one clamped to 0), so the fraction never counts
    for n in sizes:
        for draw in range(9):
            article_cut = js_splice(list(range(n)), 0, n / 2 + draw - 4)
            assert js_splice(list(range(n)), 0, algorithms.riffle_physical_cut(n, draw)) == article_cut, (n, draw)


class RecordingRng(ScriptedRng):
    """A ScriptedRng that also records every bound it is asked to draw below."""

    def __init__(self, answers):
        super().__init__(answers)
        self.bounds = []

    def below(self, m):
        self.bounds.append(m)
        return super().below(m)


def test_cut_insert_pastes_the_top_part_anywhere_but_the_bottom():
    # the split is drawn below n and the paste below len(rest): every answer to the second
    # draw leaves at least the rest's last card under the top part, and every place above it is reachable
    n = 5
    for split in range(1, n):
        rest = n - split
        for paste in range(rest):
            rng = RecordingRng([split, paste])
            order = algorithms.cut_insert(list(range(n)), rng, repetitions=1)
            assert rng.bounds == [n, rest] and rng.exhausted
            # the first `paste` cards of the rest, then the top part, then the rest's remainder
            assert order == [*range(split, split + paste), *range(split), *range(split + paste, n)]
            assert order[-1] >= split, "a card of the top part went to the bottom"


def test_cut_insert_with_a_zero_split_changes_nothing():
    assert algorithms.cut_insert(list(range(5)), ScriptedRng([0, 4]), repetitions=1) == list(range(5))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 200), repetitions=st.integers(1, 3000), seed=st.text(min_size=1, max_size=12))
def test_cut_insert_never_moves_the_bottom_card(n, repetitions, seed):
    # docs/reference/algorithms.md and the catalog say so: the paste index is below len(rest),
    # so the top part always goes in above the rest's last card, which is the deck's bottom card
    order = catalog.shuffled(list(range(n)), "cut-insert", StreamRng(seed), {"repetitions": repetitions})
    assert order[-1] == n - 1


@pytest.mark.parametrize(
    "items, coins, expected",
    [
        ([], [], []),
        (["a"], [], ["a"]),
        # two cards: one merge step; 0 takes the left packet's card, 1 the right's
        (["a", "b"], [0], ["a", "b"]),
        (["a", "b"], [1], ["b", "a"]),
        # left [a]; right [b, c] sorted first (coin 0: b, c); merge: 0 takes a, then b, c follow
        (["a", "b", "c"], [0, 0], ["a", "b", "c"]),
        # right [b, c] -> coin 1: [c, b]; merge [a] with [c, b]: 1 takes c, 0 takes a, then b
        (["a", "b", "c"], [1, 1, 0], ["c", "a", "b"]),
        # left [a, b] -> 0: [a, b]; right [c, d] -> 1: [d, c]; merge: 1 d, 0 a, 1 c, then b
        (["a", "b", "c", "d"], [0, 1, 1, 0, 1], ["d", "a", "c", "b"]),
        # left [a, b] -> 1: [b, a]; right [c, d, e]: its left [c], its right [d, e] -> 0: [d, e],
        # merged 1 d, 0 c, then e: [d, c, e]; last merge of [b, a] with [d, c, e]:
        # 1 d, 1 c, 0 b, 1 e, then a
        (["a", "b", "c", "d", "e"], [1, 0, 1, 0, 1, 1, 0, 1], ["d", "c", "b", "e", "a"]),
    ],
    ids=lambda value: "".join(map(str, value)) or "-",
)
def test_comparator_merge_sort_follows_the_readme_spec(items, coins, expected):
    rng = ScriptedRng(coins)
    assert comparator_merge_sort(list(items), rng) == expected
    assert rng.exhausted
    rng = ScriptedRng(coins)
    assert algorithms.random_comparator(tuple(items), rng) == expected and rng.exhausted


def test_random_comparator_gives_the_readmes_example():
    # docs/reference/stream-v1.md, "Why random-comparator's v1 vectors changed, once": seed 'abc', 12 numbered cards
    order = catalog.get("random-comparator").shuffled(list(range(12)), StreamRng("abc"))
    assert order == [9, 3, 0, 2, 8, 4, 11, 1, 10, 7, 6, 5]


class SameFloat:
    """A source whose random() always answers the same value: every key ties."""

    def random(self):
        return 0.5


def _unstable_sorted(iterable, key=None, reverse=False):
    """A correct sort that is not stable (as MicroPython's may not be): equal keys come out reversed."""
    return builtins.sorted(list(iterable)[::-1], key=key, reverse=reverse)


def test_random_key_ties_keep_index_order_with_any_sort(monkeypatch):
    cards = ["d", "c", "b", "a"]  # the reverse of their own order, so a sort on the cards shows
    assert algorithms.random_key(cards, SameFloat()) == cards
    monkeypatch.setattr(algorithms, "sorted", _unstable_sorted, raising=False)
    assert algorithms.random_key(cards, SameFloat()) == cards


def test_random_key_sorts_by_its_keys():
    class Keys:
        def __init__(self):
            self.keys = iter([0.9, 0.1, 0.5, 0.1])

        def random(self):
            return next(self.keys)

    # the two keys of 0.1 tie: "b" (index 1) stays before "d" (index 3)
    assert algorithms.random_key(["a", "b", "c", "d"], Keys()) == ["b", "d", "c", "a"]


def test_riffle_gsr_drops_in_proportion_to_packet_sizes():
    # cut bits 1,1,0,0 -> cut 2: left [0,1], right [2,3]; then below(4)=3 >= 2 -> right,
    # below(3)=0 < 2 -> left, below(2)=0 < 1 -> left, then the right's last card
    rng = ScriptedRng([1, 1, 0, 0, 3, 0, 0])
    assert algorithms.riffle_gsr([0, 1, 2, 3], rng, passes=1) == [2, 0, 1, 3]
    assert rng.exhausted


@pytest.mark.parametrize(
    "start, delete, expected_removed, expected_left",
    [(0, 2, [0, 1], [2, 3, 4]), (10, 1, [], [0, 1, 2, 3, 4]), (-2, 1, [3], [0, 1, 2, 4]),
     (-99, 1, [0], [1, 2, 3, 4]), (1, -3, [], [0, 1, 2, 3, 4]), (1, 2.9, [1, 2], [0, 3, 4]),
     (3, 99, [3, 4], [0, 1, 2])],
)
def test_js_splice_matches_javascript(start, delete, expected_removed, expected_left):
    array = [0, 1, 2, 3, 4]
    assert js_splice(array, start, delete) == expected_removed
    assert array == expected_left


def test_js_splice_inserts_past_the_end_by_appending():
    array = [0, 1]
    js_splice(array, 7, 0, ["x", "y"])
    assert array == [0, 1, "x", "y"]



@settings(max_examples=40, deadline=None)
@given(st.integers(0, 60), st.integers(1, 5000), st.text(min_size=1, max_size=8))
def test_cut_insert_in_steps_pauses_every_slice_and_ends_with_the_same_deck(n, repetitions, seed):
    steps = list(algorithms.cut_insert_steps(list(range(n)), StreamRng(seed), repetitions))
    assert steps[-1] == algorithms.cut_insert(list(range(n)), StreamRng(seed), repetitions)
    pauses = -(-repetitions // algorithms.CUT_INSERT_SLICE) - 1 if n else 0
    assert steps[:-1] == [None] * pauses


@pytest.mark.parametrize("entry", catalog.entries(), ids=lambda e: e.id)
def test_every_algorithm_in_steps_ends_with_what_shuffled_returns(entry):
    params = {p.name: min(p.maximum, 2500) for p in entry.params}  # past one slice where a parameter allows
    steps = list(entry.shuffle_steps(list(range(40)), StreamRng("steps"), params))
    assert steps[-1] == entry.shuffled(list(range(40)), StreamRng("steps"), params)
    assert all(step is None for step in steps[:-1]) and len(steps) == (3 if entry.steps else 1)
