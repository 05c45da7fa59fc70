"""riffle-physical exactly: the port's own lines as steps of a Markov chain.

A pass can loop forever on ``take = 0``, so it has infinitely many paths; but the chain
of whole states (deck, left half, counters) has only self-loops as cycles, and a
self-loop of probability q scales the way out by 1/(1 − q). ``orders`` runs that chain
on whole decks (n ≤ 7); ``matrix`` runs the smaller chain of the counters alone, which
moves rows of a card matrix exactly as the port moves cards (O(n⁴), any n up to 52).
"""

import heapq
from collections import defaultdict
from fractions import Fraction
from itertools import repeat
from operator import add, mul
from typing import NamedTuple

from .. import algorithms
from .composition import IntDist, as_int_dist, repeat_passes
from .enumeration import Distribution, Order
from .errors import ExactTooCostly
from .matrices import Matrix, matrix_power, splice_start

MAX_PHYSICAL_MATRIX_CARDS = 52  # the pass matrix costs about O(n⁴) (n^3.7 measured from 30 to 52 cards)
# a first 52-card matrix, CPython 3.11 here, median of side-by-side runs (3.1 s before the bands); 5.7 s in
# Pyodide in Chromium (9.0 s for 3cf73b2 in turns: docs/physical.json, `scripts/bench.py --physical`); the cache
# makes a second call free
PHYSICAL_SECONDS_AT_52 = 2.2


def physical_cut(deck: list, cut_draw: int, right_draw: int) -> tuple[list, int, int]:
    """Cut as the port does: return (left half, left_count, right_count); ``deck`` keeps the rest."""
    left_half = algorithms.js_splice(deck, 0, algorithms.riffle_physical_cut(len(deck), cut_draw))
    return left_half, len(left_half), len(deck) - right_draw


def physical_drop(deck: list, left_half: list, left_count: int, right_count: int,
                  take: int, drop: int) -> tuple[int, int]:
    """Do one round of the port's loop in place; return the new (left_count, right_count)."""
    algorithms.js_splice(deck, right_count, 0, algorithms.js_splice(left_half, left_count, take))
    return left_count - take, right_count - drop + take


def physical_finish(deck: list, left_half: list, right_count: int) -> None:
    """Put what is left of the left half back, as the port's last line does."""
    algorithms.js_splice(deck, right_count, 0, left_half)


def physical_pass(deck: list, rng) -> list:
    """Return one riffle-physical pass built from the steps above (tests compare it with the port)."""
    deck = list(deck)
    left_half, left_count, right_count = physical_cut(deck, rng.below(9), rng.below(4))
    while left_count > 0:
        take = rng.below(4)
        left_count, right_count = physical_drop(deck, left_half, left_count, right_count, take, 0)
        right_count -= rng.below(4)
    physical_finish(deck, left_half, right_count)
    return deck


def physical_floor(n: int, left_count: int) -> int:
    """Return a right_count at or below which every later splice start is 0 (the deck's top).

    Until the loop ends, right_count can rise by at most left_count + 2 in all (each
    round adds its take and subtracts its drop), and a negative start s lands at
    max(length + s, 0) with length ≤ n. So from −(n + left_count + 2) down, all starts
    are 0 and all such right_counts behave alike: clamping to it keeps the chain finite.
    """
    return -(n + max(left_count, 0) + 2)


