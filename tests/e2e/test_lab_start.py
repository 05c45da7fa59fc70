"""The lab's start (issue 19, item 8): a first visit shows the lab's Python being fetched, in bytes, on a progress bar
that finishes; a repeat visit starts the lab's worker by itself in idle time after the deal; and nothing is fetched or
started ahead of a click when the browser asks to save data (navigator.connection.saveData), on a desktop and a phone.

The service worker counts the bytes (the page cannot see what its workers fetch), so these contexts allow it; each
profile is one fresh context: a first visit, then repeat visits."""

from __future__ import annotations

import itertools
import json
import re

import pytest
from e2e_pages import ROOT, STEP_TIMEOUT_MS, WORKER_TIMEOUT_MS, Opened, problems, settled
from test_a11y import axe_violations

from conftest import PROFILES

LINK = "?seed=lab-start&algo=fisher-yates"
# the runtime the progress counts: Pyodide's files, as the manifest sealed into sw.js gives their sizes
RUNTIME_BYTES = sum(path.stat().st_size for path in (ROOT / "static" / "vendor" / "pyodide").iterdir())
FETCHING = re.compile(r"Fetching the lab's Python: (\d+\.\d) of (\d+\.\d) MB…")

# The service worker's network on the first visit (the lab's worker fetches through it): from this machine's own
# server the 13 MB would come at once, between two of the progress's redraws; at 40 Mbit/s they take about 3 s.
FIRST_VISIT_NETWORK = {"offline": False, "latency": 20, "downloadThroughput": 40_000_000 / 8,
                       "uploadThroughput": 40_000_000 / 8}

# The browser asks to save data (Chromium's Data Saver, or a user's setting): only navigator.connection says so.
SAVE_DATA_JS = """Object.defineProperty(Navigator.prototype, "connection", {configurable: true,
  get: () => ({saveData: true, effectiveType: "4g", addEventListener() {}, removeEventListener() {}})});"""

# Every state of the lab's status line and progress bar, from now on: [text, bar value or null when hidden, busy].
WATCH_START_JS = """() => {
  window.__start = [];
  const status = document.getElementById("lab-status"), bar = document.getElementById("lab-progress");
  const record = () => window.__start.push([status.textContent, bar.classList.contains("idle") ? null : bar.position,
                                            status.getAttribute("aria-busy")]);
  new MutationObserver(record).observe(status, {childList: true, characterData: true, subtree: true,
                                                attributes: true});
  new MutationObserver(record).observe(bar, {attributes: true});
}"""

# Whether the lab's worker was started (PyScript's named worker keeps a <script name="lab">) or any of its runtime
# read by the service worker for this page.
STARTED_JS = """() => document.querySelector('script[name^="lab"]') !== null
  || (window.shufflelabLabFetch !== undefined && window.shufflelabLabFetch.loaded > 0)"""


@pytest.fixture(params=list(PROFILES))
def phone_or_desktop(request, browser):
    """A fresh context with the service worker allowed, on the desktop profile (light), then on the phone profile
    (dark); axe is injected inline, so the CSP is bypassed (test_csp.py checks it)."""
    scheme = "light" if request.param == "desktop" else "dark"
    context = browser.new_context(service_workers="allow", color_scheme=scheme, bypass_csp=True,
                                  **PROFILES[request.param])
    yield request.param, context
    context.close()


def open_in_page(page, url: str, visit, label: str):
    """open_in for a page made here (with its init scripts): recording its dialogs, until ready."""
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(f"{dialog.type}: {dialog.message}"), dialog.dismiss()))
    return Opened(visit(page, url, label=label), dialogs)


def slow_service_worker(context, page):
    """Give the page's service worker FIRST_VISIT_NETWORK (a CDP session is one target's: the page's own conditions
    would not reach it); return the session, which must live as long as the page."""
    cdp = context.new_cdp_session(page)
    calls = itertools.count(1)

    def send(session: str, method: str, params: dict) -> None:
        message = json.dumps({"id": next(calls), "method": method, "params": params})
        cdp.send("Target.sendMessageToTarget", {"sessionId": session, "message": message})

    def attached(event: dict) -> None:
        if event["targetInfo"]["type"] == "service_worker":
            send(event["sessionId"], "Network.enable", {})
            send(event["sessionId"], "Network.emulateNetworkConditions", FIRST_VISIT_NETWORK)
        send(event["sessionId"], "Runtime.runIfWaitingForDebugger", {})  # it waited for these settings

    cdp.on("Target.attachedToTarget", attached)
    cdp.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False})
    return cdp


