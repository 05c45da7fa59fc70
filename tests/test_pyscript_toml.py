"""The two PyScript configurations ship the modules each interpreter needs.

- page.toml (the page, MicroPython): page/main.py (which index.html imports inline) and
  what it imports, and nothing more, since every listed file is fetched before the first
  card shows; never an analysis module.
- pyscript.toml (the bias lab's worker, Pyodide): every module under py/ (the project's
  contract: the whole package reaches the browser), which covers what py/worker.py imports
  and the analysis modules the catalog names (imported by name when the lab asks for them).

A module missing from [files] imports fine in CPython and fails only in the browser, so
these checks keep the lists and the code in step. Format of an entry (one per file):

    "./py/<path>.py" = "./<path>.py"
"""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PY = ROOT / "py"
# config -> (entry point, whether [files] ships it, interpreter): the page's entry is imported
# from an inline script, the worker's is the script's src
# Imported by the page only once fetched, when first used (each fetching module says so): never in page.toml, so the
# first deal never waits for them.
LAZY_ON_THE_PAGE = {"./py/shufflelab/qr.py": "py/page/classroom.py"}
CONFIGS = {"page.toml": ("py/page/main.py", True, "./static/vendor/micropython/micropython.mjs"),
           "pyscript.toml": ("py/worker.py", False, "./static/vendor/pyodide/pyodide.mjs")}


def load(name: str) -> dict:
    with (ROOT / name).open("rb") as handle:
        return tomllib.load(handle)


def module_file(dotted: str) -> Path | None:
    """The file under py/ that ``import dotted`` loads (a package's __init__.py), if any."""
    base = PY.joinpath(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imported_modules(path: Path) -> set[str]:
    """Dotted names of every module a file imports (relative imports resolved), parents included."""
    # the package a relative import starts from: a package's own name for its __init__.py
    package = ".".join(path.relative_to(PY).parent.parts)
    names = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)  # may be submodules
    found = set()
    for name in names:
        parts = name.split(".")
        for k in range(1, len(parts) + 1):
            found.add(".".join(parts[:k]))
    return found


def closure(entry: str, extra: set[str] = frozenset()) -> set[str]:
    """Every file under py/ that ``entry`` needs, as "./py/..." source URLs."""
    todo = [ROOT / entry] + [f for f in map(module_file, extra) if f]
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in imported_modules(path):
            found = module_file(name)
            if found:
                todo.append(found)
    return {"./" + p.relative_to(ROOT).as_posix() for p in seen}


def catalog_modules() -> set[str]:
    """The analysis modules the catalog names ("module:function" under shufflelab)."""
    sys.path.insert(0, str(PY))
    from shufflelab import catalog

    parts = ("orders", "matrix", "kernel", "deck_maker", "matrix_seconds")
    return {"shufflelab." + getattr(entry, part).partition(":")[0]
            for entry in catalog.entries() for part in parts
            if isinstance(getattr(entry, part), str) and ":" in getattr(entry, part)}


def needed(config: str) -> set[str]:
    entry, shipped, _ = CONFIGS[config]
    extra = catalog_modules() if config == "pyscript.toml" else set()
    files = closure(entry, extra)
    if config == "page.toml":
        files -= set(LAZY_ON_THE_PAGE)
    return files if shipped else files - {"./" + entry}


def every_module() -> set[str]:
    """Every module under py/, as "./py/..." source URLs."""
    return {"./" + p.relative_to(ROOT).as_posix() for p in PY.rglob("*.py") if "__pycache__" not in p.parts}


def test_the_page_lists_exactly_what_micropython_imports():
    listed, want = set(load("page.toml")["files"]), needed("page.toml")
    assert not sorted(want - listed), f"add to [files] in page.toml: {sorted(want - listed)}"
    assert not sorted(listed - want), f"page.toml ships files MicroPython never imports: {sorted(listed - want)}"


def test_what_the_page_fetches_when_first_used_is_fetched_from_where_it_is_and_imported_where_it_lands():
    listed = load("page.toml")["files"]
    for source, fetcher in LAZY_ON_THE_PAGE.items():
        assert source not in listed and (ROOT / source).is_file()
        text = (ROOT / fetcher).read_text("utf-8")
        destination = source.removeprefix("./py/")
        assert f'"{source}"' in text and f'"{destination}"' in text, f"{fetcher} fetches {source} to {destination}"


