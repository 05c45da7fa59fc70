#!/usr/bin/env python3
"""How long trusted code takes to read, or refuse, what a hostile sandbox answers (prints figures, decides nothing).

Each case is an answer text as the built-ins' worker receives it: read_answer, then read_counts or read_distribution
(and, for a walk that is accepted, the exact distance and matrix the lab then draws from it), as the service does.
Every figure is the median of --repeats runs. Run it in CPython, and in Pyodide (the worker's own interpreter):

    .venv/bin/python scripts/bench/answers.py
    node scripts/pyodide.mjs scripts/bench/answers.py

It stands alone, apart from the suite's runner: Pyodide in Node has shufflelab but not the bench package.
"""

import itertools
import json
import statistics
import sys
import time
from pathlib import Path

# CPython: the repository's py/; under Pyodide (__file__ is /main/answers.py) shufflelab is already on the path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "py"))

from shufflelab.errors import ShuffleLabError  # noqa: E402
from shufflelab.exact.matrices import position_matrix_from_distribution  # noqa: E402
from shufflelab.exact.orders import total_variation_to_uniform  # noqa: E402
from shufflelab.lab.sandbox import MAX_PROBABILITY_DIGITS, read_answer, read_counts, read_distribution  # noqa: E402

SIX = list(itertools.permutations(range(6)))


def answer(data: dict) -> str:
    """Return a sandbox's answer text carrying ``data``, as the built-ins' worker receives it."""
    return json.dumps({"ok": True, "data": data})


def walk(probabilities: list) -> str:
    """Return an answer giving a walk's distribution over the orders of 6 cards, one probability each."""
    return answer({"orders": [[list(order), p] for order, p in zip(SIX, probabilities)], "seconds": 0.1})


def at_the_limit() -> list:
    """720 probabilities over one common denominator of MAX_PROBABILITY_DIGITS digits: the most a walk may need."""
    common = 10 ** (MAX_PROBABILITY_DIGITS - 1) + 1
    share = common // 720
    return ["%d/%d" % (p, common) for p in [share] * 719 + [common - 719 * share]]


CASES = {
    "depth: counts nested 100,000 deep (200 kB)": (
        '{"ok": true, "data": {"counts": ' + "[" * 100_000 + "]" * 100_000 + "}}", 8),
    "depth: counts nested 9,000 deep": ('{"ok": true, "data": {"counts": ' + "[" * 9_000 + "]" * 9_000 + "}}", 8),
    "size: 3,998,000 characters of counts (1,999,000 numbers)": (
        '{"ok": true, "data": {"n": 8, "counts": [' + "0," * 1_998_980 + "0]}}", 8),
    "digits: 720 unrelated 2,000-digit denominators (break 4)": (
        walk(["1/%d" % (10**1999 + 2 * k + 1) for k in range(720)]), 6),
    "digits: 720 unrelated 1,000-digit denominators": (walk(["1/%d" % (10**999 + 2 * k + 1) for k in range(720)]), 6),
    "accepted: 720 orders over one 1,000-digit denominator, drawn": (walk(at_the_limit()), 6),
}


def read(text: str, n: int) -> str:
    """Read an answer as the lab's service does; return what came of it in a few words."""
    try:
        data = read_answer(text)
        if "orders" in data:
            distribution = read_distribution(data, n)
            total_variation_to_uniform(distribution, n)
            [[float(p) for p in row] for row in position_matrix_from_distribution(distribution, n)]
            return "accepted"
        read_counts(data, n)
        return "accepted"
    except ShuffleLabError as error:
        return "refused: " + str(error)[:90]


def main() -> None:
    """Print, for each case, the median time to read it and what came of it."""
    repeats = int(sys.argv[sys.argv.index("--repeats") + 1]) if "--repeats" in sys.argv else 5
    print(f"{sys.implementation.name} {sys.version.split()[0]} on {sys.platform}, medians of {repeats}")
    for name, (text, n) in CASES.items():
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            outcome = read(text, n)
            times.append(time.perf_counter() - started)
        print(f"  {name}: {statistics.median(times) * 1000:,.1f} ms ({outcome})")


if __name__ == "__main__":
    main()
