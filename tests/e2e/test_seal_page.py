"""The sealed deal on the page: it shows the deal's commitment (the same as CPython's), warns
about seeds too short to seal with, checks a pasted commitment against the shown deal, mixes in
a player seed, and says whether a reveal link's deal matches its commitment, as the CLI does."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest
from e2e_pages import STEP_TIMEOUT_MS, assert_shows, cli_for_url, notice_texts, open_in, run_cli, url_params

from shufflelab import seal
from shufflelab.cards import DeckSpec
from shufflelab.link import DealSpec, Link, View, read_link

FRESH = "?v=1&algo=riffle-gsr&passes=7&seed=3q2-7wEWOBLxYNvI1m6A8X3hTxG0BnJ8v8cOaxTqO1w&players=4&cards=5&style=blocks"


def commitment_of(query: str) -> str:
    link, notices = read_link(query, lambda: "unused")
    assert notices == []
    return seal.commitment(link.deal)


def result(page) -> tuple[str, str]:
    return page.get_attribute("#seal-result", "data-verdict"), page.text_content("#seal-result")


@pytest.mark.smoke  # the smoke tier: one test a tab (make smoke)
def test_the_page_seals_and_checks_as_the_library_does(browser, site_url, visit):
    context = browser.new_context()
    try:
        page = open_in(context, site_url + FRESH, visit, "test_seal_page").page
        expected = commitment_of(FRESH)
        assert page.text_content("#seal-commitment") == expected  # MicroPython's SHA-256 = CPython's
        assert page.is_hidden("#seal-warning")

        page.click("#seal summary")
        page.fill("#seal-check", "  " + expected.upper() + " ")
        page.wait_for_function("() => document.getElementById('seal-result').dataset.verdict === 'match'",
                               timeout=STEP_TIMEOUT_MS)
        assert result(page)[1] == "Matches: this is the deal that was sealed."

        wrong = ("0" if expected[0] != "0" else "1") + expected[1:]
        page.fill("#seal-check", wrong)
        page.wait_for_function("() => document.getElementById('seal-result').dataset.verdict === 'mismatch'",
                               timeout=STEP_TIMEOUT_MS)
        assert result(page)[1].startswith("Does not match")

        page.fill("#seal-check", "<b>not hex</b>")
        page.wait_for_function("() => document.getElementById('seal-result').textContent.includes('not hex')",
                               timeout=STEP_TIMEOUT_MS)
        assert page.query_selector("#seal-result b") is None  # quoted as text, never markup
        assert result(page)[1].startswith("A commitment is 64 hexadecimal digits")

        page.fill("#seed", "short")  # a guessable seed: the page says not to seal with it
        page.press("#seed", "Enter")
        page.wait_for_selector("#seal-warning:visible", timeout=STEP_TIMEOUT_MS)
        assert "shorter than 43 characters" in page.text_content("#seal-warning")
        assert page.text_content("#seal-commitment") == commitment_of(FRESH.replace(
            "3q2-7wEWOBLxYNvI1m6A8X3hTxG0BnJ8v8cOaxTqO1w", "short"))
    finally:
        context.close()


# --- reveal links: the deal's share link plus commit= (and pseed=, the player's seed) ---------------

SEED = "3q2-7wEWOBLxYNvI1m6A8X3hTxG0BnJ8v8cOaxTqO1w"
PLAYER_SEED = "می‌خواهم 🂡"  # any seed text: ZWNJ and a card from the astral plane


def sealed_deal(player_seed=None) -> DealSpec:
    return DealSpec("riffle-gsr", {"passes": 7}, SEED, DeckSpec("standard"), 4, 5, "blocks", player_seed=player_seed)


def verdict(page) -> tuple[str, str]:
    return page.get_attribute("#reveal-verdict", "data-verdict"), page.text_content("#reveal-verdict")


def test_a_reveal_link_says_it_matches_and_shows_what_the_cli_verifies(browser, site_url, visit):
    spec = sealed_deal(PLAYER_SEED)
    published = seal.commitment(spec)
    url = site_url + "?" + Link(spec, View(commitment=published)).to_query()
    context = browser.new_context()
    try:
        page = open_in(context, url, visit, "test_seal_page").page
        assert verdict(page) == ("match", f"Sealed deal checked: these cards match the commitment {published[:16]}….")
        checked = json.loads(run_cli("verify", "--link", url, "--json"))
        assert checked["matches"] and checked["player_seed"] == PLAYER_SEED
        assert_shows(page, checked, "reveal link")
        assert page.get_attribute("#seal", "open") is not None  # the box is opened for whoever follows the link
        assert page.input_value("#player-seed") == PLAYER_SEED
        assert page.input_value("#seal-check") == published and result(page)[0] == "match"
        assert page.text_content("#seal-commitment") == published
        assert page.is_hidden("#seal-player-row")  # the deal already has its player seed
        assert page.input_value("#reveal-url") == page.url  # the reveal link of this deal is this link

        # the same commitment with a changed deal: the page says so, and so does the CLI
        tampered = site_url + "?" + Link(spec.replace(players=3), View(commitment=published)).to_query()
        page.goto(tampered)
        page.wait_for_function("() => document.getElementById('reveal-verdict').dataset.verdict === 'mismatch'",
                               timeout=STEP_TIMEOUT_MS)
        assert verdict(page)[1] == f"These cards do NOT match the commitment {published[:16]}… in the link."
        without = site_url + "?" + Link(spec.replace(player_seed=None), View(commitment=published)).to_query()
        page.goto(without)
        page.wait_for_function("() => document.getElementById('reveal-verdict').dataset.verdict === 'mismatch'",
                               timeout=STEP_TIMEOUT_MS)
        assert verdict(page)[1].endswith("It was sealed with a player seed: the link needs it.")
    finally:
        context.close()


def test_the_dealer_adds_the_player_seed_and_gets_a_reveal_link(browser, site_url, visit):
    plain = sealed_deal()
    context = browser.new_context()
    try:
        page = open_in(context, site_url + "?" + Link(plain).to_query(), visit, "test_seal_page").page
        assert page.is_hidden("#reveal-verdict")
        # before the player's seed exists, the page shows the commitment to publish for it
        assert page.text_content("#seal-commitment-player") == seal.commitment(plain, True)
        page.click("#seal summary")
        page.fill("#player-seed", PLAYER_SEED)
        page.press("#player-seed", "Enter")
        page.wait_for_function("() => new URLSearchParams(location.search).has('pseed')", timeout=STEP_TIMEOUT_MS)
        mixed = plain.replace(player_seed=PLAYER_SEED)
        assert url_params(page.url)["pseed"] == PLAYER_SEED
        assert_shows(page, cli_for_url(page.url), "with the player seed")
        assert page.text_content("#seal-commitment") == seal.commitment(plain, True) == seal.commitment(mixed)
        reveal = page.input_value("#reveal-url")
        assert read_link(urlsplit(reveal).query)[0] == Link(mixed, View(commitment=seal.commitment(mixed)))

        # pasting the published commitment puts it in the link, and the summary says it matches
        page.fill("#seal-check", seal.commitment(mixed))
        page.wait_for_function("() => new URLSearchParams(location.search).has('commit')", timeout=STEP_TIMEOUT_MS)
        assert page.url == reveal and verdict(page)[0] == "match"
        page.fill("#seal-check", "")
        page.wait_for_function("() => !new URLSearchParams(location.search).has('commit')", timeout=STEP_TIMEOUT_MS)
        assert page.is_hidden("#reveal-verdict")
    finally:
        context.close()


def test_a_bad_commitment_or_player_seed_in_a_link_gets_a_notice(browser, site_url, visit):
    query = Link(sealed_deal()).to_query() + "&pseed=a%09b&commit=%3Cb%3Exyz%3C%2Fb%3E"
    context = browser.new_context()
    try:
        page = open_in(context, site_url + "?" + query, visit, "test_seal_page").page
        expected = [str(n) + "." for n in read_link(query, lambda: "unused")[1]]
        assert notice_texts(page) == expected == [
            "Player seed 'a\ufffdb' contains a control character (U+0009); using none.",
            "Commitment '<b>xyz</b>' is not 64 hexadecimal digits (a SHA-256); using none."]
        assert page.query_selector("#notices b") is None
        assert_shows(page, cli_for_url(page.url), "the plain deal")
        assert page.is_hidden("#reveal-verdict")
    finally:
        context.close()


# --- the two links, and Copy link on a sealed deal: the seed never leaves the dealer's page ----------


def clipboard_context(browser, site_url):
    """A context whose pages may read and write the clipboard, as a user who allowed it."""
    parts = urlsplit(site_url)
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=f"{parts.scheme}://{parts.netloc}")
    return context


def copy(page, button: str, status: str) -> str:
    """Press a Copy button and return what it put on the clipboard (once its status line says so)."""
    page.evaluate("s => { document.getElementById(s).textContent = ''; return navigator.clipboard.writeText(''); }", status)
    page.click(button)
    page.wait_for_function("s => document.getElementById(s).textContent !== ''", arg=status, timeout=STEP_TIMEOUT_MS)
    return page.evaluate("navigator.clipboard.readText()")


def copy_link(page) -> str:
    """What the page's main Copy link button copies."""
    return copy(page, "#copy-link", "copy-status")


