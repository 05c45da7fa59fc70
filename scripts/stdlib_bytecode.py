"""Precompile the part of Pyodide's standard library that the lab's start imports (run inside Pyodide by vendor.mjs).

Pyodide ships its standard library as source, in ``python_stdlib.zip``, and Python can't write
bytecode into a zip: every start of the lab's worker compiled the ~130 modules it imports again,
in WebAssembly, and that was most of Pyodide's own start (its ``finalizeBootstrap``: 3.6 of 4.8 s
in a CPU profile of the worker). The archive written here holds those modules as bytecode
instead of source and every other module as source, as before.

The bytecode is made by the Pyodide that will run it (``vendor.mjs`` loads it from
``node_modules``), so its magic number is that Python's own. Each ``.pyc`` is an *unchecked*
hash-based one (PEP 552): the source is not shipped beside it, so there is nothing to check it
against, and the archive as a whole is vouched for by the service worker's manifest. Only those
``.py`` files change: every other entry keeps its name, contents and date, in the same order.

It is also importable under CPython, where its tests run (with CPython's own bytecode).
"""

from __future__ import annotations

import importlib.util
import io
import os
import sys
import zipfile

# What the lab's worker imports at Start beyond Pyodide's own start: PyScript's bootstrap, the
# unpacking of lab.zip (zipfile, and cp437 for its names), and the lab service's first answer.
# Measured: every standard-library module in the worker's sys.modules after Start is one of these
# or one that Pyodide's start imported (tests/portable/check_stdlib_bytecode.py checks the service's).
STARTUP_ALSO = ("base64", "encodings.cp437", "fractions", "gzip", "hashlib", "html", "inspect", "io", "json", "random",
                "shutil", "tarfile", "zipfile")


def imported_members(archive: str) -> set[str]:
    """Return the archive's members (``asyncio/events.py``) that this Python's modules were imported from."""
    prefix = archive + "/"
    members = set()
    for module in list(sys.modules.values()):
        spec = getattr(module, "__spec__", None)
        origin = getattr(spec, "origin", None) or ""
        if origin.startswith(prefix) and origin.endswith(".py"):
            members.add(origin[len(prefix):])
    return members


def bytecode(source: bytes, filename: str) -> bytes:
    """Return the unchecked hash-based .pyc of ``source`` (``filename`` is what its tracebacks name)."""
    code = compile(source, filename, "exec", dont_inherit=True)
    return bytes(importlib._bootstrap_external._code_to_hash_pyc(code, importlib.util.source_hash(source),
                                                                checked=False))


def rewritten(archive: str, members: set[str]) -> bytes:
    """Return ``archive`` with each of ``members`` (.py files) replaced by its .pyc; everything else as it was."""
    out = io.BytesIO()
    with zipfile.ZipFile(archive) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            entry, data = copied_info(info, info.filename), source.read(info)
            if info.filename in members:
                entry, data = copied_info(info, info.filename + "c"), bytecode(data, archive + "/" + info.filename)
                entry.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(entry, data, compresslevel=9)
    return out.getvalue()


def copied_info(info: zipfile.ZipInfo, name: str) -> zipfile.ZipInfo:
    """Return a fresh entry named ``name`` with ``info``'s date, mode and compression (so the output repeats)."""
    entry = zipfile.ZipInfo(name, info.date_time)
    entry.compress_type = info.compress_type
    entry.external_attr = info.external_attr
    entry.create_system = info.create_system
    return entry


def stdlib_archive() -> str:
    """Return the path of the zip this Python imports its standard library from (Pyodide's /lib/python3XY.zip)."""
    return next(path for path in sys.path if path.endswith(".zip"))


def precompile(out: str, archive: str | None = None) -> tuple[int, int, int]:
    """Write ``archive`` (the standard library's by default) with what this Python's start imported from it
    precompiled to ``out``; return (modules precompiled, bytes before, bytes after)."""
    archive = archive or stdlib_archive()
    for name in STARTUP_ALSO:
        importlib.import_module(name)
    members = imported_members(archive)
    data = rewritten(archive, members)
    with open(out, "wb") as f:
        f.write(data)
    return len(members), os.path.getsize(archive), len(data)
