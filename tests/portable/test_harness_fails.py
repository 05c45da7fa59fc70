"""scripts/micropython.mjs can fail: an uncaught exception and sys.exit(n) give a non-zero exit status.

Without this, a harness that always exits 0 would make tests/test_portable.py pass on nothing.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
HARNESS = ROOT / "scripts" / "micropython.mjs"
LOADER = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"


def run_script(tmp_path: Path, source: str, *args: str) -> subprocess.CompletedProcess:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: install Node 20+, then run `npm ci` (MicroPython comes from npm)")
    if not LOADER.is_file():
        pytest.fail(f"{LOADER.relative_to(ROOT)} is missing: run `npm ci` (or `make setup-web`)")
    script = tmp_path / "script.py"
    script.write_text(source, encoding="utf-8")
    return subprocess.run([node, str(HARNESS), str(script), *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_uncaught_exception_fails_with_the_traceback(tmp_path):
    done = run_script(tmp_path, "def deal():\n    raise ValueError('the deck is on fire')\n\ndeal()\n")
    assert done.returncode == 1, done
    assert "ValueError: the deck is on fire" in done.stderr, done
    assert "Traceback" in done.stderr and "script.py" in done.stderr, done


def test_sys_exit_status_is_the_exit_status(tmp_path):
    done = run_script(tmp_path, "import sys\nprint('leaving')\nsys.exit(3)\n")
    assert done.returncode == 3, done
    assert done.stdout == "leaving\n", done


def test_success_is_zero_and_sees_argv_and_the_package(tmp_path):
    source = "import sys\nimport shufflelab\nprint(sys.implementation.name, sys.argv[1:])\nsys.exit(0)\n"
    done = run_script(tmp_path, source, "a", "b c")
    assert done.returncode == 0, done
    assert done.stdout == "micropython ['a', 'b c']\n", done
