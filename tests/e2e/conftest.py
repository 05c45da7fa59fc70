"""End-to-end fixtures: the site served under a sub-path, and Debian's Chromium.

- `site_url`: the repository root served at http://127.0.0.1:<free port>/shuffle-lab/
  (as GitHub Pages serves the project under /<repo>/); anything outside the prefix is 404,
  so an absolute URL in the page fails instead of passing by luck.
- `browser_type_launch_args`: Chromium from $SHUFFLELAB_CHROMIUM or /usr/bin/chromium
  (Playwright's own browser download is not used). A missing browser FAILS the tests.
- `open_page(url)`: opens a page, waits for <html data-ready="true"> (never a fixed
  sleep) and returns a `Visit` recording console errors and every request URL.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUB_PATH = "/shuffle-lab/"
READY_TIMEOUT_MS = 60_000
PHONE = {"width": 375, "height": 800}
DESKTOP = {"width": 1280, "height": 800}
PROFILES = {"desktop": {"viewport": DESKTOP}, "phone": {"viewport": PHONE, "is_mobile": True, "has_touch": True}}
CHROMIUM_FLAGS = [
    # This machine's closed network otherwise makes noise (and slow, failing requests).
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def _load_serve_module():
    """scripts/serve.py, so the tests use the same handler (and MIME types) as `make serve`."""
    spec = importlib.util.spec_from_file_location("shufflelab_serve", ROOT / "scripts" / "serve.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


serve = _load_serve_module()


class SubPathHandler(serve.SiteHandler):
    """Serves the directory at SUB_PATH only; every other path is 404."""

    def send_head(self):
        path = urlsplit(self.path).path
        if not path.startswith(SUB_PATH):
            self.send_error(404, f"outside {SUB_PATH}")
            return None
        extra = self.server.extra_files.get(path[len(SUB_PATH):])
        if extra is not None:  # a file the directory doesn't have (an old release's sw.js)
            return self.send_bytes(extra, serve.site_manifest.mime_type(path))
        return super().send_head()

    def translate_path(self, path: str) -> str:
        return super().translate_path("/" + path[len(SUB_PATH):])

    def log_message(self, format: str, *args) -> None:  # quiet: tests record requests themselves
        pass


@contextlib.contextmanager
def serve_sub_path(directory: Path, extra_files: dict[str, bytes] | None = None, handler_class=None) -> Iterator[str]:
    """Serve `directory` at http://127.0.0.1:<free port>/shuffle-lab/ while the block runs, and
    `extra_files` ({path under the sub-path: bytes}) as if the directory had them (with SubPathHandler, or a
    subclass of it that answers more)."""
    import functools
    import http.server

    handler = functools.partial(handler_class or SubPathHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    server.extra_files = dict(extra_files or {})
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield f"http://{host}:{port}{SUB_PATH}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def site_url() -> Iterator[str]:
    """The repository root served under /shuffle-lab/ on a free port of 127.0.0.1."""
    if not (ROOT / "static" / "vendor" / "pyscript" / "core.js").is_file():
        pytest.fail("static/vendor/ is missing: run `make setup` (npm ci + scripts/vendor.mjs)", pytrace=False)
    with serve_sub_path(ROOT) as url:
        yield url


def chromium_path() -> str:
    """The Chromium to drive: $SHUFFLELAB_CHROMIUM, else Debian's /usr/bin/chromium."""
    path = os.environ.get("SHUFFLELAB_CHROMIUM") or "/usr/bin/chromium"
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        pytest.fail(
            f"Chromium not found at {path}. `make test` installs Debian's chromium "
            "(apt-get install chromium); or point SHUFFLELAB_CHROMIUM at a Chromium binary.",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright's launch args, with our Chromium binary and flags."""
    args = list(CHROMIUM_FLAGS)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")  # Chromium refuses to start as root with its sandbox
    return {
        **browser_type_launch_args,
        "executable_path": chromium_path(),
        "args": [*browser_type_launch_args.get("args", []), *args],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    """pytest-playwright's `page` fixture: no service worker, so page.route() sees every request
    (the offline tests, test_offline.py, open their own contexts with the service worker on)."""
    return {**browser_context_args, "service_workers": "block"}


@dataclass
class Visit:
    """One page load: the page, what it logged and what it fetched."""

    page: object
    url: str
    console_errors: list[str] = field(default_factory=list)
    console_warnings: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    ready_seconds: float | None = None

    @property
    def origin(self) -> str:
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"

    def goto(self, url: str) -> float:
        """Navigate this visit's page to `url` (its recorders keep recording), wait for
        data-ready="true" as open_page does, and return the seconds it took."""
        start = time.perf_counter()
        self.page.goto(url)
        self.url = url
        wait_until_ready(self)
        self.ready_seconds = time.perf_counter() - start
        return self.ready_seconds

    def offsite_requests(self) -> list[str]:
        """Requests that left the page's origin (blob: and data: URLs stay in the page, and the sandbox's blob:null/
        URLs hold the files the page handed it, in the browser's memory)."""
        own = (self.origin + "/", f"blob:{self.origin}/", "blob:null/", "data:")
        return [url for url in self.requests if not url.startswith(own)]


# Navigation-to-ready times, shown in pytest's terminal summary.
READY_TIMES: list[tuple[str, float]] = []


def record_failure(visit: Visit, request) -> None:
    """Record a failed request; a HEAD that was answered (Chromium calls its end of a body-less
    HTTP/1.0 answer "aborted") is not a failure: the lab's pre-flight check asks with HEAD. Nor is the
    sandbox's reading of the files handed to it (blob:null/ URLs in memory, which Pyodide's loader
    may stop reading once it has what it needs): a sandbox that can't start fails its own tests."""
    if request.url.startswith("blob:null/") and request.failure == "net::ERR_ABORTED":
        return
    if request.method == "HEAD" and request.failure == "net::ERR_ABORTED":
        answer = request.response()
        if answer is not None and answer.ok:
            return
    visit.failed_requests.append(f"{request.url} ({request.failure})")


def visit_page(page, url: str, *, wait_ready: bool = True, label: str | None = None) -> Visit:
    """Navigate `page` to `url`, recording console errors and requests from the start;
    with wait_ready, wait for data-ready="true" and time it."""
    visit = Visit(page=page, url=url)
    page.on("console", lambda msg: msg.type == "error" and visit.console_errors.append(msg.text))
    page.on("console", lambda msg: msg.type == "warning" and visit.console_warnings.append(msg.text))
    page.on("pageerror", lambda error: visit.console_errors.append(f"uncaught: {error}"))
    page.on("request", lambda request: visit.requests.append(request.url))
    page.on("requestfailed", lambda request: record_failure(visit, request))
    start = time.perf_counter()
    page.goto(url)
    if wait_ready:
        wait_until_ready(visit)
        visit.ready_seconds = time.perf_counter() - start
        READY_TIMES.append((label or url, visit.ready_seconds))
        print(f"data-ready after {visit.ready_seconds:.2f} s: {url}")
    return visit


@pytest.fixture
def open_page(page, request) -> Callable[..., Visit]:
    """Return open_page(url, wait_ready=True) -> Visit, on this test's page."""

    def _open(url: str, *, wait_ready: bool = True) -> Visit:
        return visit_page(page, url, wait_ready=wait_ready, label=request.node.nodeid)

    return _open


@pytest.fixture(scope="session")
def visit() -> Callable[..., Visit]:
    """visit_page(page, url, wait_ready=True, label=None) for fixtures that own their page."""
    return visit_page


@pytest.fixture(scope="session")
def serve_directory() -> Callable[[Path], contextlib.AbstractContextManager[str]]:
    """serve_sub_path(directory, extra_files=None): serve another folder (e.g. a built _site), or the
    same one with extra files, the same way."""
    return serve_sub_path


def pytest_sessionstart(session) -> None:
    """A run's timing margins are its own: the last run's are dropped (by the controller, not by xdist's workers)."""
    if not hasattr(session.config, "workerinput"):
        from e2e_pages import MARGINS_FILE

        MARGINS_FILE.unlink(missing_ok=True)


def pytest_terminal_summary(terminalreporter) -> None:
    for label, seconds in READY_TIMES:
        terminalreporter.write_line(f"data-ready after {seconds:.2f} s  ({label})")
    from e2e_pages import MARGINS_FILE  # the timing tests' figures beside their bounds (e2e_pages.margin)

    if MARGINS_FILE.exists():
        worst: dict[str, tuple[float, float, str]] = {}
        for line in MARGINS_FILE.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["what"] not in worst or row["measured"] > worst[row["what"]][0]:
                worst[row["what"]] = (row["measured"], row["bound"], row["unit"])
        for what, (measured, bound, unit) in sorted(worst.items()):
            terminalreporter.write_line(f"timing margin: {what}: worst {measured:g} {unit} of {bound:g} {unit}"
                                        f" ({measured / bound:.0%} of the bound)")


def wait_until_ready(visit: Visit, timeout_ms: int = READY_TIMEOUT_MS) -> None:
    """Wait for data-ready="true"; fail at once, with the page's own words, on "error"."""
    page = visit.page
    try:
        page.wait_for_selector(
            'html[data-ready="true"], html[data-ready="error"]', state="attached", timeout=timeout_ms
        )
    except Exception as error:  # playwright TimeoutError
        raise AssertionError(
            f"page not ready after {timeout_ms / 1000:.0f} s: status={_status(page)!r}, "
            f"console errors={visit.console_errors}, failed requests={visit.failed_requests}"
        ) from error
    state = page.evaluate("document.documentElement.dataset.ready")
    if state != "true":
        raise AssertionError(
            f"page reported data-ready={state!r}: status={_status(page)!r}, "
            f"console errors={visit.console_errors}, failed requests={visit.failed_requests}"
        )


def _status(page) -> str:
    return page.evaluate("document.getElementById('status')?.textContent ?? ''")


@pytest.fixture(params=list(PROFILES))
def screen(request, browser):
    """A fresh context on the desktop profile, then on the phone profile: (name, context, viewport). A file that needs
    more of its context (the clipboard, a fake share) defines its own ``screen``."""
    profile = PROFILES[request.param]
    context = browser.new_context(**profile)
    yield request.param, context, profile["viewport"]
    context.close()
