"""A phone is a first-class screen: at 375 px nothing scrolls sideways, and a deal shows its cards."""

from __future__ import annotations

import pytest
from e2e_pages import STEP_TIMEOUT_MS, WORKER_TIMEOUT_MS, open_in, run_tally

PHONE = {"width": 375, "height": 800}
WIDEST = """() => ({width: document.documentElement.scrollWidth,
    wider: [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5 && !e.closest('.table-scroll'))
        .slice(0, 5).map(e => `${e.tagName}#${e.id}.${e.className}`)})"""


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    yield context
    context.close()


@pytest.mark.parametrize("query", ["?seed=phone", "?seed=phone&deck=standard&packs=8&jokers=2&players=7&cards=13",
                                   "?seed=phone&players=--4&bogus=%3Cb%3E",
                                   "?players=3"])  # no seed: a fresh one, 43 characters in one word
def test_the_deal_view_never_scrolls_sideways(phone, site_url, visit, query):
    page = open_in(phone, site_url + query, visit, "test_phone: deal").page
    assert page.evaluate(WIDEST) == {"width": 375, "wider": []}
    page.tap("#seal > summary")  # the sealed-deal box: 64-digit commitments and a reveal link
    assert page.evaluate(WIDEST) == {"width": 375, "wider": []}


def test_the_running_lab_never_scrolls_sideways(phone, site_url, visit):
    page = open_in(phone, f"{site_url}?view=lab&algo=swap-any&n=16", visit, "test_phone: lab").page
    run_tally(page, 10_000, press=page.tap)
    page.wait_for_selector("#riffle-table td", state="attached", timeout=WORKER_TIMEOUT_MS)
    assert page.evaluate(WIDEST) == {"width": 375, "wider": []}


def test_after_a_deal_the_cards_are_in_view(phone, site_url, visit):
    page = open_in(phone, f"{site_url}?seed=phone", visit, "test_phone: new seed").page
    assert page.evaluate("scrollY") == 0  # opening a link does not jump
    page.tap("#new-seed")
    page.wait_for_function("() => new URLSearchParams(location.search).get('seed') !== 'phone'", timeout=STEP_TIMEOUT_MS)
    top, bottom = page.evaluate("(r => [r.top, r.bottom])(document.querySelector('#deck li').getBoundingClientRect())")
    assert 0 <= top and bottom <= PHONE["height"], (top, bottom)


def test_a_shared_link_shows_its_cards_first(phone, site_url, visit):
    """A stranger opening a link on a phone sees cards, not a form, without scrolling."""
    page = open_in(phone, f"{site_url}?seed=stranger&players=4", visit, "test_phone: shared link").page
    top = page.evaluate("document.querySelector('#deck li').getBoundingClientRect().top")
    assert top < PHONE["height"] / 2, top
    assert page.evaluate("scrollY") == 0
