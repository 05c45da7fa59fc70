"""Your own shuffle works offline after one visit: the sandbox's frame is not controlled by the service worker,
so the page hands it Pyodide's files and the Python sources, which it fetched through the service worker."""

from __future__ import annotations

from e2e_pages import STEP_TIMEOUT_MS, WORKER_TIMEOUT_MS, open_in, problems

SANDBOX_READY = "() => globalThis.shufflelabSandbox !== undefined && shufflelabSandbox.anyReady()"


LAB_FILES = ["py/worker.py", "py/sandbox.py", "py/shufflelab/lab/sandbox.py", "pyscript.toml", "sandbox.toml",
             "static/vendor/pyodide/pyodide.asm.wasm", "static/vendor/pyodide/python_stdlib.zip",
             "static/js/sandbox-worker.js"]


def wait_until_kept(page, files: list[str]) -> None:
    """Poll Cache Storage (a promise, which wait_for_function would take as true at once) until every file is kept."""
    for _ in range(120):
        missing = page.evaluate("""files => caches.keys().then(names => Promise.all(names.map(n => caches.open(n)
            .then(c => c.keys())))).then(lists => { const kept = lists.flat().map(r => r.url);
              return files.filter(f => !kept.some(url => url.endsWith('/' + f))); })""", files)
        if not missing:
            return
        page.wait_for_timeout(250)
    raise AssertionError(f"never kept: {missing}")


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
        # a first visit straight to the lab, its built-ins' worker up before the service worker is in control (held
        # back here until then, as a slow one would be): what both lab workers load must still be kept, before the
        # network goes (the sandbox fetches through the service worker, and the page lists what it loaded before)
        held = []
        context.route("**/sw.js", lambda route: held.append(route))
        opened = open_in(context, f"{site_url}?view=lab&n=6", visit, "test_sandbox_offline: first visit")
        page = opened.page
        page.wait_for_function("() => !document.getElementById('custom-run').disabled", timeout=WORKER_TIMEOUT_MS)
        assert held, "the page asked for its service worker before the lab's worker was up"
        for route in held:
            route.continue_()
        context.unroute("**/sw.js")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=STEP_TIMEOUT_MS)
        open_the_editor(page)
        wait_until_kept(page, LAB_FILES)

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
