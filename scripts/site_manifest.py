"""The site's files, and their manifest baked into the service worker (sw.js).

One implementation for both ways the site is served: scripts/build_site.sh copies
`site_files` into _site/ and seals _site/sw.js (`seal`); scripts/serve.py seals the sw.js
it serves with the manifest of the tree it serves, each time sw.js is asked for
(`sealed_service_worker`; a file is hashed again only when its size or mtime changes).

The manifest maps each file's path, relative to sw.js's folder, to the SHA-256 of its
bytes and the type it is served with. The service worker keeps and serves offline only
those files, and only bytes with that hash: it lives in sw.js because the browser stores
a service worker's script outside Cache Storage, where no page script can rewrite it.

The lab's worker gets the package in one fetch: `lab.zip` holds every file pyscript.toml's
[files] lists, at its destination, and `lab.toml` is pyscript.toml with that [files] table
replaced by the archive (PyScript unpacks a "./*" destination). Both are made from the tree,
never kept in the repository: serve.py makes them on request, build_site.sh writes them
(`generate`), and the manifest hashes what they are now. pyscript.toml stays the one list.

    python3 scripts/site_manifest.py files ROOT     # the site's files under ROOT, NUL-separated
    python3 scripts/site_manifest.py generate DIR   # write DIR's lab.toml and lab.zip
    python3 scripts/site_manifest.py seal DIR       # rewrite DIR/sw.js with DIR's manifest inlined

Standard library only.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import re
import sys
import time
import tomllib
import zipfile
from pathlib import Path

SERVICE_WORKER = "sw.js"
TOP_FILES = ("index.html", "page.toml", "pyscript.toml", "sandbox.toml", SERVICE_WORKER)
STAMP = ".copied"  # make's stamp in static/vendor/: not part of the site
WORKER_CONFIG = "pyscript.toml"  # the lab's worker's configuration as written: [files] lists every module
LAB_CONFIG, LAB_ARCHIVE = "lab.toml", "lab.zip"  # what the worker loads, made from WORKER_CONFIG
GENERATED = (LAB_CONFIG, LAB_ARCHIVE)
# The [files] table lab.toml has instead of pyscript.toml's: one archive, unpacked where its entries say.
FILES_TABLE = re.compile(r"^\[files\][ \t]*$", re.MULTILINE)
LAB_FILES_TABLE = f'[files]\n"./{LAB_ARCHIVE}" = "./*"\n'
# A fixed time for every entry (the earliest a zip can hold), so the archive's bytes depend on the sources only.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)

# The line of sw.js that sealing replaces (a service worker served with it as it is keeps
# nothing), and what replaces it: the manifest as a JSON literal, then SEALED_NOTE.
PLACEHOLDER = re.compile(r"^const MANIFEST = \{\};.*$", re.MULTILINE)
SEALED_NOTE = "  // sealed by scripts/site_manifest.py: {path: {sha256, size, type}}"
SEALED = re.compile(r"^const MANIFEST = (\{.*?\});" + re.escape(SEALED_NOTE) + "$", re.MULTILINE | re.DOTALL)
# Paths the service worker can compare with a URL's path as they are, with no decoding.
URL_SAFE_PATH = re.compile(r"[A-Za-z0-9._~@+/-]+")

# What a browser needs: .mjs and .wasm above all (a module or a streaming WebAssembly
# compile served as text/plain or octet-stream is refused). serve.py sends these, and the
# service worker sends the same offline.
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


class SiteError(Exception):
    """The tree is not a site that can be sealed: a file is missing or a name can't be served as is."""


def site_files(root: Path) -> list[str]:
    """Every file the site serves under `root` (sw.js included), as sorted POSIX paths relative to it."""
    missing = [name for name in TOP_FILES if not (root / name).is_file()]
    if missing:
        raise SiteError(f"{root} is not the site: {', '.join(missing)} missing")
    python = [p for p in root.glob("py/**/*.py") if "__pycache__" not in p.parts]
    static = [p for p in (root / "static").rglob("*") if p.name != STAMP]
    files = [*TOP_FILES, *(p.relative_to(root).as_posix() for p in [*python, *static] if p.is_file())]
    strange = [path for path in files if not URL_SAFE_PATH.fullmatch(path)]
    if strange:
        raise SiteError(f"file names a URL would encode differently: {', '.join(strange)}")
    return sorted(files)


def _sources_key(root: Path) -> tuple:
    """(path, size, mtime) of pyscript.toml and of each file its [files] lists: what the generated files depend on."""
    config = root / WORKER_CONFIG
    stats = [(str(config), config.stat().st_size, config.stat().st_mtime_ns)]
    for source in listed_files(config.read_bytes()):
        path = root / source
        stats.append((str(path), path.stat().st_size, path.stat().st_mtime_ns))
    return tuple(stats)


def listed_files(config: bytes) -> dict[str, str]:
    """pyscript.toml's [files] ({source: destination}), each path without its leading "./"."""
    try:
        files = tomllib.loads(config.decode("utf-8")).get("files", {})
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise SiteError(f"{WORKER_CONFIG} cannot be read: {error}") from None
    return {source.removeprefix("./"): target.removeprefix("./") for source, target in files.items()}


def lab_config(config: bytes) -> bytes:
    """lab.toml: pyscript.toml's text with its [files] table (which must come last) replaced by LAB_FILES_TABLE."""
    text = config.decode("utf-8")
    found = FILES_TABLE.search(text)
    if found is None or re.search(r"^\s*\[", text[found.end():], re.MULTILINE):
        raise SiteError(f"{WORKER_CONFIG} must end with its [files] table, which {LAB_CONFIG} replaces")
    note = f"# Made from {WORKER_CONFIG} by scripts/site_manifest.py: its [files], in one archive.\n"
    return (note + text[:found.start()] + LAB_FILES_TABLE).encode("utf-8")


