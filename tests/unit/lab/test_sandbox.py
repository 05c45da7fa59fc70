"""The sandbox's service answers data only, and trusted code accepts an answer only when it is consistent.

Whatever code in the sandbox posts (a forged answer, counts that do not add up, a flood of
text, markup), ``read_answer``, ``read_counts`` and ``read_distribution`` either return
checked data or raise ShuffleLabError with one line: trusted code never crashes on it.
"""

import json
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflelab.errors import ShuffleLabError
from shufflelab.lab import protocol, service
from shufflelab.lab.protocol import Snapshot, TallyConfig
from shufflelab.lab.sandbox import (
    MAX_ANSWER_CHARACTERS,
    SandboxService,
    read_answer,
    read_counts,
    read_distribution,
    read_progress,
)

FISHER_YATES = """def shuffle(cards, rng):
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards
"""


def call(sandbox, method, *args) -> str:
    return sandbox.handle(method, json.dumps(args))


def counted(n=4, trials=None) -> dict:
    """A real run_for answer's data from the sandbox."""
    sandbox = SandboxService()
    call(sandbox, "compile", FISHER_YATES)
    call(sandbox, "configure", n, "test")
    while True:  # a busy machine may need more than one chunk to reach the count
        data = read_answer(call(sandbox, "run_for", 30, trials))
        if trials is None or data["trials"] >= trials:
            return data


def test_the_sandbox_answers_json_data_and_one_line_errors():
    sandbox = SandboxService()
    assert json.loads(call(sandbox, "run_for", 10)) == {"ok": False, "error": "the sandbox has no tally yet: configure one first"}
    assert json.loads(call(sandbox, "nothing")) == {"ok": False, "error": "the sandbox has no method 'nothing'"}
    assert json.loads(call(sandbox, "compile", FISHER_YATES)) == {"ok": True, "data": {}}
    call(sandbox, "configure", 5, "seed")
    data = read_answer(call(sandbox, "run_for", 30, 100))
    while data["trials"] < 100:  # chunks of about 30 ms, as many as this machine needs
        data = read_answer(call(sandbox, "run_for", 30, 100))
    assert data["trials"] == 100 and len(data["counts"]) == 25 and sum(data["fixed_points"]) == 100


def test_counts_that_add_up_are_adopted_as_they_are():
    data = counted(5, 256)
    trials, counts, fixed, seconds = read_counts(data, 5)
    assert trials == 256 and [c for row in counts for c in row] == data["counts"] and fixed == data["fixed_points"]


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(trials=d["trials"] + 1), "does not add up"),
    (lambda d: d.update(n=5), "n must be"),
    (lambda d: d["counts"].__setitem__(0, d["counts"][0] + 1), "does not add up"),
    (lambda d: d["counts"].__setitem__(0, True), "a count must be"),
    (lambda d: d["counts"].__setitem__(0, -1), "a count must be"),
    (lambda d: d["counts"].__setitem__(0, 1.5), "a count must be"),
    (lambda d: d["counts"].pop(), "must be 16 whole numbers"),
    (lambda d: d.update(fixed_points=d["fixed_points"][::-1]), "fixed points do not agree"),
    (lambda d: d.update(busy_seconds="soon"), "busy_seconds"),
    (lambda d: d.update(trials=10**20), "trials must be"),
], ids=["trials", "n", "a row", "a bool", "negative", "a float", "short", "fixed points", "seconds", "huge"])
def test_counts_that_do_not_add_up_are_refused_with_one_line(change, message):
    data = counted(4, 128)
    change(data)
    with pytest.raises(ShuffleLabError, match=message):
        read_counts(data, 4)


@settings(max_examples=60, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
                    max_leaves=30))
def test_any_forged_answer_is_read_or_refused_never_a_crash(forged):
    text = json.dumps({"ok": True, "data": forged}) if not isinstance(forged, dict) else json.dumps(
        {"ok": True, "data": {"n": 3, "trials": 0, "counts": forged, "fixed_points": forged, "orders": forged}})
    for reader in (lambda d: read_counts(d, 3), lambda d: read_distribution(d, 3), read_progress):
        try:
            reader(read_answer(text))
        except ShuffleLabError:
            pass


