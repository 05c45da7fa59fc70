"""scripts/bench/: the suite's command line keeps every flag, and its cases take turns as it says."""

from pathlib import Path

from bench import measure, runner
from bench.baseline import OWN_WORKER, Baseline

BENCH = Path(__file__).resolve().parents[2] / "scripts" / "bench"


def test_every_flag_of_the_command_line_is_there():
    args = runner.parse_args(["--quick", "--cpython-only", "--only", "lab_start", "--speed", "--physical",
                              "--repeats", "3", "--baseline", "abc1234", "--json", "out.json"])
    assert (args.quick, args.cpython_only, args.only, args.speed, args.physical) == (True, True, "lab_start", True, True)
    assert (args.repeats, args.baseline, str(args.json)) == (3, "abc1234", "out.json")
    assert runner.parse_args([]).baseline == "none"  # no older tree runs beside this one unless asked


def test_the_sides_take_turns_each_going_first_every_other_turn():
    order = []
    results = measure.in_turns({"now": 1, "before": 2}, 4, lambda label, side: order.append(label) or side * 10)
    assert order == ["now", "before", "before", "now", "now", "before", "before", "now"]
    assert results == {"now": [10] * 4, "before": [20] * 4}


def test_every_section_has_a_call_and_the_baseline_one_needs_a_baseline():
    assert set(runner.browser_section_calls(5, False, Baseline.at("abc1234"))) == set(runner.BROWSER_SECTIONS)
    assert "tally_beside_baseline" not in runner.browser_section_calls(5, False, None)


def test_the_kept_baseline_is_named_in_words():
    assert OWN_WORKER.rev not in OWN_WORKER.name + OWN_WORKER.label


def test_each_module_of_the_suite_stays_small():
    too_long = [path.name for path in BENCH.glob("*.py") if len(path.read_text(encoding="utf-8").splitlines()) > 500]
    assert len(list(BENCH.glob("*.py"))) >= 15 and not too_long