def pass_distribution(n: int) -> Distribution:
    """Return the exact distribution of one riffle-physical pass on 0..n-1."""
    pending: dict[tuple, Fraction] = defaultdict(Fraction)
    for cut_draw in range(9):
        for right_draw in range(4):
            deck = list(range(n))
            left_half, left_count, right_count = physical_cut(deck, cut_draw, right_draw)
            right_count = max(right_count, physical_floor(n, left_count))
            pending[(left_count, right_count, tuple(deck), tuple(left_half))] += Fraction(1, 36)
    # Every transition lowers left_count, or keeps it and lowers right_count, or is a
    # self-loop; so states taken in decreasing (left_count, right_count) come after
    # everything that leads to them.
    queue = [(-s[0], -s[1], s) for s in pending]
    heapq.heapify(queue)
    finals: dict[Order, Fraction] = defaultdict(Fraction)
    while queue:
        state = heapq.heappop(queue)[2]
        mass = pending.pop(state, None)
        if mass is None:
            continue
        left_count, right_count, deck, left_half = state
        if left_count <= 0:
            deck = list(deck)
            physical_finish(deck, list(left_half), right_count)
            finals[tuple(deck)] += mass
            continue
        floor = physical_floor(n, left_count)
        # take = 0 moves no card; it only lowers right_count (not at all with drop = 0 or at the floor)
        loops = 4 if right_count == floor else 1
        share = mass / (16 - loops)
        for take in range(4):
            for drop in range(4):
                if take == 0 and (drop == 0 or right_count == floor):
                    continue
                d, h = list(deck), list(left_half)
                lc, rc = physical_drop(d, h, left_count, right_count, take, drop)
                nxt = (lc, max(rc, physical_floor(n, lc)), tuple(d), tuple(h))
                if nxt not in pending:
                    heapq.heappush(queue, (-nxt[0], -nxt[1], nxt))
                pending[nxt] += share
    return dict(finals)


def orders(n: int, params: dict) -> IntDist:
    """The whole-order chain of one pass, ``passes`` passes composed."""
    one_pass = as_int_dist(pass_distribution(n))
    return repeat_passes(one_pass, params["passes"], n, "riffle-physical", "passes")


# --- the position matrix: the counters' chain moving rows of a card matrix -----------


def pass_matrix(n: int, one=1.0) -> Matrix:
    """Return one riffle-physical pass's exact position matrix.

    A pass's random choices never look at the cards, so (left_count, g, right_count),
    with g = left half's length − left_count (at most 3), is a Markov chain by itself,
    and every card's place is a deterministic function of that chain's path. For each
    chain state this keeps the matrix (place in deck-then-left-half × card) of joint
    probabilities and moves its rows exactly as the port moves cards. There are O(n²)
    states, so the cost is O(n⁴): exact for any n. Level by level (``_pass_flat_steps``), 52 cards
    took a median 2.35 s against the state-by-state reference's 11.5 s in three runs side by side here (4.9×).
    Floats travel two cards to a complex number, halving the element operations, and the
    cards every cut leaves in the deck are kept as bands (``_band_length``), a third fewer.
    """
    if n > MAX_PHYSICAL_MATRIX_CARDS:
        raise ExactTooCostly(
            f"riffle-physical's exact matrix costs O(n⁴) (about {PHYSICAL_SECONDS_AT_52:g} s at "
            f"{MAX_PHYSICAL_MATRIX_CARDS} cards in CPython, 16 times that at twice the cards), so it is limited "
            f"to {MAX_PHYSICAL_MATRIX_CARDS} cards"
        )
    if isinstance(one, float):
        return [list(row) for row in _finish(_pass_float_steps(n))]
    return _unpack(_finish(_pass_flat_steps(n, one, 1)), n, 1)


_FLOAT_PASSES: dict[int, tuple] = {}  # n -> one pass's float matrix: a second request is free


def _pass_float_steps(n: int):
    """Yield the fraction done now and then; return one pass's float matrix (cached by n)."""
    if n not in _FLOAT_PASSES:
        flat = yield from _pass_flat_steps(n, 1.0 + 0j, 2)
        _FLOAT_PASSES[n] = tuple(map(tuple, _unpack(flat, n, 2)))
    return _FLOAT_PASSES[n]


