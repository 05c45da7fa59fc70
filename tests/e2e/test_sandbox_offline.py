"""Your own shuffle works offline after one visit: the sandbox's frame is not controlled by the service worker,
so the page hands it Pyodide's files and the Python sources, which it fetched through the service worker."""

from __future__ import annotations

from e2e_pages import STEP_TIMEOUT_MS, WORKER_TIMEOUT_MS, open_in, problems

SANDBOX_READY = "() => globalThis.shufflelabSandbox !== undefined && shufflelabSandbox.state.phase === 'ready'"


def open_the_editor(page) -> None:
    """Open "Your own shuffle" (which starts the sandbox) once the lab's worker is there."""
    try:
        page.wait_for_function("() => !document.getElementById('custom-run').disabled", timeout=WORKER_TIMEOUT_MS)
    except Exception as error:
        raise AssertionError("the lab's worker did not start: %r" % page.text_content("#lab-status")) from error
    page.click("#mine summary")
    page.wait_for_function(SANDBOX_READY, timeout=WORKER_TIMEOUT_MS)


def test_your_shuffle_runs_in_the_sandbox_with_the_network_cut(browser, site_url, visit):
    context = browser.new_context(service_workers="allow")
    try:
        # the visit starts on the deal, so the service worker is in control before the lab's workers fetch anything
        # (a first visit straight to the lab can fetch the built-ins' Pyodide before it is: README, "Offline")
        opened = open_in(context, f"{site_url}?seed=sandbox-offline&n=6", visit, "test_sandbox_offline: first visit")
        page = opened.page
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=STEP_TIMEOUT_MS)
        page.wait_for_selector("html[data-offline='ready']", state="attached", timeout=STEP_TIMEOUT_MS)
        page.click("#tab-lab")
        open_the_editor(page)  # the built-ins' and the sandbox's files go through the service worker once

        context.set_offline(True)
        page.reload()
        page.wait_for_selector('html[data-ready="true"]', state="attached", timeout=WORKER_TIMEOUT_MS)
        open_the_editor(page)
        page.click("#custom-run")  # the editor's example: swap-with-any, walked and tallied offline
        page.wait_for_function("() => document.getElementById('verdict').dataset.verdict === 'biased'",
                               timeout=WORKER_TIMEOUT_MS)
        page.wait_for_function("() => document.getElementById('exact-note').textContent.includes('2285/23328')",
                               timeout=WORKER_TIMEOUT_MS)
        assert page.text_content("#custom-status").startswith("Running your shuffle")
        frame = page.query_selector("iframe[sandbox]")
        assert frame is not None and frame.get_attribute("sandbox") == "allow-scripts"  # never allow-same-origin
        assert frame.content_frame().evaluate("() => self.origin") == "null"
        assert problems(opened) == []
    finally:
        context.close()
