"""docs/targets.json, the benchmark's targets table, and the performance page's table rendered from it agree."""

import json
from pathlib import Path

import docs_hooks
from bench import targets

ROOT = Path(__file__).resolve().parents[2]
ROWS = targets.load()


def test_every_row_has_what_figure_and_target():
    assert len(ROWS) >= 18  # every row of the hand-written table it replaced, and more
    assert len({row["key"] for row in ROWS}) == len(ROWS)
    for row in ROWS:
        assert set(row) == {"key", *targets.COLUMNS}
        assert all(isinstance(row[field], str) and row[field].strip() for field in ("what", "figure", "target"))
        assert row["met"] in (True, False, None)
        assert (row["target"] == "—") == (row["met"] is None)  # a figure shown without a target meets nothing


def test_the_rendered_table_is_the_json_row_by_row():
    lines = targets.markdown_table(ROWS).splitlines()
    assert lines[0] == "| what | figure | target | met |" and len(lines) == len(ROWS) + 2
    for row, line in zip(ROWS, lines[2:]):
        assert not any("|" in row[field] for field in ("what", "figure", "target"))  # a cell never splits
        cells = line.removeprefix("| ").removesuffix(" |").split(" | ")
        assert cells == [row["what"], row["figure"], row["target"], targets.met_words(row["met"])]


def test_the_performance_page_renders_the_targets_table():
    page = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert page.count("<!-- generated: targets -->") == 1
    assert docs_hooks.GENERATED["targets"]() == targets.markdown_table(ROWS)


def test_a_run_replaces_its_rows_by_key_and_keeps_the_others(tmp_path):
    path = tmp_path / "targets.json"
    path.write_text(json.dumps({"rows": ROWS[:3]}), encoding="utf-8")
    fresh = {**ROWS[1], "figure": "measured again"}
    new = {"key": "new", "what": "a new target", "figure": "1 s", "target": "under 2 s", "met": True}
    targets.write([new, fresh], path)
    assert targets.load(path) == [ROWS[0], fresh, ROWS[2], new]
