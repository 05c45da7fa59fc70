"""scripts/false_alarms.py: the false-alarm figures the docs state are the script's, and within the issue's bound."""

import json
from pathlib import Path

import pytest

import false_alarms
from shufflelab.lab.sandbox import FIRST_BATCH, run_paced
from shufflelab.tally import Tally

ROOT = Path(__file__).resolve().parents[2]
PINNED = json.loads(false_alarms.FIGURES.read_text(encoding="utf-8"))


def test_the_docs_state_the_pinned_figures():
    readme = (ROOT / "docs" / "explanation" / "false-alarms.md").read_text(encoding="utf-8")
    assert false_alarms.readme_table(PINNED) in readme
    assert false_alarms.readme_tests_table(PINNED) in readme
    assert f"{PINNED['watches']:,} watches" in readme


def test_the_schedule_looks_wherever_the_lab_can(monkeypatch, ticking_clock):
    """The lab looks after run_paced returns, which is after a batch; its batches double from FIRST_BATCH while quick
    (each takes one 1/32 s tick of the test's clock, under run_paced's quick), on any machine."""
    assert FIRST_BATCH == 1
    assert false_alarms.lab_looks(52) == [511, 1023, 2047]
    tally, ends = Tally("fisher-yates", 6, None, "schedule"), []
    real_run = tally.run
    monkeypatch.setattr(tally, "run", lambda size: (real_run(size), ends.append(tally.trials)))
    run_paced(tally, 10.0, FIRST_BATCH, up_to=240)  # quick batches: every one doubles
    assert [end for end in ends if end >= 30] [:3] == false_alarms.lab_looks(6)


@pytest.mark.parametrize("result", PINNED["configurations"], ids=lambda result: result["label"])
def test_each_rate_per_look_is_within_twice_what_the_readme_states(result):
    measured, stated = result["measured"], result["stated"]
    assert result["looks"] >= 10_000  # enough looks for a rate of 1e-3 to show
    assert measured["suspicious_per_look"] <= 2 * stated["suspicious_per_look"]
    assert measured["model_suspicious_per_look"] <= 2 * false_alarms.SUSPICIOUS_P
    assert measured["suspicious_at_first_look"] <= 2 * stated["suspicious_per_look"]
    assert result["biased_looks"] == 0


@pytest.mark.slow
def test_the_pinned_figures_are_what_the_script_computes():
    """The cheapest configuration, measured again with the pinned run's seeds and watches: the very same counts."""
    index = [result["label"] for result in PINNED["configurations"]].index("swap-any, 10 cards")
    again = false_alarms.watch_configuration(index, PINNED["watches"])
    pinned = {key: value for key, value in PINNED["configurations"][index].items() if key in again}
    assert again == pinned
