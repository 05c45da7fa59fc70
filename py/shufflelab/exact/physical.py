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
# a first 52-card matrix, CPython 3.11 here, median of side-by-side runs (1.9 s for the lists of floats before the
# integer rows); 2.2 s in Pyodide in Chromium (9.0 s for 3cf73b2 in turns: docs/physical.json,
# `python scripts/bench --physical`); the cache makes a second call free
PHYSICAL_SECONDS_AT_52 = 1.4


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
    states, so the cost is O(n⁴): exact for any n. Each row is one integer holding every
    card's number in a field of its own (``_Fields``), so adding two rows, or dividing one
    by 15, is one operation on the integer: a state costs a few operations a row, not a few
    a card, and in Pyodide an operation is dear while the integer's digits are cheap.
    """
    if n > MAX_PHYSICAL_MATRIX_CARDS:
        raise ExactTooCostly(
            f"riffle-physical's exact matrix costs O(n⁴) (about {PHYSICAL_SECONDS_AT_52:g} s at "
            f"{MAX_PHYSICAL_MATRIX_CARDS} cards in CPython, 16 times that at twice the cards), so it is limited "
            f"to {MAX_PHYSICAL_MATRIX_CARDS} cards"
        )
    if isinstance(one, float):
        return [list(row) for row in _finish(_pass_float_steps(n))]
    fields = _exact_fields(n)
    rows = _finish(_pass_rows_steps(n, fields))
    return [[one * Fraction(value, fields.one) for value in column] for column in _columns(rows, n, fields)]


_FLOAT_PASSES: dict[int, tuple] = {}  # n -> one pass's float matrix: a second request is free


def _pass_float_steps(n: int):
    """Yield the fraction done now and then; return one pass's float matrix (cached by n)."""
    if n not in _FLOAT_PASSES:
        rows = yield from _pass_rows_steps(n, _FIXED)
        _FLOAT_PASSES[n] = tuple(tuple(value / _FIXED.one for value in column)
                                 for column in _columns(rows, n, _FIXED))
    return _FLOAT_PASSES[n]


