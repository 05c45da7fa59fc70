"""An older tree measured beside this one, in turns: the one baseline kept as a target, and any tree for a look.

Each "before" tree of the past issues ran beside this one until its target was met; those targets now stand on this
tree's own figures. One stays: Run -> first verdict with the sandbox up is held to at most 1.5x what it took when
users' code ran in the lab's own worker, a ratio that only that tree can give. ``--baseline REV`` puts any other
tree beside this one in the sections that can take one (a look, never a target).
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bench import ROOT
from bench.browser import BenchSite, bare_pyodide_html, pyscript_files


@dataclass(frozen=True)
class Baseline:
    """An older tree: a short label for tables, what it stands for in words, and its git revision (data only)."""

    label: str
    name: str
    rev: str

    @classmethod
    def at(cls, rev: str) -> Baseline:
        """Return a baseline for a look at any revision (``--baseline REV``): it is named by its revision."""
        return cls(label=rev, name=f"the tree at {rev}", rev=rev)


# The kept one: the last tree whose users' code ran in the lab's own worker, before the sandbox.
OWN_WORKER = Baseline(label="own worker", name="the lab's own worker, before the sandbox", rev="8a24c0c")


def tree_files(rev: str, site: BenchSite) -> dict:
    """Serve ``rev``'s py/shufflelab/ under /bench-baseline/ and return the PyScript [files] table for it."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "py/shufflelab"],
                             check=True, capture_output=True).stdout
    files = {}
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.endswith(".py"):
                name = "bench-baseline/" + member.name
                site.pages["/" + name] = tar.extractfile(member).read()
                files["./" + name] = "./" + member.name.removeprefix("py/")
    return files


@contextlib.contextmanager
def tree_site(rev: str):
    """Yield a BenchSite serving the whole site as it was at ``rev``, on another free port.

    Its runtimes are today's vendored ones, as that revision's vendor.mjs would have made them (Pyodide's standard
    library precompiled or not).
    """
    with tempfile.TemporaryDirectory() as folder:
        before = Path(folder) / "site"
        before.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(before)], input=archive, check=True)
        shutil.copytree(ROOT / "static" / "vendor", before / "static" / "vendor")
        if not (before / "scripts" / "stdlib_bytecode.py").exists():  # its vendor.mjs shipped Pyodide's stdlib as is
            shutil.copyfile(ROOT / "node_modules" / "pyodide" / "python_stdlib.zip",
                            before / "static" / "vendor" / "pyodide" / "python_stdlib.zip")
        with BenchSite(root=before) as old_site:
            yield old_site


@contextlib.contextmanager
def site_urls(site: BenchSite, baseline: Baseline | None):
    """Yield {"now": this site's URL} and, with a baseline, its label: the URL of its whole site, served alike."""
    if baseline is None:
        yield {"now": site.url}
        return
    with tree_site(baseline.rev) as old_site:
        yield {"now": site.url, baseline.label: old_site.url}


@contextlib.contextmanager
def pyodide_pages(browser, site: BenchSite, code: str, name: str, baseline: Baseline | None):
    """Yield {label: page}: a ready bare Pyodide page running ``code`` for this tree, and one for the baseline.

    "now" has this tree's pyscript.toml files; the baseline's label (if any) has its py/shufflelab/.
    """
    sides = {"now": pyscript_files()}
    if baseline is not None:
        sides[baseline.label] = tree_files(baseline.rev, site)
    context = browser.new_context()
    try:
        pages = {}
        for label, files in sides.items():
            slug = label.replace(" ", "-")
            url = site.add_page(f"bench-{name}-{slug}.html",
                                bare_pyodide_html(code, {"files": files}, title=f"bench: {name} at {label}"))
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector("html[data-bench-ready]", state="attached", timeout=300_000)
            pages[label] = page
        yield pages
    finally:
        context.close()


def evaluate_json(call: str):
    """Return a measure for in_turns: evaluate ``call`` (JavaScript returning JSON) on a side's page, parsed."""
    return lambda _, page: json.loads(page.evaluate(call))
