"""Your own shuffle on the lab tab, driven as a user does: type code in the editor, press Run.

- Swap-with-any (the editor's example) is called biased; Fisher–Yates is not, and on 6 cards
  its exact matrix comes from walking every path of its draws.
- A shuffle that returns a shorter list or does not compile gets its one-line message under
  the code, and the page, then the next Run, still work (one that never returns is
  test_hostile_code's endless loop: stopped at 10 s, then the next Run works).
- A link that carries code fills the editor and runs nothing until Run is pressed.
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from e2e_pages import LAB_IDLE, STEP_TIMEOUT_MS, WORKER_TIMEOUT_MS, open_in, problems, settled, url_params, wait_until_lab_idle
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from shufflelab.codelink import pack_code, unpack_code

FISHER_YATES = """def shuffle(cards, rng):
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards
"""
SHORTER = """def shuffle(cards, rng):
    return cards[:-1]
"""
BROKEN = """def shuffle(cards, rng)
    return cards
"""
# code that would say so if it ran: its top level raises as soon as it is executed
LOUD = """raise RuntimeError("this code ran")

def shuffle(cards, rng):
    return cards
"""
# Fisher–Yates that dawdles: walking its paths for 6 cards takes about 7 s in Pyodide here, so there is time to act
# while the walk goes on
DAWDLING = FISHER_YATES.replace("    return cards", "    for _ in range(150_000):\n        pass\n    return cards")
VERDICT_TIMEOUT_MS = 90_000  # enough shuffles for a verdict, in Pyodide, on a busy 2-core machine


@contextmanager
def lab_opened(browser, site_url, visit, query: str, label: str):
    """Open the lab in a context of its own with the editor shown; yield what was opened, then close the context."""
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])  # to paste code
    try:
        opened = open_in(context, f"{site_url}?view=lab&{query}", visit, label)
        page = opened.page
        wait_for_worker(page)
        assert page.query_selector("#editor-script") is None or "code=" in query  # CodeMirror waits for the box
        if page.get_attribute("#mine", "open") is None:
            page.click("#mine summary")
        page.wait_for_selector("#mine .cm-editor", timeout=STEP_TIMEOUT_MS)  # CodeMirror took over (in its shadow root)
        yield opened
    finally:
        context.close()


def wait_for_worker(page) -> None:
    """Run is enabled once the lab's worker is there (the button may sit in the closed box)."""
    page.wait_for_function("() => !document.getElementById('custom-run').disabled", timeout=WORKER_TIMEOUT_MS)


def type_code(page, source: str) -> None:
    """Replace the editor's text, as a user who selects all and pastes would (CodeMirror handles the paste itself)."""
    if not page.is_visible("#mine .cm-content"):
        page.click("#mine summary")
    page.click("#mine .cm-content")
    page.keyboard.press("Control+A")
    page.evaluate("text => navigator.clipboard.writeText(text)", source)
    page.keyboard.press("Control+V")
    page.wait_for_function("code => document.getElementById('custom-code').value === code", arg=source,
                           timeout=STEP_TIMEOUT_MS)


def press_run(page) -> None:
    if not page.is_visible("#custom-run"):
        page.click("#mine summary")
    page.click("#custom-run")


def wait_for_verdict(page, verdicts: tuple[str, ...]) -> str:
    page.wait_for_function("wanted => wanted.includes(document.getElementById('verdict').dataset.verdict)",
                           arg=list(verdicts), timeout=VERDICT_TIMEOUT_MS)
    return page.get_attribute("#verdict", "data-verdict")


def custom_status(page) -> tuple[str, str]:
    return page.get_attribute("#custom-status", "data-state"), page.text_content("#custom-status")


def wait_for_error(page) -> str:
    page.wait_for_function("() => document.getElementById('custom-status').dataset.state === 'error'",
                           timeout=WORKER_TIMEOUT_MS)
    return custom_status(page)[1]


@pytest.mark.smoke  # the smoke tier: one test a tab (make smoke)
def test_fisher_yates_is_not_biased_and_its_exact_matrix_is_walked(browser, site_url, visit):
    with lab_opened(browser, site_url, visit, "n=6", "test_custom_page: fisher-yates") as opened:
        page = opened.page
        type_code(page, FISHER_YATES)
        press_run(page)
        page.wait_for_function("() => document.getElementById('exact-note').textContent.startsWith('Exact matrix')",
                               timeout=WORKER_TIMEOUT_MS)
        assert page.is_enabled('input[name="heat"][value="difference"]')  # the exact views exist for it
        # "suspicious" is a look's false alarm (about 2e-3 a look for this shuffle: docs/explanation/false-alarms.md), which
        # later looks settle; "biased" would be a finding, and a correct shuffle must never get one
        assert wait_for_verdict(page, ("no-bias", "biased")) == "no-bias"
        assert problems(opened) == []


