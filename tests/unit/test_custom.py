"""Users' own shuffles: compiled from source, every result checked, one line per mistake, in the catalog like a built-in."""

import json
import signal
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflelab import catalog, custom
from shufflelab.custom import (
    CUSTOM_ID,
    CustomCodeError,
    CustomShuffle,
    TimeLimitExceeded,
    compile_shuffle,
    custom_entry,
    register_custom,
    time_limit,
)
from shufflelab.errors import ShuffleLabError
from shufflelab.exact import exact_report, outcome_distribution, position_matrix
from shufflelab.exact.errors import ExactTooCostly, NotEnumerable
from shufflelab.lab.sandbox import SandboxService
from shufflelab.rng import StreamRng
from shufflelab.tally import Tally

from .scripted import ScriptedRng

FISHER_YATES = """\
def shuffle(cards, rng):
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards
"""
SWAP_ANY = """\
def shuffle(cards, rng):
    n = len(cards)
    for i in range(n - 1, -1, -1):
        j = rng.below(n)
        cards[i], cards[j] = cards[j], cards[i]
    return cards
"""
STACK = """\
def shuffle(cards, rng):
    for count in range(len(cards), 0, -1):
        cards.append(cards.pop(rng.below(count)))
    return cards
"""


pytestmark = pytest.mark.usefixtures("only_built_ins_afterwards")  # tests/unit/conftest.py


# --- the exact walk of user code equals the built-ins' ------------------------------------------------

MERGE_SORT = """\
def shuffle(cards, rng):
    if len(cards) <= 1:
        return cards
    middle = len(cards) // 2
    left = shuffle(cards[:middle], rng)
    right = shuffle(cards[middle:], rng)
    merged = []
    while left and right:
        merged.append(right.pop(0) if rng.below(2) else left.pop(0))
    return merged + left + right
"""


@pytest.mark.parametrize("source, built_in", [(FISHER_YATES, "fisher-yates"), (SWAP_ANY, "swap-any"),
                                              (MERGE_SORT, "random-comparator")],
                         ids=["fisher-yates", "swap-any", "random-comparator"])
def test_user_code_walks_to_the_built_ins_exact_distribution(source, built_in):
    register_custom(source)
    for n in range(0, 6):
        assert outcome_distribution(CUSTOM_ID, n) == outcome_distribution(built_in, n), n


def test_one_walk_gives_orders_matrix_and_distance_as_the_built_in_does():
    register_custom(SWAP_ANY)
    mine, theirs = exact_report(CUSTOM_ID, 4, matrix=True), exact_report("swap-any", 4, matrix=True)
    assert mine["algorithm"] == "custom" and mine["method"] == "your code, every path of its below() answers walked"
    for key in ("orders", "reachable", "total_orders", "total_variation", "matrix"):
        assert mine[key] == theirs[key], key
    assert "matrix" not in exact_report("swap-any", 4)  # the CLI's shape stays as it was
    exact = position_matrix("swap-any", 4, exact=True)
    assert mine["matrix"] == [[f"{p.numerator}/{p.denominator}" for p in row] for row in exact]


def test_the_entry_is_complete_its_verdict_unknown_its_matrix_walked():
    entry = register_custom(SWAP_ANY)
    entry.check_complete()
    assert catalog.get(CUSTOM_ID) is entry and not entry.builtin and not entry.biased
    assert entry.verdict == catalog.UNKNOWN and entry.orders == catalog.ENUMERATE
    assert position_matrix(CUSTOM_ID, 3, exact=True) == position_matrix("swap-any", 3, exact=True)
    floats = position_matrix(CUSTOM_ID, 3)
    assert floats[0][0] == pytest.approx(1 / 3) and isinstance(floats[0][0], float)
    with pytest.raises(ExactTooCostly, match="needs 0 to 6 cards, not 52"):
        position_matrix(CUSTOM_ID, 52)


def test_registering_again_replaces_the_users_shuffle_and_bad_code_keeps_the_old_one():
    register_custom(SWAP_ANY)
    replacement = register_custom(FISHER_YATES)
    assert catalog.get(CUSTOM_ID) is replacement and catalog.ids().count(CUSTOM_ID) == 1
    with pytest.raises(CustomCodeError):
        register_custom("def shuffle(cards, rng):\n    return (\n")
    assert catalog.get(CUSTOM_ID) is replacement
    with pytest.raises(ShuffleLabError, match="'fisher-yates' is built in"):
        register_custom(FISHER_YATES, algorithm_id="fisher-yates")
    assert catalog.get("fisher-yates").builtin


