"""Hostile code in a share link: a stranger opens a link whose `code=` attacks the site, presses Run
once, and the site comes out of it as it went in.

Each test opens `?view=lab&n=8&algo=fisher-yates&code=...` (the code packed as the link packs it),
presses Run, waits for the outcome (the code's last words under the editor, #custom-status, or its
tally running), then checks from the page's side only, never from how the code is run:

* storage: Cache Storage has the same caches, no kept response was removed, and every kept
  response is byte for byte the file the server serves (a response the site fetched after Run may
  be added; a foreign or altered one may not); IndexedDB has the same databases; the same service
  workers are registered (`storage_problems`);
* secrets: no Cache Storage key carries `seed=`, `pseed=`, `commit=` or `code=` (the module first
  visits a sealed deal's reveal link, so there is a seed to leak), and neither that seed, the
  player seed nor the page's cookie shows anywhere on the page (each payload ends by raising an
  error that carries whatever it could read, so what it read would be shown under the editor);
* the page's words: text the code builds at run time (`ZQX...`, never written literally in its
  source) shows nowhere outside the line under the editor, and no element the code wrote (an
  `<img src=x onerror=...>`, an event-handler attribute) appears; no dialog opens;
* where the attack aims at them: the built-ins' verdicts (swap-any "biased", Fisher-Yates
  "no-bias" on 8 cards, chosen from the menu and run after the code ran), the offline page (the
  network cut, a deal link loads from the service worker and shows the CLI's cards), and the page
  answering at once while the code floods its side.

One browser context (service workers allowed) and one page serve the module: the context's caches,
databases and registrations are compared before and after each Run, and put back as they were after
each test, so one test's damage never fails the next. After a test that failed (or left its page
unsure), the next link is a fresh page load, as a stranger's click is; after one that passed, the
page follows the next link as Back brings it there (the same code reads the link), which keeps the
lab's worker and saves its 3 to 5 s start. The offline check opens its own tab. The server is this
module's own: the site as conftest's serves it, plus `e2e-echo`, a same-origin resource that answers
with the request's cookies (what a same-origin API would hand to code running with the site's
credentials).

The endless loop (10 s limit) and the flood are `timing` tests: `make test` runs them alone.
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
from e2e_pages import FOLLOW_JS, cli_deal, shown

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


# Read every Cache Storage key (the seeds in them first: the report is cut at 200 characters),
# overwrite every kept response with the code's words, and keep a page of its own in a new cache.
# (Each step is done for all at once: the code's event loop only turns between chunks of its tally.)
CACHES_ATTACK = '''
from urllib.parse import parse_qs, urlsplit
names = [str(name) for name in await js.caches.keys()]
opened = await asyncio.gather(*[js.caches.open(name) for name in names])
requests = await asyncio.gather(*[cache.keys() for cache in opened])
found, puts = [], []
html = js_object(headers=js_object(**{"Content-Type": "text/html"}))
for cache, kept in zip(opened, requests):
    for request in kept:
        url = str(request.url)
        query = parse_qs(urlsplit(url).query)
        found += [k + "=" + query[k][0] for k in ("seed", "pseed", "commit") if k in query]
        puts.append(cache.put(url, js.Response.new("<h1>" + MARK + "</h1>", html)))
note("keys", " ".join(dict.fromkeys(found)) or "no secret")
mine = await js.caches.open("zqx-cache")
puts.append(mine.put(SITE + "zqx.html", js.Response.new(MARK)))
await asyncio.gather(*puts)
note("overwrote", "%d responses in %s" % (len(puts) - 1, names))
'''

INDEXEDDB_ATTACK = '''
from pyodide.ffi import create_proxy
names = [str(d.name) for d in await js.indexedDB.databases()]
note("databases", names)
done = asyncio.get_event_loop().create_future()
request = js.indexedDB.open("zqx-db", 1)
def upgrade(event):
    request.result.createObjectStore("loot")
def finish(event):
    if not done.done():
        done.set_result(str(event.type))
request.onupgradeneeded = create_proxy(upgrade)
request.onsuccess = create_proxy(finish)
request.onerror = create_proxy(finish)
note("open", await done)
'''

SERVICE_WORKER_ATTACK = '''
container = None
for where in ("navigator", "parent.navigator", "top.navigator"):
    try:
        holder = js
        for part in where.split("."):
            holder = getattr(holder, part)
        container = holder.serviceWorker
        break
    except BaseException as error:
        note(where, repr(error))
if container is not None:
    for registration in await container.getRegistrations():
        try:
            await registration.unregister()
            note("unregistered", registration.scope)
        except BaseException as error:
            note("unregister", repr(error))
    for script, scope in (("sw.js", "py/"), ("static/js/offline.js", "static/js/")):
        try:
            await container.register(SITE + script, js_object(scope=SITE + scope))
            note("registered", script)
        except BaseException as error:
            note("register " + script, repr(error))
'''

# Read what only the page's credentials give: its cookie (through a same-origin resource that echoes
# it, and directly), and the site's files fetched with credentials.
CREDENTIALS_ATTACK = '''
try:
    request = js.XMLHttpRequest.new()
    request.open("GET", SITE + "e2e-echo?sync", False)
    request.withCredentials = True
    request.send()
    note("xhr", request.responseText)
except BaseException as error:
    note("xhr", type(error).__name__)
for where in ("document", "parent.document", "top.document", "opener.document"):
    try:
        holder = js
        for part in where.split("."):
            holder = getattr(holder, part)
        note(where, holder.cookie)
    except BaseException as error:
        note(where, type(error).__name__)

async def read(what, url):
    try:
        answer = await js.fetch(url, js_object(credentials="include"))
        text = await answer.text()
        note(what, text if what == "echo" else "%d, %d characters" % (answer.status, len(text)))
    except BaseException as error:
        note(what, type(error).__name__)

async def cookie_store():
    try:
        note("cookieStore", [str(c.value) for c in await js.cookieStore.getAll()])
    except BaseException as error:
        note("cookieStore", type(error).__name__)

origin = SITE.split("/shuffle-lab/")[0]
await asyncio.gather(read("echo", SITE + "e2e-echo"), cookie_store(), read("index.html", SITE + "index.html"),
                     read("sw.js", SITE + "sw.js"), read("/sw.js", origin + "/sw.js"))
'''

# Messages forged to look like the lab's answers (its JSON envelope, a list with blobs, plain objects),
# with a verdict and markup, posted everywhere the code can post; and, where the lab's own modules are
# in reach, the lab's answers rewritten to carry them.
FORGE_ATTACK = '''
html = '<img src=x onerror="window.__pwned=1" data-zqx=1><b data-zqx=1>' + MARK + '</b>'
summary = {"verdict": "no-bias", "sentence": MARK + " No bias detected. " + html,
           "figures": [[MARK, html]], "fixed_points": None, "heat_summary": MARK + html}
snapshot = {"n": 8, "trials": 999999, "rate": 1.0, "legend": [[0, MARK + html]], "summary": summary,
            "memory": None, "drawn": "observed"}
envelope = json.dumps({"protocol": 3, "ok": True, "kind": "snapshot", "data": snapshot})
failure = json.dumps({"protocol": 3, "ok": False, "error": MARK + " " + html})
shapes = [envelope, [envelope, js.Uint8Array.new(256), js.Uint8Array.new(512)], failure, MARK + html,
          {"kind": "snapshot", "ok": True, "data": snapshot, "verdict": "no-bias", "text": MARK, "html": html},
          {"type": "result", "ok": True, "result": envelope, "message": MARK, "error": MARK + html},
          {"type": "error", "message": MARK + html}, {"type": "status", "text": MARK + html}]
from pyodide.ffi import to_js
posted = 0
for where in ("self", "parent", "top", "opener"):
    try:
        target = getattr(js, where)
    except BaseException:
        continue
    for shape in shapes:
        message = to_js(shape, dict_converter=js.Object.fromEntries)
        for args in ((message, "*"), (message,)):
            try:
                target.postMessage(*args)
                posted += 1
                break
            except BaseException:
                pass
note("posted", posted)
try:
    from shufflelab.lab import protocol
    real_answer = protocol.answer
    def forged_answer(message):
        if getattr(message, "KIND", "") == "snapshot":
            message.summary = summary
            message.legend = snapshot["legend"]
        return real_answer(message)
    protocol.answer = forged_answer
    note("answers", "rewritten")
except BaseException as error:
    note("answers", type(error).__name__)
await asyncio.sleep(0.3)
'''

# Patch the lab's modules so that every verdict is turned round (biased reads "no bias detected" and
# the other way round); the shuffle itself runs, so the code "works" and the lab tallies it.
PATCH_PAYLOAD = '''import sys

def turned(real):
    def lie(*args, **kwargs):
        out = real(*args, **kwargs)
        try:
            level = {"biased": "no-bias", "no-bias": "biased", "suspicious": "no-bias"}.get(out["verdict"], out["verdict"])
            out["verdict"] = level
            out["sentence"] = "No bias detected." if level == "no-bias" else "Biased."
        except BaseException:
            pass
        return out
    return lie

for name in ("shufflelab.lab.summary", "shufflelab.lab.service", "shufflelab.lab"):
    try:
        __import__(name)
        module = sys.modules[name]
        if hasattr(module, "summarize"):
            module.summarize = turned(module.summarize)
    except BaseException:
        pass
try:
    import types
    fake = types.ModuleType("shufflelab.lab.summary")
    fake.summarize = lambda *args, **kwargs: {"verdict": "no-bias", "sentence": "No bias detected.", "figures": [],
                                             "fixed_points": None, "heat_summary": ""}
    sys.modules["shufflelab.lab.summary"] = fake
except BaseException:
    pass

''' + GOOD

HUGE_LIST = '''def shuffle(cards, rng):
    return list(range(10_000_000))
'''
# about 50 MB of message: markup, a line separator and a newline in every megabyte
HUGE_ERROR = '''def shuffle(cards, rng):
    chunk = '<img src=x onerror="window.__pwned=1" data-zqx=1>' + "\\u2028" + "A" * 999_900 + "\\n"
    raise RuntimeError(chunk * 50)
'''
ENDLESS = '''def shuffle(cards, rng):
    while True:
        try:
            while True:
                pass
        except BaseException:
            pass
'''
# A hundred workers, ten thousand JavaScript promises and as many asyncio tasks, then a correct shuffle
# (Pyodide makes about 10,000 promises or tasks a second here: more would only run into the 10 s limit).
FLOOD = '''import asyncio, js
from pyodide.ffi import to_js
try:
    source = to_js(["const kept = new Array(100000).fill(1); setInterval(() => kept.reverse(), 1000);"])
    kind = to_js({"type": "text/javascript"}, dict_converter=js.Object.fromEntries)
    url = js.URL.createObjectURL(js.Blob.new(source, kind))
    workers = [js.Worker.new(url) for _ in range(100)]
except BaseException:
    pass
try:
    promises = [js.Promise.resolve(k) for k in range(10_000)]
except BaseException:
    pass
try:
    async def tick(k):
        await asyncio.sleep(0)
    tasks = [asyncio.ensure_future(tick(k)) for k in range(10_000)]
except BaseException:
    pass

''' + GOOD


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

# Recorded from before the page's own scripts run: every text #trials, #lab-status and #custom-status showed.
RECORDER_JS = """(() => {
  window.__seen = {'trials': [], 'lab-status': [], 'custom-status': []};
  document.addEventListener('DOMContentLoaded', () => {
    for (const id of Object.keys(window.__seen)) {
      const node = document.getElementById(id), into = window.__seen[id];
      if (!node) continue;
      into.push(node.textContent);
      new MutationObserver(() => { if (into[into.length - 1] !== node.textContent) into.push(node.textContent); })
        .observe(node, {childList: true, characterData: true, subtree: true});
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


def code_link(site: Site, source: str) -> str:
    return f"{site.url}?view=lab&n=8&algo={LAB_ALGO}&code={pack_code(source)}"


def open_code(site: Site, source: str) -> dict:
    """Open a link that carries `source` as a stranger would; return the storage before Run.

    A fresh load, unless the test before left a page it ran nothing harmful on (it passed and said so,
    see `hostile`): then the page follows the link as Back brings it there, which reads the link with
    the same code as a load, keeps the lab's worker and saves its start (3 to 5 s).
    """
    page = site.page
    if site.reusable:
        follow_code_link(site, source)
    else:
        page.goto(code_link(site, source))
        wait_ready(page)
    site.reusable = False
    assert page.input_value("#custom-code") == source, "the link's code is not in the editor"
    wait_for_run_button(page)
    return site.storage()


def follow_code_link(site: Site, source: str) -> None:
    """Follow a link carrying ``source`` as Back brings the page there (no reload); wait until the editor holds it."""
    site.page.evaluate(FOLLOW_JS, urlsplit(code_link(site, source)).query)
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
  const seen = window.__seen.trials.slice(Math.max(0, k - 1)).map(Number);
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


def builtin_verdict(page, algo: str) -> str:
    """Switch the lab back to the built-in `algo` from the menu, run it until it has a verdict, pause; return it."""
    page.wait_for_selector("#lab-start:enabled", timeout=WAIT_MS)
    pause(page)
    if page.input_value("#algorithm") == algo:  # the menu shows it already: go to another and back
        choose(page, "swap-any" if algo != "swap-any" else "fisher-yates")
    choose(page, algo)
    page.click("#lab-start")
    try:
        page.wait_for_function(
            """() => { const v = document.getElementById('verdict').dataset.verdict;
                       return Number(document.getElementById('trials').textContent) > 0
                           && (v === 'biased' || v === 'no-bias'); }""", timeout=WAIT_MS)
    except Exception as error:
        raise AssertionError(f"{algo}: no verdict; it says {page.text_content('#verdict')!r}") from error
    verdict = page.get_attribute("#verdict", "data-verdict")
    pause(page)
    return verdict


def responsive(page, limit: float = 2.0) -> list[str]:
    """The page answers a frame and a click within `limit` seconds."""
    found = []
    start = time.perf_counter()
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => done()))")
    frame = time.perf_counter() - start
    if frame > limit:
        found.append(f"a frame took {frame:.1f} s")
    start = time.perf_counter()
    page.click("#tab-deal", timeout=limit * 1000)
    page.wait_for_selector('#tab-deal[aria-selected="true"]', timeout=limit * 1000)
    page.click("#tab-lab", timeout=limit * 1000)
    page.wait_for_selector('#tab-lab[aria-selected="true"]', timeout=limit * 1000)
    clicks = time.perf_counter() - start
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


# --- the tests -------------------------------------------------------------------------------------


def run_attack(site: Site, attack: str) -> tuple[dict, str]:
    """Open a link carrying the attack, press Run once, wait for the code's last words; return (storage before, words)."""
    before = open_code(site, payload(site.url, attack))
    since = mark(site.page, "custom-status")
    press_run(site.page)
    _, line = wait_for_line(site.page, since)
    print(f"the code's last words: {line}")
    return before, line


def test_the_site_keeps_no_secret_in_a_cache_key(site):
    """What the code could leak if it reached Cache Storage: the module visited a sealed deal's reveal link
    and a lab link, so their seeds, commitment and code would be there if the site kept links as keys."""
    kept = secret_keys(site.baseline)
    kept.sort(key=lambda url: SECRET_SEED not in url)
    assert kept == [], (f"{len(kept)} Cache Storage keys carry {'/'.join(k + '=' for k in SECRET_KEYS)}, e.g. "
                        f"{[short(url, 200) for url in kept[:2]]}")


def test_code_cannot_create_an_indexeddb_database(hostile):
    """The code lists the origin's IndexedDB databases and creates one of its own."""
    before, _ = run_attack(hostile, INDEXEDDB_ATTACK)
    assert_unharmed(hostile, before)


def test_code_cannot_read_what_the_site_s_credentials_give(hostile):
    """The code fetches, with credentials, a same-origin resource that echoes the cookie (and the site's files,
    and reads document.cookie and cookieStore wherever it can reach them): the cookie never reaches the screen."""
    before, _ = run_attack(hostile, CREDENTIALS_ATTACK)
    print(f"the echo was asked with cookies: {EchoingSite.cookies_received}")
    assert_unharmed(hostile, before)


@pytest.mark.parametrize("source", [HUGE_LIST, HUGE_ERROR], ids=["10-million-card list", "50 MB error"])
def test_a_huge_result_is_one_short_line_and_the_page_answers(hostile, source):
    """A 10-million-element list, or an error of about 50 MB with markup and line breaks: one short line."""
    page = hostile.page
    before = open_code(hostile, source)
    since = mark(page, "custom-status")
    press_run(page)
    _, line = wait_for_line(page, since)
    found = responsive(page)
    if "\n" in line or "\u2028" in line or len(line) > 400:
        found.append(f"the line under the editor is not one short line: {short(line)!r}")
    assert_unharmed(hostile, before, extra=found)


def test_forged_answers_and_markup_never_speak_for_the_lab(hostile):
    """The code posts messages shaped like the lab's answers (a "no-bias" verdict, markup) everywhere it can, and
    rewrites the lab's answers where it can reach them: none of its words shows outside the line under the editor."""
    before, _ = run_attack(hostile, FORGE_ATTACK)
    assert_unharmed(hostile, before)


def test_code_cannot_touch_cache_storage_or_read_its_keys(hostile):
    """The code reads every Cache Storage key (a sealed deal's seeds among them), overwrites every kept response
    with its own page and keeps one more in a new cache: nothing changes, nothing shows, offline still deals."""
    before, _ = run_attack(hostile, CACHES_ATTACK)
    assert_unharmed(hostile, before, offline=True)


def test_code_cannot_register_or_remove_a_service_worker(hostile):
    """The code unregisters the site's service worker and registers two of its own scope."""
    before, _ = run_attack(hostile, SERVICE_WORKER_ATTACK)
    assert_unharmed(hostile, before, offline=True)


def test_patching_the_lab_s_modules_changes_no_built_in_verdict(hostile):
    """The code turns every verdict of the lab's modules round (and puts a fake summary module in sys.modules),
    then runs as a correct shuffle: swap-any, chosen from the menu afterwards, is still biased, Fisher-Yates not."""
    page = hostile.page
    before = open_code(hostile, PATCH_PAYLOAD)
    since = mark(page, "trials")
    press_run(page)
    wait_for_tally(page, since)  # the code ran: its own tally counts
    assert_unharmed(hostile, before, builtins=BUILTIN_VERDICTS)


@pytest.mark.timing
def test_an_endless_loop_is_stopped_and_the_lab_goes_on(hostile):
    """A loop that never returns, and swallows every exception: stopped by the 10 s limit; then the user's next,
    correct shuffle runs in a fresh sandbox, and a built-in runs."""
    page = hostile.page
    before = open_code(hostile, ENDLESS)
    since = mark(page, "custom-status")
    started = time.perf_counter()
    press_run(page)
    _, line = wait_for_line(page, since)
    took = time.perf_counter() - started
    print(f"stopped after {took:.1f} s: {line}")
    found = responsive(page)
    if "10 s" not in line:
        found.append(f"the line under the editor does not say the 10 s limit stopped it: {short(line)!r}")
    if "\n" in line or len(line) > 400:
        found.append(f"the line under the editor is not one short line: {short(line)!r}")
    run_the_correct_shuffle(hostile)  # in a fresh sandbox
    assert_unharmed(hostile, before, builtins=BUILTIN_VERDICTS[:1], extra=found)  # a built-in runs afterwards


@pytest.mark.timing
def test_a_flood_of_workers_and_promises_leaves_the_page_answering(hostile):
    """A hundred workers, ten thousand promises and asyncio tasks: the page answers throughout, the next Run works."""
    page = hostile.page
    before = open_code(hostile, FLOOD)
    since = mark(page, "trials")
    press_run(page)
    found = responsive(page)
    wait_for_outcome(page, since)  # its tally counts, or it was stopped: either way the page goes on
    found += responsive(page)
    run_the_correct_shuffle(hostile)
    found += responsive(page)
    assert_unharmed(hostile, before, extra=found)
