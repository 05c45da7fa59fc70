"""The suite's command line: which sections run, in what order, and what a full run writes to docs/.

A full run (not --quick, 5 repeats or more) merges every target's row into docs/targets.json, and each section whose
figures the docs state pins them (docs/speed.json, docs/physical.json, docs/lab_start.json) with their row.
``--only``, ``--speed`` and ``--physical`` run one browser section alone: no CPython sections, no targets table.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
import traceback
from pathlib import Path

from bench import ROOT, alarms, command_line, exact, lab, lab_start, pages, sandbox, shuffle, speed, tally, targets
from bench.baseline import OWN_WORKER, Baseline
from bench.browser import BenchSite, launch
from bench.measure import is_full_run

BROWSER_SECTIONS = ("first_deal_cold", "first_deal_throttled", "cut_insert", "pyodide_lab", "run_to_verdict",
                    "run_to_verdict_fresh", "lab_start", "tally_beside_baseline", "fisher_yates", "physical_matrix")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Return the command line's options."""
    parser = argparse.ArgumentParser(prog="python scripts/bench", description="Shuffle Lab benchmark (figures, not a "
                                     "test); a full run writes docs/targets.json and the docs' pinned figures.")
    parser.add_argument("--repeats", type=int, default=5, help="measurements per figure (median); --quick: at most 3")
    parser.add_argument("--quick", action="store_true", help="fewer and smaller cases; writes nothing to docs/")
    parser.add_argument("--cpython-only", action="store_true", help="skip the browser sections")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--physical", action="store_true",
                        help="only riffle-physical's exact 52-card matrix in Pyodide, against its 5 s target; a full "
                             f"run writes {exact.PHYSICAL_FIGURES.relative_to(ROOT)} (the docs')")
    parser.add_argument("--speed", action="store_true",
                        help="only Fisher-Yates's tally in Pyodide, against 500,000/s; a full run writes "
                             f"{speed.SPEED_FIGURES.relative_to(ROOT)} (the docs')")
    parser.add_argument("--only", choices=BROWSER_SECTIONS, metavar="SECTION",
                        help=f"run only this browser section: {', '.join(BROWSER_SECTIONS)}")
    parser.add_argument("--baseline", default="none", metavar="REV",
                        help="a git revision measured beside this tree, in turns, for a look (not a target): the "
                             "lab's tally (tally_beside_baseline), fisher_yates, physical_matrix, lab_start and "
                             f"run_to_verdict_fresh; default 'none'. run_to_verdict is always beside {OWN_WORKER.name}")
    return parser.parse_args(argv)


def browser_section_calls(repeats: int, quick: bool, baseline: Baseline | None) -> dict:
    """Return each browser section by name, as a call of (browser, site); tally_beside_baseline needs a baseline."""
    few = 2 if quick else repeats  # the sandbox's pages: each is seconds
    calls = {
        "first_deal_cold": lambda b, s: pages.first_deal_section(b, s, repeats),
        "first_deal_throttled": lambda b, s: pages.first_deal_section(b, s, 1 if quick else min(3, repeats), True),
        "cut_insert": lambda b, s: pages.cut_insert_section(b, s, repeats, 2 if quick else 3),
        "pyodide_lab": lambda b, s: lab.pyodide_lab_section(b, s, repeats, quick),
        "run_to_verdict": lambda b, s: sandbox.run_to_verdict_section(b, s, few),
        "run_to_verdict_fresh": lambda b, s: sandbox.fresh_sandbox_section(b, s, few, baseline),
        # five fresh profiles a side: a repeat visit's start spreads over 2-4 s here, and three medians moved with it
        "lab_start": lambda b, s: lab_start.lab_start_section(b, s, 1 if quick else repeats, quick, baseline),
        "tally_beside_baseline": lambda b, s: speed.tally_beside_section(b, s, repeats, baseline),
        "fisher_yates": lambda b, s: speed.fisher_yates_section(b, s, repeats, quick, baseline),
        "physical_matrix": lambda b, s: exact.physical_matrix_section(b, s, repeats, quick, baseline),
    }
    if baseline is None:
        del calls["tally_beside_baseline"]
    return calls


