"""Hostile answers: code from a link that leaves the sandbox's walls alone and attacks the trusted side through
what the sandbox answers, or through what it leaves behind for the next Run.

Each test is one of the five breaks found on main, run as it was found: a stranger's link, one press of Run
(and, for the second, the user's own next Run), then checks from the page's side only:

* a tally answer nested 100,000 deep: refused in one line, and the built-ins' worker still gives verdicts;
* code that patches the sandbox's compiler for the code after it: the user's next, different code is measured as
  itself (the deck returned unchanged is biased), and the link's note goes once the code is no longer the link's;
* 600,000 objects on every real answer, and messages nobody asked for: nothing but plain {kind, id, text} reaches
  the page, and the sandbox over its budget is ended with one line;
* a 6-card walk of 720 probabilities with unrelated 2,000-digit denominators: refused in one line, and the
  built-ins' worker is never pushed past its 10 s limit;
* an error line with control and bidirectional characters: shown with U+FFFD in their place;

and, beside them, an answer over the size limit (refused at once, where it used to wait out the 10 s limit). How
long the depth, size and digit attacks take to be refused is the `timing` test at the end.
"""

from __future__ import annotations

import time

import hostile_site
import pytest
from e2e_pages import margin
from hostile_site import (
    BUILTIN_VERDICTS,
    GOOD,
    WAIT_MS,
    assert_unharmed,
    lab_report,
    mark,
    open_code,
    press_run,
    short,
    wait_for_line,
    wait_for_tally,
)

site = hostile_site.site  # the module's fixtures: its own page
hostile = hostile_site.hostile

# The sandbox's service answers through its module's `json`: each payload swaps it (or a method) for its own, then
# is a correct Fisher-Yates, so the lab asks it for counts, and for a walk on 6 cards.
FORGED_JSON = '''import json as real_json, sys
service = sys.modules["shufflelab.lab.sandbox"]

class Forged:
    loads = staticmethod(real_json.loads)

    @staticmethod
    def dumps(answer):
        if answer.get("ok") and isinstance(answer.get("data"), dict) and "counts" in answer["data"]:
            return {forged}
        return real_json.dumps(answer)

service.json = Forged
'''

# 1. Valid JSON nested 100,000 deep (200 kB) as a tally's answer: it overflowed the trusted Pyodide's stack.
DEEP = FORGED_JSON.format(forged="""'{"ok": true, "data": {"counts": ' + "[" * 100000 + "]" * 100000 + '}}'""") + GOOD

# An answer of 5,000,000 characters, over the 4,000,000 the page takes.
HUGE = FORGED_JSON.format(forged="""'{"ok": true, "data": {"counts": [' + "0," * 2500000 + '0]}}'""") + GOOD

# 2. The link's code makes every later compile in its sandbox compile Fisher-Yates instead.
OUTLIVE = '''import shufflelab.custom as custom
FAIR = """''' + GOOD + '''"""
real_register = custom.register_custom

def register_custom(source, *args, **kwargs):
    return real_register(FAIR, *args, **kwargs)

custom.register_custom = register_custom
''' + GOOD
UNCHANGED = '''def shuffle(cards, rng):
    return cards
'''

# 3. 600,000 objects on every real answer, and once five answers are in, one such message nobody asked for and
# then sixty more small ones.
JUNK = '''import js
from pyodide.ffi import create_proxy
junk = js.JSON.parse("[" + ",".join(["{}"] * 600000) + "]")
post = js.self.postMessage
sent = [0]

def with_junk(message, *rest):
    message.junk = junk
    post(message)
    sent[0] += 1
    if sent[0] == 5:
        post(js.JSON.parse('{"kind": "answer", "id": 999999, "text": "unasked"}'))
        extra = js.JSON.parse('{"kind": "answer", "id": 999999, "text": "unasked"}')
        extra.junk = junk
        post(extra)
        for _ in range(60):
            post(js.JSON.parse('{"kind": "note", "text": "unasked"}'))

js.self.postMessage = create_proxy(with_junk)
''' + GOOD

# 4. A forged 6-card walk: every order once, each with probability 1/q for an unrelated 2,000-digit q.
DIGITS = '''import itertools, sys
service = sys.modules["shufflelab.lab.sandbox"]

def walk_step(self, milliseconds):
    orders = [[list(order), "1/%d" % (10**1999 + 2 * k + 1)]
              for k, order in enumerate(itertools.permutations(range(6)))]
    return {"orders": orders, "seconds": 0.1}

service.SandboxService.walk_step = walk_step
''' + GOOD

