#!/usr/bin/env python3
"""How often the lab's verdicts raise a false alarm under a correct shuffle: measured, beside the stated bounds.

A *look* is one redraw of the verdict. The lab tallies in batches that start at one shuffle
and double while they are quick (``run_paced``, FIRST_BATCH = 1), and it can only look
between batches, so a look after every batch (1, 3, 7, …, 2^k − 1 shuffles) is the most
the lab's schedule can look while its batches are small: the schedule measured here. A
*watch* follows one tally from its first shuffle to 40·n shuffles; the looks that can say
anything are those from 5·n on (before, every cell does not yet expect 5). Each watch also
looks once at exactly 5·n shuffles, the smallest count at which a verdict is spoken.

For each configuration, a correct implementation is tallied with its own exact matrix, and
a look is a false alarm when a test that the truth cannot fail says "suspicious" or worse:

* against uniform and the fixed points, for an unbiased algorithm (a biased one fails
  them truly);
* against the exact matrix (the model test), always.

Every watch has its own tally seed, so the figures are the same on every run.

    .venv/bin/python scripts/false_alarms.py [--watches N] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from shufflelab.custom import CUSTOM_ID, register_custom  # noqa: E402
from shufflelab.exact.matrices import position_matrix, position_matrix_from_distribution  # noqa: E402
from shufflelab.exact.orders import outcome_distribution  # noqa: E402
from shufflelab.lab.sandbox import FIRST_BATCH  # noqa: E402
from shufflelab.stats.fixed_points import fixed_point_report  # noqa: E402
from shufflelab.stats.positions import position_report  # noqa: E402
from shufflelab.stats.verdicts import BIASED_P, LOOKS_PER_SESSION, SUSPICIOUS_P  # noqa: E402
from shufflelab.tally import Tally  # noqa: E402

FIGURES = ROOT / "docs" / "false_alarms.json"
WATCHES = 4000
FIRST_LOOK_CARDS_FACTOR = 5   # a verdict needs every cell to expect 5: 5·n shuffles
LAST_LOOK_CARDS_FACTOR = 40   # a watch ends at 40·n shuffles
ALARM_LEVELS = ("suspicious", "biased", "mismatch")
BIASED_LEVELS = ("biased", "mismatch")
TEST_NAMES = {"uniform": "against uniform", "model": "against the exact matrix", "fixed points": "fixed points"}

USERS_FISHER_YATES = """\
def shuffle(cards, rng):
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards
"""

# (label, catalog id or None for the user's code, cards, unbiased?)
CONFIGURATIONS = (
    ("Fisher–Yates, 52 cards", "fisher-yates", 52, True),
    ("naive-pairs, 12 cards", "naive-pairs", 12, False),
    ("swap-any, 10 cards", "swap-any", 10, False),
    ("your own Fisher–Yates, 6 cards", None, 6, True),
)


def lab_looks(n: int) -> list[int]:
    """Return the shuffle counts at which the lab's doubling batches end, from 5·n up to 40·n."""
    looks, done, batch = [], 0, FIRST_BATCH
    while done + batch <= LAST_LOOK_CARDS_FACTOR * n:
        done += batch
        batch *= 2
        if done >= FIRST_LOOK_CARDS_FACTOR * n:
            looks.append(done)
    return looks


def exact_matrix(algo: str | None, n: int) -> list[list[float]]:
    """Return the matrix the lab compares with: the catalog's, or the walk of the user's code, as floats."""
    if algo is None:
        return [[float(p) for p in row]
                for row in position_matrix_from_distribution(outcome_distribution(CUSTOM_ID, n), n)]
    return position_matrix(algo, n)


def alarms(counts, fixed_points, matrix, unbiased: bool) -> tuple[bool, bool, dict]:
    """Return (a false "suspicious" or worse, a false "biased", each test's level) of one look."""
    positions = position_report(counts, matrix)
    levels = {"model": positions["exact_verdict"]["level"]}
    if unbiased:
        levels["uniform"] = positions["verdict"]["level"]
        levels["fixed points"] = fixed_point_report(fixed_points)["verdict"]["level"]
    return (any(level in ALARM_LEVELS for level in levels.values()),
            any(level in BIASED_LEVELS for level in levels.values()), levels)


def difference(after, before):
    """Return the counts added since ``before`` (lists of lists, or lists)."""
    if after and isinstance(after[0], list):
        return [[a - b for a, b in zip(row_a, row_b)] for row_a, row_b in zip(after, before)]
    return [a - b for a, b in zip(after, before)]


