"""Offline after the first visit: the service worker keeps the site's files (and Pyodide's, once
the lab has been opened), and a reload with the network cut still deals and runs the lab. It keeps
them under keys with no query (no seed of a link is ever stored), serves offline only bytes that
match the manifest sealed into sw.js (a script that rewrites Cache Storage changes nothing), and an
update deletes the old release's cache."""

from __future__ import annotations

import time
from pathlib import Path

from e2e_pages import ROOT, STEP_TIMEOUT_MS, WORKER_TIMEOUT_MS, open_in, run_tally
from playwright.sync_api import Error as PlaywrightError

from shufflelab import seal
from shufflelab.cards import DeckSpec
from shufflelab.codelink import pack_code
from shufflelab.link import DealSpec, Link, View

CACHE = "shufflelab-v2"
OLD_WORKER = (Path(__file__).parent / "sw_v1.js").read_bytes()  # the release that kept seeds in its keys
SECRET_SEED = "secret-seed-4f1d9a"
SECRET_PLAYER_SEED = "secret-player-seed-b27e"
CODE = "def shuffle(cards, rng):\n    cards.reverse()\n"  # a user's code, also private until shared

# Every key of every cache of the origin, as "cache name, URL".
ALL_KEYS_JS = """async () => {
  const keys = [];
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) keys.push(name + " " + request.url);
  }
  return keys;
}"""


# In the service worker: record the URL of every entry any cache is given, from now on.
RECORD_WRITES_JS = """() => {
  self.keysWritten = [];
  const url = (request) => new Request(request).url;
  for (const [name, urls] of [["put", (r) => [url(r)]], ["add", (r) => [url(r)]], ["addAll", (rs) => rs.map(url)]]) {
    const original = Cache.prototype[name];
    Cache.prototype[name] = function (first, ...rest) {
      self.keysWritten.push(...urls(first));
      return original.call(this, first, ...rest);
    };
  }
}"""


def wait_for_true(target, predicate: str, arg=None, what: str = "") -> None:
    """Until `predicate(arg)`, run in a page or a worker, resolves truthy: wait_for_function would
    take the promise an async predicate returns for a truthy value and not wait at all."""
    deadline = time.monotonic() + STEP_TIMEOUT_MS / 1000
    while not target.evaluate(predicate, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"not true after {STEP_TIMEOUT_MS / 1000:.0f} s: {what or predicate}")
        time.sleep(0.05)  # polls a condition: not a wait for time to pass


