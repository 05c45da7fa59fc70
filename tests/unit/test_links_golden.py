"""Old links keep working, forever: every share URL in tests/golden/links_v1.json deals its stored cards.

Each entry is a v1 query as a user shares it (as the page writes it, or spelt another way a
user may paste: spaces as %20, raw Unicode, lower-case hex) with the deck (card ids), hands
and stock (card codes) it must show. Here CPython reads each with ``read_link`` (no notice,
no fresh seed), plays it, and compares card for card; then the command line, given the
same link as flags (derived as tests/e2e/e2e_pages.py's ``cli_for_url`` derives them, with
``urllib.parse`` reading the URL rather than our own parser), must print the same cards.
tests/e2e/test_old_links.py opens the same URLs in the page.
"""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from shufflelab import catalog, seal
from shufflelab.cards import DeckSpec
from shufflelab.cli import main
from shufflelab.link import Link, outcome_of, read_link

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_PATH = ROOT / "tests" / "golden" / "links_v1.json"
LINKS = json.loads(GOLDEN_PATH.read_text("utf-8"))["links"]
PAGE_QUERIES = {case["query"] for case in LINKS if case["form"] == "page"}
STYLES = ("round-robin", "blocks", "pick")
DECK_KINDS = ("standard", "piquet", "euchre", "numbered", "multi-pack+jokers")