def _finish(steps):
    """Run a computation that yields its progress to the end; return its result."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def _unpack(flat: list, n: int, per_cell: int) -> Matrix:
    """Return P[card][place] from a flat place-major list holding per_cell cards per entry."""
    width = -(-n // per_cell)
    if per_cell == 1:
        return [flat[card::width] for card in range(n)]
    return [[(z.real if card % 2 == 0 else z.imag) for z in flat[card // 2::width]] for card in range(n)]


def _successors(n: int, key: tuple[int, int, int]):
    """Yield (take, next state) for every way out of a counters' state but its self-loop, as the port's loop goes."""
    left_count, g, right_count = key
    floor = physical_floor(n, left_count)
    for take in range(4):
        next_floor = physical_floor(n, left_count - take)
        for drop in range(4):
            if take == 0 and (drop == 0 or right_count == floor):
                continue
            yield take, (left_count - take, max(g, take), max(right_count - drop + take, next_floor))


def _first_states(n: int):
    """Yield (deck after the cut, left half, first state) for each of the 36 equally likely cuts."""
    for cut_draw in range(9):
        for right_draw in range(4):
            deck = list(range(n))
            left_half, left_count, right_count = physical_cut(deck, cut_draw, right_draw)
            yield deck, left_half, (left_count, 0, max(right_count, physical_floor(n, left_count)))


def chain_states(n: int) -> int:
    """Return how many counters' states one pass reaches: the matrix does one step of equal work for each.

    Take 0 with drop 1 steps right_count down by one to the floor, so the states of each
    (left_count, g) reached in the loop are all right_counts from the highest down to the
    floor; only the cuts that leave nothing to riffle stay where they are.
    """
    first = {key for _, _, key in _first_states(n)}
    highest: dict[tuple[int, int], int] = {}
    for left_count, g, right_count in first:
        if left_count > 0:
            highest[(left_count, g)] = max(highest.get((left_count, g), right_count), right_count)
    count = sum(1 for key in first if key[0] <= 0)
    for left_count in range(max(highest, default=(0, 0))[0], -3, -1):
        for g in range(4):
            top = highest.get((left_count, g))
            if top is None:
                continue
            count += top - physical_floor(n, left_count) + 1
            for take in (1, 2, 3) if left_count > 0 else ():
                after = (left_count - take, max(g, take))
                highest[after] = max(highest.get(after, top + take), top + take)
    return count


PROGRESS_EVERY = 50  # states between two progress reports (at 52 cards in Pyodide about 0.02 s, 0.15 s at most: the end)


class _Shape(NamedTuple):
    """Where a state's numbers sit: n cards, per_cell of them to an entry (two to a complex number)."""

    n: int
    per_cell: int
    width: int  # entries in a row of the full place × card matrix
    longest: int  # the longest left half any cut makes
    band_from: int  # the first entry column whose cards every cut leaves in the deck


