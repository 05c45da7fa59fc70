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

The site, its one page per module and the checks live in hostile_site.py (shared with
test_hostile_answers.py).

The endless loop (10 s limit) and the flood are `timing` tests: `make test` runs them alone.
"""

from __future__ import annotations

import time

import hostile_site
import pytest
from hostile_site import (
    BUILTIN_VERDICTS,
    GOOD,
    SECRET_KEYS,
    SECRET_SEED,
    EchoingSite,
    answers,
    assert_unharmed,
    mark,
    open_code,
    press_run,
    responsive,
    run_attack,
    run_the_correct_shuffle,
    secret_keys,
    short,
    wait_for_line,
    wait_for_outcome,
    wait_for_tally,
)

site = hostile_site.site  # the module's fixtures: its own page
hostile = hostile_site.hostile

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



# --- the tests -------------------------------------------------------------------------------------



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
    answers(page)
    found = []
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
