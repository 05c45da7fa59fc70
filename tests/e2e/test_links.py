"""Links opened directly: the page deals what the CLI deals, hostile links never hurt it, and
the browser's Back and Forward walk through the deals.

One page (one browser context) serves the whole module and is navigated from link to link,
waiting for data-ready="true" each time: a navigation costs well under a second where a new
context costs more. After every test the page made no request off its origin, had no failed
request, logged no console error and opened no dialog.

- Deals: every algorithm of the catalog with every deal style, the decks rotating so that each
  algorithm meets three deck kinds and each group of the algorithm menu (unbiased, biased)
  meets all five (standard, two packs with jokers, piquet, euchre, 60 numbered items): a
  covering design, not the full product. Each is compared card for card with
  `python -m shufflelab deal --json`.
- Hostile values: each value goes into every URL key, in the few URLs needed for each key to
  apply (passes needs an algorithm with passes, size a numbered deck...). The page gets ready,
  shows the cards CPython deals for the link it settled on, runs no injected script, opens no
  dialog, and lists a notice quoting every invalid value, the same notices CPython's
  `read_link` gives.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote, quote_plus, urlsplit

import pytest
from e2e_pages import (
    STEP_TIMEOUT_MS,
    assert_shows,
    cli_for_url,
    notice_texts,
    open_in,
    problems,
    quiet_after_each_test,
    url_params,
)

from shufflelab import catalog
from shufflelab.link import FIELD_BY_KEY, FIELDS, play, read_link

# --- the deals: a covering design ----------------------------------------------------------------

STYLES = ("round-robin", "blocks", "pick")
DECKS = {  # deck kind -> (its URL parameters, its size)
    "standard": ("deck=standard", 52),
    "2 packs + 2 jokers": ("deck=standard&packs=2&jokers=2", 108),
    "piquet": ("deck=piquet", 32),
    "euchre": ("deck=euchre", 24),
    "numbered 60": ("deck=numbered&size=60", 60),
}
PARAM_VALUES = {"passes": (None, 3, 12), "repetitions": (None, 500, 2)}  # None: the default (omitted)


def deal_links() -> dict[str, str]:
    """Return {test id: query}: each algorithm with each style; decks rotate by 3 a step."""
    deck_names = list(DECKS)
    links = {}
    for i, algo in enumerate(catalog.ids()):
        for s, style in enumerate(STYLES):
            deck_name = deck_names[(3 * i + s) % len(deck_names)]
            deck, size = DECKS[deck_name]
            players = 1 + (i + 2 * s) % 6
            cards = min(2 + (i * 3 + s) % 7, size // players)
            seed = f"links {algo} {s}" + (" ♠ é &=?#" if s == 2 else "")
            query = f"v=1&algo={algo}&seed={quote_plus(seed)}&{deck}&players={players}&cards={cards}&style={style}"
            for param in catalog.get(algo).params:
                value = PARAM_VALUES.get(param.name, (None,))[s]
                if value is not None:
                    query += f"&{param.name}={value}"
            links[f"{algo}, {style}, {deck_name}"] = query
    return links


DEAL_LINKS = deal_links()


def test_the_design_covers_every_algorithm_style_and_deck():
    groups = {catalog.get(algo).verdict for algo in catalog.ids()}
    for name in catalog.ids():
        assert {s for key in DEAL_LINKS for s in STYLES if key.startswith(f"{name}, {s},")} == set(STYLES)
    for verdict in groups:
        algos = [a for a in catalog.ids() if catalog.get(a).verdict == verdict]
        decks = {key.rsplit(", ", 1)[1] for key in DEAL_LINKS if key.split(", ")[0] in algos}
        assert decks == set(DECKS), verdict


# --- one page for the module ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def tab(browser, site_url, visit):
    """One page, loaded once; tests navigate it (Visit.goto) and leave it usable."""
    context = browser.new_context()
    try:
        opened = open_in(context, site_url, visit, "test_links: first load")
        opened.site_url = site_url
        opened.context = context
        opened.clean_counts = opened.page.evaluate(MARKUP_COUNTS)
        yield opened
    finally:
        context.close()


quiet_tab = quiet_after_each_test("tab")


@pytest.fixture(scope="module")
def references(site_url):
    """The CLI's answer for every deal link, computed in the background while the page works."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        yield {key: pool.submit(cli_for_url, site_url + "?" + query) for key, query in DEAL_LINKS.items()}


def open_link(tab, query: str) -> None:
    tab.visit.goto(tab.site_url + "?" + query)


# --- 1. every algorithm, style and deck, card for card with the CLI ------------------------------


@pytest.mark.parametrize("key", list(DEAL_LINKS))
def test_a_link_shows_what_the_cli_deals(tab, references, key):
    page = tab.page
    open_link(tab, DEAL_LINKS[key])
    expected = references[key].result(timeout=120)
    assert_shows(page, expected, key)
    assert urlsplit(page.url).query == expected["query"], "the page rewrote the link differently"
    assert page.is_hidden("#notices"), notice_texts(page)
    assert page.input_value("#algorithm") == expected["algo"]
    assert page.input_value("#deal-style") == expected["style"]
    assert page.input_value("#seed") == expected["seed"]


