"""The package installs: a wheel built from this checkout holds every subpackage, and its CLI
runs from a fresh venv outside the checkout (no editable install, no py/ on the path).

An editable install and tests/conftest.py both put py/ on sys.path, so a module left out of
the wheel is invisible to every other test; only a real install shows it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "py" / "shufflelab"
# the browser glue beside the package: never in the wheel
GLUE = ("page/", "worker.py", "sandbox.py")
DEAL = ["--players", "3", "--cards-each", "4", "--style", "blocks", "--deck", "euchre"]
SEED = "Kv3h2Zx8T0mYpQ7wL5cN1bR9sD4fG6jH2kA8eU0oI3y"

# A wheel build and a venv take 10 to 20 s: make test only. One xdist group, so that under
# `make test`'s -n 2 --dist loadgroup the module's fixture builds once, not once per worker.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]


def build_wheel(tmp: Path) -> Path:
    """Build the wheel from a fresh copy of the sources and return its path."""
    # A copy, since setuptools reuses build/lib: a module deleted from py/ could linger in an
    # in-tree build and hide a missing one; it also keeps build output out of the checkout.
    source = tmp / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(ROOT / "py", source / "py", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    out = tmp / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(source)],
                   check=True, cwd=tmp)
    (wheel,) = out.glob("shufflelab-*.whl")
    return wheel


def install(wheel: Path, tmp: Path) -> Path:
    """Install the wheel into a new venv under tmp and return that venv's bin/ folder."""
    env = tmp / "venv"
    venv.create(env, with_pip=False)  # pip from outside (--python) is faster than ensurepip
    bindir = env / ("Scripts" if os.name == "nt" else "bin")
    python = next(bindir.glob("python*"))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(wheel)],
                   check=True, cwd=tmp)
    return bindir


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The built wheel and the bin/ folder of a venv that has it installed, both outside the checkout."""
    tmp = tmp_path_factory.mktemp("wheel")
    wheel = build_wheel(tmp)
    return wheel, install(wheel, tmp)


def run(bindir: Path, *argv: str) -> subprocess.CompletedProcess:
    """Run the installed `shufflelab` script from a folder outside the checkout, with nothing of ours on the path."""
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    return subprocess.run([str(bindir / "shufflelab"), *argv], capture_output=True, text=True, cwd=bindir.parent.parent,
                          env=env, timeout=60)


def ok(bindir: Path, *argv: str) -> str:
    """The stdout of a command that must exit 0 with nothing on stderr."""
    done = run(bindir, *argv)
    assert done.returncode == 0 and done.stderr == "", (argv, done.returncode, done.stderr)
    return done.stdout


def test_the_wheel_holds_every_module_of_the_package_and_no_browser_glue(installed):
    wheel, _ = installed
    names = zipfile.ZipFile(wheel).namelist()
    expected = {f"shufflelab/{path.relative_to(PACKAGE).as_posix()}" for path in PACKAGE.rglob("*.py")}
    packed = {name for name in names if name.endswith(".py")}
    assert (sorted(expected - packed), sorted(packed - expected)) == ([], [])  # (missing, extra): named on failure
    assert {name.split("/")[0] for name in names} == {"shufflelab", wheel.name.split("-py")[0] + ".dist-info"}
    assert not [name for name in names if name.startswith(GLUE)]


def test_the_installed_package_is_the_venvs_not_the_checkouts(installed):
    _, bindir = installed
    done = subprocess.run([str(bindir / "python"), "-c", "import shufflelab; print(shufflelab.__file__)"],
                          capture_output=True, text=True, cwd=bindir.parent.parent, check=True,
                          env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    where = Path(done.stdout.strip()).resolve()
    assert "site-packages" in where.parts and where.is_relative_to(bindir.parent.resolve())
    assert not where.is_relative_to(ROOT)


def test_the_installed_cli_shuffles_deals_and_works_exactly(installed):
    _, bindir = installed
    shuffled = json.loads(ok(bindir, "shuffle", "--algo", "riffle-gsr", "--passes", "7", "--seed", "my seed", "--json"))
    assert sorted(shuffled["order"]) == list(range(52)) and shuffled["algo"] == "riffle-gsr"
    dealt = json.loads(ok(bindir, "deal", *DEAL, "--seed", SEED, "--json"))
    assert [len(hand) for hand in dealt["hands"]] == [4, 4, 4]
    exact = json.loads(ok(bindir, "exact", "--algo", "swap-any", "--cards", "3", "--json"))
    # swap-any: 3^3 = 27 equally likely paths onto 3! = 6 orders, so 4/27 or 5/27 each, 1/18 from uniform
    assert exact["reachable"] == 6 and exact["total_variation"] == "1/18"


def test_the_installed_cli_seals_a_deal_and_verifies_it_after_the_reveal(installed):
    _, bindir = installed
    made = json.loads(ok(bindir, "seal", *DEAL, "--json"))
    checked = json.loads(ok(bindir, "verify", "--commitment", made["commitment"], *DEAL,
                            f"--seed={made['secret_seed']}", "--json"))
    assert checked["matches"] is True and checked["commitment"] == made["commitment"]
    wrong = run(bindir, "verify", "--commitment", made["commitment"], *DEAL, "--seed", SEED)
    assert wrong.returncode == 1  # another seed: no match, and the installed CLI says so


def test_the_installed_cli_gives_the_labs_verdict_and_exits_by_it(installed, tmp_path):
    _, bindir = installed
    fair = json.loads(ok(bindir, "tally", "--cards", "8", "--shuffles", "5000", "--seed", "wheel", "--json"))
    assert fair["verdict"] == "no-bias" and sum(fair["fixed_points"]) == 5000
    # two worker processes of the installed package: the same counts as one
    split = json.loads(ok(bindir, "tally", "--cards", "8", "--shuffles", "5000", "--seed", "wheel", "--workers", "2",
                          "--json"))
    assert split["counts"] == fair["counts"]
    assert run(bindir, "tally", "--algo", "swap-any", "--cards", "8", "--shuffles", "20000", "--seed", "w").returncode == 1
    orders = tmp_path / "orders.txt"
    orders.write_text("1 2 0\n2 0 1\n" * 30 + "0,1\n")  # a Sattolo engine: never a card in place
    audited = run(bindir, "audit", str(orders))
    assert audited.returncode == 2 and f"{orders}: line 61: has 2 numbers, not 3" in audited.stderr
    assert "Verdict: biased" in audited.stdout
