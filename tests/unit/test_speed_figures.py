"""scripts/bench.py --speed: the Fisher-Yates tally figures the performance page states are those of the pinned run."""

import json
from pathlib import Path

import bench

ROOT = Path(__file__).resolve().parents[2]
PINNED = json.loads(bench.SPEED_FIGURES.read_text(encoding="utf-8"))


def test_the_performance_page_states_the_pinned_fisher_yates_figures():
    readme = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert bench.speed_readme_row(PINNED) in readme


def test_the_pinned_run_measured_this_tree_beside_the_one_before():
    assert PINNED["rev"] == bench.FISHER_YATES_BEFORE_REV
    assert [case[:2] for case in PINNED["now"]] == [case[:2] for case in PINNED["before"]] == [["fisher-yates", 52]]
    for label, median in (("now", PINNED["now"][0][2]), (PINNED["rev"], PINNED["before"][0][2])):
        each = sorted(PINNED["each"][label])
        assert len(each) >= 6 and each[0] <= median <= each[-1]  # the median of its turns


def test_the_performance_page_states_the_pinned_lab_start_figures():
    """scripts/bench.py --only lab_start: the performance page's table is the last full run's (docs/lab_start.json)."""
    pinned = json.loads(bench.LAB_START_FIGURES.read_text(encoding="utf-8"))
    assert pinned["rev"] == bench.LAB_START_REV
    for label in ("now", pinned["rev"]):
        assert all(len(pinned["each"][label][visit]) >= 5 for visit, _ in bench.LAB_START_ROWS)
    readme = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert bench.lab_start_readme_rows(pinned) in readme


def test_the_performance_page_states_the_pinned_physical_figures():
    """scripts/bench.py --physical: the performance page's words are the last full run's (docs/physical.json)."""
    pinned = json.loads(bench.PHYSICAL_FIGURES.read_text(encoding="utf-8"))
    assert pinned["rev"] == bench.PHYSICAL_BEFORE_REV
    assert len(pinned["each"]["now"]) == len(pinned["each"][pinned["rev"]]) >= 5
    readme = " ".join((ROOT / "docs" / "performance.md").read_text(encoding="utf-8").split())
    assert bench.physical_readme_text(pinned) in readme
