"""The verdicts' false alarms under correct shuffles: the docs' pinned run beside a fresh, shorter one.

scripts/false_alarms.py measures them; docs/false_alarms.json is its pinned run, which
tests/unit/test_false_alarms.py checks the explanation page against.
"""

from __future__ import annotations

import json

import false_alarms  # scripts/false_alarms.py: bench/__init__.py puts scripts/ on the path


def false_alarm_section(quick: bool) -> dict:
    """Print the docs' pinned false-alarm figures, then the same measured again with fewer watches."""
    pinned = json.loads(false_alarms.FIGURES.read_text(encoding="utf-8"))
    print("\nThe docs' figures (docs/false_alarms.json, pinned by tests/unit/test_false_alarms.py):")
    false_alarms.print_figures(pinned)
    fresh = false_alarms.measure(100 if quick else 1000)
    print("\nMeasured again now, fewer watches (the same seeds, so the first watches repeat the pinned run's):")
    false_alarms.print_figures(fresh)
    return {"pinned": pinned, "fresh": fresh}