def _finish(steps):
    """Run a computation that yields its progress to the end; return its result."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


class _Fields(NamedTuple):
    """How a row packs one number a card: card c's field is bits (n − 1 − c)·width up; ``one`` stands for 1.

    The highest cards come first so that the waiting cards, the lowest, which are never in
    a row, are the integer's top, and their empty fields cost nothing. Dividing a row by k
    is ``(row * ceil(2**shift / k)) >> shift``, field by field: a field below 2**shift
    times that reciprocal stays inside its own width, and the bits its fraction pushes into
    the field below land above that field's value, where a mask clears them.
    """

    one: int
    width: int
    shift: int


# Floats: fixed point, 96 bits after the point. A state truncates a field by at most 2**-96 and its
# reciprocal is too large by less than 2**-88 of itself, so the 10,597 states of 52 cards leave every entry far closer to
# the exact matrix than half the last bit of a float: at 52 cards all 2,704 floats are the exact ones
# correctly rounded (60 bits after the point, or a 2**-56 reciprocal, leave 1,900 to 2,200 a bit off). What is
# divided is at most 1 (2**97), times a reciprocal below 2**89: 192 bits hold the product, and the quotient,
# below 2**97, stays clear of the 92 bits above it where its fraction lands.
_FIXED = _Fields(one=1 << 96, width=192, shift=92)


def _exact_fields(n: int) -> _Fields:
    """Return fields whose every division is exact: ``one`` is a multiple of every path's denominator.

    A path's probability is 1/36 for its cut times 1/15 for each state it leaves off the
    floor and 1/12 for each at the floor. It leaves at most ``longest`` states by a take
    (each lowers left_count), and those are the only ways off the floor; each other step
    lowers right_count by at least 1, from at most n to at least the lowest floor
    −(n + longest + 2), and takes raise it by at most 3 each: at most 2n + 4·longest + 2
    such steps, and 2n + 5·longest + 2 in all. A multiple of k below 2**shift divided as
    ``_Fields`` says is exactly its quotient, so shift is the values' whole length.
    """
    longest = min(max(algorithms.riffle_physical_cut(n, 8), 0), n)  # the longest left half any cut makes
    one = 36 * 15 ** (2 * n + 5 * longest + 2) * 12 ** longest
    bits = one.bit_length() + 5  # values stay below 16 * one
    return _Fields(one=one, width=2 * bits, shift=bits)


def _divisors(n: int, fields: _Fields) -> dict:
    """Return, for k = 12 and 15, what ``_sum`` needs to divide rows of n fields by k: (reciprocal, shift, mask)."""
    kept = (1 << (fields.width - fields.shift)) - 1
    mask = sum(kept << (card * fields.width) for card in range(n))
    return {k: (-(-(1 << fields.shift) // k), fields.shift, mask) for k in (12, 15)}


def _columns(rows: list, n: int, fields: _Fields) -> list:
    """Return P[card][place] as integers from the final rows (one a place)."""
    full = (1 << fields.width) - 1
    return [[(row >> ((n - 1 - card) * fields.width)) & full for row in rows] for card in range(n)]


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


def _pass_rows_steps(n: int, fields: _Fields):
    """Yield the fraction of states done now and then; return the final place × card matrix as rows, one a place.

    The chain goes level by level (left_count falling). Within a level, a state's data are,
    for the cards not still waiting (the waiting cards sit in order below, one row each, with
    the state's whole mass, kept in a last cell), the rows of the deck and of the left half's
    taken part, place by place; a take moves rows into an intermediate (counters before the
    drop), and the four drops, which move no card, are sums of those intermediates. A state's
    data are its probability over the 15 (or at the floor 12) ways out, so each way carries
    them as they are.
    """
    divisors = _divisors(n, fields)
    total = chain_states(n)
    done = 0
    starts: dict[tuple[int, int, int], list] = {}  # the 36 cuts' first states
    for deck, _left_half, key in _first_states(n):
        _add_into(starts, key, _first_rows(n, fields, deck, fields.one // 36))
    top = max((key[0] for key in starts), default=0)
    # (left_count, g) -> right_count + take -> data moved there, summed once; by level, so a level finds its own
    taken: dict[tuple[int, int], dict[int, list]] = {}
    for level in range(top, 0, -1):
        floor = physical_floor(n, level)
        for g in range(4):
            here = taken.pop((level, g), {})
            highs = list(here)
            highs += [key[2] for key in starts if key[0] == level and key[1] == g]
            if not highs:
                continue
            plus: dict[int, list] = {}  # right_count -> its intermediate plus its own data after the self-loop
            pairs: dict[int, list] = {}  # odd right_count -> plus there and one above: each pair serves two states
            for right_count in range(max(highs), floor - 1, -1):
                parts = [_sum(here.pop(right_count, [])), starts.pop((level, g, right_count), None)]
                if right_count == floor:
                    parts = [_times(parts[0], 4), parts[1]]
                    parts += [_times(plus.get(floor + d), 4 - d) for d in (1, 2, 3)]
                elif right_count % 2:  # the three pluses above, as one plus and a pair
                    parts += [plus.get(right_count + 1), pairs.get(right_count + 2)]
                else:
                    parts += [pairs.get(right_count + 1), plus.get(right_count + 3)]
                flat = _sum(parts, divisors[12 if right_count == floor else 15])
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
                _take_all(n, fields.width, (level, g, right_count), flat, taken)
    ends: dict[tuple[int, int, int], list] = {}  # (left_count, g, splice start) -> data when the loop ends
    for (left_count, g, right_count), flat in starts.items():  # cuts of nothing: the loop never runs
        _add_into(ends, (left_count, g, splice_start(right_count, n - left_count - g)), flat)
    for left_count, g in sorted(taken, reverse=True):
        floor = physical_floor(n, left_count)
        here = {right_count: _sum(data) for right_count, data in taken.pop((left_count, g)).items()}
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
    final = [0] * n
    for key, flat in ends.items():
        final = list(map(add, final, _finished(n, key, flat)))
    return final


def _first_rows(n: int, fields: _Fields, deck: list, unit: int) -> list:
    """Return a cut's first state's data: each deck card at its place with the cut's share, and its mass."""
    return [unit << ((n - 1 - card) * fields.width) for card in deck] + [unit]


def _add_into(held: dict, key, flat: list) -> None:
    """Add flat into held[key] (taking it as is when the key is new)."""
    old = held.get(key)
    held[key] = flat if old is None else list(map(add, old, flat))


def _times(flat, k: int):
    """Return flat times a whole number (None stays None)."""
    if flat is None or k == 1:
        return flat
    return list(map(mul, flat, repeat(k)))


def _sum(parts: list, divisor=None):
    """Return the element-wise sum of the lists among parts that are not None, divided as ``_divisors`` says if
    given (None if all are None)."""
    parts = [part for part in parts if part is not None]
    if not parts:
        return None
    total = iter(parts[0])
    for part in parts[1:]:
        total = map(add, total, part)
    if divisor is not None:
        reciprocal, shift, mask = divisor
        return [(row * reciprocal >> shift) & mask for row in total]
    return list(total) if len(parts) > 1 else parts[0]


def _take_all(n: int, width: int, key: tuple[int, int, int], flat: list, taken: dict) -> None:
    """Add a state's data, moved as the port moves cards for each take of 1 to 3, to the intermediates it leads to."""
    left_count, g, right_count = key
    mass = flat[-1]
    deck_rows = n - left_count - g
    start = splice_start(right_count, deck_rows)
    for take in (1, 2, 3):
        kept = deck_rows + min(take, g)
        # the taken rows of the left half go in at the splice start; nothing else moves
        moved = flat[:start] + flat[deck_rows:kept] + flat[start:deck_rows]
        # cards no longer waiting: now first in the left half's taken part
        moved += [mass << ((n - 1 - card) * width) for card in range(max(left_count - take, 0), left_count)]
        moved += flat[kept:]
        taken.setdefault((left_count - take, max(g, take)), {}).setdefault(right_count + take, []).append(moved)


def _finished(n: int, key: tuple[int, int, int], flat: list) -> list:
    """Return a loop's last state's rows (all n places), the left half put in at the splice start."""
    left_count, g, start = key
    deck_rows = n - left_count - g
    return flat[:start] + flat[deck_rows:-1] + flat[start:deck_rows]


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