def test_pyscript_toml_lists_every_module_under_py():
    """The contract: the whole package reaches the browser (in the worker), so none of it is dead there."""
    listed = set(load("pyscript.toml")["files"])
    assert not sorted(every_module() - listed), f"add to [files] in pyscript.toml: {sorted(every_module() - listed)}"
    assert not sorted(listed - every_module()), f"pyscript.toml lists files py/ lacks: {sorted(listed - every_module())}"
    assert needed("pyscript.toml") <= listed  # what the worker imports, and the catalog's models


def test_the_page_never_imports_an_analysis_module():
    """MicroPython fetches every listed file before the first deal: the heavy modules stay in the worker."""
    heavy = sorted(f for f in needed("page.toml") if any(f"/{p}/" in f for p in ("exact", "tally", "stats", "cli"))
                   or f.endswith(("/lab/service.py", "/lab/summary.py", "/lab/heatmap.py", "/lab/counts.py")))
    assert not heavy, f"the page imports {heavy}"


@pytest.mark.parametrize("config", CONFIGS)
def test_every_listed_file_exists_and_lands_at_its_import_path(config):
    files = load(config)["files"]
    gone = sorted(source for source in files if not (ROOT / source).is_file())
    assert not gone, f"{config} [files] lists files that don't exist: {gone}"
    wrong = {s: t for s, t in files.items() if not s.startswith("./py/") or t != "./" + s.removeprefix("./py/")}
    assert not wrong, f'entries must read "./py/<path>" = "./<path>": {wrong}'


@pytest.mark.parametrize("config", CONFIGS)
def test_interpreter_is_the_local_copy(config):
    interpreter = load(config)["interpreter"]
    assert interpreter.startswith("./"), "relative URL: the site is served under a sub-path"
    assert interpreter == CONFIGS[config][2]


def test_the_worker_needs_no_dom():
    """Without cross-origin isolation a worker gets no DOM; sync_main_only says it needs none (no warning)."""
    assert load("pyscript.toml").get("sync_main_only") is True


def test_the_page_preloads_exactly_its_configuration_and_files():
    """index.html fetches page.toml and its [files] at once, instead of after PyScript starts."""
    import re

    html = (ROOT / "index.html").read_text("utf-8")
    preloaded = set(re.findall(r'<link rel="preload" href="(\./(?:py/[^"]+|page\.toml))" as="fetch" crossorigin>', html))
    assert preloaded == set(load("page.toml")["files"]) | {"./page.toml"}


def test_the_sandbox_lists_the_package_and_its_entry_point():
    """sandbox.toml: what static/js/sandbox.mjs hands the sandbox (it can fetch nothing of the site itself)."""
    listed = set(load("sandbox.toml")["files"])
    want = closure("py/sandbox.py", catalog_modules())
    assert not sorted(want - listed), f"add to [files] in sandbox.toml: {sorted(want - listed)}"
    assert all(source.startswith(("./py/shufflelab/", "./py/sandbox.py")) for source in listed)  # never the page's glue
    for source, target in load("sandbox.toml")["files"].items():
        assert source == "./py/" + target[2:], (source, target)  # the format sandbox.mjs reads


def test_the_sandbox_frames_script_is_allowed_by_its_hash_and_nothing_else_inline():
    """The frame's inline script runs only because the page's CSP names its SHA-256: an edit of the script that does
    not update the hash would leave the sandbox dead."""
    import base64
    import hashlib
    import re

    script = (ROOT / "static/js/sandbox-frame.js").read_bytes()
    digest = base64.b64encode(hashlib.sha256(script).digest()).decode()
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', (ROOT / "index.html").read_text()).group(1)
    script_src = next(part for part in policy.split(";") if part.strip().startswith("script-src")).split()
    assert f"'sha256-{digest}'" in script_src
    assert [source for source in script_src if source.startswith("'sha256-")] == [f"'sha256-{digest}'"]
    assert "'unsafe-inline'" not in script_src and b"</script" not in script.lower()
