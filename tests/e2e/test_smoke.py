"""Smoke test of the page in Chromium: it gets ready, offline, quietly, on MicroPython, and
fails loudly.

One page load is shared by the checks on a healthy page; the failure tests each load their
own page with a broken piece.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "py"))

from shufflelab.link import outcome_of, read_link  # noqa: E402  (the same portable core, in CPython)
from shufflelab.rng import StreamRng  # noqa: E402

# The standard-library modules the page's portable core relies on in MicroPython.
STDLIB_MODULES = ["hashlib", "struct", "math", "json"]
# Pyodide's files: a deal-only visit must fetch none of them (the lab's worker may, later).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
DEAL_LINK = "?v=1&algo=riffle-gsr&passes=3&seed=smoke&deck=standard&packs=1&jokers=0&players=3&cards=4&style=blocks"


@pytest.fixture(scope="module")
def ready(browser, site_url, visit):
    """One visit of the page, waited until data-ready="true"."""
    context = browser.new_context()
    try:
        yield visit(context.new_page(), site_url, label="test_smoke: first load")
    finally:
        context.close()


def run_micropython(page, code: str, timeout_ms: int = 30_000) -> str:
    """Run `code` in the page's MicroPython (as a new <script type="mpy">); return what it
    stores in the variable `result`, as a string (or "error: ..." if it raised)."""
    indented = "".join("    " + line + "\n" for line in code.splitlines())
    wrapped = (f"try:\n{indented}except Exception as _e:\n    result = 'error: %r' % (_e,)\n"
               "from pyscript import document as _d\n_d.body.dataset.testResult = str(result)\n")
    page.evaluate(
        """code => {
            const script = document.createElement("script");
            script.type = "mpy";
            script.textContent = code;
            document.body.dataset.testResult = "";
            delete document.body.dataset.testResult;
            document.body.append(script);
        }""",
        wrapped,
    )
    page.wait_for_selector("body[data-test-result]", state="attached", timeout=timeout_ms)
    result = page.evaluate("document.body.dataset.testResult")
    assert not result.startswith("error: "), result
    return result


@pytest.mark.smoke  # the smoke tier: one test a tab (make smoke)
def test_page_becomes_ready_with_controls_enabled(ready):
    page = ready.page
    assert ready.ready_seconds is not None
    # once ready, the status line has nothing to say and is hidden
    assert page.get_attribute("#status", "data-state") == "ready"
    assert page.is_hidden("#status")
    assert page.is_enabled("#shuffle")
    assert page.eval_on_selector_all("#deck .card", "cards => cards.length") == 52


def test_every_request_stays_on_the_page_origin(ready):
    assert ready.requests, "no request recorded"
    assert ready.offsite_requests() == []


def test_no_failed_requests_and_no_console_errors(ready):
    assert ready.failed_requests == []
    assert ready.console_errors == []


def test_everything_is_served_under_the_sub_path(ready):
    own = [url for url in ready.requests if url.startswith(ready.origin + "/")]
    assert own and all(url.startswith(ready.url) for url in own), own


def test_the_page_runs_micropython_and_fetches_no_pyodide_file(ready):
    assert [url for url in ready.requests if url.endswith("/static/vendor/micropython/micropython.wasm")]
    pyodide = [url for url in ready.requests if "/pyodide/" in url or url.endswith(PYODIDE_FILES)]
    assert pyodide == [], "a deal-only visit fetched Pyodide files"
    assert ready.page.evaluate("document.querySelectorAll('script[type=py]').length") == 0


def test_a_shared_link_fetches_no_pyodide_file(page, site_url, visit):
    """A visit that only deals (a shared link, then a new deal from the form) stays on MicroPython."""
    opened = visit(page, site_url + DEAL_LINK, label="test_smoke: deal-only link")
    page.fill("#seed", "another")
    page.press("#seed", "Enter")
    page.wait_for_function("() => new URLSearchParams(location.search).get('seed') === 'another'")
    pyodide = [url for url in opened.requests if "/pyodide/" in url or url.endswith(PYODIDE_FILES)]
    assert pyodide == [], "a deal-only visit fetched Pyodide files"
    assert opened.console_errors == [] and opened.failed_requests == []


def test_shufflelab_and_stdlib_import_in_the_browser(ready):
    """The page's interpreter is MicroPython, and the portable core runs on it exactly as on CPython."""
    imports = ", ".join(STDLIB_MODULES)
    result = run_micropython(
        ready.page,
        f"import sys, {imports}\n"
        "from shufflelab.link import read_link, outcome_of\n"
        "from shufflelab.rng import StreamRng\n"
        f"spec = read_link({DEAL_LINK!r}, lambda: 'unused')[0].deal\n"
        "rng = StreamRng('smoke')\n"
        "result = json.dumps([sys.implementation.name, list(hashlib.sha256(b'message').digest()),\n"
        "                     [rng.below(52) for _ in range(8)], outcome_of(spec).order])\n",
    )
    name, digest, draws, order = json.loads(result)
    assert name == "micropython"
    assert bytes(digest) == hashlib.sha256(b"message").digest()
    rng = StreamRng("smoke")
    assert draws == [rng.below(52) for _ in range(8)]
    assert order == outcome_of(read_link(DEAL_LINK, lambda: "unused")[0].deal).order


def test_layout_and_loading_status_show_before_python(page, site_url):
    # Hold back the Python code so the loading state can be looked at without a race.
    page.route("**/py/page/main.py", lambda route: None)
    page.goto(site_url, wait_until="domcontentloaded")
    assert page.text_content("#status") == "Getting the cards ready…"
    assert page.get_attribute("html", "data-ready") == "false"
    assert page.is_visible("h1") and page.is_visible("#controls")
    assert page.is_disabled("#shuffle")
    assert page.is_disabled("#algorithm")


@pytest.mark.parametrize(
    "broken",
    ["micropython missing", "python raises"],
)
def test_a_failed_start_shows_an_error_instead_of_loading_forever(page, site_url, broken):
    if broken == "micropython missing":
        page.route("**/static/vendor/micropython/micropython.mjs", lambda route: route.abort())
    else:
        page.route(
            "**/py/page/main.py",
            lambda route: route.fulfill(
                status=200, content_type="text/x-python", body="raise RuntimeError('boom')\n"
            ),
        )
    page.goto(site_url)
    page.wait_for_selector('html[data-ready="error"]', state="attached", timeout=60_000)
    assert page.get_attribute("#status", "data-state") == "error"
    assert page.text_content("#status").startswith("Python could not start")
    assert page.is_visible("#status")
    assert page.is_disabled("#shuffle")
