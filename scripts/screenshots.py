"""Make the documentation's pictures from the real page in Chromium, so that they can be made again after a change.

    .venv/bin/python scripts/screenshots.py          # writes docs/images/*.png and docs/screenshot.png

Each picture is one state a user reaches by the same clicks: a shared deal, the lab after swap-any has been
tallied, its heat map and riffle chart, the Play tab's figure, and each tab's first screen on a phone (its main
action beside its answer). The lab's tally is
seeded (``tseed``), so the counts are the same every time; how many shuffles it reaches before the picture
depends on the machine, which is why the script waits for a count rather than for a while.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench.browser import launch  # noqa: E402  (scripts/ is put on the path just above)
from serve import make_server  # noqa: E402

IMAGES = ROOT / "docs" / "images"
DEAL = "?v=1&algo=fisher-yates&seed=class+7B&deck=standard&packs=1&jokers=0&players=4&cards=5&style=round-robin"
LAB = "?v=1&algo=swap-any&seed=docs&view=lab&n=12&tseed=docs+pictures"
PLAY = "?v=1&seed=docs&view=play"
WAIT_MS = 180_000
LAB_SHUFFLES = 200_000  # enough for swap-any's pattern to stand out on 12 cards, in seconds on any machine


def ready(page, url: str) -> None:
    """Open ``url`` and wait until the page says its cards are on screen."""
    page.goto(url)
    page.wait_for_selector("html[data-ready='true']", state="attached", timeout=WAIT_MS)


def lab_pictures(page, base: str) -> None:
    """Tally swap-any on 12 cards to LAB_SHUFFLES, pause, and picture the lab, its heat map and its riffle chart."""
    ready(page, base + LAB)
    page.wait_for_selector("#lab-start:not([disabled])", timeout=WAIT_MS)
    page.click("#lab-start")
    page.wait_for_function("n => Number(document.getElementById('trials').textContent.replace(/,/g, '')) >= n",
                           arg=LAB_SHUFFLES, timeout=WAIT_MS)
    page.click("#lab-pause")
    page.wait_for_selector("#lab-panel[data-loops='0']", state="attached", timeout=WAIT_MS)
    page.wait_for_selector("#riffle-chart[data-n]", state="attached", timeout=WAIT_MS)
    page.locator("#lab-panel").screenshot(path=str(IMAGES / "lab.png"))
    page.locator("#heat-side").screenshot(path=str(IMAGES / "heat-map.png"))
    page.locator("#riffle-chart").screenshot(path=str(IMAGES / "riffle-chart.png"))


def play_picture(page, base: str) -> None:
    """Picture the Play tab once its figure (the best guesser's expected score) is shown."""
    ready(page, base + PLAY)
    page.wait_for_selector("#play-expected[data-value]", state="attached", timeout=WAIT_MS)
    page.locator("#play-panel").screenshot(path=str(IMAGES / "play.png"))


def phone_first_screens(page, base: str) -> None:
    """Picture each tab's first screen on a phone with its main action and its answer: the deal and Shuffle again, Start
    and the lab's verdict after a seeded tally, the game's prompt and picker after a first guess."""
    ready(page, base + DEAL)
    page.screenshot(path=str(IMAGES / "phone-deal.png"))
    ready(page, base + "?v=1&algo=swap-any&seed=docs&view=lab&n=8&tseed=docs+pictures")
    page.wait_for_selector("#lab-start:not([disabled])", timeout=WAIT_MS)
    page.tap("#lab-start")
    page.wait_for_function("() => document.getElementById('verdict').dataset.verdict === 'biased'", timeout=WAIT_MS)
    page.tap("#lab-pause")
    page.wait_for_selector("#lab-panel[data-loops='0']", state="attached", timeout=WAIT_MS)
    page.screenshot(path=str(IMAGES / "phone-lab.png"))
    ready(page, base + PLAY)
    page.wait_for_selector("#play-expected[data-value]", state="attached", timeout=WAIT_MS)
    page.tap("#play-deal")
    page.wait_for_selector("#play-picker button", timeout=WAIT_MS)
    page.locator("#play-prompt").scroll_into_view_if_needed()
    page.evaluate("() => scrollBy(0, document.getElementById('play-prompt').getBoundingClientRect().top - 8)")
    page.screenshot(path=str(IMAGES / "phone-play.png"))


def main() -> int:
    """Serve the site, open it in Chromium and write every picture; return 0."""
    from playwright.sync_api import sync_playwright  # lazily: only this script needs a browser

    IMAGES.mkdir(parents=True, exist_ok=True)
    server = make_server("127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            desktop = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="light")
            page = desktop.new_page()
            ready(page, base + DEAL)
            page.screenshot(path=str(ROOT / "docs" / "screenshot.png"))
            lab_pictures(page, base)
            play_picture(page, base)
            phone = browser.new_context(viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True,
                                        device_scale_factor=2, color_scheme="light")
            phone_first_screens(phone.new_page(), base)
            browser.close()
    finally:
        server.shutdown()
    for picture in sorted(IMAGES.glob("*.png")) + [ROOT / "docs" / "screenshot.png"]:
        print(f"{picture.relative_to(ROOT)}: {picture.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
