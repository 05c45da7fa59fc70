"""The lab's tally in CPython: throughput (shuffle + count) for every catalog algorithm, and the rate it is read by.

``tally_rate`` is also what the Pyodide sections run, verbatim (inspect.getsource), so both interpreters measure alike.
"""

from __future__ import annotations

import time

from bench.measure import DECK, interleaved_medians, print_table, target_row
from shufflelab import catalog
from shufflelab.tally import Tally

TALLY_TARGET_PER_SECOND = 150_000  # CPython, fisher-yates, 52 cards


def tally_cases(quick: bool) -> list[tuple[str, int]]:
    """Return the (algorithm id, n) pairs to measure: every algorithm at 52, bigger decks for fisher-yates."""
    cases = [(entry.id, DECK) for entry in catalog.entries()]
    if not quick:
        cases += [("fisher-yates", 104), ("swap-any", 104), ("fisher-yates", 255)]
    return cases


def tally_rate(t: Tally, budget: float) -> float:
    """Run ``t`` for about ``budget`` seconds (whole batches) and return shuffles per second."""
    # kernels: a quarter block per run, so block making is paced as in the worker;
    # the other paths: batches grow until they fill the budget
    batch = max(1, t.lanes // 4) if t.kernel else 1
    done, started = 0, time.perf_counter()
    while True:
        t.run(batch)
        done += batch
        spent = time.perf_counter() - started
        if spent >= budget:
            return done / spent
        if not t.kernel:
            batch = max(1, min(batch * 2, int(batch * (budget - spent) / max(spent, 1e-9))))


def tally_section(repeats: int, quick: bool) -> list[dict]:
    """Measure tally throughput for each case, in turns; print the table; return rows of figures."""
    budget = 0.15 if quick else 0.4
    tallies, first_run = {}, {}
    for algo, n in tally_cases(quick):
        t = Tally(algo, n, seed=f"bench-{algo}-{n}")
        started = time.perf_counter()
        t.run(1)  # a kernel's first run makes its first whole block: shown apart
        first_run[algo, n] = time.perf_counter() - started
        tallies[algo, n] = t
    rates = interleaved_medians(
        {key: (lambda t=t: tally_rate(t, budget)) for key, t in tallies.items()}, repeats
    )
    rows = []
    for (algo, n), rate in rates.items():
        t = tallies[algo, n]
        rows.append({
            "algo": algo,
            "n": n,
            "path": "bit-sliced kernel" if t.kernel else "bulk deck maker" if t.deck_maker else "port per deck",
            "cpython_per_second": rate,
            "first_run_ms": first_run[algo, n] * 1e3,
            "lanes": t.lanes,
        })
    print_tally_table(rows, repeats, browser_rows=[])
    return rows


def _fisher_yates(rows: list[dict]) -> float:
    """Return fisher-yates's CPython rate at 52 cards from the tally section's rows."""
    return next(r["cpython_per_second"] for r in rows if r["algo"] == "fisher-yates" and r["n"] == DECK)


def print_tally_table(rows: list[dict], repeats: int, browser_rows: list[dict]) -> None:
    """Print tally throughput, with browser figures (Pyodide, plain JS) beside CPython's when there are any."""
    browser = {(r["algo"], r["n"], r["where"]): r["per_second"] for r in browser_rows}
    fisher_yates = _fisher_yates(rows)
    header = ["algorithm", "n", "path", "CPython /s", "vs fisher-yates", "first run ms"]
    if browser:
        header += ["Pyodide /s", "JS /s", "JS / Pyodide"]
    table = []
    for r in rows:
        line = [
            r["algo"], str(r["n"]), r["path"], f"{r['cpython_per_second']:,.0f}",
            f"{r['cpython_per_second'] / fisher_yates:.2f}x", f"{r['first_run_ms']:.0f}",
        ]
        if browser:
            pyodide = browser.get((r["algo"], r["n"], "pyodide"))
            javascript = browser.get((r["algo"], r["n"], "javascript"))
            line += [
                f"{pyodide:,.0f}" if pyodide else "-",
                f"{javascript:,.0f}" if javascript else "-",
                f"{javascript / pyodide:.1f}x" if pyodide and javascript else "-",
            ]
        table.append(line)
    print_table(
        f"Tally throughput, shuffle + count (median of {repeats}); "
        f"target fisher-yates n={DECK}: >= {TALLY_TARGET_PER_SECOND:,}/s in CPython",
        header,
        table,
    )
    meets = "meets" if fisher_yates >= TALLY_TARGET_PER_SECOND else "MISSES"
    print(f"fisher-yates n={DECK}: {fisher_yates:,.0f}/s {meets} the CPython target of {TALLY_TARGET_PER_SECOND:,}/s")


def target_rows(rows: list[dict]) -> list[dict]:
    """Return the CPython tally's row of the targets table."""
    rate = _fisher_yates(rows)
    return [target_row("tally_cpython", f"tally, `fisher-yates`, {DECK} cards, CPython",
                       f"{round(rate, -3):,.0f} shuffles/s", f"at least {TALLY_TARGET_PER_SECOND:,}/s",
                       rate >= TALLY_TARGET_PER_SECOND)]
