"""Exact whole-order distributions: every order's probability for decks of up to 7 cards.

``outcome_distribution(id, n)`` asks the algorithm's catalog entry for its whole-order
model: ENUMERATE replays the port (``enumeration.py``); the models here are independent
steps where the port has too many paths (swap-any and naive-pairs are n independent
random swaps, riffle-gsr a Binomial cut and a uniform interleaving, c-rand every srand
seed of the real ANSI rand() on a power-of-two deck (``crand.py``) and an ideal rand()
on other sizes, whose ``% n`` keeps the modulo bias but not the LCG's correlations, cut-insert one
repetition enumerated and then composed, random-key exactly uniform because its keys are
exchangeable). The tests check every model against the enumerated port for small n.
"""

import math
from collections import defaultdict
from fractions import Fraction
from itertools import permutations

from .. import catalog
from ..errors import ShuffleLabError
from . import crand
from .composition import IntDist, as_fractions, as_int_dist, point, repeat_passes, steps
from .enumeration import Distribution, Order, Progress, enumerate_port, walk_steps

MAX_EXACT_CARDS = 7
RAND_SPAN = 32768  # RAND_MAX + 1 of the C rand() that c-rand ports


def outcome_distribution(algorithm_id: str, n: int, params: dict | None = None,
                         progress: Progress | None = None) -> Distribution:
    """Return the exact probability of every reachable output order of the deck 0..n-1 (n ≤ 7).

    Orders that cannot come out are absent; the sum is exactly 1. The algorithm's catalog
    entry names its model (see the module docstring for what each one models); a walk of
    the port reports to ``progress`` (``enumeration.py``), the other models do not.
    """
    entry = catalog.get(algorithm_id)
    resolved = entry.resolve_params(params)
    if not 0 <= n <= MAX_EXACT_CARDS:
        raise ShuffleLabError(f"exact whole-order distributions need 0 to {MAX_EXACT_CARDS} cards, not {n}")
    model = entry.resolve("orders")
    if model == catalog.ENUMERATE:
        return as_fractions(as_int_dist(enumerate_port(entry.id, n, resolved, progress=progress)[0]))
    return as_fractions(model(n, resolved))


def walked_distribution_steps(algorithm_id: str, n: int, params: dict | None = None):
    """Yield the probability covered now and then; return the distribution ``outcome_distribution`` gives by walking.

    The same walk of every path as its ENUMERATE model, a step at a time, for a caller that
    shows progress between steps (the lab's worker).
    """
    walked, _ = yield from walk_steps(algorithm_id, n, params)  # nothing is cut: no max_draws
    return as_fractions(as_int_dist(walked))


def total_variation_to_uniform(dist: Distribution, n: int) -> Fraction:
    """Return ½ Σ |p(σ) − 1/n!| over all n! orders, exactly (absent orders count as p = 0)."""
    uniform = Fraction(1, math.factorial(n))
    missing = math.factorial(n) - len(dist)
    return (sum((abs(p - uniform) for p in dist.values()), Fraction(0)) + missing * uniform) / 2


# --- the models the catalog names (n, params) -> IntDist ---------------------------


def uniform(n: int, params: dict) -> IntDist:
    """Every order equally likely: random-key's keys are exchangeable."""
    return {order: 1 for order in permutations(range(n))}, math.factorial(n)


def swap_any(n: int, params: dict) -> IntDist:
    """n independent swaps of position i (n-1 down to 0) with a uniform position."""
    return steps(n, [_swap_step(n, i, [1] * n, n) for i in range(n - 1, -1, -1)])


def naive_pairs(n: int, params: dict) -> IntDist:
    """n independent swaps of two uniform, independent positions."""
    return steps(n, [_pair_swap_step(n)] * n)


def c_rand(n: int, params: dict) -> IntDist:
    """Swaps of position i (0 up) with rand() % n: the real ANSI rand() over every seed on 2^k cards, else an ideal rand()."""
    if crand.is_real_rand_size(n):
        return crand.orders(n)
    return ideal_c_rand(n)


def ideal_c_rand(n: int) -> IntDist:
    """Swaps of position i (0 up) with rand() % n of an ideal rand(): the modulo bias kept, the LCG's correlations not."""
    if n == 0:
        return point(())
    weights = ideal_rand_residue_weights(n)
    return steps(n, [_swap_step(n, i, weights, RAND_SPAN) for i in range(n)])


