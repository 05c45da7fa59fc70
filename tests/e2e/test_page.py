"""The page end to end, as a user drives it: shuffle, deal, share, bad input, copy, views.

Every deal the page shows is compared card for card with `python -m shufflelab deal --json`
for the same parameters. The page runs MicroPython (ready in about a second), yet most tests
share one page load (`shared`), each leaving it usable for the next; tests about a first load (a shared link,
hostile URLs) open their own browser context (`fresh`). After every test, each page involved
is checked: it made no request off its origin, had no failed request, logged no console
error and opened no dialog.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from e2e_pages import (
    STEP_TIMEOUT_MS,
    WORKER_TIMEOUT_MS,
    Opened,
    assert_shows,
    cli_deal,
    cli_for_url,
    notice_texts,
    open_in,
    problems,
    quiet_after_each_test,
    run_cli,
    shown,
    url_params,
)

SEED_PATTERN = re.compile(r"[A-Za-z0-9_-]{43}")  # 256 bits, URL-safe base64 without padding


# --- driving the page ----------------------------------------------------------------------------


def wait_for_query(page, query: str) -> None:
    """Wait until the address bar's query is `query` (the page writes it after rendering)."""
    try:
        page.wait_for_function("q => location.search === '?' + q", arg=query, timeout=STEP_TIMEOUT_MS)
    except Exception:  # playwright TimeoutError: show the difference instead
        pass
    assert url_params(page.url) == {k: v[0] for k, v in parse_qs(query, keep_blank_values=True).items()}
    assert urlsplit(page.url).query == query


def wait_for_url_change(page, before: str) -> None:
    page.wait_for_function("u => location.href !== u", arg=before, timeout=STEP_TIMEOUT_MS)


@dataclass
class Settings:
    """What a user sets in the form; None leaves a control as it is."""

    seed: str
    players: int
    cards_each: int
    style: str
    algo: str = "fisher-yates"
    passes: int | None = None
    repetitions: int | None = None
    deck: str = "standard"
    packs: int | None = None
    jokers: int | None = None
    size: int | None = None

    def cli(self) -> dict:
        return cli_deal(algo=self.algo, passes=self.passes, repetitions=self.repetitions,
                        seed=self.seed, deck=self.deck, packs=self.packs, jokers=self.jokers,
                        size=self.size, players=self.players, cards_each=self.cards_each,
                        style=self.style)


def fill_form(page, s: Settings) -> None:
    """Set the controls as a user would (menus, then fields), without submitting."""
    page.select_option("#algorithm", s.algo)
    if s.passes is not None:
        page.fill("#param-passes", str(s.passes))
    if s.repetitions is not None:
        page.fill("#param-repetitions", str(s.repetitions))
    page.select_option("#deck-kind", s.deck)
    if s.deck == "numbered":
        page.fill("#size", str(s.size or 52))
    else:
        page.fill("#packs", str(s.packs or 1))
        page.select_option("#jokers", str(s.jokers or 0))
    page.fill("#seed", s.seed)
    page.fill("#players", str(s.players))
    page.fill("#cards-each", str(s.cards_each))
    page.select_option("#deal-style", s.style)


def shuffle_and_deal(page, s: Settings) -> dict:
    """Fill the form, click "Shuffle & deal", wait for the result; return the CLI's answer."""
    fill_form(page, s)
    page.click("#shuffle")
    expected = s.cli()
    wait_for_query(page, expected["query"])
    assert page.is_hidden("#deal-error")
    return expected


# --- pages: one shared load, and fresh contexts for first loads ---------------------------------




def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


@pytest.fixture(scope="module")
def shared(browser, site_url, visit):
    """One page load shared by the tests that drive an already-ready page.

    Its context may use the clipboard, as a user who allowed it."""
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin_of(site_url))
    try:
        yield open_in(context, site_url, visit, "test_page: first load")
    finally:
        context.close()


@pytest.fixture
def fresh(browser, visit, request):
    """fresh(url) -> Opened: a first load in a new browser context (closed after the test).

    After the test, every page it opened stayed on its origin, quiet and dialog-free."""
    contexts = []
    opened_list: list[Opened] = []

    def _open(url: str) -> Opened:
        context = browser.new_context()
        contexts.append(context)
        opened = open_in(context, url, visit, request.node.name)
        opened_list.append(opened)
        return opened

    yield _open
    found = [problem for opened in opened_list for problem in problems(opened)]
    for context in contexts:
        context.close()
    assert found == [], "\n".join(found)


quiet_shared_page = quiet_after_each_test("shared")


