"""The cheater's view: the whole deck of a clock-seeded deal, from the few cards one player sees.

Seed 003's shuffle (``algorithms.c_rand``) seeds the ANSI C ``rand()`` with ``srand``, and a
game that calls ``srand(time(NULL))`` has as many decks as seconds in the window it could have
dealt in: 3,600 in an hour. A player who sees their own cards tries every seed of the window,
keeps those that put the same cards on top, and, once one is left, knows every other hand. The
1999 online-poker case (Arkin, Hill, Marks, Schmid, Walls and McGraw, "How We Learned to Cheat
at Online Poker: A Study in Software Security", Cigital, 1999) did this with a clock in
milliseconds. This is why a deal must be seeded from the operating system, never from the
clock: the project's own deals draw 256 bits from it (``rng.new_seed``).

A seed's deck is the port's (``algorithms.c_rand`` with ``rng.CRand``). To test a seed this
traces each seen position back through the 52 swaps instead of shuffling the whole deck, and
stops at the first seen card that differs: one seed in 52 passes the top card. CPython and
Pyodide, standard library only.
"""

from .cards import normal_code, standard_deck
from .errors import ShuffleLabError, quoted
from .rng import CRand

SEED_BITS = 32  # srand takes an unsigned int
MAX_SEEDS = 1 << SEED_BITS
CARDS = 52  # seed 003 deals one standard pack
_MULTIPLIER, _INCREMENT, _MASK = 1103515245, 12345, (1 << 32) - 1


def _jump_table(steps: int) -> tuple:
    """Return (A_i, C_i) for i = 1..steps: the LCG's state after i steps is (A_i·seed + C_i) mod 2^32."""
    table, multiplier, increment = [], 1, 0
    for _ in range(steps):
        multiplier = (multiplier * _MULTIPLIER) & _MASK
        increment = (increment * _MULTIPLIER + _INCREMENT) & _MASK
        table.append((multiplier, increment))
    return tuple(table)


_JUMPS = _jump_table(CARDS)


def deal_of(seed: int, n: int = CARDS) -> list:
    """Return the deck (ids, top first) seed 003's shuffle deals after ``srand(seed)``: new-deck order, then for each i,
    swap card i with card rand() % n."""
    generator = CRand(seed)
    deck = list(range(n))
    for i in range(n):
        j = generator.rand() % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def card_at(seed: int, position: int) -> int:
    """Return the card ``deal_of(seed)`` puts at ``position`` of 52, by tracing the position back through the swaps."""
    for i in range(CARDS - 1, -1, -1):
        multiplier, increment = _JUMPS[i]  # the state of the (i+1)th rand(), which chose swap i
        j = (((multiplier * seed + increment) & _MASK) >> 16 & 0x7FFF) % CARDS
        if position == i:
            position = j
        elif position == j:
            position = i
    return position  # the deck starts in new-deck order: the card's id is the place it started from


def matches(seed: int, seen: list) -> bool:
    """True if ``srand(seed)`` deals ``seen`` (ids) as its top cards, in order."""
    for position, card in enumerate(seen):
        if card_at(seed, position) != card:
            return False
    return True


class Search:
    """A search of a window of srand seeds for those that deal the seen cards on top: resumable in slices."""

    def __init__(self, seen: list, first: int, last: int) -> None:
        check_seen(seen)
        check_window(first, last)
        self.seen, self.first, self.last = list(seen), first, last
        self.next = first  # the next seed to try
        self.found = []  # the seeds that match, in increasing order
        self.narrowing = [0] * len(seen)  # how many seeds matched the first 1, 2, ... seen cards

    @property
    def searched(self) -> int:
        """The seeds tried so far."""
        return self.next - self.first

    @property
    def done(self) -> bool:
        """True once every seed of the window is tried."""
        return self.next > self.last

    def step(self, count: int) -> None:
        """Try the next ``count`` seeds (fewer at the window's end)."""
        seen, narrowing, found = self.seen, self.narrowing, self.found
        stop = min(self.last + 1, self.next + count)
        for seed in range(self.next, stop):
            for position, card in enumerate(seen):
                if card_at(seed, position) != card:
                    break
                narrowing[position] += 1
            else:
                found.append(seed)
        self.next = stop

    def run(self) -> "Search":
        """Try every seed left; return this search."""
        self.step(self.last + 1 - self.next)
        return self


