"""Helpers shared by the end-to-end tests: a page opened with its dialogs recorded, what went
wrong on it since the last look, the CLI every shown deal is compared with, and what the page
shows."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from shufflelab import catalog


@dataclass
class Opened:
    """A visit plus the dialogs its page opened, and how much of it earlier tests checked."""

    visit: object
    dialogs: list[str] = field(default_factory=list)
    checked: dict = field(default_factory=dict)

    @property
    def page(self):
        return self.visit.page


def open_in(context, url: str, visit, label: str) -> Opened:
    """Open `url` in a new page of `context`, recording dialogs from the start, until ready."""
    page = context.new_page()
    dialogs: list[str] = []

    def on_dialog(dialog) -> None:
        dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    opened = Opened(visit(page, url, label=label), dialogs)
    return opened


def problems(opened: Opened) -> list[str]:
    """What went wrong on a page since the last check: offsite/failed requests, errors, dialogs."""
    visit = opened.visit
    found = []
    for name, items in (
        ("request off the page's origin", visit.offsite_requests()),
        ("failed request", visit.failed_requests),
        ("console error", visit.console_errors),
        ("dialog", opened.dialogs),
    ):
        start = opened.checked.get(name, 0)
        found += [f"{name}: {item}" for item in items[start:]]
        opened.checked[name] = len(items)
    return found


# --- the CLI: the reference every shown deal is compared with ---------------------------------

ROOT = Path(__file__).resolve().parents[2]
STEP_TIMEOUT_MS = 15_000  # one render after a click or a navigation; generous, never a fixed sleep


MARGINS_FILE = ROOT / "test-results" / "timing_margins.jsonl"


def margin(what: str, measured: float, bound: float, unit: str) -> None:
    """Keep a timing test's measured figure beside its bound (test-results/timing_margins.jsonl, one JSON line each;
    the run's summary lists them): every bound's margin is seen in every run, quiet or loaded, not only on failure."""
    MARGINS_FILE.parent.mkdir(exist_ok=True)
    with MARGINS_FILE.open("a", encoding="utf-8") as out:
        out.write(json.dumps({"what": what, "measured": round(measured, 3), "bound": bound, "unit": unit}) + "\n")


LAB_IDLE = '#lab-panel[data-loops="0"]'  # lab_view.count_loops: no loop of the lab's is asking a worker for more


def settled(page) -> None:
    """Return once the page's main thread has handled what is queued and painted twice: whatever an input, a submit
    or a click does at once has happened by then, on any machine. An order of events, not a time."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done))))")


def wait_until_lab_idle(page) -> None:
    """Wait until every loop of the lab's has ended: nothing more will be counted or drawn until something starts one."""
    page.wait_for_selector(LAB_IDLE, state="attached", timeout=STEP_TIMEOUT_MS)


def cli_env() -> dict:
    """The environment the CLI runs in: this checkout's py/ first on the path."""
    extra = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": str(ROOT / "py") + (os.pathsep + extra if extra else "")}


def run_cli(*args: str) -> str:
    """Run `python -m shufflelab ARGS` on this checkout; return its stdout (fail on an error)."""
    done = subprocess.run(
        [sys.executable, "-m", "shufflelab", *args],
        capture_output=True, text=True, encoding="utf-8", env=cli_env(), cwd=ROOT, timeout=60,
    )
    assert done.returncode == 0, f"CLI {args} failed: {done.stderr}"
    return done.stdout


@cache
def _cli(args: tuple[str, ...]) -> dict:
    return json.loads(run_cli("deal", *args, "--json"))


def cli_deal(**options) -> dict:
    """`shufflelab deal --json` with options named as the CLI's flags (cards_each -> --cards-each)."""
    args = []
    for name, value in options.items():
        if value is not None:
            args.append(f"--{name.replace('_', '-')}={value}")  # one word: a value may begin with '-'
    return _cli(tuple(args))


# URL parameter -> CLI option; `v` must be the CLI's only stream (1), the lab's keys don't apply.
# Every algorithm parameter is a link field and a CLI option of the same name (the catalog's).
URL_TO_CLI = {"algo": "algo", "seed": "seed", "deck": "deck", "packs": "packs", "jokers": "jokers", "size": "size",
              "players": "players", "cards": "cards_each", "style": "style", "pseed": "player_seed",
              **{param.name: param.name for entry in catalog.entries() for param in entry.params}}


def url_params(url: str) -> dict[str, str]:
    """The query of `url` as a dict (one value a key)."""
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query, keep_blank_values=True).items()}


