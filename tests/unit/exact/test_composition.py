"""Composition: independent passes compose as a random walk on orders, and say when that costs too much."""

import pytest

from shufflelab.cli import main
from shufflelab.exact import composition
from shufflelab.exact.composition import as_fractions, as_int_dist, then
from shufflelab.exact.errors import ExactTooCostly
from shufflelab.exact.orders import outcome_distribution


def test_passes_compose_as_independent_random_permutations():
    one = outcome_distribution("riffle-gsr", 4, {"passes": 1})
    two = outcome_distribution("riffle-gsr", 4, {"passes": 2})
    expected: dict = {}
    for first, p in one.items():
        for second, q in one.items():
            order = tuple(first[second[j]] for j in range(4))
            expected[order] = expected.get(order, 0) + p * q
    assert two == expected
    assert as_fractions(then(as_int_dist(one), as_int_dist(one))) == expected


def test_too_costly_compositions_say_how_far_they_can_go():
    with pytest.raises(ExactTooCostly, match=r"limited to \d+ repetitions"):
        outcome_distribution("cut-insert", 7)


@pytest.mark.parametrize("what", ["passes", "repetitions", "rounds", "overhands"])
def test_a_limit_of_one_names_the_unit_in_the_singular_whatever_it_is(what, monkeypatch):
    monkeypatch.setattr(composition, "MAX_COMPOSE_WORK", 1)  # so that only one pass fits
    one_pass = as_int_dist(outcome_distribution("riffle-gsr", 4, {"passes": 1}))
    singular = {"passes": "pass", "repetitions": "repetition", "rounds": "round", "overhands": "overhand"}[what]
    with pytest.raises(ExactTooCostly, match=f"limited to 1 {singular} here"):
        composition.repeat_passes(one_pass, 2, 4, "riffle-gsr", what)


def test_the_shelf_shuffler_past_its_exact_reach_is_one_line_not_a_traceback(capsys):
    assert main(["exact", "--algo", "shelf-shuffler", "--cards", "7", "--shelves", "3", "--rounds", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "limited to 1 round here" in err and "Traceback" not in err
