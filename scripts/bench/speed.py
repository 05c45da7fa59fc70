"""Fisher-Yates's tally in Pyodide against the issue's 500,000 shuffles a second, and the lab's tally beside a tree.

``--speed`` runs the Fisher-Yates section alone; a full run pins its figures in docs/speed.json (and its row of
docs/targets.json), which the performance page states (tests/unit/test_speed_figures.py). The tree before the tally
was made inside out ran beside it until the target was met; the pinned run still holds that comparison, named in
words by its "beside" field.
"""

from __future__ import annotations

import inspect
import statistics

from bench import ROOT, targets
from bench.baseline import Baseline, evaluate_json, pyodide_pages
from bench.measure import DECK, in_turns, is_full_run, print_table, target_row, verdict
from bench.tally import tally_rate

FISHER_YATES_TARGET_PER_SECOND = 500_000  # issue 19 item 8: in the page's worker
FISHER_YATES_MIN_TURNS = 6  # short runs swing by ±20 % here; 0.4 s a run and at least six turns keep a median honest
SPEED_FIGURES = ROOT / "docs" / "speed.json"
BESIDE_CASES = [("fisher-yates", DECK), ("swap-any", DECK), ("riffle-gsr", DECK), ("random-comparator", DECK)]
RUN_BUDGET_SECONDS = 0.4


def tally_rate_server(cases: list[tuple[str, int]], budget: float) -> str:
    """Return page code that makes ``window.benchTallyRates()`` measure each case once, as JSON."""
    return "\n".join([
        "from __future__ import annotations",
        "import json, time",
        "import js",
        "from pyscript.ffi import create_proxy",
        "from shufflelab.tally import Tally",
        inspect.getsource(tally_rate),
        f"tallies = {{(a, n): Tally(a, n, seed=f'bench-{{a}}-{{n}}') for a, n in {cases!r}}}",
        "for t in tallies.values(): t.run(1)",
        "def measure():",
        f"    return json.dumps([[a, n, tally_rate(t, {budget})] for (a, n), t in tallies.items()])",
        "js.window.benchTallyRates = create_proxy(measure)",
        "js.document.documentElement.dataset.benchReady = 'yes'",
    ])


def tally_in_turns(browser, site, repeats: int, cases: list[tuple[str, int]], baseline: Baseline | None) -> dict:
    """Return the lab's tally rates in Pyodide for ``cases``, this tree's page and the baseline's taking turns.

    {"medians": {label: {(a, n): rate}}, "each": {label: [fisher-yates's rate each turn]}}.
    """
    with pyodide_pages(browser, site, tally_rate_server(cases, RUN_BUDGET_SECONDS), "tally", baseline) as pages:
        rates = in_turns(pages, repeats, evaluate_json("window.benchTallyRates()"))
    medians = {label: {(a, n): statistics.median(run[k][2] for run in runs) for k, (a, n) in enumerate(cases)}
               for label, runs in rates.items()}
    each = {label: [run[k][2] for run in runs] for label, runs in rates.items()
            for k, case in enumerate(cases) if tuple(case) == ("fisher-yates", DECK)}
    return {"medians": medians, "each": each}


def tally_beside_section(browser, site, repeats: int, baseline: Baseline) -> dict:
    """The lab's tally in Pyodide now and at ``--baseline REV``, side by side on two pages in turns (a look)."""
    repeats = max(repeats, FISHER_YATES_MIN_TURNS)
    measured = tally_in_turns(browser, site, repeats, BESIDE_CASES, baseline)
    now, before = measured["medians"]["now"], measured["medians"][baseline.label]
    print_table(f"The lab's tally in Pyodide, this tree beside {baseline.name}, two pages taking turns "
                f"(median of {repeats})", ["algorithm", "n", "now /s", f"{baseline.label} /s", "now / before"],
                [[a, str(n), f"{now[a, n]:,.0f}", f"{before[a, n]:,.0f}", f"{now[a, n] / before[a, n]:.2f}x"]
                 for a, n in BESIDE_CASES])
    return {"rev": baseline.rev, "now": [[a, n, r] for (a, n), r in now.items()],
            "before": [[a, n, r] for (a, n), r in before.items()], "each": measured["each"]}


def fisher_yates_section(browser, site, repeats: int, quick: bool, baseline: Baseline | None = None) -> dict:
    """Time Fisher-Yates's 52-card tally in Pyodide against 500,000/s; a full run pins the figures.

    With ``--baseline REV`` that tree's page takes turns with this one's (a look: the pinned figures are this tree's).
    """
    full = is_full_run(repeats, quick)
    repeats = max(repeats, FISHER_YATES_MIN_TURNS)
    measured = tally_in_turns(browser, site, repeats, [("fisher-yates", DECK)], baseline)
    now = measured["medians"]["now"]["fisher-yates", DECK]
    line = f"  fisher-yates n={DECK} in Pyodide (median of {repeats}): {now:,.0f}/s"
    if baseline is not None:
        before = measured["medians"][baseline.label]["fisher-yates", DECK]
        line += f", {before:,.0f}/s beside it at {baseline.label} ({now / before:.2f}x)"
    print(f"{line}; {verdict(now >= FISHER_YATES_TARGET_PER_SECOND)} the target of "
          f">= {FISHER_YATES_TARGET_PER_SECOND:,}/s")
    pinned = {"now": [["fisher-yates", DECK, now]], "each": {"now": measured["each"]["now"]}}
    if full:  # the docs' figures: this tree's alone (a look beside another tree is not the docs')
        targets.pin(SPEED_FIGURES, pinned, speed_target_row(pinned))
    return pinned


def _thousands(rates: list[float]) -> str:
    """Return 'lowest–highest' of some rates, rounded to thousands."""
    return f"{round(min(rates), -3):,.0f}–{round(max(rates), -3):,.0f}"


def speed_target_row(pinned: dict) -> dict:
    """Return the targets table's row for the Fisher-Yates tally in Pyodide, from pinned figures (docs/speed.json).

    A pinned run beside an older tree names it in the words of its "beside" field.
    """
    now = pinned["now"][0][2]
    what = f"lab tally, `fisher-yates`, {DECK} cards, Pyodide"
    figure = f"{round(now, -3):,.0f} shuffles/s ({_thousands(pinned['each']['now'])})"
    if "before" not in pinned:
        what += f" (`--speed`, the median of {len(pinned['each']['now'])} runs)"
    else:
        before = pinned["before"][0][2]
        what += f", beside {pinned['beside']} in turns"
        figure += (f" against {round(before, -3):,.0f} ({_thousands(pinned['each'][pinned['rev']])}): "
                   f"{now / before:.2f}×")
    return target_row("fisher_yates_pyodide", what, figure, f"at least {FISHER_YATES_TARGET_PER_SECOND:,}",
                      now >= FISHER_YATES_TARGET_PER_SECOND)


def target_rows(browser: dict) -> list[dict]:
    """Return the Fisher-Yates row of the targets table if this run measured it."""
    pinned = browser.get("fisher_yates", {})
    return [speed_target_row(pinned)] if "now" in pinned else []
