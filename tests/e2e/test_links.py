"""Links opened directly: the page deals what the CLI deals, and the browser's Back and Forward
walk through the deals.

One page (one browser context) serves the whole module and goes from link to link
(`e2e_pages.open_link`): every 6th link loaded afresh, waiting for data-ready="true", the others
reached by Back, which reads the link with the same code in 0.1 s instead of a load's 1.3 s.
After every test the page made no request off its origin, had no failed
request, logged no console error and opened no dialog.

- Deals: every algorithm of the catalog with every deal style, the decks rotating so that each
  algorithm meets three deck kinds and each group of the algorithm menu (unbiased, biased)
  meets all five (standard, two packs with jokers, piquet, euchre, 60 numbered items): a
  covering design, not the full product. Each is compared card for card with
  `python -m shufflelab deal --json`.
- Hostile and odd values in links (every key, repeated keys, hundreds of unknown keys, a newer
  stream version) are test_hostile.py's.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote_plus

import pytest
from e2e_pages import (
    STEP_TIMEOUT_MS,
    assert_shows,
    cli_for_url,
    notice_texts,
    open_in,
    open_link,
    problems,
    quiet_after_each_test,
    shared_query,
    url_params,
)

from catalog_tables import e2e_param_values
from shufflelab import catalog

# --- the deals: a covering design ----------------------------------------------------------------

STYLES = ("round-robin", "blocks", "pick")
DECKS = {  # deck kind -> (its URL parameters, its size)
    "standard": ("deck=standard", 52),
    "2 packs + 2 jokers": ("deck=standard&packs=2&jokers=2", 108),
    "piquet": ("deck=piquet", 32),
    "euchre": ("deck=euchre", 24),
    "numbered 60": ("deck=numbered&size=60", 60),
}
# each parameter's value in the three styles' links (None: the default, omitted): tests/catalog_tables.py
PARAM_VALUES = e2e_param_values()


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
                value = PARAM_VALUES[param.name][s]
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
        yield opened
    finally:
        context.close()


quiet_tab = quiet_after_each_test("tab")


@pytest.fixture(scope="module")
def references(site_url):
    """The CLI's answer for every deal link, computed in the background while the page works."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        yield {key: pool.submit(cli_for_url, site_url + "?" + query) for key, query in DEAL_LINKS.items()}


# --- 1. every algorithm, style and deck, card for card with the CLI ------------------------------


@pytest.mark.parametrize("key", list(DEAL_LINKS))
def test_a_link_shows_what_the_cli_deals(tab, references, key):
    page = tab.page
    open_link(tab.visit, tab.site_url + "?" + DEAL_LINKS[key], list(DEAL_LINKS).index(key))
    expected = references[key].result(timeout=120)
    assert_shows(page, expected, key)
    assert shared_query(page) == expected["query"], "the page writes the link differently"
    assert page.is_hidden("#notices"), notice_texts(page)
    assert page.input_value("#algorithm") == expected["algo"]
    assert page.input_value("#deal-style") == expected["style"]
    assert page.input_value("#seed") == expected["seed"]


# --- 2. Back and Forward ---------------------------------------------------------------------------


def wait_for_seed(page, seed: str) -> None:
    page.wait_for_function("s => new URLSearchParams(location.search).get('seed') === s",
                           arg=seed, timeout=STEP_TIMEOUT_MS)


def wait_for_deck(page, order: list[int]) -> None:
    page.wait_for_function(
        "o => JSON.stringify([...document.querySelectorAll('#deck .card')].map(c => Number(c.dataset.card))) === o",
        arg=str(order).replace(" ", ""), timeout=STEP_TIMEOUT_MS)


def test_a_tab_switch_is_one_back_away_and_each_new_seed_is_a_deal_of_its_own(tab, visit):
    """Back after a tab switch returns to the tab that was shown, with its deal, and not the deal before; each press of
    New seed is a deal, one entry each (docs/reference/share-links.md says what adds an entry)."""
    other = open_in(tab.context, tab.site_url + "?seed=history-a", visit, "test_links: history")
    page = other.page
    entries = page.evaluate("history.length")
    page.fill("#seed", "history-b")
    page.press("#seed", "Enter")
    wait_for_seed(page, "history-b")
    page.click("#tab-lab")
    page.wait_for_function("() => new URLSearchParams(location.search).get('view') === 'lab'", timeout=STEP_TIMEOUT_MS)
    page.click("#tab-lab")  # the tab already shown: nothing to go back to
    assert page.evaluate("history.length") == entries + 2
    page.go_back()
    page.wait_for_function("() => !new URLSearchParams(location.search).has('view')"
                           " || new URLSearchParams(location.search).get('view') === 'deal'", timeout=STEP_TIMEOUT_MS)
    assert url_params(page.url)["seed"] == "history-b" and page.is_visible("#deal-panel")
    page.go_back()
    wait_for_seed(page, "history-a")
    for _press in range(3):
        before = url_params(page.url)["seed"]
        page.click("#new-seed")
        page.wait_for_function("s => new URLSearchParams(location.search).get('seed') !== s", arg=before,
                               timeout=STEP_TIMEOUT_MS)
    # Back from the tab's entry went to the first deal; the three deals replaced what came after it
    assert page.evaluate("history.length") == entries + 3
    page.close()


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
