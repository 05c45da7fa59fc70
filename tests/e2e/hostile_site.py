"""The hostile-code suite's site, page and checks, shared by its modules (test_hostile_code.py: what code from a
link can reach; test_hostile_answers.py: what its answers can do to the trusted side).

One browser context (service workers allowed) and one page serve a module: the context's caches,
databases and registrations are compared before and after each Run, and put back as they were after
each test, so one test's damage never fails the next. After a test that failed (or left its page
unsure), the next link is a fresh page load, as a stranger's click is; after one that passed, the
page follows the next link as Back brings it there (the same code reads the link), which keeps the
lab's worker and saves its 3 to 5 s start. The offline check opens its own tab. The server is the
module's own: the site as conftest's serves it, plus `e2e-echo`, a same-origin resource that answers
with the request's cookies (what a same-origin API would hand to code running with the site's
credentials).
"""

from __future__ import annotations

import functools
import hashlib
import io
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from e2e_pages import FOLLOW_JS, cli_deal, margin, shown

import site_manifest
from conftest import SUB_PATH, SubPathHandler, serve_sub_path
from shufflelab import seal
from shufflelab.cards import DeckSpec
from shufflelab.codelink import pack_code
from shufflelab.link import DealSpec, Link, View

ROOT = Path(__file__).resolve().parents[2]
ECHO = "e2e-echo"
WAIT_MS = 20_000  # every wait here: a page load, the lab's worker, the outcome of a Run, a verdict

# The secrets a hostile link would like to read: a sealed deal's seeds (the module visits its reveal
# link first) and a cookie of the page's origin.
SECRET_SEED = "Qz7sealedSeedSecret"
SECRET_PLAYER_SEED = "Vx3playerSeedSecret"
SECRET_COOKIE = "Kc9cookieSecret"
SEALED = DealSpec("fisher-yates", {}, SECRET_SEED, DeckSpec("standard"), 4, 5, "round-robin",
                  player_seed=SECRET_PLAYER_SEED)
SEALED_QUERY = Link(SEALED, View(commitment=seal.commitment(SEALED))).to_query()
SECRET_KEYS = ("seed", "pseed", "commit", "code")  # query keys no Cache Storage key may carry
OFFLINE_SEED = "offline-check"

# What the payloads write, built at run time from pieces so that their source never holds it.
MARK = "ZQXforged"
LAB_ALGO = "fisher-yates"  # the menu's algorithm in every hostile link (the checks switch to swap-any and back)


# A correct shuffle: what a payload returns once its attack is done, and the next Run after a hostile one.
GOOD = '''def shuffle(cards, rng):
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards
'''


# --- the payloads ------------------------------------------------------------------------------------

# Every asynchronous payload: `attack()` runs as a task of the code's own event loop (Pyodide's
# asyncio), noting what it did or read; the shuffle is a correct Fisher-Yates until the attack is
# over, then raises with what it noted, so the outcome shows under the editor and carries the loot.
ASYNC_PAYLOAD = '''import asyncio, json, sys, time
SITE = "{site}"
MARK = "ZQX" + "forged"
_state = {{"report": None, "start": time.monotonic()}}
_notes = []

def note(what, detail):
    _notes.append(what + ": " + " ".join(str(detail).replace(MARK, "<m>").split())[:90])

def js_object(**fields):
    import js
    from pyodide.ffi import to_js
    return to_js(fields, dict_converter=js.Object.fromEntries)

async def attack():
    import js
{attack}

async def _run():
    try:
        await attack()
    except BaseException as error:
        note("attack", repr(error))
    _state["report"] = " | ".join(_notes) or "nothing"

try:
    asyncio.ensure_future(_run())
except BaseException as error:
    note("no event loop", repr(error))
    _state["report"] = " | ".join(_notes)

def shuffle(cards, rng):
    if _state["report"] is not None or time.monotonic() - _state["start"] > 8:
        raise RuntimeError(_state["report"] or "attack still running")
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards
'''