# --- 1. shuffle and deal, card for card with the CLI --------------------------------------------

CONFIGS = {
    "fisher-yates round-robin": Settings(seed="lab-1", players=4, cards_each=5, style="round-robin"),
    "riffle-gsr 3 passes, blocks": Settings(seed="riffle me", players=3, cards_each=6, style="blocks",
                                            algo="riffle-gsr", passes=3),
    "2 packs + jokers": Settings(seed="two packs", players=6, cards_each=9, style="round-robin",
                                 packs=2, jokers=2),
    "euchre": Settings(seed="euchre!", players=4, cards_each=5, style="round-robin", deck="euchre"),
    "pick, no shuffle": Settings(seed="pick", players=3, cards_each=4, style="pick", algo="none"),
    "non-ASCII seed": Settings(seed="草 ♠ seed", players=2, cards_each=7, style="blocks",
                               algo="random-key"),
    "numbered deck, cut-insert": Settings(seed="n", players=5, cards_each=3, style="round-robin",
                                          algo="cut-insert", repetitions=200, deck="numbered", size=30),
}


@pytest.mark.parametrize("settings", list(CONFIGS.values()), ids=list(CONFIGS))
def test_shuffle_and_deal_match_the_cli(shared, settings):
    page = shared.page
    expected = shuffle_and_deal(page, settings)
    assert_shows(page, expected)
    assert page.input_value("#seed") == settings.seed
    assert settings.seed in shared.page.text_content("#deck-summary")


def test_the_deck_view_stays_whole_after_a_deal(shared):
    """The deck is shown in full (not just the stock), and hands + stock partition it."""
    page = shared.page
    expected = shuffle_and_deal(page, CONFIGS["2 packs + jokers"])
    got = shown(page)
    assert len(got["order"]) == 108
    assert sorted(sum(got["hands"], []) + got["stock"]) == sorted(got["order"]) == list(range(108))
    # jokers are drawn distinctly from the pips
    jokers = page.eval_on_selector_all("#deck .card.joker", "cards => cards.length")
    assert jokers == 4
    assert expected["order"] == got["order"]


def test_each_control_applies_on_change(shared):
    page = shared.page
    settings = CONFIGS["fisher-yates round-robin"]
    shuffle_and_deal(page, settings)
    before = page.url
    page.select_option("#deal-style", "blocks")  # no click on "Shuffle & deal"
    wait_for_url_change(page, before)
    blocks = Settings(**{**settings.__dict__, "style": "blocks"})
    expected = blocks.cli()
    assert urlsplit(page.url).query == expected["query"]
    assert_shows(page, expected)


def test_algorithm_menu_groups_and_describes_each_algorithm(shared):
    page = shared.page
    registry = json.loads(run_cli("algorithms", "--json"))
    groups = page.evaluate("""() => [...document.querySelectorAll('#algorithm optgroup')]
        .map(g => [g.label, [...g.querySelectorAll('option')].map(o => o.value)])""")
    assert groups == [
        ["Unbiased", [a["id"] for a in registry if a["verdict"] == "unbiased"]],
        ["Biased", [a["id"] for a in registry if a["verdict"] == "biased"]],
    ]
    for algo in ("fisher-yates-off-by-one", "riffle-physical", "fisher-yates"):
        entry = next(a for a in registry if a["id"] == algo)
        page.select_option("#algorithm", algo)
        page.wait_for_function("a => new URLSearchParams(location.search).get('algo') === a",
                               arg=algo, timeout=STEP_TIMEOUT_MS)
        assert entry["description"] in page.text_content("#algo-description")
        assert entry["source"] in page.text_content("#algo-source")
        assert page.is_visible("#param-passes-row") == any(p["name"] == "passes" for p in entry["params"])


# --- 2. a shared link reproduces the deal in a new browser ---------------------------------------


def test_shared_link_reproduces_the_deal_in_a_new_context(shared, fresh):
    page = shared.page
    settings = Settings(seed="share me ♣ &=?#", players=5, cards_each=7, style="blocks",
                        algo="riffle-gsr", passes=5, packs=2, jokers=1)
    expected = shuffle_and_deal(page, settings)
    link = page.url
    assert page.input_value("#share-url") == link
    original = shown(page)

    other = fresh(link).page
    assert_shows(other, expected)
    assert shown(other) == original
    assert other.url == link  # the link reads back to itself
    assert other.input_value("#share-url") == link
    assert other.input_value("#seed") == settings.seed
    assert other.input_value("#algorithm") == "riffle-gsr"
    assert other.input_value("#param-passes") == "5"
    assert other.is_hidden("#notices")