def browser_sections(repeats: int, quick: bool, baseline: Baseline | None, only: tuple[str, ...] = ()) -> dict:
    """Return the figures of the browser sections (``only`` these, if given), run in one Chromium.

    The site is served on a free local port. A section that fails is reported, its figures {"error": ...}, and the
    others still run.
    """
    # lazy: Playwright is needed for the browser sections only, and a CPython-only run goes without it
    from playwright.sync_api import sync_playwright

    calls = browser_section_calls(repeats, quick, baseline)
    if "tally_beside_baseline" in only and baseline is None:
        raise SystemExit("tally_beside_baseline needs --baseline REV")
    if only:
        calls = {name: calls[name] for name in only}
    figures: dict = {}
    with BenchSite() as site, sync_playwright() as playwright:
        browser = launch(playwright)
        print(f"\nChromium {browser.version}, the site at {site.url}")
        try:
            for name, call in calls.items():
                started = time.perf_counter()
                try:
                    figures[name] = call(browser, site)
                except Exception as error:  # a benchmark reports what it could not measure and goes on
                    print(f"\n{name}: FAILED: {error}")
                    traceback.print_exc(limit=3)
                    figures[name] = {"error": str(error)}
                figures[name]["section_seconds"] = time.perf_counter() - started
        finally:
            browser.close()
    return figures


def target_rows(figures: dict) -> list[dict]:
    """Return the targets table's rows for every figure this run measured, in the page's order."""
    browser = figures.get("browser", {})
    rows = []
    for area in (pages, lab, speed):
        rows += area.target_rows(browser)
    rows += sandbox.target_rows(browser)
    rows += shuffle.target_rows(figures) + tally.target_rows(figures["tally"])
    rows += command_line.target_rows(figures["cli"])
    for area in (exact, lab_start):
        rows += area.target_rows(browser)
    return rows


def cpython_sections(figures: dict, repeats: int, quick: bool) -> None:
    """Run the sections without a browser, each figure in ``figures`` under its section's name."""
    figures["shuffle"] = shuffle.shuffle_section(repeats, quick)
    figures["instructions"] = shuffle.instructions_section()
    figures["tally"] = tally.tally_section(repeats, quick)
    figures["counting"] = shuffle.counting_section(repeats, quick)
    figures["false_alarms"] = alarms.false_alarm_section(quick)
    figures["cli"] = command_line.cli_section(repeats, quick)


def finish(figures: dict, started: float, json_path: Path | None) -> None:
    """Print the run's time and write every figure to ``json_path`` if given."""
    figures["seconds"] = time.perf_counter() - started
    print(f"\n{figures['seconds']:.0f} s in all")
    if json_path:
        json_path.write_text(json.dumps(figures, indent=2, default=str) + "\n", encoding="utf-8")
        print(f"figures written to {json_path}")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark as the command line asks; return the exit status (1 if a section run alone failed)."""
    args = parse_args(argv)
    repeats = max(1, args.repeats if not args.quick else min(args.repeats, 3))
    baseline = None if args.baseline == "none" else Baseline.at(args.baseline)
    started = time.perf_counter()
    print(f"Shuffle Lab benchmark - CPython {platform.python_version()} on {platform.machine()}, "
          f"medians of {repeats} interleaved repeats")
    figures: dict = {"python": platform.python_version(), "repeats": repeats, "quick": args.quick}
    only = ("physical_matrix",) if args.physical else ("fisher_yates",) if args.speed else (args.only,) if args.only else ()
    if only:  # one browser section alone: its own figures, no CPython sections and no targets table
        figures["browser"] = browser_sections(repeats, args.quick, baseline, only)
        finish(figures, started, args.json)
        return 1 if any("error" in section for section in figures["browser"].values()) else 0
    cpython_sections(figures, repeats, args.quick)
    if not args.cpython_only:
        figures["browser"] = browser_sections(repeats, args.quick, baseline)
        if "rows" in figures["browser"].get("pyodide_lab", {}):
            tally.print_tally_table(figures["tally"], repeats, figures["browser"]["pyodide_lab"]["rows"])
    rows = target_rows(figures)
    targets.print_targets(rows)
    if is_full_run(repeats, args.quick):
        targets.write(rows)
        print(f"\nthe targets table written to {targets.TARGETS.relative_to(ROOT)}")
    finish(figures, started, args.json)
    return 0
