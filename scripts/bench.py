#!/usr/bin/env python3
"""Shuffle Lab benchmark: prints figures side by side from one run (not a timed test).

Sections (each a function, so more can be added):
  shuffle       CPython, 52 cards: random.shuffle vs fisher_yates with FastRng and with
                StreamRng; 1,000,000 cards with both sources
  instructions  the same 52-card shuffles counted in instructions under callgrind
  tally         tally throughput (shuffle + count) for every catalog algorithm, CPython
  counting      how to count a batch of decks kept as bytes: which technique is fastest
  false alarms  each verdict's measured false-alarm rate under correct shuffles, beside the
                rate the docs state (scripts/false_alarms.py; the pinned run and a fresh one)
  cli           `tally` of 1,000,000 shuffles with --workers 1 and 2 side by side, and `audit` of a
                file of 1,000,000 orders of 52 cards (made here), as a user runs them
  browser       in Chromium, the site on a free local port (``--cpython-only`` skips these):
    first deal, cold       a shared link's first cards on the real page (MicroPython) against
                           a bare PyScript page on Pyodide, each load in a fresh context: time
                           to first cards, bytes fetched before them (and their gzip size)
    first deal, throttled  the same two pages on a throttled network and CPU
    cut-insert             the page's own deal timing for the slowest deal (15,000 repetitions)
    lab in Pyodide         the same tally_rate in Pyodide, the exact swap-any matrix, the
                           page's live tally, plain JavaScript Fisher-Yates + tally
    against a baseline     the same tally in Pyodide at an older revision (--baseline REV,
                           default the last commit before the split), two pages in turns
    fisher-yates vs before Fisher-Yates's tally in Pyodide, this tree beside the one before it was
                           made inside out, in turns, against the issue's 500,000/s (``--speed``:
                           this alone, its figures pinned in docs/speed.json for the performance page)
    riffle-physical        its exact 52-card matrix in Pyodide as the worker computes it, against the
                           issue's 5 s (``--physical``: this alone)
    run to verdict         Run -> first verdict on the editor's example, against the lab's own worker
    run to verdict, fresh  the same with one Run, one sandbox (cold, same code, edited), against the tree before
                           it (scripts/bench_sandbox.py)
    lab start              tap "Bias lab" -> Start enabled on the phone profile (throttled, the service worker
                           too), a first visit and repeat visits in a fresh profile, against LAB_START_REV,
                           with where a repeat visit's start goes (the worker's own timeline)

This machine is noisy: every figure is the median of ``--repeats`` measurements, and the
cases of a section take turns (round robin) so a busy moment hits them all alike. The last
lines list each target, the figure and whether it meets it.

    .venv/bin/python scripts/bench.py [--quick] [--repeats N] [--cpython-only] [--baseline REV|none]
                                      [--json PATH] [--speed] [--physical] [--only SECTION]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from shufflelab import algorithms, catalog  # noqa: E402
from shufflelab.rng import StreamRng  # noqa: E402
from shufflelab.tally import Tally  # noqa: E402
from shufflelab.tally.bitslice import (  # noqa: E402
    FastLaneSource,
    decks_from_columns,
    planes_from_lane_bytes,
    planes_per_card,
    value_masks,
)
from shufflelab.tally.counting import count_lanes  # noqa: E402
from shufflelab.tally.fast_rng import FastRng  # noqa: E402
from shufflelab.tally.kernels import fisher_yates_block, make_block  # noqa: E402

DECK = 52
BIG_DECK = 1_000_000
TALLY_TARGET_PER_SECOND = 150_000  # CPython
ONE_MILLION_TARGET_SECONDS = 1.0
MB = 1_000_000


# --- measuring ----------------------------------------------------------------------------


def interleaved_medians(cases: dict[str, Callable[[], float]], repeats: int) -> dict[str, float]:
    """Return each case's median result; the cases take turns, ``repeats`` rounds."""
    results: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(repeats):
        for name, measure in cases.items():
            results[name].append(measure())
    return {name: statistics.median(values) for name, values in results.items()}


def seconds_per_call(action: Callable[[], object], calls: int) -> float:
    """Return the mean wall time of ``action`` over ``calls`` back-to-back calls."""
    started = time.perf_counter()
    for _ in range(calls):
        action()
    return (time.perf_counter() - started) / calls


def print_table(title: str, header: list[str], rows: list[list[str]]) -> None:
    """Print a plain aligned text table (first column left, the others right)."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    print(f"\n{title}")
    line = "  ".join(
        f"{cell:<{w}}" if k == 0 else f"{cell:>{w}}" for k, (cell, w) in enumerate(zip(header, widths))
    )
    print(line)
    print("-" * len(line))
    for row in rows:
        print("  ".join(f"{cell:<{w}}" if k == 0 else f"{cell:>{w}}" for k, (cell, w) in enumerate(zip(row, widths))))


# --- section: one shuffle -------------------------------------------------------------------


def shuffle_section(repeats: int, quick: bool) -> dict:
    """Measure 52-card and 1,000,000-card shuffles; print them; return the figures."""
    calls = 500 if quick else 3000
    deck = list(range(DECK))
    shuffler = random.Random(1)  # an instance: the global random module is never used
    fast, streamed = FastRng(1), StreamRng("bench")
    per_shuffle = interleaved_medians(
        {
            "random.Random().shuffle": lambda: seconds_per_call(lambda: shuffler.shuffle(deck), calls),
            "fisher_yates + FastRng": lambda: seconds_per_call(lambda: algorithms.fisher_yates(deck, fast), calls),
            "fisher_yates + StreamRng": lambda: seconds_per_call(
                lambda: algorithms.fisher_yates(deck, streamed), calls
            ),
        },
        repeats,
    )
    big = list(range(BIG_DECK))
    big_repeats = 1 if quick else max(1, min(repeats, 3))
    one_million = interleaved_medians(
        {
            "fisher_yates + FastRng": lambda: seconds_per_call(lambda: algorithms.fisher_yates(big, fast), 1),
            "fisher_yates + StreamRng": lambda: seconds_per_call(lambda: algorithms.fisher_yates(big, streamed), 1),
        },
        big_repeats,
    )
    baseline = per_shuffle["random.Random().shuffle"]
    rows = [
        [name, f"{seconds * 1e6:.1f}", f"{baseline / seconds:.2f}x"] for name, seconds in per_shuffle.items()
    ]
    print_table(f"One shuffle of {DECK} cards, CPython (median of {repeats})",
                ["method", "us/shuffle", "speed vs random.shuffle"], rows)
    # the target is for the fast source; the stream's figure is for comparison
    rows = [
        [name, f"{seconds:.3f}",
         ("yes" if seconds < ONE_MILLION_TARGET_SECONDS else "NO") if "FastRng" in name else "-"]
        for name, seconds in one_million.items()
    ]
    print_table(f"One shuffle of {BIG_DECK:,} cards, CPython (median of {big_repeats})",
                ["method", "seconds", f"target < {ONE_MILLION_TARGET_SECONDS:g} s"], rows)
    return {
        "us_per_shuffle_52": {name: s * 1e6 for name, s in per_shuffle.items()},
        "seconds_1e6_cards": one_million,
    }


# --- section: instructions per shuffle (noise-free) ------------------------------------------

INSTRUCTION_CALLS = 3000
INSTRUCTION_CASES = {
    "nothing (interpreter start-up)": "",
    "random.Random().shuffle": "g = random.Random(1)\nfor _ in range(CALLS): g.shuffle(deck)",
    "fisher_yates + FastRng": "r = FastRng(1)\nfor _ in range(CALLS): algorithms.fisher_yates(deck, r)",
}


def instructions_section() -> dict:
    """Count instructions per 52-card shuffle under callgrind (the same whatever else the machine does)."""
    import os
    import re
    import shutil
    import subprocess

    if not shutil.which("valgrind"):
        print("\nInstructions per shuffle: valgrind is not installed (apt-get install valgrind); skipped")
        return {}
    prelude = (f"import sys, random\nsys.path.insert(0, {str(Path(__file__).resolve().parent.parent / 'py')!r})\n"
               f"from shufflelab import algorithms\nfrom shufflelab.tally.fast_rng import FastRng\n"
               f"deck = list(range({DECK}))\nCALLS = {INSTRUCTION_CALLS}\n")
    totals = {}
    for name, body in INSTRUCTION_CASES.items():
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={os.devnull}",
                              sys.executable, "-c", prelude + body], capture_output=True, text=True)
        totals[name] = int(re.search(r"Collected : (\d+)", run.stderr).group(1))
    start_up = totals.pop("nothing (interpreter start-up)")
    per_shuffle = {name: (total - start_up) / INSTRUCTION_CALLS for name, total in totals.items()}
    baseline = per_shuffle["random.Random().shuffle"]
    print_table(f"Instructions per {DECK}-card shuffle under callgrind (repeatable on a busy machine)",
                ["method", "instructions", "vs random.shuffle"],
                [[name, f"{count:,.0f}", f"{count / baseline:.2f}x"] for name, count in per_shuffle.items()])
    return per_shuffle


# --- section: tally throughput ---------------------------------------------------------------


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
    """Measure tally throughput for each case; print the table; return rows of figures."""
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


def print_tally_table(rows: list[dict], repeats: int, browser_rows: list[dict]) -> None:
    """Print tally throughput, with browser figures (Pyodide, plain JS) beside CPython's when there are any."""
    browser = {(r["algo"], r["n"], r["where"]): r["per_second"] for r in browser_rows}
    fisher_yates = next(r["cpython_per_second"] for r in rows if r["algo"] == "fisher-yates" and r["n"] == DECK)
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
    verdict = "meets" if fisher_yates >= TALLY_TARGET_PER_SECOND else "MISSES"
    print(f"fisher-yates n={DECK}: {fisher_yates:,.0f}/s {verdict} the CPython target of {TALLY_TARGET_PER_SECOND:,}/s")