def assert_public(url: str, spec: DealSpec, published: str) -> None:
    """A public link: the deal's fields and its commitment, and nothing of the seed."""
    query = urlsplit(url).query
    assert "seed" not in url_params(url) and spec.seed not in query and spec.seed not in url, url
    assert url_params(url)["commit"] == published
    with_seed = read_link(query + "&seed=" + spec.seed, lambda: "unused")[0]
    assert with_seed.deal == spec  # every public field of the deal is there: only the seed is missing


def test_the_dealer_copies_the_public_link_and_copy_link_then_never_carries_the_seed(browser, site_url, visit):
    spec = sealed_deal()
    published = seal.commitment(spec)
    context = clipboard_context(browser, site_url)
    try:
        page = open_in(context, site_url + "?" + Link(spec).to_query(), visit, "test_seal_page: copy").page
        assert url_params(copy_link(page))["seed"] == SEED  # not sealed yet: the plain share link, as ever
        page.click("#seal summary")  # the dealer opens the seal box: from now on this deal is sealed
        public = copy(page, "#copy-public", "seal-copy-status")
        assert_public(public, spec, published)
        assert page.input_value("#public-url") == public
        assert copy_link(page) == public and "no seed" in page.text_content("#copy-status")
        assert page.is_hidden("#share-url")  # the link with the seed is not left on screen to copy by hand
        page.click("#seal summary")  # closing the box again does not unseal what was on screen
        assert copy_link(page) == public
        page.click("#seal summary")
        page.fill("#seal-check", published)  # the dealer checks the published commitment: commit= joins the link
        page.wait_for_function("() => new URLSearchParams(location.search).has('commit')", timeout=STEP_TIMEOUT_MS)
        assert copy_link(page) == public
    finally:
        context.close()


