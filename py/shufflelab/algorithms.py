"""Every shuffle of the seed articles, good and bad, as plain functions.

Each algorithm is ``f(cards, rng, **params) -> list``: it returns a new list and leaves
``cards`` alone. Randomness comes only from ``rng`` (see ``rng.py``). What is known about
each one (name, verdict, parameters, exact models, tally kernel) is its entry in
``catalog.py``.

The JavaScript ports draw their indices with ``rng.below(k)`` where the article writes
``Math.floor(Math.random() * k)``: the same distribution without the float's rounding
bias (at most k / 2^53), so the only flaw each port shows is the article's own.

Portable core: runs unchanged on CPython, Pyodide and MicroPython, and nothing here may
depend on the interpreter: no sort of the interpreter's decides an order (their
comparisons differ between versions), and every sort whose keys can tie breaks the
tie explicitly (MicroPython's ``sorted`` is not stable).
"""

import math

from .rng import CRand

# --- the correct algorithms ------------------------------------------------------------


def fisher_yates(cards, rng) -> list:
    """Return a uniformly random order (Durstenfeld): swap each last unshuffled card."""
    deck = list(cards)
    n = len(deck)
    # for i = n-1 down to 1, j = below(i + 1): the share-link contract of stream v1
    for i, j in zip(range(n - 1, 0, -1), rng.below_many(range(n, 1, -1))):
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def splice(cards, rng) -> list:
    """Return a uniformly random order by moving cards, as seed 001's spliceShuffle (O(n^2))."""
    deck = list(cards)
    for count in range(len(deck), 0, -1):
        picked = deck.pop(rng.below(count))
        # JS splice(count, 0, x) past the end appends; list.insert does the same
        deck.insert(count, picked)
    return deck


def stack(cards, rng) -> list:
    """Return a uniformly random order as seed 001's stackShuffle: pull a card, push it last."""
    deck = list(cards)
    for count in range(len(deck), 0, -1):
        deck.append(deck.pop(rng.below(count)))
    return deck


def random_key(cards, rng) -> list:
    """Return the cards sorted by independent random float keys; equal keys keep their order."""
    keys = [rng.random() for _ in cards]
    # the index breaks ties, as CPython's stable sort does, on any interpreter
    order = sorted(range(len(keys)), key=lambda i: (keys[i], i))
    return [cards[i] for i in order]


def riffle_gsr(cards, rng, passes: int = 7) -> list:
    """Return ``passes`` Gilbert-Shannon-Reeds riffles: binomial cut, proportional drops."""
    deck = list(cards)
    for _ in range(passes):
        deck = _gsr_riffle_once(deck, rng)
    return deck


def _gsr_riffle_once(deck: list, rng) -> list:
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


def fisher_yates_off_by_one(cards, rng) -> list:
    """Return Sattolo's cyclic shuffle: seed 001's Fisher-Yates with ``random * index``."""
    deck = list(cards)
    n = len(deck)
    # j < i always, so no card may stay: only the (n-1)! single-cycle orders come out
    for i, j in zip(range(n - 1, 0, -1), rng.below_many(range(n - 1, 0, -1))):
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def naive_pairs(cards, rng) -> list:
    """Return seed 001's naiveShuffle: n swaps of two random positions (biased)."""
    deck = list(cards)
    n = len(deck)
    draws = rng.below_many([n] * (2 * n))
    for a, b in zip(draws[0::2], draws[1::2]):
        deck[a], deck[b] = deck[b], deck[a]
    return deck


def swap_any(cards, rng) -> list:
    """Return seed 001's altNaiveShuffle: swap card i with any position (n^n paths, biased)."""
    deck = list(cards)
    n = len(deck)
    for i, j in zip(range(n - 1, -1, -1), rng.below_many([n] * n)):
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def c_rand(cards, rng) -> list:
    """Return seed 003's shuffle: ``j = rand() % n`` with an srand-seeded ANSI C rand()."""
    deck = list(cards)
    n = len(deck)
    # srand takes 32 bits, so at most 2^32 of the n! orders can ever come out
    generator = CRand(rng.below(1 << 32))
    for i in range(n):
        j = generator.rand() % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def random_comparator(cards, rng) -> list:
    """Return the cards merge-sorted with a comparator that answers at random (biased)."""
    return comparator_merge_sort(list(cards), rng)


def comparator_merge_sort(items: list, rng) -> list:
    """Return ``items`` in the order a top-down merge sort gives when each comparison is ``rng.below(2)``.

    The sort is the library's own (docs/reference/stream-v1.md, step 6): the left half is
    ``items[:len // 2]``, it is sorted before the right half, and each merge step draws
    ``below(2)``: 0 takes the left packet's next card, 1 the right's. ``Math.random() - 0.5``
    is below 0 with probability exactly 1/2, and a merge only asks "does the right card
    come first?": ``below(2)`` is the same coin, and it makes the outcomes countable.
    """
    if len(items) <= 1:
        return items
    middle = len(items) // 2
    left = comparator_merge_sort(items[:middle], rng)
    right = comparator_merge_sort(items[middle:], rng)
    merged = []
    i = j = 0
    while i < len(left) and j < len(right):
        if rng.below(2):
            merged.append(right[j])
            j += 1
        else:
            merged.append(left[i])
            i += 1
    merged.extend(left[i:])
    merged.extend(right[j:])
    return merged