# --- 3. an impossible deal is refused in place ---------------------------------------------------


def test_impossible_deal_shows_one_sentence_and_changes_nothing(shared):
    page = shared.page
    euchre = CONFIGS["euchre"]
    shuffle_and_deal(page, euchre)
    before, url_before = shown(page), page.url

    page.fill("#players", "12")
    page.fill("#cards-each", "5")
    page.click("#shuffle")
    page.wait_for_selector("#deal-error", state="visible", timeout=STEP_TIMEOUT_MS)
    message = page.text_content("#deal-error").strip()
    assert re.fullmatch(r"[^.\n]*\b12\b[^.\n]*\b5\b[^.\n]*\b24\b[^.\n]*\.", message), message
    assert shown(page) == before
    assert page.url == url_before
    assert page.input_value("#share-url") == url_before

    # back to a possible deal: the message goes and the deal is made
    page.fill("#players", "4")
    page.click("#shuffle")
    page.wait_for_selector("#deal-error", state="hidden", timeout=STEP_TIMEOUT_MS)
    assert page.url == url_before
    assert shown(page) == before


# --- 4. hostile and broken URLs ------------------------------------------------------------------

IMG = "<img src=x onerror=alert(1)>"


def no_injected_markup(page) -> None:
    assert page.evaluate("document.querySelectorAll('img').length") == 0
    assert page.evaluate("document.querySelectorAll('[onerror]').length") == 0


def test_hostile_seed_in_the_url_is_plain_text(site_url, fresh):
    opened = fresh(f"{site_url}?seed={quote(IMG, safe='')}&players=2&cards=3")
    page = opened.page
    assert page.input_value("#seed") == IMG
    assert IMG in page.text_content("#deck-summary")
    no_injected_markup(page)
    assert url_params(page.url)["seed"] == IMG
    assert page.is_hidden("#notices")  # a strange seed is still a valid seed
    assert_shows(page, cli_deal(seed=IMG, players=2, cards_each=3))
    assert opened.dialogs == []


def test_hostile_seed_typed_in_the_field_is_plain_text(shared):
    page = shared.page
    expected = shuffle_and_deal(page, Settings(seed=IMG, players=4, cards_each=5, style="round-robin"))
    assert_shows(page, expected)
    assert IMG in page.text_content("#deck-summary")
    no_injected_markup(page)
    assert shared.dialogs == []


def test_bad_url_values_are_replaced_by_defaults_with_notices(site_url, fresh):
    opened = fresh(f"{site_url}?players=99999999999999999999&algo=nope&packs=-3&cards=abc&bogus=1")
    page = opened.page
    notices = notice_texts(page)
    assert page.is_visible("#notices")
    assert len(notices) == 5, notices
    # each notice names the field in words (as the form labels it) and quotes the value
    for name, value in (("players", "'99999999999999999999'"), ("algorithm", "'nope'"), ("packs", "'-3'"),
                        ("cards each", "'abc'"), ("unknown parameter", "'bogus'")):
        assert [n for n in notices if name in n.lower() and value in n], f"no notice names {name}: {notices}"
    # defaults are used, and the link is clean
    assert page.input_value("#players") == "4"
    assert page.input_value("#algorithm") == "fisher-yates"
    assert page.input_value("#packs") == "1"
    assert page.input_value("#cards-each") == "5"
    params = url_params(page.url)
    assert "bogus" not in params
    assert (params["players"], params["algo"], params["packs"], params["cards"]) == ("4", "fisher-yates", "1", "5")
    assert SEED_PATTERN.fullmatch(params["seed"])
    assert_shows(page, cli_for_url(page.url))
    # and usable: a seeded deal works
    expected = shuffle_and_deal(page, Settings(seed="after bad url", players=3, cards_each=2, style="blocks"))
    assert_shows(page, expected)


def test_over_long_seed_in_the_url_is_replaced_by_a_new_one(site_url, fresh):
    page = fresh(f"{site_url}?seed={'x' * 5000}").page
    notices = notice_texts(page)
    assert len(notices) == 1 and "seed" in notices[0], notices
    assert len(notices[0]) < 200, notices  # the notice does not echo the 5,000 characters
    seed = page.input_value("#seed")
    assert SEED_PATTERN.fullmatch(seed), seed
    assert url_params(page.url)["seed"] == seed
    assert_shows(page, cli_for_url(page.url))


