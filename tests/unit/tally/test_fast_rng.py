"""The tally's fast source: exactly unbiased draws from a Mersenne Twister, grouped for speed."""

import itertools
import math
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shufflelab.tally.fast_rng import FastRng


@pytest.mark.parametrize("m", [0, -1, 2**32 + 1])
def test_bad_bounds_are_refused(m):
    with pytest.raises(ValueError, match="below"):
        FastRng(3).below(m)


@pytest.mark.parametrize("m", [0, -1])
def test_bounds_below_one_are_refused_in_bulk_too(m):
    with pytest.raises(ValueError, match="below"):
        FastRng(3).below_many([5, m, 7])


@given(st.lists(st.integers(1, 2**32), min_size=0, max_size=40), st.integers(0, 2**64))
def test_fast_below_many_is_in_range(bounds, seed):
    values = FastRng(seed).below_many(bounds)
    assert len(values) == len(bounds)
    assert all(0 <= v < m for v, m in zip(values, bounds))


def fast_rng_answering(values):
    """A FastRng whose getrandbits answers these values in turn (recording the widths asked)."""
    rng = FastRng(0)
    answers = iter(values)
    rng.widths = []

    def scripted(bits):
        rng.widths.append(bits)
        return next(answers)

    rng._getrandbits = scripted
    return rng


@pytest.mark.parametrize("bounds", [[3, 5, 2], [7], [2, 2, 2, 2], [1, 6, 1]])
def test_fast_source_digits_take_each_combination_exactly_once(bounds):
    # one draw below the product: its 2^bits possible values are each equally likely; those
    # at or above the product are redrawn, and the rest must give every digit tuple once
    span = math.prod(bounds)
    bits = span.bit_length()
    seen = Counter()
    for value in range(2**bits):
        rng = fast_rng_answering([value, 0])  # 0 (< span) ends a redraw
        digits = tuple(rng.below_many(bounds))
        if value >= span:
            assert rng.widths == [bits, bits] and digits == tuple([0] * len(bounds))
        else:
            assert rng.widths == [bits]
            seen[digits] += 1
    assert set(seen.values()) == {1}
    assert sorted(seen) == sorted(itertools.product(*(range(m) for m in bounds)))


def test_fast_source_groups_long_lists_of_bounds():
    rng = fast_rng_answering(itertools.repeat(0))
    rng.below_many([2**32] * 20)  # 33-bit bounds: 3 to a 120-bit group, so 7 draws
    assert len(rng.widths) == 7


def test_fast_source_is_uniform_for_small_bounds():
    counts = Counter(FastRng(11).below_many([6] * 60000))
    # chi-square with 5 df: 25 is far beyond the 0.9999 quantile (~25.7 at 0.99995)
    chi2 = sum((counts[k] - 10000) ** 2 / 10000 for k in range(6))
    assert chi2 < 25


def test_fast_random_floats_are_in_unit_interval():
    rng = FastRng(1)
    values = [rng.random() for _ in range(1000)]
    assert all(0.0 <= v < 1.0 for v in values)
    assert len(set(values)) > 990


def test_a_seed_repeats_its_draws():
    assert FastRng(5).below_many([52] * 10) == FastRng(5).below_many([52] * 10)
    assert FastRng(5).below_many([52] * 10) != FastRng(6).below_many([52] * 10)
