"""Bit-slicing: the lane source, exactly uniform partner planes, and decks in and out of planes."""

import random
from collections import Counter

import pytest
from scipy.stats import chi2

from shufflelab.tally import FastRng
from shufflelab.tally.bitslice import (
    SPARE_SETS_KEPT,
    FastLaneSource,
    SpareBits,
    decks_from_columns,
    fresh_columns,
    lanes_at_least,
    planes_from_lane_bytes,
    uniform_planes,
    value_counts,
    value_masks,
)

from .helpers import ScriptedLanes, decks, planes_of, read_lanes


def test_lane_bits_are_the_generators_own_bits_so_a_future_fastrng_bits_matches():
    # FastLaneSource reads whole words straight from getrandbits; for the kernels' sizes that
    # must be the generator's own bits, or seeded tallies would change
    for count in (32, 4096, 65536):
        assert FastLaneSource(FastRng("s")).bits(count) == random.Random("s").getrandbits(count)
    assert 0 <= FastLaneSource(FastRng(1)).bits(40) < 1 << 40


@pytest.mark.parametrize("count", [0, 1, 2, 7, 64, 2049])
def test_words_as_int_is_the_words_of_words_lowest_first(count):
    # bits() reads words_as_int: it must be the very words words() gives (tally stream v1), in the same order
    assert FastRng("w").words_as_int(count) == int.from_bytes(FastRng("w").words(count), "little")


