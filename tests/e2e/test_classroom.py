"""Share in a classroom: the QR code of the link Copy link copies, drawn on the page, module for module the code
python-qrcode makes of it; its encoder fetched only when a code is first asked for; the hands in cards large enough
for the back of a room, dealt anew from the dialog; a sealed deal's code never carries its seed. Desktop and phone."""

from __future__ import annotations

import qrcode
from e2e_pages import STEP_TIMEOUT_MS, open_in, problems, url_params
from qrcode.constants import ERROR_CORRECT_M
from test_a11y import axe_violations

from conftest import PROFILES

QR_FILE = "/py/shufflelab/qr.py"


def press(page, name: str, selector: str) -> None:
    """Press a button as the profile's user does: a mouse click on the desktop, a tap on the phone."""
    page.tap(selector) if name == "phone" else page.click(selector)


def reference_modules(link: str) -> list:
    """python-qrcode's modules (dark 1, no quiet zone) for the link in byte mode at level M, the page's level."""
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0)
    code.add_data(qrcode.util.QRData(link.encode("utf-8"), mode=qrcode.util.MODE_8BIT_BYTE))
    code.make(fit=True)
    return [[1 if module else 0 for module in row] for row in code.modules]


def drawn_modules(page) -> list:
    """The modules the page drew: its SVG path's unit rectangles, less the quiet zone the viewBox leaves round them."""
    side = int(page.get_attribute("#classroom-code svg", "viewBox").split()[2])
    path = page.get_attribute("#classroom-code svg path", "d")
    modules = [[0] * (side - 8) for _ in range(side - 8)]
    for part in path.split("M")[1:]:
        position, rest = part.split("h", 1)
        x, y = map(int, position.split())
        for column in range(x, x + int(rest.split("v", 1)[0])):
            modules[y - 4][column - 4] = 1
    return modules


def fetched(page, suffix: str) -> bool:
    """True if the page has fetched a resource whose path ends with ``suffix``."""
    return page.evaluate("s => performance.getEntriesByType('resource').some(e => new URL(e.name).pathname.endsWith(s))",
                         suffix)


def wait_for_code_of(page, link: str) -> None:
    """Wait until the dialog's caption names ``link`` and its code is drawn."""
    page.wait_for_function("""link => document.getElementById('classroom-link').textContent === link
        && document.querySelector('#classroom-code svg path') !== null
        && document.getElementById('classroom-status').textContent === ''""", arg=link, timeout=STEP_TIMEOUT_MS)


def test_the_qr_code_is_the_links_own_and_its_encoder_comes_only_when_asked_for(screen, site_url, visit):
    name, context, viewport = screen
    opened = open_in(context, f"{site_url}?seed=class%207B", visit, f"test_classroom: qr {name}")
    page = opened.page
    assert not fetched(page, QR_FILE)  # the first deal never waits for the encoder
    press(page, name, "#show-qr")
    link = page.input_value("#share-url")
    assert url_params(link)["seed"] == "class 7B"
    wait_for_code_of(page, link)
    assert fetched(page, QR_FILE)
    assert drawn_modules(page) == reference_modules(link)
    assert page.text_content("#classroom-heading") == "Scan to see this deal"
    assert page.is_hidden("#classroom-hands") and page.is_hidden("#classroom-again")
    box = page.locator("#classroom-code svg").bounding_box()
    assert box["width"] >= 0.6 * min(viewport["width"], viewport["height"])  # large: scanned from across a room
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.getElementById('classroom').open", timeout=STEP_TIMEOUT_MS)
    assert page.evaluate("() => document.activeElement.id") == "show-qr"
    assert problems(opened) == []


def test_present_shows_the_hands_large_and_deals_anew_from_the_dialog(screen, site_url, visit):
    name, context, viewport = screen
    opened = open_in(context, f"{site_url}?seed=lesson%203", visit, f"test_classroom: present {name}")
    page = opened.page
    hands = page.eval_on_selector_all("#hands .hand", "hs => hs.map(h => h.innerText)")
    press(page, name, "#present")
    link = page.input_value("#share-url")
    wait_for_code_of(page, link)
    assert page.eval_on_selector_all("#classroom-hands .hand", "hs => hs.map(h => h.innerText)") == hands
    size = page.eval_on_selector("#classroom-hands .card", "c => parseFloat(getComputedStyle(c).fontSize)")
    normal = page.eval_on_selector("#hands .card", "c => parseFloat(getComputedStyle(c).fontSize)")
    assert size >= 1.5 * normal and size >= 24
    assert page.evaluate("""() => { const ids = [...document.querySelectorAll('[id]')].map(e => e.id);
        return ids.length === new Set(ids).size; }""")  # the copy's ids are its own
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    press(page, name, "#classroom-again")
    page.wait_for_function("old => document.getElementById('share-url').value !== old", arg=link,
                           timeout=STEP_TIMEOUT_MS)
    new_link = page.input_value("#share-url")
    wait_for_code_of(page, new_link)
    page.wait_for_function("""() => JSON.stringify([...document.querySelectorAll('#classroom-hands .hand')]
        .map(h => h.innerText)) === JSON.stringify([...document.querySelectorAll('#hands .hand')].map(h => h.innerText))""",
                           timeout=STEP_TIMEOUT_MS)
    assert page.eval_on_selector_all("#classroom-hands .hand", "hs => hs.map(h => h.innerText)") != hands
    assert drawn_modules(page) == reference_modules(new_link)
    press(page, name, "#classroom-close")
    assert page.evaluate("() => document.getElementById('classroom').open") is False
    assert problems(opened) == []


def test_a_sealed_deals_code_is_its_public_link_without_the_seed(site_url, visit, browser):
    context = browser.new_context(**PROFILES["desktop"])
    opened = open_in(context, f"{site_url}?seed=secret%20table", visit, "test_classroom: sealed")
    page = opened.page
    page.click("#seal summary")
    page.wait_for_selector("#public-url", state="visible", timeout=STEP_TIMEOUT_MS)
    public = page.input_value("#public-url")
    page.click("#show-qr")
    wait_for_code_of(page, public)
    assert "seed" not in url_params(public) and "secret" not in public
    assert drawn_modules(page) == reference_modules(public)
    context.close()


def test_axe_finds_nothing_in_the_classroom_dialog(browser, site_url, visit):
    """Both modes, light and dark (switched by emulation): the copied hands keep their names, the code its label."""
    context = browser.new_context(bypass_csp=True)  # axe is injected inline
    opened = open_in(context, f"{site_url}?seed=axe%20class", visit, "test_classroom: axe")
    page = opened.page
    for button, heading in (("#show-qr", "Scan to see this deal"), ("#present", "This deal")):
        page.click(button)
        wait_for_code_of(page, page.input_value("#share-url"))
        assert page.text_content("#classroom-heading") == heading
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert axe_violations(page) == [], (button, scheme)
        page.keyboard.press("Escape")
    context.close()