def decided(page) -> str:
    """What the lab's prewarm decided last (html[data-lab-prewarm]), once it has."""
    page.wait_for_selector("html[data-lab-prewarm]", state="attached", timeout=STEP_TIMEOUT_MS)
    return page.evaluate("document.documentElement.dataset.labPrewarm")


def move_toward_the_lab(page, profile: str) -> None:
    """What comes before a click on the lab's tab: the pointer on it, the keyboard's focus, a finger's touch."""
    page.hover("#tab-lab")
    page.focus("#tab-lab")
    if profile == "phone":
        page.dispatch_event("#tab-lab", "touchstart")


def test_a_first_visit_shows_the_bytes_fetched_and_nothing_starts_ahead_while_saving_data(
        phone_or_desktop, site_url, visit):
    profile, context = phone_or_desktop
    saving = context.new_page()
    saving.add_init_script(SAVE_DATA_JS)
    slowed = slow_service_worker(context, saving)
    first = open_in_page(saving, site_url + LINK, visit, f"test_lab_start: first visit, {profile}")
    page = first.page
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=STEP_TIMEOUT_MS)
    # the service worker keeps the page's files in the background, through its slowed network: once, beside another
    # browser test, that took over 15 s, so it gets the worker's limit, not one render's
    page.wait_for_selector("html[data-offline='ready']", state="attached", timeout=WORKER_TIMEOUT_MS)
    assert page.evaluate("navigator.connection.saveData") is True

    # saving data: moving toward the lab starts nothing, and fetches nothing
    move_toward_the_lab(page, profile)
    assert decided(page) == "saving-data"
    settled(page)  # every start goes through a prewarm decision, and each one is recorded: none said "started"
    assert decided(page) == "saving-data"
    assert not page.evaluate(STARTED_JS), "the lab's worker started ahead of a click while the browser saves data"

    # the click itself starts it: the bytes fetched, on a bar that finishes
    page.evaluate(WATCH_START_JS)
    page.click("#tab-lab")
    page.wait_for_selector("#lab-progress", state="visible", timeout=STEP_TIMEOUT_MS)
    assert axe_violations(page) == [], "the start's progress is not axe-clean"
    page.wait_for_selector("#lab-start:enabled", timeout=WORKER_TIMEOUT_MS)
    seen = page.evaluate("window.__start")
    fetching = [(FETCHING.fullmatch(text), value, busy) for text, value, busy in seen if FETCHING.fullmatch(text)]
    assert fetching, f"no bytes shown while the lab's Python was fetched: {seen[:5]}"
    totals = {match.group(2) for match, _, _ in fetching}
    assert totals == {f"{RUNTIME_BYTES / 1e6:.1f}"}, totals
    shown = [float(match.group(1)) for match, _, _ in fetching]
    assert shown == sorted(shown) and shown[0] < float(totals.pop()), shown
    assert all(0 <= value < 1 and busy == "true" for _, value, busy in fetching), fetching
    assert any(text == "Starting the lab's Python…" and value == 1 for text, value, _ in seen), seen[-5:]
    # finished: the bar is gone, and the status line is heard again
    assert page.is_hidden("#lab-progress")
    assert page.get_attribute("#lab-status", "aria-busy") is None
    page.wait_for_selector("html[data-offline-lab='ready']", state="attached", timeout=WORKER_TIMEOUT_MS)
    assert problems(first) == []
    slowed.detach()
    page.close()

    # a repeat visit, still saving data: neither idle time nor moving toward the lab starts it
    again = context.new_page()
    again.add_init_script(SAVE_DATA_JS)
    repeat = open_in_page(again, site_url + LINK, visit, f"test_lab_start: repeat visit saving data, {profile}")
    assert decided(again) == "saving-data"  # the idle prewarm's decision, once the deal is shown
    move_toward_the_lab(again, profile)
    assert decided(again) == "saving-data"
    settled(again)
    assert decided(again) == "saving-data"
    assert not again.evaluate(STARTED_JS), "the lab's worker started ahead of a click while the browser saves data"
    assert problems(repeat) == []
    again.close()

    if profile == "phone":  # once: a repeat visit not saving data starts the worker by itself, after the deal
        third = open_in_page(context.new_page(), site_url + LINK, visit, "test_lab_start: repeat visit, phone")
        assert decided(third.page) == "started"
        third.page.wait_for_function(STARTED_JS, timeout=STEP_TIMEOUT_MS)
        third.page.tap("#tab-lab")
        third.page.wait_for_selector("#lab-start:enabled", timeout=WORKER_TIMEOUT_MS)
        assert problems(third) == []
