"""Sealed deals: the golden vectors (and an independent JavaScript derivation), the preimage's properties, the reveal."""

import hashlib
import hmac
import importlib.util
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shufflelab import catalog, custom
from shufflelab.cards import MAX_JOKERS_PER_PACK, MAX_PACKS, DeckSpec
from shufflelab.deal import DEAL_STYLES
from shufflelab.errors import ShuffleLabError
from shufflelab.link import MAX_SEED_LENGTH, DealSpec, Link, View, outcome_of, read_link
from shufflelab.rng import StreamRng, new_seed
from shufflelab.seal import (
    SCHEME,
    SealError,
    SealMismatch,
    check_commitment,
    check_player_seed,
    commitment,
    commitment_bytes,
    is_sealed,
    matches,
    mixed_key,
    play_sealed,
    public_link,
    read_preimage,
    read_reveal_link,
    reveal_link,
    seal_seed_problem,
    verify,
)
from shufflelab.urlquery import parse_query

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden"
GOLDEN = json.loads((GOLDEN_DIR / "seal_v1.json").read_text(encoding="utf-8"))
VECTORS = GOLDEN["seals"]


def spec_of(vector: dict) -> DealSpec:
    return DealSpec(vector["algo"], vector["params"], vector["seed"], DeckSpec(**vector["deck"]),
                    vector["players"], vector["cards_each"], vector["style"])


def cards(outcome) -> dict:
    return {"order": outcome.order, "hands": outcome.deal.hands, "stock": outcome.deal.stock}


def vector_id(vector: dict) -> str:
    return "%s-%s-%s" % (vector["algo"], vector["commitment"][:8], "player" if vector["player_seed"] else "plain")


# --- the golden vectors -----------------------------------------------------------------------------


@pytest.mark.parametrize("vector", VECTORS, ids=vector_id)
def test_golden_commitments_never_change(vector):
    spec, player_seed = spec_of(vector), vector["player_seed"]
    with_player_seed = player_seed is not None
    assert commitment_bytes(spec, with_player_seed) == vector["preimage"].encode("utf-8")
    assert commitment(spec, with_player_seed) == vector["commitment"]
    # the commitment is plain SHA-256 of the preimage, nothing more
    assert hashlib.sha256(vector["preimage"].encode("utf-8")).hexdigest() == vector["commitment"]
    assert read_preimage(vector["preimage"].encode("utf-8")) == (spec, with_player_seed)


@pytest.mark.parametrize("vector", VECTORS, ids=vector_id)
def test_golden_sealed_deals_never_change(vector):
    spec, player_seed = spec_of(vector), vector["player_seed"]
    want = {key: vector[key] for key in ("order", "hands", "stock")}
    assert cards(play_sealed(spec, player_seed)) == want
    assert cards(verify(vector["commitment"], spec, player_seed)) == want


@pytest.mark.parametrize("vector", [v for v in VECTORS if v["player_seed"] is None], ids=vector_id)
def test_a_golden_seal_without_a_player_seed_deals_the_plain_v1_cards(vector):
    assert cards(outcome_of(spec_of(vector))) == {key: vector[key] for key in ("order", "hands", "stock")}


def test_the_golden_file_covers_both_kinds_and_every_deal_style():
    assert GOLDEN["scheme"] == SCHEME
    assert {v["player_seed"] is None for v in VECTORS} == {True, False}
    assert {v["style"] for v in VECTORS} == set(DEAL_STYLES)
    assert {v["deck"]["kind"] for v in VECTORS} == {"standard", "piquet", "euchre", "numbered"}
    assert any(v["params"] for v in VECTORS)
    assert len(set(v["commitment"] for v in VECTORS)) == len(VECTORS)


def test_the_generator_has_nothing_to_append():
    spec = importlib.util.spec_from_file_location("make_seal_vectors", GOLDEN_DIR / "make_seal_vectors.py")
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    golden = json.loads((GOLDEN_DIR / "seal_v1.json").read_text(encoding="utf-8"))
    assert generator.append_missing(golden) == 0
    # and every case it would write is the vector already there, byte for byte
    made = {(v["preimage"], v["player_seed"]): v for v in (generator.vector(s, p) for s, p in generator.cases())}
    assert [made[(v["preimage"], v["player_seed"])] for v in VECTORS] == VECTORS