def payload(site: str, attack: str) -> str:
    body = "\n".join("    " + line if line.strip() else "" for line in attack.strip("\n").splitlines())
    return ASYNC_PAYLOAD.format(site=site, attack=body)



# --- this module's server: the site under /shuffle-lab/, plus a cookie echo ----------------------------


class EchoingSite(SubPathHandler):
    """The site at SUB_PATH (404 elsewhere), and SUB_PATH + ECHO answering with the request's cookies."""

    cookies_received: list[str] = []

    def send_head(self):
        if urlsplit(self.path).path != SUB_PATH + ECHO:
            return super().send_head()
        cookie = self.headers.get("Cookie", "")
        EchoingSite.cookies_received.append(cookie)
        body = ("cookies " + cookie).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


def echoing_site():
    """Serve the site under SUB_PATH, with the cookie echo, while the block runs."""
    return serve_sub_path(ROOT, handler_class=EchoingSite)


# --- reading the page and its storage ----------------------------------------------------------------

# Recorded from before the page's own scripts run: every text #trials, #lab-status and #custom-status showed (and
# when, on the page's clock), and every message a frame posted to the page: how many, when the last came, and those
# that were anything but a plain object of at most three plain values (more is what the page would read whole).
RECORDER_JS = """(() => {
  if (window.top !== window) return;
  window.__seen = {'trials': [], 'lab-status': [], 'custom-status': []};
  window.__seenAt = {'trials': [], 'lab-status': [], 'custom-status': []};
  window.__frames = {count: 0, last: 0, impure: []};
  addEventListener('message', (event) => {
    if (![...document.querySelectorAll('iframe')].some(f => f.contentWindow === event.source)) return;
    const data = event.data, frames = window.__frames;
    frames.count += 1;
    frames.last = performance.now();
    const keys = data !== null && typeof data === 'object' ? Object.keys(data).sort() : [];
    const plain = data !== null && typeof data === 'object' && Object.getPrototypeOf(data) === Object.prototype
      && keys.length <= 3 && keys.every(k => data[k] === null || typeof data[k] !== 'object');
    if (!plain && frames.impure.length < 5) frames.impure.push(`${typeof data} with keys ${keys.join(', ').slice(0, 80)}`);
  }, {capture: true});
  document.addEventListener('DOMContentLoaded', () => {
    for (const id of Object.keys(window.__seen)) {
      const node = document.getElementById(id), into = window.__seen[id], at = window.__seenAt[id];
      if (!node) continue;
      into.push(node.textContent);
      at.push(performance.now());
      new MutationObserver(() => {
        if (into[into.length - 1] !== node.textContent) { into.push(node.textContent); at.push(performance.now()); }
      }).observe(node, {childList: true, characterData: true, subtree: true});
    }
  });
})();"""

STORAGE_JS = """async () => {
  const hex = buffer => [...new Uint8Array(buffer)].map(b => b.toString(16).padStart(2, '0')).join('');
  const caches_ = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name), entries = {};
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      entries[request.url] = response ? hex(await crypto.subtle.digest('SHA-256', await response.arrayBuffer())) : null;
    }
    caches_[name] = entries;
  }
  const databases = (await indexedDB.databases()).map(d => `${d.name} v${d.version}`).sort();
  const workers = (await navigator.serviceWorker.getRegistrations())
    .map(r => `${r.scope} ${(r.active || r.waiting || r.installing || {}).scriptURL}`).sort();
  return {caches: caches_, databases, workers};
}"""