def riffle_gsr(n: int, params: dict) -> IntDist:
    """``passes`` independent GSR riffles composed."""
    return repeat_passes(_riffle_gsr_step(n), params["passes"], n, "riffle-gsr", "passes")


def cut_insert(n: int, params: dict) -> IntDist:
    """One repetition enumerated from the port, ``repetitions`` of them composed."""
    one, _ = enumerate_port("cut-insert", n, {"repetitions": 1})
    # the paste point is below the rest's length, so the bottom card never moves
    reachable = math.factorial(max(n - 1, 0))
    return repeat_passes(as_int_dist(one), params["repetitions"], n, "cut-insert", "repetitions", reachable)


def overhand(n: int, params: dict) -> IntDist:
    """One pass enumerated from the port (2^(n−1) cut patterns), ``overhands`` of them composed."""
    one, _ = enumerate_port("overhand", n, {"overhands": 1})
    return repeat_passes(as_int_dist(one), params["overhands"], n, "overhand", "overhands")


def shelf_shuffler(n: int, params: dict) -> IntDist:
    """One round counted order by order (shelf_round), ``rounds`` of them composed."""
    return repeat_passes(shelf_round(n, params["shelves"]), params["rounds"], n, "shelf-shuffler", "rounds")


def shelf_round(n: int, shelves: int) -> IntDist:
    """Return one shelf-shuffler round's exact distribution over orders.

    Card c is dealt c-th, with one of 2 × shelves equally likely labels (a shelf, on top or
    under). Shelf s's pile is the cards put on top, latest first, then those put under, in
    the order dealt; the piles are stacked. So the labellings that give an order are its
    cuts into 2 × shelves consecutive runs, possibly empty, falling and rising by turns:
    counted for each order by a walk over its cut points (the port's (2 × shelves)^n paths,
    which the tests walk on small decks, grow too fast).
    """
    runs = 2 * shelves
    weights = {}
    for order in permutations(range(n)):
        ways = [1] + [0] * n  # ways[i]: cuts of order[:i] into the runs so far
        for run in range(runs):
            falling = run % 2 == 0
            after = [0] * (n + 1)
            for start in range(n + 1):
                if not ways[start]:
                    continue
                after[start] += ways[start]  # this run empty
                for end in range(start + 1, n):
                    step = order[end] - order[end - 1]
                    if (step < 0) != falling:
                        break
                    after[end + 1] += ways[start]
                if start < n:
                    after[start + 1] += ways[start]  # a run of one card
            ways = after
        if ways[n]:
            weights[order] = ways[n]
    return weights, runs ** n


def _swap_step(n: int, i: int, weights: list[int], denominator: int) -> IntDist:
    """Return the whole-order step 'swap position i with j', j drawn with weights[j]/denominator."""
    out: dict[Order, int] = defaultdict(int)
    for j, w in enumerate(weights):
        if w:
            order = list(range(n))
            order[i], order[j] = order[j], order[i]
            out[tuple(order)] += w
    return dict(out), denominator


def _pair_swap_step(n: int) -> IntDist:
    """Return naive-pairs' step: swap positions a and b, both uniform and independent."""
    out: dict[Order, int] = defaultdict(int)
    for a in range(n):
        for b in range(n):
            order = list(range(n))
            order[a], order[b] = order[b], order[a]
            out[tuple(order)] += 1
    return dict(out), n * n


def _riffle_gsr_step(n: int) -> IntDist:
    """Return one GSR riffle: Binomial(n, 1/2) cut, then every interleaving equally likely."""
    out: dict[Order, int] = defaultdict(int)
    # each of the 2^n cut-and-interleave patterns: the set of positions the top packet fills
    for mask in range(1 << n):
        top_positions = [q for q in range(n) if mask >> q & 1]
        cut = len(top_positions)
        order = [0] * n
        for card, q in enumerate(top_positions):
            order[q] = card
        bottom_positions = [q for q in range(n) if not mask >> q & 1]
        for offset, q in enumerate(bottom_positions):
            order[q] = cut + offset
        out[tuple(order)] += 1
    return dict(out), 1 << n


def ideal_rand_residue_weights(n: int) -> list[int]:
    """Return, for j in 0..n-1, how many of rand()'s 32768 values are ≡ j (mod n)."""
    return [RAND_SPAN // n + (1 if j < RAND_SPAN % n else 0) for j in range(n)]
