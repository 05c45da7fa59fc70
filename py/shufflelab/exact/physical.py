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

from .. import algorithms
from .composition import IntDist, as_int_dist, repeat_passes
from .enumeration import Distribution, Order
from .errors import ExactTooCostly
from .matrices import Matrix, matrix_power, splice_start

MAX_PHYSICAL_MATRIX_CARDS = 52  # the pass matrix costs O(n⁴)
PHYSICAL_SECONDS_AT_52 = 15.0  # a first 52-card matrix, CPython 3.11 here (66 s in Pyodide); the cache makes a second call free


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
    states, so the cost is O(n⁴): exact for any n, about 15 s at 52 cards in CPython 3.11 here (66 s in Pyodide).
    Floats travel two cards to a complex number, halving the element operations.
    """
    if n > MAX_PHYSICAL_MATRIX_CARDS:
        raise ExactTooCostly(
            f"riffle-physical's exact matrix costs O(n⁴) (about 15 s at {MAX_PHYSICAL_MATRIX_CARDS} cards "
            f"in CPython, 16 times that at twice the cards), so it is limited to {MAX_PHYSICAL_MATRIX_CARDS} cards"
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
    """Return how many counters' states one pass reaches: the matrix does one step of equal work for each."""
    seen = {key for _, _, key in _first_states(n)}
    todo = list(seen)
    while todo:
        key = todo.pop()
        if key[0] <= 0:
            continue
        for _, after in _successors(n, key):
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return len(seen)


PROGRESS_EVERY = 50  # states between two progress reports (about 0.1 s at 52 cards in Pyodide)


def _pass_flat_steps(n: int, one, per_cell: int):
    """Run the chain, yielding the fraction of states done now and then; return the final place × card matrix,
    flat, per_cell cards per entry."""
    width = -(-n // per_cell)  # entries per row (one row per place)
    zero = one - one
    pending: dict[tuple[int, int, int], list] = {}
    queue: list = []
    final = [zero] * (n * width)
    total = chain_states(n)
    done = 0

    def add_to(key: tuple[int, int, int], flat: list) -> None:
        held = pending.get(key)
        if held is None:
            pending[key] = flat
            heapq.heappush(queue, (-key[0], -key[2], key))
        else:
            pending[key] = list(map(add, held, flat))

    units = [one, one * 1j] if per_cell == 2 else [one]
    for deck, left_half, key in _first_states(n):
        flat = [zero] * (n * width)
        for place, card in enumerate(deck + left_half):
            flat[place * width + card // per_cell] = units[card % per_cell] / 36
        add_to(key, flat)
    while queue:
        done += 1
        if done % PROGRESS_EVERY == 0:
            yield done / total
        key = heapq.heappop(queue)[2]
        flat = pending.pop(key)
        left_count, g, right_count = key
        deck_cells = (n - left_count - g) * width
        start = splice_start(right_count, n - left_count - g) * width
        if left_count <= 0:
            final = list(map(add, final, flat[:start] + flat[deck_cells:] + flat[start:deck_cells]))
            continue
        loops = 4 if right_count == physical_floor(n, left_count) else 1
        flat = list(map(mul, flat, repeat(one / (16 - loops))))
        left_start = deck_cells + left_count * width
        moved_for = None
        for take, after in _successors(n, key):
            if take != moved_for:
                taken_end = left_start + min(take, g) * width
                # the taken rows of the left half go in at the splice start; nothing else moves
                moved = (flat[:start] + flat[left_start:taken_end] + flat[start:deck_cells]
                         + flat[deck_cells:left_start] + flat[taken_end:])
                moved_for = take
            add_to(after, moved)
    return final


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