def _load(name: str, path: Path):
    """Import a file that is not on the path (registered first: its dataclasses look themselves up)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = sys.modules[name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# the e2e tests' URL -> CLI flags (stdlib only at import), and the generator of the file
E2E_PAGES = _load("e2e_pages_for_unit_tests", ROOT / "tests" / "e2e" / "e2e_pages.py")
MAKER = _load("make_link_vectors", ROOT / "tests" / "golden" / "make_link_vectors.py")


def case_id(case: dict) -> str:
    return case["name"]


def no_fresh_seed() -> str:
    raise AssertionError("the link carries its seed; reading it must not draw a fresh one")


def read(query: str):
    link, notices = read_link(query, no_fresh_seed)
    assert notices == [], [str(n) for n in notices]
    return link


def deck_kind(deck: DeckSpec) -> str:
    return "multi-pack+jokers" if deck.kind != "numbered" and deck.packs > 1 else deck.kind


def assert_cards(case: dict, deck: DeckSpec, order: list, hands: list, stock: list, who: str) -> None:
    """``order`` (ids), ``hands`` and ``stock`` (ids) are exactly the stored deck, hands and stock."""
    assert order == case["order"], f"{who}: the deck order differs from the stored one"
    assert [deck.codes(hand) for hand in hands] == case["hands"], f"{who}: the hands differ from the stored ones"
    assert deck.codes(stock) == case["stock"], f"{who}: the stock differs from the stored one"


# --- the file ------------------------------------------------------------------------------------


def test_the_file_holds_every_case_of_the_generator():
    golden = {"links": [dict(case) for case in LINKS]}
    assert MAKER.append_missing(golden) == 0, "run: PYTHONPATH=py python tests/golden/make_link_vectors.py"
    assert golden["links"] == LINKS, "the generator must never rewrite an entry"


def test_the_links_cover_every_algorithm_deck_kind_and_style():
    seen = [(link.deal.algo, deck_kind(link.deal.deck), link.deal.style) for link in map(read, PAGE_QUERIES)]
    pairs = {(kind, style) for _, kind, style in seen}
    assert pairs == {(kind, style) for kind in DECK_KINDS for style in STYLES}
    for algo in catalog.ids():
        mine = [(kind, style) for a, kind, style in seen if a == algo]
        assert {style for _, style in mine} == set(STYLES), algo
        assert len({kind for kind, _ in mine}) >= 3, algo
    for param in {p.name for entry in catalog.entries() for p in entry.params}:
        values = {dict(link.deal.params).get(param) for link in map(read, PAGE_QUERIES)} - {None}
        assert len(values) >= 3, f"{param} takes its default and at least two other values: {values}"


def test_the_queries_carry_hard_text_in_every_form():
    queries = [case["query"] for case in LINKS]
    seeds = {read(q).deal.seed for q in queries}
    assert any("\u200d" in s for s in seeds) and any("\u200c" in s for s in seeds)  # ZWJ, ZWNJ
    assert {"Cafe\u0301 \u2660", "Caf\u00e9 \u2660"} <= seeds  # never normalised: two seeds
    assert any("+" in s for s in seeds) and any("%" in s for s in seeds)
    assert any("+" in q for q in PAGE_QUERIES) and any("%2B" in q for q in PAGE_QUERIES)
    assert {case["form"] for case in LINKS} == {"page", "space-%20", "raw-unicode", "lower-hex", "reveal"}


# --- CPython reads and plays every link -------------------------------------------------------------


@pytest.mark.parametrize("case", LINKS, ids=case_id)
def test_an_old_link_deals_its_stored_cards(case):
    link = read(case["query"])
    outcome = outcome_of(link.deal)
    assert_cards(case, link.deal.deck, outcome.order, outcome.deal.hands, outcome.deal.stock, "read_link + outcome_of")
    if case["form"] in ("page", "reveal"):
        assert link.to_query() == case["query"], "a stored link is written back exactly as it was"
    else:  # another spelling of a stored page link, which it reads back as
        assert link.to_query() in PAGE_QUERIES and link.to_query() != case["query"]


# --- the command line, given the link as flags -------------------------------------------------------


def cli_args(query: str) -> list[str]:
    """`shufflelab deal` flags for a link, as e2e_pages.cli_deal makes them from url_params."""
    params = E2E_PAGES.url_params("http://example.invalid/shuffle-lab/?" + query)
    assert params.get("v") == "1", query
    args = []
    for key, value in params.items():
        if key in E2E_PAGES.URL_TO_CLI:
            args.append(f"--{E2E_PAGES.URL_TO_CLI[key].replace('_', '-')}={value}")
    return args


def assert_cli_output(case: dict, data: dict, who: str) -> None:
    deck = DeckSpec(**data["deck"])
    assert_cards(case, deck, data["order"], data["hands"], data["stock"], who)
    assert data["codes"] == deck.codes(case["order"])
    assert data["query"] == Link(read(case["query"]).deal).to_query(), f"{who}: the CLI's link differs"


@pytest.mark.parametrize("case", LINKS, ids=case_id)
def test_the_cli_deals_the_stored_cards(case, capsys):
    status = main(["deal", *cli_args(case["query"]), "--json"])
    captured = capsys.readouterr()
    assert status == 0 and captured.err == "", captured.err
    assert_cli_output(case, json.loads(captured.out), "shufflelab.cli.main")


def subprocess_cases() -> list[dict]:
    """A handful for a real `python -m shufflelab` process: each form, each style, the largest deck."""
    chosen = {}
    for case in LINKS:
        link = read(case["query"])
        for key in (case["form"], link.deal.style, len(link.deal.deck) > 400):
            chosen.setdefault(key, case)
    picked = {id(case): case for key, case in chosen.items() if key is not False}
    return list(picked.values())


@pytest.mark.parametrize("case", subprocess_cases(), ids=case_id)
def test_python_m_shufflelab_deals_the_stored_cards(case):
    data = E2E_PAGES.cli_for_url("http://example.invalid/shuffle-lab/?" + case["query"])
    assert_cli_output(case, data, "python -m shufflelab deal")


# --- reveal links: the sealed deal's link and the commitment it must match --------------------------

REVEALS = [case for case in LINKS if case["form"] == "reveal"]


@pytest.mark.parametrize("case", REVEALS, ids=case_id)
def test_a_stored_reveal_link_matches_and_verify_deals_its_cards(case, capsys):
    link = read(case["query"])
    assert seal.matches(link.view.commitment, link.deal)
    status = main(["verify", "--link", "https://example.invalid/shuffle-lab/?" + case["query"], "--json"])
    captured = capsys.readouterr()
    assert status == 0 and captured.err == "", captured.err
    data = json.loads(captured.out)
    assert data["matches"] and data["player_seed"] == link.deal.player_seed
    assert_cli_output(case, data, "shufflelab verify --link")


def test_the_reveal_links_cover_both_kinds_of_seal():
    assert {read(case["query"]).deal.player_seed is None for case in REVEALS} == {True, False}
