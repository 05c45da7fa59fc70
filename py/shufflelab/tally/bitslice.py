"""Bit-slicing: many decks at once, one bit per deck in each big integer.

Position ``p`` of ``lanes`` decks is ``K = (n - 1).bit_length()`` big integers
("planes"): bit ``l`` of plane ``q`` is bit ``q`` of the card at position ``p`` in deck
``l``. One ``&`` or ``^`` on two planes then works on every deck inside C: a swap with a
partner that differs from deck to deck costs ``O(i * K)`` big-integer operations for the
whole block; partners are drawn as planes by plain rejection, so every one is exactly
uniform and independent.
"""

from array import array
from functools import cache
from typing import Protocol

from .fast_rng import FastRng

# When this few lanes are still rejected, drawing them one by one beats another full round.
FIX_ONE_BY_ONE_AT = 12
# Spare random planes kept per width for redraws (see SpareBits); 4 measured best of 2, 4, all.
SPARE_SETS_KEPT = 4
FIELD_BITS = 8 * array("I").itemsize  # one count per field in exact_counts (32 bits wherever CPython runs)

Columns = list[list[int]]  # columns[p][q]: plane q of position p, one bit per deck


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

    def bits(self, count: int) -> int:
        """Return ``count`` uniform random bits: whole 32-bit words, the extra high bits dropped."""
        # one int straight from the generator: a third of a block's drawing went to bytes and back
        words = self.rng.words_as_int(-(-count // 32))
        # whole words (every block of the kernels) have no extra bits: no mask to make and apply
        return words if count % 32 == 0 else words & ((1 << count) - 1)

    def below(self, m: int) -> int:
        """Return an exactly uniform integer in ``[0, m)`` (``FastRng.below``: bits, then rejection)."""
        return self.rng.below(m)


def planes_per_card(n: int) -> int:
    """Return K, the number of bits (planes) that hold a card id below ``n``."""
    return max(n - 1, 1).bit_length()


def fresh_columns(n: int, lanes: int) -> Columns:
    """Return ``lanes`` unshuffled decks ``0..n-1`` as columns of planes."""
    every_lane = (1 << lanes) - 1
    width = planes_per_card(n)
    return [[every_lane if p >> q & 1 else 0 for q in range(width)] for p in range(n)]


def value_masks(planes: list[int], count: int, root: int) -> list[int]:
    """Return ``masks[v]`` for ``v < count``: the lanes of ``root`` whose value is ``v``."""
    low_width = len(planes) // 2 if len(planes) >= 4 else 0
    if not low_width:
        return _value_tree(planes, count, root)
    # a tree for the high half of the bits, one for the low half, and an AND per value: 79 operations for 51 values
    # (the Fisher-Yates kernel's last step) where one tree of all the bits took 106
    high = _value_tree(planes[low_width:], ((count - 1) >> low_width) + 1, root)
    low = _value_tree(planes[:low_width], min(count, 1 << low_width), root)
    low_bits = (1 << low_width) - 1
    return [high[v >> low_width] & low[v & low_bits] for v in range(count)]


def _value_tree(planes: list[int], count: int, root: int) -> list[int]:
    """Return ``value_masks`` one bit at a time, the most significant first."""
    nodes = [root]
    # most significant bit first, so prefixes that no value below count has are dropped
    for q in reversed(range(len(planes))):
        plane = planes[q]
        ones = [node & plane for node in nodes]
        children = [0] * (2 * len(nodes))  # value 2v and 2v + 1 under node v: whole lists, not append per node
        children[0::2] = [node ^ one for node, one in zip(nodes, ones)]
        children[1::2] = ones
        del children[((count - 1) >> q) + 1 :]
        nodes = children
    return nodes


def value_counts(planes: list[int], count: int, root: int, wanted: int = 0) -> tuple[list[int], int]:
    """Return (how many lanes of ``root`` hold each value ``v < count``, the mask of the lanes holding ``wanted``),
    for planes in which every lane of ``root`` holds a value below ``count``."""
    # superset counts, then their Moebius inversion: count - 1 ANDs (51 for 52 cards) where the value tree took 80
    subsets = superset_masks(planes, count, root)
    counts = exact_counts(array("I", map(int.bit_count, subsets)), count, len(planes)).tolist()
    return counts, (lanes_holding(subsets, planes, count, wanted) if wanted < count else 0)


def superset_masks(planes: list[int], count: int, root: int) -> list[int]:
    """Return ``masks[s]`` for ``s < count``: the lanes of ``root`` whose value has every bit of ``s`` set."""
    masks = [root]
    for q, plane in enumerate(planes):
        # s + 2**q for the s found so far: no value below count has the bits of a larger s, so none is made
        masks += [lanes & plane for lanes in masks[: max(0, count - (1 << q))]]
    return masks


def exact_counts(superset_counts: array, count: int, width: int) -> memoryview:
    """Return how many values equal each ``s < count``, from ``superset_counts[s]`` (how many have every bit of
    ``s``; none has a value of ``count`` or more): the Moebius inversion over ``width`` bits. ``superset_counts``
    (an array of "I") may hold several groups of ``count``, each inverted alone, the result's groups in its order."""
    groups = len(superset_counts) // count
    # one field per s, all inverted at once: field s less field s + 2**b, bit by bit, never borrows (after
    # the bits done so far, field s counts values that match s there and have s's other bits, which field
    # s + 2**b's values are some of): 7.5 us for 52 fields in Pyodide, a Python loop over them 35 us
    packed = int.from_bytes(superset_counts.tobytes(), "little")
    for b, fields_without_b in enumerate(_fields_without_bit(count, width, groups)):
        packed -= (packed >> (FIELD_BITS << b)) & fields_without_b
    return memoryview(packed.to_bytes(FIELD_BITS // 8 * count * groups, "little")).cast("I")


@cache
def _fields_without_bit(count: int, width: int, groups: int) -> tuple[int, ...]:
    """Return, for each bit b below ``width``, the mask of the fields s < ``count`` (in each of ``groups`` groups of
    ``count`` fields) whose s lacks bit b and s + 2**b is below count."""
    field, size = (1 << FIELD_BITS) - 1, FIELD_BITS // 8 * count
    # s + 2**b at or past count is another group's field: left out (its count is 0 by the precondition)
    group = [sum(field << (FIELD_BITS * s) for s in range(count) if not s >> b & 1 and s | 1 << b < count)
             for b in range(width)]
    return tuple(int.from_bytes(mask.to_bytes(size, "little") * groups, "little") for mask in group)


def lanes_holding(supersets: list[int], planes: list[int], count: int, value: int) -> int:
    """Return the lanes whose value is ``value``, from ``superset_masks``'s (every lane's value below ``count``)."""
    # the lanes with all of value's bits, less those with another bit that some value below count could have
    # (2 operations a plane on the mask, not an OR of whole planes: they may reach past root's lanes)
    lanes = supersets[value]
    for q, plane in enumerate(planes):
        if not value >> q & 1 and value | 1 << q < count:
            lanes ^= lanes & plane
    return lanes


def lanes_at_least(planes: list[int], m: int, lanes: int) -> int:
    """Return the mask of the lanes of ``lanes`` whose value (read from ``planes``) is ``>= m``, for 1 <= m <=
    2 ** len(planes)."""
    # value >= m exactly where value + (2**k - m) carries out of k bits: the carry chain from the lowest bit, an OR
    # where that constant has a 1 and an AND where it has a 0, free until its first 1 (258 operations for the
    # bounds 2..63 where walking from the top bit with early stops took 304; 4 for m = 52, not 5)
    top = m - 1  # the constant is top's complement
    carry = None  # no carry yet: 0 in every lane
    for q, plane in enumerate(planes):
        if not top >> q & 1:
            carry = plane if carry is None else carry | plane
        elif carry is not None:
            carry &= plane
    return 0 if carry is None else carry & lanes


class SpareBits:
    """Fresh random planes for redraws, shared by the steps of one block.

    A rejected lane takes its new bits from the first set in which that lane's bits are
    still unused, so every bit feeds at most one value (values stay independent) and the
    bits other steps left unused are not thrown away: a 52-card Fisher-Yates block of
    65,536 decks draws 1,023 to 1,061 planes instead of 1,823 to 1,847 (five seeds,
    tests/unit/tally/test_bitslice.py).
    """

    def __init__(self, source: LaneSource, lanes: int) -> None:
        self.source = source
        self.lanes = lanes
        self.every_lane = (1 << lanes) - 1
        self._sets: dict[int, list[list]] = {}  # width -> [[planes, used lanes], ...]

    def sets(self, width: int) -> list[list]:
        """Return the live sets of ``width`` planes, oldest first, as ``[planes, lanes still unused]``."""
        return self._sets.setdefault(width, [])

    def add_set(self, width: int) -> None:
        """Draw a new set of ``width`` planes, none of its lanes used yet."""
        self.sets(width).append([[self.source.bits(self.lanes) for _ in range(width)], self.every_lane])

    def tidy(self, width: int) -> None:
        """Forget the sets of ``width`` planes that are used up, and all but the newest few."""
        live = [entry for entry in self.sets(width) if entry[1]]
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
    every_lane = spare.every_lane
    rejected = lanes_at_least(planes, m, every_lane)
    if not rejected:
        return planes
    sets = spare.sets(width)
    next_set = 0
    # the planes with the rejected lanes cleared (one operation per plane, where merging at the end took three); the
    # sets' accepted bits are gathered into them as they come (two operations per plane and set)
    kept = every_lane ^ rejected
    accepted = [plane & kept for plane in planes]
    while rejected:
        if rejected.bit_count() <= fix_one_by_one_at:
            _redraw_one_by_one(accepted, rejected, m, source)
            rejected = 0
            break
        if next_set == len(sets):
            spare.add_set(width)
        entry = sets[next_set]
        next_set += 1
        fresh, unused = entry
        if unused is every_lane:  # a set just drawn (about half the rounds): every rejected lane takes from it
            entry[1] = unused ^ rejected
            still = lanes_at_least(fresh, m, rejected)
            took, rejected = rejected ^ still, still
        else:
            taking = rejected & unused
            if not taking:
                continue
            entry[1] = unused ^ taking
            # a lane that took a value >= m stays rejected and looks in the next set
            took = taking ^ lanes_at_least(fresh, m, taking)
            rejected ^= took
        accepted = [bits | (new & took) for bits, new in zip(accepted, fresh)]
    spare.tidy(width)
    return accepted


def _redraw_one_by_one(accepted: list[int], rejected: int, m: int, source: LaneSource) -> None:
    """Give each rejected lane, lowest first, a fresh ``source.below(m)``: set its bits in ``accepted``, in place."""
    # at most FIX_ONE_BY_ONE_AT lanes, found from the top by bit_length and set by an OR each: in Pyodide 71 us for
    # 12 lanes and 8 us for one, where finding them with bytes.find on the lanes' bytes and setting each plane's as
    # a sum took 108 and 30 (a 52-card block calls this up to 46 times)
    found = []
    while rejected:
        lane = 1 << (rejected.bit_length() - 1)
        found.append(lane)
        rejected ^= lane
    for lane in reversed(found):
        value = source.below(m)
        for q in range(value.bit_length()):
            if value >> q & 1:
                accepted[q] |= lane


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