def _shape(n: int, per_cell: int) -> _Shape:
    """Return the layout of n cards at per_cell cards an entry."""
    longest = min(max(algorithms.riffle_physical_cut(n, 8), 0), n)
    return _Shape(n, per_cell, -(-n // per_cell), longest, -(-longest // per_cell))


def _row_width(shape: _Shape, left_count: int) -> int:
    """Return the entry columns of a state's rows part: the cards neither waiting nor banded."""
    return shape.band_from - max(left_count, 0) // shape.per_cell


def _band_length(shape: _Shape, left_count: int, g: int) -> int:
    """Return how many places each band holds while the left half has left_count + g cards.

    A card c that every cut leaves in the deck sits at its deck index (c − cut, at least
    c − longest) plus the left-half cards put in before it (at most cut − the left half's
    length now): so it is only ever at places c − longest to c − that length, and the
    other places of its column, zeros, are not stored (a third of all entries at 52 cards).
    """
    return shape.longest - (left_count + g) + shape.per_cell


def _band_low(shape: _Shape, band: int) -> int:
    """Return the place a band starts at: its first card's place were the cut the longest."""
    return (shape.band_from + band) * shape.per_cell - shape.longest


def _pass_flat_steps(n: int, one, per_cell: int):
    """Yield the fraction of states done now and then; return the final place × card matrix, flat, per_cell
    cards per entry.

    The chain goes level by level (left_count falling). Within a level, a state's data are,
    for the cards not still waiting (the waiting cards sit in order below, one row each, with
    the state's whole mass, kept in a last cell), the rows of the deck and of the left half's
    taken part, place by place, then the bands (``_band_length``) of the cards every cut
    leaves in the deck, card column by card column; a take moves rows into an intermediate
    (counters before the drop), and the four drops, which move no card, are sums of those
    intermediates.
    """
    shape = _shape(n, per_cell)
    zero = one - one
    units = [one, one * 1j] if per_cell == 2 else [one]
    total = chain_states(n)
    done = 0
    starts: dict[tuple[int, int, int], list] = {}  # the 36 cuts' first states
    for deck, _left_half, key in _first_states(n):
        _add_into(starts, key, _first_data(shape, deck, key, [unit / 36 for unit in units]))
    top = max((key[0] for key in starts), default=0)
    taken: dict[tuple[int, int, int], list] = {}  # (left_count, g, right_count + take) -> data moved there, summed once
    for level in range(top, 0, -1):
        floor = physical_floor(n, level)
        for g in range(4):
            highs = [key[2] for key in taken if key[0] == level and key[1] == g]
            highs += [key[2] for key in starts if key[0] == level and key[1] == g]
            if not highs:
                continue
            plus: dict[int, list] = {}  # right_count -> its intermediate plus its own data after the self-loop
            pairs: dict[int, list] = {}  # odd right_count -> plus there and one above: each pair serves two states
            for right_count in range(max(highs), floor - 1, -1):
                parts = [_sum(taken.pop((level, g, right_count), [])), starts.pop((level, g, right_count), None)]
                if right_count == floor:
                    parts = [_times(parts[0], 4), parts[1]]
                    parts += [_times(plus.get(floor + d), 4 - d) for d in (1, 2, 3)]
                elif right_count % 2:  # the three pluses above, as one plus and a pair
                    parts += [plus.get(right_count + 1), pairs.get(right_count + 2)]
                else:
                    parts += [pairs.get(right_count + 1), plus.get(right_count + 3)]
                flat = _sum(parts, one / (12 if right_count == floor else 15))
                plus.pop(right_count + 4, None)
                pairs.pop(right_count + 3, None)
                if flat is not None and right_count > floor:
                    plus[right_count] = _sum([parts[0], flat])
                if right_count % 2:
                    pairs[right_count] = _sum([plus.get(right_count), plus.get(right_count + 1)])
                if flat is None:
                    continue
                done += 1
                if done % PROGRESS_EVERY == 0:
                    yield done / total
                _take_all(shape, (level, g, right_count), flat, units, taken)
    ends: dict[tuple[int, int, int], list] = {}  # (left_count, g, splice start) -> data when the loop ends
    for (left_count, g, right_count), flat in starts.items():  # cuts of nothing: the loop never runs
        _add_into(ends, (left_count, g, splice_start(right_count, n - left_count - g)), flat)
    for left_count, g in sorted({key[:2] for key in taken}, reverse=True):
        floor = physical_floor(n, left_count)
        here = {key[2]: _sum(taken.pop(key)) for key in [key for key in taken if key[:2] == (left_count, g)]}
        pairs: dict[int, list] = {}  # right_count -> the intermediates at it and one above
        # no loop now: a state is the sum of the four intermediates its drops come from
        for right_count in range(max(here), floor - 1, -1):
            pairs[right_count] = _sum([here.get(right_count), here.get(right_count + 1)])
            if right_count == floor:  # drops below the floor stay at it
                flat = _sum([_times(here.get(floor + d), 4 - d) for d in range(4)])
            else:
                flat = _sum([pairs[right_count], pairs.get(right_count + 2)])
            pairs.pop(right_count + 3, None)
            if flat is None:
                continue
            done += 1
            if done % PROGRESS_EVERY == 0:
                yield done / total
            _add_into(ends, (left_count, g, splice_start(right_count, n - left_count - g)), flat)
    final = [zero] * (n * shape.width)
    for key, flat in ends.items():
        final = list(map(add, final, _finished(shape, key, flat)))
    return final


def _first_data(shape: _Shape, deck: list, key: tuple[int, int, int], units: list) -> list:
    """Return a cut's first state's data: each deck card at its place with the cut's share, and its mass."""
    left_count, g, _ = key
    width, band = _row_width(shape, left_count), _band_length(shape, left_count, g)
    rows = shape.n - max(left_count, 0)
    data = _zeros(shape, left_count, g, units[0] - units[0])
    base = max(left_count, 0) // shape.per_cell
    for place, card in enumerate(deck):
        column = card // shape.per_cell
        if column < shape.band_from:
            data[place * width + column - base] = units[card % shape.per_cell]
        else:
            banded = column - shape.band_from
            data[rows * width + banded * band + place - _band_low(shape, banded)] = units[card % shape.per_cell]
    data[-1] = units[0]
    return data


def _zeros(shape: _Shape, left_count: int, g: int, zero) -> list:
    """Return zero data for a state: its rows part, its bands, then the mass cell."""
    rows = shape.n - max(left_count, 0)
    bands = shape.width - shape.band_from
    return [zero] * (rows * _row_width(shape, left_count) + bands * _band_length(shape, left_count, g) + 1)


def _add_into(held: dict, key, flat: list) -> None:
    """Add flat into held[key] (taking it as is when the key is new)."""
    old = held.get(key)
    held[key] = flat if old is None else list(map(add, old, flat))


def _times(flat, k: int):
    """Return flat times a whole number (None stays None)."""
    if flat is None or k == 1:
        return flat
    return list(map(mul, flat, repeat(k)))


# Sums as one comprehension where that is quicker in Pyodide than chained map(add) (and map(mul) for a scale), and
# the same in CPython: scaled, 23% for three lists (the usual state), 10% for four; unscaled, 5% for three and 15%
# for five. Two unscaled lists stay a map, quicker there. Keyed by (lists, scaled).
_COMPREHENDED = {
    (2, True): lambda s, a, b: [(x + y) * s for x, y in zip(a, b)],
    (3, True): lambda s, a, b, c: [(x + y + z) * s for x, y, z in zip(a, b, c)],
    (4, True): lambda s, a, b, c, d: [(x + y + z + w) * s for x, y, z, w in zip(a, b, c, d)],
    (3, False): lambda _, a, b, c: [x + y + z for x, y, z in zip(a, b, c)],
    (4, False): lambda _, a, b, c, d: [x + y + z + w for x, y, z, w in zip(a, b, c, d)],
    (5, False): lambda _, a, b, c, d, e: [x + y + z + w + v for x, y, z, w, v in zip(a, b, c, d, e)],
    (6, False): lambda _, a, b, c, d, e, f: [x + y + z + w + v + u for x, y, z, w, v, u in zip(a, b, c, d, e, f)],
}


def _sum(parts: list, scale=None):
    """Return the element-wise sum of the lists among parts that are not None, times scale if given
    (None if all are None); one pass, no list in between."""
    parts = [part for part in parts if part is not None]
    if not parts:
        return None
    comprehended = _COMPREHENDED.get((len(parts), scale is not None))
    if comprehended is not None:
        return comprehended(scale, *parts)
    total = iter(parts[0])
    for part in parts[1:]:
        total = map(add, total, part)
    if scale is not None:
        total = map(mul, total, repeat(scale))
    return list(total) if len(parts) > 1 or scale is not None else parts[0]


def _take_all(shape: _Shape, key: tuple[int, int, int], flat: list, units: list, taken: dict) -> None:
    """Add a state's data, moved as the port moves cards for each take of 1 to 3, to the intermediates it leads to."""
    left_count, g, right_count = key
    n, per_cell = shape.n, shape.per_cell
    zero = flat[-1] - flat[-1]
    deck_rows = n - left_count - g
    start_row = splice_start(right_count, deck_rows)
    row_width = _row_width(shape, left_count)
    start, deck_cells = start_row * row_width, deck_rows * row_width
    rows_end = (n - left_count) * row_width
    offsets = _gap_offsets(shape, _band_length(shape, left_count, g), start_row)
    spread = {0: flat[rows_end:-1]}  # rows moved -> the bands after
    base = left_count // per_cell
    for take in (1, 2, 3):
        moved_rows = min(take, g)
        kept = moved_rows * row_width + deck_cells
        # the taken rows of the left half go in at the splice start; nothing else moves
        moved = flat[:start]
        moved += flat[deck_cells:kept]
        moved += flat[start:deck_cells]
        rest = flat[kept:rows_end]
        waiting = max(left_count - take, 0)
        pad = base - waiting // per_cell
        if pad:
            moved = _widen(moved, deck_rows + moved_rows, row_width, pad, zero)
            rest = _widen(rest, g - moved_rows, row_width, pad, zero)
        for card in range(waiting, left_count):  # no longer waiting: now in the left half's taken part
            row = [zero] * (row_width + pad)
            row[card // per_cell - waiting // per_cell] = flat[-1] * units[card % per_cell]
            moved += row
        moved += rest
        if moved_rows not in spread:  # takes of g or more move the same rows
            spread[moved_rows] = _spread_bands(spread[0], offsets, moved_rows, zero)
        moved += spread[moved_rows]
        moved.append(flat[-1])
        taken.setdefault((left_count - take, max(g, take), right_count + take), []).append(moved)


def _gap_at(shape: _Shape, band: int, banded: int, start_row: int) -> int:
    """Return where rows put in at start_row go into a band of this length: its cells above the gap."""
    return min(max(start_row - _band_low(shape, banded), 0), band)


def _gap_offsets(shape: _Shape, band: int, start_row: int) -> list:
    """Return where rows put in at start_row open a gap in each band (offsets into the bands, the last band's first)."""
    return [banded * band + _gap_at(shape, band, banded, start_row)
            for banded in reversed(range(shape.width - shape.band_from))]


def _spread_bands(bands: list, offsets: list, inserted: int, zero) -> list:
    """Return the bands with inserted zeros at each offset (taken from the end, so earlier offsets hold)."""
    out = list(bands)
    gap = [zero] * inserted
    for at in offsets:
        out[at:at] = gap
    return out


def _finished(shape: _Shape, key: tuple[int, int, int], flat: list) -> list:
    """Return a loop's last state's data as the full place × card matrix, the left half put in at the splice start."""
    left_count, g, start_row = key
    n, width = shape.n, shape.width
    zero = flat[-1] - flat[-1]
    row_width = _row_width(shape, left_count)  # all cards: none is waiting
    deck_rows, rows_end = n - left_count - g, n * row_width
    start, deck_cells = start_row * row_width, deck_rows * row_width
    rows = flat[:start] + flat[deck_cells:rows_end] + flat[start:deck_cells]
    out = [zero] * (n * width)
    for column in range(row_width):
        out[column::width] = rows[column::row_width]
    band = _band_length(shape, left_count, g)
    gap = [zero] * (left_count + g)
    for banded in range(width - shape.band_from):
        cells = flat[rows_end + banded * band:rows_end + (banded + 1) * band]
        at = _gap_at(shape, band, banded, start_row)
        column = [zero] * _band_low(shape, banded) + cells[:at] + gap + cells[at:]
        out[shape.band_from + banded::width] = column[:n] + [zero] * (n - len(column))
    return out


def _widen(part: list, rows: int, row_width: int, pad: int, zero) -> list:
    """Return rows of row_width with pad zero cells put before each (columns of cards no longer waiting)."""
    if rows < row_width:  # fewer operations row by row
        out = []
        for row in range(rows):
            out += [zero] * pad
            out += part[row * row_width:(row + 1) * row_width]
        return out
    new_width = row_width + pad
    out = [zero] * (rows * new_width)
    for column in range(row_width):
        out[pad + column::new_width] = part[column::row_width]
    return out


def matrix(n: int, params: dict, one) -> Matrix:
    """One pass's exact matrix raised to ``passes``."""
    return matrix_power(pass_matrix(n, one), params["passes"])


def matrix_steps(n: int, params: dict):
    """Yield the fraction done now and then; return ``matrix(n, params, 1.0)`` (the lab computes it in steps)."""
    if n > MAX_PHYSICAL_MATRIX_CARDS:
        pass_matrix(n)  # refused at once, with the reason
    one_pass = yield from _pass_float_steps(n)
    return matrix_power([list(row) for row in one_pass], params["passes"])


def matrix_seconds(n: int, params: dict) -> float:
    """Return roughly how many CPython seconds a first exact matrix of ``n`` cards takes (0 past the limit: refused at once).

    The passes cost nothing beside the first pass's matrix (a power of a cached matrix), so ``params`` does not count.
    """
    if n > MAX_PHYSICAL_MATRIX_CARDS:
        return 0.0
    return PHYSICAL_SECONDS_AT_52 * (n / 52) ** 4