def watch_configuration(index: int, watches: int) -> dict:
    """Return one configuration's false alarms over ``watches`` watches (its own seeds: the same on every run)."""
    label, algo, n, unbiased = CONFIGURATIONS[index]
    if algo is None:
        register_custom(USERS_FISHER_YATES)
    matrix = exact_matrix(algo, n)
    looks, first_look = lab_looks(n), FIRST_LOOK_CARDS_FACTOR * n
    tally = Tally(algo or CUSTOM_ID, n, None, f"false alarms v1: {label}")
    result = {"label": label, "cards": n, "unbiased": unbiased, "looks_per_watch": looks, "watches": watches,
              "looks": 0, "suspicious_looks": 0, "biased_looks": 0, "suspicious_watches": 0,
              "first_looks": 0, "suspicious_first_looks": 0, "by_test": {}}
    for _ in range(watches):
        # a look at exactly 5·n shuffles, on its own shuffles
        start_counts, start_fixed = [list(row) for row in tally.counts], list(tally.fixed_points)
        tally.run(first_look)
        alarm, _, levels = alarms(difference(tally.counts, start_counts),
                                  difference(tally.fixed_points, start_fixed), matrix, unbiased)
        result["first_looks"] += 1
        result["suspicious_first_looks"] += alarm
        for test, level in levels.items():
            key = f"{test} at 5n"
            result["by_test"][key] = result["by_test"].get(key, 0) + (level in ALARM_LEVELS)
        # a watch on the lab's schedule
        start_counts, start_fixed = [list(row) for row in tally.counts], list(tally.fixed_points)
        base, watched = tally.trials, False
        for look in looks:
            tally.run(base + look - tally.trials)
            alarm, biased, levels = alarms(difference(tally.counts, start_counts),
                                           difference(tally.fixed_points, start_fixed), matrix, unbiased)
            result["looks"] += 1
            result["suspicious_looks"] += alarm
            result["biased_looks"] += biased
            watched |= alarm
            for test, level in levels.items():
                result["by_test"][test] = result["by_test"].get(test, 0) + (level in ALARM_LEVELS)
        result["suspicious_watches"] += watched
    return result


def tests_of(result: dict) -> int:
    """Return how many tests can raise a false alarm in this configuration."""
    return 3 if result["unbiased"] else 1


def stated(result: dict) -> dict:
    """Return the rates the docs state for this configuration: the union bound over its tests."""
    tests = tests_of(result)
    return {"suspicious_per_look": tests * SUSPICIOUS_P, "biased_per_look": tests * BIASED_P,
            "biased_per_session": tests * BIASED_P * LOOKS_PER_SESSION}


def measure(watches: int) -> dict:
    """Return every configuration's measured false alarms and stated bounds (two processes, one per core)."""
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(watch_configuration, range(len(CONFIGURATIONS)), [watches] * len(CONFIGURATIONS)))
    for result in results:
        result["stated"] = stated(result)
        result["measured"] = {
            "suspicious_per_look": result["suspicious_looks"] / result["looks"],
            "suspicious_at_first_look": result["suspicious_first_looks"] / result["first_looks"],
            "suspicious_per_watch": result["suspicious_watches"] / result["watches"],
            "model_suspicious_per_look": result["by_test"]["model"] / result["looks"],
        }
    return {"watches": watches, "looks_per_session": LOOKS_PER_SESSION, "configurations": results}


def rate(value: float) -> str:
    """Return a rate as the docs write it: two significant figures (4.3e-4, not 4.3e-04), or 0."""
    return "0" if value == 0 else f"{value:.1e}".replace("e-0", "e-")


def print_figures(figures: dict) -> None:
    """Print the measured rates beside the stated ones, a line per configuration."""
    print(f"False alarms under a correct shuffle ({figures['watches']:,} watches each, looks from 5n to 40n)")
    header = ("configuration", "tests", "susp./look", "stated", "model/look", "at 5n", "susp./watch", "biased")
    print("  ".join(f"{h:>14}" for h in header))
    for result in figures["configurations"]:
        measured, bound = result["measured"], result["stated"]
        cells = (result["label"][:14], str(tests_of(result)), rate(measured["suspicious_per_look"]),
                 f"≤ {rate(bound['suspicious_per_look'])}", rate(measured["model_suspicious_per_look"]),
                 rate(measured["suspicious_at_first_look"]), rate(measured["suspicious_per_watch"]),
                 f"{result['biased_looks']}/{result['looks']}")
        print("  ".join(f"{cell:>14}" for cell in cells))


def readme_table(figures: dict) -> str:
    """Return the docs' table of false alarms: stated bounds beside what was measured, one row per configuration."""
    rows = ["| Correct shuffle | Tests | Looks | \"Suspicious\" per look: stated | measured | at 5n | per watch "
            "| \"Biased\" per look: stated | measured |",
            "|---|---|---|---|---|---|---|---|---|"]
    for result in figures["configurations"]:
        measured, bound = result["measured"], result["stated"]
        rows.append(f"| {result['label']} | {tests_of(result)} | {result['looks']:,} "
                    f"| ≤ {rate(bound['suspicious_per_look'])} | {rate(measured['suspicious_per_look'])} "
                    f"| {rate(measured['suspicious_at_first_look'])} | {rate(measured['suspicious_per_watch'])} "
                    f"| ≤ {rate(bound['biased_per_look'])} | {result['biased_looks']} in {result['looks']:,} |")
    return "\n".join(rows)


def readme_tests_table(figures: dict) -> str:
    """Return the docs' second table: each test's own rate of false "suspicious" (or worse), per look and at 5n."""
    rows = ["| Correct shuffle | Test | Per look | At 5n |", "|---|---|---|---|"]
    for result in figures["configurations"]:
        for test in ("uniform", "model", "fixed points"):
            if test in result["by_test"]:
                rows.append(f"| {result['label']} | {TEST_NAMES[test]} | {rate(result['by_test'][test] / result['looks'])} "
                            f"| {rate(result['by_test'][test + ' at 5n'] / result['first_looks'])} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Measure, print, and write the figures the docs state."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watches", type=int, default=WATCHES, help=f"watches per configuration (default {WATCHES})")
    parser.add_argument("--json", type=Path, default=None, help=f"write the figures here (the pinned file: {FIGURES})")
    parser.add_argument("--readme", action="store_true", help="also print the docs' table")
    args = parser.parse_args(argv)
    figures = measure(args.watches)
    print_figures(figures)
    if args.readme:
        print(readme_table(figures) + "\n\n" + readme_tests_table(figures))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

