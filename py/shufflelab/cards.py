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

Portable core: runs unchanged on CPython, Pyodide and MicroPython (plain classes with
``__slots__`` instead of dataclasses).
"""

from .errors import ShuffleLabError

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
RANK_WORDS = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
              "8": "eight", "9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king"}
DECK_KINDS = ("standard", "piquet", "euchre", "numbered")
MAX_PACKS = 8
MAX_JOKERS_PER_PACK = 2
MAX_NUMBERED_SIZE = 1_000_000
# The suits as the page draws them (and their outline forms), read as the codes' letters: "A♣" is "AC"
SUIT_SYMBOL_LETTERS = (("♣", "C"), ("♦", "D"), ("♥", "H"), ("♠", "S"), ("♧", "C"), ("♢", "D"), ("♡", "H"),
                       ("♤", "S"))


class DeckError(ShuffleLabError):
    """A deck description that cannot be built; the message names the bad value."""


class Card:
    """One card: everything a view needs, derived from its id and its deck."""

    __slots__ = ("id", "label", "code", "rank", "suit", "colour", "pack", "joker")

    def __init__(self, id, label, code, rank, suit, colour, pack, joker=False):
        self.id = id
        self.label = label
        self.code = code
        self.rank = rank
        self.suit = suit
        self.colour = colour
        self.pack = pack
        self.joker = joker

    def _key(self) -> tuple:
        return (self.id, self.label, self.code, self.rank, self.suit, self.colour, self.pack, self.joker)

    def __eq__(self, other) -> bool:
        return isinstance(other, Card) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "Card(id=%r, label=%r, code=%r)" % (self.id, self.label, self.code)

    @property
    def spoken(self) -> str:
        """Return the card's name as a screen reader should say it: "ten of hearts", "black joker", "item 7"."""
        if self.joker:
            return "%s joker" % self.colour
        if self.suit:
            return "%s of %s" % (RANK_WORDS[self.rank], self.suit)
        return "item %s" % self.label


class DeckSpec:
    """A valid deck description (treat it as immutable); ``ids()`` gives its cards in the frozen unshuffled order."""

    __slots__ = ("kind", "packs", "jokers", "size")

    def __init__(self, kind: str = "standard", packs: int = 1, jokers: int = 0, size: int = 52) -> None:
        self.kind = kind
        self.packs = packs
        self.jokers = jokers
        self.size = size
        check_deck(self)

    def _key(self) -> tuple:
        return (self.kind, self.packs, self.jokers, self.size)

    def __eq__(self, other) -> bool:
        return isinstance(other, DeckSpec) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "DeckSpec(kind=%r, packs=%r, jokers=%r, size=%r)" % self._key()

    @property
    def ranks(self) -> tuple:
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

    def ids(self) -> list:
        """Return the unshuffled deck: ids ``0 .. len-1`` in order."""
        return list(range(len(self)))

    def card(self, card_id: int) -> Card:
        """Return what id ``card_id`` means in this deck."""
        if not 0 <= card_id < len(self):
            raise DeckError("card id %d is not in a %d-card deck" % (card_id, len(self)))
        if self.kind == "numbered":
            return Card(card_id, str(card_id), str(card_id), None, None, None, 0)
        if card_id >= self.regular_count:
            return _joker(card_id, card_id - self.regular_count, self.jokers)
        return _regular_card(card_id, self.ranks)

    def cards(self, ids: list) -> list:
        """Return the cards for ``ids``, in the same order."""
        return [self.card(i) for i in ids]

    def labels(self, ids: list) -> list:
        """Return the label of each id, in order; cheap even for a million numbered items."""
        if self.kind == "numbered":
            return list(map(str, ids))
        table = _card_table(self)
        return [table[i].label for i in ids]

    def codes(self, ids: list) -> list:
        """Return the two-character code of each id (the label for numbered items), in order."""
        if self.kind == "numbered":
            return list(map(str, ids))
        table = _card_table(self)
        return [table[i].code for i in ids]

    def describe(self) -> str:
        """Return a short human description, e.g. '2 standard packs + 4 jokers (108 cards)'."""
        if self.kind == "numbered":
            return "numbered deck of %d" % self.size
        packs = "%d %s pack%s" % (self.packs, self.kind, "s" if self.packs > 1 else "")
        jokers = self.packs * self.jokers
        extra = " + %d joker%s" % (jokers, "s" if jokers > 1 else "") if jokers else ""
        return "%s%s (%d cards)" % (packs, extra, len(self))

    def as_dict(self) -> dict:
        """Return the description as plain data (the keys used by the CLI's JSON)."""
        if self.kind == "numbered":
            return {"kind": self.kind, "size": self.size}
        return {"kind": self.kind, "packs": self.packs, "jokers": self.jokers}


