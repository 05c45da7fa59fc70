"""Counting decks into the tally: card × position counts and fixed points, in bulk."""

from array import array
from operator import add

from .bitslice import (
    Columns,
    exact_counts,
    lanes_holding,
    planes_from_lane_bytes,
    planes_per_card,
    superset_masks,
    value_masks,
)
from .kernels import MAX_LANES


def count_lanes(
    columns: Columns, start: int, width: int, counts: list[list[int]], fixed_points: list[int],
    seen: list[int] | None = None, by_card: bool = False,
) -> None:
    """Add lanes ``start .. start + width - 1`` of a block to ``counts`` and ``fixed_points``.

    With ``seen`` (n ints, relative to ``start``), also mark in ``seen[card]`` the lanes where
    the card is found, at any position. ``by_card``: the columns hold each card's position
    (a ``Kernel.by_card`` block), so column c's value p counts card c at position p.
    """
    n = len(columns)
    window = (1 << width) - 1
    fixed_counter = [0] * n.bit_length()  # per lane, in binary: how many fixed points so far
    superset_counts = array("I")  # the tally's own loop: each column's, inverted for all columns at once
    for p, column in enumerate(columns):
        # lanes from start on; those past the window are left in: value_masks and superset_masks start from the
        # root (window), so every mask they make is inside it (an & per plane cost about 5% of the count)
        planes = [plane >> start for plane in column]
        if seen is None:  # counts alone, and the lanes where the card is at p (columns hold values below n)
            subsets = superset_masks(planes, n, window)
            superset_counts.extend(map(int.bit_count, subsets))
            _add_one_where(fixed_counter, lanes_holding(subsets, planes, n, p))
            continue
        if by_card:
            raise ValueError("seen counts cards by position: not for a block kept by card")
        masks = value_masks(planes, n, window)
        for card, mask in enumerate(masks):
            if mask:
                counts[card][p] += mask.bit_count()
                seen[card] |= mask
        _add_one_where(fixed_counter, masks[p])
    if superset_counts:
        _add_counts(exact_counts(superset_counts, n, len(columns[0])), counts, by_card)
    for k, mask in enumerate(value_masks(fixed_counter, n + 1, window)):
        if mask:
            fixed_points[k] += mask.bit_count()


def _add_counts(column_counts: memoryview, counts: list[list[int]], by_card: bool) -> None:
    """Add each column's counts (n after n, column 0's first) to ``counts``, by card or by position."""
    n = len(counts)
    for p in range(n):
        found = column_counts[p * n : (p + 1) * n]
        if by_card:  # column p is card p; its values, positions
            row = counts[p]
            row[:] = map(add, row, found)  # in place: a caller may hold the row
        else:
            for card, k in enumerate(found):
                counts[card][p] += k


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


def count_orders(decks: bytes, n: int, counts: list[list[int]], fixed_points: list[int]) -> bool:
    """Add decks (one after another, one byte per card) to ``counts`` and ``fixed_points`` and return True if every
    one is an order of the cards 0..n-1; else add nothing and return False.

    What ``count_decks`` counts, checked, for decks that come from outside: bit-sliced in
    blocks of up to 65,536 decks (``count_lanes``), about ten times faster for many decks.
    """
    if len(decks) % n or decks.translate(None, bytes(range(n))):
        return False  # a deck cut short, or a card that is no card of the deck
    width_planes = planes_per_card(n)
    block_counts = [[0] * n for _ in range(n)]
    block_fixed = [0] * (n + 1)
    view = memoryview(decks)
    for start in range(0, len(decks) // n, MAX_LANES):
        block = view[start * n : (start + MAX_LANES) * n]
        lanes = len(block) // n
        columns = [planes_from_lane_bytes(block[p:], n, width_planes) for p in range(n)]
        seen = [0] * n
        count_lanes(columns, 0, lanes, block_counts, block_fixed, seen)
        # n positions, each holding a card below n: every card found means every card found exactly once
        if any(lanes_with_card != (1 << lanes) - 1 for lanes_with_card in seen):
            return False
    for row, block_row in zip(counts, block_counts):
        for position, count in enumerate(block_row):
            row[position] += count
    for k, count in enumerate(block_fixed):
        fixed_points[k] += count
    return True
