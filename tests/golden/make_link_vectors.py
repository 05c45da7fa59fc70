"""Append share links to links_v1.json for cases it does not hold yet; never rewrite one.

"Old links keep working, forever": each entry is a v1 share URL's query, written as the page
writes it (``Link.to_query``) or, for a few, in another form a user may paste (spaces as
%20, raw Unicode, lower-case hex), with the cards it must show: the shuffled deck (card ids,
exact even when packs repeat), the hands and the stock (card codes, see cards.py). Once
written, an entry is the contract: this script only ADDS entries for new cases (a new
algorithm, deck kind or style) and leaves every existing one exactly as it is. A test that
fails against an entry means the code broke old links, never that the entry needs "fixing".

The cases are a covering design, not the full product: each algorithm gets four links, the
style turning by one and the deck by one (from a start that steps by two) each link, so each
algorithm meets all three styles and four of the five deck kinds, and every (deck kind,
style) pair appears; the seeds mix ASCII, '+'-spaces, reserved characters and non-ASCII
text (emoji joined by ZWJ, a Persian word with ZWNJ, a decomposed accent...), and the
algorithm parameters take non-default values in some links. A few edge deals (no stock, no
cards, the largest deck), a few other spellings of the same links, and reveal links of sealed
deals (``commit=`` with or without ``pseed=``, the player seed that changes the cards)
complete it.

Usage: PYTHONPATH=py python tests/golden/make_link_vectors.py [--check]
(--check: exit 1 if any case is missing, write nothing)
"""

import json
import re
from pathlib import Path

from shufflelab import catalog
from shufflelab.cards import DeckSpec
from shufflelab.link import DealSpec, Link, View, link_query, outcome_of, read_link
from shufflelab.seal import commitment
from shufflelab.urlquery import quote_plus

PATH = Path(__file__).with_name("links_v1.json")
STYLES = ("round-robin", "blocks", "pick")
DECKS = {  # deck kind -> the decks it cycles through
    "standard": (DeckSpec(),),
    "piquet": (DeckSpec(kind="piquet"),),
    "euchre": (DeckSpec(kind="euchre"),),
    "numbered": (DeckSpec(kind="numbered", size=60), DeckSpec(kind="numbered", size=13)),
    "multi-pack+jokers": (DeckSpec(packs=2, jokers=2), DeckSpec(packs=3, jokers=1)),
}
LINKS_PER_ALGORITHM = 4
# one per algorithm, in its second link: text a URL has to carry exactly
SPECIAL_SEEDS = (
    "👩\u200d👩\u200d👧\u200d👦 family",  # emoji joined by ZWJ (U+200D)
    "می\u200cخواهم",  # Persian "I want", with ZWNJ (U+200C)
    "Cafe\u0301 ♠",  # decomposed é: never normalised to the composed form
    "Café ♠",  # composed é: a different seed, a different deck
    "C++ & R&D = 100%?",  # '+', '&', '=', '%', '?': percent-encoded, never read as separators
    "日本語のシャッフル",
    "🇮🇷 🏳️\u200d🌈 flags",  # regional indicators, a variation selector, ZWJ
    "a+b=c",
    "two  spaces  inside",
    "no\u00a0break\u00a0space",
    "#hash?query/slash;semi",
    "עִבְרִית right-to-left",
    "ℵ₀ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 astral",
)
# the catalog's order when this file was first written: an algorithm keeps its place in the design
# (and so its links) even if one is later registered before it; new ones follow these
FIRST_IDS = ("fisher-yates", "splice", "stack", "random-key", "riffle-gsr", "fisher-yates-off-by-one", "naive-pairs",
             "swap-any", "c-rand", "riffle-physical", "cut-insert", "random-comparator", "none")
