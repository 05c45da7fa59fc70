"""Tally kernels: the catalog's swap algorithms run on a whole block of decks at once.

A kernel is called as ``kernel(n, lanes, source)`` and is a generator: it yields the block's
columns after each step (the same list each time, whole after the last step), so a tally can make the next
block a few steps at a time while it counts the current one. ``make_block`` runs one to the
end. Each kernel draws exactly what its port would, lane by lane (the tests compare them
with the ports).

Each kernel is also two halves (``Kernel``): ``draw`` takes every random number the block
needs, in stream order, and depends on nothing else; ``make`` does the work (partner masks,
swaps) from those numbers. So one process can draw block after block from the one seeded
stream while other processes make and count them (``tally/parallel.py``), and the counts are
those of a single tally.

A kernel's columns hold each position's card, or, for a kernel made ``by_card``, each card's
position (the inverse permutation: Fisher-Yates is cheaper that way round); ``count_lanes``
and ``deck_columns`` read either.
"""

from collections.abc import Callable, Iterable, Iterator
from functools import reduce
from itertools import repeat
from operator import and_, or_, xor

from .bitslice import (
    Columns,
    LaneSource,
    SpareBits,
    fresh_columns,
    planes_from_lane_bytes,
    planes_per_card,
    swap_pairs,
    swap_with_partner,
    uniform_planes,
    value_masks,
)

# Decks per block: 65,536 up to 64 cards, halved per further bit of card id (a block costs
# about n * n * K big-integer operations, so bigger decks get smaller blocks).
MAX_LANES = 1 << 16

Draw = Callable[[int, int, LaneSource], Iterator]  # (n, lanes, source) -> what each step draws, in stream order
Make = Callable[[int, int, Iterable], Iterator[Columns]]  # (n, lanes, the draws) -> the columns after each step


class Kernel:
    """A block of ``lanes`` decks of ``n`` cards made in two halves: ``draw`` (every random number, in stream order)
    and ``make`` (the work, from those numbers alone).

    ``by_card``: the columns hold each card's position, not each position's card. ``steps_per_card``: how many
    times ``make`` yields per card of the deck, at most (the tally paces the next block by it).
    """

    def __init__(self, draw: Draw, make: Make, doc: str, by_card: bool = False, steps_per_card: int = 1) -> None:
        self.draw = draw
        self.make = make
        self.__doc__ = doc
        self.by_card = by_card
        self.steps_per_card = steps_per_card

    def __call__(self, n: int, lanes: int, source: LaneSource) -> Iterator[Columns]:
        """Yield the columns after each step, each step's draws taken just before its work (as always)."""
        return self.make(n, lanes, self.draw(n, lanes, source))

    def draws(self, n: int, lanes: int, source: LaneSource) -> list:
        """Return every draw of one block, taking from ``source`` exactly what making the block would."""
        return list(self.draw(n, lanes, source))


def lanes_for(n: int) -> int:
    """Return the block size (decks per block) of the swap kernels for ``n`` cards."""
    return MAX_LANES >> max(0, planes_per_card(n) - 6)


def _partner_draws(steps: Callable[[int], Iterable[tuple[int, int]]]) -> Draw:
    """Return the draw half of a kernel that swaps position i with a uniform j < m, for each (i, m) of ``steps(n)``."""

    def draw(n: int, lanes: int, source: LaneSource) -> Iterator[tuple[int, int, list[int]]]:
        spare = SpareBits(source, lanes)
        for i, m in steps(n):
            yield i, m, uniform_planes(m, lanes, source, spare)

    return draw


def _swap_with_partners(n: int, lanes: int, drawn: Iterable[tuple[int, int, list[int]]]) -> Iterator[Columns]:
    """For each drawn (i, m, partner planes) swap position i with its partner in every lane; yield after each."""
    columns = fresh_columns(n, lanes)
    every_lane = (1 << lanes) - 1
    for i, m, partners in drawn:
        swap_with_partner(columns, i, value_masks(partners, m, every_lane))
        yield columns