# --- section: the command line's tally and audit ----------------------------------------------


CLI_SHUFFLES = 1_000_000
AUDIT_ORDERS = 1_000_000
AUDIT_TARGET_SECONDS = 10.0


def cli_seconds(*argv: str) -> tuple[float, dict, float]:
    """Run ``python -m shufflelab`` as a user would (its start included); return (wall seconds, its JSON, CPU seconds
    of it and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "shufflelab", *argv, "--json"], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "py")}, check=False)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"shufflelab {' '.join(argv)} exited {done.returncode}: {done.stderr.strip()}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return seconds, json.loads(done.stdout), cpu


def write_orders(path: Path, count: int) -> None:
    """Write ``count`` Fisher-Yates orders of 52 cards, one a line, as an engine would (bit-sliced blocks, then text)."""
    kernel = catalog.get("fisher-yates").resolve("kernel")
    lanes = 65_536
    names = [str(card).encode() for card in range(DECK)]
    source = FastLaneSource(FastRng("orders"))
    with path.open("wb") as out:
        for start in range(0, count, lanes):
            width = min(lanes, count - start)
            decks = decks_from_columns(make_block(kernel, DECK, lanes, source), lanes)[: width * DECK]
            out.write(b"".join(b" ".join(map(names.__getitem__, decks[i : i + DECK])) + b"\n"
                               for i in range(0, len(decks), DECK)))


def cli_section(repeats: int, quick: bool) -> dict:
    """Time `tally` with 1 and 2 workers, side by side, and `audit` of a million orders; print them."""
    runs = 1 if quick else max(1, min(repeats, 3))  # each run is seconds: fewer repeats than the other sections
    tally_argv = ["tally", "--algo", "fisher-yates", "--cards", str(DECK), "--shuffles", str(CLI_SHUFFLES),
                  "--seed", "bench", "--no-exact"]
    results: dict[int, list] = {1: [], 2: []}
    for _ in range(runs):
        for workers in (1, 2):  # in turns, so a busy moment hits both
            results[workers].append(cli_seconds(*tally_argv, "--workers", str(workers)))
    same = results[1][0][1]["counts"] == results[2][0][1]["counts"]
    wall = {k: statistics.median(r[0] for r in v) for k, v in results.items()}
    cpu = {k: statistics.median(r[2] for r in v) for k, v in results.items()}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "orders.txt"
        write_orders(path, AUDIT_ORDERS)
        size = path.stat().st_size
        audits = [cli_seconds("audit", str(path)) for _ in range(runs)]
    audit_seconds = statistics.median(a[0] for a in audits)
    load = os.getloadavg()[0]
    print_table(f"Command line, {DECK} cards, fisher-yates (medians of {runs}, wall clock with Python's start; "
                f"load average {load:.1f} on {os.cpu_count()} cores)",
                ["what", "seconds", "shuffles/s", "CPU seconds"],
                [[f"tally --shuffles {CLI_SHUFFLES:,} --workers {k}", f"{wall[k]:.2f}", f"{CLI_SHUFFLES / wall[k]:,.0f}",
                  f"{cpu[k]:.2f}"] for k in (1, 2)]
                + [[f"audit, {AUDIT_ORDERS:,} orders ({size / 1e6:.0f} MB)", f"{audit_seconds:.2f}",
                    f"{AUDIT_ORDERS / audit_seconds:,.0f}", f"{statistics.median(a[2] for a in audits):.2f}"]])
    print(f"--workers 2 / --workers 1: {wall[1] / wall[2]:.2f}x as fast; same counts: {same}")
    return {"tally_seconds": wall, "tally_cpu_seconds": cpu, "workers_same_counts": same,
            "audit_seconds": audit_seconds, "audit_bytes": size, "load_average": load}


# --- section: counting techniques ---------------------------------------------------------


def counting_section(repeats: int, quick: bool) -> dict:
    """Compare ways of counting card x position for one batch of decks; print and return us/deck."""
    n, lanes = DECK, 4096 if quick else 16384
    columns = make_block(fisher_yates_block, n, lanes, FastLaneSource(FastRng(5)))
    decks = decks_from_columns(columns, lanes)
    sample = decks[: n * 1024]  # the per-card Python loop is too slow for the whole batch

    def fresh():
        return [[0] * n for _ in range(n)]

    def python_loop():
        counts = fresh()
        for start in range(0, len(sample), n):
            for position, card in enumerate(sample[start : start + n]):
                counts[card][position] += 1
        return counts

    def bytes_count():
        counts = fresh()
        for p in range(n):
            column = decks[p::n]
            for card in range(n):
                counts[card][p] += column.count(card)
        return counts

    def counter_per_column():
        counts = fresh()
        for p in range(n):
            for card, k in Counter(decks[p::n]).items():
                counts[card][p] += k
        return counts

    def planes_from_bytes():
        counts = fresh()
        every_lane = (1 << lanes) - 1
        for p in range(n):
            planes = planes_from_lane_bytes(decks[p::n], 1, planes_per_card(n))
            for card, mask in enumerate(value_masks(planes, n, every_lane)):
                counts[card][p] += mask.bit_count()
        return counts

    def bit_sliced():
        counts, fixed = fresh(), [0] * (n + 1)
        count_lanes(columns, 0, lanes, counts, fixed)
        return counts

    expected = bytes_count()
    assert counter_per_column() == planes_from_bytes() == bit_sliced() == expected
    techniques = {
        "Python loop over every card": (python_loop, len(sample) // n),
        "bytes.count per column and card": (bytes_count, lanes),
        "Counter per column": (counter_per_column, lanes),
        "bytes -> bit planes, popcount": (planes_from_bytes, lanes),
        "bit-sliced block, popcount (tally)": (bit_sliced, lanes),
    }
    per_deck = interleaved_medians(
        {name: (lambda f=f, k=k: seconds_per_call(f, 1) / k) for name, (f, k) in techniques.items()},
        repeats,
    )
    baseline = per_deck["bytes.count per column and card"]
    rows = [[name, f"{s * 1e6:.3f}", f"{baseline / s:.2f}x"] for name, s in per_deck.items()]
    print_table(f"Counting a {n}x{n} tally of {lanes:,} decks kept as bytes; last row: kept bit-sliced, "
                f"as the tally does, fixed points included (median of {repeats})",
                ["technique", "us/deck", "speed vs bytes.count"], rows)
    return {name: s * 1e6 for name, s in per_deck.items()}


# --- browser sections -----------------------------------------------------------------------

SHARED_LINK = "?v=1&algo=fisher-yates&seed=bench&deck=standard&players=4&cards=5&style=round-robin"
DEAL_MARK = "shufflelab:deal-ready"  # py/page/app.py: the first cards are on screen
DEAL_MEASURE = "shufflelab:deal"  # py/page/app.py: one deal, drawing included
BARE_MARK = "bare:first-line"
BARE_PAGE = "bench-bare-pyodide.html"  # pages the site doesn't have, served by the bench only
LAB_PAGE = "bench-lab-pyodide.html"
BARE_CODE = f'import js; js.performance.mark("{BARE_MARK}")'

FIRST_DEAL_RATIO_TARGET = 0.3  # deal page's time / bare Pyodide page's time
FIRST_DEAL_BYTES_TARGET = 1.5 * MB
FIRST_DEAL_BYTES_AIM = 1.0 * MB
THROTTLED_DEAL_TARGET_MS = 3000
CUT_INSERT_TARGET_MS = 300
SAME_SPEED_RATIO = 0.95  # side by side in one run, a lower ratio than this is a real slowdown here
PYODIDE_TALLY_TARGET_PER_SECOND = 300_000  # fisher-yates, 52 cards: keep today's figure
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


def verdict(meets: bool) -> str:
    return "meets" if meets else "MISSES"


def print_errors(label: str, errors: list[str]) -> None:
    """Print the distinct console errors a section's pages logged (there should be none)."""
    for error in dict.fromkeys(errors):
        print(f"  {label}: console error: {error[:300]}")


