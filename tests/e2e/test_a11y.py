"""Accessibility and the form's manners, checked as a keyboard or screen-reader user meets them.

- axe-core (npm, tests only) finds no violation of any impact on the deal view, the notices,
  the loading state, the running lab in each heat-map view and the Play tab, in light and dark mode.
- The tabs follow the ARIA tab pattern; cards are lists of named cards; a deal is announced.
- A rejected value and its notice stick (change, then the submit of the same Enter); the
  notice sits next to its field and describes it; "Shuffle & deal" always shuffles.
- Form controls' borders reach 3:1 against their background.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from e2e_pages import STEP_TIMEOUT_MS, WORKER_TIMEOUT_MS, open_in, quiet_after_each_test, run_tally, settled, url_params

AXE = (Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js").read_text("utf-8")


def axe_violations(page) -> list[str]:
    """Run axe-core on the page as it is; return one line per violation (all impacts)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE)
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .map(v => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map(n => n.target.join(' ')).join(', ')}`)"""
    )
    return found


@pytest.fixture(params=["light", "dark"])
def scheme(request):
    return request.param


@pytest.fixture(scope="module")
def deal(browser, site_url, visit):
    """One deal page shared by the keyboard and form tests."""
    context = browser.new_context()
    try:
        yield open_in(context, f"{site_url}?seed=a11y&players=3&cards=4", visit, "test_a11y: deal")
    finally:
        context.close()


quiet_deal = quiet_after_each_test("deal")


# --- axe, view by view -------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["?seed=axe", "?seed=axe&players=--4&bogus=1&style=%3Cb%3E"],
                         ids=["deal", "notices"])
def test_axe_finds_nothing_on_the_deal_view(browser, site_url, visit, scheme, query):
    context = browser.new_context(color_scheme=scheme, bypass_csp=True)  # axe is injected inline
    try:
        page = open_in(context, site_url + query, visit, f"test_a11y: axe {scheme}").page
        assert axe_violations(page) == []
    finally:
        context.close()


def test_axe_finds_nothing_while_loading(browser, site_url, scheme):
    """Before Python runs: MicroPython held back, so the page stays in its loading state."""
    context = browser.new_context(color_scheme=scheme, service_workers="block", bypass_csp=True)
    try:
        page = context.new_page()
        page.route("**/micropython.wasm", lambda route: None)  # never answered: loading forever
        page.goto(site_url + "?seed=loading")
        page.wait_for_selector("#status[data-state='loading']", state="visible")
        assert axe_violations(page) == []
    finally:
        context.close()


def test_axe_finds_nothing_in_the_running_lab(browser, site_url, visit):
    """Light and dark in one running lab (the scheme switched by emulation), so the worker starts once."""
    schemes = ("light", "dark")
    context = browser.new_context(color_scheme=schemes[0], bypass_csp=True)
    context.add_init_script("navigator.share = () => Promise.resolve();")  # so the Share button shows
    try:
        page = open_in(context, f"{site_url}?view=lab&algo=swap-any&n=12", visit, "test_a11y: lab").page
        page.wait_for_selector("#lab-start:enabled", timeout=WORKER_TIMEOUT_MS)
        page.click("#lab-start")
        page.wait_for_function("() => Number(document.getElementById('trials').textContent.replace(/,/g, '')) > 1000",
                               timeout=WORKER_TIMEOUT_MS)
        # every part open: why bias matters, the figures under the verdict, the riffle chart's legend and table
        page.click("#why > summary")
        page.click("#figures > summary")
        page.wait_for_selector("#riffle-table td", state="attached", timeout=WORKER_TIMEOUT_MS)
        assert page.is_visible("#lab-share") and page.is_visible("#heat-key") and page.is_visible("#stats")
        for scheme in schemes:
            page.emulate_media(color_scheme=scheme)
            assert page.evaluate("s => matchMedia(`(prefers-color-scheme: ${s})`).matches", scheme), scheme
            for view in ("observed", "exact", "difference"):
                page.check(f"input[name='heat'][value='{view}']")
                page.wait_for_function("v => new URLSearchParams(location.search).get('heat') === v || v === 'observed'",
                                       arg=view, timeout=STEP_TIMEOUT_MS)
                assert axe_violations(page) == [], (scheme, view)
        page.select_option("#vs", "riffle-gsr")  # a comparison: every part of the lab twice, side by side
        page.wait_for_function("() => Number(document.getElementById('stats-b').querySelector('dd')?.textContent"
                               ".replaceAll(',', '')) > 1000", timeout=WORKER_TIMEOUT_MS)
        page.click("#figures-b > summary")
        for scheme in schemes:
            page.emulate_media(color_scheme=scheme)
            assert axe_violations(page) == [], (scheme, "compared")
        page.click("#lab-pause")
    finally:
        context.close()


def test_axe_finds_nothing_on_the_play_view(browser, site_url, visit):
    """Light and dark in one page (the scheme switched by emulation): a game scored, a real deck's error and result."""
    context = browser.new_context(bypass_csp=True)
    try:
        page = open_in(context, f"{site_url}?view=play", visit, "test_a11y: play").page
        page.select_option("#play-n", "4")
        page.wait_for_function("() => document.getElementById('play-expected').dataset.exact === 'true'",
                               timeout=WORKER_TIMEOUT_MS)
        page.click("#play-deal")
        page.click("#play-picker button[data-pick='0']")
        page.click("#play-picker button:enabled")
        page.click("#play-finish")  # stopped after two cards: the rest face up, "not played"
        page.wait_for_function("() => document.getElementById('play-score').dataset.best !== undefined",
                               timeout=WORKER_TIMEOUT_MS)
        page.fill("#real-order", "AC 2C")
        page.click("#real-check")
        page.wait_for_selector("#real-error", state="visible", timeout=STEP_TIMEOUT_MS)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert axe_violations(page) == [], (scheme, "game over, bad order")
        page.fill("#real-order", "AC 2C 3C 4C 5C 6C 7C 8C 9C 0C JC QC KC AD 2D 3D 4D 5D 6D 7D 8D 9D 0D JD QD KD "
                  "AH 2H 3H 4H 5H 6H 7H 8H 9H 0H JH QH KH AS 2S 3S 4S 5S 6S 7S 8S 9S 0S JS QS KS")
        page.click("#real-check")
        page.wait_for_selector("#real-result", state="visible", timeout=STEP_TIMEOUT_MS)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert axe_violations(page) == [], (scheme, "a real deck's result")
    finally:
        context.close()


# What a screen reader would announce in the lab: every text change inside a live region (aria-live
# polite or assertive, or role status, alert or log), unless an aria-busy region holds it back.
HEAR_THE_LAB = """() => {
  const POLITENESS = {status: 'polite', alert: 'assertive', log: 'polite'};
  const region = node => {
    for (let e = node.nodeType === 1 ? node : node.parentElement; e; e = e.parentElement) {
      if (e.getAttribute('aria-busy') === 'true') return null;
      const live = e.getAttribute('aria-live') || POLITENESS[e.getAttribute('role')];
      if (live) return live === 'off' ? null : e;
    }
    return null;
  };
  const trials = document.getElementById('trials');
  window.__heard = [];
  window.__counted = 0;
  new MutationObserver(records => {
    for (const record of records) {
      const live = region(record.target);
      if (live) window.__heard.push(`${live.id}: ${live.textContent}`);
      if (trials.contains(record.target)) window.__counted++;
    }
  }).observe(document.getElementById('lab-panel'), {subtree: true, childList: true, characterData: true});
}"""


def test_the_lab_announces_its_status_but_not_its_counters(browser, site_url, visit):
    """The status line is a polite live region; the shuffle counter, redrawn five times a second, is not in one."""
    context = browser.new_context()
    try:
        page = open_in(context, f"{site_url}?view=lab&algo=swap-any&n=12", visit, "test_a11y: lab status").page
        assert page.get_attribute("#lab-status", "role") == "status"
        page.wait_for_selector("#lab-start:enabled", timeout=WORKER_TIMEOUT_MS)
        page.evaluate(HEAR_THE_LAB)
        page.click("#lab-start")
        page.wait_for_function("() => window.__counted >= 10", timeout=WORKER_TIMEOUT_MS)  # two seconds of counting
        page.click("#lab-pause")
        page.wait_for_function("() => document.getElementById('lab-status').textContent === 'Paused.'",
                               timeout=STEP_TIMEOUT_MS)
        heard = page.evaluate("window.__heard")
        # the counters: never; the status line, and the verdict when it changes ("Biased: …"), once each
        assert heard and all(said.startswith(("lab-status: ", "verdict-said: ")) for said in heard), heard
        assert "lab-status: Running…" in heard and heard[-1] == "lab-status: Paused.", heard
        verdicts = [said for said in heard if said.startswith("verdict-said: ")]
        assert verdicts and verdicts[-1].startswith("verdict-said: Biased: ") and len(verdicts) <= 3, heard
        assert len(heard) <= 6, heard  # a word when the state or the verdict changes, not a stream
    finally:
        context.close()


# --- the tabs ----------------------------------------------------------------------------------


def test_tabs_follow_the_aria_tab_pattern(deal):
    page = deal.page
    assert page.get_attribute("#tab-deal", "tabindex") == "0"
    assert page.get_attribute("#tab-lab", "tabindex") == "-1"
    page.focus("#tab-deal")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => new URLSearchParams(location.search).get('view') === 'lab'", timeout=STEP_TIMEOUT_MS)
    assert page.evaluate("document.activeElement.id") == "tab-lab"
    assert page.get_attribute("#tab-lab", "aria-selected") == "true"
    assert (page.get_attribute("#tab-lab", "tabindex"), page.get_attribute("#tab-deal", "tabindex")) == ("0", "-1")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => new URLSearchParams(location.search).get('view') === 'play'", timeout=STEP_TIMEOUT_MS)
    assert page.evaluate("document.activeElement.id") == "tab-play"
    assert page.is_visible("#play-panel") and not page.is_visible("#controls")
    page.keyboard.press("ArrowRight")  # wraps to the first tab
    page.wait_for_function("() => !new URLSearchParams(location.search).has('view')", timeout=STEP_TIMEOUT_MS)
    assert page.evaluate("document.activeElement.id") == "tab-deal"
    page.keyboard.press("End")
    page.wait_for_function("() => new URLSearchParams(location.search).get('view') === 'play'", timeout=STEP_TIMEOUT_MS)
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => new URLSearchParams(location.search).get('view') === 'lab'", timeout=STEP_TIMEOUT_MS)
    page.keyboard.press("Home")
    page.wait_for_function("() => !new URLSearchParams(location.search).has('view')", timeout=STEP_TIMEOUT_MS)
    assert page.is_visible("#deal-panel")


# --- cards that can be heard ----------------------------------------------------------------------


def test_the_deck_and_each_hand_are_lists_of_named_cards(deal):
    page = deal.page
    assert page.evaluate("document.getElementById('deck').tagName") == "OL"
    names = page.eval_on_selector_all("#deck > li", "cards => cards.map(c => c.getAttribute('aria-label'))")
    assert len(names) == 52
    pattern = re.compile(r"(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
                         r"(clubs|diamonds|hearts|spades), (\d+) of 52")
    assert all(pattern.fullmatch(name) for name in names), names[:5]
    assert [int(pattern.fullmatch(name).group(3)) for name in names] == list(range(1, 53))
    hands = page.eval_on_selector_all("#hands ol", "lists => lists.map(l => [l.getAttribute('aria-label'), l.children.length])")
    assert hands == [["Player 1's hand", 4], ["Player 2's hand", 4], ["Player 3's hand", 4]]
    said = page.text_content("#deal-announcement")
    assert said.startswith("Shuffled 52 cards with Fisher–Yates") and "dealt 3 hands of 4" in said, said
    assert page.get_attribute("#deal-announcement", "aria-live") == "polite"


def test_jokers_are_named_by_colour(browser, site_url, visit):
    context = browser.new_context()
    try:
        page = open_in(context, f"{site_url}?seed=j&jokers=2&algo=none&players=1&cards=0", visit, "test_a11y: jokers").page
        names = page.eval_on_selector_all("#deck > li", "cards => cards.slice(-2).map(c => c.getAttribute('aria-label'))")
        assert names == ["black joker, 53 of 54", "red joker, 54 of 54"]
    finally:
        context.close()



# --- the form's manners ---------------------------------------------------------------------------


def test_a_rejected_value_and_its_notice_stick_after_enter(deal):
    page = deal.page
    before = page.url
    page.fill("#players", "1.5")
    page.press("#players", "Enter")  # fires change (the notice), then submit (which must not erase it)
    page.wait_for_selector("#players-notice", state="visible", timeout=STEP_TIMEOUT_MS)
    settled(page)  # what the submit does at once has happened
    notice = page.text_content("#players-notice")
    assert notice == "Players '1.5' is not a whole number from 1 to 52; using 3.", notice  # the deal's 3 players
    assert page.get_attribute("#players", "aria-describedby") == "players-notice"
    assert page.get_attribute("#players", "aria-invalid") == "true"
    assert page.input_value("#players") == "1.5"  # what was typed stays, marked, until it is fixed
    assert url_params(page.url)["players"] == "3"
    assert url_params(page.url)["seed"] == url_params(before)["seed"], "the submit reshuffled"
    assert "Players '1.5'" in page.text_content("#notices")
    page.fill("#players", "3")  # fixed: the next tests start from a valid form
    page.press("#players", "Enter")
    page.wait_for_selector("#players-notice", state="detached", timeout=STEP_TIMEOUT_MS)


def test_a_seed_with_a_zero_width_joiner_is_a_seed(deal):
    page = deal.page
    seed = "می\u200cخواهم 👨\u200d👩\u200d👧"
    page.fill("#seed", seed)
    page.press("#seed", "Enter")
    page.wait_for_function("s => new URLSearchParams(location.search).get('seed') === s", arg=seed,
                           timeout=STEP_TIMEOUT_MS)
    settled(page)  # what the submit does at once has happened
    assert page.input_value("#seed") == seed
    assert page.is_hidden("#notices")
    assert page.query_selector("#seed-notice") is None


def test_a_typed_seed_is_dealt_as_typed_however_late_the_press(deal):
    """A seed typed, then Tab through a field left as it was, then a pause before "Shuffle & deal": the press deals
    the typed seed (it used to draw a fresh one once 400 ms had passed since the last change: a busy machine's
    test, or a slow person, lost the seed)."""
    page = deal.page
    page.fill("#seed", "typed, then a pause")
    page.press("#seed", "Tab")  # the change applies it
    page.wait_for_function("() => new URLSearchParams(location.search).get('seed') === 'typed, then a pause'",
                           timeout=STEP_TIMEOUT_MS)
    page.press("#players", "Tab")  # a field passed through, its value unchanged: no change event
    page.wait_for_timeout(600)  # a person's pause: longer than the old window, so the old build fails here
    page.click("#shuffle")
    settled(page)  # what the click does at once has happened
    assert url_params(page.url)["seed"] == "typed, then a pause"
    assert page.input_value("#seed") == "typed, then a pause"


def test_shuffle_and_deal_always_shuffles(deal):
    page = deal.page
    page.fill("#seed", "typed seed")
    page.click("#shuffle")  # the change (on blur) applies the typed seed; the click confirms it
    page.wait_for_function("() => new URLSearchParams(location.search).get('seed') === 'typed seed'",
                           timeout=STEP_TIMEOUT_MS)
    settled(page)  # what the click does at once has happened
    assert url_params(page.url)["seed"] == "typed seed"
    deck = page.eval_on_selector_all("#deck > li", "cards => cards.map(c => c.dataset.card).join()")
    page.click("#shuffle")  # nothing changed since the last press: a new shuffle with a fresh seed
    page.wait_for_function("() => new URLSearchParams(location.search).get('seed') !== 'typed seed'",
                           timeout=STEP_TIMEOUT_MS)
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", url_params(page.url)["seed"])
    assert page.eval_on_selector_all("#deck > li", "cards => cards.map(c => c.dataset.card).join()") != deck
    page.go_back()  # the previous deal is one Back away
    page.wait_for_function("() => new URLSearchParams(location.search).get('seed') === 'typed seed'",
                           timeout=STEP_TIMEOUT_MS)


def test_form_controls_have_borders_of_three_to_one(browser, site_url, visit, scheme):
    context = browser.new_context(color_scheme=scheme)
    try:
        page = open_in(context, f"{site_url}?seed=contrast", visit, f"test_a11y: contrast {scheme}").page
        ratios = page.evaluate("""() => {
            const rgb = s => s.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
            const lum = c => c.map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
                              .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
            const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
            const behind = el => { for (let e = el.parentElement; e; e = e.parentElement) {
                const c = getComputedStyle(e).backgroundColor; if (!c.endsWith(', 0)') && c !== 'transparent') return rgb(c); }
                return [255, 255, 255]; };
            return [...document.querySelectorAll('#controls input[type=number], #controls input[type=text], #controls select')]
                .filter(el => el.offsetParent)
                .map(el => [el.id, ratio(rgb(getComputedStyle(el).borderTopColor), behind(el))]);
        }""")
        low = [(name, round(r, 2)) for name, r in ratios if r < 3]
        assert ratios and not low, low
    finally:
        context.close()


# --- the heat map without a mouse and without sight -----------------------------------------------


def test_the_heat_map_can_be_read_by_keyboard_touch_and_in_words(browser, site_url, visit):
    context = browser.new_context(has_touch=True)
    try:
        page = open_in(context, f"{site_url}?view=lab&algo=none&n=6", visit, "test_a11y: heat map").page
        run_tally(page, 100)
        # no shuffle at all: every card stays, so the diagonal is 6× uniform and the rest 0×
        page.wait_for_function("() => document.getElementById('heat-summary').textContent.startsWith('Most')",
                               timeout=STEP_TIMEOUT_MS)
        assert "6.00× as often as uniform" in page.text_content("#heat-summary")
        assert "0.00× as often as uniform" in page.text_content("#heat-summary")
        assert "heat-summary" in page.get_attribute("#heatmap", "aria-describedby")

        page.focus("#heatmap")
        page.keyboard.press("ArrowDown")  # the first cell
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowDown")
        said = page.text_content("#heat-cell")
        assert said.startswith("the card that started 2nd from the top ended 2nd from the top · count"), said
        assert page.is_visible("#heat-tooltip") and page.text_content("#heat-tooltip") == said

        page.keyboard.press("Tab")  # leaving the map hides the tooltip
        assert page.is_hidden("#heat-tooltip")
        box = page.locator("#heatmap").bounding_box()
        page.tap("#heatmap", position={"x": box["width"] * 4.5 / 6, "y": box["height"] * 0.5 / 6})
        page.wait_for_selector("#heat-tooltip:visible", timeout=STEP_TIMEOUT_MS)
        assert page.text_content("#heat-tooltip").startswith("the card that started on top ended 5th from the top · count 0 of")
    finally:
        context.close()


def test_the_legend_survives_forced_colours_and_nothing_moves_for_reduced_motion(browser, site_url, visit):
    context = browser.new_context(forced_colors="active", reduced_motion="reduce")
    try:
        page = open_in(context, f"{site_url}?view=lab&n=8", visit, "test_a11y: forced colours").page
        bar = "getComputedStyle(document.querySelector('.heat-legend-bar'))"
        assert page.evaluate("matchMedia('(forced-colors: active)').matches")
        assert "linear-gradient" in page.evaluate(f"{bar}.backgroundImage")
        assert page.evaluate(f"{bar}.forcedColorAdjust") == "none"
        assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
        assert page.evaluate("getComputedStyle(document.getElementById('lab-start')).transitionDuration") in ("0s", "")
    finally:
        context.close()


# Every token of the code editor (in its shadow root) against what is behind it, translucent layers blended in.
EDITOR_CONTRAST = """() => {
  const root = document.querySelector('#mine .code-editor').shadowRoot;
  const parse = s => { const v = s.match(/[\\d.]+/g).map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
  const over = (top, under) => top.slice(0, 3).map((c, i) => c * top[3] + under[i] * (1 - top[3]));
  const behind = el => { const layers = [];
    for (let e = el; e; e = e.parentElement || (e.getRootNode().host ?? null)) {
      const c = parse(getComputedStyle(e).backgroundColor); if (c[3] > 0) layers.push(c); if (c[3] === 1) break; }
    let rgb = [255, 255, 255]; for (const c of layers.reverse()) rgb = over(c, rgb); return rgb; };
  const lum = c => c.map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
                    .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  return [...root.querySelectorAll('.cm-line, .cm-line *, .cm-gutterElement')].filter(e => e.textContent.trim())
    .map(e => [e.textContent.slice(0, 20), ratio(over(parse(getComputedStyle(e).color), behind(e)), behind(e))]);
}"""


def test_the_code_editor_reads_well_in_light_and_dark(browser, site_url, visit):
    """Every token reaches 4.5:1 on its background, and axe finds nothing with the editor open, in both schemes."""
    context = browser.new_context(color_scheme="light", bypass_csp=True)  # axe is injected inline
    try:
        page = open_in(context, f"{site_url}?view=lab&n=8", visit, "test_a11y: editor").page
        page.click("#mine summary")
        page.wait_for_selector("#mine .cm-editor .cm-line", timeout=STEP_TIMEOUT_MS)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            low = [(text, round(r, 2)) for text, r in page.evaluate(EDITOR_CONTRAST) if r < 4.5]
            assert low == [], (scheme, low)
            assert axe_violations(page) == [], scheme
    finally:
        context.close()