def _inside_out(n: int, lanes: int, drawn: Iterable[tuple[int, int, list[int]]]) -> Iterator[Columns]:
    """From Fisher-Yates's draws (i = n-1..1, j below i + 1), make each card's position in every lane; yield after
    each draw taken and after each step (the columns are whole after the last step).

    Fisher-Yates swaps positions (n-1, j_{n-1}), then ..., then (1, j_1), so its deck is the product of those
    transpositions, and the product in the opposite order, (1, j_1) first, is the inverse: each card's position.
    That is the inside-out shuffle: at step i, card i goes to place j and the card there moves to place i (tests
    compare the decks with the port, path by path).

    A step costs 2 big-integer operations per place and plane, and 1 per place: each place's plane takes card i's
    bit where j is that place (``|`` the lanes, or ``&`` the others), and place i's plane is the XOR of the rest,
    since places 0..i hold cards 0..i in every lane. Gathering place j's card lane by lane cost 2 of its own.
    """
    every_lane = (1 << lanes) - 1
    width = planes_per_card(n)
    rows = [[0] for _ in range(width)]  # rows[q][v]: plane q of place v's card; one place so far, holding card 0
    columns: Columns = []  # the same planes place by place, once the last step is done
    steps = []
    for step in drawn:  # the draws come i = n-1 first; the steps go i = 1 first
        steps.append(step)
        yield columns
    for i, _, partners in reversed(steps):
        masks = value_masks(partners, i, every_lane)  # masks[v]: the lanes where j = v < i (j = i changes nothing)
        used = i.bit_length()  # cards up to i: the planes above are 0 at every place, and stay 0 this step
        cards_xor = _xor_up_to(i)  # bit q set: an odd number of the cards 0..i have bit q set
        keeps = list(map(xor, masks, repeat(every_lane))) if i + 1 != 1 << used else []  # the lanes where j != v
        for q, row in enumerate(rows[:used]):
            row[:] = map(or_, row, masks) if i >> q & 1 else map(and_, row, keeps)
            row.append(reduce(xor, row, every_lane if cards_xor >> q & 1 else 0))  # place i: the card left over
        for row in rows[used:]:
            row.append(0)
        yield columns
    columns[:] = map(list, zip(*rows))


def _xor_up_to(i: int) -> int:
    """Return 0 ^ 1 ^ ... ^ i."""
    return (i, 1, i + 1, 0)[i % 4]


fisher_yates_block = Kernel(
    _partner_draws(lambda n: ((i, i + 1) for i in range(n - 1, 0, -1))), _inside_out,
    "Shuffle ``lanes`` decks as ``algorithms.fisher_yates``: i = n-1..1, j = below(i + 1); by card.",
    by_card=True, steps_per_card=2)

fisher_yates_off_by_one_block = Kernel(
    _partner_draws(lambda n: ((i, i) for i in range(n - 1, 0, -1))), _swap_with_partners,
    "Shuffle ``lanes`` decks as ``algorithms.fisher_yates_off_by_one``: j = below(i).")

swap_any_block = Kernel(
    _partner_draws(lambda n: ((i, n) for i in range(n - 1, -1, -1))), _swap_with_partners,
    "Shuffle ``lanes`` decks as ``algorithms.swap_any``: i = n-1..0, j = below(n).")


def _naive_pairs_draw(n: int, lanes: int, source: LaneSource) -> Iterator[tuple[list[int], list[int]]]:
    """Draw n pairs of uniform positions, the first of each pair first."""
    spare = SpareBits(source, lanes)
    for _ in range(n):
        first = uniform_planes(n, lanes, source, spare)
        yield first, uniform_planes(n, lanes, source, spare)


def _naive_pairs_make(n: int, lanes: int, drawn: Iterable[tuple[list[int], list[int]]]) -> Iterator[Columns]:
    """Swap each drawn pair of positions in every lane; yield after each."""
    columns = fresh_columns(n, lanes)
    every_lane = (1 << lanes) - 1
    for first, second in drawn:
        swap_pairs(columns, value_masks(first, n, every_lane), value_masks(second, n, every_lane))
        yield columns


naive_pairs_block = Kernel(
    _naive_pairs_draw, _naive_pairs_make,
    "Shuffle ``lanes`` decks as ``algorithms.naive_pairs``: n swaps of below(n), below(n).")


def _c_rand_draw(n: int, lanes: int, source: LaneSource) -> Iterator[int]:
    """Draw one 32-bit srand seed per lane: below(2**32) is a raw word, it never rejects."""
    yield source.bits(32 * lanes)


def _c_rand_make(n: int, lanes: int, drawn: Iterable[int]) -> Iterator[Columns]:
    """Swap card i with rand() % n of each lane's srand(seed) sequence; yield after each swap."""
    columns = fresh_columns(n, lanes)
    every_lane = (1 << lanes) - 1
    for seeds in drawn:
        for i, partners in enumerate(c_rand_partner_planes(seeds, n, lanes)):
            swap_with_partner(columns, i, value_masks(partners, n, every_lane))
            yield columns


