"""Every shuffle of the seed articles, good and bad, and one registry that describes them.

Each algorithm is ``f(cards, rng, **params) -> list``: it returns a new list and leaves
``cards`` alone. Randomness comes only from ``rng`` (see ``rng.py``).

The JavaScript ports draw their indices with ``rng.below(k)`` where the article writes
``Math.floor(Math.random() * k)``: the same distribution without the float's rounding
bias (at most k / 2^53), so the only flaw each port shows is the article's own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cmp_to_key
from typing import Callable, Sequence

from .rng import CRand, Rng

UNBIASED = "unbiased"
BIASED = "biased"


@dataclass(frozen=True)
class Param:
    """An integer parameter of an algorithm, with its default and inclusive limits."""

    name: str
    label: str
    default: int
    minimum: int
    maximum: int

    def check(self, value: int) -> int:
        """Return ``value`` if it is within limits, else raise ValueError naming it."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{self.name} must be a whole number, not {value!r}")
        if not self.minimum <= value <= self.maximum:
            raise ValueError(f"{self.name} must be {self.minimum} to {self.maximum}, not {value}")
        return value


@dataclass(frozen=True)
class Algorithm:
    """One registry entry: the single description the page, the CLI and the tests read."""

    id: str
    name: str
    source: str
    description: str
    verdict: str
    run: Callable[..., list]
    params: tuple[Param, ...] = field(default=())

    def resolve_params(self, given: dict | None = None) -> dict:
        """Return every parameter's value: given ones checked, missing ones defaulted."""
        given = dict(given or {})
        unknown = sorted(set(given) - {p.name for p in self.params})
        if unknown:
            raise ValueError(f"{self.id} takes no parameter {unknown[0]!r}")
        return {p.name: p.check(given.get(p.name, p.default)) for p in self.params}

    def shuffled(self, cards: Sequence, rng: Rng, params: dict | None = None) -> list:
        """Return a new list: ``cards`` shuffled by this algorithm."""
        return self.run(cards, rng, **self.resolve_params(params))

    @property
    def biased(self) -> bool:
        """True when the algorithm is known not to give every order equally often."""
        return self.verdict == BIASED


class UnknownAlgorithm(ValueError):
    """An algorithm id that is not in the registry."""


# --- the correct algorithms ------------------------------------------------------------


def fisher_yates(cards: Sequence, rng: Rng) -> list:
    """Return a uniformly random order (Durstenfeld): swap each last unshuffled card."""
    deck = list(cards)
    n = len(deck)
    # for i = n-1 down to 1, j = below(i + 1): the share-link contract of stream v1
    for i, j in zip(range(n - 1, 0, -1), rng.below_many(range(n, 1, -1))):
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def splice(cards: Sequence, rng: Rng) -> list:
    """Return a uniformly random order by moving cards, as seed 001's spliceShuffle (O(n^2))."""
    deck = list(cards)
    for count in range(len(deck), 0, -1):
        picked = deck.pop(rng.below(count))
        # JS splice(count, 0, x) past the end appends; list.insert does the same
        deck.insert(count, picked)
    return deck


def stack(cards: Sequence, rng: Rng) -> list:
    """Return a uniformly random order as seed 001's stackShuffle: pull a card, push it last."""
    deck = list(cards)
    for count in range(len(deck), 0, -1):
        deck.append(deck.pop(rng.below(count)))
    return deck


def random_key(cards: Sequence, rng: Rng) -> list:
    """Return the cards sorted by independent random float keys (uniform up to key ties)."""
    keys = [rng.random() for _ in cards]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    return [cards[i] for i in order]


def riffle_gsr(cards: Sequence, rng: Rng, passes: int = 7) -> list:
    """Return ``passes`` Gilbert-Shannon-Reeds riffles: binomial cut, proportional drops."""
    deck = list(cards)
    for _ in range(passes):
        deck = _gsr_riffle_once(deck, rng)
    return deck


def _gsr_riffle_once(deck: list, rng: Rng) -> list:
    n = len(deck)
    cut = sum(rng.below_many([2] * n))
    left, right = deck[:cut], deck[cut:]
    merged = []
    i = j = 0
    while i < len(left) and j < len(right):
        left_remaining = len(left) - i
        # the next card comes from a packet with probability proportional to its size
        if rng.below(left_remaining + len(right) - j) < left_remaining:
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            j += 1
    merged.extend(left[i:])
    merged.extend(right[j:])
    return merged


# --- faithful ports of flawed shuffles --------------------------------------------------