def test_the_reveal_link_reproduces_and_verifies_the_deal_and_a_reveal_links_copy_link_has_no_seed(
        browser, site_url, visit):
    spec = sealed_deal(PLAYER_SEED)
    published = seal.commitment(spec)
    context = clipboard_context(browser, site_url)
    try:
        page = open_in(context, site_url + "?" + Link(spec).to_query(), visit, "test_seal_page: reveal").page
        reveal = copy(page, "#copy-reveal", "seal-copy-status")
        assert "only after the game" in page.text_content("#seal-copy-status")
        assert url_params(reveal)["seed"] == SEED and url_params(reveal)["commit"] == published
        checked = json.loads(run_cli("verify", "--link", reveal, "--json"))
        assert checked["matches"] and checked["player_seed"] == PLAYER_SEED

        opened = open_in(context, reveal, visit, "test_seal_page: reveal opened").page
        assert verdict(opened) == ("match", f"Sealed deal checked: these cards match the commitment {published[:16]}….")
        assert_shows(opened, checked, "the reveal link")
        # a reveal link has a commitment: whoever opens it (even the dealer, before the game) copies no seed
        assert_public(copy_link(opened), spec, published)
    finally:
        context.close()


def test_the_public_link_shows_the_sealed_deal_without_cards_and_copies_itself(browser, site_url, visit):
    spec = sealed_deal()
    published = seal.commitment(spec)
    public = site_url + "?" + seal.public_link(Link(spec)).to_query()
    context = clipboard_context(browser, site_url)
    try:
        page = open_in(context, public, visit, "test_seal_page: public").page
        assert notice_texts(page) == []
        assert verdict(page)[0] == "sealed" and published[:16] in verdict(page)[1]
        assert page.query_selector_all("#deck li, #hands li, #stock li") == []  # a stand-in seed deals nothing shown
        assert "stay hidden" in page.text_content("#deck-summary")
        assert page.is_hidden("#stock-heading") and page.is_hidden("#hands-heading")  # no empty headings
        assert page.is_hidden("#seal-dealer") and page.input_value("#seed") == ""
        assert page.url == public  # the address stays the public link: a reload shows the same
        assert copy_link(page) == public == page.input_value("#share-url")  # nothing to hide: it has no seed
    finally:
        context.close()
