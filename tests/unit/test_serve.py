"""scripts/serve.py (`make serve`): sw.js is served sealed with the manifest of the tree as it is
when asked for, the same manifest `make site` seals into _site/sw.js; other files as they are."""

from __future__ import annotations

import contextlib
import hashlib
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

import serve
import site_manifest

from .site_tree import make_site


@contextlib.contextmanager
def serving(root: Path) -> Iterator[str]:
    """serve.py's server for `root` on a free port of 127.0.0.1 while the block runs."""
    server = serve.make_server("127.0.0.1", 0, root)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def get(url: str, method: str = "GET", headers: dict | None = None) -> tuple[int, dict, bytes]:
    """Status, headers and body of `url`, asked with `headers` (an error status and a 304 too)."""
    try:
        request = urllib.request.Request(url, method=method, headers=headers or {})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def served_manifest(url: str) -> dict:
    status, headers, body = get(url + "sw.js")
    assert status == 200 and headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert int(headers["Content-Length"]) == len(body)
    return site_manifest.sealed_manifest(body.decode("utf-8"))


def test_sw_js_is_served_with_the_manifest_of_the_tree_as_it_is_now(tmp_path):
    make_site(tmp_path)
    with serving(tmp_path) as url:
        assert served_manifest(url) == site_manifest.manifest(tmp_path)
        (tmp_path / "py" / "page" / "main.py").write_text("import app  # edited while serving")
        (tmp_path / "static" / "css" / "new.css").write_text("p {}")
        files = served_manifest(url)
        assert files["py/page/main.py"]["sha256"] == hashlib.sha256(b"import app  # edited while serving").hexdigest()
        assert "static/css/new.css" in files
        assert get(url + "sw.js?v=2")[2] == get(url + "sw.js")[2]  # a query changes nothing
        status, headers, body = get(url + "sw.js", "HEAD")
        assert status == 200 and body == b"" and int(headers["Content-Length"]) > 0


def test_the_repository_is_served_with_the_manifest_make_site_seals():
    with serving(serve.ROOT) as url:
        assert served_manifest(url) == site_manifest.manifest(serve.ROOT)


def test_other_files_are_served_as_they_are(tmp_path):
    make_site(tmp_path)
    with serving(tmp_path) as url:
        assert get(url + "static/css/site.css")[2] == b"body {}"
        placeholder = (tmp_path / "sw.js").read_bytes()
        (tmp_path / "static" / "sw.js").write_bytes(placeholder)
        assert get(url + "static/sw.js")[2] == placeholder  # only the root's sw.js is the service worker


@pytest.mark.parametrize(("remove", "status"), [("sw.js", 404), ("index.html", 500)])
def test_a_tree_that_cannot_be_sealed_gets_no_service_worker_and_a_one_line_reason(tmp_path, remove, status):
    make_site(tmp_path)
    (tmp_path / remove).unlink()
    with serving(tmp_path) as url:
        code, _, body = get(url + "sw.js")
        assert code == status and b"Traceback" not in body


@pytest.mark.parametrize("name", ["lab.toml", "lab.zip"])
def test_the_lab_workers_files_are_made_from_the_tree_and_revalidate_by_their_hash(tmp_path, name):
    make_site(tmp_path)
    with serving(tmp_path) as url:
        status, headers, body = get(url + name)
        assert status == 200 and body == site_manifest.generated_file(tmp_path, name)
        assert headers["Content-Type"] == site_manifest.mime_type(name)
        assert headers["ETag"] == f'"{hashlib.sha256(body).hexdigest()}"'
        assert served_manifest(url)[name]["sha256"] == hashlib.sha256(body).hexdigest()
        again, _, nothing = get(url + name, headers={"If-None-Match": headers["ETag"]})
        assert (again, nothing) == (304, b"")
        (tmp_path / "py" / "shufflelab" / "cards.py").write_text("SUITS = 5")
        (tmp_path / "pyscript.toml").write_text("# edited\n" + (tmp_path / "pyscript.toml").read_text())
        status, headers, edited = get(url + name, headers={"If-None-Match": f'"{hashlib.sha256(body).hexdigest()}"'})
        assert status == 200 and edited == site_manifest.generated_file(tmp_path, name) != body


def test_a_built_sites_lab_files_are_served_from_disk(tmp_path):
    make_site(tmp_path)
    (tmp_path / "lab.zip").write_bytes(b"as built")
    with serving(tmp_path) as url:
        assert get(url + "lab.zip")[2] == b"as built"
