"""MkDocs hooks: the pages' generated parts, made from the code and its data so that they cannot drift.

A page asks for one with a marker line, ``<!-- generated: NAME -->``, which is replaced by
``GENERATED[NAME]()`` when the site is built. An unknown name fails the build.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT / "scripts"))

import site_manifest  # noqa: E402  (scripts/ is not a package: put on the path just above)
from bench import targets  # noqa: E402  (scripts/ is put on the path just above)
from shufflelab import catalog, cli  # noqa: E402  (py/ is put on the path just above)

MARKER = re.compile(r"^<!-- generated: ([a-z-]+) -->$", re.M)
FIGURE = re.compile(r"<!-- figure: ([a-z-]+) -->")  # a figure inside a sentence, computed when the site is built
RUNTIME = "static/vendor/pyodide/"  # the lab's runtime: what sw.js counts as the lab's download (its RUNTIME)
HELP_WIDTH = "100"  # argparse wraps at $COLUMNS: fixed, so the page is the same on every machine


def cli_reference() -> str:
    """Return every command's --help, in the order of the CLI's registry, as the CLI prints it."""
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = HELP_WIDTH
    try:
        parser = cli.build_parser()
        commands = next(action for action in parser._actions if action.dest == "command")
        parts = ["## `shufflelab --help`", "", "```text", parser.format_help().rstrip(), "```", ""]
        for name, sub in commands.choices.items():
            parts += [f"## `{name}`", "", "```text", sub.format_help().rstrip(), "```", ""]
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous
    return "\n".join(parts)


def _params_text(entry) -> str:
    """Return an entry's parameters as `name` default (min–max), or a dash."""
    return "; ".join(f"`{p.name}` {p.default:,} ({p.minimum:,}–{p.maximum:,})" for p in entry.params) or "—"


def algorithm_table() -> str:
    """Return the catalog's built-in algorithms: id, name and source, verdict, parameters, exact matrix."""
    rows = ["| id | name and source | verdict | parameters (default, range) | exact position matrix |",
            "|---|---|---|---|---|"]
    for entry in catalog.entries():
        if not entry.builtin:
            continue
        matrix = "yes" if entry.matrix is not None else (entry.no_matrix_reason or "no")
        rows.append(f"| `{entry.id}` | {entry.name}; {entry.source} | {entry.verdict} | {_params_text(entry)} | "
                    f"{matrix} |")
    rows.append("")
    for entry in catalog.entries():
        if entry.builtin:
            rows.append(f"- **`{entry.id}`**: {entry.description} Exact answers: {entry.method}.")
    return "\n".join(rows)


def manifest_figure() -> str:
    """Return how many files the service worker's manifest lists and their size: "118 files, 16.1 MiB"."""
    files = site_manifest.manifest(ROOT)
    return f"{len(files)} files, {sum(entry['size'] for entry in files.values()) / 2**20:.1f} MiB"


def lab_download_bytes() -> int:
    """Return the size of the lab's runtime, Pyodide's files, which a first visit to the lab downloads."""
    return sum(entry["size"] for path, entry in site_manifest.manifest(ROOT).items() if path.startswith(RUNTIME))


def lab_download_figure() -> str:
    """Return the lab's download as the docs state it: "14.2 MB"."""
    return f"{lab_download_bytes() / 1e6:.1f} MB"


def lab_files_figure() -> str:
    """Return how many files pyscript.toml lists for the lab's worker (packed into lab.zip): "68 files"."""
    config = (ROOT / site_manifest.WORKER_CONFIG).read_bytes()
    return f"{len(site_manifest.listed_files(config))} files"


def targets_table() -> str:
    """Return the performance page's table of figures and targets, from docs/targets.json (the bench writes it)."""
    return targets.markdown_table(targets.load())


GENERATED = {"cli": cli_reference, "algorithms": algorithm_table, "targets": targets_table}
FIGURES = {"manifest": manifest_figure, "lab-download": lab_download_figure, "lab-files": lab_files_figure}


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Replace each generated-part marker of a page with what its generator makes."""
    def made(match: re.Match) -> str:
        name = match.group(1)
        if name not in GENERATED:
            raise ValueError(f"{page.file.src_path}: no generated part named {name!r}")
        return GENERATED[name]()
    def figure(match: re.Match) -> str:
        name = match.group(1)
        if name not in FIGURES:
            raise ValueError(f"{page.file.src_path}: no figure named {name!r}")
        return FIGURES[name]()
    return FIGURE.sub(figure, MARKER.sub(made, markdown))
