"""The benchmark's pinned runs (docs/speed.json, docs/lab_start.json, docs/physical.json): the figures the performance
page states, and its targets table's rows, are theirs; no docs page names a baseline by its revision."""

import json
import statistics
from pathlib import Path

from bench import exact, lab_start, speed, targets
from bench.baseline import OWN_WORKER

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
SPEED = json.loads(speed.SPEED_FIGURES.read_text(encoding="utf-8"))
LAB_START = json.loads(lab_start.LAB_START_FIGURES.read_text(encoding="utf-8"))
PHYSICAL = json.loads(exact.PHYSICAL_FIGURES.read_text(encoding="utf-8"))


def test_the_targets_table_holds_the_pinned_fisher_yates_row():
    """python scripts/bench --speed: the row is the pinned run's, as the page renders it from docs/targets.json."""
    assert speed.speed_target_row(SPEED) in targets.load()


def test_the_pinned_fisher_yates_figures_are_medians_of_their_turns():
    assert [case[:2] for case in SPEED["now"]] == [["fisher-yates", 52]]
    sides = [("now", SPEED["now"][0][2])]
    if "before" in SPEED:  # a run beside an older tree names it in words: the page shows no revision
        assert SPEED["beside"] and [case[:2] for case in SPEED["before"]] == [["fisher-yates", 52]]
        sides.append((SPEED["rev"], SPEED["before"][0][2]))
    for label, median in sides:
        each = sorted(SPEED["each"][label])
        assert len(each) >= speed.FISHER_YATES_MIN_TURNS and each[0] <= median <= each[-1]


def test_the_performance_page_states_the_pinned_lab_start_figures():
    """python scripts/bench --only lab_start: the page's table is the last full run's (docs/lab_start.json)."""
    for label in LAB_START["each"]:
        assert all(len(LAB_START["each"][label][visit]) >= 5 for visit, _ in lab_start.LAB_START_ROWS)
    assert lab_start.lab_start_docs_rows(LAB_START) in PAGE
    assert lab_start.lab_start_target_row(LAB_START) in targets.load()


def test_the_performance_page_states_the_pinned_physical_figures():
    """python scripts/bench --physical: the page's words are the last full run's (docs/physical.json)."""
    assert all(len(runs) == len(PHYSICAL["each"]["now"]) >= 5 for runs in PHYSICAL["each"].values())
    assert exact.physical_docs_text(PHYSICAL) in " ".join(PAGE.split())
    assert exact.physical_target_row(PHYSICAL) in targets.load()
    assert statistics.median(PHYSICAL["each"]["now"]) <= exact.PHYSICAL_TARGET_SECONDS


def test_no_docs_page_names_a_baseline_by_its_revision():
    """The revisions stay in the JSON (data) and CHANGELOG.md; the pages and the rendered table name baselines in
    words."""
    revisions = {pinned["rev"] for pinned in (SPEED, LAB_START, PHYSICAL) if "rev" in pinned} | {OWN_WORKER.rev}
    texts = [page.read_text(encoding="utf-8") for page in (ROOT / "docs").rglob("*.md")]
    texts.append(targets.markdown_table(targets.load()))
    for text in texts:
        assert not [rev for rev in revisions if rev in text]
