"""The bias lab in plain words and shared (issue 19, items 5, 6 and the page's part of 2), on a desktop and a phone.

One page load per profile drives everything a user meets, in order:
- the riffle table shows the very figures `riffle-distances` prints for the lab's n, each line of the chart is named
  with what it means for a bet, and the table (a row per riffle) fits without scrolling sideways;
- the heat map's key says in words what the colours of the view drawn mean, and changes with the view;
- the verdict is one plain sentence, its test and figures one click away;
- Copy link puts the lab's URL on the clipboard; Share shows only where navigator.share exists, and shares that URL
  (the phone's context defines navigator.share, the desktop's Chromium on Linux has none);
- "Your shuffle" joins the algorithm menu once it has run, a built-in leaves it, and (on the desktop: it starts a
  new sandbox, which the phone's menu would only repeat) choosing it again switches back to it.
"""

from __future__ import annotations

import json
import re

import pytest
from e2e_pages import STEP_TIMEOUT_MS, WORKER_TIMEOUT_MS, open_in, problems, run_cli, url_params
from test_phone import WIDEST

from conftest import PHONE, PROFILES
from shufflelab.codelink import unpack_code
from shufflelab.riffles import DISTANCE_MEANINGS

N = 8
VERDICT_TIMEOUT_MS = 90_000
# a share sheet that records what it was given, as a browser with the Web Share API offers one
FAKE_SHARE = "navigator.share = data => { window.__shared = JSON.parse(JSON.stringify(data)); return Promise.resolve(); };"


@pytest.fixture(params=list(PROFILES))
def screen(request, browser, site_url):
    """A fresh context on each profile, allowed the clipboard; the phone's browser has navigator.share."""
    profile = PROFILES[request.param]
    context = browser.new_context(**profile, permissions=["clipboard-read", "clipboard-write"])
    if request.param == "phone":
        context.add_init_script(FAKE_SHARE)
    yield request.param, context
    context.close()


def riffle_table(page) -> dict:
    return page.evaluate("""() => Object.fromEntries(['tv', 'separation', 'kl'].map(kind => [kind,
        [...document.querySelectorAll(`#riffle-table td[data-distance=${kind}]`)].map(c => c.textContent)]))""")


def key(page) -> tuple[str, str]:
    return page.text_content("#heat-key-title"), page.text_content("#heat-key-text")


def choose_heat(page, view: str, title: str) -> tuple[str, str]:
    page.check(f"input[name='heat'][value='{view}']")
    page.wait_for_function("t => document.getElementById('heat-key-title').textContent === t", arg=title,
                           timeout=STEP_TIMEOUT_MS)
    return key(page)


