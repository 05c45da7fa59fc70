"""Check tally stream v1 against its golden vectors: the same script on CPython and on Pyodide.

    python tests/portable/check_mt_stream.py [GOLDEN_DIR]              (default: tests/golden)
    node scripts/pyodide.mjs --mount tests/golden=/golden tests/portable/check_mt_stream.py /golden

Checks, on the Python that runs it: mt_stream_v1.json against ``random.Random`` and against
the pure ``stream_v1.MersenneTwister``; ``stream_v1.CHECK`` against both (what ``FastRng``
checks at first use); and tally_v1.json's counts with the tally's own generator, and on
CPython again with the pure one forced (the fallback a future CPython would get). Prints the Python's
version, one line per failed check and closes with ``portable: N passed, M failed``; the
exit status is 1 if anything failed.
"""

import json
import os
import random
import sys

SHOWN = 160  # characters of a value shown in a failure line


class Report:
    """Counts checks and prints a line for each one that failed."""

    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, label: str, got, want) -> None:
        """Count one check: ``got`` must equal ``want``."""
        if got == want:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL %s: got %s, want %s" % (label, repr(got)[:SHOWN], repr(want)[:SHOWN]))


def seed_of(vector: dict):
    """Return a vector's seed as the generators take it."""
    return int(vector["seed"]) if vector["seed_type"] == "int" else vector["seed"]


def drawn(make, vector: dict) -> dict:
    """Return what ``make(seed)`` draws at each of a vector's checkpoints, in the vector's form."""
    seed = seed_of(vector)
    words_at = [i for i, _ in vector["words_at"]]
    generator = make(seed)
    words = [generator.getrandbits(32) for _ in range(max(words_at) + 1)]
    bits = make(seed)
    floats = make(seed)
    return {"words": words[: len(vector["words"])],
            "words_at": [[i, words[i]] for i in words_at],
            "getrandbits": [[k, "%x" % bits.getrandbits(k)] for k, _ in vector["getrandbits"]],
            "random": [floats.random() for _ in vector["random"]]}


def check_stream(golden: str, report: Report) -> None:
    """Check mt_stream_v1.json and stream_v1.CHECK against random.Random and the pure generator."""
    from shufflelab.tally import stream_v1

    with open(os.path.join(golden, "mt_stream_v1.json"), encoding="utf-8") as f:
        vectors = json.load(f)["vectors"]
    for vector in vectors:
        seed = seed_of(vector)
        label = "seed %s %r" % (vector["seed_type"], vector["seed"])
        key = stream_v1.seed_key(seed)
        report.check(label + " key", [len(key), key[:4]], [vector["key_length"], vector["key_first"]])
        report.check(label + " state", stream_v1.init_by_array(key)[:4], vector["state_first"])
        report.check(label + " state of random.Random", list(random.Random(seed).getstate()[1][:4]),
                     vector["state_first"])
        for name, make in (("random.Random", random.Random), ("stream_v1", stream_v1.MersenneTwister)):
            got = drawn(make, vector)
            for part in sorted(got):
                report.check("%s %s from %s" % (label, part, name), got[part], vector[part])
    report.check("stream_v1.CHECK from random.Random", stream_v1.agrees(random.Random), True)
    report.check("stream_v1.CHECK from stream_v1", stream_v1.agrees(stream_v1.MersenneTwister), True)


def check_tally(golden: str, report: Report) -> None:
    """Check tally_v1.json's counts with the tally's generator, then (not in Pyodide) with the pure one forced."""
    from shufflelab.tally import Tally, fast_rng

    with open(os.path.join(golden, "tally_v1.json"), encoding="utf-8") as f:
        cases = json.load(f)
    report.check("FastRng draws from random.Random here", fast_rng.stdlib_draws_stream_v1(), True)
    checked = fast_rng.stdlib_draws_stream_v1
    # the pure generator's tally is the same Python everywhere, and CPython replays it; in Pyodide's wasm it
    # takes ten seconds, and what only Pyodide can show is that its own random.Random draws the stream
    for forced in (None,) if sys.platform == "emscripten" else (None, False):
        if forced is not None:
            fast_rng.stdlib_draws_stream_v1 = lambda forced=forced: forced
        try:
            for key in sorted(cases):
                case = cases[key]
                tally = Tally(case["algo"], case["n"], case["params"], case["seed"])
                tally.run(case["trials"])
                report.check("tally %s%s" % (key, " (pure generator)" if forced is False else ""),
                             [tally.counts, tally.fixed_points], [case["counts"], case["fixed_points"]])
        finally:
            fast_rng.stdlib_draws_stream_v1 = checked


def main(args=None) -> int:
    """Check the golden directory ``args[0]`` (default: tests/golden); return the exit status."""
    args = sys.argv[1:] if args is None else args
    golden = args[0] if args else os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "golden")
    print("python: %s %s on %s" % (sys.implementation.name, sys.version.split()[0], sys.platform))
    report = Report()
    for part in (check_stream, check_tally):
        try:
            part(golden, report)
        except Exception as exc:  # one line, and the other part still runs
            report.check("%s raised" % part.__name__, "%s: %s" % (type(exc).__name__, exc), "nothing")
    print("portable: %d passed, %d failed" % (report.passed, report.failed))
    return 1 if report.failed else 0


if __name__ == "__main__":
    checkout_py = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "py")
    if os.path.isdir(checkout_py):
        # run straight from a checkout: the package lives in py/ (scripts/pyodide.mjs puts its copy on the path)
        sys.path.insert(0, checkout_py)
    sys.exit(main())
