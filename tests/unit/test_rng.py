"""The randomness module: stream v1 against an independent JavaScript derivation, and exactness."""

import itertools
import json
import math
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from shufflelab import algorithms
from shufflelab.rng import CRand, FastRng, StreamRng, SystemRng, new_seed, stream

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden"
GOLDEN = json.loads((GOLDEN_DIR / "stream_v1.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", GOLDEN["words"], ids=lambda c: repr(c["seed"]))
def test_stream_words_match_golden(case):
    rng = StreamRng(case["seed"])
    assert [rng.word() for _ in case["first"]] == case["first"]


@pytest.mark.parametrize("case", GOLDEN["below"], ids=lambda c: repr(c["seed"]))
def test_stream_below_matches_golden(case):
    rng = StreamRng(case["seed"])
    assert [rng.below(m) for m in case["bounds"]] == case["values"]


@pytest.mark.parametrize("case", GOLDEN["random"], ids=lambda c: repr(c["seed"]))
def test_stream_random_matches_golden(case):
    rng = StreamRng(case["seed"])
    assert [rng.random() for _ in case["values"]] == case["values"]


@pytest.mark.parametrize("case", GOLDEN["fisher_yates"], ids=lambda c: f"{c['seed']!r}-{c['n']}")
def test_fisher_yates_matches_golden(case):
    assert algorithms.fisher_yates(range(case["n"]), StreamRng(case["seed"])) == case["order"]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is installed by make setup")
def test_golden_file_is_what_the_javascript_reference_derives():
    script = GOLDEN_DIR / "stream_v1_reference.mjs"
    derived = subprocess.run(["node", str(script)], capture_output=True, text=True, check=True)
    assert json.loads(derived.stdout) == GOLDEN


def test_stream_rejects_words_in_the_biased_tail():
    # floor(2^32 / 3) * 3 = 4294967295: the word 2^32 - 1 must be redrawn for m = 3
    rng = StreamRng("x")
    words = iter([4294967295, 4294967294, 7])
    rng.word = lambda: next(words)
    assert rng.below(3) == 4294967294 % 3
    assert rng.below(3) == 1


def test_stream_version_other_than_1_is_refused():
    assert stream("a").version == 1
    with pytest.raises(ValueError, match="unknown stream version 2"):
        stream("a", 2)


@pytest.mark.parametrize("make", [lambda: StreamRng("b"), SystemRng, lambda: FastRng(3)])
@pytest.mark.parametrize("m", [0, -1, 2**32 + 1])
def test_bad_bounds_are_refused(make, m):
    with pytest.raises(ValueError, match="below"):
        make().below(m)


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


def test_fast_and_stream_sources_are_uniform_for_small_bounds():
    for rng in (FastRng(11), StreamRng("uniform")):
        counts = Counter(rng.below_many([6] * 60000))
        # chi-square with 5 df: 25 is far beyond the 0.9999 quantile (~25.7 at 0.99995)
        chi2 = sum((counts[k] - 10000) ** 2 / 10000 for k in range(6))
        assert chi2 < 25


def test_random_floats_are_in_unit_interval():
    for rng in (FastRng(1), StreamRng("f"), SystemRng()):
        values = [rng.random() for _ in range(1000)]
        assert all(0.0 <= v < 1.0 for v in values)
        assert len(set(values)) > 990


def test_new_seed_carries_256_bits_in_url_safe_text():
    seeds = {new_seed() for _ in range(50)}
    assert len(seeds) == 50
    for seed in seeds:
        assert len(seed) == 43
        assert set(seed) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def test_c_rand_is_the_ansi_c_sample_generator():
    # srand(1) sequence of the C standard's sample rand(), as widely tabulated
    generator = CRand(1)
    assert [generator.rand() for _ in range(10)] == [
        16838, 5758, 10113, 17515, 31051, 5627, 23010, 7419, 16212, 4086,
    ]
    assert all(0 <= CRand(s).rand() <= CRand.RAND_MAX for s in (0, 2**32 - 1, 12345))
