"""pyscript.toml must ship every Python module under py/ to the browser, and nothing else.

A module missing from [files] imports fine in CPython and fails only in the page, so this
check keeps the two in step. Format of an entry (one per file):

    "./py/<path>.py" = "./<path>.py"
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "pyscript.toml"


def load_config() -> dict:
    with CONFIG.open("rb") as handle:
        return tomllib.load(handle)


def python_sources() -> set[str]:
    """Every .py file under py/, as the "./py/..." source URL pyscript.toml uses."""
    return {
        "./" + path.relative_to(ROOT).as_posix()
        for path in (ROOT / "py").rglob("*.py")
        if "__pycache__" not in path.parts
    }


def test_every_module_under_py_is_listed():
    listed = set(load_config()["files"])
    missing = sorted(python_sources() - listed)
    assert not missing, f"add to [files] in pyscript.toml: {missing}"


def test_every_listed_file_exists():
    gone = sorted(source for source in load_config()["files"] if not (ROOT / source).is_file())
    assert not gone, f"pyscript.toml [files] lists files that don't exist: {gone}"


def test_each_file_lands_at_its_import_path():
    """"./py/shufflelab/x.py" goes to "./shufflelab/x.py", so `import shufflelab.x` works."""
    wrong = {
        source: target
        for source, target in load_config()["files"].items()
        if not source.startswith("./py/") or target != "./" + source.removeprefix("./py/")
    }
    assert not wrong, f'entries must read "./py/<path>" = "./<path>": {wrong}'


def test_interpreter_is_the_local_pyodide():
    interpreter = load_config()["interpreter"]
    assert interpreter.startswith("./"), "relative URL: the site is served under a sub-path"
    assert interpreter == "./static/vendor/pyodide/pyodide.mjs"