@pytest.mark.skipif(shutil.which("node") is None, reason="node is installed by make setup")
def test_the_javascript_reference_derives_the_same_commitments_and_cards():
    script = GOLDEN_DIR / "seal_v1_reference.mjs"
    derived = subprocess.run(["node", str(script), str(GOLDEN_DIR / "seal_v1.json")],
                             capture_output=True, text=True, check=True)
    rows = json.loads(derived.stdout)
    assert len(rows) == len(VECTORS)
    for row, vector in zip(rows, VECTORS, strict=True):
        assert row == {key: vector[key] for key in row}
    assert sum("order" in row for row in rows) >= 4  # fisher-yates deals, with and without a player seed


# --- properties ---------------------------------------------------------------------------------------

seed_text = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=MAX_SEED_LENGTH)
# text that looks like the format: line breaks are refused, these are not
tricky_text = st.lists(st.sampled_from(["=", "\u2028", "\u2029", " ", "seed", "player-seed=yes", "é", "🂡", "\\"]),
                       min_size=1, max_size=12).map("".join)
seeds = st.one_of(seed_text, tricky_text)
decks = st.one_of(
    st.builds(DeckSpec, kind=st.sampled_from(["standard", "piquet", "euchre"]),
              packs=st.integers(1, MAX_PACKS), jokers=st.integers(0, MAX_JOKERS_PER_PACK)),
    st.builds(DeckSpec, kind=st.just("numbered"), size=st.integers(1, 1000)),
)


