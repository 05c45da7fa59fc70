"""The lab in Chromium: its tally and exact matrix in Pyodide, the page's live tally, and plain JavaScript beside them.

The tally and the exact matrix run on a bare PyScript page on Pyodide (main thread) with pyscript.toml's files (the
worker's), so ``shufflelab`` imports as in the lab's worker; the live tally is the page's own bias lab, as a user
sees it; plain JavaScript Fisher-Yates + count is the figure Python is compared with.
"""

from __future__ import annotations

import inspect
import json
import statistics
import time

from bench.browser import bare_pyodide_html, fresh_page, pyscript_files
from bench.measure import DECK, print_errors, print_table, target_row, verdict
from bench.tally import tally_rate

LAB_PAGE = "bench-lab-pyodide.html"  # a page the site doesn't have, served by the bench only
PYODIDE_TALLY_TARGET_PER_SECOND = 300_000  # fisher-yates, 52 cards: the "roughly 300,000"
EXACT_TARGET_SECONDS = 0.1
PYODIDE_CASES = [("fisher-yates", DECK), ("swap-any", DECK), ("riffle-gsr", DECK), ("random-comparator", DECK)]

# Plain JavaScript, the figure Python is compared with: Fisher-Yates as it is usually
# written (Math.floor(Math.random() * (i + 1))), plus the n x n count.
JS_FISHER_YATES_TALLY = """
([n, seconds]) => {
  const counts = new Uint32Array(n * n);
  const deck = new Uint8Array(n);
  let done = 0;
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    for (let round = 0; round < 1000; round++) {
      for (let k = 0; k < n; k++) deck[k] = k;
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        const t = deck[i]; deck[i] = deck[j]; deck[j] = t;
      }
      for (let p = 0; p < n; p++) counts[deck[p] * n + p]++;
    }
    done += 1000;
  }
  return done / ((performance.now() - started) / 1000);
}
"""


def pyodide_measurement(cases: list[tuple[str, int]], budget: float, repeats: int) -> str:
    """Return Python source that runs ``tally_rate`` (bench.tally's, verbatim) in Pyodide; it sets ``result``."""
    return "\n".join([
        "from __future__ import annotations",
        "import json, statistics, time",
        "started = time.perf_counter()",
        "from shufflelab import exact",
        "from shufflelab.tally import Tally",
        "import_seconds = time.perf_counter() - started",
        inspect.getsource(tally_rate),
        f"cases = {cases!r}",
        "tallies = {(a, n): Tally(a, n, seed=f'bench-{a}-{n}') for a, n in cases}",
        "first_run = {}",
        "for key, t in tallies.items():",
        "    started = time.perf_counter()",
        "    t.run(1)",
        "    first_run[key] = time.perf_counter() - started",
        "rates = {key: [] for key in tallies}",
        f"for _ in range({repeats}):",
        "    for key, t in tallies.items():",
        f"        rates[key].append(tally_rate(t, {budget}))",
        "exact_seconds = []",
        f"for _ in range({max(2, repeats)}):",
        "    started = time.perf_counter()",
        f"    exact.position_matrix('swap-any', {DECK})",
        "    exact_seconds.append(time.perf_counter() - started)",
        "result = json.dumps({'rates': [[a, n, statistics.median(r)] for (a, n), r in rates.items()],",
        "                     'each_rate': [[a, n, r] for (a, n), r in rates.items()],",
        "                     'first_run_ms': [[a, n, s * 1000] for (a, n), s in first_run.items()],",
        "                     'exact_seconds': exact_seconds, 'import_seconds': import_seconds})",
    ])


def in_page_runner(code: str) -> str:
    """Return a page script that runs ``code`` and puts its ``result`` (or the traceback) in html[data-bench-result]."""
    return "\n".join([
        "import json, traceback",
        "import js",
        f"BENCH_CODE = {code!r}",
        "try:",
        "    _namespace = {'__name__': 'bench'}",
        "    exec(compile(BENCH_CODE, 'bench', 'exec'), _namespace)",
        "    _out = _namespace['result']",
        "except BaseException:",
        "    _out = json.dumps({'error': traceback.format_exc()})",
        "js.document.documentElement.dataset.benchResult = _out",
    ])


def pyodide_lab_section(browser, site, repeats: int, quick: bool) -> dict:
    """Measure the lab's tally and exact matrix in Pyodide, plain JS beside it, and the live tally; print them.

    The tally and swap-any's matrix run on a bare page with the worker's files; the live tally is the page's own.
    """
    budget, live_seconds = (0.15, 3.0) if quick else (0.4, 5.0)
    code = in_page_runner(pyodide_measurement(PYODIDE_CASES, budget, repeats))
    url = site.add_page(LAB_PAGE, bare_pyodide_html(code, {"files": pyscript_files()}, title="bench: the lab in Pyodide"))
    with fresh_page(browser) as (page, errors):
        page.goto(url)
        page.wait_for_function("() => document.documentElement.dataset.benchResult !== undefined", timeout=600_000)
        measured = json.loads(page.evaluate("document.documentElement.dataset.benchResult"))
        if "error" in measured:
            raise RuntimeError("the measurement failed in Pyodide:\n" + measured["error"])
        js = [page.evaluate(JS_FISHER_YATES_TALLY, [DECK, budget * 2]) for _ in range(repeats)]
    live = live_tally_rates(browser, site.url, live_seconds)
    rows = [{"where": "pyodide", "algo": a, "n": n, "per_second": r} for a, n, r in measured["rates"]]
    rows.append({"where": "javascript", "algo": "fisher-yates", "n": DECK, "per_second": statistics.median(js)})
    figures = {
        "rows": rows,
        "first_run_ms": measured["first_run_ms"],
        "each_rate": measured["each_rate"],
        "exact_first_seconds": measured["exact_seconds"][0],
        "exact_again_seconds": statistics.median(measured["exact_seconds"][1:]),
        "import_seconds": measured["import_seconds"],
        "live": live,
    }
    print_lab_summary(figures, repeats)
    print_errors("lab in Pyodide", errors)
    return figures


