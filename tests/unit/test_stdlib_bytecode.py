"""scripts/stdlib_bytecode.py: the standard library's archive with chosen modules precompiled (under CPython here,
with CPython's bytecode; tests/portable/check_stdlib_bytecode.py checks the vendored archive under Pyodide)."""

from __future__ import annotations

import importlib
import importlib.util
import io
import sys
import zipfile

import pytest

import stdlib_bytecode

DATE = (2026, 6, 30, 11, 29, 0)
ENTRIES = {
    "zzpkg/": b"",
    "zzpkg/__init__.py": b"from .mod import VALUE\n",
    "zzpkg/mod.py": b"VALUE = 6 * 7\n",
    "zzother.py": b"WHO = 'source'\n",
    "zzpkg/data.txt": b"kept as it is\n",
}


def make_archive(path) -> str:
    """Write a small standard library: a package, a plain module, a directory entry and a data file."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in ENTRIES.items():
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = zipfile.ZIP_STORED if name.endswith("/") else zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return str(path)


@pytest.fixture
def imported_from(tmp_path):
    """Import names from an archive put first on sys.path, then forget them and the archive."""
    paths = []

    def load(archive: str, *names: str) -> list:
        sys.path.insert(0, archive)
        paths.append(archive)
        importlib.invalidate_caches()
        return [importlib.import_module(name) for name in names]

    yield load
    for path in paths:
        sys.path.remove(path)
        sys.path_importer_cache.pop(path, None)
    for name in [name for name in sys.modules if name.startswith(("zzpkg", "zzother"))]:
        del sys.modules[name]


def test_chosen_modules_become_bytecode_and_the_rest_keeps_name_contents_and_date(tmp_path):
    archive = make_archive(tmp_path / "stdlib.zip")
    out = zipfile.ZipFile(io.BytesIO(
        stdlib_bytecode.rewritten(archive, {"zzpkg/__init__.py", "zzpkg/mod.py"})))
    assert out.namelist() == ["zzpkg/", "zzpkg/__init__.pyc", "zzpkg/mod.pyc", "zzother.py", "zzpkg/data.txt"]
    for name in ("zzpkg/", "zzother.py", "zzpkg/data.txt"):
        assert out.read(name) == ENTRIES[name]
    assert {info.date_time for info in out.infolist()} == {DATE}
    pyc = out.read("zzpkg/mod.pyc")
    assert pyc[:4] == importlib.util.MAGIC_NUMBER
    assert int.from_bytes(pyc[4:8], "little") == 0b01  # hash-based, unchecked: no source ships to check it by


def test_the_rewritten_archive_imports_from_bytecode_without_the_source(tmp_path, imported_from):
    archive = make_archive(tmp_path / "stdlib.zip")
    precompiled = tmp_path / "precompiled.zip"
    precompiled.write_bytes(stdlib_bytecode.rewritten(archive, {"zzpkg/__init__.py", "zzpkg/mod.py"}))
    package, module, other = imported_from(str(precompiled), "zzpkg", "zzpkg.mod", "zzother")
    assert package.VALUE == 42 and other.WHO == "source"
    assert module.__spec__.origin.endswith("zzpkg/mod.pyc") and package.__spec__.origin.endswith("__init__.pyc")
    assert other.__spec__.origin.endswith("zzother.py")
    # tracebacks name the module's place in the archive, as when it was compiled from source there
    assert module.__spec__.loader.get_code("zzpkg.mod").co_filename == archive + "/zzpkg/mod.py"


def test_the_same_archive_gives_the_same_bytes(tmp_path):
    archive = make_archive(tmp_path / "stdlib.zip")
    chosen = {"zzpkg/__init__.py", "zzpkg/mod.py"}
    assert stdlib_bytecode.rewritten(archive, chosen) == stdlib_bytecode.rewritten(archive, chosen)


def test_imported_members_are_the_modules_this_python_loaded_from_the_archive(tmp_path, imported_from):
    archive = make_archive(tmp_path / "stdlib.zip")
    imported_from(archive, "zzpkg.mod")
    assert stdlib_bytecode.imported_members(archive) == {"zzpkg/__init__.py", "zzpkg/mod.py"}


def test_precompile_writes_what_was_imported_and_reports_the_sizes(tmp_path, imported_from, monkeypatch):
    archive = make_archive(tmp_path / "stdlib.zip")
    imported_from(archive, "zzother")
    monkeypatch.setattr(stdlib_bytecode, "STARTUP_ALSO", ("zzpkg",))
    out = tmp_path / "out.zip"
    count, before, after = stdlib_bytecode.precompile(str(out), archive)
    assert count == 3 and before == (tmp_path / "stdlib.zip").stat().st_size and after == out.stat().st_size
    assert sorted(n for n in zipfile.ZipFile(out).namelist() if n.endswith(".pyc")) == [
        "zzother.pyc", "zzpkg/__init__.pyc", "zzpkg/mod.pyc"]