def fisher_yates_off_by_one(cards: Sequence, rng: Rng) -> list:
    """Return Sattolo's cyclic shuffle: seed 001's Fisher-Yates with ``random * index``."""
    deck = list(cards)
    n = len(deck)
    # j < i always, so no card may stay: only the (n-1)! single-cycle orders come out
    for i, j in zip(range(n - 1, 0, -1), rng.below_many(range(n - 1, 0, -1))):
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def naive_pairs(cards: Sequence, rng: Rng) -> list:
    """Return seed 001's naiveShuffle: n swaps of two random positions (biased)."""
    deck = list(cards)
    n = len(deck)
    draws = rng.below_many([n] * (2 * n))
    for a, b in zip(draws[0::2], draws[1::2]):
        deck[a], deck[b] = deck[b], deck[a]
    return deck


def swap_any(cards: Sequence, rng: Rng) -> list:
    """Return seed 001's altNaiveShuffle: swap card i with any position (n^n paths, biased)."""
    deck = list(cards)
    n = len(deck)
    for i, j in zip(range(n - 1, -1, -1), rng.below_many([n] * n)):
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def c_rand(cards: Sequence, rng: Rng) -> list:
    """Return seed 003's shuffle: ``j = rand() % n`` with an srand-seeded ANSI C rand()."""
    deck = list(cards)
    n = len(deck)
    # srand takes 32 bits, so at most 2^32 of the n! orders can ever come out
    generator = CRand(rng.below(1 << 32))
    for i in range(n):
        j = generator.rand() % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def random_comparator(cards: Sequence, rng: Rng) -> list:
    """Return the cards sorted with a comparator that answers at random (biased)."""
    # Math.random() - 0.5 is below 0 with probability exactly 1/2, and a sort only asks
    # "less than?": below(2) is the same coin, and it makes the outcomes countable
    coin = cmp_to_key(lambda a, b: rng.below(2) * 2 - 1)
    return sorted(cards, key=coin)


def riffle_physical(cards: Sequence, rng: Rng, passes: int = 7) -> list:
    """Return seed 001's riffleShuffle repeated ``passes`` times, with JS splice semantics."""
    deck = list(cards)
    for _ in range(passes):
        _riffle_physical_once(deck, rng)
    return deck


def _riffle_physical_once(deck: list, rng: Rng) -> None:
    cut = len(deck) / 2 + rng.below(9) - 4  # a float for odd decks, as in JavaScript
    left_half = js_splice(deck, 0, cut)
    left_count = len(left_half)
    right_count = len(deck) - rng.below(4)
    while left_count > 0:
        take = rng.below(4)
        # starts at left_count, so the first round takes nothing: the article's behaviour
        js_splice(deck, right_count, 0, js_splice(left_half, left_count, take))
        left_count -= take
        right_count = right_count - rng.below(4) + take
    js_splice(deck, right_count, 0, left_half)


def cut_insert(cards: Sequence, rng: Rng, repetitions: int = 15000) -> list:
    """Return seed 002's shuffle: cut the top part at random, insert it at a random place."""
    deck = list(cards)
    n = len(deck)
    if n == 0:
        return deck
    for _ in range(repetitions):
        split = rng.below(n)  # the article's floor(random * 52), for any deck size
        top, rest = deck[:split], deck[split:]
        # below(len(rest)), never len(rest): the top part never goes to the bottom
        paste = rng.below(len(rest))
        deck = rest[:paste] + top + rest[paste:]
    return deck


def no_shuffle(cards: Sequence, rng: Rng) -> list:
    """Return the cards as they are: seed 001's 'no shuffle', for dealing by picking."""
    return list(cards)


# --- JavaScript's Array.prototype.splice, for the faithful ports -------------------------


def js_splice(array: list, start: float, delete_count: float, items: Sequence = ()) -> list:
    """Do what JavaScript's ``array.splice(start, deleteCount, ...items)`` does; return the removed."""
    length = len(array)
    relative = _to_integer(start)
    begin = max(length + relative, 0) if relative < 0 else min(relative, length)
    count = min(max(_to_integer(delete_count), 0), length - begin)
    removed = array[begin : begin + count]
    array[begin : begin + count] = list(items)
    return removed


def _to_integer(value: float) -> int:
    """ECMAScript ToIntegerOrInfinity for finite numbers: truncate toward zero."""
    return math.trunc(value)


# --- the registry -------------------------------------------------------------------------

PASSES = Param("passes", "Passes", 7, 1, 50)
REPETITIONS = Param("repetitions", "Repetitions", 15000, 1, 100000)