# What the page shows: all its markup, its fields' values, its title and address; the same without the
# line under the editor (the code's own words may be quoted there); and elements the code could have
# written (the page's CSP allows no event-handler attribute of its own).
SCREEN_JS = """() => {
  const values = [...document.querySelectorAll('input, textarea, select, output')].map(e => e.value ?? '');
  const extra = '\\n' + values.join('\\n') + '\\n' + document.title + '\\n' + location.href;
  const clone = document.documentElement.cloneNode(true);
  const line = clone.querySelector('#custom-status');
  if (line) line.replaceChildren();
  const injected = [...document.querySelectorAll('*')].filter(e =>
      (e.tagName === 'IMG' && e.getAttribute('src') === 'x') || e.hasAttribute('data-zqx')
      || [...e.attributes].some(a => a.name.toLowerCase().startsWith('on')))
    .map(e => e.outerHTML.slice(0, 120));
  const status = document.getElementById('custom-status');
  return {
    everything: document.documentElement.outerHTML + extra,
    outsideLine: clone.outerHTML + extra,
    injected,
    pwned: window.__pwned === undefined ? null : String(window.__pwned),
    line: status ? status.textContent : '',
    lineState: status ? status.dataset.state : '',
  };
}"""

RESTORE_JS = """async ([names, databases, scopes, stale]) => {
  for (const name of await caches.keys()) if (!names.includes(name)) await caches.delete(name);
  for (const [name, url, refetch] of stale) {
    const cache = await caches.open(name);
    await cache.delete(url);
    if (refetch) {
      try { await cache.put(url, await fetch(url, {cache: 'no-store'})); } catch (error) {}
    }
  }
  for (const d of await indexedDB.databases()) {
    if (!databases.includes(`${d.name} v${d.version}`)) {
      await new Promise(done => {
        const request = indexedDB.deleteDatabase(d.name);
        request.onsuccess = request.onerror = request.onblocked = done;
      });
    }
  }
  for (const r of await navigator.serviceWorker.getRegistrations()) {
    if (!scopes.includes(`${r.scope} ${(r.active || r.waiting || r.installing || {}).scriptURL}`)) await r.unregister();
  }
}"""


@functools.cache
def served_digest(path: str) -> str | None:
    """SHA-256 of the file the server serves at a path under SUB_PATH (None: it serves no such file)."""
    if not path.startswith(SUB_PATH):
        return None
    relative = path[len(SUB_PATH):]
    if relative in site_manifest.GENERATED:  # lab.toml and lab.zip: made from the tree when asked for
        return hashlib.sha256(site_manifest.generated_file(ROOT, relative)).hexdigest()
    file = ROOT / (relative + "index.html" if relative == "" or relative.endswith("/") else relative)
    try:
        resolved = file.resolve()
        resolved.relative_to(ROOT)
        return hashlib.sha256(resolved.read_bytes()).hexdigest() if resolved.is_file() else None
    except (OSError, ValueError):
        return None


def altered_entries(storage: dict, origin: str) -> list[tuple[str, str, str]]:
    """(cache, url, why) for every kept response that is not the file the server serves there."""
    found = []
    for name, entries in storage["caches"].items():
        for url, digest in entries.items():
            parts = urlsplit(url)
            served = served_digest(parts.path) if url.startswith(origin + "/") else None
            if served is None:
                found.append((name, url, "not a file of the site"))
            elif digest != served:
                found.append((name, url, "not the file the server serves"))
    return found


def secret_keys(storage: dict) -> list[str]:
    """Cache Storage keys whose query carries a secret (or the code)."""
    return [url for entries in storage["caches"].values() for url in entries
            if set(parse_qs(urlsplit(url).query, keep_blank_values=True)) & set(SECRET_KEYS)]


def short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


# --- the module's site, context and page ------------------------------------------------------------


@dataclass
class Site:
    url: str
    context: object
    page: object
    baseline: dict = field(default_factory=dict)
    reusable: bool = False  # the page is on a lab link, its worker up, nothing harmful run on it
    reusable_after: bool = False  # set by a test that passed and leaves such a page
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def origin(self) -> str:
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"

    def storage(self) -> dict:
        return self.page.evaluate(STORAGE_JS)


def wait_ready(page) -> None:
    page.wait_for_selector('html[data-ready="true"], html[data-ready="error"]', state="attached", timeout=WAIT_MS)
    assert page.evaluate("document.documentElement.dataset.ready") == "true", page.text_content("#status")