# a parameter's value in an algorithm's four links, as first chosen (None: the default); a parameter added later
# takes two values other than its default, from its entry's test value, its minimum and its maximum (link_values)
PARAM_VALUES = {"passes": (None, 1, 13, None), "repetitions": (None, 2, 500, None),
                "overhands": (None, 1, 2000, None), "shelves": (None, 2, 20, None), "rounds": (None, 2, 10, None)}


def link_values(entry, param) -> tuple:
    """Return a parameter's value in each of the entry's four links: as first chosen, else derived from the entry."""
    if param.name in PARAM_VALUES:
        return PARAM_VALUES[param.name]
    others = []
    for value in (entry.test_params[param.name], param.minimum, param.maximum):
        if value != param.default and value not in others:
            others.append(value)
    first, second = (others + [None, None])[:2]  # the links test wants the default and two others
    return None, first, second, None


def deck_kind(deck: DeckSpec) -> str:
    """The design's name for a deck: its kind, or multi-pack+jokers."""
    return "multi-pack+jokers" if deck.kind != "numbered" and deck.packs > 1 else deck.kind


def design_ids() -> list:
    """Every catalog id, in the design's order: FIRST_IDS first, then newer ones as registered."""
    return [a for a in FIRST_IDS if a in catalog.ids()] + [a for a in catalog.ids() if a not in FIRST_IDS]


def design():
    """Yield (algo, j, style, deck) of the covering design: four links per algorithm."""
    kinds = list(DECKS)
    for i, algo in enumerate(design_ids()):
        for j in range(LINKS_PER_ALGORITHM):
            style = STYLES[(i + j) % len(STYLES)]
            kind = kinds[(2 * i + j) % len(kinds)]
            choices = DECKS[kind]
            yield algo, j, style, choices[(i + j) % len(choices)]


def seed_for(algo: str, i: int, j: int) -> str:
    if j == 1:
        return SPECIAL_SEEDS[i % len(SPECIAL_SEEDS)]
    return ("old links %s" % algo, None, "v1-%s-%d" % (algo, j), "%s forever" % algo)[j]


def design_cases():
    """Yield the DealSpec of every covering-design link."""
    ids = design_ids()
    for algo, j, style, deck in design():
        i = ids.index(algo)
        players = 1 + (3 * i + 2 * j) % 6
        cards_each = min(1 + (i + 3 * j) % 8, len(deck) // players)
        params = {}
        for param in catalog.get(algo).params:
            value = link_values(catalog.get(algo), param)[j]
            if value is not None:
                params[param.name] = value
        yield DealSpec(algo, params, seed_for(algo, i, j), deck, players, cards_each, style)


def edge_cases():
    """Yield a few deals at the edges: no stock left, no cards dealt, the largest deck the page deals."""
    yield DealSpec("fisher-yates", None, "every card dealt", DeckSpec(kind="euchre"), 4, 6, "round-robin")
    yield DealSpec("splice", None, "nobody gets a card", DeckSpec(kind="piquet"), 3, 0, "blocks")
    yield DealSpec("riffle-gsr", {"passes": 50}, "eight packs 🃏", DeckSpec(packs=8, jokers=2), 52, 8, "pick")


def sealed_cases():
    """Yield sealed deals whose reveal links (commit=, and pseed= for a player seed) are pinned too."""
    strong = "Kv3h2Zx8T0mYpQ7wL5cN1bR9sD4fG6jH2kA8eU0oI3y"
    yield DealSpec("fisher-yates", None, strong, DeckSpec(), 4, 5, "round-robin")
    yield DealSpec("fisher-yates", None, strong, DeckSpec(), 4, 5, "round-robin", player_seed="lucky 7")
    yield DealSpec("riffle-gsr", {"passes": 3}, "golden seal", DeckSpec(kind="euchre"), 3, 4, "pick",
                   player_seed="می\u200cخواهم")
    yield DealSpec("cut-insert", None, "sealed & numbered", DeckSpec(kind="numbered", size=13), 2, 3, "blocks",
                   player_seed="🂡 +&=%? #")


def reveal_query(spec: DealSpec) -> str:
    """The reveal link's query: the deal's, and the commitment it was sealed with."""
    return Link(spec, View(commitment=commitment(spec))).to_query()


def raw_unicode(query: str) -> str:
    """The query with non-ASCII text unescaped (as pasted from a chat app); ASCII escapes kept."""
    def unescape(match):
        text = bytes.fromhex(match.group(0).replace("%", "")).decode("utf-8")
        return "".join(c if ord(c) > 127 else quote_plus(c) for c in text)
    return re.sub(r"(?:%[0-9A-F]{2})+", unescape, query)


FORMS = {  # another spelling of a page link -> how to write it
    "space-%20": lambda q: q.replace("+", "%20"),
    "raw-unicode": raw_unicode,
    "lower-hex": lambda q: re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), q),
}
FORM_CASES = (  # (form, algorithm, link index): design links written another way
    ("space-%20", "riffle-physical", 0),
    ("raw-unicode", "fisher-yates", 1),
    ("raw-unicode", "splice", 1),
    ("lower-hex", "random-key", 1),
)


