"""The randomness module: stream v1 against an independent JavaScript derivation, and exactness."""

import base64
import hmac
import json
import shutil
import struct
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shufflelab import algorithms
from shufflelab.errors import ShuffleLabError
from shufflelab.rng import SEED_BYTES, CRand, StreamRng, SystemRng, new_seed, seed_text, stream

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
    with pytest.raises(ShuffleLabError, match="unknown stream version 2"):
        stream("a", 2)


@pytest.mark.parametrize("make", [lambda: StreamRng("b"), SystemRng])
@pytest.mark.parametrize("m", [0, -1, 2**32 + 1])
def test_bad_bounds_are_refused(make, m):
    with pytest.raises(ValueError, match="below"):
        make().below(m)


def test_the_stream_is_uniform_for_small_bounds():
    counts = Counter(StreamRng("uniform").below_many([6] * 60000))
    # chi-square with 5 df: 25 is far beyond the 0.9999 quantile (~25.7 at 0.99995)
    chi2 = sum((counts[k] - 10000) ** 2 / 10000 for k in range(6))
    assert chi2 < 25


def test_random_floats_are_in_unit_interval():
    for rng in (StreamRng("f"), SystemRng()):
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


# --- stream v1 is HMAC-SHA256 (RFC 2104), built here on hashlib for MicroPython ------------------

# key lengths in UTF-8 bytes around SHA-256's 64-byte block: a longer key is hashed first
KEYS = ["", "k", "k" * 64, "k" * 65, "k" * 300, "é" * 32, "é" * 33, "♠" * 22]


@pytest.mark.parametrize("seed", KEYS, ids=lambda s: f"{len(s.encode())}-bytes")
def test_stream_blocks_are_hmac_sha256_of_the_counter(seed):
    rng = StreamRng(seed)
    key = seed.encode("utf-8")
    for counter in (0, 1, 2, 255, 2**32, 2**64 - 1):
        assert rng.block(counter) == hmac.digest(key, counter.to_bytes(8, "big"), "sha256")
    # the words are the blocks' big-endian 32-bit words, block 0 first
    expected = struct.unpack(">8I", rng.block(0)) + struct.unpack(">8I", rng.block(1))
    assert tuple(rng.word() for _ in range(16)) == expected


@pytest.mark.parametrize("raw", [bytes(range(n)) for n in range(41)] + [b"\xff" * n for n in range(1, 5)],
                         ids=lambda raw: f"{len(raw)}-{raw[-1:].hex()}")
def test_seed_text_is_unpadded_url_safe_base64(raw):
    assert seed_text(raw) == base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


@given(st.binary(max_size=40))
def test_seed_text_is_unpadded_url_safe_base64_for_any_bytes(raw):
    assert seed_text(raw) == base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def test_new_seed_takes_its_bits_from_the_given_source():
    asked = []

    def source(count):
        asked.append(count)
        return [255 - i for i in range(count)]  # as a JavaScript Uint8Array arrives: any sequence of bytes

    seed = new_seed(source)
    assert asked == [SEED_BYTES] and len(seed) == 43
    assert seed == seed_text(bytes(255 - i for i in range(SEED_BYTES)))


@pytest.mark.parametrize("count", [0, SEED_BYTES - 1, SEED_BYTES + 1])
def test_new_seed_refuses_a_source_giving_the_wrong_byte_count(count):
    with pytest.raises(ValueError, match=f"a seed needs 32 random bytes, got {count}"):
        new_seed(lambda _: bytes(count))