def first_deal_section(browser, site, repeats: int, throttled: bool = False) -> dict:
    """Time a shared link's first cards (real page, MicroPython) against a bare Pyodide page, cold.

    Each load is in a fresh browser context (empty cache); the two pages take turns.
    ``throttled``: 9 Mbit/s, 40 ms latency and a CPU 4x slower (bench_pages.throttle).
    """
    from bench_pages import bare_pyodide_html, cold_load

    pages = {
        "deal": (site.url + SHARED_LINK, DEAL_MARK, True),
        "bare": (site.add_page(BARE_PAGE, bare_pyodide_html(BARE_CODE)), BARE_MARK, False),
    }
    loads: dict[str, list[dict]] = {name: [] for name in pages}
    for k in range(repeats):
        for name in (("deal", "bare") if k % 2 == 0 else ("bare", "deal")):  # neither always first
            url, mark, real_page = pages[name]
            loads[name].append(cold_load(browser, site, url, mark, ready_attribute=real_page, throttled=throttled))
    figures = {
        name: {
            "ms": statistics.median(load["ms"] for load in runs),
            "bytes": statistics.median(load["bytes"] for load in runs),
            "gzip_bytes": statistics.median(load["gzip_bytes"] for load in runs),
            "files": runs[-1]["files"],
            "runs_ms": [load["ms"] for load in runs],
        }
        for name, runs in loads.items()
    }
    figures["deal"]["file_list"] = loads["deal"][-1]["file_list"]
    figures["ratio"] = figures["deal"]["ms"] / figures["bare"]["ms"]
    figures["throttled"] = throttled

    deal, bare = figures["deal"], figures["bare"]
    title = ("First deal, throttled: 9 Mbit/s, 40 ms latency, CPU 4x slower" if throttled
             else "First deal, cold cache")
    rows = [
        [f"shared link, index.html (MicroPython) to {DEAL_MARK}", f"{deal['ms']:,.0f}", f"{deal['bytes'] / MB:.2f}",
         f"{deal['gzip_bytes'] / MB:.2f}", str(deal["files"])],
        [f"bare PyScript page on Pyodide to {BARE_MARK}", f"{bare['ms']:,.0f}", f"{bare['bytes'] / MB:.2f}",
         f"{bare['gzip_bytes'] / MB:.2f}", str(bare["files"])],
        ["deal / bare", f"{figures['ratio']:.2f}x", f"{deal['bytes'] / bare['bytes']:.2f}x",
         f"{deal['gzip_bytes'] / bare['gzip_bytes']:.2f}x", ""],
    ]
    print_table(f"{title} (fresh browser context per load, median of {repeats}, taking turns)",
                ["page", "ms", "MB served", "MB gzip -9", "files"], rows)
    print("  ms: from navigation start to the mark; MB: what the local server sent before it "
          "(uncompressed), and the same files gzipped (GitHub Pages sends gzip)")
    print(f"  each load, ms: deal {', '.join(f'{ms:,.0f}' for ms in deal['runs_ms'])}; "
          f"bare {', '.join(f'{ms:,.0f}' for ms in bare['runs_ms'])}")
    if throttled:
        print(f"  first deal in {deal['ms'] / 1000:.2f} s {verdict(deal['ms'] <= THROTTLED_DEAL_TARGET_MS)} "
              f"the target of {THROTTLED_DEAL_TARGET_MS / 1000:g} s")
    else:
        print(f"  deal / bare {figures['ratio']:.2f} {verdict(figures['ratio'] <= FIRST_DEAL_RATIO_TARGET)} "
              f"the target of <= {FIRST_DEAL_RATIO_TARGET:g}; {deal['bytes'] / MB:.2f} MB served "
              f"({deal['gzip_bytes'] / MB:.2f} MB gzip) {verdict(deal['bytes'] <= FIRST_DEAL_BYTES_TARGET)} "
              f"the target of <= {FIRST_DEAL_BYTES_TARGET / MB:g} MB (aim {FIRST_DEAL_BYTES_AIM / MB:g} MB)")
        largest = sorted(deal["file_list"], key=lambda f: -f["bytes"])[:6]
        print("  largest files before the first deal: " + ", ".join(
            f"{f['url'].removeprefix(site.url) or 'index.html'} {f['bytes'] / 1000:,.0f} kB "
            f"({f['gzip_bytes'] / 1000 if f['gzip_bytes'] is not None else 0:,.0f} kB gzip)" for f in largest))
    for name, runs in loads.items():
        print_errors(name, [error for load in runs for error in load["errors"]])
    return figures


def cut_insert_section(browser, site, opens: int, clicks: int) -> dict:
    """Read the page's own deal measure for cut-insert (15,000 repetitions): opened from a link, then New seed."""
    from bench_pages import record_errors, wait_until_ready

    durations_js = f"() => performance.getEntriesByName('{DEAL_MEASURE}').map(e => e.duration)"
    first, warm, errors = [], [], []  # errors: one list per page, filled as it logs
    context = browser.new_context()
    try:
        for _ in range(opens):
            page = context.new_page()
            errors.append(record_errors(page))
            page.goto(site.url + "?algo=cut-insert&seed=bench")
            wait_until_ready(page)
            first.append(page.evaluate(durations_js)[0])  # the link's deal, as the page opened
            for _ in range(clicks):
                done = len(page.evaluate(durations_js))
                page.click("#new-seed")  # a fresh seed: a new deal
                page.wait_for_function(f"k => performance.getEntriesByName('{DEAL_MEASURE}').length > k", arg=done)
            warm += page.evaluate(durations_js)[1:]
            page.close()
    finally:
        context.close()
    figures = {"first_ms": statistics.median(first), "warm_ms": statistics.median(warm),
               "first_runs_ms": first, "warm_runs_ms": warm}
    print_table(f"cut-insert deal on the page (15,000 repetitions, 52 cards; performance.measure "
                f"'{DEAL_MEASURE}', drawing included)",
                ["deal", "median ms", "runs", f"target <= {CUT_INSERT_TARGET_MS} ms"],
                [["opened from a link", f"{figures['first_ms']:,.0f}", str(len(first)),
                  verdict(figures["first_ms"] <= CUT_INSERT_TARGET_MS)],
                 ["New seed (page warm)", f"{figures['warm_ms']:,.0f}", str(len(warm)),
                  verdict(figures["warm_ms"] <= CUT_INSERT_TARGET_MS)]])
    print_errors("cut-insert", [error for page_errors in errors for error in page_errors])
    return figures