def test_markup_as_algorithm_shows_literally_in_the_notice(shared, site_url, fresh):
    scripts_on_a_clean_page = shared.page.evaluate("document.scripts.length")
    page = fresh(f"{site_url}?algo=%3Cscript%3E").page
    assert "<script>" in page.text_content("#notices")
    assert page.evaluate("document.querySelectorAll('#notices li *').length") == 0
    assert page.evaluate("document.scripts.length") == scripts_on_a_clean_page
    assert page.input_value("#algorithm") == "fisher-yates"
    assert url_params(page.url)["algo"] == "fisher-yates"


# --- 5. new seed ---------------------------------------------------------------------------------


def test_new_seed_draws_256_bits_and_reshuffles(shared):
    page = shared.page
    shuffle_and_deal(page, CONFIGS["fisher-yates round-robin"])
    before, url_before = shown(page), page.url
    page.click("#new-seed")
    wait_for_url_change(page, url_before)
    seed = page.input_value("#seed")
    assert SEED_PATTERN.fullmatch(seed), seed
    assert url_params(page.url)["seed"] == seed
    assert page.input_value("#share-url") == page.url
    assert shown(page)["order"] != before["order"]
    # everything but the seed is as it was
    old, new = url_params(url_before), url_params(page.url)
    assert {k: v for k, v in old.items() if k != "seed"} == {k: v for k, v in new.items() if k != "seed"}
    assert_shows(page, cli_for_url(page.url))


# --- 6. copy link --------------------------------------------------------------------------------


def test_copy_link_puts_the_share_url_on_the_clipboard(shared):
    page = shared.page
    shuffle_and_deal(page, CONFIGS["euchre"])
    page.evaluate("navigator.clipboard.writeText('')")
    page.click("#copy-link")
    page.wait_for_function(
        "() => /cop/i.test(document.getElementById('copy-status').textContent)", timeout=STEP_TIMEOUT_MS
    )
    assert "copied" in page.text_content("#copy-status").lower()
    clipboard = page.evaluate("navigator.clipboard.readText()")
    assert clipboard == page.input_value("#share-url") == page.url


# --- 8. views ------------------------------------------------------------------------------------


def test_lab_tab_shows_the_lab_and_survives_a_reload(shared):
    page = shared.page
    expected = shuffle_and_deal(page, CONFIGS["riffle-gsr 3 passes, blocks"])
    url_before = page.url
    page.click("#tab-lab")
    page.wait_for_function("() => new URLSearchParams(location.search).get('view') === 'lab'",
                           timeout=STEP_TIMEOUT_MS)
    assert page.is_visible("#lab-panel") and page.is_hidden("#deal-panel")
    assert page.get_attribute("#tab-lab", "aria-selected") == "true"
    assert page.get_attribute("#tab-deal", "aria-selected") == "false"
    assert page.is_hidden("#shuffle")  # deal-only controls go with the deal view
    assert {k: v for k, v in url_params(page.url).items() if k != "view"} == {
        k: v for k, v in url_params(url_before).items() if k != "view"
    }

    # the lab starts its worker on the first visit; let it finish, as a reader would, so the
    # reload does not abort its requests half-way
    page.wait_for_selector("#lab-start:enabled", timeout=WORKER_TIMEOUT_MS)
    page.reload()
    page.wait_for_selector('html[data-ready="true"]', state="attached", timeout=60_000)
    assert page.is_visible("#lab-panel") and page.is_hidden("#deal-panel")
    assert page.get_attribute("#tab-lab", "aria-selected") == "true"
    page.wait_for_selector("#lab-start:enabled", timeout=WORKER_TIMEOUT_MS)

    page.click("#tab-deal")
    # the deal view is the default, so a deal link carries no view parameter at all
    page.wait_for_function("() => !new URLSearchParams(location.search).has('view')",
                           timeout=STEP_TIMEOUT_MS)
    assert page.is_visible("#deal-panel") and page.is_hidden("#lab-panel")
    assert page.is_visible("#shuffle")
    assert page.url == url_before
    assert_shows(page, expected)  # the reload drew the same deal from the link


# --- 7. the whole visit stayed on its origin -----------------------------------------------------


def test_all_requests_stayed_on_the_origin_and_nothing_was_logged(shared):
    """The shared page, after every flow above: its requests are all its own, and quiet.
    (Every page is also checked after each test, so a failure names its flow.)"""
    visit = shared.visit
    assert visit.requests, "no request recorded"
    assert visit.offsite_requests() == []
    assert visit.failed_requests == []
    assert visit.console_errors == []
    assert shared.dialogs == []