WRONG_SHUFFLES = [
    (SHORTER, "returned 5 cards for a deck of 6"),
    (BROKEN, 'line 1: "def shuffle(cards, rng)"'),
    ("import random\ndef shuffle(cards, rng):\n    random.shuffle(cards)\n    return cards\n",
     'line 1: "import random" – import random: draw from rng instead'),
]


def test_a_wrong_shuffle_gets_its_message_and_the_next_run_works(browser, site_url, visit):
    """Each wrong shuffle in turn, in one lab (each Run compiles afresh): its one line, the earlier shuffle paused
    rather than tallied under the wrong code, then a correct Run works."""
    with lab_opened(browser, site_url, visit, "n=6", "test_custom_page: wrong") as opened:
        page = opened.page
        for turn, (source, message) in enumerate(WRONG_SHUFFLES):
            type_code(page, source)
            press_run(page)
            said = wait_for_error(page)
            assert message in said, said
            assert "\n" not in said and "Traceback" not in said
            if turn:  # a correct shuffle of the user's was running: it stops, and the line says so
                assert "paused on the last shuffle of yours" in said, said
                page.wait_for_function("() => document.getElementById('lab-status').textContent === 'Paused.'",
                                       timeout=STEP_TIMEOUT_MS)
                stopped_at = page.text_content("#trials")
                wait_until_lab_idle(page)  # no loop is left to count more
                settled(page)
                assert page.text_content("#trials") == stopped_at
                # what stays on screen is the last code that ran, and says so: never titled as the box's code
                assert page.get_attribute("#verdict-side", "data-stale") == "true"
                assert "the code that last ran, not the code in the box now" in page.text_content("#verdict-side .side-title")
            type_code(page, FISHER_YATES)  # the page still works: the next Run runs
            press_run(page)
            page.wait_for_function("() => document.getElementById('custom-status').textContent"
                                   ".startsWith('Running your shuffle') "
                                   "&& Number(document.getElementById('trials').textContent.replace(/,/g, '')) > 0",
                                   timeout=WORKER_TIMEOUT_MS)
            assert custom_status(page)[0] != "error"
            assert page.get_attribute("#verdict-side", "data-stale") is None


def test_what_the_status_line_tells_the_user_outlasts_a_walk_under_way(browser, site_url, visit):
    """While a walk of the user's shuffle goes on: new code that fails stops it (nothing more is asked of the replaced
    sandbox, and 'Paused.' stays), and a refused n keeps its notice to the walk's end, never replaced by progress."""
    walk_under_way = "() => document.getElementById('lab-status').textContent.startsWith('Computing the exact matrix:')"
    with lab_opened(browser, site_url, visit, "n=6", "test_custom_page: status") as opened:
        page = opened.page
        type_code(page, DAWDLING)
        press_run(page)
        page.wait_for_function(walk_under_way, timeout=WORKER_TIMEOUT_MS)
        type_code(page, BROKEN)  # refused as it compiles: the last code's tally stays, paused
        press_run(page)
        assert 'line 1: "def shuffle(cards, rng)"' in wait_for_error(page)
        wait_until_lab_idle(page)  # the walk stopped: no loop of the lab's is left
        settled(page)
        assert page.text_content("#lab-status") == "Paused."
        type_code(page, DAWDLING)
        press_run(page)
        page.wait_for_function(walk_under_way, timeout=WORKER_TIMEOUT_MS)
        page.fill("#lab-n", "9" * 60)  # no deck has that many cards
        page.press("#lab-n", "Tab")
        page.wait_for_function("() => document.getElementById('lab-status').textContent.endsWith('kept 6.')",
                               timeout=STEP_TIMEOUT_MS)
        kept = page.text_content("#lab-status")
        # (the walk still on after the notice was still on when it was given)
        assert not page.text_content("#exact-note").startswith("Exact matrix"), "the walk ended before the notice"
        page.wait_for_function("() => document.getElementById('exact-note').textContent.startsWith('Exact matrix')",
                               timeout=WORKER_TIMEOUT_MS)
        settled(page)
        assert page.text_content("#lab-status") == kept
        assert problems(opened) == []


