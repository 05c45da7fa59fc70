"""Append seeded-tally vectors to tally_v1.json for cases it does not hold yet; never rewrite one.

A lab link carries its tally seed (``tseed``), so a seeded tally is a promise too: the
same seed, algorithm, parameters and deck size count the same shuffles forever under
tally stream v1. What decides the counts (the Mersenne Twister words, the kernels' block
size and draw order, the deck makers) is frozen by these vectors; a change to any of it
needs a new tally stream version, never a rewritten vector.

Usage: PYTHONPATH=py python tests/golden/make_tally_vectors.py [--check]
(--check: exit 1 if any case is missing, write nothing)
"""

import json
import sys
from pathlib import Path

from shufflelab import catalog
from shufflelab.tally import Tally

PATH = Path(__file__).with_name("tally_v1.json")
SEED = "tally golden ♠"
CASES = ((5, 300), (9, 700))  # (cards, shuffles): small enough to keep the file readable
# fewer passes than the defaults: cheaper, and more biased; a parameter added later takes its entry's test value
LARGE_PARAMS = {"passes": 3, "repetitions": 40, "overhands": 20, "shelves": 10, "rounds": 1}


def tally_value(entry, param) -> int:
    """Return the value a parameter's tally vectors use: as first chosen, else the entry's test_params value."""
    return LARGE_PARAMS[param.name] if param.name in LARGE_PARAMS else entry.test_params[param.name]


def tally_cases():
    """Yield (algo, params, n, trials) for every vector the file should hold."""
    for entry in catalog.entries():
        if not entry.builtin:
            continue
        params = {p.name: tally_value(entry, p) for p in entry.params}
        for n, trials in CASES:
            yield entry.id, params, n, trials


def case_key(algo: str, params: dict, n: int, trials: int) -> str:
    """Return the case's key in the file: everything that decides its counts."""
    shown = ",".join("%s=%d" % item for item in sorted(params.items()))
    return "%s[%s] n=%d trials=%d" % (algo, shown, n, trials)


def vector(algo: str, params: dict, n: int, trials: int) -> dict:
    """Return the seeded tally's counts and fixed points, counted in two uneven runs."""
    tally = Tally(algo, n, params, SEED)
    tally.run(trials // 3)
    tally.run(trials - trials // 3)
    return {"algo": algo, "params": params, "n": n, "trials": trials, "seed": SEED,
            "counts": tally.counts, "fixed_points": tally.fixed_points}


def main(argv: list[str]) -> int:
    """Add missing cases (or, with --check, report them); return the exit status."""
    held = json.loads(PATH.read_text("utf-8")) if PATH.exists() else {}
    missing = [case for case in tally_cases() if case_key(*case) not in held]
    if "--check" in argv:
        for case in missing:
            print("missing:", case_key(*case))
        return 1 if missing else 0
    for case in missing:
        held[case_key(*case)] = vector(*case)
    PATH.write_text(json.dumps(held, ensure_ascii=False, indent=1) + "\n", "utf-8")
    print("tally_v1.json: %d cases, %d added" % (len(held), len(missing)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
