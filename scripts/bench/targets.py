"""Every target, its latest figure and whether it is met: docs/targets.json, which the performance page renders.

The table is data. Each area's module makes its own rows (``target_rows``, keyed); a full run merges them into
docs/targets.json, row by row, so a run that measured less (``--cpython-only``) keeps the others' last figures.
scripts/docs_hooks.py renders the file as the page's "Figures and targets" table; a figure pinned in a JSON of its
own (docs/speed.json, ...) is written with its row, so the two never disagree.
"""

from __future__ import annotations

import json
from pathlib import Path

from bench import ROOT
from bench.measure import print_table, verdict

TARGETS = ROOT / "docs" / "targets.json"
COLUMNS = ("what", "figure", "target", "met")


def load(path: Path = TARGETS) -> list[dict]:
    """Return the rows of the targets table, in the page's order."""
    return json.loads(path.read_text(encoding="utf-8"))["rows"]


def merge(rows: list[dict], new: list[dict]) -> list[dict]:
    """Return ``rows`` with each new row in the place of the row with its key; new keys go at the end."""
    fresh = {row["key"]: row for row in new}
    merged = [fresh.pop(row["key"], row) for row in rows]
    return merged + list(fresh.values())


def write(new: list[dict], path: Path = TARGETS) -> None:
    """Merge ``new`` rows into the targets table at ``path`` (made if it is not there)."""
    rows = load(path) if path.exists() else []
    path.write_text(json.dumps({"rows": merge(rows, new)}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def pin(path: Path, pinned: dict, row: dict) -> None:
    """Write a section's pinned figures to ``path`` and their row to the targets table, together."""
    path.write_text(json.dumps(pinned, indent=2) + "\n", encoding="utf-8")
    write([row])
    print(f"  figures written to {path.relative_to(ROOT)} and {TARGETS.relative_to(ROOT)}")


def met_words(met: bool | None) -> str:
    """Return the table's words for a row's ``met``: meets, misses, or a dash where there is no target."""
    return "—" if met is None else "meets" if met else "misses"


def markdown_table(rows: list[dict]) -> str:
    """Return the rows as the performance page's Markdown table: what, figure, target, met."""
    lines = ["| what | figure | target | met |", "|---|---|---|---|"]
    lines += [f"| {row['what']} | {row['figure']} | {row['target']} | {met_words(row['met'])} |" for row in rows]
    return "\n".join(lines)


def print_targets(rows: list[dict]) -> None:
    """Print this run's targets: each with its figure and whether it meets it."""
    rows = [row for row in rows if row["met"] is not None]
    print_table("Targets", ["target", "figure", "verdict"],
                [[f"{row['what']}: {row['target']}", row["figure"], verdict(row["met"])] for row in rows])