ALGORITHMS: tuple[Algorithm, ...] = (
    Algorithm(
        "fisher-yates",
        "Fisher–Yates (Durstenfeld)",
        "seed 000 (Durstenfeld 1964)",
        "Swap a random unshuffled card with the last unshuffled one; every order equally likely.",
        UNBIASED,
        fisher_yates,
    ),
    Algorithm(
        "splice",
        "Fisher–Yates by splicing",
        "seed 001, spliceShuffle",
        "Pull a random unshuffled card out and splice it back in after them; fair but O(n²).",
        UNBIASED,
        splice,
    ),
    Algorithm(
        "stack",
        "Fisher–Yates as a stack",
        "seed 001, stackShuffle",
        "Pull a random unshuffled card out and push it on the end; fair but O(n²).",
        UNBIASED,
        stack,
    ),
    Algorithm(
        "random-key",
        "Sort by random keys",
        "Bostock, Will It Shuffle? (2012)",
        "Give every card an independent random number and sort by it; fair, O(n log n).",
        UNBIASED,
        random_key,
    ),
    Algorithm(
        "riffle-gsr",
        "Riffle (Gilbert–Shannon–Reeds)",
        "Gilbert–Shannon–Reeds model; Bayer & Diaconis (1992)",
        "Cut binomially, drop cards from each packet in proportion to its size; close to fair only from about 7 passes.",
        BIASED,
        riffle_gsr,
        (PASSES,),
    ),
    Algorithm(
        "fisher-yates-off-by-one",
        "Fisher–Yates off by one (Sattolo)",
        "seed 001, Math.floor(Math.random() * index)",
        "Picks the swap partner only below the current card, so no card can stay: only cyclic orders come out.",
        BIASED,
        fisher_yates_off_by_one,
    ),
    Algorithm(
        "naive-pairs",
        "Swap random pairs",
        "seed 001, naiveShuffle",
        "n swaps of two random positions; some cards never move, so the start order shows through.",
        BIASED,
        naive_pairs,
    ),
    Algorithm(
        "swap-any",
        "Swap with any position",
        "seed 001, altNaiveShuffle",
        "Swap each card with any position; n^n equally likely paths cannot spread evenly over n! orders.",
        BIASED,
        swap_any,
    ),
    Algorithm(
        "c-rand",
        "C rand() % n",
        "seed 003 (C, srand/rand)",
        "Swap card i with rand() % n: the swap-any bias, modulo bias, and a 32-bit seed that reaches at most 2^32 orders.",
        BIASED,
        c_rand,
    ),
    Algorithm(
        "riffle-physical",
        "Hand riffle (article model)",
        "seed 001, riffleShuffle",
        "The article's hand-riffle model with JavaScript splice semantics; its first drop is always empty and it stays biased at 7 passes.",
        BIASED,
        riffle_physical,
        (PASSES,),
    ),
    Algorithm(
        "cut-insert",
        "Cut and insert",
        "seed 002",
        "Cut the top part off at random and insert it at a random place, over and over; the top part never goes to the bottom.",
        BIASED,
        cut_insert,
        (REPETITIONS,),
    ),
    Algorithm(
        "random-comparator",
        "Sort with a random comparator",
        "Bostock; the 2010 browser-ballot bug",
        "Sort with a comparator that answers at random; the result depends on the sort and is far from fair.",
        BIASED,
        random_comparator,
    ),
    Algorithm(
        "none",
        "No shuffle",
        "seed 001, 'No Shuffle'",
        "Leave the deck in order; with the 'pick' deal this is the article's dealing of random cards from an ordered deck.",
        BIASED,
        no_shuffle,
    ),
)

REGISTRY: dict[str, Algorithm] = {algorithm.id: algorithm for algorithm in ALGORITHMS}
DEFAULT_ALGORITHM = "fisher-yates"


def get(algorithm_id: str) -> Algorithm:
    """Return the registry entry for ``algorithm_id`` or raise UnknownAlgorithm naming it."""
    try:
        return REGISTRY[algorithm_id]
    except KeyError:
        raise UnknownAlgorithm(
            f"unknown algorithm {algorithm_id!r}; choose one of {', '.join(REGISTRY)}"
        ) from None


def shuffled(cards: Sequence, algorithm_id: str, rng: Rng, params: dict | None = None) -> list:
    """Return a new list: ``cards`` shuffled by the named algorithm with checked parameters."""
    return get(algorithm_id).shuffled(cards, rng, params)
