"""Tally kernels: each catalog entry's bit-sliced kernel is its port, lane by lane.

How the kernels are proved to be the catalog's ports:
1. path by path (here): every sequence of random choices, one per lane, scripted into the
   kernel's planes, gives in each lane exactly the deck the port gives for the same choices
   (exhaustive for small n; c-rand for many srand seeds and deck sizes);
2. the partner draws are exactly uniform (test_bitslice.py): scripted planes that hit the
   rejection zone show that values >= m never survive and accepted values are kept as drawn;
3. at fixed seeds, whole tallies agree with the exact card x position matrix within a
   chi-square bound (test_tally.py; deterministic, so it cannot flake).
"""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflelab import catalog
from shufflelab.tally import MAX_CARDS, FastRng
from shufflelab.tally.bitslice import FastLaneSource
from shufflelab.tally.kernels import Kernel, lane_remainders, make_block, repeat_in_lanes

from ..scripted import ScriptedRng
from .helpers import KERNEL_IDS, ScriptedLanes, decks, path_sizes, port_bounds, script_choices


def kernel(algorithm_id):
    return catalog.get(algorithm_id).resolve("kernel")


# the smallest and the largest deck whose every path is replayed, for each kernel that has one
PATH_CASES = sorted({(algorithm_id, n) for algorithm_id in KERNEL_IDS if (sizes := path_sizes(algorithm_id))
                     for n in (sizes[0], sizes[-1])})


def test_every_kernel_is_checked_path_by_path_or_seed_by_seed():
    # c-rand's one draw is a 32-bit srand seed: far too many paths, so its seeds are scripted instead
    assert {algorithm_id for algorithm_id, _ in PATH_CASES} | {"c-rand"} == set(KERNEL_IDS)
    assert {"fisher-yates", "fisher-yates-off-by-one", "swap-any", "naive-pairs"} <= set(KERNEL_IDS)


@pytest.mark.parametrize("algorithm_id, n", PATH_CASES)
def test_kernel_gives_the_port_deck_for_every_path(algorithm_id, n):
    bounds = port_bounds(algorithm_id, n)
    paths = list(itertools.product(*(range(m) for m in bounds)))
    source = ScriptedLanes(script_choices(bounds, paths))
    block = decks(make_block(kernel(algorithm_id), n, len(paths), source), len(paths))
    assert source.exhausted, "the kernel must draw exactly the scripted planes"
    for path, deck in zip(paths, block):
        assert deck == catalog.get(algorithm_id).shuffled(range(n), ScriptedRng(path)), path


@pytest.mark.parametrize("n", [2, 3, 7, 52, 104, 255])
def test_c_rand_kernel_gives_the_port_deck_for_each_srand_seed(n):
    picker = random.Random(n)
    seeds = [0, 1, 2**31 - 1, 2**31, 2**32 - 1] + [picker.getrandbits(32) for _ in range(59)]
    packed = sum(seed << (32 * lane) for lane, seed in enumerate(seeds))
    source = ScriptedLanes([packed])
    block = decks(make_block(kernel("c-rand"), n, len(seeds), source), len(seeds))
    assert source.exhausted
    for seed, deck in zip(seeds, block):
        assert deck == catalog.get("c-rand").port(range(n), ScriptedRng([seed])), seed


@pytest.mark.parametrize("n", [2, 3, 7, 52, 53, 104, 128, 200, 255])
def test_lane_remainders_are_exact_for_every_rand_value(n):
    lanes = 1 << 15  # every value rand() can return
    low15 = repeat_in_lanes(0x7FFF, lanes)
    values = int.from_bytes(b"".join(r.to_bytes(8, "little") for r in range(lanes)), "little")
    remainders = lane_remainders(values, n, low15).to_bytes(8 * lanes, "little")
    assert remainders[0::8] == bytes(r % n for r in range(lanes))
    assert not any(remainders[k::8].strip(b"\0") for k in range(1, 8)), "a lane overflowed"


def test_none_kernel_is_the_unshuffled_deck_and_draws_nothing():
    source = ScriptedLanes([])
    assert decks(make_block(kernel("none"), 6, 40, source), 40) == [list(range(6))] * 40
    assert source.exhausted


def test_every_kernel_is_a_catalog_algorithm_without_parameters():
    for algorithm_id in KERNEL_IDS:
        assert catalog.get(algorithm_id).params == ()


@pytest.mark.parametrize("algorithm_id", sorted(KERNEL_IDS))
@pytest.mark.parametrize("n", [2, 3, 17, 52, 104])
def test_every_kernel_deck_is_a_permutation(algorithm_id, n):
    lanes = 96
    for deck in decks(make_block(kernel(algorithm_id), n, lanes, FastLaneSource(FastRng(n))), lanes):
        assert sorted(deck) == list(range(n))


def test_fisher_yates_kernel_deck_is_a_permutation_at_the_largest_size():
    n = MAX_CARDS
    for deck in decks(make_block(kernel("fisher-yates"), n, 64, FastLaneSource(FastRng(1))), 64):
        assert sorted(deck) == list(range(n))


@settings(max_examples=40, deadline=None)
@given(algorithm_id=st.sampled_from(KERNEL_IDS), n=st.integers(2, 40), lanes=st.integers(1, 300),
       seed=st.integers(0, 2**64))
def test_a_kernels_draws_taken_first_make_the_same_block_and_leave_the_stream_where_it_would_be(algorithm_id, n,
                                                                                                  lanes, seed):
    # what lets one process draw blocks while others make them (tally/parallel.py): the two halves split cleanly
    whole_rng, split_rng = FastRng(seed), FastRng(seed)
    block = make_block(kernel(algorithm_id), n, lanes, FastLaneSource(whole_rng))
    drawn = kernel(algorithm_id).draws(n, lanes, FastLaneSource(split_rng))
    assert whole_rng.words(4).tolist() == split_rng.words(4).tolist()  # the stream goes on from the same place
    whole = kernel(algorithm_id)
    made = make_block(Kernel(lambda *_: iter(drawn), whole.make, "the make half alone", by_card=whole.by_card),
                      n, lanes, None)
    assert decks(made, lanes) == decks(block, lanes)
