"""Share links: golden deals, round trips, plain-word notices, hostile queries and the one field table."""

import json
import unicodedata
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog_tables import link_contexts
from shufflelab import catalog, seal
from shufflelab.cards import DECK_KINDS, MAX_JOKERS_PER_PACK, MAX_PACKS, DeckError, DeckSpec
from shufflelab.catalog import ParamError, UnknownAlgorithm
from shufflelab.deal import DEAL_STYLES, DealError
from shufflelab.errors import ShuffleLabError
from shufflelab.link import (
    FIELD_BY_KEY,
    FIELDS,
    HEAT_VIEWS,
    LAB_MAX_N,
    LAB_MIN_N,
    MAX_SEED_LENGTH,
    MAX_TALLY_SEED_LENGTH,
    VIEWS,
    DealSpec,
    Link,
    Notice,
    SeedError,
    View,
    outcome_data,
    outcome_of,
    outcome_steps,
    read_link,
    read_values,
)
from shufflelab.urlquery import Undecodable, parse_query, quote_plus

GOLDEN = json.loads((Path(__file__).resolve().parent.parent / "golden" / "algorithms_v1.json").read_text("utf-8"))
FRESH = "fresh-seed"
KEYS = [f.key for f in FIELDS]
WHOLE_FIELDS = [f for f in FIELDS if f.kind == "whole"]
# what makes a field apply, and leaves room for its whole range (players x cards within the deck): a parameter
# with the first algorithm that takes it
CONTEXT = link_contexts()


def fixed_seed():
    return FRESH


def read(query, strict_deal=False):
    return read_link(query, fixed_seed, strict_deal)


def only_notice(query):
    """The one notice a query gives (failing if it gives none or more)."""
    _, notices = read(query)
    assert len(notices) == 1, notices
    return notices[0]


def assert_one_line(notice):
    assert isinstance(notice, Notice) and isinstance(notice.text, str) and notice.text
    assert "\n" not in notice.text and "\r" not in notice.text, notice
    assert len(notice.text) < 400, notice
    assert notice.field == "" or notice.field in FIELD_BY_KEY
    assert str(notice) == notice.text


# --- golden deals: a v1 link shows the same cards forever --------------------------------------


@pytest.mark.parametrize("case", GOLDEN["deals"], ids=lambda c: c["query"][:60])
def test_golden_deals_from_share_links_never_change(case):
    got, notices = read(case["query"])
    assert notices == []
    outcome = outcome_of(got.deal)
    assert outcome.order == case["order"]
    assert outcome.deal.hands == case["hands"]
    assert outcome.deal.stock == case["stock"]
    assert got.to_query() == case["query"], "a golden link is written back as it was"


# --- round trips ------------------------------------------------------------------------------------

seed_text = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=MAX_SEED_LENGTH)
decks = st.one_of(
    st.builds(DeckSpec, kind=st.sampled_from(["standard", "piquet", "euchre"]),
              packs=st.integers(1, MAX_PACKS), jokers=st.integers(0, MAX_JOKERS_PER_PACK)),
    st.builds(DeckSpec, kind=st.just("numbered"), size=st.integers(1, 1000)),
)


