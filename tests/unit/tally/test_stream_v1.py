"""Tally stream v1 written down: the pure Mersenne Twister equals random.Random, and FastRng keeps the promise."""

import importlib.util
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflelab.tally import Tally, fast_rng, stream_v1
from shufflelab.tally.fast_rng import FastRng
from shufflelab.tally.stream_v1 import MersenneTwister

GOLDEN_DIR = Path(__file__).resolve().parents[2] / "golden"
VECTORS = json.loads((GOLDEN_DIR / "mt_stream_v1.json").read_text("utf-8"))["vectors"]
TALLIES = json.loads((GOLDEN_DIR / "tally_v1.json").read_text("utf-8"))
CHECKER_PATH = Path(__file__).resolve().parents[2] / "portable" / "check_mt_stream.py"

# any text a seed can be (no lone surrogates: UTF-8 cannot encode them), ASCII to emoji
SEED_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=80)
SEEDS = SEED_TEXT | st.integers(-(2**200), 2**200)
CALLS = st.lists(st.integers(0, 700) | st.sampled_from(["random", 19_968, 20_000]), max_size=40)


def load(path: Path, name: str):
    """Return the script at ``path`` as a module."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECKER = load(CHECKER_PATH, "check_mt_stream")  # its drawn() reads a vector as the Pyodide run does


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS, calls=CALLS)
def test_the_pure_generator_draws_what_random_random_draws(seed, calls):
    ours, theirs = MersenneTwister(seed), random.Random(seed)
    assert stream_v1.init_by_array(stream_v1.seed_key(seed)) == list(theirs.getstate()[1][:-1])
    for call in calls:
        if call == "random":
            assert ours.random() == theirs.random()
        else:
            assert ours.getrandbits(call) == theirs.getrandbits(call), call


@settings(max_examples=50, deadline=None)
@given(seed=SEEDS, count=st.integers(0, 1_500))
def test_words_are_getrandbits_32_in_order(seed, count):
    theirs = random.Random(seed)
    assert MersenneTwister(seed).words(count) == [theirs.getrandbits(32) for _ in range(count)]


def test_negative_widths_and_other_seed_types_are_refused_as_random_random_refuses_them():
    with pytest.raises(ValueError):
        MersenneTwister("a").getrandbits(-1)
    with pytest.raises(ValueError):
        random.Random("a").getrandbits(-1)
    with pytest.raises(TypeError):
        MersenneTwister(1.5)
    with pytest.raises(TypeError):
        FastRng(b"bytes")  # random.Random would take it, but v1 only says what text and whole numbers draw


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["seed_type"] + ":" + v["seed"][:12])
@pytest.mark.parametrize("make", [random.Random, MersenneTwister], ids=["random.Random", "stream_v1"])
def test_golden_vectors(vector, make):
    seed = CHECKER.seed_of(vector)
    key = stream_v1.seed_key(seed)
    assert [len(key), key[:4]] == [vector["key_length"], vector["key_first"]]
    assert stream_v1.init_by_array(key)[:4] == vector["state_first"]
    got = CHECKER.drawn(make, vector)
    assert got == {part: vector[part] for part in got}


def test_golden_file_covers_text_and_whole_number_seeds_and_the_check_seed():
    seeds = {(v["seed_type"], v["seed"]) for v in VECTORS}
    assert {kind for kind, _ in seeds} == {"text", "int"}
    assert {("text", ""), ("text", "tally golden ♠"), ("int", "0")} <= seeds  # tally_v1.json's seed among them
    assert {("text" if isinstance(s, str) else "int", str(s)) for s, _ in stream_v1.CHECK} <= seeds
    assert any(ord(c) > 0xFFFF for _, s in seeds for c in s), "a seed beyond the BMP (4-byte UTF-8)"


def test_the_generator_has_nothing_to_append():
    generator = load(GOLDEN_DIR / "make_mt_stream_vectors.py", "make_mt_stream_vectors")
    golden = json.loads((GOLDEN_DIR / "mt_stream_v1.json").read_text("utf-8"))
    assert generator.append_missing(golden) == 0
    # and every vector it would write is the one already there
    assert [generator.vector(CHECKER.seed_of(v)) for v in VECTORS] == VECTORS


# --- the check FastRng makes at first use, and the fallback --------------------------------


def test_random_random_and_the_pure_generator_both_pass_the_check():
    assert stream_v1.agrees(random.Random)
    assert stream_v1.agrees(MersenneTwister)
    assert fast_rng.stdlib_draws_stream_v1()


class SeededOtherwise(MersenneTwister):
    """A generator whose text seeding is not v1's: the UTF-8 without the SHA-512 (as CPython's version 1 differs)."""

    def __init__(self, seed):
        super().__init__(int.from_bytes(seed.encode(), "big") if isinstance(seed, str) else seed)


class WordsMostSignificantFirst(MersenneTwister):
    """A generator that assembles wide getrandbits from the most significant word down."""

    def getrandbits(self, k):
        if k <= 32:
            return super().getrandbits(k)
        words = self.words(-(-k // 32))
        value = 0
        for word in words:
            value = (value << 32) | word
        return value >> (32 * len(words) - k)


class KeepsLowBits(MersenneTwister):
    """A generator that keeps the low bits of a partial last word instead of the top ones."""

    def getrandbits(self, k):
        if k == 0 or k % 32 == 0:
            return super().getrandbits(k)
        words = self.words(-(-k // 32))
        words[-1] &= (1 << (k % 32)) - 1
        return sum(w << (32 * i) for i, w in enumerate(words))


class OtherFloats(MersenneTwister):
    """A generator whose random() takes its 53 bits another way (one 64-bit draw)."""

    def random(self):
        return (self.getrandbits(64) >> 11) / 2.0**53


class DriftsFromTheSecondTwist(MersenneTwister):
    """A generator whose words differ only from word 624 on, the first word of the second twist."""

    def words(self, count):
        start = getattr(self, "drawn", 0)
        self.drawn = start + count
        return [word ^ (index >= stream_v1.N) for index, word in enumerate(super().words(count), start)]


@pytest.mark.parametrize("impostor", [SeededOtherwise, WordsMostSignificantFirst, KeepsLowBits, OtherFloats,
                                      DriftsFromTheSecondTwist])
def test_the_check_catches_every_way_a_generator_could_drift(impostor):
    assert not stream_v1.agrees(impostor)


def test_fast_rng_checks_random_random_once_and_falls_back_to_the_pure_generator(monkeypatch):
    monkeypatch.setattr(fast_rng, "_stdlib_checked", [])
    monkeypatch.setattr(stream_v1, "CHECK", (("a", (("bits", 8, -1),)),))  # no generator can answer -1
    assert not fast_rng.stdlib_draws_stream_v1()
    assert isinstance(FastRng("seed")._generator, MersenneTwister)
    assert isinstance(FastRng(None)._generator, random.Random), "an unseeded tally promises nothing: C speed"
    monkeypatch.setattr(stream_v1, "CHECK", ())
    assert not fast_rng.stdlib_draws_stream_v1(), "checked once, at first use"


def fallback_cases():
    """Every tally_v1.json case; those of 9 cards are left to make test (the pure generator is slow, and 5 cards
    already take every algorithm's path)."""
    return [pytest.param(key, marks=pytest.mark.slow) if TALLIES[key]["n"] > 5 else key for key in sorted(TALLIES)]


@pytest.mark.parametrize("key", fallback_cases())
def test_with_the_pure_generator_a_seeded_tally_counts_the_golden_counts(monkeypatch, key):
    monkeypatch.setattr(fast_rng, "stdlib_draws_stream_v1", lambda: False)  # as if a CPython changed random.Random
    held = TALLIES[key]
    tally = Tally(held["algo"], held["n"], held["params"], held["seed"])
    assert isinstance(tally._rng._generator, MersenneTwister)
    tally.run(held["trials"])
    assert tally.counts == held["counts"]
    assert tally.fixed_points == held["fixed_points"]


@pytest.mark.slow  # 3 to 5 s, the pure generator's tallies above again: with the Pyodide run, in make test
def test_the_portable_checker_passes_on_this_cpython(capsys):
    status = CHECKER.main([str(GOLDEN_DIR)])
    output = capsys.readouterr().out
    assert status == 0, output
    assert "portable: " in output and " 0 failed" in output, output