c_rand_block = Kernel(
    _c_rand_draw, _c_rand_make,
    "Shuffle ``lanes`` decks as ``algorithms.c_rand``: srand(below(2**32)), j = rand() % n.")


def _draw_nothing(n: int, lanes: int, source: LaneSource) -> Iterator:
    """Draw nothing: the unshuffled deck has no random step."""
    return iter(())


def _unshuffled_make(n: int, lanes: int, drawn: Iterable) -> Iterator[Columns]:
    """Yield ``lanes`` decks in order, once."""
    yield fresh_columns(n, lanes)


unshuffled_block = Kernel(
    _draw_nothing, _unshuffled_make, "Yield ``lanes`` decks in order, as ``algorithms.no_shuffle`` (draws nothing).")


def make_block(kernel: Kernel, n: int, lanes: int, source: LaneSource) -> Columns:
    """Return the finished block of ``lanes`` decks that ``kernel`` makes, each position's card (``deck_columns``)."""
    finished: Columns = []
    for finished in kernel(n, lanes, source):  # noqa: B007 (the last yield is the block)
        pass
    return deck_columns(kernel, finished, lanes)


def deck_columns(kernel: Kernel, columns: Columns, lanes: int) -> Columns:
    """Return a block as each position's card, whichever way round ``kernel`` made it (for checks and output)."""
    if not kernel.by_card:
        return columns
    n = len(columns)
    width = planes_per_card(n)
    decks = [[0] * width for _ in range(n)]
    for card, places in enumerate(columns):
        for place, mask in enumerate(value_masks(places, n, (1 << lanes) - 1)):
            decks[place] = [plane | mask if card >> q & 1 else plane for q, plane in enumerate(decks[place])]
    return decks


class BlockInProgress:
    """A kernel's block being made a few steps at a time."""

    def __init__(self, kernel: Kernel, n: int, lanes: int, source: LaneSource) -> None:
        self._steps = kernel(n, lanes, source)
        self.columns: Columns = []
        self.done = False

    def advance(self, steps: int) -> None:
        """Run up to ``steps`` more steps of the kernel."""
        for _ in range(steps):
            columns = next(self._steps, None)
            if columns is None:
                self.done = True
                return
            self.columns = columns

    def finish(self) -> Columns:
        """Run the kernel to the end and return the finished block."""
        for columns in self._steps:
            self.columns = columns
        self.done = True
        return self.columns


# --- c-rand: the ANSI C generator run in 64-bit lanes of one big integer ------------------


LCG_MULTIPLIER = 1103515245


LCG_INCREMENT = 12345


def repeat_in_lanes(value: int, lanes: int) -> int:
    """Return ``value`` in each of ``lanes`` 64-bit lanes of one integer."""
    return int.from_bytes(value.to_bytes(8, "little") * lanes, "little")


def _spread_words(words: int, lanes: int) -> int:
    """Return the 32-bit words of ``words`` moved into 64-bit lanes (room for products)."""
    packed = words.to_bytes(4 * lanes, "little")
    spread = bytearray(8 * lanes)
    for byte in range(4):
        spread[byte::8] = packed[byte::4]
    return int.from_bytes(spread, "little")


def c_rand_partner_planes(seeds: int, n: int, lanes: int) -> Iterator[list[int]]:
    """Yield, for i = 0..n-1, the planes of ``rand() % n`` in each lane's srand(seed) sequence."""
    low32 = repeat_in_lanes(0xFFFFFFFF, lanes)
    low15 = repeat_in_lanes(0x7FFF, lanes)
    increment = repeat_in_lanes(LCG_INCREMENT, lanes)
    state = _spread_words(seeds, lanes)
    width = planes_per_card(n)
    for _ in range(n):
        # state * multiplier + increment < 2**63: no carry leaves its lane
        state = (state * LCG_MULTIPLIER + increment) & low32
        rand = (state >> 16) & low15
        remainder = lane_remainders(rand, n, low15)
        yield planes_from_lane_bytes(remainder.to_bytes(8 * lanes, "little"), 8, width)


def lane_remainders(values: int, n: int, low15: int) -> int:
    """Return ``value % n`` in every 64-bit lane, for lane values below 2**15."""
    # value // n == (value * magic) >> 32 for every value < 2**15: magic / 2**32 exceeds
    # 1 / n by e / (n * 2**32) with e = magic * n - 2**32 < n, and value * e < 2**32 keeps
    # that excess below 1 / n. The product is below 2**46: it stays inside its lane.
    magic = -(-(1 << 32) // n)
    quotient = ((values * magic) >> 32) & low15
    return values - quotient * n  # lane by lane, never negative: no borrows