def cases():
    """Yield (name, form, DealSpec, query) for every entry the file should hold."""
    specs = {}
    for spec in design_cases():
        specs.setdefault(spec.algo, []).append(spec)
        yield name_of(spec), "page", spec, page_query(spec)
    for spec in edge_cases():
        yield name_of(spec), "page", spec, page_query(spec)
    for form, algo, j in FORM_CASES:
        spec = specs[algo][j]
        query = FORMS[form](page_query(spec))
        if query == page_query(spec):
            raise SystemExit("form %s leaves %s unchanged" % (form, query))
        yield "%s (%s)" % (name_of(spec), form), form, spec, query
    for spec in sealed_cases():
        player = "no player seed" if spec.player_seed is None else "player seed " + spec.player_seed
        yield "%s (reveal link, %s)" % (name_of(spec), player), "reveal", spec, reveal_query(spec)


def name_of(spec: DealSpec) -> str:
    params = "".join(", %s=%d" % item for item in spec.params)
    return "%s%s | %s | %s | %dx%d" % (spec.algo, params, spec.deck.describe(), spec.style, spec.players,
                                         spec.cards_each)


def page_query(spec: DealSpec) -> str:
    """The query the page writes for the deal (failing if the page could not carry it)."""
    query = link_query(spec)
    if query is None or query != Link(spec).to_query():
        raise SystemExit("the page cannot carry %r" % (spec,))
    return query


def entry(name: str, form: str, spec: DealSpec, query: str) -> dict:
    link, notices = read_link(query, lambda: "")
    if notices or link.deal != spec:
        raise SystemExit("%s reads back as %r with %r" % (query, link.deal, notices))
    outcome = outcome_of(spec)
    deck = spec.deck
    return {"name": name, "form": form, "query": query, "order": outcome.order,
            "hands": [deck.codes(hand) for hand in outcome.deal.hands], "stock": deck.codes(outcome.deal.stock)}


def append_missing(golden: dict) -> int:
    """Add the entries of missing cases to ``golden``; return how many were added."""
    have = {v["query"] for v in golden["links"]}
    added = 0
    for name, form, spec, query in cases():
        if query not in have:
            golden["links"].append(entry(name, form, spec, query))
            have.add(query)
            added += 1
    return added


def dump(golden: dict) -> str:
    """One link a line, so that appending shows in a diff as added lines only; ASCII only, so that
    no editor can normalise, trim or re-encode the raw text of a link (ZWJ, ZWNJ, a decomposed
    accent): JSON escapes keep it exact."""
    lines = [json.dumps(v, ensure_ascii=True) for v in golden["links"]]
    return '{"links": [\n' + ",\n".join(lines) + "\n]}\n"


if __name__ == "__main__":
    from append_only import run

    run(PATH, lambda: {"links": []}, append_missing, dump, "link(s)")
