"""Every copy does what it says the first time.

A user types into a field and at once presses a copy button: the field's change fires on that very
press (the field loses focus), so it must be applied before the button reads the link, and nothing may
move the button from under the pointer, or the press is lost. On the desktop (a mouse click) and on a
phone (a tap), for every copy button, the clipboard is read back: it holds the link with what was typed,
the button's status says it was copied, and the button is where it was in the window (content above it may grow:
the browser's scroll anchoring keeps it in place, and that is what the pointer needs).
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from e2e_pages import STEP_TIMEOUT_MS, open_in, settled, url_params

from conftest import PROFILES
from shufflelab import seal
from shufflelab.link import read_link

# what a user types before pressing a copy button: (the field, the text, the button, its status line, opens the seal box)
TYPED_THEN_COPIED = {
    "copy-link": ("seed", "class 7B", "copy-status", False),
    "copy-reveal": ("player-seed", "table 4", "seal-copy-status", True),
    "copy-public": ("player-seed", "table 4", "seal-copy-status", True),
    "lab-copy-link": ("lab-n", "20", "lab-copy-status", False),
}


@pytest.fixture(params=list(PROFILES))
def screen(request, browser, site_url):
    """A fresh context on the desktop profile, then on the phone's, allowed the clipboard: (name, context)."""
    context = browser.new_context(**PROFILES[request.param])
    parts = urlsplit(site_url)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=f"{parts.scheme}://{parts.netloc}")
    yield request.param, context
    context.close()


def press(page, name: str, selector: str) -> None:
    """Press a button as the profile's user does: a mouse click on the desktop, a tap on the phone."""
    if name == "phone":
        page.tap(selector)
    else:
        page.click(selector)


@pytest.mark.parametrize("button", list(TYPED_THEN_COPIED))
def test_typing_then_copying_at_once_copies_what_was_typed(screen, site_url, visit, button):
    name, context = screen
    field, typed, status, seals = TYPED_THEN_COPIED[button]
    view = "&view=lab" if button.startswith("lab-") else ""
    page = open_in(context, f"{site_url}?seed=first-deal{view}", visit, f"test_copy: {button} {name}").page
    if seals:
        press(page, name, "#seal summary")
        page.wait_for_selector(f"#{field}", state="visible", timeout=STEP_TIMEOUT_MS)
    if button.startswith("lab-"):  # the lab is mounted (its "Compare with" list built), its worker need not be
        page.wait_for_selector("#vs option:nth-child(2)", state="attached", timeout=STEP_TIMEOUT_MS)
    page.evaluate("() => navigator.clipboard.writeText('')")
    page.locator(f"#{button}").scroll_into_view_if_needed()  # where the user's pointer is before the press
    page.fill(f"#{field}", typed)  # typed, not yet applied: its change fires on the press below
    before = page.locator(f"#{button}").bounding_box()  # in the window: where the pointer is
    press(page, name, f"#{button}")
    page.wait_for_function("s => document.getElementById(s).textContent !== ''", arg=status, timeout=STEP_TIMEOUT_MS)
    settled(page)
    said = page.text_content(f"#{status}")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert "copied" in said.lower(), said
    after = page.locator(f"#{button}").bounding_box()
    assert abs(after["y"] - before["y"]) <= 1 and after["x"] == before["x"], ("the button moved from under the pointer",
                                                                             before, after)
    shown = read_link(urlsplit(page.url).query, lambda: "unused")[0]  # the link the page applied
    if button == "copy-link":
        assert copied == page.url and url_params(copied)["seed"] == typed
    elif button == "lab-copy-link":
        assert copied == page.url and url_params(copied)["n"] == typed
    elif button == "copy-reveal":
        assert url_params(copied)["pseed"] == typed and url_params(copied)["seed"] == "first-deal"
        assert url_params(copied)["commit"] == seal.commitment(shown.deal)
    else:
        assert shown.deal.player_seed == typed and "seed" not in url_params(copied)
        assert url_params(copied)["commit"] == seal.commitment(shown.deal)
