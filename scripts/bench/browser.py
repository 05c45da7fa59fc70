"""The suite's browser plumbing: the site on a free port, bare Pyodide pages, Chromium, load figures.

- ``BenchSite``: the repository root served by scripts/serve.py's handler on a free local
  port, plus pages the site doesn't have (``add_page``), served by the same server. A
  ``context.route`` would do as well for correctness, but routing makes Playwright intercept
  every request of the page (and disables the HTTP cache), which would tilt a load-time
  comparison; so the bare pages are served like any other file.
- ``bare_pyodide_html``: a PyScript page on Pyodide with an inline JSON configuration.
- ``launch``: Debian's Chromium ($SHUFFLELAB_CHROMIUM or /usr/bin/chromium).
- ``load_figures``: time to a performance mark and the bytes fetched before it.
- ``cold_load``: open a page in a fresh browser context (cold cache), optionally throttled.

A benchmark's helpers: they measure and report, they never assert a timing.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import html
import http.server
import json
import os
import threading
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

from bench import ROOT
from serve import SiteHandler  # scripts/serve.py: bench/__init__.py puts scripts/ on the path

CHROMIUM_FLAGS = ["--headless=new", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
PYSCRIPT_CORE = "./static/vendor/pyscript/core.js"
PYODIDE = "./static/vendor/pyodide/pyodide.mjs"
LOAD_TIMEOUT_MS = 180_000

# The network and CPU of a mid-range phone on a fair mobile connection (Chrome DevTools' terms).
THROTTLED_NETWORK = {"offline": False, "latency": 40,
                     "downloadThroughput": 9_000_000 / 8, "uploadThroughput": 9_000_000 / 8}
THROTTLED_CPU_RATE = 4


# --- the site ---------------------------------------------------------------------------------


class BenchSite:
    """The site on 127.0.0.1:<free port>, plus extra pages at paths the site doesn't have."""

    def __init__(self, root: Path = ROOT) -> None:
        """Serve ``root`` (the repository, or an older tree) on a free port; nothing is served until entered."""
        self.root = root
        self.pages: dict[str, bytes] = {}
        self._gzip_sizes: dict[str, int | None] = {}
        pages = self.pages

        class Handler(SiteHandler):
            def send_head(self):
                """Serve an extra page from ``pages`` where there is one, else the file."""
                body = pages.get(urlsplit(self.path).path)
                if body is None:
                    return super().send_head()
                return self.send_bytes(body, "text/html; charset=utf-8")

            def log_message(self, format, *args) -> None:
                """Log nothing: the bench prints figures, not the request log."""

        handler = functools.partial(Handler, directory=str(root))
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"

    def __enter__(self) -> BenchSite:
        """Start serving, on a daemon thread."""
        threading.Thread(target=self.server.serve_forever, name="bench-site", daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        """Stop serving and close the port."""
        self.server.shutdown()
        self.server.server_close()

    def add_page(self, name: str, text: str) -> str:
        """Serve ``text`` as the HTML page ``/<name>`` and return its URL."""
        self.pages["/" + name] = text.encode("utf-8")
        return self.url + name

    def file_bytes(self, url: str) -> bytes | None:
        """Return what the site serves at ``url`` (an extra page or a file), or None."""
        path = urlsplit(url).path
        if path in self.pages:
            return self.pages[path]
        if path.endswith("/"):
            path += "index.html"
        file = (self.root / path.lstrip("/")).resolve()
        if self.root.resolve() not in file.parents or not file.is_file():
            return None
        return file.read_bytes()

    def gzip_size(self, url: str) -> int | None:
        """Return the size of what ``url`` serves after gzip -9 (GitHub Pages sends gzip), or None."""
        if url not in self._gzip_sizes:
            body = self.file_bytes(url)
            self._gzip_sizes[url] = None if body is None else len(gzip.compress(body, compresslevel=9))
        return self._gzip_sizes[url]


def bare_pyodide_html(code: str, config: dict | None = None, title: str = "bench: bare Pyodide") -> str:
    """Return a page with PyScript's core only and one ``<script type="py">`` on Pyodide.

    ``config`` (JSON, inline: PyScript takes a config attribute that starts with "{") is
    added to the interpreter; its URLs are relative to the page, as the site's own.
    """
    settings = {"interpreter": PYODIDE, **(config or {})}
    if "</script" in code.lower():
        raise ValueError("the code would end its <script> early")
    return (
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{html.escape(title)}</title>\n<link rel=\"icon\" href=\"data:,\">\n"
        f"<script type=\"module\" src=\"{PYSCRIPT_CORE}\"></script>\n</head>\n<body>\n"
        f"<script type=\"py\" config=\"{html.escape(json.dumps(settings), quote=True)}\">\n{code}\n</script>\n"
        "</body>\n</html>\n"
    )


# --- the browser ------------------------------------------------------------------------------


def launch(playwright):
    """Launch Chromium ($SHUFFLELAB_CHROMIUM or /usr/bin/chromium) headless."""
    chromium = os.environ.get("SHUFFLELAB_CHROMIUM") or "/usr/bin/chromium"
    flags = CHROMIUM_FLAGS + (["--no-sandbox"] if os.geteuid() == 0 else [])
    return playwright.chromium.launch(executable_path=chromium, args=flags)


def record_errors(page) -> list[str]:
    """Return a list that fills with the page's console errors and uncaught exceptions."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    return errors


@contextlib.contextmanager
def fresh_page(browser):
    """Yield (page, errors): a page in a fresh context (cold cache), closed after, and its console errors."""
    context = browser.new_context()
    try:
        page = context.new_page()
        yield page, record_errors(page)
    finally:
        context.close()


def throttle(context, page) -> None:
    """Throttle ``page`` (before it navigates): 9 Mbit/s both ways, 40 ms latency, CPU 4x slower."""
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", THROTTLED_NETWORK)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLED_CPU_RATE})


class WorkerThrottle:
    """``throttle`` for a page and the workers it starts, and a way to read a worker's performance timeline.

    A CDP session is one target's: the page's network conditions do not reach its service worker, whose fetches are
    the lab's worker's (that worker is controlled), so each worker the page starts is attached (Target.setAutoAttach,
    messages wrapped, as Playwright's session has no flat mode) and its network throttled alike. Chromium throttles
    the CPU of pages only ("Operation is only supported for pages, not workers"): the workers run at this machine's
    speed, so a phone's worker would be slower than measured.
    """

    def __init__(self, context, page) -> None:
        """Throttle ``page`` (before it navigates) and every worker it starts from now on."""
        self.cdp = context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        self.cdp.send("Network.emulateNetworkConditions", THROTTLED_NETWORK)
        self.cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLED_CPU_RATE})
        self.calls = 0
        self.workers: dict[str, str] = {}  # session id: target type ("worker", "service_worker")
        self.answers: dict[int, dict] = {}
        self.cdp.on("Target.attachedToTarget", self._attached)
        self.cdp.on("Target.receivedMessageFromTarget", self._received)
        self.cdp.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False})

    def _send(self, session: str, method: str, params: dict) -> int:
        """Send a DevTools call to a worker's session; return the call's id, under which its answer is kept."""
        self.calls += 1
        message = json.dumps({"id": self.calls, "method": method, "params": params})
        self.cdp.send("Target.sendMessageToTarget", {"sessionId": session, "message": message})
        return self.calls

    def _attached(self, event: dict) -> None:
        """Throttle a worker's network as it starts, then let it run."""
        session = event["sessionId"]
        self.workers[session] = event["targetInfo"]["type"]
        self._send(session, "Network.enable", {})
        self._send(session, "Network.emulateNetworkConditions", THROTTLED_NETWORK)
        self._send(session, "Runtime.runIfWaitingForDebugger", {})  # it waited for these settings

    def _received(self, event: dict) -> None:
        """Keep a worker's answer to one of our calls, by its id."""
        message = json.loads(event["message"])
        if "id" in message:
            self.answers[message["id"]] = message

    def evaluate_in_workers(self, page, expression: str) -> list:
        """Return ``expression``'s value (JSON-able) in each dedicated worker the page started."""
        asked = [self._send(session, "Runtime.evaluate", {"expression": expression, "returnByValue": True})
                 for session, kind in self.workers.items() if kind == "worker"]
        values = []
        for _ in range(50):
            if all(call in self.answers for call in asked):
                break
            page.wait_for_timeout(100)  # the answers come with the page's own events
        for call in asked:
            result = self.answers.get(call, {}).get("result", {}).get("result", {})
            if "value" in result:
                values.append(result["value"])
        return values


def wait_until_ready(page, timeout_ms: int = LOAD_TIMEOUT_MS) -> None:
    """Wait for the real page's ``html[data-ready]`` to leave "false"; raise if it says "error"."""
    page.wait_for_function("() => document.documentElement.dataset.ready !== 'false'", timeout=timeout_ms)
    state = page.evaluate("document.documentElement.dataset.ready")
    if state != "true":
        raise RuntimeError(f"the page did not get ready (data-ready={state!r}): {page.text_content('#status')!r}")


def wait_for_mark(page, name: str, timeout_ms: int = LOAD_TIMEOUT_MS) -> None:
    """Wait until the page has the performance mark ``name``."""
    page.wait_for_function("name => performance.getEntriesByName(name).length > 0", arg=name,
                           timeout=timeout_ms)


# Time of the mark (ms since navigation start) and every file fetched before it: the
# navigation and the resources whose response ended by then, each URL once (a preloaded
# file shows again, from the preload cache, when it is used: that entry has transferSize 0).
LOAD_FIGURES_JS = """
name => {
  const mark = performance.getEntriesByName(name)[0];
  const entries = [performance.getEntriesByType("navigation")[0], ...performance.getEntriesByType("resource")];
  const files = new Map();
  let later = 0;
  for (const e of entries) {
    if (!e.name.startsWith("http")) continue;
    if (e.responseEnd > mark.startTime) { later++; continue; }
    const seen = files.get(e.name) || {url: e.name, transfer: 0, body: 0};
    seen.transfer = Math.max(seen.transfer, e.transferSize || 0);
    seen.body = Math.max(seen.body, e.encodedBodySize || e.decodedBodySize || 0);
    files.set(e.name, seen);
  }
  return {ms: mark.startTime, files: [...files.values()], later};
}
"""


def load_figures(page, site: BenchSite, mark: str) -> dict:
    """Return the time to ``mark`` and the bytes before it: as served (uncompressed here) and as gzip -9."""
    raw = page.evaluate(LOAD_FIGURES_JS, mark)
    files = []
    for f in raw["files"]:
        served = f["transfer"] or f["body"]  # transferSize; the body size where the browser says 0
        files.append({"url": f["url"], "bytes": served, "gzip_bytes": site.gzip_size(f["url"])})
    return {
        "ms": raw["ms"],
        "bytes": sum(f["bytes"] for f in files),
        # a file not on disk (none expected) counts as served
        "gzip_bytes": sum(f["bytes"] if f["gzip_bytes"] is None else f["gzip_bytes"] for f in files),
        "files": len(files),
        "files_after_mark": raw["later"],
        "file_list": files,
    }


def cold_load(browser, site: BenchSite, url: str, mark: str, *, ready_attribute: bool,
              throttled: bool = False) -> dict:
    """Open ``url`` in a fresh context (cold cache) and return ``load_figures`` at ``mark``, plus errors.

    ``ready_attribute``: the real page; wait for ``html[data-ready="true"]`` first.
    """
    with fresh_page(browser) as (page, errors):
        if throttled:
            throttle(page.context, page)
        page.goto(url, timeout=LOAD_TIMEOUT_MS)
        if ready_attribute:
            wait_until_ready(page)
        wait_for_mark(page, mark)
        return {**load_figures(page, site, mark), "errors": errors}


def pyscript_files() -> dict:
    """Return pyscript.toml's [files] table: the lab's worker's files, so ``shufflelab`` imports as in the worker."""
    return tomllib.loads((ROOT / "pyscript.toml").read_text(encoding="utf-8"))["files"]