def wait_for_the_service_worker(page) -> None:
    """Until the service worker controls the page and has kept what the page loaded before it ran."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=STEP_TIMEOUT_MS)
    page.wait_for_selector("html[data-offline='ready']", state="attached", timeout=STEP_TIMEOUT_MS)
    wait_for_true(page, "c => caches.open(c).then(cache => cache.match('./static/vendor/micropython/micropython.wasm'))"
                        ".then(found => !!found)", CACHE, "micropython.wasm kept")


def the_service_worker(context):
    """This release's service worker, running (Playwright's handle on it, to evaluate in it)."""
    return next(worker for worker in context.service_workers if worker.url.endswith("/sw.js"))


def test_a_deal_and_the_lab_work_offline_after_one_visit(browser, site_url, visit):
    context = browser.new_context(service_workers="allow")
    try:
        # the service worker is held back until the lab's worker is up, so that worker is never controlled (a slow
        # service worker on a first visit straight to the lab): the lab asks it to keep the lab's files instead
        held = []
        context.route("**/sw.js", lambda route: held.append(route))
        page = open_in(context, f"{site_url}?seed=offline&view=lab&n=8", visit, "test_offline: first visit").page
        page.wait_for_selector("#lab-start:enabled", timeout=WORKER_TIMEOUT_MS)
        assert held, "the page asked for its service worker before the lab's worker was up"
        for route in held:
            route.continue_()
        context.unroute("**/sw.js")
        wait_for_the_service_worker(page)
        page.wait_for_selector("html[data-offline-lab='ready']", state="attached", timeout=WORKER_TIMEOUT_MS)
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
        page.click("#tab-play")  # Play needs the same worker: it says the same, and offers Retry too
        page.wait_for_selector("#play-retry:visible", timeout=15_000)
        said = page.text_content("#play-expected")
        assert "could not start" in said and "Retry" in said and "working it out" not in said, said
        assert page.text_content("#play-status") == ""  # no "Something went wrong… reload" beside it
    finally:
        context.close()


def sealed_link(site_url: str) -> str:
    """A reveal link of a sealed deal: its seed, player seed and commitment are all in the query."""
    spec = DealSpec("fisher-yates", {}, SECRET_SEED, DeckSpec("standard"), 4, 5, "blocks",
                    player_seed=SECRET_PLAYER_SEED)
    return site_url + "?" + Link(spec, View(commitment=seal.commitment(spec))).to_query()


def test_no_cache_key_holds_a_query_or_a_seed(browser, site_url, visit):
    link = sealed_link(site_url)
    context = browser.new_context(service_workers="allow")
    try:
        # the first visit, before the worker ran: the page sends it its address to keep
        page = open_in(context, link, visit, "test_offline: a sealed link").page
        wait_for_the_service_worker(page)
        # from now on every write to any cache is recorded, even one deleted later
        worker = the_service_worker(context)
        worker.evaluate(RECORD_WRITES_JS)
        # the same link and a link with code, through the worker: navigations it keeps itself
        page.reload()
        page.wait_for_selector("html[data-offline='ready']", state="attached", timeout=STEP_TIMEOUT_MS)
        page.goto(f"{site_url}index.html?seed={SECRET_SEED}&code={pack_code(CODE)}")
        page.wait_for_selector("html[data-offline='ready']", state="attached", timeout=STEP_TIMEOUT_MS)
        page_key = f"{site_url}index.html"
        wait_for_true(worker, "keys => self.keysWritten.filter(url => keys.includes(url.split('?')[0])).length >= 2",
                      [page_key, site_url], "the page kept on each navigation, under whatever key")

        secret = ("?", SECRET_SEED, SECRET_PLAYER_SEED, "seed", "commit", "code=")
        assert [url for url in worker.evaluate("self.keysWritten") if any(s in url for s in secret)] == []
        keys = page.evaluate(ALL_KEYS_JS)
        assert [key for key in keys if any(s in key for s in secret)] == []
        # the page, kept once under one key, for every link to it
        assert [key for key in keys if key.endswith(("/shuffle-lab/", "index.html"))] == [f"{CACHE} {page_key}"]
    finally:
        context.close()


def test_a_rewritten_cache_is_never_served_offline(browser, site_url, visit):
    context = browser.new_context(service_workers="allow")
    try:
        page = open_in(context, site_url + "?seed=tampered", visit, "test_offline: tampered").page
        wait_for_the_service_worker(page)
        # any script of the origin can rewrite Cache Storage: here every kept script, in every cache
        rewritten = page.evaluate("""async () => {
          let count = 0;
          for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            for (const request of await cache.keys()) {
              if (!request.url.endsWith(".js") && !request.url.endsWith(".mjs")) continue;
              await cache.put(request, new Response('document.documentElement.dataset.evil = "ran";',
                                                    {headers: {"content-type": "text/javascript"}}));
              count += 1;
            }
          }
          return count;
        }""")
        assert rewritten > 0
        context.set_offline(True)
        page.reload()  # the kept index.html is the real one; the rewritten scripts are not served
        assert page.evaluate("document.documentElement.dataset.evil") is None
        assert page.title() == "Shuffle Lab"

        # the case: the page itself rewritten, in every cache
        page.evaluate("""async () => {
          for (const name of await caches.keys()) {
            await (await caches.open(name)).put("./index.html",
              new Response("<p>evil</p>", {headers: {"content-type": "text/html"}}));
          }
        }""")
        try:
            page.reload()
        except PlaywrightError as error:  # fails safe: no good copy, so no page, as with no service worker
            assert "net::ERR_" in str(error)
        else:  # or the real page
            assert "evil" not in page.content() and page.title() == "Shuffle Lab"

        # back online, the real files are kept again
        context.set_offline(False)
        page.goto(site_url + "?seed=tampered")
        page.wait_for_selector('html[data-ready="true"]', state="attached", timeout=STEP_TIMEOUT_MS)
        wait_for_true(page, "c => caches.open(c).then(cache => cache.match('./index.html')).then(r => r && r.text())"
                            ".then(text => !!text && text.includes('<title>Shuffle Lab</title>'))", CACHE,
                      "the real index.html kept again")
    finally:
        context.close()


def test_a_new_release_deletes_the_old_cache_and_its_seeds(browser, serve_directory):
    context = browser.new_context(service_workers="allow")
    try:
        with serve_directory(ROOT, {"sw-v1.js": OLD_WORKER}) as site_url:
            page = context.new_page()
            page.goto(site_url + "static/css/site.css")  # same origin, before any service worker
            # the old release's worker, as a returning visitor has it, keeps a link with its seed
            page.evaluate("url => navigator.serviceWorker.register(url).then(() => navigator.serviceWorker.ready)",
                          site_url + "sw-v1.js")
            page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=STEP_TIMEOUT_MS)
            page.evaluate("url => fetch(url).then(answer => answer.text())", f"{site_url}?seed={SECRET_SEED}")
            assert f"shufflelab-v1 {site_url}?seed={SECRET_SEED}" in page.evaluate(ALL_KEYS_JS)

            # this release's sw.js, registered as the page does (static/js/offline.js), replaces it
            page.evaluate("url => navigator.serviceWorker.register(url).then(() => true)", site_url + "sw.js")
            page.wait_for_function("() => navigator.serviceWorker.controller?.scriptURL.endsWith('/sw.js')",
                                   timeout=STEP_TIMEOUT_MS)
            wait_for_true(page, "c => caches.keys().then(k => JSON.stringify(k) === JSON.stringify([c]))", CACHE,
                          f"only {CACHE} left")
            page.goto(site_url + f"?seed={SECRET_SEED}")  # and keeps a link's page with no query
            page.wait_for_selector("html[data-offline='ready']", state="attached", timeout=STEP_TIMEOUT_MS)
            keys = page.evaluate(ALL_KEYS_JS)
            assert f"{CACHE} {site_url}index.html" in keys
            assert [key for key in keys if "?" in key or not key.startswith(CACHE + " ")] == []
    finally:
        context.close()