# --- 2. hostile links ------------------------------------------------------------------------------

TRAP = '<img src=x onerror="window.__pwned=1">'
HOSTILE = {  # name -> (text the key carries, how it is written in the URL)
    "--4": ("--4", None),
    "1e309": ("1e309", None),
    "-0": ("-0", None),
    "NaN": ("NaN", None),
    "0x10": ("0x10", None),
    "%FF (not UTF-8)": (None, "%FF"),
    "% alone": ("%", "%"),
    "img onerror": (TRAP, None),
    "svg onload": ('"><svg onload="window.__pwned=1">', None),
    "javascript: URL": ("javascript:alert(1)", None),
    "10,000 characters": ("9" * 10_000, None),
    "RTL override": ("\u202e4", None),
    "zero-width joiner": ("4\u200d", None),
}
# Each key with the other values it needs to apply (a parameter only counts for an algorithm
# that has it, size only for numbered decks, packs and jokers only for playing cards).
CONTEXTS = {
    "riffle, standard": ("algo=riffle-gsr&deck=standard",
                         ["v", "passes", "seed", "packs", "jokers", "players", "cards", "style",
                          "view", "n", "heat", "tseed"]),
    "cut-insert, numbered": ("algo=cut-insert&deck=numbered", ["repetitions", "size"]),
    "defaults": ("", ["algo", "deck"]),
}
MAX_QUERY = 50_000  # the test server (http.server) refuses request lines over 64 KiB