def wait_for_run_button(page) -> None:
    """Run is enabled once the page can run code (the button may sit in the closed box)."""
    page.wait_for_function("() => !document.getElementById('custom-run').disabled", timeout=WAIT_MS)


@pytest.fixture(scope="module")
def site(browser):
    """The module's server, context (service workers on) and page, after a sealed deal's reveal link and
    a first visit to the lab: the service worker keeps the site's files and Pyodide's."""
    EchoingSite.cookies_received.clear()
    with echoing_site() as url:
        context = browser.new_context(service_workers="allow")
        context.add_init_script(RECORDER_JS)
        try:
            page = context.new_page()
            found = Site(url, context, page)

            def on_dialog(dialog) -> None:
                found.dialogs.append(f"{dialog.type}: {dialog.message}")
                dialog.dismiss()

            page.on("dialog", on_dialog)
            page.on("pageerror", lambda error: found.errors.append(str(error)))
            page.goto(f"{url}?{SEALED_QUERY}")
            wait_ready(page)
            page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=WAIT_MS)
            page.wait_for_selector("html[data-offline='ready']", state="attached", timeout=WAIT_MS)
            page.evaluate("c => { document.cookie = c; }", f"hostile_secret={SECRET_COOKIE}; path=/")
            page.goto(f"{url}?view=lab&n=8&algo={LAB_ALGO}")  # the lab's worker: Pyodide's files are kept too
            wait_ready(page)
            wait_for_run_button(page)
            # one Run of the editor's own example first: whatever a first Run keeps, it keeps before the baseline
            since = mark(page, "trials")
            press_run(page)
            wait_for_tally(page, since)
            pause(page)
            found.baseline = found.storage()
            found.reusable = True
            yield found
        finally:
            context.close()


@pytest.fixture
def hostile(site):
    """The module's site for one test; afterwards its storage is put back as it was before the test."""
    site.reusable_after = False
    site.dialogs.clear()
    yield site
    site.reusable = site.reusable_after  # only a test that ended well, and says so, leaves its page to the next
    site.context.set_offline(False)
    try:
        now, base = site.storage(), site.baseline
        stale = [[name, url, served_digest(urlsplit(url).path) is not None and url.startswith(site.origin + "/")]
                 for name, url, _ in altered_entries(now, site.origin)]
        if stale or set(now["caches"]) - set(base["caches"]) or now["databases"] != base["databases"] \
                or now["workers"] != base["workers"]:
            site.reusable = False
            site.page.evaluate(RESTORE_JS, [list(base["caches"]), base["databases"], base["workers"], stale])
    except Exception as error:  # noqa: BLE001 (a failed clean-up is said, not raised over the test's own result)
        site.reusable = False
        print(f"could not put the storage back: {error}")


# --- driving the page --------------------------------------------------------------------------------


def code_link(site: Site, source: str, n: int = 8) -> str:
    return f"{site.url}?view=lab&n={n}&algo={LAB_ALGO}&code={pack_code(source)}"


def open_code(site: Site, source: str, n: int = 8) -> dict:
    """Open a link that carries `source` as a stranger would; return the storage before Run.

    A fresh load, unless the test before left a page it ran nothing harmful on (it passed and said so,
    see `hostile`): then the page follows the link as Back brings it there, which reads the link with
    the same code as a load, keeps the lab's worker and saves its start (3 to 5 s).
    """
    page = site.page
    if site.reusable:
        follow_code_link(site, source, n)
    else:
        page.goto(code_link(site, source, n))
        wait_ready(page)
    site.reusable = False
    assert page.input_value("#custom-code") == source, "the link's code is not in the editor"
    wait_for_run_button(page)
    return site.storage()


def follow_code_link(site: Site, source: str, n: int = 8) -> None:
    """Follow a link carrying ``source`` as Back brings the page there (no reload); wait until the editor holds it."""
    site.page.evaluate(FOLLOW_JS, urlsplit(code_link(site, source, n)).query)
    site.page.wait_for_function("code => document.getElementById('custom-code').value === code", arg=source,
                                timeout=WAIT_MS)


