"""Offline after the first visit: the service worker keeps the site's files (and Pyodide's, once
the lab has been opened), and a reload with the network cut still deals and runs the lab."""

from __future__ import annotations

from e2e_pages import STEP_TIMEOUT_MS, WORKER_TIMEOUT_MS, open_in, run_tally

CACHE = "shufflelab-v1"


def wait_for_the_service_worker(page) -> None:
    """Until the service worker controls the page and has kept what the page loaded before it ran."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=STEP_TIMEOUT_MS)
    page.wait_for_selector("html[data-offline='ready']", state="attached", timeout=STEP_TIMEOUT_MS)
    page.wait_for_function(
        """c => caches.open(c).then(cache => cache.match('./static/vendor/micropython/micropython.wasm'))
                 .then(found => !!found)""", arg=CACHE, timeout=STEP_TIMEOUT_MS)


def test_a_deal_and_the_lab_work_offline_after_one_visit(browser, site_url, visit):
    context = browser.new_context(service_workers="allow")
    try:
        page = open_in(context, f"{site_url}?seed=offline&view=lab&n=8", visit, "test_offline: first visit").page
        page.wait_for_selector("#lab-start:enabled", timeout=WORKER_TIMEOUT_MS)
        wait_for_the_service_worker(page)
        shown_online = page.eval_on_selector_all("#deck li", "cards => cards.map(c => c.dataset.card)")

        context.set_offline(True)
        page.reload()
        page.wait_for_selector('html[data-ready="true"]', state="attached", timeout=WORKER_TIMEOUT_MS)
        assert page.eval_on_selector_all("#deck li", "cards => cards.map(c => c.dataset.card)") == shown_online
        run_tally(page, 1000)

        page.click("#tab-deal")  # and a new deal, offline
        page.click("#new-seed")
        page.wait_for_function("() => new URLSearchParams(location.search).get('seed') !== 'offline'",
                               timeout=STEP_TIMEOUT_MS)
    finally:
        context.close()


def test_a_deal_only_visit_works_offline_and_the_lab_says_why_it_cannot(browser, site_url, visit):
    context = browser.new_context(service_workers="allow")
    try:
        page = open_in(context, f"{site_url}?seed=deal-only", visit, "test_offline: deal only").page
        wait_for_the_service_worker(page)
        context.set_offline(True)
        page.reload()
        page.wait_for_selector('html[data-ready="true"]', state="attached", timeout=WORKER_TIMEOUT_MS)
        assert len(page.query_selector_all("#deck li")) == 52
        page.click("#tab-lab")  # Pyodide was never fetched: the lab says so and offers Retry
        page.wait_for_selector("#lab-retry:visible", timeout=15_000)
        assert "could not start" in page.text_content("#lab-status")
    finally:
        context.close()


def test_a_new_release_replaces_the_old_cache(browser, site_url):
    context = browser.new_context(service_workers="allow")
    try:
        page = context.new_page()
        page.goto(site_url + "static/css/site.css")  # same origin, before any service worker
        page.evaluate("caches.open('shufflelab-v0').then(cache => cache.put('/old', new Response('old')))")
        page.goto(site_url + "?seed=release")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=STEP_TIMEOUT_MS)
        page.wait_for_function("c => caches.keys().then(k => JSON.stringify(k) === JSON.stringify([c]))",
                               arg=CACHE, timeout=STEP_TIMEOUT_MS)
    finally:
        context.close()