def riffle_physical(cards, rng, passes: int = 7) -> list:
    """Return seed 001's riffleShuffle repeated ``passes`` times, with JS splice semantics."""
    deck = list(cards)
    for _ in range(passes):
        _riffle_physical_once(deck, rng)
    return deck


def riffle_physical_cut(n: int, draw: int) -> int:
    """Return how many cards the article's cut takes off n (0 or less: none), for its draw below 9.

    The article writes ``deck.length / 2 + floor(random * 9) - 4``, a float on odd decks, but
    splice truncates a delete count toward zero and clamps a negative one to 0: for odd n,
    m + 0.5 becomes m when m >= 0, and cuts nothing when m < 0, as m itself does. So the
    fraction never changes a card, and the whole number n // 2 + draw - 4 is the same cut
    (``tests/unit/test_algorithms.py`` checks every deck size up to 2,000 against the float).
    """
    return n // 2 + draw - 4


def _riffle_physical_once(deck: list, rng) -> None:
    left_half = js_splice(deck, 0, riffle_physical_cut(len(deck), rng.below(9)))
    left_count = len(left_half)
    right_count = len(deck) - rng.below(4)
    while left_count > 0:
        take = rng.below(4)
        # starts at left_count, so the first round takes nothing: the article's behaviour
        js_splice(deck, right_count, 0, js_splice(left_half, left_count, take))
        left_count -= take
        right_count = right_count - rng.below(4) + take
    js_splice(deck, right_count, 0, left_half)


# Repetitions between pauses of cut_insert_steps: about 15 ms on MicroPython in a browser, so a
# page that steps through 100,000 of them stays responsive.
CUT_INSERT_SLICE = 1000


def cut_insert_steps(cards, rng, repetitions: int = 15000):
    """Yield None after every CUT_INSERT_SLICE repetitions, then the deck ``cut_insert`` returns."""
    deck = list(cards)
    n = len(deck)
    below = rng.below
    done = 0
    while n and done < repetitions:
        for _ in range(min(CUT_INSERT_SLICE, repetitions - done)):
            split = below(n)  # the article's floor(random * 52): its 52 is its deck's size
            # below(len(rest)), never len(rest): the top part never goes below the rest's last
            # card, so the bottom card never moves (docs/reference/algorithms.md)
            end = split + below(n - split)
            # the top part goes after the first (end - split) cards of the rest
            deck[:end] = deck[split:end] + deck[:split]
        done = min(done + CUT_INSERT_SLICE, repetitions)
        if done < repetitions:
            yield None
    yield deck


def cut_insert(cards, rng, repetitions: int = 15000) -> list:
    """Return seed 002's shuffle: cut the top part at random, insert it at a random place."""
    return last_step(cut_insert_steps(cards, rng, repetitions))


def overhand(cards, rng, overhands: int = 10) -> list:
    """Return Pemantle's overhand shuffle, ``overhands`` passes: each gap between neighbours is cut with chance 1/2,
    and the packets come off in reverse order, each keeping its own order."""
    deck = list(cards)
    for _ in range(overhands):
        packets, start = [], 0
        for gap in range(1, len(deck)):
            if rng.below(2):  # a cut between deck[gap - 1] and deck[gap]
                packets.append(deck[start:gap])
                start = gap
        packets.append(deck[start:])
        deck = [card for packet in reversed(packets) for card in packet]
    return deck


def shelf_shuffler(cards, rng, shelves: int = 10, rounds: int = 1) -> list:
    """Return a casino shelf shuffler's deal, ``rounds`` times: each card from the top goes to a uniform shelf, on top
    of its pile or under it with chance 1/2 each; then the piles are stacked, the first shelf's on top."""
    deck = list(cards)
    for _ in range(rounds):
        piles = [[] for _ in range(shelves)]
        for card in deck:
            pile = piles[rng.below(shelves)]
            if rng.below(2):
                pile.insert(0, card)  # on top of the cards already on that shelf
            else:
                pile.append(card)
        deck = [card for pile in piles for card in pile]
    return deck


def last_step(steps):
    """Return what a step generator yields last: its result (each None before it is a pause)."""
    result = None
    for step in steps:
        result = step
    return result


def no_shuffle(cards, rng) -> list:
    """Return the cards as they are: seed 001's 'no shuffle', for dealing by picking."""
    return list(cards)


# --- JavaScript's Array.prototype.splice, for the faithful ports -------------------------


def js_splice(array: list, start: float, delete_count: float, items=()) -> list:
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

