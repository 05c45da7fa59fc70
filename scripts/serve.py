"""Serve the Shuffle Lab site (the repository root) over HTTP for local use.

    python scripts/serve.py            # http://localhost:8000/
    PORT=9000 HOST=0.0.0.0 python scripts/serve.py

Standard library only. Binds 127.0.0.1 unless HOST says otherwise, and sends the
MIME types PyScript and Pyodide need (.mjs and .wasm above all: a browser refuses a
module or streaming WebAssembly compile served as text/plain or octet-stream).

sw.js is served sealed with the manifest of the tree as it is when sw.js is asked for
(scripts/site_manifest.py, the function `make site` seals _site/sw.js with), so the
service worker keeps and serves offline here exactly what it would on the deployed site.
lab.toml and lab.zip (the lab worker's configuration and package, made from pyscript.toml)
are made from the tree when asked for, as `make site` writes them, with their SHA-256 as
ETag so that a repeat visit revalidates them without fetching them again. /docs/ is the
documentation site as `make docs` built it (build/docs-site/), where the deployed site has it,
not the Markdown it is made from.
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import io
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS_SOURCE, DOCS_SITE = ROOT / "docs", ROOT / "build" / "docs-site"  # mkdocs.yml: docs_dir, site_dir
sys.path.insert(0, str(Path(__file__).resolve().parent))

import site_manifest  # noqa: E402  (scripts/ is not a package: build_site.sh runs it as a script)

MIME_TYPES = site_manifest.MIME_TYPES  # the service worker serves its kept files with the same types


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """A static file handler with the site's MIME types and no caching surprises."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

    def translate_path(self, path: str) -> str:
        """Map a URL to a file as SimpleHTTPRequestHandler does, but /docs/ to the built docs site, not its source."""
        served = super().translate_path(path)
        if Path(self.directory).resolve() != ROOT:
            return served
        inside = Path(os.path.abspath(served))
        if inside == DOCS_SOURCE or DOCS_SOURCE in inside.parents:
            return str(DOCS_SITE / inside.relative_to(DOCS_SOURCE)) + ("/" if path.split("?")[0].endswith("/") else "")
        return served

    def send_head(self):
        """Open what the request asks for, as SimpleHTTPRequestHandler does; sw.js sealed with the tree's manifest."""
        served = os.path.abspath(self.translate_path(self.path))
        root = os.path.abspath(self.directory)
        if served == os.path.join(root, site_manifest.SERVICE_WORKER):
            return self.send_service_worker()
        made = next((name for name in site_manifest.GENERATED if served == os.path.join(root, name)), None)
        if made is not None and not os.path.isfile(served):  # a built site has them on disk: sent as they are
            return self.send_generated(made)
        return super().send_head()

    def send_generated(self, name: str):
        """Send one of the files made from the tree (lab.toml, lab.zip), or 304 when the browser has these bytes."""
        try:
            body = site_manifest.generated_file(Path(self.directory), name)
        except (OSError, site_manifest.SiteError) as error:
            self.log_error("%s: %s", name, error)
            self.send_error(500, f"{name} cannot be made", str(error))
            return None
        tag = '"' + hashlib.sha256(body).hexdigest() + '"'
        if tag in self.headers.get("If-None-Match", ""):
            self.send_response(304)
            self.send_header("ETag", tag)
            self.end_headers()
            return None
        return self.send_bytes(body, site_manifest.mime_type(name), tag)

    def send_service_worker(self):
        """Send the headers of sw.js sealed with the served tree's manifest; return its body (None after an error)."""
        try:
            body = site_manifest.sealed_service_worker(Path(self.directory))
        except (OSError, site_manifest.SiteError) as error:
            # no service worker then: the page works online, and says so in its console; the
            # reason goes in the body (a status line must be Latin-1, a path need not be)
            self.log_error("sw.js: %s", error)
            self.send_error(404 if isinstance(error, FileNotFoundError) else 500, "sw.js cannot be sealed", str(error))
            return None
        return self.send_bytes(body, MIME_TYPES[".js"])

    def send_bytes(self, body: bytes, content_type: str, etag: str | None = None):
        """Send the headers of a 200 answer of `body`; return the body to send (for send_head)."""
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if etag is not None:
            self.send_header("ETag", etag)
        self.end_headers()
        return io.BytesIO(body)

    def end_headers(self) -> None:
        # Local development: always revalidate, so an edited .py or .toml shows on reload.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()


def make_server(host: str, port: int, directory: Path = ROOT) -> http.server.ThreadingHTTPServer:
    """Return a threaded server for `directory` on (host, port); port 0 picks a free one."""
    handler = functools.partial(SiteHandler, directory=str(directory))
    return http.server.ThreadingHTTPServer((host, port), handler)


def main() -> int:
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "8000"))
    if not (ROOT / "static" / "vendor" / "pyscript" / "core.js").exists():
        print("warning: static/vendor/ is missing; run `make setup` first", file=sys.stderr)
    try:
        server = make_server(host, port)
    except OSError as error:
        print(f"error: cannot listen on {host}:{port}: {error} (set PORT=...)", file=sys.stderr)
        return 1
    shown = "localhost" if host in ("127.0.0.1", "localhost", "0.0.0.0", "") else host
    print(f"Serving {ROOT} at  http://{shown}:{server.server_address[1]}/   (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
