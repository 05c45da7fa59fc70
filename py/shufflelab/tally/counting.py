"""Counting decks into the tally: card × position counts and fixed points, in bulk."""

from .bitslice import Columns, value_masks


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