def run_the_correct_shuffle(site: Site) -> None:
    """The next Run, of a correct shuffle brought by a link, tallies: the lab goes on after what ran before."""
    follow_code_link(site, GOOD)
    wait_for_run_button(site.page)
    since = mark(site.page, "trials")
    press_run(site.page)
    wait_for_tally(site.page, since)


def press_run(page) -> None:
    if not page.is_visible("#custom-run"):
        page.click("#mine summary")
    page.click("#custom-run")


def mark(page, id_: str) -> int:
    return page.evaluate("id => window.__seen[id].length", id_)


def wait_for_line(page, since: int) -> tuple[str, str]:
    """Wait until the line under the editor says the code stopped (an error); return (state, text)."""
    try:
        page.wait_for_function("() => document.getElementById('custom-status').dataset.state === 'error'",
                               timeout=WAIT_MS)
    except Exception as error:
        seen = page.evaluate("k => window.__seen['custom-status'].slice(k)", since)
        raise AssertionError(f"the code's outcome never showed under the editor (it showed {seen}); lab status "
                             f"{page.text_content('#lab-status')!r}") from error
    return page.get_attribute("#custom-status", "data-state"), page.text_content("#custom-status")


# True once #trials, since mark k, started afresh (it showed 0, or fell: a new tally) and then counted.
# (A 0 drawn and replaced within one task is never seen, so a fall counts as a fresh start too.)
COUNTED_AFRESH = """k => {
  const seen = window.__seen.trials.slice(Math.max(0, k - 1)).map(t => Number(t.replace(/,/g, '')));
  let fresh = seen[0] === 0 ? 0 : -1;
  for (let i = 1; i < seen.length; i++) if (seen[i] === 0 || seen[i] < seen[i - 1]) fresh = i;
  return fresh >= 0 && seen.slice(fresh).some(v => v > 0);
}"""


def lab_report(page, since: int = 0) -> str:
    """What the lab showed since mark `since` of #trials, for failure messages."""
    return str(page.evaluate("""k => ({
        trials: window.__seen.trials.slice(Math.max(0, k - 1)).slice(-6),
        line: window.__seen['custom-status'].slice(-3),
        lab: window.__seen['lab-status'].slice(-4),
        run: document.getElementById('custom-run').disabled ? 'disabled' : 'enabled',
    })""", since))


def wait_for_tally(page, since: int) -> None:
    """Wait until the code's own tally counts: a fresh tally since mark `since`, and no error under the editor."""
    wait_for_lab(page, since, "&&", "!==", "the code's tally never counted")


def wait_for_outcome(page, since: int) -> None:
    """Wait until the code's tally counts or the line under the editor says it stopped."""
    wait_for_lab(page, since, "||", "===", "no outcome")


def wait_for_lab(page, since: int, joined: str, compared: str, failure: str) -> None:
    """Wait until a fresh tally has counted since mark `since`, `joined` ("&&" or "||") with whether the line under
    the editor is (`compared` "===") or is not ("!==") an error; otherwise fail with `failure` and what the lab said."""
    try:
        page.wait_for_function(f"k => ({COUNTED_AFRESH})(k) {joined} "
                               f"document.getElementById('custom-status').dataset.state {compared} 'error'",
                               arg=since, timeout=WAIT_MS)
    except Exception as error:
        raise AssertionError(f"{failure}: {lab_report(page, since)}") from error


def wait_for_status(page, since: int, *texts: str) -> None:
    try:
        page.wait_for_function("([k, texts]) => window.__seen['lab-status'].slice(k).some(t => texts.includes(t))",
                               arg=[since, list(texts)], timeout=WAIT_MS)
    except Exception as error:
        seen = page.evaluate("k => window.__seen['lab-status'].slice(k)", since)
        raise AssertionError(f"#lab-status never showed {texts} (it showed {seen})") from error


def pause(page) -> None:
    if page.text_content("#lab-status") == "Running…":
        since = mark(page, "lab-status")
        page.click("#lab-pause")
        wait_for_status(page, since, "Paused.")


