"""The sealed deal on the page: it shows the deal's commitment (the same as CPython's), warns
about seeds too short to seal with, and checks a pasted commitment against the shown deal."""

from __future__ import annotations

from e2e_pages import STEP_TIMEOUT_MS, open_in

from shufflelab import seal
from shufflelab.link import read_link

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
