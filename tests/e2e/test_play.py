"""The Play tab as a user meets it, on the desktop and phone profiles, one page load each.

- The best strategy's figure is the CLI's `guess --json`: an exact one (52 cards, one riffle; 8 cards) to the
  last digit, a simulated one (52 cards, two riffles) for the seed and deck count the page names.
- A short game with feedback, played to the end (the first guess by keyboard), and one without:
  the scores shown are the library's on the deck read back from the page.
- A real deck's order typed (both profiles), and tapped on the card picker (the phone): the CLI's
  `riffles --order` verdict; bad input gets one line naming it. Nothing scrolls sideways at 375 px,
  and the picker's tap targets are at least 44 × 44 px.
"""

from __future__ import annotations

import json

import pytest
from e2e_pages import STEP_TIMEOUT_MS, WORKER_TIMEOUT_MS, open_in, problems, run_cli
from test_phone import WIDEST

from conftest import PROFILES
from shufflelab.algorithms import riffle_gsr
from shufflelab.cards import standard_deck
from shufflelab.exact import guessing
from shufflelab.rng import stream

FIGURE = """() => { const f = document.getElementById('play-expected');
    return {exact: f.dataset.exact, value: f.dataset.value, cli: document.getElementById('play-cli').textContent}; }"""
SCORED = "() => document.getElementById('play-score').dataset.best !== undefined"


def cli_json(command: str) -> dict:
    """Run the command line the page shows (python -m shufflelab guess ...) and read its JSON."""
    words = command.split()
    assert words[:3] == ["python", "-m", "shufflelab"], command
    return json.loads(run_cli(*words[3:]))


def wait_figure(page, exact: str) -> dict:
    page.wait_for_function(f"() => document.getElementById('play-expected').dataset.exact === '{exact}'",
                           timeout=WORKER_TIMEOUT_MS)
    return page.evaluate(FIGURE)


def dealt(page) -> list[int]:
    """The game's deck read back from the page, top card first (every card is face up once the game is over)."""
    return [int(v) for v in page.eval_on_selector_all("#play-table li[data-dealt]", "ns => ns.map(n => n.dataset.dealt)")]


def tap(page, selector: str, mobile: bool) -> None:
    (page.tap if mobile else page.click)(selector)


@pytest.fixture(params=list(PROFILES))
def profile(request, browser):
    settings = PROFILES[request.param]
    context = browser.new_context(**settings)
    yield request.param, context, settings
    context.close()


