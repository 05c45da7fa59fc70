"""Verdicts: the thresholds, and the false-alarm bound they keep over hours of re-testing."""

import math

import pytest

from shufflelab.stats import verdicts
from shufflelab.stats.verdicts import BIASED_P, LOOKS_PER_SESSION, format_p, verdict


@pytest.mark.parametrize("p, level", [(1e-12, "biased"), (9.9e-10, "biased"), (1e-9, "suspicious"),
                                      (5e-4, "suspicious"), (1e-3, "no-bias"), (0.4, "no-bias")])
def test_verdict_levels(p, level):
    assert verdict(p, 1000, 100).level == level


def test_hours_of_redraws_keep_the_union_bound_on_false_alarms_below_1_2e_4():
    # with no bias a p-value is uniform, so one look says "biased" with probability equal to
    # the largest p-value verdict() calls biased: BIASED_P, and no more
    assert verdict(math.nextafter(BIASED_P, 0), 1000, 100).level == "biased"
    assert verdict(BIASED_P, 1000, 100).level != "biased"
    # the docstring's session: 4 redraws a second for 8 hours, each one a look
    assert LOOKS_PER_SESSION == 4 * 60 * 60 * 8 == 115_200
    assert f"({LOOKS_PER_SESSION:,} looks)" in verdicts.__doc__
    union_bound = LOOKS_PER_SESSION * BIASED_P  # P(any false alarm) <= sum over the looks
    assert union_bound < 1.2e-4
    assert "below 1.2e-4" in " ".join(verdicts.__doc__.split())


def test_p_values_are_shown_exactly_or_by_their_power_of_ten_once_they_underflow():
    assert format_p(0.01234) == "= 0.0123"
    assert format_p(0.0, -412.3) == "≈ 1e-413"
    assert format_p(0.0, -math.inf) == format_p(0.0) == "= 0 (impossible under the model)"