def pyodide_measurement(cases: list[tuple[str, int]], budget: float, repeats: int) -> str:
    """Return Python source that runs ``tally_rate`` (this file's, verbatim) in Pyodide; it sets ``result``."""
    import inspect

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
    """Run the lab's code in Pyodide in Chromium; the page's live tally; plain JS Fisher-Yates.

    The tally and the exact matrix run on a bare PyScript page on Pyodide (main thread) with
    pyscript.toml's files (the worker's), so ``shufflelab`` imports as in the lab's worker.
    """
    import tomllib

    from bench_pages import bare_pyodide_html, record_errors

    budget, live_seconds = (0.15, 3.0) if quick else (0.4, 5.0)
    files = tomllib.loads((ROOT / "pyscript.toml").read_text(encoding="utf-8"))["files"]
    code = in_page_runner(pyodide_measurement(PYODIDE_CASES, budget, repeats))
    url = site.add_page(LAB_PAGE, bare_pyodide_html(code, {"files": files}, title="bench: the lab in Pyodide"))
    context = browser.new_context()
    try:
        page = context.new_page()
        errors = record_errors(page)
        page.goto(url)
        page.wait_for_function("() => document.documentElement.dataset.benchResult !== undefined", timeout=600_000)
        measured = json.loads(page.evaluate("document.documentElement.dataset.benchResult"))
        if "error" in measured:
            raise RuntimeError("the measurement failed in Pyodide:\n" + measured["error"])
        js = [page.evaluate(JS_FISHER_YATES_TALLY, [DECK, budget * 2]) for _ in range(repeats)]
        page.close()
    finally:
        context.close()
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


BASELINE_REV = "efc9911"  # the last commit whose page ran on Pyodide: the lab's speed before the split
BASELINE_CASES = [("fisher-yates", DECK), ("swap-any", DECK), ("riffle-gsr", DECK), ("random-comparator", DECK)]


def baseline_files(rev: str, site) -> dict:
    """Serve ``rev``'s py/shufflelab/ under /bench-baseline/ and return the PyScript [files] table for it."""
    import io
    import subprocess
    import tarfile

    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "py/shufflelab"],
                             check=True, capture_output=True).stdout
    files = {}
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.endswith(".py"):
                name = "bench-baseline/" + member.name
                site.pages["/" + name] = tar.extractfile(member).read()
                files["./" + name] = "./" + member.name.removeprefix("py/")
    return files


def tally_rate_server(cases: list[tuple[str, int]], budget: float) -> str:
    """Return page code that makes ``window.benchTallyRates()`` measure each case once, as JSON."""
    import inspect

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


def in_turns(browser, site, rev: str, code: str, name: str, call: str, repeats: int) -> dict[str, list]:
    """Run ``code`` on two bare Pyodide pages, one with this tree's pyscript.toml files and one with ``rev``'s; once
    both are ready, evaluate ``call`` (JavaScript returning JSON) ``repeats`` times on each, in turns; return
    {"now": [answers], rev: [answers]}."""
    import tomllib

    from bench_pages import bare_pyodide_html

    now_files = tomllib.loads((ROOT / "pyscript.toml").read_text(encoding="utf-8"))["files"]
    pages = {}
    context = browser.new_context()
    try:
        for label, files in (("now", now_files), (rev, baseline_files(rev, site))):
            url = site.add_page(f"bench-{name}-{label}.html",
                                bare_pyodide_html(code, {"files": files}, title=f"bench: {name} at {label}"))
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector("html[data-bench-ready]", state="attached", timeout=300_000)
            pages[label] = page
        answers = {label: [] for label in pages}
        for turn in range(repeats):
            # in turns, so a busy moment hits both, and each goes first every other turn
            for label, page in (list(pages.items()) if turn % 2 == 0 else reversed(pages.items())):
                answers[label].append(json.loads(page.evaluate(call)))
    finally:
        context.close()
    return answers


def baseline_section(browser, site, repeats: int, quick: bool, rev: str,  # noqa: ARG001
                     cases: list[tuple[str, int]] = BASELINE_CASES) -> dict:
    """The lab's tally in Pyodide now and at ``rev``, side by side: two pages, measured in turns."""
    # short runs swing by ±20 % here; 0.4 s a run and at least five turns each keep the ratio honest
    budget, repeats = 0.4, max(repeats, 6)
    rates = in_turns(browser, site, rev, tally_rate_server(cases, budget), "tally", "window.benchTallyRates()",
                     repeats)
    medians = {label: {(a, n): statistics.median(run[k][2] for run in runs) for k, (a, n) in enumerate(cases)}
               for label, runs in rates.items()}
    table = [[a, str(n), f"{medians['now'][a, n]:,.0f}", f"{medians[rev][a, n]:,.0f}",
              f"{medians['now'][a, n] / medians[rev][a, n]:.2f}x"] for a, n in cases]
    print_table(f"The lab's tally in Pyodide, this tree against {rev}, two pages taking turns "
                f"(median of {repeats})", ["algorithm", "n", "now /s", f"{rev} /s", "now / before"], table)
    return {"rev": rev, "now": [[a, n, r] for (a, n), r in medians["now"].items()],
            "before": [[a, n, r] for (a, n), r in medians[rev].items()],
            "each": {label: [run[k][2] for run in runs] for label, runs in rates.items()
                     for k, (a, n) in enumerate(cases) if (a, n) == ("fisher-yates", DECK)}}


# Issue 19 item 8: Fisher-Yates tallies at least 500,000 shuffles a second in the page's worker. The tree before the
# work on it runs beside this one (baseline_section), and a run's figures are pinned in docs/speed.json: the performance page
# states them (tests/unit/test_speed_figures.py).
FISHER_YATES_TARGET_PER_SECOND = 500_000
FISHER_YATES_BEFORE_REV = "27f083e"  # the last commit before the tally was made inside out
SPEED_FIGURES = ROOT / "docs" / "speed.json"


def fisher_yates_section(browser, site, repeats: int, quick: bool) -> dict:
    """Fisher-Yates, 52 cards, tallied in Pyodide by this tree and by FISHER_YATES_BEFORE_REV's, in turns."""
    figures = baseline_section(browser, site, repeats, quick, FISHER_YATES_BEFORE_REV, [("fisher-yates", DECK)])
    now, before = figures["now"][0][2], figures["before"][0][2]
    print(f"  fisher-yates n={DECK} in Pyodide: {now:,.0f}/s now, {before:,.0f}/s at {FISHER_YATES_BEFORE_REV} "
          f"({now / before:.2f}x); {verdict(now >= FISHER_YATES_TARGET_PER_SECOND)} the target of "
          f">= {FISHER_YATES_TARGET_PER_SECOND:,}/s")
    return figures


PHYSICAL_TARGET_SECONDS = 5.0  # issue 19 item 8: riffle-physical's exact 52-card matrix in the worker
PHYSICAL_BEFORE_REV = "3cf73b2"  # the level-by-level chain on lists of floats, before the last two rounds (7.5 s alone then)
PHYSICAL_FIGURES = ROOT / "docs" / "physical.json"  # the docs' figures: the last run of --physical, 5 turns or more
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


