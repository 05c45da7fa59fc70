"""riffle-physical's exact 52-card matrix in Pyodide, as the lab's worker computes it, against the issue's 5 s.

``--physical`` runs it alone; a full run pins its figures in docs/physical.json (and its row of docs/targets.json),
which the performance page states (tests/unit/test_speed_figures.py). The chain whose states were lists of floats
ran beside it until the target was met; the pinned run still holds that comparison, named by its "beside" field.
"""

from __future__ import annotations

import statistics

from bench import ROOT, targets
from bench.baseline import Baseline, evaluate_json, pyodide_pages
from bench.measure import DECK, in_turns, is_full_run, spread, target_row, verdict

PHYSICAL_TARGET_SECONDS = 5.0  # issue 19 item 8: riffle-physical's exact 52-card matrix in the worker
PHYSICAL_FIGURES = ROOT / "docs" / "physical.json"  # the docs' figures: the last full run
PHYSICAL_SERVER = f"""
import json, time
import js
from pyscript.ffi import create_proxy
from shufflelab import catalog
from shufflelab.exact import physical

def measure():
    physical._FLOAT_PASSES.clear()  # a first matrix each time: the lab's own call finds none cached
    steps = catalog.get("riffle-physical").resolve("matrix_steps")({DECK}, {{"passes": 7}})
    started = time.perf_counter()
    reports = 0
    try:
        while True:
            next(steps)  # the lab runs these steps between the tally's chunks, showing the share done
            reports += 1
    except StopIteration:
        pass
    return json.dumps({{"seconds": time.perf_counter() - started, "reports": reports}})

js.window.benchPhysical = create_proxy(measure)
js.document.documentElement.dataset.benchReady = "yes"
"""


def physical_matrix_section(browser, site, repeats: int, quick: bool, baseline: Baseline | None = None) -> dict:
    """Time riffle-physical's exact 52-card matrix in Pyodide, as the worker makes it; a full run pins the figures.

    With ``--baseline REV`` that tree's page takes turns with this one's (a look: the pinned figures are this tree's).
    """
    with pyodide_pages(browser, site, PHYSICAL_SERVER, "physical", baseline) as pages:
        runs = in_turns(pages, repeats, evaluate_json("window.benchPhysical()"))
    each = {label: [run["seconds"] for run in r] for label, r in runs.items()}
    pinned = {"each": {"now": each["now"]}, "reports": runs["now"][0]["reports"]}
    now = statistics.median(each["now"])
    line = (f"\nriffle-physical's exact {DECK}x{DECK} matrix in Pyodide (matrix_steps to the end, {pinned['reports']} "
            f"progress reports), median of {repeats}: {now:.1f} s ({spread(each['now'])})")
    if baseline is not None:
        before = statistics.median(each[baseline.label])
        line += f", {before:.1f} s at {baseline.label} in turns ({spread(each[baseline.label])}): {before / now:.2f}x"
    print(f"{line}; {verdict(now <= PHYSICAL_TARGET_SECONDS)} the target of <= {PHYSICAL_TARGET_SECONDS:g} s")
    if is_full_run(repeats, quick):
        targets.pin(PHYSICAL_FIGURES, pinned, physical_target_row(pinned))
    return {**pinned, "seconds": now, "each_side": each}


def physical_docs_text(pinned: dict) -> str:
    """Return the performance page's words for the pinned riffle-physical figures (docs/physical.json).

    A pinned run beside an older chain names it in the words of its "beside" field.
    """
    now = statistics.median(pinned["each"]["now"])
    text = f"{now:.1f} s ({spread(pinned['each']['now'])})"
    if "rev" not in pinned:
        return text + f", the median of {len(pinned['each']['now'])}"
    before = statistics.median(pinned["each"][pinned["rev"]])
    return (text + f", against {before:.1f} s ({spread(pinned['each'][pinned['rev']])}) for {pinned['beside']}, "
            f"in turns with it ({before / now:.2f}×; medians of {len(pinned['each']['now'])})")


def physical_target_row(pinned: dict) -> dict:
    """Return the targets table's row for riffle-physical's exact matrix, from pinned figures (docs/physical.json)."""
    now = statistics.median(pinned["each"]["now"])
    return target_row("physical_matrix", f"`riffle-physical`'s exact {DECK} × {DECK} matrix, Pyodide, as the "
                      "worker computes it", f"{now:.1f} s ({spread(pinned['each']['now'])})",
                      f"at most {PHYSICAL_TARGET_SECONDS:g} s", now <= PHYSICAL_TARGET_SECONDS)


def target_rows(browser: dict) -> list[dict]:
    """Return riffle-physical's row of the targets table if this run measured it."""
    figures = browser.get("physical_matrix", {})
    return [physical_target_row(figures)] if "each" in figures else []
