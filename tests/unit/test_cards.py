"""Decks: the frozen id mapping, labels, codes, jokers, stripped and numbered decks."""

import pytest

from shufflelab.cards import DeckError, DeckSpec, numbered_deck, standard_deck
from shufflelab.errors import ShuffleLabError


def test_default_deck_is_one_standard_pack_in_order():
    deck = standard_deck()
    assert len(deck) == 52
    assert deck.ids() == list(range(52))


def test_standard_ids_follow_seed_003_suit_and_rank_rule():
    deck = standard_deck()
    for i in range(52):
        card = deck.card(i)
        assert card.suit == ("clubs", "diamonds", "hearts", "spades")[i // 13]
        assert card.rank == ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")[i % 13]


@pytest.mark.parametrize(
    "card_id, label, code, colour",
    [(0, "A♣", "AC", "black"), (9, "10♣", "0C", "black"), (22, "10♦", "0D", "red"),
     (35, "10♥", "0H", "red"), (38, "K♥", "KH", "red"), (51, "K♠", "KS", "black"), (39, "A♠", "AS", "black")],
)
def test_labels_codes_and_colours(card_id, label, code, colour):
    card = standard_deck().card(card_id)
    assert (card.label, card.code, card.colour) == (label, code, colour)


def test_codes_are_unique_two_characters_in_one_pack():
    codes = [c.code for c in standard_deck().cards(list(range(52)))]
    assert len(set(codes)) == 52
    assert all(len(code) == 2 for code in codes)


def test_two_packs_and_four_jokers_make_seed_003s_108_cards():
    deck = DeckSpec(packs=2, jokers=2)
    assert len(deck) == 108
    assert deck.card(52).label == "A♣" and deck.card(52).pack == 1
    jokers = [deck.card(i) for i in range(104, 108)]
    assert all(card.joker for card in jokers)
    assert [card.code for card in jokers] == ["X1", "X2", "X1", "X2"]
    assert [card.colour for card in jokers] == ["black", "red", "black", "red"]
    assert [card.pack for card in jokers] == [0, 0, 1, 1]
    assert deck.describe() == "2 standard packs + 4 jokers (108 cards)"


def test_eight_packs_with_jokers_is_the_largest_deck():
    assert len(DeckSpec(packs=8, jokers=2)) == 432
    assert len(DeckSpec(packs=8)) == 416


@pytest.mark.parametrize(
    "kind, size, ranks",
    [("piquet", 32, ["A", "7", "8", "9", "10", "J", "Q", "K"]), ("euchre", 24, ["A", "9", "10", "J", "Q", "K"])],
)
def test_stripped_decks_keep_rank_order(kind, size, ranks):
    deck = DeckSpec(kind=kind)
    assert len(deck) == size
    cards = deck.cards(deck.ids())
    assert [c.rank for c in cards[: len(ranks)]] == ranks
    assert [c.suit for c in cards[:: len(ranks)]] == ["clubs", "diamonds", "hearts", "spades"]
    assert len({c.code for c in cards}) == size


def test_numbered_deck_labels_are_ids():
    deck = numbered_deck(1_000_000)
    assert len(deck) == 1_000_000
    assert deck.card(999_999).label == "999999"
    assert deck.card(0).suit is None


@pytest.mark.parametrize(
    "make, message",
    [(lambda: DeckSpec(packs=0), "packs must be 1 to 8, not 0"),
     (lambda: DeckSpec(packs=9), "packs must be 1 to 8, not 9"),
     (lambda: DeckSpec(jokers=3), "jokers per pack must be 0 to 2, not 3"),
     (lambda: numbered_deck(0), "1 to 1,000,000 items, not 0"),
     (lambda: numbered_deck(1_000_001), "not 1000001"),
     (lambda: DeckSpec(kind="tarot"), "unknown deck kind 'tarot'"),
     (lambda: DeckSpec(packs=True), "packs must be 1 to 8, not True"),
     (lambda: DeckSpec(jokers=1.0), "not 1.0"),
     (lambda: numbered_deck("52"), "not 52")],
)
def test_bad_decks_are_refused_naming_the_value(make, message):
    with pytest.raises(DeckError, match=message) as refused:
        make()
    assert isinstance(refused.value, ShuffleLabError)


def test_card_outside_deck_is_refused():
    with pytest.raises(DeckError, match="card id 52 is not in a 52-card deck"):
        standard_deck().card(52)


def test_bulk_labels_and_codes_match_single_cards():
    for deck in (DeckSpec(packs=2, jokers=2), DeckSpec(kind="piquet"), numbered_deck(30)):
        ids = list(reversed(deck.ids()))
        assert deck.labels(ids) == [deck.card(i).label for i in ids]
        assert deck.codes(ids) == [deck.card(i).code for i in ids]


def test_deck_specs_are_equal_by_value_and_hashable():
    assert DeckSpec(packs=2, jokers=1) == DeckSpec("standard", 2, 1) and DeckSpec() == standard_deck()
    assert hash(DeckSpec(packs=2, jokers=1)) == hash(DeckSpec("standard", 2, 1))
    assert len({DeckSpec(), standard_deck(), DeckSpec(kind="piquet"), numbered_deck(52)}) == 3
    assert DeckSpec() != numbered_deck(52) and DeckSpec() != ("standard", 1, 0, 52)


def test_cards_are_equal_by_value():
    deck = DeckSpec(packs=2)
    assert deck.card(0) == DeckSpec(packs=2).card(0) and hash(deck.card(0)) == hash(standard_deck().card(0))
    assert deck.card(0) != deck.card(52)  # the same face from another pack


@pytest.mark.parametrize("kind, packs, jokers, size, card_id, spoken", [
    ("standard", 1, 0, 52, 0, "ace of clubs"),
    ("standard", 1, 0, 52, 9, "ten of clubs"),
    ("standard", 1, 0, 52, 38, "king of hearts"),
    ("standard", 1, 2, 52, 52, "black joker"),
    ("standard", 1, 2, 52, 53, "red joker"),
    ("piquet", 1, 0, 52, 1, "seven of clubs"),
    ("euchre", 2, 0, 52, 47, "king of spades"),
    ("numbered", 1, 0, 12, 7, "item 7"),
])
def test_every_card_has_a_spoken_name(kind, packs, jokers, size, card_id, spoken):
    assert DeckSpec(kind, packs, jokers, size).card(card_id).spoken == spoken
