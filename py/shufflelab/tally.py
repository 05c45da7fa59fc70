"""Position-bias tally: how often card ``i`` ends at position ``j``, over many shuffles.

Plain data in and out (``Tally.snapshot()``), standard library only, so the same code runs
in CPython and in Pyodide's Web Worker.

Why it is fast without numpy: **bit-slicing**. The swap-based algorithms run ``lanes``
decks at once. Position ``p`` of all those decks is ``K = (n - 1).bit_length()`` big
integers ("planes"): bit ``l`` of plane ``q`` is bit ``q`` of the card at position ``p``
in deck ``l``. One ``&`` or ``^`` on two planes then works on every deck inside C, so

* a swap of position ``i`` with a partner ``j`` that differs from deck to deck costs
  ``O(i * K)`` big-integer operations for the whole block, not ``lanes`` Python swaps;
* the partners are drawn as planes too: ``k`` fresh ``getrandbits(lanes)`` planes per
  step, with plain rejection (lanes whose value is ``>= m`` are redrawn from spare bits
  that no other value has used), so every partner is exactly uniform and independent;
* the count of card ``c`` at position ``p`` is the popcount (``int.bit_count``) of an
  equality mask, and the fixed points per deck are a bit-sliced counter.

``riffle-gsr`` and ``random-comparator`` have deck makers (``DECK_MAKERS``) that make the
same distribution with their random draws in bulk and their work in C sorts (tested
exhaustively and against the exact order distributions); the other algorithms (splices,
the physical riffle, cut-insert, random keys) run the registry's own code once per deck
with a ``FastRng``. Either way the decks are counted in bulk with ``bytes`` operations.

A seeded tally is reproducible whatever the batch sizes: the kernels make whole blocks of
a fixed size (a function of ``n``) and ``run`` counts the next lanes of the current block,
so ``run(1000); run(2000)`` counts exactly what ``run(3000)`` does. While it counts, the
next block is made a few steps at a time, so runs of equal size take about equal time
(only the very first run makes a whole block: about 0.1 s for 52 cards in CPython).
"""

from __future__ import annotations

import math
from collections import Counter
from functools import cmp_to_key
from itertools import chain, repeat
from typing import Callable, Iterator, Protocol, Sequence

from . import algorithms
from .rng import FastRng

MIN_CARDS = 2
MAX_CARDS = 255  # one byte per card in the bulk paths
# Decks per block: 65,536 up to 64 cards, halved per further bit of card id (a block costs
# about n * n * K big-integer operations, so bigger decks get smaller blocks).
MAX_LANES = 1 << 16
# When this few lanes are still rejected, drawing them one by one beats another full round.
FIX_ONE_BY_ONE_AT = 12
# Spare random planes kept per width for redraws (see SpareBits); 4 measured best of 2, 4, all.
SPARE_SETS_KEPT = 4


class LaneSource(Protocol):
    """What the kernels need from a source of randomness."""

    def bits(self, count: int) -> int:
        """Return ``count`` independent uniform random bits as a non-negative int."""
        ...

    def below(self, m: int) -> int:
        """Return an exactly uniform integer in ``[0, m)``."""
        ...