def test_the_lab_speaks_plainly_and_shares_itself(screen, site_url, visit):
    name, context = screen
    tap = name == "phone"
    opened = open_in(context, f"{site_url}?view=lab&algo=swap-any&n={N}", visit, f"test_lab_words: {name}")
    page = opened.page
    click = page.tap if tap else page.click
    page.wait_for_selector("#lab-start:enabled", timeout=WORKER_TIMEOUT_MS)

    # the riffle chart: the CLI's figures, three named lines, and what each means for a bet
    page.wait_for_selector(f'#riffle-chart[data-n="{N}"]', state="attached", timeout=STEP_TIMEOUT_MS)
    printed = run_cli("riffle-distances", "--cards", str(N), "--max-k", "12").splitlines()[2:14]
    rows = json.loads(run_cli("riffle-distances", "--cards", str(N), "--max-k", "12", "--json"))["distances"]
    shown = riffle_table(page)
    assert [[str(k), *cells] for k, cells in enumerate(zip(shown["tv"], shown["separation"], shown["kl"]), 1)] == [
        line.split() for line in printed]
    assert [float(x) for x in shown["tv"]] == pytest.approx([row["tv_value"] for row in rows], abs=5e-7)
    assert [float(x) for x in shown["separation"]] == pytest.approx([row["separation_value"] for row in rows], abs=5e-7)
    assert [float(x) for x in shown["kl"]] == pytest.approx([row["kl_bits"] for row in rows], rel=1e-5)
    assert page.eval_on_selector_all("#riffle-chart polyline.line", "lines => lines.map(l => l.classList[1])") == [
        "tv", "separation", "kl"]
    for distance, _, meaning in DISTANCE_MEANINGS:
        assert page.text_content(f'#riffle-legend [data-distance="{distance}"] .meaning') == f": {meaning}."
    # told apart without colour: each line its own dashes
    dashes = page.eval_on_selector_all("#riffle-chart polyline.line", "ls => ls.map(l => getComputedStyle(l).strokeDasharray)")
    assert len(set(dashes)) == 3, dashes
    scroll = page.evaluate("() => (b => [b.scrollWidth, b.clientWidth])(document.querySelector('.table-scroll'))")
    assert scroll[0] <= scroll[1], "the riffle table scrolls sideways"  # a row per riffle: it fits, phone included

    # the key, before and while the tally runs
    click("#lab-start")
    page.wait_for_selector("#heat-key:visible", timeout=STEP_TIMEOUT_MS)
    observed = key(page)
    assert observed[0] == "Observed ÷ uniform." and "2× or more" in observed[1] and "½× or less" in observed[1]
    page.wait_for_function("() => document.getElementById('verdict').dataset.verdict === 'biased'",
                           timeout=VERDICT_TIMEOUT_MS)
    click("#lab-pause")
    page.wait_for_function("() => document.getElementById('lab-status').textContent === 'Paused.'",
                           timeout=STEP_TIMEOUT_MS)

    # the verdict: one plain sentence; the test and its figures one click away
    sentence = page.text_content("#verdict")
    place = r"(on top|at the bottom|\d+\w\w from the top)"
    assert re.match(rf"Biased: (\S+|the card that started {place}) ends up {place} ", sentence), sentence
    assert sentence.endswith(", more than chance can explain."), sentence
    assert not re.search(r"\bp\s*[=≈<]", sentence) and "χ²" not in sentence
    assert not page.is_visible("#stats") and not page.is_visible("#verdict-detail")
    click("#figures > summary")
    page.wait_for_selector("#stats:visible", timeout=STEP_TIMEOUT_MS)
    assert page.text_content("#verdict-detail").startswith("Biased: p ")
    assert "χ² against uniform" in page.eval_on_selector_all("#stats dt", "ts => ts.map(t => t.textContent)")
    if tap:  # the running lab, its figures open, never scrolls sideways on a phone
        assert page.evaluate(WIDEST) == {"width": PHONE["width"], "wider": []}

    assert choose_heat(page, "exact", "Exact ÷ uniform.")[1] != observed[1]
    difference = choose_heat(page, "difference", "Observed − exact.")
    assert "+4σ" in difference[1] and "−4σ" in difference[1]
    choose_heat(page, "observed", "Observed ÷ uniform.")

    # Copy link: the lab's own URL; Share only where the browser has it
    page.evaluate("navigator.clipboard.writeText('')")
    click("#lab-copy-link")
    page.wait_for_function("() => document.getElementById('lab-copy-status').textContent === 'Link copied.'",
                           timeout=STEP_TIMEOUT_MS)
    assert page.evaluate("navigator.clipboard.readText()") == page.url
    assert url_params(page.url)["view"] == "lab"
    has_share = page.evaluate("'share' in navigator")
    assert has_share == (name == "phone")
    assert page.is_visible("#lab-share") == has_share
    if has_share:
        click("#lab-share")
        page.wait_for_function("() => window.__shared !== undefined", timeout=STEP_TIMEOUT_MS)
        assert page.evaluate("window.__shared.url") == page.url

    # "Your shuffle": in the menu once it has run; a built-in, then back to it
    assert page.query_selector("#algorithm option[value='custom']") is None
    click("#mine > summary")
    page.wait_for_function("() => !document.getElementById('custom-run').disabled", timeout=WORKER_TIMEOUT_MS)
    click("#custom-run")
    yours = "() => document.getElementById('algorithm').value === 'custom'" \
            " && document.querySelector('#verdict-side .side-title').textContent === 'Your shuffle'"
    page.wait_for_function(yours, timeout=WORKER_TIMEOUT_MS)
    code = unpack_code(url_params(page.url)["code"])
    assert code == page.input_value("#custom-code")  # the link carries the code that runs (and never runs it)
    page.select_option("#algorithm", "fisher-yates")
    page.wait_for_function("() => document.querySelector('#verdict-side .side-title').hidden", timeout=STEP_TIMEOUT_MS)
    assert url_params(page.url)["algo"] == "fisher-yates"
    assert page.is_visible("#algo-description") and not page.is_visible("#algo-yours")
    if name == "desktop":  # back to it starts a new sandbox (seconds): once is enough, the menu is the same on a phone
        page.select_option("#algorithm", "custom")
        page.wait_for_function(yours, timeout=WORKER_TIMEOUT_MS)
        assert url_params(page.url)["algo"] == "fisher-yates"  # the deal's algorithm is untouched
        assert page.is_visible("#algo-yours") and not page.is_visible("#algo-description")
        page.wait_for_function("() => Number(document.getElementById('trials').textContent.replace(/,/g, '')) > 0",
                               timeout=WORKER_TIMEOUT_MS)
        click("#lab-pause")
    # the deal view cannot deal with the user's code: its menu shows the deal's algorithm, and no entry for it
    click("#tab-deal")
    page.wait_for_selector("#deal-panel:visible", timeout=STEP_TIMEOUT_MS)
    assert page.input_value("#algorithm") == "fisher-yates"
    assert page.evaluate("document.querySelector('#algorithm option[value=custom]').disabled")
    assert problems(opened) == []