def test_a_link_with_code_fills_the_editor_and_runs_nothing_until_run(browser, site_url, visit):
    with lab_opened(browser, site_url, visit, f"n=6&code={pack_code(LOUD)}", "test_custom_page: link") as opened:
        page = opened.page
        assert page.input_value("#custom-code") == LOUD
        assert page.get_attribute("#mine", "open") is not None
        note = page.text_content("#custom-origin")  # above Run: whose code it is, and what it cannot reach
        assert page.is_visible("#custom-origin") and "who wrote it is unknown" in note
        lines = LOUD.count("\n") + (not LOUD.endswith("\n"))
        assert "cannot reach this page or this site's storage" in note and f"{lines} lines, {len(LOUD)} characters" in note
        state, text = custom_status(page)
        assert state != "error" and "It has not run: press Run" in text
        settled(page)  # whatever opening the link does at once has been done
        assert page.query_selector(LAB_IDLE) is not None, "a loop of the lab's started by itself"
        assert custom_status(page) == (state, text) and page.text_content("#trials") == "0"
        press_run(page)  # only now does it run, and its top level raises
        assert 'RuntimeError: this code ran' in wait_for_error(page)


def test_swap_with_any_is_called_biased_labelled_as_yours_and_going_back_shows_the_built_ins_own_results(
        browser, site_url, visit):
    with lab_opened(browser, site_url, visit, "n=8&algo=fisher-yates", "test_custom_page: back") as opened:
        page = opened.page
        example = page.input_value("#custom-code")
        assert "rng.below(n)" in example  # the editor starts with swap-with-any
        press_run(page)
        assert wait_for_verdict(page, ("biased",)) == "biased"
        assert custom_status(page)[1].startswith("Running your shuffle")
        assert unpack_code(url_params(page.url)["code"]) == example  # the share link carries the code that ran
        assert page.text_content("#verdict-side .side-title") == "Your shuffle"
        assert page.is_visible("#algo-yours") and not page.is_visible("#algo-description")  # no "Unbiased" beside it
        page.select_option("#algorithm", "naive-pairs")  # a built-in from the menu
        page.wait_for_function("() => !document.getElementById('custom-status').textContent.startsWith('Running')",
                               timeout=STEP_TIMEOUT_MS)
        assert page.is_visible("#algo-description") and not page.is_visible("#algo-yours")
        assert page.is_hidden("#verdict-side .side-title")
        assert page.query_selector("iframe[sandbox]") is None  # the sandbox, and all the code started there, ended
        page.click("#lab-start")  # the built-in counts (if the loop did not already go on with it after the switch) ...
        page.wait_for_function("() => document.getElementById('trials').textContent !== '0'", timeout=WORKER_TIMEOUT_MS)
        # ... and is paused before Reset: a tally still running would draw its next chunk over Reset's 0 before a loaded
        # machine's next frame showed it (a full suite's run once waited 60 s for a count below the one before)
        page.click("#lab-pause")
        page.click("#lab-reset")
        # Reset configures a fresh tally in the worker, which may still be busy with what the switch asked of it
        try:
            page.wait_for_function("() => document.getElementById('trials').textContent === '0'", timeout=WORKER_TIMEOUT_MS)
        except PlaywrightTimeoutError:
            said = page.evaluate("['trials', 'lab-status', 'custom-status'].map(id => document.getElementById(id).textContent)")
            raise AssertionError(f"Reset did not count from 0 again (trials, lab status, custom status): {said}") from None
        page.click("#lab-start")
        assert wait_for_verdict(page, ("biased",)) == "biased"  # naive-pairs' own verdict, from its own tally
        assert problems(opened) == []


def test_the_sandbox_can_fetch_nothing_not_even_the_sites_public_files(browser, site_url, visit):
    reach = (f"import js\nx = js.XMLHttpRequest.new()\nx.open('GET', {site_url + 'index.html'!r}, False)\n"
             "try:\n    x.send()\n    said = 'got %d' % x.status\nexcept Exception as error:\n    said = 'refused'\n"
             "raise RuntimeError(said)\n" + FISHER_YATES)
    with lab_opened(browser, site_url, visit, "n=6", "test_custom_page: fetch") as opened:
        page = opened.page
        type_code(page, reach)
        press_run(page)
        assert "RuntimeError: refused" in wait_for_error(page)
        # refused twice over: this server sends no Access-Control-Allow-Origin (GitHub Pages does), and the frame's
        # own policy, enforced beside the page's, lets it connect to blob: URLs only
        policy = page.eval_on_selector("iframe[sandbox]", "frame => frame.srcdoc.match(/content=\"([^\"]+)\"/)[1]")
        assert "default-src 'none'" in policy and "connect-src blob:;" in policy and "'unsafe-eval'" not in policy
