"""Decks as integer ids, and what each id means (a frozen mapping: share links rely on it).

Layout of a playing-card deck of ``packs`` packs with ``jokers`` jokers per pack:

* ids ``0 .. packs*P - 1`` are the regular cards, ``P`` = 4 suits x ranks per suit;
  card ``i`` is in pack ``i // P``; within its pack, suit ``(i % P) // R`` and rank
  ``i % R`` (``R`` ranks per suit). For the standard pack that is seed 003's rule:
  suit ``i // 13``, rank ``i % 13``.
* suits in order: clubs, diamonds, hearts, spades (bridge order);
* ranks in order: A 2 3 4 5 6 7 8 9 10 J Q K; stripped packs keep that order and drop
  ranks: piquet (32) keeps A 7 8 9 10 J Q K, euchre (24) keeps A 9 10 J Q K;
* the jokers follow the regular cards (ids ``packs*P`` on), alternately black then red,
  labelled ``Joker``.

A ``numbered`` deck is ``size`` abstract items, id ``i`` labelled ``i``.
Codes are two characters, rank then suit, as the Deck of Cards API: ``A2345678 9 0 J Q K``
(``0`` is ten) + ``C D H S``; the black joker is ``X1``, the red joker ``X2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

SUITS = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
SUIT_CODES = ("C", "D", "H", "S")
SUIT_COLOURS = ("black", "red", "red", "black")
STANDARD_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANKS_BY_KIND = {
    "standard": STANDARD_RANKS,
    "piquet": ("A", "7", "8", "9", "10", "J", "Q", "K"),
    "euchre": ("A", "9", "10", "J", "Q", "K"),
}
DECK_KINDS = ("standard", "piquet", "euchre", "numbered")
MAX_PACKS = 8
MAX_JOKERS_PER_PACK = 2
MAX_NUMBERED_SIZE = 1_000_000

DeckKind = Literal["standard", "piquet", "euchre", "numbered"]


@dataclass(frozen=True)
class Card:
    """One card: everything a view needs, derived from its id and its deck."""

    id: int
    label: str
    code: str
    rank: str | None
    suit: str | None
    colour: str | None
    pack: int
    joker: bool = False


class DeckError(ValueError):
    """A deck description that cannot be built; the message names the bad value."""


@dataclass(frozen=True)
class DeckSpec:
    """A deck description; ``ids()`` gives its cards in the frozen unshuffled order."""

    kind: DeckKind = "standard"
    packs: int = 1
    jokers: int = 0
    size: int = 52

    def __post_init__(self) -> None:
        check_deck(self)

    @property
    def ranks(self) -> tuple[str, ...]:
        """Ranks per suit, in id order (empty for a numbered deck)."""
        return RANKS_BY_KIND.get(self.kind, ())

    @property
    def regular_count(self) -> int:
        """How many non-joker cards the deck has."""
        if self.kind == "numbered":
            return self.size
        return self.packs * 4 * len(self.ranks)

    def __len__(self) -> int:
        if self.kind == "numbered":
            return self.size
        return self.regular_count + self.packs * self.jokers

    def ids(self) -> list[int]:
        """Return the unshuffled deck: ids ``0 .. len-1`` in order."""
        return list(range(len(self)))

    def card(self, card_id: int) -> Card:
        """Return what id ``card_id`` means in this deck."""
        if not 0 <= card_id < len(self):
            raise DeckError(f"card id {card_id} is not in a {len(self)}-card deck")
        if self.kind == "numbered":
            return Card(card_id, str(card_id), str(card_id), None, None, None, 0)
        if card_id >= self.regular_count:
            return _joker(card_id, card_id - self.regular_count, self.jokers)
        return _regular_card(card_id, self.ranks)

    def cards(self, ids: list[int]) -> list[Card]:
        """Return the cards for ``ids``, in the same order."""
        return [self.card(i) for i in ids]

    def labels(self, ids: list[int]) -> list[str]:
        """Return the label of each id, in order; cheap even for a million numbered items."""
        if self.kind == "numbered":
            return list(map(str, ids))
        table = _card_table(self)
        return [table[i].label for i in ids]

    def codes(self, ids: list[int]) -> list[str]:
        """Return the two-character code of each id (the label for numbered items), in order."""
        if self.kind == "numbered":
            return list(map(str, ids))
        table = _card_table(self)
        return [table[i].code for i in ids]

    def describe(self) -> str:
        """Return a short human description, e.g. '2 standard packs + 4 jokers (108 cards)'."""
        if self.kind == "numbered":
            return f"numbered deck of {self.size}"
        packs = f"{self.packs} {self.kind} pack{'s' if self.packs > 1 else ''}"
        jokers = self.packs * self.jokers
        extra = f" + {jokers} joker{'s' if jokers > 1 else ''}" if jokers else ""
        return f"{packs}{extra} ({len(self)} cards)"

    def as_dict(self) -> dict:
        """Return the description as plain data (the keys used by the CLI and the URL)."""
        if self.kind == "numbered":
            return {"kind": self.kind, "size": self.size}
        return {"kind": self.kind, "packs": self.packs, "jokers": self.jokers}


def check_deck(spec: DeckSpec) -> None:
    """Raise DeckError naming the first field out of range."""
    if spec.kind not in DECK_KINDS:
        raise DeckError(f"unknown deck kind {spec.kind!r}; choose one of {', '.join(DECK_KINDS)}")
    if spec.kind == "numbered":
        if not 1 <= spec.size <= MAX_NUMBERED_SIZE:
            raise DeckError(f"a numbered deck has 1 to {MAX_NUMBERED_SIZE:,} items, not {spec.size}")
        return
    if not 1 <= spec.packs <= MAX_PACKS:
        raise DeckError(f"packs must be 1 to {MAX_PACKS}, not {spec.packs}")
    if not 0 <= spec.jokers <= MAX_JOKERS_PER_PACK:
        raise DeckError(f"jokers per pack must be 0 to {MAX_JOKERS_PER_PACK}, not {spec.jokers}")


def standard_deck() -> DeckSpec:
    """Return the default deck everywhere: one standard 52-card pack."""
    return DeckSpec()


def numbered_deck(size: int) -> DeckSpec:
    """Return an abstract deck of ``size`` items, for studying algorithms."""
    return DeckSpec(kind="numbered", size=size)


@lru_cache(maxsize=64)
def _card_table(spec: DeckSpec) -> tuple[Card, ...]:
    """Every card of a playing-card deck, by id (at most 432 of them)."""
    return tuple(spec.card(i) for i in range(len(spec)))


def _regular_card(card_id: int, ranks: tuple[str, ...]) -> Card:
    per_suit = len(ranks)
    pack, within = divmod(card_id, 4 * per_suit)
    suit = within // per_suit
    rank = ranks[card_id % per_suit]
    code = ("0" if rank == "10" else rank) + SUIT_CODES[suit]
    return Card(
        id=card_id,
        label=rank + SUIT_SYMBOLS[suit],
        code=code,
        rank=rank,
        suit=SUITS[suit],
        colour=SUIT_COLOURS[suit],
        pack=pack,
    )


def _joker(card_id: int, joker_index: int, jokers_per_pack: int) -> Card:
    red = joker_index % 2 == 1
    return Card(
        id=card_id,
        label="Joker",
        code="X2" if red else "X1",
        rank=None,
        suit=None,
        colour="red" if red else "black",
        pack=joker_index // jokers_per_pack,
        joker=True,
    )
