"""Append tally stream v1 vectors to mt_stream_v1.json for seeds it does not hold yet; never rewrite one.

A lab link's tally seed counts the same shuffles forever (tally_v1.json), and what it
counts is drawn from the Mersenne Twister written down in py/shufflelab/tally/stream_v1.py
and docs/reference/tally-stream-v1.md. These vectors pin that generator step by step, so a
re-implementation in any language can check itself as it goes: the seed's key words, the
state after seeding, the first words, words across the first twists, getrandbits of many
widths and random(). Made by the pure stream_v1.MersenneTwister, not by ``random``; the
tests check them against both, in CPython and in Pyodide (tests/portable/check_mt_stream.py).

Seeds are written as text: a whole-number seed as its decimal digits, with "seed_type": "int".
getrandbits values are hexadecimal text (wider than JSON numbers can hold exactly).

Usage: PYTHONPATH=py python tests/golden/make_mt_stream_vectors.py [--check]
(--check: exit 1 if any case is missing, write nothing)
"""

import json
from pathlib import Path

from shufflelab.tally.stream_v1 import MersenneTwister, N, init_by_array, seed_key

PATH = Path(__file__).with_name("mt_stream_v1.json")
SEEDS = ("", "a", "tally golden ♠", "🂡 lucky 7", "می‌خواهم", "x" * 64, "tally stream v1 ♠ ✓",
         0, 5, -5, 2**64 + 12345)
WIDTHS = (1, 7, 31, 32, 33, 63, 64, 65, 95, 120, 128, 200, 0, 3)  # getrandbits widths, called in this order
WORDS_AT = (N - 1, N, 2 * N - 1, 2 * N)  # either side of the second and third twists (the first comes before word 0)
FIRST = 4  # key and state words shown


def case_key(seed) -> str:
    """Return a seed's key in the file: its type and text."""
    return ("int:%d" % seed) if isinstance(seed, int) else ("text:" + seed)


def vector(seed) -> dict:
    """Return every checkpoint of tally stream v1 for ``seed``, each from a fresh generator."""
    key = seed_key(seed)
    words = MersenneTwister(seed).words(WORDS_AT[-1] + 1)
    bits = MersenneTwister(seed)
    floats = MersenneTwister(seed)
    return {
        "seed": str(seed), "seed_type": "int" if isinstance(seed, int) else "text",
        "key_length": len(key), "key_first": key[:FIRST],
        "state_first": init_by_array(key)[:FIRST],
        "words": words[:8],
        "words_at": [[i, words[i]] for i in WORDS_AT],
        "getrandbits": [[k, "%x" % bits.getrandbits(k)] for k in WIDTHS],
        "random": [floats.random() for _ in range(3)],
    }


def append_missing(golden: dict) -> int:
    """Add the vectors of missing seeds to ``golden``; return how many were added."""
    have = {v["seed_type"] + ":" + v["seed"] for v in golden["vectors"]}
    added = 0
    for seed in SEEDS:
        if case_key(seed) not in have:
            golden["vectors"].append(vector(seed))
            have.add(case_key(seed))
            added += 1
    return added


def empty() -> dict:
    return {"stream": "tally stream v1",
            "spec": "README.md, 'Tally stream v1'; py/shufflelab/tally/stream_v1.py",
            "vectors": []}


def dump(golden: dict) -> str:
    """Return the file's text: one line per field of a vector, so a diff shows what was appended."""
    vectors = ",\n".join("  {" + ",\n   ".join("%s: %s" % (json.dumps(name), json.dumps(value, ensure_ascii=False))
                                               for name, value in v.items()) + "}" for v in golden["vectors"])
    head = ",\n".join(" %s: %s" % (json.dumps(k), json.dumps(golden[k], ensure_ascii=False)) for k in golden if k != "vectors")
    return "{\n%s,\n \"vectors\": [\n%s\n ]\n}\n" % (head, vectors)


if __name__ == "__main__":
    from append_only import run

    run(PATH, empty, append_missing, dump)