def choose(page, algo: str) -> None:
    """Pick `algo` in the menu, as a user does, and wait for its fresh tally to be ready."""
    since = mark(page, "lab-status")
    page.select_option("#algorithm", algo)
    wait_for_status(page, since, "Ready: press Start.")


VERDICT_SHUFFLES = 5000  # swap-any on 8 cards is called biased long before this; a verdict read sooner may be "no bias yet"


def builtin_verdict(page, algo: str) -> str:
    """Switch the lab back to the built-in `algo` from the menu, run it to VERDICT_SHUFFLES and a verdict, pause;
    return it. A count, not the first verdict seen: on a loaded machine the first look comes after fewer shuffles."""
    page.wait_for_selector("#lab-start:enabled", timeout=WAIT_MS)
    pause(page)
    if page.input_value("#algorithm") == algo:  # the menu shows it already: go to another and back
        choose(page, "swap-any" if algo != "swap-any" else "fisher-yates")
    choose(page, algo)
    page.click("#lab-start")
    try:
        page.wait_for_function(
            """() => { const v = document.getElementById('verdict').dataset.verdict;
                       return Number(document.getElementById('trials').textContent.replace(/,/g, '')) >= %d
                           && (v === 'biased' || v === 'no-bias'); }""" % VERDICT_SHUFFLES, timeout=WAIT_MS)
    except Exception as error:
        raise AssertionError(f"{algo}: no verdict; it says {page.text_content('#verdict')!r}") from error
    verdict = page.get_attribute("#verdict", "data-verdict")
    pause(page)
    return verdict


def answers(page) -> None:
    """The page answers a frame and two tab clicks at all (a frozen page fails the wait): no time is measured, so
    it holds on any machine. How soon it answers is ``responsive``'s, in the timing pass."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => done()))")
    for tab in ("#tab-deal", "#tab-lab"):
        page.click(tab, timeout=WAIT_MS)
        page.wait_for_selector(f'{tab}[aria-selected="true"]', timeout=WAIT_MS)


def responsive(page, limit: float = 2.0) -> list[str]:
    """The page answers a frame and a click within `limit` seconds (timing tests only: it reads the clock)."""
    found = []
    start = time.perf_counter()
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => done()))")
    frame = time.perf_counter() - start
    margin("after hostile code: a frame", frame, limit, "s")
    if frame > limit:
        found.append(f"a frame took {frame:.1f} s")
    start = time.perf_counter()
    page.click("#tab-deal", timeout=limit * 1000)
    page.wait_for_selector('#tab-deal[aria-selected="true"]', timeout=limit * 1000)
    page.click("#tab-lab", timeout=limit * 1000)
    page.wait_for_selector('#tab-lab[aria-selected="true"]', timeout=limit * 1000)
    clicks = time.perf_counter() - start
    margin("after hostile code: two tab clicks", clicks, 2 * limit, "s")
    if clicks > 2 * limit:
        found.append(f"two tab clicks took {clicks:.1f} s")
    return found


# --- the checks after a Run ----------------------------------------------------------------------------


def screen_problems(site: Site, marks: tuple[str, ...] = (MARK,)) -> list[str]:
    """Secrets or the code's words on the page, markup the code wrote, a dialog."""
    screen = site.page.evaluate(SCREEN_JS)
    found = []
    for secret in (SECRET_SEED, SECRET_PLAYER_SEED, SECRET_COOKIE):
        if secret in screen["everything"]:
            found.append(f"the page shows a secret the code read ({secret!r}); the line under the editor says "
                         f"{short(screen['line'], 300)!r}")
    for text in marks:
        if text in screen["outsideLine"]:
            at = screen["outsideLine"].index(text)
            found.append(f"the code's words {text!r} show as the page's own: "
                         f"…{screen['outsideLine'][max(0, at - 120):at + 60]!r}…")
    if screen["injected"]:
        found.append(f"elements the code wrote are on the page: {screen['injected'][:3]}")
    if screen["pwned"] is not None:
        found.append("the code's markup ran a script on the page")
    if site.dialogs:
        found.append(f"dialogs opened: {site.dialogs}")
    return found