def test_answers_that_are_not_an_answer_are_refused():
    for text in (None, 5, "not json", "[]", '{"ok": "yes"}', '{"ok": false}', '{"ok": true}',
                 "x" * (MAX_ANSWER_CHARACTERS + 1)):
        with pytest.raises(ShuffleLabError):
            read_answer(text)
    with pytest.raises(ShuffleLabError, match="^<b>markup</b> is text here$"):  # said as a line, drawn as text
        read_answer(json.dumps({"ok": False, "error": "<b>markup</b>\n is   text here"}))


def test_a_walk_is_adopted_only_when_it_is_a_distribution_over_orders():
    uniform = [[list(order), "1/6"] for order in ([0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0])]
    assert sum(read_distribution({"orders": uniform}, 3).values()) == 1
    for orders, message in (
        (uniform[:5], "add up to 1"),
        (uniform[:5] + [[[0, 1, 2], "1/6"]], "same order twice"),
        ([[[0, 0, 2], "1"]], "not an order"),
        ([[[0, 1, 2], "1/0"]], "in \\(0, 1\\]"),
        ([[[0, 1, 2], "-1/1"]], "written p/q"),
        ([[[0, 1, 2], "1" * 3000 + "/1"]], "written p/q"),
        (uniform * 2, "1 to 6 orders"),
    ):
        with pytest.raises(ShuffleLabError, match=message):
            read_distribution({"orders": orders}, 3)
    assert read_progress({"progress": 0.5, "seconds": 1}) == (0.5, 1.0)
    with pytest.raises(ShuffleLabError):
        read_progress({"progress": 2, "seconds": 1})


def test_forged_counts_of_the_users_shuffle_change_nothing_the_lab_says_of_a_built_in():
    lab = service.LabService()
    protocol.read(lab.configure(protocol.request(TallyConfig("swap-any", [], 8, "s", "b"))), protocol.ExactStatus)
    before = protocol.read(lab.run_for(200, "observed", "b", 2000), Snapshot)
    while before.trials < 2000:  # a count, not a time: the same verdict on any machine
        before = protocol.read(lab.run_for(200, "observed", "b", 2000), Snapshot)
    protocol.read(lab.configure(protocol.request(TallyConfig("custom", [], 8, "s", "a"))), protocol.ExactStatus)
    forged = json.dumps({"ok": True, "data": {"n": 8, "trials": 8, "counts": [1] * 64, "fixed_points": [0] * 9,
                                              "busy_seconds": 0.1}})
    assert not json.loads(lab.adopt_counts(forged, "observed", "a")[0])["ok"]  # fixed points disagree: refused
    after = protocol.read(lab.snapshot("observed", "b"), Snapshot)
    assert (after.trials, after.summary) == (before.trials, before.summary)
    assert before.summary["verdict"] == "biased"


def test_a_walk_of_a_small_deck_covers_every_order_of_fisher_yates():
    sandbox = SandboxService()
    call(sandbox, "compile", FISHER_YATES)
    call(sandbox, "configure", 5, None)
    while "orders" not in (data := read_answer(call(sandbox, "walk_step", 100))):
        pass
    distribution = read_distribution(data, 5)
    assert len(distribution) == math.factorial(5) and set(distribution.values()) == {Fraction(1, math.factorial(5))}


@pytest.mark.parametrize("seconds", ["soon", None, [1], float("nan"), True], ids=["text", "none", "list", "nan", "bool"])
def test_a_finished_walk_with_forged_seconds_is_refused_in_one_line_not_a_crash(seconds):
    lab = service.LabService()
    protocol.read(lab.configure(protocol.request(TallyConfig("custom", [], 2, None, "a"))), protocol.ExactStatus)
    walk = json.dumps({"ok": True, "data": {"orders": [[[0, 1], "1/2"], [[1, 0], "1/2"]], "seconds": seconds}})
    status = protocol.read(lab.adopt_walk(walk), protocol.ExactStatus)
    assert not status.available and status.reason == "seconds must be a number of seconds"