def test_a_second_users_shuffle_can_sit_beside_the_first():
    register_custom(SWAP_ANY)
    other = catalog.register(custom_entry(compile_shuffle(STACK, "stack.py"), "custom-2"))
    assert catalog.ids()[-2:] == ("custom", "custom-2") and other.source == "your code (stack.py)"


def test_random_is_refused_by_the_walk_and_fine_in_the_tally():
    source = "def shuffle(cards, rng):\n    return sorted(cards, key=lambda card: rng.random())\n"
    register_custom(source)
    with pytest.raises(NotEnumerable, match=r"custom calls rng\.random\(\)"):
        outcome_distribution(CUSTOM_ID, 3)
    tally = Tally(CUSTOM_ID, 5, seed="floats")
    tally.run(500)
    assert [sum(row) for row in tally.counts] == [500] * 5


# --- the tally's generic path -----------------------------------------------------------------------


def test_the_tally_counts_user_code_draw_for_draw_as_the_built_in_port():
    # stack has no kernel: both run once per deck on the same seeded source
    register_custom(STACK)
    mine, theirs = Tally(CUSTOM_ID, 7, seed="same"), Tally("stack", 7, seed="same")
    for batch in (1, 100, 399):
        mine.run(batch)
        theirs.run(batch)
    assert mine.snapshot()["counts"] == theirs.snapshot()["counts"]
    assert mine.fixed_points == theirs.fixed_points and mine.trials == 500


def test_the_sandbox_tallies_user_code_with_its_walked_matrix_and_says_its_mistakes():
    sandbox = SandboxService()

    def call(method, *args):
        return json.loads(sandbox.handle(method, json.dumps(args)))

    assert call("compile", FISHER_YATES) == {"ok": True, "data": {}}
    call("configure", 4, "lab")
    while "orders" not in (step := call("walk_step", 200)["data"]):
        assert 0 <= step["progress"] <= 1
    assert sorted(p for _, p in step["orders"]) == ["1/24"] * 24  # Fisher-Yates: every order once
    assert call("run_for", 50)["data"]["trials"] > 0
    call("configure", 52, "lab")
    assert not call("walk_step", 200)["ok"]  # no walk of 52 cards
    assert call("run_for", 50)["data"]["trials"] > 0  # the tally runs all the same
    call("compile", "def shuffle(cards, rng):\n    return cards[1:]\n")
    call("configure", 4, "lab")
    assert call("run_for", 50) == {"ok": False, "error": "shuffle(cards, rng) returned 3 cards for a deck of 4"}


# --- one line for each mistake, quoting the line at fault ---------------------------------------------


@pytest.mark.parametrize("source, message", [
    ("def shuffle(cards, rng):\n    n = len(cards)\n    return cards[:-1\n",
     "line 3: \"return cards[:-1\" – SyntaxError: '[' was never closed"),
    ("def shuffle(cards, rng):\nreturn cards\n",
     'line 2: "return cards" – IndentationError: expected an indented block after function definition on line 1'),
    ("def shuffel(cards, rng):\n    return cards\n", "no function named shuffle(cards, rng) is defined"),
    ("shuffle = 3\n", "shuffle is an int, not a function shuffle(cards, rng)"),
    ("def shuffle(cards):\n    return cards\n",
     'line 1: "def shuffle(cards):" – shuffle must take two arguments, shuffle(cards, rng), not shuffle(cards)'),
    ("import numpy_is_not_here\n",
     "line 1: \"import numpy_is_not_here\" – ModuleNotFoundError: No module named 'numpy_is_not_here'"),
    ("x = 1\n\r\ny = 1 / 0\n", 'line 3: "y = 1 / 0" – ZeroDivisionError: division by zero'),
    ("x = '\u2028'\x0c\ny = 1 / 0\n", 'line 2: "y = 1 / 0" – ZeroDivisionError: division by zero'),
], ids=["syntax", "indentation", "missing", "not-callable", "one-argument", "import", "top-level", "line-ends"])
def test_code_that_cannot_give_a_shuffle_is_one_line_quoting_its_line(source, message):
    with pytest.raises(CustomCodeError) as refused:
        compile_shuffle(source)
    assert str(refused.value) == message