def storage_problems(site: Site, before: dict) -> list[str]:
    """What the Run changed in the site's storage, and secrets kept in Cache Storage keys."""
    after = site.storage()
    found = []
    new_caches = sorted(set(after["caches"]) - set(before["caches"]))
    gone_caches = sorted(set(before["caches"]) - set(after["caches"]))
    if new_caches:
        found.append(f"new caches: {new_caches}")
    if gone_caches:
        found.append(f"caches deleted: {gone_caches}")
    gone = [url for name in set(before["caches"]) & set(after["caches"])
            for url in before["caches"][name] if url not in after["caches"][name]]
    if gone:
        found.append(f"{len(gone)} kept responses removed, e.g. {gone[:2]}")
    altered = altered_entries(after, site.origin)
    if altered:
        found.append(f"{len(altered)} kept responses are not the site's files, e.g. "
                     f"{[f'{name}: {short(url, 90)} ({why})' for name, url, why in altered[:3]]}")
    if after["databases"] != before["databases"]:
        found.append(f"IndexedDB databases changed: {before['databases']} -> {after['databases']}")
    if after["workers"] != before["workers"]:
        found.append(f"service worker registrations changed: {before['workers']} -> {after['workers']}")
    new_secrets = [url for url in secret_keys(after) if url not in secret_keys(before)]
    if new_secrets:
        found.append(f"new Cache Storage keys carry a secret or code: {[short(u, 120) for u in new_secrets[:2]]}")
    return found


def offline_problems(site: Site) -> list[str]:
    """Cut the network, open a deal link in a new tab: the real page must show the CLI's deal from what was kept."""
    page = site.context.new_page()
    site.context.set_offline(True)
    try:
        page.goto(f"{site.url}?seed={OFFLINE_SEED}")
        try:
            assert page.evaluate("document.documentElement.hasAttribute('data-ready')"), "not the site's page"
            wait_ready(page)
        except Exception as error:  # noqa: BLE001 (said as a problem, with what the page shows)
            body = page.evaluate("() => document.body ? document.body.innerText : document.documentElement.outerHTML")
            return [f"offline, the page never got ready ({type(error).__name__}); it shows {short(body, 160)!r}"]
        if shown(page)["order"] != cli_deal(seed=OFFLINE_SEED)["order"]:
            return ["offline, the page does not show the deal of its link"]
        return []
    finally:
        site.context.set_offline(False)
        page.close()


BUILTIN_VERDICTS = (("swap-any", "biased"), ("fisher-yates", "no-bias"))


def builtin_problems(site: Site, builtins=BUILTIN_VERDICTS) -> list[str]:
    """The built-ins, chosen from the menu after the code ran, keep their verdicts on 8 cards."""
    found = []
    for algo, expected in builtins:
        got = builtin_verdict(site.page, algo)
        if got != expected:
            found.append(f"{algo} now reads {got!r} ({site.page.text_content('#verdict')!r}), not {expected!r}")
    return found


def assert_unharmed(site: Site, before: dict, *, offline: bool = False, builtins=(),
                    extra: list[str] = ()) -> None:
    """Every check that applies, collected, so that one failure lists everything the code did."""
    found = list(extra) + screen_problems(site) + storage_problems(site, before)
    if builtins:
        found += builtin_problems(site, builtins)
    if offline:
        found += offline_problems(site)
    assert found == [], "\n".join(found)
    site.reusable_after = True  # the page came out whole: the next test may follow a link on it


def run_attack(site: Site, attack: str) -> tuple[dict, str]:
    """Open a link carrying the attack, press Run once, wait for the code's last words; return (storage before, words)."""
    before = open_code(site, payload(site.url, attack))
    since = mark(site.page, "custom-status")
    press_run(site.page)
    _, line = wait_for_line(site.page, since)
    print(f"the code's last words: {line}")
    return before, line

