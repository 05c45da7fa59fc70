"""Old links keep working, forever: every share URL in tests/golden/links_v1.json, opened in the
real page, shows exactly its stored deck, hands and stock, with no notice.

One page (one browser context) serves the module and goes from link to link as test_links.py
does (`e2e_pages.open_link`): every 6th link loaded afresh, the others reached by Back. The cards are read as test_links.py
reads them (`e2e_pages.shown`: data-card ids in display order); the deck is compared by id,
the hands and stock by card code (cards.py's frozen id -> code mapping). After every test the
page made no request off its origin, had no failed request, logged no console error and
opened no dialog. tests/unit/test_links_golden.py checks the same file against CPython and
the command line.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import test_links
from e2e_pages import notice_texts, open_link, quiet_after_each_test, shared_query, shown

from shufflelab.link import read_link

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "links_v1.json"
LINKS = json.loads(GOLDEN.read_text("utf-8"))["links"]

tab = test_links.tab  # the same fixture: one page for the module, loaded once, navigated link to link
quiet_tab = quiet_after_each_test("tab")


def no_fresh_seed() -> str:
    raise AssertionError("the link carries its seed; reading it must not draw a fresh one")


def assert_shows_stored(page, case: dict) -> None:
    """The page shows the stored deck (ids), hands labelled 1..P and stock (codes), and no notice."""
    link, notices = read_link(case["query"], no_fresh_seed)
    assert notices == [], [str(n) for n in notices]
    deck = link.deal.deck
    got = shown(page)
    assert page.is_hidden("#notices") and notice_texts(page) == [], notice_texts(page)
    assert page.locator(".field-notice, [aria-invalid='true']").count() == 0, "a field carries a notice"
    assert got["order"] == case["order"], "deck order differs from the stored one"
    assert got["players"] == [str(k) for k in range(1, len(case["hands"]) + 1)]
    assert [deck.codes(hand) for hand in got["hands"]] == case["hands"], "hands differ from the stored ones"
    assert deck.codes(got["stock"]) == case["stock"], "stock differs from the stored one"
    assert got["stockCount"] == f"({len(case['stock'])} cards)"
    # the page writes the link as CPython does: the stored query, or the page form of another spelling
    assert shared_query(page) == link.to_query(), "the page writes the link differently"
    if link.view.commitment:  # a reveal link: its deal is the sealed one
        assert page.get_attribute("#reveal-verdict", "data-verdict") == "match", page.text_content("#reveal-verdict")
    else:
        assert page.is_hidden("#reveal-verdict")


@pytest.mark.parametrize("case", LINKS, ids=lambda case: case["name"])
def test_an_old_link_shows_its_stored_cards(tab, case):
    url = tab.site_url + "?" + case["query"]
    open_link(tab.visit, url, LINKS.index(case))
    assert_shows_stored(tab.page, case)
    if urlsplit(tab.page.url).query != case["query"]:  # a fresh load: the address itself is rewritten
        assert urlsplit(tab.page.url).query == read_link(case["query"], no_fresh_seed)[0].to_query()