@pytest.mark.parametrize("source, line", [
    ("import random\ndef shuffle(cards, rng):\n    random.shuffle(cards)\n    return cards\n", 'line 1: "import random"'),
    ("def shuffle(cards, rng):\n    from secrets import randbelow\n    return cards\n",
     'line 2: "from secrets import randbelow"'),
    ("import os.path\ndef shuffle(cards, rng):\n    return cards\n", 'line 1: "import os.path"'),
    ("import math, numpy as np\ndef shuffle(cards, rng):\n    return cards\n", 'line 1: "import math, numpy as np"'),
], ids=["random", "secrets", "os", "numpy"])
def test_code_that_imports_another_source_of_randomness_is_told_the_rule_in_one_line(source, line):
    with pytest.raises(CustomCodeError) as refused:
        compile_shuffle(source)
    said = str(refused.value)
    assert said.startswith(line + " – import ") and "draw from rng instead" in said and "\n" not in said


def test_a_shuffle_that_never_draws_from_rng_is_known_as_such():
    still = compile_shuffle("import math\ndef shuffle(cards, rng):\n    return cards[::-1]\n")
    assert still(list(range(5)), StreamRng("x")) == [4, 3, 2, 1, 0] and not still.drew
    drawing = compile_shuffle(FISHER_YATES)
    assert not drawing.drew
    drawing(list(range(5)), StreamRng("x"))
    assert drawing.drew


def test_a_null_byte_is_one_line_on_any_python():
    with pytest.raises(CustomCodeError, match=r"null bytes$") as refused:
        compile_shuffle("x = 1\0\n")
    assert "\x00" not in str(refused.value)


def run(body: str, cards=tuple(range(52)), rng=None):
    """Run a shuffle whose body is ``body`` (indented 4) on ``cards``; return what it gave."""
    source = "def shuffle(cards, rng):\n" + "".join("    " + line + "\n" for line in body.splitlines())
    return compile_shuffle(source)(list(cards), rng or StreamRng("run"))


@pytest.mark.parametrize("body, message", [
    ("n = len(cards)\nfor i in range(n):\n    j = rng.below(i)\n    cards[i], cards[j] = cards[j], cards[i]\nreturn cards",
     'line 4: "j = rng.below(i)" – ValueError: rng.below(m) needs 1 <= m <= 2**32, not 0'),
    ("return cards[:-1]", "shuffle(cards, rng) returned 51 cards for a deck of 52"),
    ("return cards + [0]", "shuffle(cards, rng) returned 53 cards for a deck of 52"),
    ("cards[0] = cards[7]\nreturn cards", "shuffle(cards, rng) returned card 7 twice"),
    ("cards[:2] = [9, 9]\nreturn cards", "shuffle(cards, rng) returned card 9 3 times"),
    ("return ' '.join(map(str, cards))", "shuffle(cards, rng) returned a str, not a list"),
    ("cards.reverse()", "shuffle(cards, rng) returned None, not a list"),
    ("return iter(cards)", "shuffle(cards, rng) returned a list_iterator, not a list"),
    ("cards[1] = 1.0\nreturn cards", "shuffle(cards, rng) returned 1.0, which is not a card of the deck"),
    ("cards[1] = True\nreturn cards", "shuffle(cards, rng) returned True, which is not a card of the deck"),
    ("cards[1] = [1]\nreturn cards", "shuffle(cards, rng) returned [1], which is not a card of the deck"),
    ("return [rng.below(2.5)]", 'line 2: "return [rng.below(2.5)]" – TypeError: rng.below(m) needs a whole number m, not 2.5'),
    ("return rng.below_many([2, 2])",
     "line 2: \"return rng.below_many([2, 2])\" – AttributeError: 'Rng' object has no attribute 'below_many'"),
    ("import json\nreturn json.loads('not json')",
     "line 3: \"return json.loads('not json')\" – JSONDecodeError: Expecting value: line 1 column 1 (char 0)"),
    ("raise SystemExit(3)", 'line 2: "raise SystemExit(3)" – SystemExit: 3'),
    ("raise ValueError('two\\nlines and a \\a bell')",
     "line 2: \"raise ValueError('two\\nlines and a \\a bell')\" – ValueError: two lines and a \ufffd bell"),
], ids=["raises", "short", "long", "twice", "three-times", "str", "none", "iterator", "float-card", "bool-card",
        "unhashable", "float-bound", "below-many", "library-frame", "exit", "control-characters"])
def test_a_shuffle_that_fails_or_returns_anything_but_the_cards_is_one_line_naming_it(body, message):
    with pytest.raises(CustomCodeError) as refused:
        run(body)
    assert str(refused.value) == message and "\n" not in str(refused.value)