# 5. An error line that carries a right-to-left override, isolates, a bell and an escape sequence.
CONTROLS = '''import sys
from shufflelab.errors import ShuffleLabError
service = sys.modules["shufflelab.lab.sandbox"]

def run_for(self, *args):
    raise ShuffleLabError("ZQX line \\u202egnol\\u2066x\\u2069 \\x07\\x1b[31mred")

service.SandboxService.run_for = run_for
''' + GOOD
UNPRINTABLE = ("\u202e", "\u2066", "\u2069", "\x07", "\x1b")


def lab_said(page, since: int = 0) -> list[str]:
    """Every text #lab-status showed since mark ``since``."""
    return page.evaluate("k => window.__seen['lab-status'].slice(k)", since)


def worker_stops(page, since: int) -> list[str]:
    """The built-ins' worker stopped over its 10 s limit since mark ``since``, as #lab-status said it."""
    return [f"the built-ins' worker was stopped: {text!r}" for text in lab_said(page, since) if "over 10 s" in text]


def impure_messages(page) -> list[str]:
    """Messages from the sandbox's frame that reached the page as anything but plain {kind, id, text}."""
    impure = page.evaluate("window.__frames.impure")
    return [f"the page was handed messages that are not plain data: {impure}"] if impure else []


def refused(line: str, *words: str) -> list[str]:
    """The line under the editor is one short line that says the answer was refused (it names one of ``words``)."""
    found = []
    if not any(word in line for word in words):
        found.append(f"the line under the editor does not say the answer was refused ({words}): {short(line)!r}")
    if "\n" in line or len(line) > 400:
        found.append(f"the line under the editor is not one short line: {short(line)!r}")
    return found


def run_and_wait(site, source: str, n: int = 8) -> tuple[dict, str, int]:
    """Open a link carrying ``source`` on ``n`` cards, press Run once, wait for the line under the editor to say the
    code stopped; return (storage before, the line, the #lab-status mark from before Run)."""
    before = open_code(site, source, n)
    since, said = mark(site.page, "custom-status"), mark(site.page, "lab-status")
    press_run(site.page)
    _, line = wait_for_line(site.page, since)
    print(f"the line under the editor: {line}")
    return before, line, said


def test_an_answer_nested_100000_deep_is_refused_and_the_built_ins_go_on(hostile):
    """Break 1: a tally answer of valid JSON nested 100,000 deep killed the trusted Pyodide until reload."""
    before, line, said = run_and_wait(hostile, DEEP)
    found = refused(line, "nested") + worker_stops(hostile.page, said)
    assert_unharmed(hostile, before, builtins=BUILTIN_VERDICTS[:1], extra=found)


def test_an_answer_over_the_size_limit_is_refused_at_once(hostile):
    """An answer of 5,000,000 characters ends its sandbox with one line, instead of waiting out the 10 s limit."""
    before, line, said = run_and_wait(hostile, HUGE)
    found = refused(line, "4,000,000") + worker_stops(hostile.page, said)
    if "10 s" in line:
        found.append(f"the answer waited out the time limit: {short(line)!r}")
    assert_unharmed(hostile, before, extra=found)


def type_code(page, source: str) -> None:
    """Replace the editor's text as a user does: select all in CodeMirror and type (an input event, like a paste)."""
    page.wait_for_selector("#mine .cm-content", timeout=WAIT_MS)
    page.click("#mine .cm-content")
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(source)
    page.wait_for_function("code => document.getElementById('custom-code').value === code", arg=source,
                           timeout=WAIT_MS)


def test_link_code_cannot_outlive_its_run_and_measure_the_next_code_as_fair(hostile):
    """Break 2: the link's code patched the sandbox's compiler, so the user's own next code (the deck unchanged) was
    measured as Fisher-Yates and called fair; and the link's note stayed once the code was the user's."""
    page = hostile.page
    before = open_code(hostile, OUTLIVE)
    since = mark(page, "trials")
    press_run(page)
    wait_for_tally(page, since)  # the link's code ran, and its tally counts
    found = []
    type_code(page, UNCHANGED)
    if page.is_visible("#custom-origin"):
        found.append(f"the link's note stays over the user's own code: {page.text_content('#custom-origin')!r}")
    since = mark(page, "trials")
    press_run(page)
    try:
        page.wait_for_function(f"""k => ({hostile_site.COUNTED_AFRESH})(k) && ['biased', 'no-bias'].includes(
                                   document.getElementById('verdict').dataset.verdict)""", arg=since, timeout=WAIT_MS)
    except Exception as error:
        raise AssertionError(f"the user's code got no verdict: {lab_report(page, since)}") from error
    verdict = page.get_attribute("#verdict", "data-verdict")
    if verdict != "biased":
        found.append(f"the deck returned unchanged reads {verdict!r}: {page.text_content('#verdict')!r}")
    assert_unharmed(hostile, before, extra=found)