def physical_matrix_section(browser, site, repeats: int, rev: str = PHYSICAL_BEFORE_REV) -> dict:
    """riffle-physical's exact 52-card matrix in Pyodide, as the lab's worker computes it (matrix_steps, to the end),
    this tree and ``rev``'s in turns on two pages of one browser; medians and every run, in seconds."""
    runs = in_turns(browser, site, rev, PHYSICAL_SERVER, "physical", "window.benchPhysical()", repeats)
    figures = {"rev": rev, "each": {label: [run["seconds"] for run in r] for label, r in runs.items()},
               "reports": runs["now"][0]["reports"]}
    now, before = (statistics.median(figures["each"][label]) for label in ("now", rev))
    figures["seconds"] = now
    print(f"\nriffle-physical's exact {DECK}x{DECK} matrix in Pyodide (matrix_steps to the end, {figures['reports']} "
          f"progress reports), medians of {repeats} in turns: {now:.1f} s now ({_spread(figures['each']['now'])}), "
          f"{before:.1f} s at {rev} ({_spread(figures['each'][rev])}): {before / now:.2f}x; "
          f"{verdict(now <= PHYSICAL_TARGET_SECONDS)} the target of <= {PHYSICAL_TARGET_SECONDS:g} s "
          f"(the issue measured 21.6-22.1 s in the browser for the state-by-state chain before 27d20b1)")
    return figures


def _spread(seconds: list[float]) -> str:
    """Return 'lowest-highest s' of some runs, one decimal."""
    return f"{min(seconds):.1f}–{max(seconds):.1f} s"


def physical_readme_text(pinned: dict) -> str:
    """Return the performance page's words for the pinned riffle-physical figures (docs/physical.json)."""
    now, before = (statistics.median(pinned["each"][label]) for label in ("now", pinned["rev"]))
    return (f"{now:.1f} s ({_spread(pinned['each']['now'])}), against {before:.1f} s "
            f"({_spread(pinned['each'][pinned['rev']])}) for the chain whose states were lists of floats, "
            f"in turns with it ({before / now:.2f}×; medians of {len(pinned['each']['now'])})")


def speed_readme_row(pinned: dict) -> str:
    """Return the performance page's row for the Fisher-Yates tally in Pyodide, from pinned figures (docs/speed.json)."""
    now, before = pinned["now"][0][2], pinned["before"][0][2]
    spread = {label: f"{round(min(v), -3):,.0f}–{round(max(v), -3):,.0f}" for label, v in pinned["each"].items()}
    return (f"| lab tally, `fisher-yates`, 52 cards, Pyodide, beside the tally before it was made inside out "
            f"in turns | {round(now, -3):,.0f} shuffles/s ({spread['now']}) against {round(before, -3):,.0f} "
            f"({spread[pinned['rev']]}): {now / before:.2f}× | at least {FISHER_YATES_TARGET_PER_SECOND:,} |")


def live_tally_rates(browser, url: str, seconds: float) -> dict:
    """Run the page's own bias lab (worker, redraws and all) and read its rates, as a user sees them."""
    from bench_pages import record_errors

    context = browser.new_context()
    try:
        page = context.new_page()
        errors = record_errors(page)
        page.goto(url + "?view=lab&algo=fisher-yates")
        page.wait_for_selector("#lab-start:enabled", timeout=180_000)
        page.click("#lab-start")
        page.wait_for_function("() => Number(document.getElementById('trials').textContent) > 0", timeout=60_000)
        first = (time.perf_counter(), int(page.text_content("#trials")))
        time.sleep(seconds)  # a benchmark's measuring window, not a test's wait
        last = (time.perf_counter(), int(page.text_content("#trials")))
        page.click("#lab-pause")
        worker_rate = page.text_content("#rate")
    finally:
        context.close()
    return {"wall_per_second": (last[1] - first[1]) / (last[0] - first[0]), "worker_rate_shown": worker_rate,
            "errors": errors}


RUN_TO_VERDICT_RATIO = 1.5  # issue: once the sandbox is up, Run -> first verdict within 1.5x of before
RUN_BEFORE_REV = "8a24c0c"  # the last commit whose users' code ran in the lab's own worker, before the sandbox


def run_to_verdict_ms(browser, url: str, runs: int) -> list[float]:
    """Open the lab with the editor's example, then press Run ``runs`` times; return each Run → first verdict in ms
    (the first Run may wait for the sandbox's start; the later ones find it up)."""
    from bench_sandbox import lab_with_the_box_open, timed_run

    with lab_with_the_box_open(browser, url) as page:
        return [timed_run(page) for _ in range(runs)]


def run_to_verdict_fresh_section(browser, site, repeats: int) -> dict:
    """Run -> first verdict with one Run, one sandbox, beside the tree before it (scripts/bench_sandbox.py)."""
    from bench_sandbox import fresh_sandbox_section

    return fresh_sandbox_section(browser, site, repeats)


@contextlib.contextmanager
def baseline_site(rev: str):
    """Serve the whole site as it was at ``rev`` on another free port, a BenchSite: today's vendored runtimes, as
    that revision's vendor.mjs would have made them (Pyodide's standard library precompiled or not)."""
    import shutil

    from bench_pages import BenchSite

    with tempfile.TemporaryDirectory() as folder:
        before = Path(folder) / "site"
        before.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(before)], input=archive, check=True)
        shutil.copytree(ROOT / "static" / "vendor", before / "static" / "vendor")
        if not (before / "scripts" / "stdlib_bytecode.py").exists():  # its vendor.mjs shipped Pyodide's stdlib as is
            shutil.copyfile(ROOT / "node_modules" / "pyodide" / "python_stdlib.zip",
                            before / "static" / "vendor" / "pyodide" / "python_stdlib.zip")
        with BenchSite(root=before) as old_site:
            yield old_site


def run_to_verdict_section(browser, site, repeats: int, rev: str = RUN_BEFORE_REV) -> dict:
    """Run → first verdict on the editor's example, this tree (the sandbox) against ``rev`` (the lab's own worker),
    side by side: each page opened afresh in turns, its first Run and then warm ones."""
    with baseline_site(rev) as old_site:
        figures = {"now": {"first": [], "warm": []}, rev: {"first": [], "warm": []}}
        for turn in range(repeats):
            pairs = [("now", site.url), (rev, old_site.url)]
            for label, url in (pairs if turn % 2 == 0 else pairs[::-1]):
                first, *warm = run_to_verdict_ms(browser, url, 3)
                figures[label]["first"].append(first)
                figures[label]["warm"].extend(warm)
    table = [[label, f"{statistics.median(f['first']):,.0f}", f"{statistics.median(f['warm']):,.0f}",
              f"{min(f['warm']):,.0f}-{max(f['warm']):,.0f}"] for label, f in figures.items()]
    print_table(f"Run -> first verdict on the editor's example (swap-any, 52 cards), this tree (the sandbox) against "
                f"{rev} (the lab's own worker), in turns (median of {repeats} pages)",
                ["site", "first Run ms", "later Runs ms", "later Runs range"], table)
    figures["rev"] = rev
    return figures


LAB_START_REV = "27f083e"  # the last commit before the lab's worker was prewarmed and showed its progress
LAB_START_TARGET_MS = 2500  # issue 19: Start ready within 2.5 s of the tap on a repeat visit, phone profile
LAB_START_DWELL_MS = 2000  # the later repeat visit: the user taps "Bias lab" this long after the cards show
PHONE_PROFILE = {"viewport": {"width": 375, "height": 800}, "is_mobile": True, "has_touch": True}  # tests/e2e/test_phone
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")