def hostile_links() -> dict[str, tuple[str, list[str], str | None]]:
    """Return {test id: (query, hostile keys, their text)}, splitting URLs that would be too long."""
    links = {}
    for name, (text, written) in HOSTILE.items():
        written = written if written is not None else quote(text, safe="")
        for context, (base, keys) in CONTEXTS.items():
            chunks = [keys]
            while max(len(chunk) for chunk in chunks) * (len(written) + 16) > MAX_QUERY:
                chunks = [half for chunk in chunks for half in (chunk[: len(chunk) // 2], chunk[len(chunk) // 2:]) if half]
            for n, chunk in enumerate(chunks):
                query = "&".join(([base] if base else []) + [f"{key}={written}" for key in chunk])
                suffix = f" {n + 1}/{len(chunks)}" if len(chunks) > 1 else ""
                links[f"{name} in {context}{suffix}"] = (query, chunk, text)
    return links


HOSTILE_LINKS = hostile_links()


def is_invalid(key: str, text: str | None) -> bool:
    """Whether the field table's kind and limits refuse `text` for `key` (None: not UTF-8)."""
    field = FIELD_BY_KEY[key]
    if text is None:
        return True
    if field.kind in ("choice", "version"):
        return not (text in field.options() if field.kind == "choice" else text == "1")
    if field.kind == "whole":
        return not (text in ("-0", "0") and field.low <= 0 <= field.high)  # "-0" spells zero
    return not 1 - (field.kind == "text") <= len(text) <= field.high  # seed, tseed: only length counts here


# elements an injected value could add; the page's own (its scripts, the lab's charts) stay as many
MARKUP_COUNTS = """() => Object.fromEntries(['script', 'img', 'svg', 'iframe', '[onerror]', '[onload]', '[href^="javascript"]']
    .map(selector => [selector, document.querySelectorAll(selector).length]))"""


def check_unharmed(tab) -> None:
    """The page is ready, shows cards, opened no dialog and ran nothing injected."""
    page = tab.page
    assert page.evaluate("document.documentElement.dataset.ready") == "true"
    assert page.evaluate("window.__pwned") is None, "an injected script ran"
    assert tab.dialogs == [], tab.dialogs
    assert page.evaluate(MARKUP_COUNTS) == tab.clean_counts, "markup was injected"
    assert page.evaluate("document.querySelectorAll('#deck .card').length") > 0
    assert page.is_enabled("#shuffle")


def check_agrees_with_cpython(page, query: str) -> list[str]:
    """The page settled on the link CPython's read_link makes of `query` (with the page's fresh
    seed where one was drawn), with the same notices, and deals its cards; return the notices."""
    settled = url_params(page.url)
    link, expected_notices = read_link(query, lambda: settled["seed"])
    assert urlsplit(page.url).query == link.to_query()
    got = notice_texts(page)
    assert got == [str(n) + "." for n in expected_notices]
    outcome = play(link.deal)
    assert_shows(page, {"order": outcome.order, "hands": outcome.deal.hands, "stock": outcome.deal.stock})
    return got


@pytest.mark.parametrize("key", list(HOSTILE_LINKS))
def test_a_hostile_link_never_hurts_the_page(tab, key):
    query, keys, text = HOSTILE_LINKS[key]
    open_link(tab, query)
    page = tab.page
    check_unharmed(tab)
    check_agrees_with_cpython(page, query)
    fields = page.eval_on_selector_all("#notices li", "items => items.map(i => [i.dataset.field, i.textContent])")
    for name in keys:
        said = [t for f, t in fields if f == name]
        if not is_invalid(name, text):
            assert said == [], f"{name}={text[:40]!r} is valid, yet: {said}"
            continue
        assert len(said) == 1, f"no notice for {name}: {fields}"
        label = FIELD_BY_KEY[name].label
        assert said[0].lower().startswith(label.lower()) or label.lower() in said[0].lower(), said[0]
        if text is None:
            assert "UTF-8" in said[0], said[0]
        else:
            assert text[:30] in said[0], f"the notice does not quote {text[:30]!r}: {said[0]}"
            assert len(said[0]) < 300, "the notice echoes the whole value"


def test_repeated_keys_take_the_first_and_tracking_keys_are_ignored(tab):
    query = (f"v=1&players=3&players={quote(TRAP)}&algo=splice&algo=nope&seed=first&seed=second"
             "&utm_source=news&utm_medium=email&fbclid=abc&gclid=def&cards=4&style=blocks")
    open_link(tab, query)
    page = tab.page
    check_unharmed(tab)
    assert check_agrees_with_cpython(page, query) == []
    assert page.is_hidden("#notices")
    settled = url_params(page.url)
    assert (settled["players"], settled["algo"], settled["seed"]) == ("3", "splice", "first")
    assert not {"utm_source", "utm_medium", "fbclid", "gclid"} & set(settled)
    assert_shows(page, cli_for_url(page.url))


def test_a_repeated_hostile_key_is_named_once(tab):
    open_link(tab, "v=1&players=--4&players=3&seed=r")
    check_unharmed(tab)
    texts = check_agrees_with_cpython(tab.page, "v=1&players=--4&players=3&seed=r")
    assert len(texts) == 1 and "'--4'" in texts[0], texts
    assert tab.page.input_value("#players") == "4"  # the first value wins; it is invalid: default


def test_300_unknown_keys_give_one_short_notice(tab):
    junk = "&".join(f"k{n}={quote(TRAP)}" for n in range(300))
    query = f"v=1&seed=many&{junk}&players=2&cards=3"
    open_link(tab, query)
    check_unharmed(tab)
    texts = check_agrees_with_cpython(tab.page, query)
    assert len(texts) == 1, texts
    assert "300" in texts[0] and "'k0'" in texts[0] and len(texts[0]) < 200, texts
    assert set(url_params(tab.page.url)) <= {f.key for f in FIELDS}


def test_a_newer_stream_version_says_so(tab):
    open_link(tab, "v=2&seed=future&players=2&cards=2")
    check_unharmed(tab)
    texts = check_agrees_with_cpython(tab.page, "v=2&seed=future&players=2&cards=2")
    assert len(texts) == 1 and "newer version" in texts[0], texts
    assert url_params(tab.page.url)["v"] == "1"


# --- 3. Back and Forward ---------------------------------------------------------------------------


def wait_for_seed(page, seed: str) -> None:
    page.wait_for_function("s => new URLSearchParams(location.search).get('seed') === s",
                           arg=seed, timeout=STEP_TIMEOUT_MS)


def wait_for_deck(page, order: list[int]) -> None:
    page.wait_for_function(
        "o => JSON.stringify([...document.querySelectorAll('#deck .card')].map(c => Number(c.dataset.card))) === o",
        arg=str(order).replace(" ", ""), timeout=STEP_TIMEOUT_MS)


def test_back_shows_the_previous_deal_and_forward_the_new_one(tab, visit):
    # a new tab: the module's own has more history entries than Chromium counts (50)
    first_query = "v=1&algo=riffle-gsr&passes=4&seed=back-a&deck=euchre&players=3&cards=5&style=blocks"
    other = open_in(tab.context, tab.site_url + "?" + first_query, visit, "test_links: Back and Forward")
    page = other.page
    first = cli_for_url(page.url)
    assert_shows(page, first, "the first deal")
    entries = page.evaluate("history.length")

    page.fill("#seed", "back-b")
    page.press("#seed", "Enter")  # a new deal from the form: a new history entry
    wait_for_seed(page, "back-b")
    second = cli_for_url(page.url)
    assert_shows(page, second, "the new deal")
    assert page.evaluate("history.length") == entries + 1
    assert second["order"] != first["order"]

    page.go_back()
    wait_for_seed(page, "back-a")
    wait_for_deck(page, first["order"])
    assert_shows(page, first, "after Back")
    assert page.input_value("#seed") == "back-a"  # the form follows the deal shown
    assert page.input_value("#share-url") == page.url

    page.go_forward()
    wait_for_seed(page, "back-b")
    wait_for_deck(page, second["order"])
    assert_shows(page, second, "after Forward")
    assert page.input_value("#seed") == "back-b"
    assert page.evaluate("document.documentElement.dataset.ready") == "true"
    assert problems(other) == []
    page.close()
