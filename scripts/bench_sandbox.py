#!/usr/bin/env python3
"""What one Run, one sandbox costs: Run -> first verdict of your own shuffle, this tree beside an older one, in turns.

Each page opens the lab on 52 cards and opens "Your own shuffle"; then, as a user does:

  cold          Run at once (the sandbox's start, its progress shown, is in the figure)
  same code     Run again, the code unchanged (both trees: the sandbox it ran in)
  edited, warm  the code edited, Run a few seconds later (this tree: a fresh sandbox, the spare that started at
                the edit; the older tree: the same sandbox as before)
  edited, at once  the code edited and Run straight away (this tree: the spare is still starting)

Every figure is the median over the pages (``--repeats`` a tree); the trees take turns, so a busy moment hits
both. It prints figures and decides nothing. ``scripts/bench.py --only run_to_verdict_fresh`` runs it too.

    .venv/bin/python scripts/bench_sandbox.py [--repeats N] [--rev REV]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

FRESH_REV = "e53b432"  # the last commit whose Runs all shared one sandbox (main when one Run, one sandbox began)
EDIT_PAUSE_SECONDS = 5  # a user editing code between Runs: the spare's start, about 2 s here, fits in it
VERDICT = ("() => document.getElementById('verdict').dataset.verdict === 'biased' "
           "&& Number(document.getElementById('trials').textContent) > 0")
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
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url + "?view=lab&n=52")
        page.wait_for_selector("#custom-run:enabled", state="attached", timeout=180_000)
        page.click("#mine summary")
        yield page
    finally:
        context.close()


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


def fresh_sandbox_section(browser, site, repeats: int, rev: str = FRESH_REV) -> dict:
    """Run -> first verdict, this tree against ``rev``, each page opened afresh in turns; print the table."""
    from bench import baseline_site, print_table

    with baseline_site(rev) as old_site:
        figures = {"now": [], rev: []}
        for turn in range(repeats):
            pairs = [("now", site.url), (rev, old_site.url)]
            for label, url in (pairs if turn % 2 == 0 else pairs[::-1]):
                figures[label].append(one_page(browser, url))
    kinds = list(figures["now"][0])
    medians = {label: {kind: statistics.median(page[kind] for page in pages) for kind in kinds}
               for label, pages in figures.items()}
    rows = [[kind, f"{medians['now'][kind]:,.0f}", f"{medians[rev][kind]:,.0f}",
             f"{medians['now'][kind] / medians[rev][kind]:.2f}x"] for kind in kinds]
    print_table(f"Run -> first verdict, the editor's example on 52 cards: this tree (one Run, one sandbox) against "
                f"{rev} (one sandbox for every Run), in turns (medians of {repeats} pages a tree)",
                ["Run", "now ms", f"{rev} ms", "ratio"], rows)
    return {"rev": rev, "pages": figures, "medians": medians}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rev", default=FRESH_REV)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from bench_pages import BenchSite, launch

    with BenchSite() as site, sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            fresh_sandbox_section(browser, site, args.repeats, args.rev)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