def lab_archive(root: Path) -> bytes:
    """lab.zip: each file pyscript.toml's [files] lists, under its destination; the same bytes for the same sources."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for source, target in sorted(listed_files((root / WORKER_CONFIG).read_bytes()).items()):
            entry = zipfile.ZipInfo(target, ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, (root / source).read_bytes(), compresslevel=9)
    return buffer.getvalue()


@functools.lru_cache(maxsize=16)
def _generated(root: str, key: tuple) -> dict[str, bytes]:  # noqa: ARG001 (key: the cache's, sources unchanged)
    """lab.toml's and lab.zip's bytes for the tree at root, made once per state of their sources."""
    path = Path(root)
    return {LAB_CONFIG: lab_config((path / WORKER_CONFIG).read_bytes()), LAB_ARCHIVE: lab_archive(path)}


def generated_file(root: Path, name: str) -> bytes:
    """The bytes of one GENERATED file as the tree at root makes it now."""
    return _generated(str(root.resolve()), _sources_key(root))[name]


def generate(root: Path) -> str:
    """Write root's GENERATED files into root (a built site); return a one-line summary."""
    sizes = []
    for name in GENERATED:
        body = generated_file(root, name)
        (root / name).write_bytes(body)
        sizes.append(f"{name} {len(body) / 1024:.1f} KiB")
    return "site_manifest: wrote " + ", ".join(sizes)


@functools.lru_cache(maxsize=4096)
def _sha256(path: str, size: int, mtime_ns: int) -> str:
    """The SHA-256 hex of the file at `path`; size and mtime key the cache, so an edited file is hashed again."""
    with open(path, "rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


def file_sha256(path: Path) -> str:
    """The SHA-256 hex of the file's bytes as they are now (up to an edit that keeps size and mtime)."""
    stat = path.stat()
    return _sha256(str(path), stat.st_size, stat.st_mtime_ns)


def mime_type(path: str) -> str:
    """The Content-Type the site serves `path` with (octet-stream for an unknown extension)."""
    return MIME_TYPES.get(os.path.splitext(path)[1].lower(), "application/octet-stream")


def manifest(root: Path) -> dict[str, dict[str, str | int]]:
    """{path: {"sha256": hex, "size": bytes, "type": content type}} for every site file under `root` but sw.js, and
    for the GENERATED files as the tree makes them now (the size lets the service worker say how much of the lab's
    runtime a first visit has fetched)."""
    files = {
        path: {"sha256": file_sha256(root / path), "size": (root / path).stat().st_size, "type": mime_type(path)}
        for path in site_files(root)
        if path != SERVICE_WORKER
    }
    for name in GENERATED:
        body = generated_file(root, name)
        files[name] = {"sha256": hashlib.sha256(body).hexdigest(), "size": len(body), "type": mime_type(name)}
    return dict(sorted(files.items()))


def seal(source: str, files: dict[str, dict[str, str]]) -> str:
    """sw.js's source with its placeholder line replaced by `files`, a manifest, as a JavaScript literal."""
    if len(PLACEHOLDER.findall(source)) != 1:
        raise SiteError(f"{SERVICE_WORKER} must hold exactly one line 'const MANIFEST = {{}};' to seal")
    literal = json.dumps(files, indent=1, sort_keys=True)
    line = f"const MANIFEST = {literal};{SEALED_NOTE}"
    return PLACEHOLDER.sub(lambda _: line, source)


def sealed_manifest(source: str) -> dict[str, dict[str, str]] | None:
    """The manifest `seal` put into a sw.js source, or None if the source is not sealed."""
    found = SEALED.search(source)
    return None if found is None else json.loads(found.group(1))


def sealed_service_worker(root: Path) -> bytes:
    """root/sw.js with root's manifest inlined; a sw.js already sealed (a built _site/) as it is."""
    source = (root / SERVICE_WORKER).read_text(encoding="utf-8")
    if not PLACEHOLDER.search(source):
        return source.encode("utf-8")
    return seal(source, manifest(root)).encode("utf-8")


def seal_in_place(root: Path) -> str:
    """Rewrite root/sw.js with root's manifest inlined; return a one-line summary with the figures."""
    start = time.perf_counter()
    files = manifest(root)
    seconds = time.perf_counter() - start
    target = root / SERVICE_WORKER
    sealed = seal(target.read_text(encoding="utf-8"), files)
    target.write_text(sealed, encoding="utf-8")
    size = sum(entry["size"] for entry in files.values())
    return (f"site_manifest: {len(files)} files, {size / 2**20:.1f} MiB hashed in {seconds:.2f} s; "
            f"sealed {SERVICE_WORKER} is {len(sealed.encode('utf-8')) / 1024:.1f} KiB")


def main(argv: list[str]) -> int:
    """The command line: 0 when done, 1 with a one-line reason on stderr, 2 with the usage."""
    if len(argv) != 2 or argv[0] not in ("files", "generate", "seal"):
        print("usage: site_manifest.py files ROOT | generate DIR | seal DIR", file=sys.stderr)
        return 2
    command, root = argv[0], Path(argv[1])
    try:
        if command == "files":
            sys.stdout.write("".join(path + "\0" for path in site_files(root)))
        elif command == "generate":
            print(generate(root))
        else:
            print(seal_in_place(root))
    except (OSError, SiteError) as error:
        print(f"site_manifest: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
