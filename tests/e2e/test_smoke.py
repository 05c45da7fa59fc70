"""Smoke test of the page in Chromium: it gets ready, offline, quietly, and fails loudly.

One page load is shared by the checks on a healthy page (a Pyodide start costs seconds);
the failure tests each load their own page with a broken piece.
"""

from __future__ import annotations

import pytest

# The standard-library modules shufflelab relies on in the browser.
STDLIB_MODULES = ["hashlib", "hmac", "secrets", "fractions", "json", "struct", "math", "random"]


@pytest.fixture(scope="module")
def ready(browser, site_url, visit):
    """One visit of the page, waited until data-ready="true"."""
    context = browser.new_context()
    try:
        yield visit(context.new_page(), site_url, label="test_smoke: first load")
    finally:
        context.close()


def run_python(page, code: str, timeout_ms: int = 30_000) -> str:
    """Run `code` in the page's Python (as a new <script type="py">); return what it
    stores in the variable `result`, as a string."""
    page.evaluate(
        """code => {
            const script = document.createElement("script");
            script.type = "py";
            script.textContent = code +
              "\\nfrom pyscript import document as _d\\n_d.body.dataset.testResult = str(result)\\n";
            document.body.dataset.testResult = "";
            delete document.body.dataset.testResult;
            document.body.append(script);
        }""",
        code,
    )
    page.wait_for_selector("body[data-test-result]", state="attached", timeout=timeout_ms)
    return page.evaluate("document.body.dataset.testResult")


def test_page_becomes_ready_with_controls_enabled(ready):
    page = ready.page
    assert ready.ready_seconds is not None
    assert page.text_content("#status") == "Python ready."
    assert page.get_attribute("#status", "data-state") == "ready"
    assert page.is_enabled("#shuffle")


def test_every_request_stays_on_the_page_origin(ready):
    assert ready.requests, "no request recorded"
    assert ready.offsite_requests() == []


def test_no_failed_requests_and_no_console_errors(ready):
    assert ready.failed_requests == []
    assert ready.console_errors == []


def test_everything_is_served_under_the_sub_path(ready):
    own = [url for url in ready.requests if url.startswith(ready.origin + "/")]
    assert own and all(url.startswith(ready.url) for url in own), own


def test_shufflelab_and_stdlib_import_in_the_browser(ready):
    imports = ", ".join(STDLIB_MODULES)
    result = run_python(
        ready.page,
        f"import {imports}\n"
        "import shufflelab\n"
        "digest = hmac.new(b'key', b'message', hashlib.sha256).hexdigest()\n"
        "result = json.dumps([digest, secrets.randbelow(52) < 52, str(fractions.Fraction(3, 6))])\n",
    )
    assert result == (
        '["6e9ef29b75fffc5b7abae527d58fdadb2fe42e7219011976917343065f58ed4a", true, "1/2"]'
    )


def test_layout_and_loading_status_show_before_python(page, site_url):
    # Hold back the Python code so the loading state can be looked at without a race.
    page.route("**/py/app.py", lambda route: None)
    page.goto(site_url, wait_until="domcontentloaded")
    assert page.text_content("#status") == "Loading Python…"
    assert page.get_attribute("html", "data-ready") == "false"
    assert page.is_visible("h1") and page.is_visible("#controls")
    assert page.is_disabled("#shuffle")
    assert page.is_disabled("#algorithm")


@pytest.mark.parametrize(
    "broken",
    ["pyodide missing", "python raises"],
)
def test_a_failed_start_shows_an_error_instead_of_loading_forever(page, site_url, broken):
    if broken == "pyodide missing":
        page.route("**/static/vendor/pyodide/pyodide.mjs", lambda route: route.abort())
    else:
        page.route(
            "**/py/app.py",
            lambda route: route.fulfill(
                status=200, content_type="text/x-python", body="raise RuntimeError('boom')\n"
            ),
        )
    page.goto(site_url)
    page.wait_for_selector('html[data-ready="error"]', state="attached", timeout=60_000)
    assert page.get_attribute("#status", "data-state") == "error"
    assert page.text_content("#status").startswith("Python could not start")
    assert page.is_disabled("#shuffle")
