"""Run -> first verdict of your own shuffle: the sandbox beside the lab's own worker (the kept baseline), and what
one Run, one sandbox costs.

The kept baseline: with the sandbox up, Run -> first verdict on the editor's example is held to at most 1.5x what it
took when users' code ran in the lab's own worker (baseline.OWN_WORKER), a ratio only that tree can give.

One Run, one sandbox: each page opens the lab on 52 cards and opens "Your own shuffle"; then, as a user does:

  cold          Run at once (the sandbox's start, its progress shown, is in the figure)
  same code     Run again, the code unchanged (the sandbox it ran in)
  edited, warm  the code edited, Run a few seconds later (a fresh sandbox, the spare that started at the edit)
  edited, at once  the code edited and Run straight away (the spare is still starting)

Every figure is the median over the pages (``--repeats``); with ``--baseline REV`` that tree's pages take turns
with this one's.
"""

from __future__ import annotations

import contextlib
import statistics
import time

from bench.baseline import OWN_WORKER, Baseline, site_urls
from bench.browser import fresh_page
from bench.measure import in_turns, print_table, target_row, verdict

RUN_TO_VERDICT_RATIO = 1.5  # issue: once the sandbox is up, Run -> first verdict within 1.5x of the own worker's
EDIT_PAUSE_SECONDS = 5  # a user editing code between Runs: the spare's start, about 2 s here, fits in it
VERDICT = ("() => document.getElementById('verdict').dataset.verdict === 'biased' "
           "&& Number(document.getElementById('trials').textContent.replace(/,/g, '')) > 0")
# The code box as a user's edit leaves it: its text, and the input event CodeMirror sends on every change
EDIT_JS = """text => {
  const area = document.getElementById('custom-code');
  area.value = text;
  area.dispatchEvent(new Event('shufflelab:set'));
  area.dispatchEvent(new Event('input'));
}"""


def timed_run(page) -> float:
    """Press Run and return the ms until the lab shows the example's verdict (swap-any: biased), then pause."""
    page.evaluate("() => { document.getElementById('verdict').dataset.verdict = ''; }")
    started = time.perf_counter()
    page.click("#custom-run")
    page.wait_for_function(VERDICT, timeout=120_000)
    took = (time.perf_counter() - started) * 1000
    page.click("#lab-pause")
    page.wait_for_timeout(500)  # the chunk under way ends before the next Run (a benchmark's pause, not a test's)
    return took


@contextlib.contextmanager
def lab_with_the_box_open(browser, url: str):
    """Yield a page of the lab on 52 cards, in a fresh context, with "Your own shuffle" opened (its sandbox starting)."""
    with fresh_page(browser) as (page, _):
        page.goto(url + "?view=lab&n=52")
        page.wait_for_selector("#custom-run:enabled", state="attached", timeout=180_000)
        page.click("#mine summary")
        yield page


def one_page(browser, url: str) -> dict:
    """Open the lab, then time a cold Run, a Run of the same code, an edited Run after a pause and one at once."""
    with lab_with_the_box_open(browser, url) as page:
        example = page.input_value("#custom-code")
        figures = {"cold": timed_run(page), "same code": timed_run(page)}
        page.evaluate(EDIT_JS, example + "\n# edited once\n")
        time.sleep(EDIT_PAUSE_SECONDS)
        figures["edited, warm"] = timed_run(page)
        page.evaluate(EDIT_JS, example + "\n# edited twice\n")
        figures["edited, at once"] = timed_run(page)
    return figures


