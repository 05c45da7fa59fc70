"""The sealed deal on the page: it shows the deal's commitment (the same as CPython's), warns
about seeds too short to seal with, checks a pasted commitment against the shown deal, mixes in
a player seed, and says whether a reveal link's deal matches its commitment, as the CLI does."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

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