def cli_for_url(url: str) -> dict:
    """What the CLI prints for the parameters in a share link."""
    params = url_params(url)
    assert params.get("v") == "1", f"stream version missing or unknown in {url}"
    return cli_deal(**{URL_TO_CLI[k]: v for k, v in params.items() if k in URL_TO_CLI})


# --- reading the page ----------------------------------------------------------------------------

SHOWN_JS = """() => {
    const ids = root => [...root.querySelectorAll('.card')].map(c => Number(c.dataset.card));
    return {
        order: ids(document.getElementById('deck')),
        players: [...document.querySelectorAll('#hands .hand')].map(h => h.dataset.player),
        hands: [...document.querySelectorAll('#hands .hand')].map(ids),
        stock: ids(document.getElementById('stock')),
        stockCount: document.getElementById('stock-count').textContent,
        summary: document.getElementById('deck-summary').textContent,
    };
}"""


DEALT_TIMEOUT_MS = 30_000  # the longest valid shuffle (100,000 cut-and-insert repetitions) is 1.5 to 2.6 s here


def wait_dealt(page) -> None:
    """Wait until no long shuffle is under way (the deal panel is not aria-busy)."""
    page.wait_for_selector('#deal-panel:not([aria-busy="true"])', state="attached", timeout=DEALT_TIMEOUT_MS)


# Back to a link: push it and one more entry, then go back. The page's popstate listener (added at
# start-up) runs before this one and reads the link afresh, as it does for the Back button.
FOLLOW_JS = """async query => {
  history.pushState(null, '', '?' + query);
  history.pushState(null, '', '?e2e-bounce');
  await new Promise(resolve => { addEventListener('popstate', () => resolve(), {once: true}); history.back(); });
}"""
LOAD_EVERY = 6  # of a long list of links, every 6th is loaded afresh; the others are reached by Back


def open_link(visit, url: str, index: int) -> None:
    """Bring an already loaded page to a link: a fresh load for every LOAD_EVERY-th, Back to it for the others.

    Back reads the link with the same code as a load, without starting Python again: 0.1 s instead
    of 1.3 s. A load also shows that the page writes the link back as it reads it; Back leaves the
    address as it is, so compare the page's share link (``#share-url``) instead.
    """
    if index % LOAD_EVERY == 0:
        visit.goto(url)
    else:
        visit.page.evaluate(FOLLOW_JS, urlsplit(url).query)
        wait_dealt(visit.page)


def shared_query(page) -> str:
    """The query of the page's share link: the link as the page writes it, however it was reached."""
    return urlsplit(page.input_value("#share-url")).query


def shown(page) -> dict:
    """The deck, hands and stock as the page shows them once dealt, by data-card id in display order."""
    wait_dealt(page)
    return page.evaluate(SHOWN_JS)


def assert_shows(page, expected: dict, where: str = "") -> None:
    """The page shows exactly the CLI's deck, hands (labelled 1..P) and stock."""
    got = shown(page)
    where = f" ({where})" if where else ""
    assert got["order"] == expected["order"], f"deck order differs from the CLI{where}"
    assert got["players"] == [str(k) for k in range(1, len(expected["hands"]) + 1)], where
    assert got["hands"] == expected["hands"], f"hands differ from the CLI{where}"
    assert got["stock"] == expected["stock"], f"stock differs from the CLI{where}"
    assert got["stockCount"] == f"({len(expected['stock'])} cards)", where


def notice_texts(page) -> list[str]:
    """The notices the page lists, one text each."""
    return page.eval_on_selector_all("#notices li", "items => items.map(i => i.textContent)")


def quiet_after_each_test(fixture_name: str):
    """Return an autouse fixture: after each test that used ``fixture_name``, that page stayed on
    its origin, failed no request, logged no error and opened no dialog."""
    import pytest

    @pytest.fixture(autouse=True)
    def quiet(request):
        yield
        if fixture_name in request.fixturenames:
            found = problems(request.getfixturevalue(fixture_name))
            assert found == [], "\n".join(found)

    return quiet


WORKER_TIMEOUT_MS = 60_000  # the lab's worker: a second interpreter (Pyodide) starting in a Web Worker


def run_tally(page, more_than: int, press=None) -> None:
    """Wait for the lab's worker, run the tally until it has counted over ``more_than`` shuffles, then pause.

    ``press`` clicks by default; pass ``page.tap`` to press as a touch screen does.
    """
    press = press or page.click
    page.wait_for_selector("#lab-start:enabled", timeout=WORKER_TIMEOUT_MS)
    press("#lab-start")
    page.wait_for_function("n => Number(document.getElementById('trials').textContent.replace(/,/g, '')) > n", arg=more_than,
                           timeout=WORKER_TIMEOUT_MS)
    press("#lab-pause")