def fresh_sandbox_section(browser, site, repeats: int, baseline: Baseline | None = None) -> dict:
    """Time Run -> first verdict cold, same code and edited, each page opened afresh; print the table.

    With ``--baseline REV`` that tree's pages take turns with this one's.
    """
    with site_urls(site, baseline) as urls:
        pages = in_turns(urls, repeats, lambda _, url: one_page(browser, url))
    kinds = list(pages["now"][0])
    medians = {label: {kind: statistics.median(page[kind] for page in each) for kind in kinds}
               for label, each in pages.items()}
    header, rows = ["Run", "now ms"], [[kind, f"{medians['now'][kind]:,.0f}"] for kind in kinds]
    if baseline is not None:
        header += [f"{baseline.label} ms", "ratio"]
        for row, kind in zip(rows, kinds):
            row += [f"{medians[baseline.label][kind]:,.0f}", f"{medians['now'][kind] / medians[baseline.label][kind]:.2f}x"]
    print_table(f"Run -> first verdict, the editor's example on 52 cards, one Run, one sandbox (medians of {repeats} "
                "pages a tree" + (f", beside {baseline.name} in turns)" if baseline else ")"), header, rows)
    return {"pages": pages, "medians": medians}


def run_to_verdict_ms(browser, url: str, runs: int) -> list[float]:
    """Return each of ``runs`` Runs' ms to the first verdict on a fresh lab page (the first may wait for the box)."""
    with lab_with_the_box_open(browser, url) as page:
        return [timed_run(page) for _ in range(runs)]


def run_to_verdict_section(browser, site, repeats: int, baseline: Baseline = OWN_WORKER) -> dict:
    """Time Run -> first verdict beside the lab's own worker, pages in turns; print it against the 1.5x target.

    Each page is opened afresh: its first Run, then warm ones, which the target is about.
    """
    with site_urls(site, baseline) as urls:
        runs = in_turns(urls, repeats, lambda _, url: run_to_verdict_ms(browser, url, 3))
    figures = {label: {"first": [first for first, *_ in each], "warm": [ms for _, *warm in each for ms in warm]}
               for label, each in runs.items()}
    table = [[label, f"{statistics.median(f['first']):,.0f}", f"{statistics.median(f['warm']):,.0f}",
              f"{min(f['warm']):,.0f}-{max(f['warm']):,.0f}"] for label, f in figures.items()]
    print_table(f"Run -> first verdict on the editor's example (swap-any, 52 cards), this tree (the sandbox) beside "
                f"{baseline.name}, in turns (median of {repeats} pages)",
                ["site", "first Run ms", "later Runs ms", "later Runs range"], table)
    now, before = (statistics.median(figures[label]["warm"]) for label in ("now", baseline.label))
    print(f"  later Runs: {now / before:.2f}x {baseline.label}'s {verdict(now / before <= RUN_TO_VERDICT_RATIO)} "
          f"the target of <= {RUN_TO_VERDICT_RATIO:g}x")
    return {**figures, "beside": baseline.label}


def target_rows(browser: dict) -> list[dict]:
    """Return the sandbox's rows of the targets table: Run beside the lab's own worker, and a cold Run's wait."""
    rows = []
    run = browser.get("run_to_verdict", {})
    if "now" in run:
        now, before = run["now"]["warm"], run[run["beside"]]["warm"]
        ratio = statistics.median(now) / statistics.median(before)
        rows.append(target_row(
            "run_to_verdict", "Run → first verdict on the editor's example (52 cards), the sandbox up",
            f"{statistics.median(now):,.0f} ms ({min(now):,.0f}–{max(now):,.0f}), beside "
            f"{statistics.median(before):,.0f} ms ({min(before):,.0f}–{max(before):,.0f}) when Run used the lab's own "
            f"worker: {ratio:.2f}×", f"at most {RUN_TO_VERDICT_RATIO:g}×", ratio <= RUN_TO_VERDICT_RATIO))
    fresh = browser.get("run_to_verdict_fresh", {})
    if "medians" in fresh:
        rows.append(target_row("run_to_verdict_cold", "the same, pressing Run as soon as \"Your own shuffle\" is "
                               "opened (the sandbox's start, its progress shown)",
                               f"{fresh['medians']['now']['cold'] / 1000:.1f} s"))
    return rows
