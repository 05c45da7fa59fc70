"""The page's own speed in Chromium: a shared link's first cards, cold and throttled, and cut-insert's deal.

The first deal is the real page (MicroPython) against a bare PyScript page on Pyodide, each load in a fresh browser
context (empty cache): time to the first cards, bytes fetched before them (and their gzip size).
"""

from __future__ import annotations

import statistics

from bench.browser import bare_pyodide_html, cold_load, record_errors, wait_until_ready
from bench.measure import MB, in_turns, print_errors, print_table, target_row, verdict

SHARED_LINK = "?v=1&algo=fisher-yates&seed=bench&deck=standard&players=4&cards=5&style=round-robin"
DEAL_MARK = "shufflelab:deal-ready"  # py/page/app.py: the first cards are on screen
DEAL_MEASURE = "shufflelab:deal"  # py/page/app.py: one deal, drawing included
BARE_MARK = "bare:first-line"
BARE_PAGE = "bench-bare-pyodide.html"  # a page the site doesn't have, served by the bench only
BARE_CODE = f'import js; js.performance.mark("{BARE_MARK}")'

FIRST_DEAL_RATIO_TARGET = 0.3  # deal page's time / bare Pyodide page's time
FIRST_DEAL_BYTES_TARGET = 1.5 * MB
FIRST_DEAL_BYTES_AIM = 1.0 * MB
THROTTLED_DEAL_TARGET_MS = 3000
CUT_INSERT_TARGET_MS = 300


def first_deal_section(browser, site, repeats: int, throttled: bool = False) -> dict:
    """Time a shared link's first cards (real page, MicroPython) against a bare Pyodide page, cold, in turns.

    Each load is in a fresh browser context (empty cache). ``throttled``: 9 Mbit/s, 40 ms latency and a CPU 4x
    slower (browser.throttle).
    """
    pages = {
        "deal": (site.url + SHARED_LINK, DEAL_MARK, True),
        "bare": (site.add_page(BARE_PAGE, bare_pyodide_html(BARE_CODE)), BARE_MARK, False),
    }
    loads = in_turns(pages, repeats, lambda _, page: cold_load(browser, site, page[0], page[1],
                                                               ready_attribute=page[2], throttled=throttled))
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
    print_first_deal(figures, repeats, site.url)
    for name, runs in loads.items():
        print_errors(name, [error for load in runs for error in load["errors"]])
    return figures


def print_first_deal(figures: dict, repeats: int, site_url: str) -> None:
    """Print the first deal's table and its verdicts (with the largest files, cold)."""
    deal, bare, throttled = figures["deal"], figures["bare"], figures["throttled"]
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
        return
    print(f"  deal / bare {figures['ratio']:.2f} {verdict(figures['ratio'] <= FIRST_DEAL_RATIO_TARGET)} "
          f"the target of <= {FIRST_DEAL_RATIO_TARGET:g}; {deal['bytes'] / MB:.2f} MB served "
          f"({deal['gzip_bytes'] / MB:.2f} MB gzip) {verdict(deal['bytes'] <= FIRST_DEAL_BYTES_TARGET)} "
          f"the target of <= {FIRST_DEAL_BYTES_TARGET / MB:g} MB (aim {FIRST_DEAL_BYTES_AIM / MB:g} MB)")
    largest = sorted(deal["file_list"], key=lambda f: -f["bytes"])[:6]
    print("  largest files before the first deal: " + ", ".join(
        f"{f['url'].removeprefix(site_url) or 'index.html'} {f['bytes'] / 1000:,.0f} kB "
        f"({f['gzip_bytes'] / 1000 if f['gzip_bytes'] is not None else 0:,.0f} kB gzip)" for f in largest))


def cut_insert_section(browser, site, opens: int, clicks: int) -> dict:
    """Read the page's own deal measure for cut-insert (15,000 repetitions): opened from a link, then New seed."""
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


def _loads(runs_ms: list[float]) -> str:
    """Return '0.62 s (loads 0.58–0.80 s)': the median load and the range of all, in seconds."""
    return f"{statistics.median(runs_ms) / 1000:.2f} s (loads {min(runs_ms) / 1000:.2f}–{max(runs_ms) / 1000:.2f} s)"


def target_rows(browser: dict) -> list[dict]:
    """Return the first deal's and cut-insert's rows of the targets table, for the sections this run measured."""
    rows = []
    cold = browser.get("first_deal_cold", {})
    if "ratio" in cold:
        deal, bare = cold["deal"], cold["bare"]
        rows += [
            target_row("first_deal_cold", "shared link, cold: cards on screen (MicroPython page)",
                       _loads(deal["runs_ms"])),
            target_row("bare_pyodide_cold", "bare PyScript page on Pyodide, cold: its first line runs",
                       _loads(bare["runs_ms"])),
            target_row("first_deal_ratio", "the two, deal / bare", f"{cold['ratio']:.2f}×",
                       f"at most {FIRST_DEAL_RATIO_TARGET:g}×", cold["ratio"] <= FIRST_DEAL_RATIO_TARGET),
            target_row("first_deal_bytes", "bytes before the cards",
                       f"{deal['bytes'] / MB:.2f} MB as served here, {deal['gzip_bytes'] / MB:.2f} MB gzipped "
                       f"(GitHub Pages gzips); bare Pyodide {bare['bytes'] / MB:.1f} MB",
                       f"at most {FIRST_DEAL_BYTES_TARGET / MB:g} MB (aim {FIRST_DEAL_BYTES_AIM / MB:g} MB)",
                       deal["bytes"] <= FIRST_DEAL_BYTES_TARGET),
        ]
    throttled = browser.get("first_deal_throttled", {})
    if "deal" in throttled:
        ms = throttled["deal"]["ms"]
        rows.append(target_row("first_deal_throttled", "throttled (9 Mbit/s, 40 ms, CPU 4× slower): cards on screen",
                               f"{_loads(throttled['deal']['runs_ms'])}; bare Pyodide "
                               f"{throttled['bare']['ms'] / 1000:.0f} s",
                               f"within {THROTTLED_DEAL_TARGET_MS / 1000:g} s", ms <= THROTTLED_DEAL_TARGET_MS))
    cut_insert = browser.get("cut_insert", {})
    if "first_ms" in cut_insert:
        first, warm = cut_insert["first_ms"], cut_insert["warm_ms"]
        rows.append(target_row("cut_insert", "`cut-insert`, 15,000 repetitions, on the page (MicroPython, drawing "
                               "included)", f"{first / 1000:.2f} s from a link, {warm / 1000:.2f} s on New seed",
                               f"at most {CUT_INSERT_TARGET_MS / 1000:g} s", max(first, warm) <= CUT_INSERT_TARGET_MS))
    return rows