# Page side: the time of the tap on the lab's tab and of Start's enabling, on the page's clock (Playwright's own
# round trips left out), and the absolute time origin to set the worker's timeline against.
WATCH_LAB_START_JS = """() => {
  window.__labStart = {};
  document.getElementById('tab-lab').addEventListener('touchstart', () => {
    window.__labStart.tap = window.__labStart.tap || performance.timeOrigin + performance.now(); }, {capture: true});
  const start = document.getElementById('lab-start');
  new MutationObserver(() => { if (!start.disabled && !window.__labStart.ready)
    window.__labStart.ready = performance.timeOrigin + performance.now(); }).observe(start, {attributes: true});
}"""
WORKER_TIMELINE_JS = ("JSON.stringify({origin: performance.timeOrigin, entries: performance.getEntries().map(e => "
                      "[e.entryType, e.name.split('/').pop(), e.startTime, e.responseEnd || e.startTime])})")


def worker_breakdown(timeline: dict, tap: float, ready: float) -> dict:
    """Split a lab start into phases (ms) from the worker's own timeline, each from the tap's clock: the page's part
    before the worker fetched anything, Pyodide's files, Pyodide's own start, our files (lab.zip), our imports, the answer.
    A prewarmed worker began before the tap: its phases then start below zero."""
    shift = timeline["origin"] - tap
    resources = [(name, start + shift, end + shift) for kind, name, start, end in timeline["entries"] if kind == "resource"]
    marks = {name: start + shift for kind, name, start, end in timeline["entries"] if kind == "mark"}
    runtime = [r for r in resources if r[0] in RUNTIME_FILES]
    ours = [r for r in resources if r[0].endswith(".py") or r[0] == "lab.zip"]  # lab.zip: the package, since 63 files
    first_fetch = min(start for _, start, _ in resources)
    runtime_end = max(end for _, _, end in runtime)
    ours_start, ours_end = min(start for _, start, _ in ours), max(end for _, _, end in ours)
    imports = marks.get("shufflelab:worker-imports"), marks.get("shufflelab:worker-imported")
    phases = {
        "tap -> the worker's first fetch (page: checks, PyScript's worker)": first_fetch,
        "Pyodide's files (config, pyodide.mjs, wasm, stdlib zip)": runtime_end - first_fetch,
        "Pyodide's start (wasm compile, Python and its stdlib, PyScript)": ours_start - runtime_end,
        "our files fetched (lab.zip or 63 .py files, worker.py)": ours_end - ours_start,
    }
    if None not in imports:
        phases["worker.py's imports (shufflelab.lab.service)"] = imports[1] - imports[0]
        phases["first answer -> Start enabled"] = ready - tap - imports[1]
    else:  # the baseline has no marks: imports and the first answer together
        phases["imports + first answer -> Start enabled"] = ready - tap - ours_end
    phases["started before the tap by"] = max(0.0, -first_fetch)
    return phases


LAB_START_FIGURES = ROOT / "docs" / "lab_start.json"  # the docs' table: the last full run of the section
LAB_START_ROWS = (("first", "first visit (progress shown now)"), ("repeat_at_once", "repeat visit, tap as the cards show"),
                  ("repeat", "repeat visit, tap 2 s after the cards (target: 2.5 s)"))


def lab_start_readme_rows(pinned: dict) -> str:
    """Return the performance page's table rows for the lab's start, from pinned figures (docs/lab_start.json)."""
    def cell(each: list, digits: int) -> str:
        return f"{statistics.median(each) / 1000:.{digits}f} s ({min(each) / 1000:.1f}–{max(each) / 1000:.1f})"

    rows = []
    for visit, name in LAB_START_ROWS:
        now = pinned["each"]["now"][visit]
        digits = 2 if visit == "repeat" else 1  # against the target, "2.5 s: misses" would say too little
        row = f"| {name} | {cell(pinned['each'][pinned['rev']][visit], digits)} | {cell(now, digits)}"
        if visit == "repeat":
            row += ": meets" if statistics.median(now) <= LAB_START_TARGET_MS else ": misses"
        rows.append(row + " |")
    return "\n".join(rows)


def lab_start_visit(context, url: str, dwell_ms: int) -> dict:
    """Open ``url`` in ``context`` throttled as a phone, tap "Bias lab" ``dwell_ms`` after the cards show; return the
    tap -> Start enabled time (ms, page's clock) and the worker's breakdown."""
    from bench_pages import LOAD_TIMEOUT_MS, WorkerThrottle, record_errors, wait_until_ready

    page = context.new_page()
    try:
        errors = record_errors(page)
        throttle = WorkerThrottle(context, page)
        page.goto(url, timeout=LOAD_TIMEOUT_MS)
        wait_until_ready(page)
        page.evaluate(WATCH_LAB_START_JS)
        page.wait_for_timeout(dwell_ms)  # the user looks at the cards
        page.tap("#tab-lab")
        page.wait_for_function("() => window.__labStart.ready !== undefined", timeout=LOAD_TIMEOUT_MS)
        times = page.evaluate("window.__labStart")
        ms = times["ready"] - times["tap"]
        timelines = [json.loads(t) for t in throttle.evaluate_in_workers(page, WORKER_TIMELINE_JS)]
        timelines = [t for t in timelines if any(e[1] == "pyodide.asm.wasm" for e in t["entries"])]
        breakdown = worker_breakdown(timelines[0], times["tap"], times["ready"]) if timelines else {}
        # the runtime kept for the next visit (sw.js), as a user's lab would have by then
        page.wait_for_selector("html[data-offline-lab='ready']", state="attached", timeout=LOAD_TIMEOUT_MS)
        return {"ms": ms, "breakdown": breakdown, "errors": errors}
    finally:
        page.close()


def lab_start_profile(browser, url: str) -> dict:
    """One phone's visits in a fresh profile (its own disk cache, as a phone keeps): the first visit, a repeat visit
    tapping as soon as the cards show, and one tapping LAB_START_DWELL_MS later."""
    from bench_pages import CHROMIUM_FLAGS

    flags = CHROMIUM_FLAGS + (["--no-sandbox"] if os.geteuid() == 0 else [])
    with tempfile.TemporaryDirectory() as profile:
        context = browser.browser_type.launch_persistent_context(
            profile, executable_path=os.environ.get("SHUFFLELAB_CHROMIUM") or "/usr/bin/chromium", args=flags,
            **PHONE_PROFILE)
        try:
            link = url + SHARED_LINK
            return {"first": lab_start_visit(context, link, LAB_START_DWELL_MS),
                    "repeat_at_once": lab_start_visit(context, link, 0),
                    "repeat": lab_start_visit(context, link, LAB_START_DWELL_MS)}
        finally:
            context.close()