@pytest.mark.smoke  # the smoke tier: one test a tab (make smoke)
def test_play_the_game_and_test_a_real_deck(profile, site_url, visit):
    name, context, settings = profile
    mobile = settings.get("is_mobile", False)
    opened = open_in(context, f"{site_url}?view=play", visit, f"test_play: {name}")
    page = opened.page
    assert page.is_visible("#play-panel") and not page.is_visible("#controls")

    # the default game (52 cards, 1 riffle, feedback) is exact: the CLI, asked as the page says, agrees
    shown = wait_figure(page, "true")
    assert shown["cli"] == "python -m shufflelab guess --cards 52 --riffles 1 --feedback full --json"
    report = cli_json(shown["cli"])
    assert report["exact"] is True and repr(report["expected_value"]) == shown["value"], (shown, report)
    assert page.text_content("#play-expected") == f"Best strategy: {report['expected_value']:.3f} cards right on average (exact)"
    assert abs(report["expected_value"] - 31.1695) < 5e-5

    # two riffles of 52 cards: simulated, and the CLI, asked as the page says, agrees
    page.select_option("#play-k", "2")
    shown = wait_figure(page, "false")
    assert "--seed play --samples" in shown["cli"]
    report = cli_json(shown["cli"])
    assert report["exact"] is False and repr(report["expected"]) == shown["value"], (shown, report)
    assert "simulated, ± standard error" in page.text_content("#play-expected")
    page.select_option("#play-k", "1")

    # 8 cards: exact, the CLI's fraction (52 cards riffled once is exact too: wait for the 8-card figure itself)
    page.select_option("#play-n", "8")
    page.wait_for_function("() => document.getElementById('play-cli').textContent.includes('--cards 8 ')",
                           timeout=WORKER_TIMEOUT_MS)
    shown = wait_figure(page, "true")
    report = cli_json(shown["cli"])
    assert shown["cli"] == "python -m shufflelab guess --cards 8 --riffles 1 --feedback full --json"
    assert repr(report["expected_value"]) == shown["value"] and f"exact: {report['expected']}" in page.text_content(
        "#play-expected")

    # a game with feedback, to the end: the first guess by keyboard, the others by tapping the first card left
    tap(page, "#play-deal", mobile)
    page.wait_for_selector("#play-picker button", timeout=STEP_TIMEOUT_MS)
    guesses = []
    page.focus("#play-picker button[data-pick='0']")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    guesses.append(1)
    picker_top = page.evaluate("document.getElementById('play-picker').getBoundingClientRect().top")
    for _ in range(7):
        page.wait_for_function("n => document.querySelectorAll('#play-table li[data-dealt]').length === n",
                               arg=len(guesses), timeout=STEP_TIMEOUT_MS)
        card = page.get_attribute("#play-picker button:enabled", "data-pick")
        tap(page, f"#play-picker button[data-pick='{card}']", mobile)
        guesses.append(int(card))
    # the picker stays where the thumb is: the deck's row grows below it
    assert page.evaluate("document.getElementById('play-picker').getBoundingClientRect().top") == picker_top
    page.wait_for_function(SCORED, timeout=WORKER_TIMEOUT_MS)
    order = dealt(page)
    assert sorted(order) == list(range(8))
    you = sum(g == c for g, c in zip(guesses, order))
    assert page.get_attribute("#play-score", "data-you") == str(you)
    assert page.get_attribute("#play-score", "data-best") == str(guessing.play_best(order, 1))
    assert page.text_content("#play-score").startswith(f"You called {you} of 8 cards right.")
    assert "2.718" in page.text_content("#play-score")  # H_8, a random deck's expectation

    # without feedback: four written guesses (repeats allowed), then Reveal
    page.check("#play-feedback-none")
    page.select_option("#play-n", "4")
    wait_figure(page, "true")
    tap(page, "#play-deal", mobile)
    for _ in range(4):
        tap(page, "#play-picker button[data-pick='0']", mobile)
    page.wait_for_selector("#play-finish:enabled", timeout=STEP_TIMEOUT_MS)
    tap(page, "#play-finish", mobile)
    page.wait_for_function(SCORED, timeout=WORKER_TIMEOUT_MS)
    order = dealt(page)
    best = guessing.no_feedback_best_guesses(4, 1)
    assert page.get_attribute("#play-score", "data-you") == "1"  # the ace of clubs at every place: right once
    assert page.get_attribute("#play-score", "data-best") == str(sum(g == c for g, c in zip(best, order)))

    # a real deck, typed: the CLI's verdict; then bad input: one line naming it
    deck = standard_deck()
    typed = " ".join(deck.codes(riffle_gsr(deck.ids(), stream("real deck typed"), passes=2)))
    page.fill("#real-order", typed)
    tap(page, "#real-check", mobile)
    expected = json.loads(run_cli("riffles", "--order", typed, "--json"))
    page.wait_for_selector("#real-verdict", state="visible", timeout=STEP_TIMEOUT_MS)
    assert page.text_content("#real-verdict") == expected["sentence"]
    assert page.text_content("#real-rising").startswith(f"{expected['rising']} rising sequences")
    assert page.locator("#real-table-body tr").count() == 21
    page.fill("#real-order", typed.replace("AS", "ZZ", 1))
    tap(page, "#real-check", mobile)
    page.wait_for_selector("#real-error", state="visible", timeout=STEP_TIMEOUT_MS)
    line = page.text_content("#real-error")
    assert "'ZZ'" in line and "\n" not in line and not page.is_visible("#real-result")

    if name == "phone":  # tapped, on the phone (52 taps: about 7 s, so once), with the same picker component
        tap(page, "#real-clear", mobile)
        tapped = riffle_gsr(deck.ids(), stream("real deck tapped"), passes=1)
        for card in tapped:
            tap(page, f"#real-picker button[data-pick='{card}']", mobile)
        page.wait_for_selector("#real-verdict", state="visible", timeout=STEP_TIMEOUT_MS)  # checked at the 52nd card
        codes = " ".join(deck.codes(tapped))
        assert page.input_value("#real-order") == codes
        assert page.text_content("#real-verdict") == json.loads(run_cli("riffles", "--order", codes, "--json"))[
            "sentence"]

    if name == "phone":
        assert page.evaluate(WIDEST) == {"width": 375, "wider": []}
        boxes = page.eval_on_selector_all("#real-picker button", "bs => bs.map(b => b.getBoundingClientRect())"
                                          ".map(r => [r.width, r.height])")
        assert min(w for w, _ in boxes) >= 44 and min(h for _, h in boxes) >= 44, boxes[:3]  # a thumb's target
    assert problems(opened) == []
