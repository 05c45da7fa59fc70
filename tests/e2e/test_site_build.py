"""The deployable site (scripts/build_site.sh, as the Pages workflow runs it) is complete
on its own: exactly the site's files, its sw.js sealed with their hashes (the manifest `make
serve` seals into the sw.js it serves), and the page gets ready from them under a sub-path."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_pages import WORKER_TIMEOUT_MS

import site_manifest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built_site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("pages") / "_site"
    # this interpreter: it has the docs extra (MkDocs) that the docs site is built with
    subprocess.run(["bash", str(ROOT / "scripts" / "build_site.sh"), str(out)], check=True, cwd=ROOT,
                   env={**os.environ, "PYTHON": sys.executable})
    return out


def test_site_holds_only_the_site_files(built_site):
    top = sorted(path.name for path in built_site.iterdir())
    # every PyScript configuration at the root (the page's page.toml, the lab worker's
    # pyscript.toml); pyproject.toml is the Python package's, not the site's
    configs = [p.name for p in ROOT.glob("*.toml") if p.name != "pyproject.toml"]
    # sw.js sits beside index.html: a service worker controls only what is at or below it
    # and the lab worker's lab.toml and lab.zip, made from pyscript.toml and what it lists
    # and the documentation site, docs/ (MkDocs)
    assert top == sorted([".nojekyll", "docs", "index.html", "lab.toml", "lab.zip", "py", "static", "sw.js", *configs])
    assert (built_site / "docs" / "index.html").is_file() and (built_site / "docs" / "reference" / "cli.html").is_file()
    files = [path.relative_to(built_site).as_posix() for path in built_site.rglob("*") if path.is_file()]
    assert not [f for f in files if "__pycache__" in f or f.endswith((".pyc", ".map"))]
    python = sorted(f for f in files if f.startswith("py/"))
    in_repo = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "py").rglob("*.py") if "__pycache__" not in p.parts)
    assert python == in_repo
    for needed in [  # the page's MicroPython, and the Pyodide the lab's worker runs
        "static/css/site.css",
        "static/vendor/pyscript/core.js",
        "static/vendor/pyscript/core.css",
        "static/vendor/micropython/micropython.mjs",
        "static/vendor/micropython/micropython.wasm",
        "static/vendor/pyodide/pyodide.mjs",
        "static/vendor/pyodide/pyodide.asm.wasm",
        "static/vendor/pyodide/python_stdlib.zip",
        "static/vendor/pyodide/pyodide-lock.json",
    ]:
        assert needed in files


def test_built_sw_js_holds_the_hash_of_every_other_file(built_site):
    files = site_manifest.sealed_manifest((built_site / "sw.js").read_text(encoding="utf-8"))
    built = sorted(path.relative_to(built_site).as_posix() for path in built_site.rglob("*") if path.is_file())
    # the docs are not kept offline: a visit to the deal never downloads them
    assert sorted(files) == [f for f in built if f not in ("sw.js", ".nojekyll") and not f.startswith("docs/")]
    for path, entry in files.items():
        assert entry["sha256"] == hashlib.sha256((built_site / path).read_bytes()).hexdigest(), path
    # what `make serve` seals into the sw.js it serves from the repository: the same manifest
    assert files == site_manifest.manifest(ROOT)


def test_built_site_gets_ready_under_a_sub_path(page, built_site, serve_directory, visit):
    with serve_directory(built_site) as url:
        loaded = visit(page, url, label="test_site_build: built _site")
        assert loaded.offsite_requests() == []
        assert loaded.failed_requests == []
        assert loaded.console_errors == []
        assert [u for u in loaded.requests if u.endswith("/static/vendor/micropython/micropython.wasm")]
        assert [u for u in loaded.requests if "/static/vendor/pyodide/" in u] == []
        assert page.eval_on_selector_all("#deck .card", "cards => cards.length") == 52


def test_built_sites_lab_starts_from_its_lab_toml_and_lab_zip(page, built_site, serve_directory, visit):
    with serve_directory(built_site) as url:
        loaded = visit(page, url + "?view=lab&n=8", label="test_site_build: built _site's lab")
        page.wait_for_selector("#lab-start:enabled", timeout=WORKER_TIMEOUT_MS)
        assert [u for u in loaded.requests if u.endswith("/lab.zip")], "the worker never fetched lab.zip"
        assert not [u for u in loaded.requests if u.endswith("/py/shufflelab/lab/service.py")]  # in the archive
        assert loaded.failed_requests == [] and loaded.console_errors == []
