"""URL state: round trips, safe defaults with notices, and golden deals for share links."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from shufflelab import algorithms
from shufflelab.cards import DeckSpec
from shufflelab.share import MAX_SEED_LENGTH, State, outcome_data, play, with_changes

GOLDEN = json.loads((Path(__file__).resolve().parent.parent / "golden" / "algorithms_v1.json").read_text("utf-8"))


def fixed_seed():
    return "fresh-seed"


@pytest.mark.parametrize("case", GOLDEN["deals"], ids=lambda c: c["query"][:60])
def test_golden_deals_from_share_links_never_change(case):
    state, notices = State.from_query(case["query"], fixed_seed)
    assert notices == []
    outcome = play(state)
    assert outcome.order == case["order"]
    assert outcome.deal.hands == case["hands"]
    assert outcome.deal.stock == case["stock"]


states = st.builds(
    State,
    algo=st.sampled_from([a.id for a in algorithms.ALGORITHMS]),
    seed=st.text(min_size=1, max_size=30).filter(str.isprintable),
    deck=st.one_of(
        st.builds(DeckSpec, kind=st.sampled_from(["standard", "piquet", "euchre"]),
                  packs=st.integers(1, 8), jokers=st.integers(0, 2)),
        st.builds(DeckSpec, kind=st.just("numbered"), size=st.integers(1, 1000)),
    ),
    players=st.integers(1, 4),
    cards_each=st.integers(0, 6),
    style=st.sampled_from(["round-robin", "blocks", "pick"]),
    view=st.sampled_from(["deal", "lab"]),
    lab_n=st.integers(2, 128),
    heat=st.sampled_from(["observed", "exact", "difference"]),
    tally_seed=st.text(max_size=64).filter(str.isprintable),
).filter(lambda state: state.players * state.cards_each <= len(state.deck))


@settings(max_examples=200)
@given(states)
def test_a_state_survives_the_url_round_trip(state):
    back, notices = State.from_query(state.to_query(), fixed_seed)
    assert notices == []
    assert back == with_changes(state, params=state.resolved_params())


def test_missing_query_gives_defaults_and_a_fresh_seed():
    state, notices = State.from_query("", fixed_seed)
    assert notices == []
    assert (state.algo, state.seed, len(state.deck), state.players, state.cards_each) == (
        "fisher-yates", "fresh-seed", 52, 4, 5)


@pytest.mark.parametrize(
    "query, notice",
    [("algo=bogo", "algo: unknown value 'bogo'; using fisher-yates"),
     ("players=99999999999999", "players: '99999999999999' is not a whole number from 1 to 52; using 4"),
     ("players=0", "players: '0' is outside 1 to 52; using 4"),
     ("cards=abc", "cards: 'abc' is not a whole number"),
     ("packs=%EF%BC%93", "packs: '３' is not a whole number"),
     ("deck=tarot", "deck: unknown value 'tarot'; using standard"),
     ("v=2", "v: '2' is outside 1 to 1; using 1"),
     ("algo=riffle-gsr&passes=1e9", "passes: '1e9' is not a whole number"),
     ("deck=numbered&size=1000000", "size: '1000000' is outside 1 to 1000"),
     ("players=12&cards=5&deck=euchre", "players/cards: cannot deal 12 players × 5 cards = 60 cards"),
     ("utm_source=x", "'utm_source': unknown parameter; ignored"),
     ("view=admin", "view: unknown value 'admin'; using deal"),
     ("n=1", "n: '1' is outside 2 to 128; using 52"),
     ("heat=%3Cb%3E", "heat: unknown value '<b>'; using observed"),
     ("tseed=" + "t" * 65, "tseed: must be up to 64 printable characters; using no seed")],
)
def test_bad_parameters_fall_back_with_a_notice_naming_them(query, notice):
    state, notices = State.from_query(query, fixed_seed)
    assert len(notices) == 1 and notices[0].startswith(notice), notices
    play(state)  # whatever came in, the state it made is playable


def test_hostile_seed_text_is_only_ever_a_seed():
    hostile = "<img src=x onerror=alert(1)>"
    state, notices = State.from_query("seed=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E", fixed_seed)
    assert state.seed == hostile and notices == []
    assert "%3Cimg" in state.to_query()


@pytest.mark.parametrize("seed", ["a" * (MAX_SEED_LENGTH + 1), "tab\there", "line\nbreak"])
def test_unusable_seeds_are_replaced_by_a_fresh_one(seed):
    from urllib.parse import quote

    state, notices = State.from_query("seed=" + quote(seed), fixed_seed)
    assert state.seed == "fresh-seed"
    assert notices and notices[0].startswith("seed:")


def test_long_values_are_shortened_in_notices():
    state, notices = State.from_query("algo=" + "x" * 5000, fixed_seed)
    assert len(notices[0]) < 120


def test_parameters_of_other_algorithms_are_dropped_quietly():
    state, notices = State.from_query("algo=fisher-yates&passes=3", fixed_seed)
    assert notices == [] and state.params == {}
    assert "passes" not in state.to_query()


def test_outcome_data_is_the_cli_json_contract():
    state = State(seed="contract", players=2, cards_each=3)
    data = outcome_data(state, play(state))
    assert data["stream"] == 1 and data["algo"] == "fisher-yates" and data["seed"] == "contract"
    assert len(data["order"]) == 52 and len(data["labels"]) == 52
    assert data["hands"] == [data["order"][0:6:2], data["order"][1:6:2]]
    assert State.from_query(data["query"], fixed_seed)[0] == state


def test_a_form_with_an_impossible_deal_is_refused_whole():
    from shufflelab.deal import DealError

    with pytest.raises(DealError, match="cannot deal 9 players × 9 cards = 81 cards from a 52-card deck"):
        State.from_query("players=9&cards=9", fixed_seed, strict_deal=True)


def test_deal_links_leave_out_the_lab_defaults():
    query = State(seed="s").to_query()
    assert "view=" not in query and "n=" not in query and "heat=" not in query and "tseed" not in query
    lab = State(seed="s", view="lab", lab_n=20, heat="exact", tally_seed="t").to_query()
    assert lab.endswith("view=lab&n=20&heat=exact&tseed=t")
