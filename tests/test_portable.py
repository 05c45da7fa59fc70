"""The portable core on MicroPython (in Node, scripts/micropython.mjs) and on CPython: the golden vectors.

tests/portable/check_core.py is one script for both interpreters; here it runs under the
PyScript build of MicroPython that the page uses, and in-process under CPython. Tally
stream v1 is checked the same way on Pyodide, the lab worker's Python (scripts/pyodide.mjs
runs tests/portable/check_mt_stream.py; tests/unit/tally/test_stream_v1.py runs it on CPython),
and so is the precompiled part of Pyodide's standard library (check_stdlib_bytecode.py).
"""

import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "scripts" / "micropython.mjs"
CHECKER = ROOT / "tests" / "portable" / "check_core.py"
GOLDEN = ROOT / "tests" / "golden"
LOADER = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
PYODIDE_HARNESS = ROOT / "scripts" / "pyodide.mjs"
PYODIDE = ROOT / "node_modules" / "pyodide" / "pyodide.mjs"
CLOSING = re.compile(r"^portable: (\d+) passed, (\d+) failed$", re.MULTILINE)


def run_in_node(harness: Path, loader: Path, runtime: str, args: tuple, timeout: float) -> subprocess.CompletedProcess:
    """Run ``node HARNESS ARGS`` from the repository root; fail (never skip) without node or the runtime's loader."""
    node = shutil.which("node")
    if node is None:
        pytest.fail(f"node is not on PATH: install Node 20+, then run `npm ci` ({runtime} comes from npm)")
    if not loader.is_file():
        pytest.fail(f"{loader.relative_to(ROOT)} is missing: run `npm ci` (or `make setup-web`)")
    return subprocess.run([node, str(harness), *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def run_micropython(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``node scripts/micropython.mjs ARGS`` (the page's MicroPython)."""
    return run_in_node(HARNESS, LOADER, "MicroPython", args, timeout)


def run_pyodide(*args: str) -> subprocess.CompletedProcess:
    """Run ``node scripts/pyodide.mjs ARGS`` (the lab worker's Pyodide, with the standard library the site serves)."""
    return run_in_node(PYODIDE_HARNESS, PYODIDE, "Pyodide", args, 300)


def closing_counts(output: str) -> tuple[int, int]:
    """Return (passed, failed) from the checker's last ``portable: N passed, M failed`` line."""
    found = CLOSING.findall(output)
    assert found, f"no closing 'portable: N passed, M failed' line in:\n{output}"
    passed, failed = found[-1]
    return int(passed), int(failed)


def test_golden_vectors_on_micropython():
    done = run_micropython("--mount", "tests/golden=/golden", "tests/portable/check_core.py", "/golden")
    output = f"exit status {done.returncode}\n--- stdout\n{done.stdout}--- stderr\n{done.stderr}"
    assert done.returncode == 0, output
    passed, failed = closing_counts(done.stdout)
    assert passed >= 1 and failed == 0, output


def test_golden_vectors_on_cpython(capsys):
    spec = importlib.util.spec_from_file_location("check_core", CHECKER)
    check_core = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check_core)
    status = check_core.main([str(GOLDEN)])
    output = capsys.readouterr().out
    assert status == 0, output
    passed, failed = closing_counts(output)
    assert passed >= 1 and failed == 0, output


def run_portable_checker(script: str, least: int, *mounts: str) -> None:
    """Run one of tests/portable's checkers under MicroPython in Node: it exits 0 and passes at least ``least`` checks,
    none failing."""
    done = run_micropython(*mounts, script)
    output = f"exit status {done.returncode}\n--- stdout\n{done.stdout}--- stderr\n{done.stderr}"
    assert done.returncode == 0, output
    passed, failed = closing_counts(done.stdout)
    assert passed >= least and failed == 0, output


def test_the_lab_view_model_on_micropython():
    run_portable_checker("tests/portable/check_lab_model.py", 10, "--mount", "py/page=/lib/page")


def test_the_play_view_model_on_micropython():
    run_portable_checker("tests/portable/check_play_model.py", 9, "--mount", "py/page=/lib/page")


def test_a_real_decks_riffles_on_micropython():
    run_portable_checker("tests/portable/check_riffles.py", 13)


@pytest.mark.slow  # about 4 s here: 1 s to load Pyodide, then the pure generator's tallies in wasm
def test_tally_stream_v1_on_pyodide():
    done = run_pyodide("--mount", "tests/golden=/golden", "tests/portable/check_mt_stream.py", "/golden")
    output = f"exit status {done.returncode}\n--- stdout\n{done.stdout}--- stderr\n{done.stderr}"
    assert done.returncode == 0, output
    assert "python: cpython 3." in done.stdout and " on emscripten" in done.stdout, output  # Pyodide's, not this one
    passed, failed = closing_counts(done.stdout)
    assert passed >= 100 and failed == 0, output


@pytest.mark.slow  # about 3 s here: Pyodide's start, then the lab service's imports
def test_the_lab_workers_standard_library_comes_precompiled():
    done = run_pyodide("tests/portable/check_stdlib_bytecode.py")
    output = f"exit status {done.returncode}\n--- stdout\n{done.stdout}--- stderr\n{done.stderr}"
    assert done.returncode == 0, output
    assert "0 from source" in done.stdout, output
