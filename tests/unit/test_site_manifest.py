"""scripts/site_manifest.py: the one list of the site's files and their SHA-256 manifest, sealed
into sw.js by `make site` and by `make serve` alike."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import tomllib
import zipfile
from pathlib import Path

import pytest

import site_manifest

from .site_tree import PLACEHOLDER_SW, make_site

REPO = Path(__file__).resolve().parents[2]
def test_site_files_are_the_pages_files_and_nothing_else(tmp_path):
    assert site_manifest.site_files(make_site(tmp_path)) == [
        "index.html", "page.toml", "py/page/main.py", "py/shufflelab/cards.py", "pyscript.toml", "sandbox.toml",
        "static/css/site.css", "static/vendor/pyodide/pyodide.asm.wasm", "sw.js",
    ]


def test_a_tree_without_the_page_is_refused_in_one_line(tmp_path):
    make_site(tmp_path)
    (tmp_path / "index.html").unlink()
    with pytest.raises(site_manifest.SiteError, match="index.html missing"):
        site_manifest.site_files(tmp_path)


def test_a_file_name_a_url_would_encode_is_refused(tmp_path):
    make_site(tmp_path)
    (tmp_path / "static" / "a b.css").write_text("")
    with pytest.raises(site_manifest.SiteError, match="static/a b.css"):
        site_manifest.site_files(tmp_path)


def test_the_manifest_hashes_every_file_but_sw_js_with_its_type(tmp_path):
    files = site_manifest.manifest(make_site(tmp_path))
    assert "sw.js" not in files
    on_disk = [f for f in site_manifest.site_files(tmp_path) if f != "sw.js"]
    assert sorted(files) == sorted([*on_disk, "lab.toml", "lab.zip"])
    made = site_manifest.generated_file(tmp_path, "lab.zip")
    assert files["lab.zip"] == {"sha256": hashlib.sha256(made).hexdigest(), "size": len(made), "type": "application/zip"}
    assert files["static/css/site.css"] == {"sha256": hashlib.sha256(b"body {}").hexdigest(), "size": 7,
                                            "type": "text/css; charset=utf-8"}
    assert files["static/vendor/pyodide/pyodide.asm.wasm"]["type"] == "application/wasm"
    assert files["index.html"]["type"] == "text/html; charset=utf-8"


def test_an_edited_file_is_hashed_again_even_at_the_same_size(tmp_path):
    css = make_site(tmp_path) / "static" / "css" / "site.css"
    before = site_manifest.manifest(tmp_path)["static/css/site.css"]["sha256"]
    mtime = css.stat().st_mtime_ns
    css.write_text("html {}")  # the same size as "body {}"
    os.utime(css, ns=(mtime + 1_000_000, mtime + 1_000_000))  # and surely another mtime
    after = site_manifest.manifest(tmp_path)["static/css/site.css"]["sha256"]
    assert after == hashlib.sha256(b"html {}").hexdigest() != before


def test_sealing_replaces_the_placeholder_line_and_reads_back(tmp_path):
    files = site_manifest.manifest(make_site(tmp_path))
    sealed = site_manifest.seal(PLACEHOLDER_SW, files)
    assert site_manifest.sealed_manifest(sealed) == files
    assert sealed.startswith("// a service worker\nconst MANIFEST = {\n")
    assert sealed.endswith("};  // sealed by scripts/site_manifest.py: {path: {sha256, size, type}}\nconst CACHE = 'x';\n")
    literal = sealed.split("const MANIFEST = ", 1)[1].split(";  //", 1)[0]
    assert json.loads(literal) == files  # JSON: a JavaScript object literal as it is
    assert site_manifest.sealed_manifest(PLACEHOLDER_SW) is None


@pytest.mark.parametrize("source", ["const CACHE = 'x';\n", PLACEHOLDER_SW * 2])
def test_sealing_needs_exactly_one_placeholder_line(source):
    with pytest.raises(site_manifest.SiteError, match="exactly one line"):
        site_manifest.seal(source, {})


def test_a_sealed_service_worker_is_served_as_it_is(tmp_path):
    make_site(tmp_path)
    sealed = site_manifest.sealed_service_worker(tmp_path)
    (tmp_path / "sw.js").write_bytes(sealed)
    (tmp_path / "index.html").write_text("changed after the build")
    assert site_manifest.sealed_service_worker(tmp_path) == sealed


def test_the_repositorys_sw_js_seals_with_every_site_file():
    source = (REPO / "sw.js").read_text(encoding="utf-8")
    assert site_manifest.sealed_manifest(source) is None  # the repository holds the placeholder
    files = site_manifest.sealed_manifest(site_manifest.sealed_service_worker(REPO).decode("utf-8"))
    assert {"index.html", "page.toml", "pyscript.toml", "py/page/main.py", "static/css/site.css"} <= set(files)
    assert not [path for path in files if path.startswith(("tests/", "scripts/", "node_modules/", ".venv/"))]


def test_the_command_line_lists_files_and_seals(tmp_path, capsys):
    make_site(tmp_path)
    assert site_manifest.main(["files", str(tmp_path)]) == 0
    assert capsys.readouterr().out.split("\0")[:-1] == site_manifest.site_files(tmp_path)
    assert site_manifest.main(["seal", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith("site_manifest: 10 files, ")  # 8 on disk, lab.toml and lab.zip
    assert site_manifest.sealed_manifest((tmp_path / "sw.js").read_text()) == site_manifest.manifest(tmp_path)


@pytest.mark.parametrize("argv", [["seal", "/nonexistent/site"], ["files", "/nonexistent/site"]])
def test_the_command_line_says_what_is_wrong_in_one_line(argv, capsys):
    assert site_manifest.main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("site_manifest: ") and err.count("\n") == 1 and "Traceback" not in err


def test_the_command_line_shows_its_usage(capsys):
    assert site_manifest.main(["build"]) == 2
    assert capsys.readouterr().err.startswith("usage: ")


def test_the_docs_compute_their_figures_of_the_manifest():
    """The docs never keep the manifest's count, the lab's download or the lab's file count by hand: a marker that the
    docs build replaces with the computed figure (scripts/docs_hooks.py)."""
    import docs_hooks

    root = Path(__file__).resolve().parents[2]
    files = site_manifest.manifest(root)
    size = sum(entry["size"] for entry in files.values()) / 2**20
    assert docs_hooks.manifest_figure() == f"{len(files)} files, {size:.1f} MiB"
    text = "\n".join(page.read_text(encoding="utf-8") for page in (root / "docs").rglob("*.md"))
    assert "manifest lists <!-- figure: manifest -->" in text and text.count("<!-- figure: lab-download -->") >= 5
    assert not re.search(r"\b1[34] MB\b", text)  # a hand-rounded lab download ("13 MB") would go stale


# --- lab.toml and lab.zip: the lab's worker loads pyscript.toml's [files] in one archive -------------------------


def unpacked(archive: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(archive)) as opened:
        return {name: opened.read(name) for name in opened.namelist()}


def test_lab_zip_holds_every_file_pyscript_toml_lists_at_its_destination():
    listed = tomllib.loads((REPO / "pyscript.toml").read_text(encoding="utf-8"))["files"]
    inside = unpacked(site_manifest.generated_file(REPO, "lab.zip"))
    assert inside == {target.removeprefix("./"): (REPO / source).read_bytes() for source, target in listed.items()}
    assert len(inside) > 60 and "shufflelab/lab/service.py" in inside and "worker.py" in inside


def test_lab_toml_is_pyscript_toml_with_the_archive_for_its_files():
    config = tomllib.loads((REPO / "pyscript.toml").read_text(encoding="utf-8"))
    lab = tomllib.loads(site_manifest.generated_file(REPO, "lab.toml").decode("utf-8"))
    assert lab["files"] == {"./lab.zip": "./*"}  # PyScript unpacks a "./*" destination into the working directory
    assert {k: v for k, v in lab.items() if k != "files"} == {k: v for k, v in config.items() if k != "files"}


def test_the_archive_depends_on_the_sources_only_and_follows_an_edit(tmp_path):
    make_site(tmp_path)
    first = site_manifest.generated_file(tmp_path, "lab.zip")
    os.utime(tmp_path / "py" / "shufflelab" / "cards.py", ns=(1, 1))  # touched: the bytes are the same
    assert site_manifest.generated_file(tmp_path, "lab.zip") == first
    (tmp_path / "py" / "shufflelab" / "cards.py").write_text("SUITS = 5")
    assert unpacked(site_manifest.generated_file(tmp_path, "lab.zip")) == {"shufflelab/cards.py": b"SUITS = 5"}


TABLE_NOT_LAST = '[files]\n"./py/shufflelab/cards.py" = "./shufflelab/cards.py"\n[other]\nx = 1\n'


@pytest.mark.parametrize("config", [TABLE_NOT_LAST, "interpreter = 1\n", "[files\n"])
def test_a_pyscript_toml_lab_toml_cannot_be_made_from_is_refused_in_one_line(tmp_path, config):
    make_site(tmp_path)
    (tmp_path / "pyscript.toml").write_text(config)
    with pytest.raises(site_manifest.SiteError, match="pyscript.toml"):
        site_manifest.manifest(tmp_path)


def test_generate_writes_what_the_manifest_hashes(tmp_path, capsys):
    make_site(tmp_path)
    assert site_manifest.main(["generate", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith("site_manifest: wrote lab.toml ")
    files = site_manifest.manifest(tmp_path)
    for name in ("lab.toml", "lab.zip"):
        assert hashlib.sha256((tmp_path / name).read_bytes()).hexdigest() == files[name]["sha256"]
