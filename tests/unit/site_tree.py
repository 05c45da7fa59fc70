"""A small site tree for the tests of the site's tooling (scripts/site_manifest.py, scripts/serve.py)."""

from __future__ import annotations

from pathlib import Path

PLACEHOLDER_SW = "// a service worker\nconst MANIFEST = {}; // filled in at build\nconst CACHE = 'x';\n"


def make_site(root: Path) -> Path:
    """A small site tree with every kind of file the site has, and what it must leave out."""
    files = {
        "index.html": "<title>t</title>",
        "page.toml": "[files]",
        "pyscript.toml": 'interpreter = "./x.mjs"\n[files]\n"./py/shufflelab/cards.py" = "./shufflelab/cards.py"\n',
        "sandbox.toml": "[files]",
        "sw.js": PLACEHOLDER_SW,
        "py/page/main.py": "import app",
        "py/shufflelab/cards.py": "SUITS = 4",
        "py/shufflelab/__pycache__/cards.cpython-311.pyc": "bytecode",
        "py/notes.txt": "not python",
        "static/css/site.css": "body {}",
        "static/vendor/.copied": "",
        "static/vendor/pyodide/pyodide.asm.wasm": "\0asm",
        "README.md": "not served",
        "tests/test_x.py": "not served",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root
