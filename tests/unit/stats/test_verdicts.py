"""Verdicts: the thresholds, and the false-alarm bound they keep over hours of re-testing."""

import math
import re
from pathlib import Path

import pytest

from shufflelab.stats import verdicts
from shufflelab.stats.verdicts import (
    BIASED_P,
    LOOKS_PER_SECOND,
    LOOKS_PER_SESSION,
    SUSPICIOUS_P,
    TESTS,
    format_p,
    verdict,
)


@pytest.mark.parametrize("p, level", [(1e-12, "biased"), (9.9e-10, "biased"), (1e-9, "suspicious"),
                                      (5e-4, "suspicious"), (1e-3, "no-bias"), (0.4, "no-bias")])
def test_verdict_levels(p, level):
    assert verdict(p, 1000, 100).level == level


def test_hours_of_redraws_keep_the_union_bound_on_false_alarms_as_the_docstring_says():
    # with no bias a valid p-value is at least uniform, so one look of one test says "biased" with
    # probability at most the largest p-value verdict() calls biased: BIASED_P, and no more
    assert verdict(math.nextafter(BIASED_P, 0), 1000, 100).level == "biased"
    assert verdict(BIASED_P, 1000, 100).level != "biased"
    doc = " ".join(verdicts.__doc__.split())
    assert LOOKS_PER_SESSION == 5 * 60 * 60 * 8 == 144_000
    assert f"({LOOKS_PER_SESSION:,} looks)" in doc
    per_look, per_watch = TESTS * BIASED_P, TESTS * BIASED_P * LOOKS_PER_SESSION
    assert f"with chance at most {_written(per_look)}" in doc
    assert f"at most {_written(per_watch, 2)}" in doc
    assert f'"suspicious" at most {_written(TESTS * SUSPICIOUS_P)} per look' in doc


def _written(value: float, digits: int = 1) -> str:
    """Return a figure as the docs write it: 4.3e-4, not 4.3e-04."""
    return f"{value:.{digits - 1}e}".replace("e-0", "e-")


def test_the_session_looks_as_often_as_the_page_redraws():
    page = (Path(__file__).parents[3] / "py" / "page" / "lab_view.py").read_text()
    chunk_ms = int(re.search(r"^CHUNK_MS = (\d+)", page, re.M).group(1))
    assert LOOKS_PER_SECOND == 1000 // chunk_ms


def test_p_values_are_shown_exactly_or_by_their_power_of_ten_once_they_underflow():
    assert format_p(0.01234) == "= 0.0123"
    assert format_p(0.0, -412.3) == "≈ 1e-413"
    assert format_p(0.0, -math.inf) == format_p(0.0) == "= 0 (impossible under the model)"
