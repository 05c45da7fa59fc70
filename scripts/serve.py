"""Serve the Shuffle Lab site (the repository root) over HTTP for local use.

    python scripts/serve.py            # http://localhost:8000/
    PORT=9000 HOST=0.0.0.0 python scripts/serve.py

Standard library only. Binds 127.0.0.1 unless HOST says otherwise, and sends the
MIME types PyScript and Pyodide need (.mjs and .wasm above all: a browser refuses a
module or streaming WebAssembly compile served as text/plain or octet-stream).
"""

from __future__ import annotations

import functools
import http.server
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".wasm": "application/wasm",
    ".toml": "application/toml; charset=utf-8",
    ".py": "text/x-python; charset=utf-8",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """A static file handler with the site's MIME types and no caching surprises."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

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