class FastLaneSource:
    """A ``LaneSource`` over a ``FastRng``: its Mersenne Twister words, in stream order."""

    def __init__(self, rng: FastRng) -> None:
        self.rng = rng
        # FastRng.bits(count) (proposed) would skip a bytes round trip; the words are the
        # same either way, so tallies stay reproducible when it appears.
        self._bits = getattr(rng, "bits", None) or self._bits_from_words

    def bits(self, count: int) -> int:
        """Return ``count`` uniform random bits as a non-negative int."""
        return self._bits(count)

    def _bits_from_words(self, count: int) -> int:
        # whole 32-bit words, the extra high bits dropped (kernels ask for multiples of 32)
        words = int.from_bytes(self.rng.words(-(-count // 32)), "little")
        return words & ((1 << count) - 1)

    def below(self, m: int) -> int:
        """Return an exactly uniform integer in ``[0, m)`` (Lemire, in ``FastRng``)."""
        return self.rng.below(m)


Columns = list[list[int]]  # columns[p][q]: plane q of position p, one bit per deck
Kernel = Callable[[int, int, LaneSource], Iterator[Columns]]


def check_card_count(n: int) -> int:
    """Return ``n`` if the tally can count decks of that size, else raise ValueError."""
    if isinstance(n, bool) or not isinstance(n, int) or not MIN_CARDS <= n <= MAX_CARDS:
        raise ValueError(f"the tally counts decks of {MIN_CARDS} to {MAX_CARDS} cards, not {n!r}")
    return n


def planes_per_card(n: int) -> int:
    """Return K, the number of bits (planes) that hold a card id below ``n``."""
    return max(n - 1, 1).bit_length()


def lanes_for(n: int) -> int:
    """Return the block size (decks per block) of the swap kernels for ``n`` cards."""
    return MAX_LANES >> max(0, planes_per_card(n) - 6)


# --- bit-sliced building blocks -----------------------------------------------------------


def fresh_columns(n: int, lanes: int) -> Columns:
    """Return ``lanes`` unshuffled decks ``0..n-1`` as columns of planes."""
    every_lane = (1 << lanes) - 1
    width = planes_per_card(n)
    return [[every_lane if p >> q & 1 else 0 for q in range(width)] for p in range(n)]


def value_masks(planes: list[int], count: int, root: int) -> list[int]:
    """Return ``masks[v]`` for ``v < count``: the lanes of ``root`` whose value is ``v``."""
    nodes = [root]
    # most significant bit first, so prefixes that no value below count has are dropped
    for q in reversed(range(len(planes))):
        plane = planes[q]
        children = []
        for node in nodes:
            ones = node & plane
            children.append(node ^ ones)
            children.append(ones)
        del children[((count - 1) >> q) + 1 :]
        nodes = children
    return nodes


def lanes_at_least(planes: list[int], m: int, every_lane: int) -> int:
    """Return the mask of lanes whose value (read from ``planes``) is ``>= m``."""
    greater = 0
    equal = every_lane
    for q in reversed(range(len(planes))):
        if m >> q & 1:
            equal &= planes[q]
        else:
            greater |= equal & planes[q]
    return greater | equal


class SpareBits:
    """Fresh random planes for redraws, shared by the steps of one block.

    A rejected lane takes its new bits from the first set in which that lane's bits are
    still unused, so every bit feeds at most one value (values stay independent) and the
    bits other steps left unused are not thrown away: a 52-card Fisher-Yates block of
    65,536 decks draws 618 planes instead of 1,836.
    """

    def __init__(self, source: LaneSource, lanes: int) -> None:
        self.source = source
        self.lanes = lanes
        self.every_lane = (1 << lanes) - 1
        self._sets: dict[int, list[list]] = {}  # width -> [[planes, used lanes], ...]

    def sets(self, width: int) -> list[list]:
        """Return the live sets of ``width`` planes, oldest first, as ``[planes, used]``."""
        return self._sets.setdefault(width, [])

    def add_set(self, width: int) -> None:
        """Draw a new set of ``width`` planes, none of its lanes used yet."""
        self.sets(width).append([[self.source.bits(self.lanes) for _ in range(width)], 0])

    def tidy(self, width: int) -> None:
        """Forget the sets of ``width`` planes that are used up, and all but the newest few."""
        live = [entry for entry in self.sets(width) if entry[1] != self.every_lane]
        # an old set has few unused lanes left: visiting it costs more than fresh bits
        self._sets[width] = live[-SPARE_SETS_KEPT:]


def uniform_planes(
    m: int,
    lanes: int,
    source: LaneSource,
    spare: SpareBits | None = None,
    fix_one_by_one_at: int = FIX_ONE_BY_ONE_AT,
) -> list[int]:
    """Return planes holding, in every lane, an independent exactly uniform value in [0, m).

    Draw order (part of the kernels' contract, scripted in the tests): ``k`` planes of
    ``lanes`` bits, least significant first. Then, while lanes are rejected (value >= m):
    once few remain, ``source.below(m)`` for each, lowest lane first; before that, the
    spare sets of ``k`` planes in turn (a new set is drawn when they run out), each
    rejected lane taking the bits of the first set where they are unused.
    """
    width = (m - 1).bit_length()
    planes = [source.bits(lanes) for _ in range(width)]
    if m == 1 << width:
        return planes  # a power of two: every k-bit value is fine
    spare = spare or SpareBits(source, lanes)
    rejected = lanes_at_least(planes, m, spare.every_lane)
    sets = spare.sets(width)
    next_set = 0
    while rejected:
        if rejected.bit_count() <= fix_one_by_one_at:
            _redraw_one_by_one(planes, rejected, m, source)
            break
        if next_set == len(sets):
            spare.add_set(width)
        entry = sets[next_set]
        next_set += 1
        fresh, used = entry
        taking = rejected ^ (rejected & used)
        if not taking:
            continue
        entry[1] = used | taking
        planes = [plane ^ ((plane ^ new) & taking) for plane, new in zip(planes, fresh)]
        # a lane that took a value >= m stays rejected and looks in the next set
        rejected ^= taking ^ (taking & lanes_at_least(fresh, m, spare.every_lane))
    spare.tidy(width)
    return planes


def _redraw_one_by_one(planes: list[int], rejected: int, m: int, source: LaneSource) -> None:
    """Give each rejected lane, lowest first, a fresh ``source.below(m)``, in place."""
    while rejected:
        lane = rejected & -rejected
        rejected ^= lane
        value = source.below(m)
        for q, plane in enumerate(planes):
            planes[q] = plane | lane if value >> q & 1 else (plane | lane) ^ lane


def swap_with_partner(columns: Columns, i: int, partner_masks: list[int]) -> None:
    """In every lane swap position ``i`` with the position ``v`` whose mask holds the lane."""
    column_i = columns[i]
    moved_in = list(column_i)
    planes = range(len(column_i))
    for v, mask in enumerate(partner_masks):
        if v == i or not mask:
            continue  # partner i: the card stays
        column_v = columns[v]
        for q in planes:
            # lanes of mask: column_v takes column_i's bit, column_i takes column_v's
            difference = (column_v[q] ^ column_i[q]) & mask
            column_v[q] ^= difference
            moved_in[q] ^= difference
    columns[i] = moved_in


def swap_pairs(columns: Columns, first_masks: list[int], second_masks: list[int]) -> None:
    """In every lane swap the positions ``a`` and ``b`` that the two mask lists select."""
    planes = range(len(columns[0]))
    # lanes where p is exactly one of a, b (a == b swaps nothing, so it is in no mask)
    one_of = [a ^ b for a, b in zip(first_masks, second_masks)]
    # difference = card at a XOR card at b: each position contributes where it is one of them
    difference = [0] * len(planes)
    for column, mask in zip(columns, one_of):
        if mask:
            for q in planes:
                difference[q] ^= column[q] & mask
    for column, mask in zip(columns, one_of):
        if mask:
            for q in planes:
                column[q] ^= difference[q] & mask


# --- kernels: the registry's swap algorithms, run on a whole block ------------------------
#
# A kernel is a generator: it yields the block's columns after each step (the same list,
# changed in place), so a tally can make the next block a few steps at a time while it
# counts the current one. ``make_block`` runs one to the end.


def fisher_yates_block(n: int, lanes: int, source: LaneSource) -> Iterator[Columns]:
    """Shuffle ``lanes`` decks as ``algorithms.fisher_yates``: i = n-1..1, j = below(i + 1)."""
    columns = fresh_columns(n, lanes)
    every_lane = (1 << lanes) - 1
    spare = SpareBits(source, lanes)
    for i in range(n - 1, 0, -1):
        partners = uniform_planes(i + 1, lanes, source, spare)
        swap_with_partner(columns, i, value_masks(partners, i + 1, every_lane))
        yield columns


def fisher_yates_off_by_one_block(n: int, lanes: int, source: LaneSource) -> Iterator[Columns]:
    """Shuffle ``lanes`` decks as ``algorithms.fisher_yates_off_by_one``: j = below(i)."""
    columns = fresh_columns(n, lanes)
    every_lane = (1 << lanes) - 1
    spare = SpareBits(source, lanes)
    for i in range(n - 1, 0, -1):
        partners = uniform_planes(i, lanes, source, spare)
        swap_with_partner(columns, i, value_masks(partners, i, every_lane))
        yield columns


def swap_any_block(n: int, lanes: int, source: LaneSource) -> Iterator[Columns]:
    """Shuffle ``lanes`` decks as ``algorithms.swap_any``: i = n-1..0, j = below(n)."""
    columns = fresh_columns(n, lanes)
    every_lane = (1 << lanes) - 1
    spare = SpareBits(source, lanes)
    for i in range(n - 1, -1, -1):
        partners = uniform_planes(n, lanes, source, spare)
        swap_with_partner(columns, i, value_masks(partners, n, every_lane))
        yield columns


def naive_pairs_block(n: int, lanes: int, source: LaneSource) -> Iterator[Columns]:
    """Shuffle ``lanes`` decks as ``algorithms.naive_pairs``: n swaps of below(n), below(n)."""
    columns = fresh_columns(n, lanes)
    every_lane = (1 << lanes) - 1
    spare = SpareBits(source, lanes)
    for _ in range(n):
        first = value_masks(uniform_planes(n, lanes, source, spare), n, every_lane)
        second = value_masks(uniform_planes(n, lanes, source, spare), n, every_lane)
        swap_pairs(columns, first, second)
        yield columns


def c_rand_block(n: int, lanes: int, source: LaneSource) -> Iterator[Columns]:
    """Shuffle ``lanes`` decks as ``algorithms.c_rand``: srand(below(2**32)), j = rand() % n."""
    columns = fresh_columns(n, lanes)
    every_lane = (1 << lanes) - 1
    seeds = source.bits(32 * lanes)  # below(2**32) is a raw word: it never rejects
    for i, partners in enumerate(c_rand_partner_planes(seeds, n, lanes)):
        swap_with_partner(columns, i, value_masks(partners, n, every_lane))
        yield columns


def unshuffled_block(n: int, lanes: int, source: LaneSource) -> Iterator[Columns]:
    """Yield ``lanes`` decks in order, as ``algorithms.no_shuffle`` (draws nothing)."""
    yield fresh_columns(n, lanes)


KERNELS: dict[str, Kernel] = {
    "fisher-yates": fisher_yates_block,
    "fisher-yates-off-by-one": fisher_yates_off_by_one_block,
    "swap-any": swap_any_block,
    "naive-pairs": naive_pairs_block,
    "c-rand": c_rand_block,
    "none": unshuffled_block,
}


def make_block(kernel: Kernel, n: int, lanes: int, source: LaneSource) -> Columns:
    """Return the finished block of ``lanes`` decks that ``kernel`` makes."""
    columns: Columns = []
    for columns in kernel(n, lanes, source):
        pass
    return columns


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


def planes_from_lane_bytes(data: bytes, stride: int, width: int) -> list[int]:
    """Return ``width`` planes of the values ``data[0::stride]`` (one byte per lane)."""
    lanes = -(-len(data) // stride)
    # group r holds lanes r, r+8, r+16, ... one per byte; bit q of those bytes moved to
    # bit r is plane q's bit for those lanes (lane 8u + r sits at bit 8u + r)
    groups = [int.from_bytes(data[r * stride :: 8 * stride], "little") for r in range(8)]
    low_bits = int.from_bytes(b"\x01" * -(-lanes // 8), "little")
    planes = []
    for q in range(width):
        mask = low_bits << q
        plane = 0
        for r, group in enumerate(groups):
            bits = group & mask
            plane |= bits << (r - q) if r >= q else bits >> (q - r)
        planes.append(plane)
    return planes


# --- reading blocks back ------------------------------------------------------------------


_ASCII_BIT = bytes(1 if v == ord("1") else 0 for v in range(256))


def column_bytes(column: list[int], lanes: int) -> bytes:
    """Return the card at this position in each lane, one byte per lane."""
    value = 0
    for q, plane in enumerate(column):
        # one ASCII '0'/'1' per lane, lowest lane first, turned into a 0/1 byte per lane
        digits = format(plane, "b").zfill(lanes)[::-1].encode("ascii")
        value |= int.from_bytes(digits.translate(_ASCII_BIT), "little") << q
    return value.to_bytes(lanes, "little")


def decks_from_columns(columns: Columns, lanes: int) -> bytes:
    """Return the block's decks one after another, one byte per card (for checks and tests)."""
    n = len(columns)
    decks = bytearray(n * lanes)
    for p, column in enumerate(columns):
        decks[p::n] = column_bytes(column, lanes)
    return bytes(decks)


# --- counting -----------------------------------------------------------------------------


def count_lanes(
    columns: Columns, start: int, width: int, counts: list[list[int]], fixed_points: list[int]
) -> None:
    """Add lanes ``start .. start + width - 1`` of a block to ``counts`` and ``fixed_points``."""
    n = len(columns)
    window = (1 << width) - 1
    fixed_counter = [0] * n.bit_length()  # per lane, in binary: how many fixed points so far
    for p, column in enumerate(columns):
        planes = [(plane >> start) & window for plane in column]
        masks = value_masks(planes, n, window)
        for card, mask in enumerate(masks):
            if mask:
                counts[card][p] += mask.bit_count()
        _add_one_where(fixed_counter, masks[p])
    for k, mask in enumerate(value_masks(fixed_counter, n + 1, window)):
        if mask:
            fixed_points[k] += mask.bit_count()


def _add_one_where(counter: list[int], lanes: int) -> None:
    """Add 1 to the bit-sliced per-lane counter in the given lanes, in place."""
    carry = lanes
    for bit, plane in enumerate(counter):
        if not carry:
            return
        counter[bit] = plane ^ carry
        carry &= plane


def count_decks(decks: bytes, n: int, counts: list[list[int]], fixed_points: list[int]) -> None:
    """Add decks (one after another, one byte per card) to ``counts`` and ``fixed_points``."""
    for p in range(n):
        column = decks[p::n]
        for card in range(n):
            counts[card][p] += column.count(card)
    # XOR with the unshuffled order leaves a zero byte exactly at each fixed point
    order = bytes(range(n)) * (len(decks) // n)
    matches = (int.from_bytes(decks, "little") ^ int.from_bytes(order, "little")).to_bytes(
        len(decks), "little"
    )
    for start in range(0, len(decks), n):
        fixed_points[matches.count(0, start, start + n)] += 1


# --- deck makers: registry algorithms whose decks can be made faster, same distribution ----


def riffle_gsr_decks(n: int, params: dict, rng: FastRng, count: int) -> bytes:
    """Return ``count`` decks of ``passes`` GSR riffles each, one byte per card, made inside C.

    Why it is the same distribution (Bayer & Diaconis 1992): the inverse of ``k`` GSR
    riffles puts the cards in stable order of independent uniform labels in [0, 2^k), so
    the inverse of that arrangement, the rank of each card, is exactly a k-riffle deck.
    """
    labels = _uniform_labels(params["passes"], n * count, rng)
    return b"".join(riffle_deck_from_labels(labels[start : start + n]) for start in range(0, n * count, n))


def riffle_deck_from_labels(labels: Sequence[int]) -> bytes:
    """Return the deck whose inverse is the cards in stable order of their labels."""
    positions = range(len(labels))
    inverse_deck = sorted(positions, key=labels.__getitem__)  # stable: ties keep their order
    return bytes(sorted(positions, key=inverse_deck.__getitem__))


def _uniform_labels(bits: int, count: int, rng: FastRng) -> Sequence[int]:
    """Return ``count`` independent uniform integers in [0, 2^bits)."""
    if bits <= 8:
        raw = bytes(rng.words(-(-count // 4)))[:count]
        return raw.translate(bytes(b & ((1 << bits) - 1) for b in range(256)))
    words_each = -(-bits // 32)
    size, surplus = 4 * words_each, 32 * words_each - bits
    raw = bytes(rng.words(words_each * count))
    return [int.from_bytes(raw[i : i + size], "little") >> surplus for i in range(0, len(raw), size)]


def random_comparator_decks(n: int, params: dict, rng: FastRng, count: int) -> bytes:
    """Return ``count`` decks sorted with a coin-flip comparator, as the registry's, with coins drawn in bulk."""
    coins = _endless_coins(rng)
    # the registry's comparator answers below(2) * 2 - 1: here a pre-drawn 0 or 2, minus 1
    key = cmp_to_key(lambda a, b: next(coins) - 1)
    deck = range(n)
    return b"".join(bytes(sorted(deck, key=key)) for _ in range(count))


_COIN_BYTES = tuple(bytes(2 * ((b >> k) & 1) for k in range(8)) for b in range(256))


def _endless_coins(rng: FastRng, words_per_refill: int = 512) -> Iterator[int]:
    """Yield fair coins as 0 or 2 forever, drawn 32 at a time from the rng's words."""
    def refill() -> bytes:
        return b"".join(map(_COIN_BYTES.__getitem__, bytes(rng.words(words_per_refill))))

    return chain.from_iterable(map(lambda _: refill(), repeat(None)))


MAX_MEASURED_RIFFLE_CARDS = 5  # 5! = 120 orders: a few thousand decks estimate the distance well


def measured_riffle_tv(n: int, max_k: int, trials: int, seed: int | str | None = None) -> list[float]:
    """Return the total variation distance to uniform of ``trials`` sampled k-riffle decks, k = 1..max_k.

    A Monte-Carlo estimate to set beside the exact one: it is biased upwards by sampling
    noise (about 0.4 * sqrt(n! / trials)), so only small decks are measured.
    """
    if not 1 <= n <= MAX_MEASURED_RIFFLE_CARDS:
        raise ValueError(f"measured riffle distances need 1 to {MAX_MEASURED_RIFFLE_CARDS} cards, not {n}")
    rng = FastRng(seed)
    orders = math.factorial(n)
    uniform = 1 / orders
    distances = []
    for passes in range(1, max_k + 1):
        decks = riffle_gsr_decks(n, {"passes": passes}, rng, trials)
        seen = Counter(decks[start : start + n] for start in range(0, len(decks), n))
        unseen = orders - len(seen)
        distances.append(0.5 * (sum(abs(count / trials - uniform) for count in seen.values()) + unseen * uniform))
    return distances


DECK_MAKERS: dict[str, Callable[[int, dict, FastRng, int], bytes]] = {
    "riffle-gsr": riffle_gsr_decks,
    "random-comparator": random_comparator_decks,
}


# --- the tally ----------------------------------------------------------------------------


class Tally:
    """An ``n`` x ``n`` count of card (row) by position (column) for one algorithm."""

    def __init__(
        self,
        algo_id: str,
        n: int,
        params: dict | None = None,
        seed: int | str | None = None,
    ) -> None:
        self.algorithm = algorithms.get(algo_id)
        self.n = check_card_count(n)
        self.params = self.algorithm.resolve_params(params)
        self.seed = seed
        self.kernel = KERNELS.get(algo_id)
        self.lanes = lanes_for(n) if self.kernel else 0
        self.reset()

    @property
    def algo(self) -> str:
        """The registry id of the algorithm being counted."""
        return self.algorithm.id

    def reset(self) -> None:
        """Zero the counts and restart the random stream (the same one again when seeded)."""
        self.counts = [[0] * self.n for _ in range(self.n)]
        self.trials = 0
        self.fixed_points = [0] * (self.n + 1)
        self._rng = FastRng(self.seed)
        self._source = FastLaneSource(self._rng)
        if self.kernel:
            self._block: Columns = []
            self._next_lane = self.lanes  # no lanes left: the first run makes a block
            self._upcoming = BlockInProgress(self.kernel, self.n, self.lanes, self._source)

    def run(self, batch_size: int) -> None:
        """Shuffle ``batch_size`` fresh decks ``0..n-1`` and add them to the counts."""
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 0:
            raise ValueError(f"batch_size must be a whole number >= 0, not {batch_size!r}")
        if self.kernel:
            self._run_kernel(batch_size)
        else:
            self._run_registry(batch_size)
        self.trials += batch_size

    def _run_kernel(self, batch_size: int) -> None:
        remaining = batch_size
        while remaining:
            if self._next_lane == self.lanes:
                self._block = self._upcoming.finish()
                self._upcoming = BlockInProgress(self.kernel, self.n, self.lanes, self._source)
                self._next_lane = 0
            width = min(remaining, self.lanes - self._next_lane)
            count_lanes(self._block, self._next_lane, width, self.counts, self.fixed_points)
            self._next_lane += width
            remaining -= width
            # make the next block in step with counting this one, so runs of equal size
            # take about equal time (a kernel has at most n steps)
            self._upcoming.advance(-(-self.n * width // self.lanes))

    def _run_registry(self, batch_size: int) -> None:
        maker = DECK_MAKERS.get(self.algo)
        if maker is not None:
            count_decks(maker(self.n, self.params, self._rng, batch_size), self.n, self.counts, self.fixed_points)
            return
        run, params, rng = self.algorithm.run, self.params, self._rng
        deck = list(range(self.n))
        decks = bytearray()
        for _ in range(batch_size):
            decks += bytes(run(deck, rng, **params))
        count_decks(bytes(decks), self.n, self.counts, self.fixed_points)

    def snapshot(self) -> dict:
        """Return the tally as plain data: lists and ints a worker can post as they are."""
        return {
            "algo": self.algo,
            "n": self.n,
            "params": dict(self.params),
            "seed": self.seed,
            "trials": self.trials,
            "counts": [list(row) for row in self.counts],
            "fixed_points": list(self.fixed_points),
        }