@st.composite
def links(draw):
    entry = draw(st.sampled_from(catalog.ALGORITHMS))
    params = [(p.name, draw(st.integers(p.minimum, p.maximum))) for p in entry.params]
    deck = draw(decks)
    players = draw(st.integers(1, min(52, len(deck))))
    cards_each = draw(st.integers(0, len(deck) // players))
    spec = DealSpec(entry.id, params, draw(seed_text), deck, players, cards_each, draw(st.sampled_from(DEAL_STYLES)),
                    player_seed=draw(st.none() | seed_text))
    view = View(draw(st.sampled_from(VIEWS)), draw(st.integers(LAB_MIN_N, LAB_MAX_N)), draw(st.sampled_from(HEAT_VIEWS)),
                draw(st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=MAX_TALLY_SEED_LENGTH)),
                draw(st.just("") | st.text("0123456789abcdef", min_size=64, max_size=64)))
    compared = draw(st.just("") | st.sampled_from(catalog.ALGORITHMS))
    if compared:
        view = view.replace(compare=compared.id, compare_params=[
            (p.name, draw(st.integers(p.minimum, p.maximum))) for p in compared.params])
    return Link(spec, view)


@settings(max_examples=200)
@given(links())
def test_a_link_survives_the_url_round_trip(original):
    back, notices = read(original.to_query())
    assert notices == []
    assert back == original


@settings(max_examples=100)
@given(links())
def test_a_query_lists_keys_in_field_table_order_and_every_deal_field(original):
    keys = [key for key, _ in parse_query(original.to_query())]
    positions = [KEYS.index(key) for key in keys]
    assert positions == sorted(set(positions)), "keys out of FIELDS order, or repeated"
    values = original.values()
    applying = [f.key for f in FIELDS if f.part == "deal" and f.key in values and f.applies_to(values)]
    assert [key for key in keys if FIELD_BY_KEY[key].part == "deal"] == applying


def test_missing_query_gives_defaults_and_a_fresh_seed():
    got, notices = read("")
    assert notices == []
    spec = got.deal
    assert (spec.version, spec.algo, spec.params, spec.seed, spec.deck, spec.players, spec.cards_each, spec.style) == (
        1, "fisher-yates", (), FRESH, DeckSpec(), 4, 5, "round-robin")
    assert got.view == View() == View("deal", 52, "observed", "")
    assert read("?") == read("") and read("&&") == read("")


def test_the_fresh_seed_comes_from_the_given_source():
    assert read_link("")[0].deal.seed != read_link("")[0].deal.seed  # the default: 256 fresh bits each time
    assert read_link("seed=", lambda: "mine")[0].deal.seed == "mine"


def test_read_values_reads_a_forms_texts_as_a_query():
    form = {"algo": "riffle-gsr", "passes": "3", "seed": "form", "players": "2", "cards": "6", "view": "lab"}
    assert read_values(form, fixed_seed) == read(quote_plus_query(form))
    [notice] = read_values({"seed": Undecodable("%FF")}, fixed_seed)[1]  # as a query's value that is not UTF-8
    assert notice.field == "seed" and "'%FF' is not valid UTF-8" in str(notice)


def test_a_refused_form_value_keeps_the_value_shown():
    """The form passes the link's values as ``kept``: a bad value leaves the last valid one, and the notice says so."""
    shown = read_values({"seed": "shown", "players": "3"}, fixed_seed)[0]
    link, notices = read_values({"seed": "\x01", "players": "1.5", "cards": "7"}, fixed_seed, kept=shown.values())
    assert (link.deal.seed, link.deal.players, link.deal.cards_each) == ("shown", 3, 7)
    assert [str(n) for n in notices] == ["Seed '\ufffd' contains a control character (U+0001); keeping the seed shown",
                                         "Players '1.5' is not a whole number from 1 to 52; using 3"]
    assert read_values({"players": "1.5"}, fixed_seed)[0].deal.players == 4  # a link's bad value: the default


def quote_plus_query(values):
    return "&".join(quote_plus(k) + "=" + quote_plus(v) for k, v in values.items())


# --- notices: plain words, the value named, the default used -----------------------------------------


@pytest.mark.parametrize(
    "query, text",
    [("players=--4", "Players '--4' is not a whole number from 1 to 52; using 4"),
     ("algo=bogo", "Algorithm 'bogo' is unknown; using fisher-yates"),
     ("players=99999999999999", "Players '99999999999999' is not a whole number from 1 to 52; using 4"),
     ("cards=abc", "Cards each 'abc' is not a whole number from 0 to 13 (for 4 players from 52 cards); using 5"),
     ("players=1&cards=2000", "Cards each '2000' is outside 0 to 52 (for 1 player from 52 cards); using 5"),
     ("players=", "Players is blank: it takes a whole number from 1 to 52; using 4"),
     ("packs=%EF%BC%93", "Packs '３' is not a whole number from 1 to 8; using 1"),
     ("deck=tarot", "Deck 'tarot' is not one of standard, piquet, euchre, numbered; using standard"),
     ("algo=riffle-gsr&passes=1e9", "Passes '1e9' is not a whole number from 1 to 50; using 7"),
     ("players=12&cards=5&deck=euchre",
      "Cannot deal 12 players × 5 cards = 60 cards from a 24-card deck; dealing no cards instead"),
     ("view=admin", "View 'admin' is not one of deal, lab, play; using deal"),
     ("n=1e2", "Lab cards '1e2' is not a whole number from 2 to 128; using 52"),
     ("heat=%3Cb%3E", "Heat map view '<b>' is not one of observed, exact, difference; using observed"),
     ("seed=a%01b", "Seed 'a\ufffdb' contains a control character (U+0001); using a new seed"),
     ("seed=%FF%FE", "Seed '%FF%FE' is not valid UTF-8 text; using a new seed"),
     ("players=%FF", "Players '%FF' is not valid UTF-8 text; using 4"),
     ("tseed=" + "t" * 65, "Tally seed '" + "t" * 39 + "…' is longer than 64 characters; using none"),
     ("a=1&b=2&c=3&d=4", "Ignored 4 unknown parameters: 'a', 'b', 'c' and 1 more"),
     ("zzz=1", "Ignored 1 unknown parameter: 'zzz'")],
)
def test_bad_parameters_fall_back_with_a_notice_naming_them(query, text):
    notice = only_notice(query)
    assert notice.text == text
    assert_one_line(notice)
    outcome_of(read(query)[0].deal)  # whatever came in, the deal it made is playable


LEADING_DASHES = [("players", "players=--4", 4), ("n", "n=--4", 52), ("jokers", "jokers=--1", 0),
                  ("passes", "algo=riffle-gsr&passes=--3", 7), ("repetitions", "algo=cut-insert&repetitions=--3", 15000),
                  ("packs", "packs=--2", 1), ("size", "deck=numbered&size=--30", 52), ("cards", "cards=--3", 5),
                  ("v", "v=--1", 1)]


@pytest.mark.parametrize("key, query, default", LEADING_DASHES, ids=[c[0] for c in LEADING_DASHES])
def test_a_leading_double_dash_is_named_and_the_default_used(key, query, default):
    notice = only_notice(query)
    value = query.rpartition("=")[2]
    assert notice.field == key and f"'{value}'" in notice.text
    assert_one_line(notice)
    assert read(query)[0].values()[key] == default


def test_tracking_parameters_are_ignored_silently():
    query = "utm_source=news&utm_medium=email&utm_campaign=x&fbclid=IwAR0&gclid=Cj0&msclkid=abc&seed=s"
    got, notices = read(query)
    assert notices == [] and got == read("seed=s")[0]


def test_many_unknown_parameters_give_one_notice():
    query = "&".join(f"junk{i}=1" for i in range(300)) + "&players=3&junk0=again"
    got, notices = read(query)
    assert [n.text for n in notices] == ["Ignored 300 unknown parameters: 'junk0', 'junk1', 'junk2' and 297 more"]
    assert got.deal.players == 3


def test_a_link_from_a_newer_version_says_so():
    got, notices = read("v=2&seed=s")
    assert len(notices) == 1 and notices[0].field == "v"
    assert "newer version" in notices[0].text and "v2" in notices[0].text
    assert got.deal.version == 1 and got.deal.seed == "s"
    assert_one_line(notices[0])


@pytest.mark.parametrize("seed", ["👨\u200d👩\u200d👧", "می\u200cخواهم", "草 seed", "<img src=x onerror=alert(1)>"])
def test_seeds_with_joiners_and_markup_are_taken_as_they_are(seed):
    for query in ("seed=" + quote(seed), "seed=" + quote_plus(seed)):
        got, notices = read(query)
        assert notices == [] and got.deal.seed == seed
        assert read(got.to_query())[0] == got
    assert "<" not in Link(DealSpec(seed=seed)).to_query()


@pytest.mark.parametrize("seed", ["a" * (MAX_SEED_LENGTH + 1), "tab\there", "line\nbreak", "nul\x00", "del\x7f", "c1\x85"])
def test_unusable_seeds_are_replaced_by_a_fresh_one(seed):
    got, notices = read("seed=" + quote(seed))
    assert got.deal.seed == FRESH
    assert [n.field for n in notices] == ["seed"] and notices[0].text.startswith("Seed ")
    assert notices[0].text.endswith("; using a new seed")
    assert_one_line(notices[0])


def test_long_values_are_shortened_in_notices():
    notice = only_notice("algo=" + "x" * 5000)
    assert len(notice.text) < 120 and "…" in notice.text


def test_parameters_of_other_algorithms_are_dropped_quietly():
    got, notices = read("algo=fisher-yates&passes=3")
    assert notices == [] and got.deal.params == ()
    assert "passes" not in got.to_query()


def test_the_first_of_repeated_keys_wins():
    assert read("players=3&players=5")[0].deal.players == 3


def test_out_of_range_notices_read_in_plain_words():
    # KNOWN BUG (link.py Field.read, "is outside" + " from %d to %d"): "Packs '0' is outside from 1 to 8"
    notice = only_notice("packs=0")
    assert notice.text.startswith("Packs '0' is ") and notice.text.endswith("1 to 8; using 1")
    assert "outside from" not in notice.text


def test_a_query_with_lone_surrogates_never_raises():
    # KNOWN BUG (urlquery.unquote_bytes: text.encode("utf-8")): CPython text may hold lone
    # surrogates (e.g. decoded with surrogateescape); read_link promises never to raise
    got, notices = read("seed=\ud800&players=3")
    assert got.deal.seed == FRESH and got.deal.players == 3
    assert [n.field for n in notices] == ["seed"]


# --- any query at all -----------------------------------------------------------------------------------

HOSTILE = ["--4", "1e309", "-0", "NaN", "0x10", "9" * 400, "%FF", "%", "%%", "%4", "\u200d", "\u202e", "\u2066",
           "<script>alert(1)</script>", "x" * 10000, "", " 4 ", "4\n", "０", "+4", "1_000", "\x00", "%00", "%0A",
           "%E2%80%8D", "-", "0004", "4.0", "--", "999999999", "1" * 10, "%ED%A0%80", "a&b", "a=b"]
CHOICES = ["fisher-yates", "riffle-gsr", "cut-insert", "riffle-physical", "none", "numbered", "euchre", "pick",
           "blocks", "lab", "exact", "difference", "1", "2", "0", "52", "13"]
keys = st.one_of(st.sampled_from(KEYS + ["utm_source", "fbclid", "gclid", "msclkid", "PLAYERS", "seed[]", "", "v "]),
                 st.text(max_size=6))
values = st.one_of(st.sampled_from(HOSTILE + CHOICES), st.text(max_size=20), st.integers(-3, 1200).map(str))


@st.composite
def hostile_queries(draw):
    parts = []
    for key, value in draw(st.lists(st.tuples(keys, values), max_size=24)):
        encode = draw(st.booleans())
        parts.append(quote_plus(key) + "=" + quote_plus(value) if encode else key + "=" + value)
    unknown = draw(st.sampled_from([0, 0, 0, 5, 400]))
    parts.extend(f"extra{i}=1" for i in range(unknown))
    return draw(st.sampled_from(["", "?"])) + "&".join(draw(st.permutations(parts)))


def assert_a_valid_link_and_notices(got, notices):
    spec, view = got.deal, got.view
    assert isinstance(got, Link) and isinstance(spec, DealSpec) and isinstance(view, View)
    deck = spec.deck
    again = DealSpec(spec.algo, dict(spec.params), spec.seed, DeckSpec(deck.kind, deck.packs, deck.jokers, deck.size),
                     spec.players, spec.cards_each, spec.style, spec.version, spec.player_seed)
    assert again == spec and hash(again) == hash(spec)
    outcome = outcome_of(spec)
    assert sorted(outcome.order) == deck.ids()
    assert sorted(sum(outcome.deal.hands, []) + outcome.deal.stock) == deck.ids()
    assert view.view in VIEWS and LAB_MIN_N <= view.lab_n <= LAB_MAX_N and view.heat in HEAT_VIEWS
    for text, longest in ((spec.seed, MAX_SEED_LENGTH), (view.tally_seed, MAX_TALLY_SEED_LENGTH)):
        assert len(text) <= longest and not {unicodedata.category(c) for c in text} & {"Cc", "Cs"}
    for notice in notices:
        assert_one_line(notice)
    assert [n.field for n in notices].count("") <= 1, "unknown parameters make one notice"
    assert read(got.to_query()) == (got, [])


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_is_a_link_with_notices(query):
    assert_a_valid_link_and_notices(*read(query))


@settings(max_examples=300, deadline=None)
@given(hostile_queries())
def test_any_hostile_query_is_a_valid_link_with_one_line_notices(query):
    assert_a_valid_link_and_notices(*read(query))


# --- the field table is the one description --------------------------------------------------------------


class RecordingDict(dict):
    def __init__(self, *args):
        super().__init__(*args)
        self.asked = []

    def get(self, key, default=None):
        self.asked.append(key)
        return super().get(key, default)


def test_every_key_read_is_in_the_field_table():
    raw = RecordingDict({key: "1" for key in KEYS})
    read_values(raw, fixed_seed)
    assert raw.asked and set(raw.asked) <= set(KEYS)
    _, notices = read("&".join(f"{key}=1" for key in KEYS))
    assert all(n.field in FIELD_BY_KEY for n in notices), "a table key was reported unknown"
    for key in ("Players", "player", "seed ", "deck_kind", "algorithm"):
        assert only_notice(f"{key}=1").field == ""


def test_the_table_matches_the_catalog_and_the_deck_limits():
    param_fields = {f.key: (f.default, f.low, f.high) for f in FIELDS if f.control and f.control.startswith("param-")}
    params = {p.name: (p.default, p.minimum, p.maximum) for e in catalog.ALGORITHMS for p in e.params}
    assert param_fields == params
    assert (FIELD_BY_KEY["packs"].high, FIELD_BY_KEY["jokers"].high) == (MAX_PACKS, MAX_JOKERS_PER_PACK)
    assert FIELD_BY_KEY["deck"].options() == DECK_KINDS and FIELD_BY_KEY["style"].options() == DEAL_STYLES
    assert FIELD_BY_KEY["algo"].options() == catalog.ids()
    assert len(set(KEYS)) == len(KEYS) and {f.part for f in FIELDS} == {"deal", "view"}


@pytest.mark.parametrize("spec", WHOLE_FIELDS, ids=lambda f: f.key)
def test_each_whole_number_field_enforces_exactly_its_limits(spec):
    context = CONTEXT.get(spec.key, "")
    for good in (spec.low, spec.high):
        got, notices = read(f"{context}&{spec.key}={good}")
        assert notices == [] and got.values()[spec.key] == good
    for bad in (spec.low - 1, spec.high + 1):
        got, notices = read(f"{context}&{spec.key}={bad}")
        assert [n.field for n in notices] == [spec.key] and f"'{bad}'" in notices[0].text
        assert got.values()[spec.key] == spec.default


@pytest.mark.parametrize("spec", [f for f in FIELDS if f.kind == "choice"], ids=lambda f: f.key)
def test_each_choice_field_takes_exactly_its_options(spec):
    for option in spec.options():
        got, notices = read(f"{spec.key}={quote_plus(option)}")
        assert [n for n in notices if n.field == spec.key] == [] and got.values()[spec.key] == option
    assert only_notice(f"{spec.key}=nope").field == spec.key


@pytest.mark.parametrize("spec", [f for f in FIELDS if f.kind in ("seed", "text")], ids=lambda f: f.key)
def test_each_text_field_enforces_its_length(spec):
    value = "é" * spec.high  # code points, not bytes
    assert read(f"{spec.key}={quote(value)}")[0].values()[spec.key] == value
    assert only_notice(f"{spec.key}={quote(value + 'é')}").field == spec.key


def test_fields_that_do_not_apply_are_neither_read_nor_written():
    got, notices = read("deck=numbered&size=30&packs=99&jokers=x")
    assert notices == [] and got.deal.deck == DeckSpec(kind="numbered", size=30)
    assert "packs" not in got.to_query() and "jokers" not in got.to_query()
    got, notices = read("deck=standard&size=--")
    assert notices == [] and "size" not in got.to_query()


# --- the deal contract, apart from the view ------------------------------------------------------------


def test_deal_specs_are_equal_by_value_and_hashable():
    first = DealSpec("riffle-gsr", {"passes": 3}, "s", DeckSpec(packs=2), 3, 4, "blocks")
    second = DealSpec("riffle-gsr", [("passes", 3)], "s", DeckSpec(packs=2), 3, 4, "blocks")
    assert first == second and hash(first) == hash(second) and len({first, second}) == 1
    assert {first: "deal"}[second] == "deal"
    assert DealSpec("riffle-gsr", None, "s").params == (("passes", 7),) == DealSpec("riffle-gsr", {"passes": 7}, "s").params
    assert first != first.replace(seed="t") and first != first.replace(style="round-robin") and first != "s"
    assert first.replace(algo="fisher-yates").params == ()


@pytest.mark.parametrize(
    "changes, error, named",
    [({"algo": "bogo"}, UnknownAlgorithm, "'bogo'"),
     ({"algo": "riffle-gsr", "params": {"passes": 0}}, ParamError, "not 0"),
     ({"params": {"passes": 3}}, ParamError, "'passes'"),
     ({"seed": ""}, SeedError, "''"),
     ({"seed": "a\x01b"}, SeedError, "U+0001"),
     ({"seed": "s" * 257}, SeedError, "256"),
     ({"deck": "standard"}, DeckError, "'standard'"),
     ({"players": 0}, DealError, "not 0"),
     ({"players": "3"}, DealError, "'3'"),
     ({"cards_each": True}, DealError, "True"),
     ({"cards_each": 14}, DealError, "14 cards"),
     ({"style": "sideways"}, DealError, "'sideways'"),
     ({"version": 2}, ShuffleLabError, "2"),
     ({"player_seed": ""}, SeedError, "the player seed '' is empty"),
     ({"player_seed": "a\x01"}, SeedError, "the player seed 'a\ufffd' contains a control character (U+0001)"),
     ({"player_seed": 7}, SeedError, "the player seed must be text, not 7")],
)
def test_bad_deal_values_raise_a_library_error_naming_them(changes, error, named):
    values = {"seed": "s"}
    values.update(changes)
    with pytest.raises(error) as raised:
        DealSpec(**values)
    assert isinstance(raised.value, ShuffleLabError) and named in str(raised.value)
    assert "\n" not in str(raised.value)


def test_the_view_changes_without_touching_the_deal():
    plain = Link(DealSpec(seed="s"))
    lab = plain.replace_view(view="lab", lab_n=20, heat="exact", tally_seed="t")
    assert lab.deal == plain.deal and lab != plain and len({plain, lab}) == 2
    assert outcome_of(lab.deal) == outcome_of(plain.deal)
    deal_pairs = [(k, v) for k, v in parse_query(lab.to_query()) if FIELD_BY_KEY[k].part == "deal"]
    assert deal_pairs == parse_query(plain.to_query())
    moved = lab.replace_deal(seed="u")
    assert moved.view == lab.view and moved.deal == DealSpec(seed="u")


def test_deal_links_leave_out_the_lab_defaults():
    query = Link(DealSpec(seed="s")).to_query()
    assert "view=" not in query and "n=" not in query and "heat=" not in query and "tseed" not in query
    lab = Link(DealSpec(seed="s"), View("lab", 20, "exact", "t")).to_query()
    assert lab.endswith("view=lab&n=20&heat=exact&tseed=t")


def test_a_form_with_an_impossible_deal_is_refused_whole():
    with pytest.raises(DealError, match="cannot deal 9 players × 9 cards = 81 cards from a 52-card deck"):
        read("players=9&cards=9", strict_deal=True)
    assert read("players=9&cards=9")[0].deal.cards_each == 0


def test_outcome_data_is_the_cli_json_contract():
    spec = DealSpec(seed="contract", players=2, cards_each=3)
    data = outcome_data(spec, outcome_of(spec))
    assert data["stream"] == 1 and data["algo"] == "fisher-yates" and data["seed"] == "contract"
    assert data["params"] == {} and data["deck"] == {"kind": "standard", "packs": 1, "jokers": 0}
    assert len(data["order"]) == 52 and len(data["labels"]) == 52 and len(data["codes"]) == 52
    assert data["hands"] == [data["order"][0:6:2], data["order"][1:6:2]]
    assert data["stock"] == data["order"][6:] and data["hand_labels"][0] == spec.deck.labels(data["hands"][0])
    assert read(data["query"]) == (Link(spec), [])


def test_play_deals_by_picking_from_the_same_stream_after_the_shuffle():
    spec = DealSpec(seed="pick", players=2, cards_each=3, style="pick")
    outcome = outcome_of(spec)
    assert outcome == outcome_of(spec) and outcome.order == outcome_of(spec.replace(style="blocks")).order
    assert sorted(sum(outcome.deal.hands, []) + outcome.deal.stock) == list(range(52))
    assert outcome.deal.hands != [outcome.order[0:3], outcome.order[3:6]]


# --- sealed deals: the player seed (deal) and the commitment to check (view) ---------------------------

COMMITTED = "0123456789abcdef" * 4


def test_a_player_seed_changes_the_cards_as_the_seal_mixes_it():
    plain = DealSpec(seed="dealer")
    mixed = plain.replace(player_seed="player")
    assert outcome_of(mixed) == seal.play_sealed(plain, "player") and outcome_of(mixed).order != outcome_of(plain).order
    assert mixed != plain and hash(mixed) != hash(plain)
    assert read(Link(mixed).to_query())[0].deal == mixed
    assert "pseed=" not in Link(plain).to_query() and Link(mixed).to_query().endswith("&pseed=player")


@pytest.mark.parametrize("written", [COMMITTED, COMMITTED.upper(), "+" + COMMITTED + "+"])
def test_a_commitment_is_read_in_any_case_and_written_in_lower_case(written):
    link, notices = read("seed=s&commit=" + written)
    assert notices == [] and link.view.commitment == COMMITTED
    assert link.to_query().endswith("&commit=" + COMMITTED) and link.deal == DealSpec(seed="s")


@pytest.mark.parametrize("query, text", [
    ("commit=abc", "Commitment 'abc' is not 64 hexadecimal digits (a SHA-256); using none"),
    ("commit=" + "g" * 64, "Commitment '" + "g" * 39 + "…' is not 64 hexadecimal digits"),
    ("pseed=a%09b", "Player seed 'a\ufffdb' contains a control character (U+0009); using none"),
    ("pseed=" + "p" * 257, "Player seed '" + "p" * 39 + "…' is longer than 256 characters"),
])
def test_a_bad_commitment_or_player_seed_is_named_and_dropped(query, text):
    link, notices = read("seed=s&" + query)
    assert [n.text[:len(text)] for n in notices] == [text]
    assert link.deal == DealSpec(seed="s") and link.view.commitment == ""


def test_an_empty_commitment_or_player_seed_means_none():
    assert read("seed=s&pseed=&commit=") == (Link(DealSpec(seed="s")), [])


def test_play_in_steps_pauses_in_a_long_shuffle_and_ends_with_plays_outcome():
    long_link, _ = read_link("algo=cut-insert&repetitions=5500&seed=steps&players=3&cards=4&style=pick")
    steps = list(outcome_steps(long_link.deal))
    assert steps[:-1] == [None] * 5 and steps[-1] == outcome_of(long_link.deal)
    short_link, _ = read_link("algo=riffle-gsr&seed=steps")
    assert list(outcome_steps(short_link.deal)) == [outcome_of(short_link.deal)]


def test_a_comparison_is_part_of_the_link():
    query = "algo=swap-any&seed=s&view=lab&n=5&vs=riffle-gsr&vs-passes=3"
    got, notices = read(query)
    assert notices == [] and (got.view.compare, got.view.compare_params) == ("riffle-gsr", (("passes", 3),))
    assert read(got.to_query())[0] == got
    assert "vs=" not in Link(got.deal, got.view.replace(compare="")).to_query()


def test_a_comparison_takes_only_built_ins_and_their_own_parameters():
    got, notices = read("vs=custom&vs-passes=3")
    assert got.view.compare == "" and got.view.compare_params == ()
    assert [n.text for n in notices] == ["Compared algorithm 'custom' is unknown; using none"]
    got, notices = read("vs=fisher-yates&vs-passes=3")  # Fisher–Yates has no passes: the key does not apply
    assert (got.view.compare, got.view.compare_params, notices) == ("fisher-yates", (), [])
    assert read("vs=riffle-gsr&vs-passes=0")[0].view.compare_params == (("passes", 7),)


def test_choosing_another_compared_algorithm_starts_from_its_defaults():
    view = View(compare="riffle-gsr", compare_params=[("passes", 2)])
    assert view.replace(compare="cut-insert").compare_params == (("repetitions", 15000),)
    assert view.replace(heat="exact").compare_params == (("passes", 2),)