def test_only_plain_bounded_messages_reach_the_page_and_a_flood_ends_the_sandbox(hostile):
    """Break 3: 600,000 objects rode on every real answer, read whole on the page's main thread, and unasked
    messages of millions of objects were allowed 50 times. Now the frame hands the page plain {kind, id, text} only,
    every message counts toward the sandbox's budget, and one over it is ended with one line."""
    before, line, said = run_and_wait(hostile, JUNK)
    found = impure_messages(hostile.page) + refused(line, "messages")
    assert_unharmed(hostile, before, extra=found)


def test_a_walk_of_2000_digit_denominators_is_refused_within_the_limit(hostile):
    """Break 4: 720 probabilities with unrelated 2,000-digit denominators took the trusted worker past its 10 s limit
    (about 130 s to add up in CPython), and the lab restarted it. Now the walk is refused in one line where the exact
    views are said to be missing, and the built-ins' worker goes on."""
    page = hostile.page
    before = open_code(hostile, DIGITS, n=6)
    said = mark(page, "lab-status")
    press_run(page)
    try:
        page.wait_for_function("() => document.getElementById('exact-note').textContent.startsWith('No exact matrix')",
                               timeout=WAIT_MS)
    except Exception as error:
        raise AssertionError(f"the forged walk was never refused: the exact note says "
                             f"{page.text_content('#exact-note')!r}; {lab_report(page)}; "
                             f"{worker_stops(page, said)}") from error
    note = page.text_content("#exact-note")
    print(f"the exact note: {note}")
    found = refused(note.split(". ")[0], "digits") + worker_stops(page, said)
    assert_unharmed(hostile, before, builtins=BUILTIN_VERDICTS[:1], extra=found)


def test_a_forged_error_line_shows_no_control_or_bidi_character(hostile):
    """Break 5: an error line kept RLO, isolates, BEL and ESC on the page unchanged, against the U+FFFD rule."""
    before, line, _ = run_and_wait(hostile, CONTROLS)
    found = [f"the line under the editor shows U+{ord(c):04X}: {line!r}" for c in UNPRINTABLE if c in line]
    if "ZQX line" not in line or "\ufffd" not in line:
        found.append(f"the code's error is not shown, made printable: {line!r}")
    assert_unharmed(hostile, before, extra=found)


# Where each attack's refusal shows: the line under the editor, or (a walk) the note on the exact views.
REFUSED_LINE = "() => document.getElementById('custom-status').dataset.state === 'error'"
REFUSED_WALK = "() => document.getElementById('exact-note').textContent.startsWith('No exact matrix')"


@pytest.mark.timing
@pytest.mark.parametrize(("source", "n", "shown", "where", "words"), [
    (DEEP, 8, REFUSED_LINE, "#custom-status", "nested"),
    (HUGE, 8, REFUSED_LINE, "#custom-status", "4,000,000"),
    (DIGITS, 6, REFUSED_WALK, "#exact-note", "digits"),
], ids=["depth", "size", "digits"])
def test_how_long_an_attack_takes_to_be_refused(hostile, source, n, shown, where, words):
    """Run -> the refusal on the page (the sandbox's start, the code's compiling and its first answers included), well
    within the time one call may take; scripts/bench/answers.py times the trusted side's own share."""
    page = hostile.page
    open_code(hostile, source, n)
    since = mark(page, "lab-status")
    started = time.perf_counter()
    press_run(page)
    page.wait_for_function(shown, timeout=WAIT_MS)
    took = time.perf_counter() - started
    text = page.text_content(where)
    print(f"{words}: Run -> refused in {took:.2f} s: {text}")
    assert refused(text.split(". ")[0], words) == [] and worker_stops(page, since) == []
    margin(f"Run -> a {words} attack refused", took, 30, "s")
    assert took < 30, f"Run -> refused took {took:.1f} s"
    hostile.reusable_after = True