def read_seen(text: str) -> list:
    """Return the ids of the seen cards, top first, written as ids 0..51 or card codes (AS 10H A♠) as ``audit`` reads
    them, separated by spaces or commas; raise ShuffleLabError naming the first that is neither."""
    deck = standard_deck()
    codes = dict(zip(deck.codes(deck.ids()), deck.ids()))
    seen = []
    for token in text.replace(",", " ").split():
        if token.isdigit() and token.isascii():
            card = int(token) if len(token) <= 3 else CARDS
            if card >= CARDS:
                raise ShuffleLabError(f"card {quoted(token, 20)} is not a card id: ids are 0 to {CARDS - 1}")
        else:
            card = codes.get(normal_code(token))
            if card is None:
                raise ShuffleLabError(f"{quoted(token, 20)} is not a card id or code (0 to {CARDS - 1}, or AS, 10H, A♠)")
        seen.append(card)
    check_seen(seen)
    return seen


def read_window(text: str) -> tuple:
    """Return (first, last) from 'A-B', an inclusive range of srand seeds; raise ShuffleLabError naming it otherwise."""
    first, dash, last = text.strip().partition("-")
    if not dash or not (first.isdigit() and first.isascii() and last.isdigit() and last.isascii()):
        raise ShuffleLabError(f"seeds {quoted(text, 40)} are not a range A-B of whole numbers, e.g. 1700000000-1700003599")
    if len(first) > 10 or len(last) > 10:
        raise ShuffleLabError(f"seeds {quoted(text, 40)} go past 2^32: srand takes 0 to {MAX_SEEDS - 1}")
    check_window(int(first), int(last))
    return int(first), int(last)


def check_seen(seen: list) -> None:
    """Raise ShuffleLabError unless ``seen`` is 1 to 52 different cards of one standard pack (ids)."""
    if not seen:
        raise ShuffleLabError("no cards seen: give the top cards in order, e.g. AS 10H 3C")
    if len(seen) > CARDS:
        raise ShuffleLabError(f"{len(seen)} cards seen; a pack has {CARDS}")
    for place, card in enumerate(seen):
        if not isinstance(card, int) or not 0 <= card < CARDS:
            raise ShuffleLabError(f"card {place + 1} is not a card of a standard pack")
        if card in seen[:place]:
            raise ShuffleLabError(f"{standard_deck().card(card).code} is seen twice (cards {seen.index(card) + 1} "
                                  f"and {place + 1})")


def check_window(first: int, last: int) -> None:
    """Raise ShuffleLabError unless first..last is a non-empty range of 32-bit srand seeds."""
    if not 0 <= first <= last < MAX_SEEDS:
        raise ShuffleLabError(f"the seeds {first}-{last} are not a range of srand seeds: 0 <= A <= B < 2^32")


def seen_words(search: Search) -> list:
    """Say how the candidates narrowed as each seen card was used, one line a card."""
    deck = standard_deck()
    lines = []
    for position, (card, left) in enumerate(zip(search.seen, search.narrowing)):
        lines.append(f"card {position + 1}, {deck.card(card).label}: {left:,} of {search.searched:,} seeds deal it "
                     f"so far")
    return lines


def verdict_words(search: Search) -> str:
    """Say in one sentence what the search found."""
    count = len(search.found)
    window = f"{search.searched:,} seeds"
    if count == 1:
        return (f"Found: one seed of {window} deals these cards ({search.found[0]}), so every other card of the deck is "
                "known. This is why a deal must be seeded from the operating system, never from the clock.")
    if count == 0:
        return (f"No seed of {window} deals these cards: the deal was not seed 003's shuffle seeded inside this "
                "window.")
    return (f"{count:,} seeds of {window} deal these cards: see one more card to tell them apart.")