def lab_start_section(browser, site, repeats: int, rev: str = LAB_START_REV) -> dict:
    """Tap "Bias lab" -> Start ready on the phone profile (9 Mbit/s, 40 ms, CPU 4x; the service worker's network
    too), a first visit and repeat visits, this tree against ``rev``, each phone a fresh profile, in turns."""
    visits = ("first", "repeat_at_once", "repeat")
    with baseline_site(rev) as old_site:
        runs = {"now": [], rev: []}
        for turn in range(repeats):
            pairs = [("now", site.url), (rev, old_site.url)]
            for label, url in (pairs if turn % 2 == 0 else pairs[::-1]):
                runs[label].append(lab_start_profile(browser, url))
    figures = {"rev": rev, "runs": runs}
    for label, profiles in runs.items():
        figures[label] = {visit: statistics.median(p[visit]["ms"] for p in profiles) for visit in visits}
    names = {"first": f"first visit (tap {LAB_START_DWELL_MS / 1000:g} s after the cards)",
             "repeat_at_once": "repeat visit, tap as the cards show", "repeat": f"repeat visit, tap "
             f"{LAB_START_DWELL_MS / 1000:g} s after the cards"}
    table = [[names[visit], f"{figures[rev][visit]:,.0f}", f"{figures['now'][visit]:,.0f}",
              ", ".join(f"{p[visit]['ms']:,.0f}" for p in runs[rev]),
              ", ".join(f"{p[visit]['ms']:,.0f}" for p in runs["now"])] for visit in visits]
    print_table(f"Lab start on the phone profile: tap 'Bias lab' -> Start enabled, ms (median of {repeats} fresh "
                f"profiles, {rev} and this tree in turns)", ["visit", f"{rev} ms", "now ms", f"{rev} each",
                                                            "now each"], table)
    for visit in ("repeat_at_once", "repeat"):
        for label in (rev, "now"):
            phases = [p[visit]["breakdown"] for p in runs[label] if p[visit]["breakdown"]]
            if phases:
                print(f"  where the start goes, {names[visit]}, {label} (medians, ms from the tap):")
                print("    " + "; ".join(f"{name}: {statistics.median(p.get(name, 0.0) for p in phases):,.0f}"
                                       for name in phases[0]))
    if repeats >= 5:  # a full run: the docs' table (a quick one is only a look)
        pinned = {"rev": rev, "each": {label: {visit: [p[visit]["ms"] for p in profiles] for visit in visits}
                                       for label, profiles in runs.items()}}
        LAB_START_FIGURES.write_text(json.dumps(pinned, indent=2) + "\n", encoding="utf-8")
        print(f"  figures written to {LAB_START_FIGURES.relative_to(ROOT)}; the docs' rows:\n"
              f"{lab_start_readme_rows(pinned)}")
    meets = figures["now"]["repeat"] <= LAB_START_TARGET_MS
    print(f"  repeat visit, tap {LAB_START_DWELL_MS / 1000:g} s after the cards: {figures['now']['repeat'] / 1000:.2f} s "
          f"{verdict(meets)} the target of <= {LAB_START_TARGET_MS / 1000:g} s ({rev}: {figures[rev]['repeat'] / 1000:.2f} s)")
    for label, profiles in runs.items():
        print_errors(f"lab start {label}", [e for p in profiles for visit in visits for e in p[visit]["errors"]])
    return figures


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


def browser_sections(repeats: int, quick: bool, baseline: str | None = BASELINE_REV,
                     only: tuple[str, ...] = ()) -> dict:
    """Run every browser section in one Chromium, the site on a free local port; return their figures.

    A section that fails is reported and left out; the others still run.
    """
    import traceback

    from playwright.sync_api import sync_playwright

    from bench_pages import BenchSite, launch

    throttled_repeats = 1 if quick else min(3, repeats)
    sections = {  # name: (function, its arguments after the browser and the site)
        "first_deal_cold": (first_deal_section, (repeats,)),
        "first_deal_throttled": (functools.partial(first_deal_section, throttled=True), (throttled_repeats,)),
        "cut_insert": (cut_insert_section, (repeats, 2 if quick else 3)),
        "pyodide_lab": (pyodide_lab_section, (repeats, quick)),
        "run_to_verdict": (run_to_verdict_section, (2 if quick else repeats,)),
        "run_to_verdict_fresh": (run_to_verdict_fresh_section, (2 if quick else repeats,)),
        # five fresh profiles a side: a repeat visit's start spreads over 2-4 s here, and three medians moved with it
        "lab_start": (lab_start_section, (1 if quick else repeats,)),
    }
    if baseline:
        sections["pyodide_tally_vs_baseline"] = (baseline_section, (repeats, quick, baseline))
    sections["fisher_yates_vs_before"] = (fisher_yates_section, (repeats, quick))
    sections["physical_matrix"] = (physical_matrix_section, (repeats,))
    if only:
        sections = {name: sections[name] for name in only}
    figures: dict = {}
    with BenchSite() as site, sync_playwright() as playwright:
        browser = launch(playwright)
        print(f"\nChromium {browser.version}, the site at {site.url}")
        try:
            for name, (section, arguments) in sections.items():
                started = time.perf_counter()
                try:
                    figures[name] = section(browser, site, *arguments)
                except Exception as error:  # a benchmark reports what it could not measure and goes on
                    print(f"\n{name}: FAILED: {error}")
                    traceback.print_exc(limit=3)
                    figures[name] = {"error": str(error)}
                figures[name]["section_seconds"] = time.perf_counter() - started
        finally:
            browser.close()
    return figures


# --- targets --------------------------------------------------------------------------------


def target_rows(figures: dict) -> list[tuple[str, str, bool]]:
    """Return (target, figure, meets) for every target whose figure this run measured."""
    rows = []
    seconds = figures["shuffle"]["seconds_1e6_cards"]["fisher_yates + FastRng"]
    rows.append((f"one shuffle of {BIG_DECK:,} cards, fisher_yates + FastRng, CPython: < {ONE_MILLION_TARGET_SECONDS:g} s",
                 f"{seconds:.2f} s", seconds < ONE_MILLION_TARGET_SECONDS))
    instructions = figures.get("instructions") or {}
    if instructions:
        ratio = instructions["fisher_yates + FastRng"] / instructions["random.Random().shuffle"]
        rows.append((f"instructions per {DECK}-card shuffle, fisher_yates + FastRng: <= random.shuffle's",
                     f"{ratio:.2f}x", ratio <= 1))
    cpython = next(r["cpython_per_second"] for r in figures["tally"] if r["algo"] == "fisher-yates" and r["n"] == DECK)
    rows.append((f"tally fisher-yates n={DECK}, CPython: >= {TALLY_TARGET_PER_SECOND:,}/s",
                 f"{cpython:,.0f}/s", cpython >= TALLY_TARGET_PER_SECOND))
    cli = figures.get("cli")
    if cli:
        rows.append((f"audit of {AUDIT_ORDERS:,} orders of {DECK} cards: < {AUDIT_TARGET_SECONDS:g} s",
                     f"{cli['audit_seconds']:.2f} s", cli["audit_seconds"] < AUDIT_TARGET_SECONDS))
        rows.append(("tally --workers 2: the same counts as --workers 1", str(cli["workers_same_counts"]),
                     cli["workers_same_counts"]))
    browser = figures.get("browser", {})
    cold = browser.get("first_deal_cold", {})
    if "ratio" in cold:
        rows.append((f"first deal, cold: deal page / bare Pyodide page <= {FIRST_DEAL_RATIO_TARGET:g}",
                     f"{cold['ratio']:.2f} ({cold['deal']['ms']:,.0f} / {cold['bare']['ms']:,.0f} ms)",
                     cold["ratio"] <= FIRST_DEAL_RATIO_TARGET))
        rows.append((f"first deal, bytes before the cards: <= {FIRST_DEAL_BYTES_TARGET / MB:g} MB "
                     f"(aim {FIRST_DEAL_BYTES_AIM / MB:g} MB)",
                     f"{cold['deal']['bytes'] / MB:.2f} MB served ({cold['deal']['gzip_bytes'] / MB:.2f} MB gzip)",
                     cold["deal"]["bytes"] <= FIRST_DEAL_BYTES_TARGET))
    throttled = browser.get("first_deal_throttled", {})
    if "deal" in throttled:
        ms = throttled["deal"]["ms"]
        rows.append((f"first deal, throttled (9 Mbit/s, 40 ms, CPU 4x): <= {THROTTLED_DEAL_TARGET_MS / 1000:g} s",
                     f"{ms / 1000:.2f} s", ms <= THROTTLED_DEAL_TARGET_MS))
    cut_insert = browser.get("cut_insert", {})
    if "first_ms" in cut_insert:
        for key, label in (("first_ms", "opened from a link"), ("warm_ms", "New seed")):
            rows.append((f"cut-insert deal on the page, {label}: <= {CUT_INSERT_TARGET_MS / 1000:g} s",
                         f"{cut_insert[key] / 1000:.2f} s", cut_insert[key] <= CUT_INSERT_TARGET_MS))
    lab = browser.get("pyodide_lab", {})
    if "rows" in lab:
        pyodide = next(r["per_second"] for r in lab["rows"] if r["where"] == "pyodide" and r["algo"] == "fisher-yates")
        rows.append((f"tally fisher-yates n={DECK}, Pyodide: >= {PYODIDE_TALLY_TARGET_PER_SECOND:,}/s",
                     f"{pyodide:,.0f}/s", pyodide >= PYODIDE_TALLY_TARGET_PER_SECOND))
        against = browser.get("pyodide_tally_vs_baseline", {})
        if "now" in against:
            now = dict(((a, n), r) for a, n, r in against["now"])[("fisher-yates", DECK)]
            before = dict(((a, n), r) for a, n, r in against["before"])[("fisher-yates", DECK)]
            rows.append((f"tally fisher-yates n={DECK}, Pyodide: no slower than at {against['rev']}, side by side "
                         f"(within {1 - SAME_SPEED_RATIO:.0%} noise)",
                         f"{now / before:.2f}x ({now:,.0f} vs {before:,.0f}/s)", now / before >= SAME_SPEED_RATIO))
        rows.append((f"exact {DECK}x{DECK} swap-any matrix, Pyodide: < {EXACT_TARGET_SECONDS:g} s",
                     f"{lab['exact_first_seconds']:.3f} s", lab["exact_first_seconds"] < EXACT_TARGET_SECONDS))
    fisher_yates = browser.get("fisher_yates_vs_before", {})
    if "now" in fisher_yates:
        now, before = fisher_yates["now"][0][2], fisher_yates["before"][0][2]
        rows.append((f"tally fisher-yates n={DECK}, Pyodide: >= {FISHER_YATES_TARGET_PER_SECOND:,}/s "
                     f"({fisher_yates['rev']} beside it, in turns)",
                     f"{now:,.0f}/s ({before:,.0f}/s before, {now / before:.2f}x)",
                     now >= FISHER_YATES_TARGET_PER_SECOND))
    physical = browser.get("physical_matrix", {})
    if "seconds" in physical:
        rows.append((f"riffle-physical's exact {DECK}x{DECK} matrix, Pyodide: <= {PHYSICAL_TARGET_SECONDS:g} s",
                     f"{physical['seconds']:.1f} s", physical["seconds"] <= PHYSICAL_TARGET_SECONDS))
    run = browser.get("run_to_verdict", {})
    if "now" in run:
        now, before = (statistics.median(run[label]["warm"]) for label in ("now", run["rev"]))
        rows.append((f"Run -> first verdict with the sandbox up: <= {RUN_TO_VERDICT_RATIO:g}x {run['rev']}'s (same worker)",
                     f"{now / before:.2f}x ({now:,.0f} vs {before:,.0f} ms)", now / before <= RUN_TO_VERDICT_RATIO))
    start = browser.get("lab_start", {})
    if "now" in start:
        now, before = start["now"]["repeat"], start[start["rev"]]["repeat"]
        rows.append((f"lab start, phone profile, repeat visit (tap {LAB_START_DWELL_MS / 1000:g} s after the cards): "
                     f"<= {LAB_START_TARGET_MS / 1000:g} s", f"{now / 1000:.2f} s ({start['rev']}: {before / 1000:.2f} s)",
                     now <= LAB_START_TARGET_MS))
    return rows