def test_the_deepest_of_the_users_lines_is_quoted():
    source = "def swap(cards, i):\n    j = i // 0\n\ndef shuffle(cards, rng):\n    swap(cards, 1)\n    return cards\n"
    with pytest.raises(CustomCodeError, match='^line 2: "j = i // 0" – ZeroDivisionError: integer division or modulo by zero$'):
        compile_shuffle(source)([0, 1], StreamRng("deep"))


def test_quoted_lines_are_cut_at_80_characters():
    long_line = "return cards[:0] or " + " + ".join(["[]"] * 40) + " + undefined_name"
    with pytest.raises(CustomCodeError) as refused:
        run(long_line, cards=[0, 1])
    quoted = str(refused.value).split('"')[1]
    assert len(quoted) == 80 and quoted.endswith("…") and quoted.startswith("return cards[:0] or [] + [] +")


def test_the_users_function_gets_a_copy_and_the_deck_is_left_alone():
    cards = [0, 1, 2, 3]
    shuffled = compile_shuffle("def shuffle(cards, rng):\n    cards.reverse()\n    return cards\n")(cards, StreamRng("c"))
    assert shuffled == [3, 2, 1, 0] and cards == [0, 1, 2, 3]


def test_a_tuple_is_a_fine_result_and_comes_back_as_a_list():
    assert run("return tuple(reversed(cards))", cards=[0, 1, 2]) == [2, 1, 0]


def test_the_code_runs_as_its_own_module_not_as_main():
    source = "if __name__ == '__main__':\n    raise SystemExit('ran as main')\n" + FISHER_YATES
    assert sorted(compile_shuffle(source)(range(5), StreamRng("m"))) == [0, 1, 2, 3, 4]


@given(st.integers(0, 8).flatmap(lambda n: st.tuples(st.just(n), st.lists(st.integers(0, n), max_size=n + 1))))
@settings(max_examples=100, deadline=None)
def test_exactly_the_deck_in_any_order_is_accepted(case):
    n, result = case
    shuffle = CustomShuffle(lambda cards, rng: result, "", "prop.py")
    if sorted(result) == list(range(n)):
        assert shuffle(range(n), ScriptedRng([])) == result
    else:
        with pytest.raises(CustomCodeError, match=r"^shuffle\(cards, rng\) returned "):
            shuffle(range(n), ScriptedRng([]))


@given(st.text(max_size=30), st.integers(0, 20))
@settings(max_examples=50, deadline=None)
def test_a_users_fisher_yates_gives_a_permutation_for_any_seed(seed, n):
    assert sorted(compile_shuffle(FISHER_YATES)(range(n), StreamRng(seed or "empty"))) == list(range(n))


# --- the time limit (SIGALRM: CPython's main thread on a Unix) --------------------------------------------

needs_alarm = pytest.mark.skipif(not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread(),
                                 reason="the time limit needs SIGALRM in the main thread")


@needs_alarm
def test_code_that_never_returns_is_stopped_at_the_time_limit_quoting_its_line():
    looping = compile_shuffle("def shuffle(cards, rng):\n    while True:\n        cards = cards[::-1]\n")
    with pytest.raises(TimeLimitExceeded, match=r'^line [23]: "(while True:|cards = cards\[::-1\])" – still running after '
                                                 r'0\.2 s: it may never return$'):
        with time_limit(0.2):
            looping([0, 1], StreamRng("t"))
    assert signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, signal.default_int_handler, None)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


@needs_alarm
def test_code_that_swallows_the_interruption_is_interrupted_again(monkeypatch):
    monkeypatch.setattr(custom, "RECHECK_SECONDS", 0.05)
    # it swallows two interruptions, and gives up by itself after 5 s: a limit that fires only once fails the test
    source = ("import time\n"
              "def shuffle(cards, rng):\n    return cards\n"
              "give_up = time.monotonic() + 5\n"
              "for attempt in range(2):\n    try:\n        while time.monotonic() < give_up:\n            pass\n"
              "    except BaseException:\n        pass\n"
              "while time.monotonic() < give_up:\n    pass\n")
    with pytest.raises(TimeLimitExceeded, match=r'^line 1[12]: "(while time.monotonic\(\) < give_up:|pass)" – '
                                                 r'still running after 0\.1 s'):
        with time_limit(0.1):
            compile_shuffle(source)


def test_no_limit_means_none():
    with time_limit(None), time_limit(0):
        assert compile_shuffle(FISHER_YATES)([0, 1], StreamRng("n")) in ([0, 1], [1, 0])