def live_tally_rates(browser, url: str, seconds: float) -> dict:
    """Run the page's own bias lab (worker, redraws and all) and read its rates, as a user sees them."""
    with fresh_page(browser) as (page, errors):
        page.goto(url + "?view=lab&algo=fisher-yates")
        page.wait_for_selector("#lab-start:enabled", timeout=180_000)
        page.click("#lab-start")
        page.wait_for_function("() => document.getElementById('trials').textContent !== '0'", timeout=60_000)
        first = (time.perf_counter(), int(page.text_content("#trials").replace(",", "")))
        time.sleep(seconds)  # a benchmark's measuring window, not a test's wait
        last = (time.perf_counter(), int(page.text_content("#trials").replace(",", "")))
        page.click("#lab-pause")
        worker_rate = page.text_content("#rate")
    return {"wall_per_second": (last[1] - first[1]) / (last[0] - first[0]), "worker_rate_shown": worker_rate,
            "errors": errors}


def print_lab_summary(figures: dict, repeats: int) -> None:
    """Print the lab's figures in Chromium against their targets."""
    rows = figures["rows"]
    first_run = {(a, n): ms for a, n, ms in figures["first_run_ms"]}
    javascript = next(r["per_second"] for r in rows if r["where"] == "javascript")
    table = [[r["algo"], str(r["n"]), f"{r['per_second']:,.0f}", f"{first_run[r['algo'], r['n']]:,.0f}"]
             for r in rows if r["where"] == "pyodide"]
    table.append(["plain JS Fisher-Yates + count", str(DECK), f"{javascript:,.0f}", "-"])
    print_table(f"The lab in Pyodide: the bench's tally_rate on a bare PyScript page with pyscript.toml's files (the worker's) "
                f"(median of {repeats})", ["algorithm", "n", "shuffles/s", "first run ms"], table)
    pyodide = next(r["per_second"] for r in rows if r["where"] == "pyodide" and r["algo"] == "fisher-yates")
    print(f"  fisher-yates n={DECK} tally in Pyodide: {pyodide:,.0f}/s {verdict(pyodide >= PYODIDE_TALLY_TARGET_PER_SECOND)} "
          f"the target of >= {PYODIDE_TALLY_TARGET_PER_SECOND:,}/s; plain JS {javascript:,.0f}/s "
          f"({javascript / pyodide:.1f}x)")
    exact_first = figures["exact_first_seconds"]
    print(f"  exact {DECK}x{DECK} matrix of swap-any in Pyodide: {exact_first * 1000:.0f} ms the first time "
          f"{verdict(exact_first < EXACT_TARGET_SECONDS)} the target of < {EXACT_TARGET_SECONDS * 1000:.0f} ms; "
          f"{figures['exact_again_seconds'] * 1000:.0f} ms again")
    print(f"  importing shufflelab.exact and shufflelab.tally in Pyodide: {figures['import_seconds'] * 1000:.0f} ms")
    live = figures["live"]
    print(f"  the page's live tally (worker + redraws): {live['wall_per_second']:,.0f}/s on the wall clock, "
          f"{live['worker_rate_shown']}/s shown by the page (time the worker spent shuffling)")
    print_errors("live lab", live["errors"])


def target_rows(browser: dict) -> list[dict]:
    """Return the lab's rows of the targets table (tally, exact matrix, live tally, JavaScript), if measured."""
    lab = browser.get("pyodide_lab", {})
    if "rows" not in lab:
        return []
    pyodide = next(r["per_second"] for r in lab["rows"] if r["where"] == "pyodide" and r["algo"] == "fisher-yates")
    javascript = next(r["per_second"] for r in lab["rows"] if r["where"] == "javascript")
    exact = lab["exact_first_seconds"]
    return [
        target_row("tally_pyodide", f"lab tally, `fisher-yates`, {DECK} cards, Pyodide",
                   f"{round(pyodide, -3):,.0f} shuffles/s", f"at least {PYODIDE_TALLY_TARGET_PER_SECOND:,}/s",
                   pyodide >= PYODIDE_TALLY_TARGET_PER_SECOND),
        target_row("exact_swap_any", f"exact {DECK} × {DECK} matrix of `swap-any`, Pyodide", f"{exact * 1000:.0f} ms",
                   f"under {EXACT_TARGET_SECONDS * 1000:.0f} ms", exact < EXACT_TARGET_SECONDS),
        target_row("live_tally", "the page's live tally, worker and five redraws a second",
                   f"{round(lab['live']['wall_per_second'], -3):,.0f} shuffles/s on the wall clock"),
        target_row("javascript_tally", "plain JavaScript Fisher–Yates + tally, same browser",
                   f"{round(javascript, -4):,.0f} shuffles/s ({javascript / pyodide:.1f}× Pyodide)"),
    ]