def check_deck(spec: DeckSpec) -> None:
    """Raise DeckError naming the first field out of range."""
    if spec.kind not in DECK_KINDS:
        raise DeckError("unknown deck kind %r; choose one of %s" % (spec.kind, ", ".join(DECK_KINDS)))
    if spec.kind == "numbered":
        if not _whole(spec.size) or not 1 <= spec.size <= MAX_NUMBERED_SIZE:
            raise DeckError(f"a numbered deck has 1 to {MAX_NUMBERED_SIZE:,} items, not {spec.size}")
        return
    if not _whole(spec.packs) or not 1 <= spec.packs <= MAX_PACKS:
        raise DeckError("packs must be 1 to %d, not %s" % (MAX_PACKS, spec.packs))
    if not _whole(spec.jokers) or not 0 <= spec.jokers <= MAX_JOKERS_PER_PACK:
        raise DeckError("jokers per pack must be 0 to %d, not %s" % (MAX_JOKERS_PER_PACK, spec.jokers))


def _whole(value) -> bool:
    """True for an int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def standard_deck() -> DeckSpec:
    """Return the default deck everywhere: one standard 52-card pack."""
    return DeckSpec()


def numbered_deck(size: int) -> DeckSpec:
    """Return an abstract deck of ``size`` items, for studying algorithms."""
    return DeckSpec(kind="numbered", size=size)


_CARD_TABLES = {}  # DeckSpec -> tuple of its cards; at most a few dozen playing-card decks exist


def _card_table(spec: DeckSpec) -> tuple:
    """Every card of a playing-card deck, by id (at most 432 of them), made once per deck."""
    table = _CARD_TABLES.get(spec)
    if table is None:
        table = _CARD_TABLES[spec] = tuple(spec.card(i) for i in range(len(spec)))
    return table


def normal_code(token: str) -> str:
    """Return a typed card code as ``Card.code`` writes it: upper case, a suit symbol as its letter, ``10`` or ``T`` for
    ten as ``0`` ('a♠' and '10h' become 'AS' and '0H'); anything else comes back upper-cased, to match nothing."""
    code = token.upper()
    for symbol, letter in SUIT_SYMBOL_LETTERS:
        code = code.replace(symbol, letter)
    if code.startswith("10"):
        return "0" + code[2:]
    if code.startswith("T") and len(code) == 2:
        return "0" + code[1:]
    return code


def _regular_card(card_id: int, ranks: tuple) -> Card:
    per_suit = len(ranks)
    pack, within = divmod(card_id, 4 * per_suit)
    suit = within // per_suit
    rank = ranks[card_id % per_suit]
    code = ("0" if rank == "10" else rank) + SUIT_CODES[suit]
    return Card(card_id, rank + SUIT_SYMBOLS[suit], code, rank, SUITS[suit], SUIT_COLOURS[suit], pack)


def _joker(card_id: int, joker_index: int, jokers_per_pack: int) -> Card:
    red = joker_index % 2 == 1
    return Card(card_id, "Joker", "X2" if red else "X1", None, None, "red" if red else "black",
                joker_index // jokers_per_pack, True)