@pytest.mark.parametrize("count", [1, 31, 33, 40, 65535])
def test_lane_bits_of_a_part_word_are_the_low_bits_of_whole_words(count):
    words = int.from_bytes(FastRng("p").words(-(-count // 32)), "little")
    assert FastLaneSource(FastRng("p")).bits(count) == words & ((1 << count) - 1)


# --- the partner draws are exactly uniform ---------------------------------------


def test_rejected_lanes_take_fresh_values_and_accepted_ones_keep_theirs():
    # m = 5 from 3 bits: the values 5, 6 and 7 are the rejection zone
    first = planes_of([0, 1, 2, 3, 4, 5, 6, 7], 3)
    second = planes_of([7, 7, 7, 7, 7, 4, 6, 2], 3)  # lane 6 draws 6: rejected again
    third = planes_of([5, 5, 5, 5, 5, 5, 3, 5], 3)
    source = ScriptedLanes(first + second + third)
    planes = uniform_planes(5, 8, source, fix_one_by_one_at=0)
    assert read_lanes(planes, 8) == [0, 1, 2, 3, 4, 4, 3, 2]
    assert source.exhausted


def test_few_rejected_lanes_are_redrawn_one_by_one_lowest_first():
    source = ScriptedLanes(planes_of([0, 1, 2, 3, 4, 5, 6, 7], 3), belows=[4, 0, 1])
    planes = uniform_planes(5, 8, source, fix_one_by_one_at=3)
    assert read_lanes(planes, 8) == [0, 1, 2, 3, 4, 4, 0, 1]
    assert source.exhausted


def test_steps_share_spare_bits_but_never_reuse_a_lane_of_them():
    step_a = planes_of([0, 1, 2, 3, 4, 5, 6, 7], 3)  # m = 5: lanes 5, 6, 7 rejected
    spare_set = planes_of([1, 2, 7, 7, 7, 0, 3, 4], 3)  # drawn for step a's redraws
    step_b = planes_of([6, 7, 0, 1, 2, 3, 4, 5], 3)  # m = 6: lanes 0 and 1 rejected
    source = ScriptedLanes(step_a + spare_set + step_b)
    spare = SpareBits(source, 8)
    a = read_lanes(uniform_planes(5, 8, source, spare, fix_one_by_one_at=0), 8)
    b = read_lanes(uniform_planes(6, 8, source, spare, fix_one_by_one_at=0), 8)
    assert a == [0, 1, 2, 3, 4, 0, 3, 4]
    assert b == [1, 2, 0, 1, 2, 3, 4, 5], "lanes 0 and 1 of the spare set were still unused"
    assert source.exhausted
    # step c rejects every lane: only lanes 2, 3, 4 of the spare set are unused (and hold
    # 7, rejected again); every lane then takes a new set, none reuses a spent lane
    source.planes += planes_of([7] * 8, 3) + planes_of([2] * 8, 3)
    assert read_lanes(uniform_planes(6, 8, source, spare, fix_one_by_one_at=0), 8) == [2] * 8
    assert source.exhausted
    assert spare.sets(3) == [], "both sets have every lane used: dropped"


def test_spare_sets_stay_few():
    source = FastLaneSource(FastRng(8))
    spare = SpareBits(source, 1024)
    for _ in range(40):
        uniform_planes(33, 1024, source, spare)  # rejects almost half: many redraws
        assert len(spare.sets(6)) <= SPARE_SETS_KEPT


def test_power_of_two_bounds_draw_exactly_their_bits_and_never_reject():
    source = ScriptedLanes(planes_of(list(range(8)) * 2, 3))
    assert read_lanes(uniform_planes(8, 16, source), 16) == list(range(8)) * 2
    assert source.exhausted


def test_every_value_of_the_bits_maps_to_itself_or_is_rejected():
    # each accepted lane keeps its exact k-bit value, so every value below m has exactly
    # one word: the draw is exactly uniform; every word >= m is rejected
    for m in range(2, 70):
        width = (m - 1).bit_length()
        words = list(range(1 << width))
        refill = [0] * len(words)  # rejected lanes all become 0 in the second round
        source = ScriptedLanes(planes_of(words, width) + planes_of(refill, width))
        values = read_lanes(uniform_planes(m, len(words), source, fix_one_by_one_at=0), len(words))
        assert values == [w if w < m else 0 for w in words]


def test_lanes_at_least_are_exactly_the_lanes_whose_value_reaches_the_bound():
    # every value of 1 to 7 bits in a lane of its own, and every bound, in all lanes and in a random half of them
    # (the carry chain starts at the bound's lowest bit that m - 1 lacks, wherever that is: each place is hit here)
    rng = random.Random(8)
    for width in range(1, 8):
        values = list(range(1 << width))
        planes = planes_of(values, width)
        for m in range(1, (1 << width) + 1):
            for among in ((1 << len(values)) - 1, rng.getrandbits(len(values))):
                wanted = [among >> lane & 1 and value >= m for lane, value in enumerate(values)]
                found = lanes_at_least(planes, m, among)
                assert [found >> lane & 1 == 1 for lane in range(len(values))] == wanted, (width, m)


def test_partner_draws_are_uniform_at_a_fixed_seed():
    lanes = 1 << 14
    for m in (3, 5, 33, 52):
        values = Counter(read_lanes(uniform_planes(m, lanes, FastLaneSource(FastRng(m))), lanes))
        assert set(values) == set(range(m))
        statistic = sum((values[v] - lanes / m) ** 2 / (lanes / m) for v in range(m))
        assert chi2.sf(statistic, m - 1) > 1e-4


# --- decks in and out of planes ---------------------------------------------------------


def test_lane_bytes_and_planes_round_trip():
    data = bytes(random.Random(4).getrandbits(8) for _ in range(1000))
    planes = planes_from_lane_bytes(data, 1, 8)
    assert decks_from_columns([planes], 1000) == data


def test_fresh_columns_are_the_unshuffled_deck():
    assert decks(fresh_columns(11, 5), 5) == [list(range(11))] * 5


@pytest.mark.parametrize("count", [1, 2, 3, 7, 8, 9, 52, 64, 255])
def test_value_counts_are_the_bit_counts_of_the_value_masks(count):
    picker = random.Random(count)
    lanes = 500
    values = [picker.randrange(count) for _ in range(lanes)]
    planes = planes_of(values, max(count - 1, 1).bit_length())
    root = (1 << lanes) - 1
    masks = value_masks(planes, count, root)
    for wanted in {0, count // 2, count - 1}:
        counts, lanes_with_wanted = value_counts(planes, count, root, wanted)
        assert counts == [mask.bit_count() for mask in masks] == [values.count(v) for v in range(count)]
        assert lanes_with_wanted == masks[wanted]


@pytest.mark.parametrize("count", [2, 5, 8, 13, 52, 100])
def test_value_counts_of_a_window_count_each_value_and_find_each_wanted_one(count):
    # as count_lanes calls it: planes that reach past the window's lanes, with other values there; every wanted
    # value, and one value in nearly every lane (the inversion's fields at their largest, without a borrow)
    picker = random.Random(count)
    width, skip, past = 300, 7, 40
    for values in ([picker.randrange(count) for _ in range(skip + width + past)],
                   [count - 1] * (skip + width - 1) + [0] * (past + 1)):
        planes = [plane >> skip for plane in planes_of(values, max(count - 1, 1).bit_length())]
        inside = values[skip : skip + width]
        for wanted in range(count):
            counts, lanes_with_wanted = value_counts(planes, count, (1 << width) - 1, wanted)
            assert counts == [inside.count(v) for v in range(count)]
            assert lanes_with_wanted == sum(1 << lane for lane, v in enumerate(inside) if v == wanted)


class CountingSource:
    """A LaneSource over random.Random that counts the planes drawn."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.planes = 0

    def bits(self, count: int) -> int:
        self.planes += 1
        return self.rng.getrandbits(count)

    def below(self, m: int) -> int:
        return self.rng.randrange(m)


def test_spare_bits_save_the_planes_their_docstring_says():
    """SpareBits's figure: a 52-card Fisher-Yates block of 65,536 decks, its steps sharing their spare bits or not."""
    counts = {True: [], False: []}
    for shared in counts:
        for seed in range(1, 6):
            source = CountingSource(seed)
            spare = SpareBits(source, 65536)
            for i in range(51, 0, -1):
                uniform_planes(i + 1, 65536, source, spare if shared else None)
            counts[shared].append(source.planes)
    assert (min(counts[True]), max(counts[True])) == (1023, 1061), counts
    assert (min(counts[False]), max(counts[False])) == (1823, 1847), counts