@st.composite
def deals(draw, deck_strategy=decks):
    entry = draw(st.sampled_from(catalog.ALGORITHMS))
    params = [(p.name, draw(st.integers(p.minimum, p.maximum))) for p in entry.params]
    deck = draw(deck_strategy)
    players = draw(st.integers(1, min(52, len(deck))))
    cards_each = draw(st.integers(0, len(deck) // players))
    return DealSpec(entry.id, params, draw(seeds), deck, players, cards_each, draw(st.sampled_from(DEAL_STYLES)))


def _other(draw, choices, current):
    return draw(st.sampled_from([c for c in choices if c != current]))


@st.composite
def changed(draw, spec: DealSpec):
    """Return ``(field, spec with that one field changed, still a valid deal)``."""
    deck = spec.deck
    fields = ["algo", "seed", "deck", "players", "cards", "style"]
    fields += ["param"] if spec.params else []
    fields += ["size"] if deck.kind == "numbered" else ["packs", "jokers"]
    name = draw(st.sampled_from(fields))
    if name == "algo":
        new = spec.replace(algo=_other(draw, catalog.ids(), spec.algo))
    elif name == "param":
        key = draw(st.sampled_from([key for key, _ in spec.params]))
        param = next(p for p in spec.algorithm.params if p.name == key)
        value = dict(spec.params)[key]
        new = spec.replace(params=[(k, (value + 1 if value < param.maximum else value - 1) if k == key else v)
                                   for k, v in spec.params])
    elif name == "seed":
        new = spec.replace(seed=draw(seeds.filter(lambda s: s != spec.seed)))
    elif name == "deck":
        kind = _other(draw, ("standard", "piquet", "euchre", "numbered"), deck.kind)
        new_deck = DeckSpec(kind="numbered", size=len(deck)) if kind == "numbered" else DeckSpec(kind, MAX_PACKS, 2)
        assume(spec.players * spec.cards_each <= len(new_deck))
        new = spec.replace(deck=new_deck)
    elif name in ("packs", "jokers", "size"):
        low, high = {"packs": (1, MAX_PACKS), "jokers": (0, MAX_JOKERS_PER_PACK), "size": (1, 1000)}[name]
        value = getattr(deck, name)
        values = {"kind": deck.kind, "packs": deck.packs, "jokers": deck.jokers, "size": deck.size,
                  name: value + 1 if value < high else value - 1}
        new_deck = DeckSpec(**values)
        assume(spec.players * spec.cards_each <= len(new_deck))
        new = spec.replace(deck=new_deck)
    elif name == "players":
        most = min(52, len(deck) // spec.cards_each if spec.cards_each else 52)
        assume(most > 1)
        new = spec.replace(players=_other(draw, range(1, most + 1), spec.players))
    elif name == "cards":
        new = spec.replace(cards_each=_other(draw, range(0, len(deck) // spec.players + 1), spec.cards_each))
    else:
        new = spec.replace(style=_other(draw, DEAL_STYLES, spec.style))
    return name, new


@given(deals(), st.booleans())
def test_the_preimage_reads_back_as_the_deal_so_no_two_deals_share_one(spec, with_player_seed):
    # read_preimage(commitment_bytes(x)) == x for every x: commitment_bytes is one-to-one
    data = commitment_bytes(spec, with_player_seed)
    assert read_preimage(data) == (spec, with_player_seed)
    assert data.startswith(b"shufflelab-seal-v1\n") and data.endswith(b"\n")
    assert data.count(b"\n") == 11 + len(spec.params) - (spec.deck.kind == "numbered")


@given(st.data())
def test_any_change_to_any_field_changes_the_commitment(data):
    spec = data.draw(deals())
    with_player_seed = data.draw(st.booleans())
    name, new = data.draw(changed(spec))
    assert new != spec, name
    assert commitment_bytes(new, with_player_seed) != commitment_bytes(spec, with_player_seed)
    assert commitment(new, with_player_seed) != commitment(spec, with_player_seed), name
    # and whether a player seed is mixed in is sealed too
    assert commitment(spec, not with_player_seed) != commitment(spec, with_player_seed)


@given(deals(), deals(), st.booleans(), st.booleans())
def test_two_different_deals_never_give_the_same_bytes(first, second, first_flag, second_flag):
    same_bytes = commitment_bytes(first, first_flag) == commitment_bytes(second, second_flag)
    assert same_bytes == ((first, first_flag) == (second, second_flag))


def test_only_what_decides_the_cards_is_sealed():
    # a standard deck's unused size, like a link's, is not part of the deal
    assert commitment(DealSpec(seed="s", deck=DeckSpec(size=10))) == commitment(DealSpec(seed="s"))
    assert commitment(DealSpec(seed="s", deck=DeckSpec("numbered", packs=3, size=52))) == commitment(
        DealSpec(seed="s", deck=DeckSpec("numbered", size=52)))
    # default parameters are written out, so they are the same deal as given ones
    assert commitment(DealSpec("riffle-gsr", None, "s")) == commitment(DealSpec("riffle-gsr", {"passes": 7}, "s"))


small_decks = st.builds(DeckSpec, kind=st.just("numbered"), size=st.integers(1, 60))


@settings(max_examples=60, deadline=None)  # cut-insert runs up to 100,000 repetitions
@given(deals(small_decks))
def test_without_a_player_seed_a_sealed_deal_is_the_plain_v1_deal(spec):
    assert play_sealed(spec) == outcome_of(spec)
    assert verify(commitment(spec), spec) == outcome_of(spec)


@settings(max_examples=60, deadline=None)  # cut-insert runs up to 100,000 repetitions
@given(deals(st.just(DeckSpec())), seeds, seeds)
def test_a_player_seed_changes_the_cards_reproducibly(spec, player_seed, other_player_seed):
    assume(spec.algo != "none" and player_seed != other_player_seed)
    spec = spec.replace(params=())  # default parameters: one cut-insert or riffle pass has few outcomes
    mixed = play_sealed(spec, player_seed)
    assert mixed == play_sealed(spec, player_seed) == verify(commitment(spec, True), spec, player_seed)
    # 52 cards: two streams give the same order with chance 1/52! for a fair shuffle, and at
    # most about 2^-32 for the weakest here (c-rand draws a 32-bit seed)
    assert mixed.order != outcome_of(spec).order
    assert mixed.order != play_sealed(spec, other_player_seed).order


@given(seeds, seeds, seeds, seeds)
def test_the_mixed_key_is_one_to_one_and_never_a_plain_seeds_key(dealer, player, other_dealer, other_player):
    key = mixed_key(dealer, player)
    assert key.startswith(b"shufflelab-v1-mix\x00") and b"\x00" not in dealer.encode("utf-8")
    assert key[-1] != 0  # HMAC pads short keys with zeros: a key ending in 0x00 would equal a shorter one
    assert (key == mixed_key(other_dealer, other_player)) == ((dealer, player) == (other_dealer, other_player))
    # the same text split elsewhere between the two seeds is another key
    joined = dealer + player
    for cut in range(1, len(joined)):
        if cut != len(dealer) and len(joined[:cut]) <= MAX_SEED_LENGTH and len(joined[cut:]) <= MAX_SEED_LENGTH:
            assert mixed_key(joined[:cut], joined[cut:]) != key
    # the stream is HMAC-SHA256 with that key, as the plain stream is with a seed's UTF-8
    assert StreamRng(key).block(3) == hmac.digest(key, (3).to_bytes(8, "big"), "sha256")


def test_the_mixed_key_is_length_prefixed_as_documented():
    assert mixed_key("ab", "c") == b"shufflelab-v1-mix\x00" + b"\x00\x00\x00\x02ab" + b"\x00\x00\x00\x01c"
    assert mixed_key("a", "bc") != mixed_key("ab", "c")
    # lengths count UTF-8 bytes, not characters
    assert mixed_key("é", "🂡") == b"shufflelab-v1-mix\x00\x00\x00\x00\x02\xc3\xa9\x00\x00\x00\x04\xf0\x9f\x82\xa1"


# --- the reveal, its errors, and weak seeds -----------------------------------------------------------


def test_verify_refuses_a_deal_that_does_not_match_in_one_line():
    spec = DealSpec(seed="golden seal")
    sealed = commitment(spec)
    with pytest.raises(SealMismatch) as caught:
        verify(sealed, spec.replace(seed="golden seal!"))
    assert "\n" not in str(caught.value) and "not to the commitment " + sealed in str(caught.value)
    # a deal sealed with a player seed does not verify without it, nor the other way round
    with pytest.raises(SealMismatch):
        verify(sealed, spec, "player")
    with pytest.raises(SealMismatch):
        verify(commitment(spec, True), spec)
    assert isinstance(caught.value, SealError) and isinstance(caught.value, ShuffleLabError)


def test_matches_accepts_upper_case_and_spaces_and_nothing_else():
    spec = DealSpec(seed="golden seal")
    sealed = commitment(spec)
    assert matches(" " + sealed.upper() + "\n", spec) and not matches(sealed, spec, True)
    assert check_commitment(sealed.upper()) == sealed
    for bad in ("", sealed[:-1], sealed + "0", sealed[:-1] + "g", "0x" + sealed[2:], sealed[:32] + " " + sealed[33:]):
        with pytest.raises(SealError, match="a commitment is 64 hexadecimal digits"):
            matches(bad, spec)


@pytest.mark.parametrize("player_seed, problem", [("", "is empty"), ("tab\there", "control character (U+0009)"),
                                                   ("x" * 257, "longer than 256"), ("\ud800", "unpaired surrogate")])
def test_a_bad_player_seed_is_refused_naming_it(player_seed, problem):
    for attempt in (lambda: check_player_seed(player_seed), lambda: mixed_key("s", player_seed),
                    lambda: play_sealed(DealSpec(seed="s"), player_seed),
                    lambda: verify(commitment(DealSpec(seed="s"), True), DealSpec(seed="s"), player_seed)):
        with pytest.raises(SealError, match="the player seed .*" + re.escape(problem)):
            attempt()


def test_short_seeds_are_called_weak_and_fresh_ones_are_not():
    assert seal_seed_problem(new_seed()) is None
    assert seal_seed_problem("x" * 43) is None  # length is all it can see: the CLI says so
    assert "shorter than 43 characters" in seal_seed_problem("hunter2")
    assert "guessed from the commitment" in seal_seed_problem("x" * 42)


def test_a_weak_seed_is_found_from_the_commitment_alone():
    # why the docs ask for fresh seeds: anyone can try guesses against a published commitment
    spec = DealSpec(seed="1234")
    published = commitment(spec)
    found = [guess for guess in map(str, range(10000)) if commitment(spec.replace(seed=guess)) == published]
    assert found == ["1234"]


@pytest.mark.parametrize("change, message", [
    (lambda t: t.replace("shufflelab-seal-v1", "shufflelab-seal-v2"), "starts with the line shufflelab-seal-v1"),
    (lambda t: t[:-1], "ends with a line break"),
    (lambda t: t.replace("players=4\n", "players=04\n"), "not the canonical preimage"),
    (lambda t: t.replace("players=4\ncards=5\n", "cards=5\nplayers=4\n"), "not the canonical preimage"),
    (lambda t: t.replace("players=4\n", "players=4\nplayers=5\n"), "not the canonical preimage"),
    (lambda t: t + "extra=1\n", "not the canonical preimage"),
    (lambda t: t.replace("size=52\n", "size=52\npacks=1\n"), "not the canonical preimage"),
    (lambda t: t.replace("players=4\n", ""), "needs a players line"),
    (lambda t: t.replace("players=4\n", "players=+4\n"), "players is a whole number, not '\\+4'"),
    (lambda t: t.replace("player-seed=no", "player-seed=maybe"), "player-seed is yes or no"),
    (lambda t: t.replace("stream=1\n", "stream=1\nnot a pair\n"), "is not key=value"),
])
def test_read_preimage_takes_only_the_canonical_bytes(change, message):
    text = commitment_bytes(DealSpec(seed="s", deck=DeckSpec("numbered", size=52))).decode("utf-8")
    assert read_preimage(text.encode("utf-8"))[0].seed == "s"
    with pytest.raises(SealError, match=message):
        read_preimage(change(text).encode("utf-8"))


def test_read_preimage_refuses_bytes_that_are_not_utf8():
    with pytest.raises(SealError, match="UTF-8"):
        read_preimage(b"shufflelab-seal-v1\n\xff\n")


@pytest.fixture
def line_breaking_algorithm():
    entry = catalog.register(catalog.Algorithm("bad\nid", "Bad", "a test", "An id with a line break.", catalog.BIASED,
                                               lambda cards, rng: list(cards), no_matrix_reason="a test"))
    yield entry
    catalog.unregister(entry.id)


def test_a_registered_id_that_could_break_a_line_is_refused(line_breaking_algorithm):
    with pytest.raises(SealError, match=r"algo 'bad\ufffdid' contains a control character \(U\+000A\)"):
        commitment(DealSpec("bad\nid", None, "s"))


@pytest.fixture
def custom_shuffle():
    entry = custom.register_custom("def shuffle(cards, rng):\n    cards.reverse()\n")
    yield entry
    catalog.unregister(entry.id)


def test_a_custom_shuffle_is_refused_because_the_commitment_would_not_cover_its_code(custom_shuffle):
    spec = DealSpec(custom_shuffle.id, None, new_seed())
    for seal_it in (commitment, commitment_bytes, lambda s: public_link(Link(s)), lambda s: verify("0" * 64, s)):
        with pytest.raises(SealError) as refused:
            seal_it(spec)
        assert str(refused.value) == ("a custom shuffle cannot be sealed: the commitment would not cover its code, "
                                      "so no one could re-derive the deal from the reveal")


# --- the two links: public before the game, reveal after it ------------------------------------------

STRONG = "3q2-7wEWOBLxYNvI1m6A8X3hTxG0BnJ8v8cOaxTqO1w"


@pytest.mark.parametrize("player_seed", [None, "🂡 lucky"])
def test_the_public_link_has_the_commitment_and_the_deal_but_never_the_seed(player_seed):
    spec = DealSpec("riffle-gsr", {"passes": 3}, STRONG, DeckSpec("standard", packs=2), 3, 7, "blocks",
                    player_seed=player_seed)
    dealer = Link(spec, View("lab", 20, tally_seed="t"))  # the dealer may be anywhere on the page
    public = public_link(dealer)
    query = public.to_query()
    pairs = dict(parse_query(query))
    assert "seed" not in pairs and STRONG not in query
    assert pairs["commit"] == commitment(spec) and pairs.get("pseed") == player_seed
    deal_pairs = [(k, v) for k, v in parse_query(Link(spec).to_query()) if k != "seed"]
    assert parse_query(query) == deal_pairs + [("commit", commitment(spec))]  # the deal's fields, then commit
    back, notices = read_link(query, lambda: "stand-in")
    assert notices == [] and back.seed_withheld and back == public_link(back)  # opened, it is its own public link
    assert back.to_query() == query and "seed" not in back.values()
    assert reveal_link(back) is None  # whoever opens it has no seed to reveal


def test_the_reveal_link_reproduces_and_verifies_the_deal():
    spec = DealSpec("fisher-yates", None, STRONG, DeckSpec("standard"), 4, 5, "round-robin", player_seed="p")
    query = reveal_link(Link(spec)).to_query()
    back, notices = read_link(query)
    assert notices == [] and not back.seed_withheld and back.deal == spec
    assert verify(back.view.commitment, back.deal) == outcome_of(spec)
    assert read_reveal_link(" https://example.org/lab/?" + query + "#top\n") == (commitment(spec), spec)


@pytest.mark.parametrize("url, message", [
    ("https://example.org/?algo=fisher-yates", "carries no seed=; a reveal link has the revealed seed"),
    ("https://example.org/?seed=&pseed=p", "carries no seed="),  # the page would deal a fresh seed: it proves nothing
    ("https://example.org/?seed=s&players=0", "the link cannot be checked as it is: Players '0' is outside 1 to 52"),
])
def test_a_reveal_link_the_page_would_correct_or_deal_afresh_is_refused(url, message):
    with pytest.raises(SealError, match=re.escape(message)):
        read_reveal_link(url)


def test_a_link_is_sealed_by_a_commitment_or_a_player_seed_and_a_seedless_one_without_them_stays_a_fresh_deal():
    spec = DealSpec(seed=STRONG)
    assert not is_sealed(Link(spec))
    assert is_sealed(Link(spec, View(commitment=commitment(spec))))
    assert is_sealed(Link(spec.replace(player_seed="p")))
    plain, notices = read_link("players=3", lambda: "fresh")  # no seed, no commitment: a fresh deal, as in v1
    assert notices == [] and not plain.seed_withheld and plain.deal.seed == "fresh" and "seed=fresh" in plain.to_query()
    with pytest.raises(ShuffleLabError, match="needs the commitment"):
        Link(spec, View(), seed_withheld=True)
