"""Untrusted answers are bounded before trusted code parses them or computes on them (the five breaks of the
sandbox's second audit, the trusted side's half; tests/e2e/test_hostile_answers.py runs them on the page).

The limits are checked by counting (marks, levels, digit products), never by the clock.
"""

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflelab.errors import ShuffleLabError
from shufflelab.lab.bounded import ArithmeticBudget, check_json_before_parsing, common_denominator, digits
from shufflelab.lab.sandbox import (
    MAX_ANSWER_DEPTH,
    MAX_PROBABILITY_DIGITS,
    MAX_WALK_DIGIT_PRODUCTS,
    read_answer,
    read_distribution,
)

SIX = list(itertools.permutations(range(6)))


def depth(value) -> int:
    """How deep a JSON value nests: 0 for a scalar, 1 for [] or {}."""
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    return 0


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab', max_size=6),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text('[{"\\', max_size=3), inner,
                                                                                  max_size=3),
                    max_leaves=20))
def test_the_scan_passes_exactly_the_json_nested_at_most_its_depth(value):
    text = json.dumps(value)  # brackets, quotes and backslashes inside strings are not nesting
    if depth(value) <= 4:
        check_json_before_parsing(text, 4, 1000)
    else:
        with pytest.raises(ShuffleLabError, match="nested deeper than 4 levels"):
            check_json_before_parsing(text, 4, 1000)


@pytest.mark.parametrize("text, message", [
    ('{"ok": true, "data": {"counts": ' + "[" * 100_000 + "]" * 100_000 + "}}", "more than 10,000 brackets"),
    ('{"ok": true, "data": {"counts": ' + "[" * 9_000 + "]" * 9_000 + "}}", "nested deeper than 5 levels"),
    ("[" * 6 + "]" * 6, "nested deeper than 5 levels"),
    ("[{]}", "brackets do not match"),
    ('["open]', "not closed"),
    ('"' + '\\"' * 100, "not closed"),
    ('""' * 6_000, "more than 10,000 quotes"),
    ('"' + "\\\\" * 6_000 + '"', "more than 10,000 backslashes"),
], ids=["100,000 deep", "9,000 deep", "6 deep", "crossed", "unclosed", "escaped close", "quotes", "backslashes"])
def test_deep_or_flooded_json_is_refused_before_it_is_parsed(text, message):
    with pytest.raises(ShuffleLabError, match=message):
        check_json_before_parsing(text, MAX_ANSWER_DEPTH, 10_000)
    with pytest.raises(ShuffleLabError):
        read_answer(text)


def test_the_deepest_real_answers_pass():
    walk = {"ok": True, "data": {"orders": [[list(o), "1/720"] for o in SIX], "seconds": 0.5}}
    counts = {"ok": True, "data": {"n": 128, "trials": 0, "counts": [0] * 128 ** 2, "fixed_points": [0] * 129}}
    error = {"ok": False, "error": 'line 3: "return cards[:-1" – SyntaxError: \'[\' was never closed' + "\u00e9" * 300}
    assert len(read_answer(json.dumps(walk))["orders"]) == 720
    assert len(read_answer(json.dumps(counts))["counts"]) == 128 ** 2
    with pytest.raises(ShuffleLabError, match="never closed"):
        read_answer(json.dumps(error))


def test_a_forged_error_line_is_made_printable():
    """Break 5: control and bidirectional characters of an error line show as U+FFFD."""
    forged = "ZQX \u202egnol\u2066x\u2069 \x07\x1b[31mred\u2028next"
    with pytest.raises(ShuffleLabError) as raised:
        read_answer(json.dumps({"ok": False, "error": forged}))
    assert str(raised.value) == "ZQX \ufffdgnol\ufffdx\ufffd \ufffd\ufffd[31mred next"


def test_digits_bound_the_decimal_length_from_above_without_text():
    for value in (0, 1, 9, 10, 99, 100, 2**64, 10**999, 10**1000 - 1):
        assert len(str(value)) <= digits(value) <= len(str(value)) + 1


def test_the_budget_counts_digit_products_and_refuses_before_the_step_past_it():
    budget = ArithmeticBudget(100, "these numbers")
    budget.charge(10**9, 10**9)  # 10 digits by 10 (upper bounds): 100
    assert budget.spent == 100
    with pytest.raises(ShuffleLabError, match="these numbers take more arithmetic than the lab allows"):
        budget.charge(1, 1)


def test_unrelated_denominators_are_refused_after_at_most_two_steps():
    """Break 4's walk, at the digit limit: the common denominator passes the limit at the second denominator, so the
    work done is two steps, not 720 additions of ever longer fractions."""
    budget = ArithmeticBudget(MAX_WALK_DIGIT_PRODUCTS, "a walk's probabilities")
    unrelated = [10 ** (MAX_PROBABILITY_DIGITS - 1) + 2 * k + 1 for k in range(720)]
    with pytest.raises(ShuffleLabError, match="no common denominator of at most 1,000 digits"):
        common_denominator(unrelated, MAX_PROBABILITY_DIGITS, budget, "a walk's probabilities")
    assert budget.spent <= 2 * (MAX_PROBABILITY_DIGITS + 1) ** 2


def test_break_4_the_2000_digit_walk_is_refused_in_one_line():
    orders = [[list(order), "1/%d" % (10**1999 + 2 * k + 1)] for k, order in enumerate(SIX)]
    with pytest.raises(ShuffleLabError, match="each of at most 1,000 digits"):
        read_distribution({"orders": orders}, 6)


def test_a_walk_at_the_digit_limit_is_read_within_the_budget():
    """The most a walk may need: 720 orders over one 1,000-digit denominator, which the budget allows."""
    common = 10 ** (MAX_PROBABILITY_DIGITS - 1) + 1
    share = common // 720
    numerators = [share] * 719 + [common - 719 * share]
    orders = [[list(order), "%d/%d" % (p, common)] for order, p in zip(SIX, numerators)]
    distribution = read_distribution({"orders": orders}, 6)
    assert sum(distribution.values()) == 1