def print_targets(rows: list[tuple[str, str, bool]]) -> None:
    print_table("Targets", ["target", "figure", "verdict"], [[t, f, verdict(m)] for t, f, m in rows])


# --- main -----------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Shuffle Lab benchmark (figures, not a test).")
    parser.add_argument("--repeats", type=int, default=5, help="measurements per figure (median); --quick: at most 3")
    parser.add_argument("--quick", action="store_true", help="fewer and smaller cases")
    parser.add_argument("--cpython-only", action="store_true", help="skip the browser sections")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--physical", action="store_true",
                        help=f"only riffle-physical's exact 52-card matrix in Pyodide beside {PHYSICAL_BEFORE_REV}, against "
                             f"its 5 s target; with 5 repeats or more its figures are written to "
                             f"{PHYSICAL_FIGURES.relative_to(ROOT)} (the docs')")
    parser.add_argument("--speed", action="store_true",
                        help=f"only Fisher-Yates in Pyodide beside {FISHER_YATES_BEFORE_REV}; its figures are written to "
                             f"{SPEED_FIGURES.relative_to(ROOT)} (the docs')")
    parser.add_argument("--only", help="run only this browser section (first_deal_cold, ..., lab_start)")
    parser.add_argument("--baseline", default=BASELINE_REV,
                        help=f"git revision whose tally runs beside this tree's in Pyodide (default {BASELINE_REV}; "
                             "'none' to skip)")
    return parser.parse_args(argv)


def false_alarm_section(quick: bool) -> dict:
    """False alarms under correct shuffles: the docs' pinned run beside a fresh one (scripts/false_alarms.py)."""
    import false_alarms  # scripts/ is this script's own folder

    pinned = json.loads(false_alarms.FIGURES.read_text(encoding="utf-8"))
    print("\nThe docs' figures (docs/false_alarms.json, pinned by tests/unit/test_false_alarms.py):")
    false_alarms.print_figures(pinned)
    fresh = false_alarms.measure(100 if quick else 1000)
    print("\nMeasured again now, fewer watches (the same seeds, so the first watches repeat the pinned run's):")
    false_alarms.print_figures(fresh)
    return {"pinned": pinned, "fresh": fresh}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    repeats = max(1, args.repeats if not args.quick else min(args.repeats, 3))
    started = time.perf_counter()
    print(f"Shuffle Lab benchmark - CPython {platform.python_version()} on {platform.machine()}, "
          f"medians of {repeats} interleaved repeats")
    figures: dict = {"python": platform.python_version(), "repeats": repeats, "quick": args.quick}
    if args.physical:
        pinned = browser_sections(repeats, args.quick, None, only=("physical_matrix",))["physical_matrix"]
        if "each" not in pinned:
            return 1
        if repeats >= 5:  # a full run: the docs' figures (a quick one is only a look)
            pinned = {key: pinned[key] for key in ("rev", "each", "reports")}
            PHYSICAL_FIGURES.write_text(json.dumps(pinned, indent=2) + "\n", encoding="utf-8")
            print(f"  figures written to {PHYSICAL_FIGURES.relative_to(ROOT)}; the docs' words: "
                  f"{physical_readme_text(pinned)}")
        return 0
    if args.speed:
        measured = browser_sections(repeats, args.quick, None, only=("fisher_yates_vs_before",))
        pinned = measured["fisher_yates_vs_before"]
        if "now" not in pinned:
            return 1
        pinned = {key: pinned[key] for key in ("rev", "now", "before", "each")}
        SPEED_FIGURES.write_text(json.dumps(pinned, indent=2) + "\n", encoding="utf-8")
        print(f"\nfigures written to {SPEED_FIGURES.relative_to(ROOT)}; the docs' row:\n{speed_readme_row(pinned)}")
        return 0
    if args.only:  # one browser section alone: its own figures, no CPython sections and no target table
        figures["browser"] = browser_sections(repeats, args.quick, None, only=(args.only,))
        print(f"\n{time.perf_counter() - started:.0f} s in all")
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        return 0
    figures["shuffle"] = shuffle_section(repeats, args.quick)
    figures["instructions"] = instructions_section()
    figures["tally"] = tally_section(repeats, args.quick)
    figures["counting"] = counting_section(repeats, args.quick)
    figures["false_alarms"] = false_alarm_section(args.quick)
    figures["cli"] = cli_section(repeats, args.quick)
    if not args.cpython_only:
        figures["browser"] = browser_sections(repeats, args.quick, None if args.baseline == "none" else args.baseline)
        lab = figures["browser"].get("pyodide_lab", {})
        if "rows" in lab:
            print_tally_table(figures["tally"], repeats, lab["rows"])
    print_targets(target_rows(figures))
    figures["seconds"] = time.perf_counter() - started
    print(f"\n{figures['seconds']:.0f} s in all")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        print(f"figures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
