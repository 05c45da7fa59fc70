"""Exact bias: every order's probability for tiny decks, card × position matrices for any deck.

Two questions, answered without sampling:

* ``outcome_distribution(id, n)``: the probability of each output order of the deck
  ``0..n-1`` (n ≤ 7), as exact fractions.
* ``position_matrix(id, n)``: ``P[i][j]``, the probability that card ``i`` (which starts
  at position ``i``) ends at position ``j``, for any deck size (floats, or fractions).

How each algorithm's answer is found (the tests check every model against the port):

* **The port itself, enumerated** (``enumerate_port``): a scripted rng replays every
  sequence of ``below(m)`` answers depth-first, each path weighted by the product of
  its ``1/m``. Used for fisher-yates, its off-by-one, splice, stack, random-comparator,
  none, and one repetition of cut-insert.
* **A model of independent steps**, because the port has too many paths (naive-pairs
  has n^(2n)): swap-any and naive-pairs are n independent random swaps, riffle-gsr one
  pass is a Binomial(n, 1/2) cut then a uniform interleaving. The tests enumerate the
  port for small n and demand equality.
* **c-rand as an ideal rand()**: the port seeds the C LCG with one ``below(2**32)``
  draw; 2^32 seeds cannot be enumerated, so each ``rand() % n`` is modelled as an
  independent draw distributed as the 32768 values 0..RAND_MAX fall modulo n. This
  keeps the modulo bias and the swap-any bias and leaves out the LCG's own correlations.
* **riffle-physical as a Markov chain on whole states** (deck, left half, counters):
  a pass can loop forever on ``take = 0``, so it has infinitely many paths; the chain
  has only self-loops as cycles, and a self-loop of probability q scales the way out
  by 1/(1-q). Its steps are the port's own lines (``js_splice``).
* **random-key as exactly uniform**: keys are exchangeable, so every order is equally
  likely once ties are excluded; two of n 53-bit keys tie with probability below
  n²/2^54 (about 1.5e-13 for 52 cards), and that is the only departure.

Multi-pass algorithms (riffle-gsr, riffle-physical, cut-insert) draw each pass
independently of the cards, so passes compose as a random walk on permutations
(whole orders) and as matrix products (positions).
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from itertools import permutations, repeat
from operator import add, itemgetter, mul
from typing import Callable, Sequence

from . import algorithms
from .rng import check_bound

MAX_EXACT_CARDS = 7
MAX_PORT_PATHS = 1_000_000
MAX_COMPOSE_WORK = 6_000_000  # small-int products while composing passes: about 3 s in CPython
RAND_SPAN = 32768  # RAND_MAX + 1 of the C rand() that c-rand ports

Order = tuple[int, ...]
Distribution = dict[Order, Fraction]
Matrix = list[list]


class NoExactMatrix(ValueError):
    """An algorithm whose card positions are not a Markov chain, so no exact matrix exists."""


class ExactTooCostly(ValueError):
    """An exact answer that exists but would take too long or grow too large to compute."""


class NotEnumerable(ValueError):
    """A port that draws floats (``random()``), which cannot be enumerated."""


# --- enumerating a port -------------------------------------------------------------


class _PathTooLong(Exception):
    """Raised inside a port when a path draws more than the enumeration allows."""


class ScriptedRng:
    """An rng that answers ``below`` from a script, then 0, and records every draw."""

    def __init__(self, script: Sequence[int], max_draws: int | None = None) -> None:
        self.script = script
        self.max_draws = max_draws
        self.answers: list[int] = []
        self.bounds: list[int] = []

    def below(self, m: int) -> int:
        """Return the scripted answer (0 past the script's end) and record the bound."""
        check_bound(m)
        k = len(self.answers)
        if self.max_draws is not None and k >= self.max_draws:
            raise _PathTooLong
        answer = self.script[k] if k < len(self.script) else 0
        if answer >= m:
            raise AssertionError(f"replayed draw {k} asks below({m}) but the script says {answer}")
        self.answers.append(answer)
        self.bounds.append(m)
        return answer

    def below_many(self, bounds) -> list[int]:
        """Answer each bound in turn, exactly as repeated ``below`` calls."""
        return [self.below(m) for m in bounds]

    def random(self) -> float:
        raise NotEnumerable("this algorithm draws floats with random(); its paths cannot be enumerated")


def enumerate_port(
    algorithm_id: str, n: int, params: dict | None = None, max_draws: int | None = None
) -> tuple[Distribution, Fraction]:
    """Return (exact distribution of the port's outputs on 0..n-1, mass of paths cut at max_draws).

    Every sequence of ``below`` answers is replayed depth-first (an odometer over the
    recorded bounds). Paths longer than ``max_draws`` are cut, and their probability is
    returned instead of being counted, so the distribution is a lower bound in that case.
    """
    algorithm = algorithms.get(algorithm_id)
    resolved = algorithm.resolve_params(params)
    deck = list(range(n))
    # outcome -> {product of bounds along a path: number of such paths}
    weights: dict[Order, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    cut: dict[int, int] = defaultdict(int)
    script: list[int] = []
    for _ in range(MAX_PORT_PATHS):
        rng = ScriptedRng(script, max_draws)
        try:
            weights[tuple(algorithm.run(deck, rng, **resolved))][math.prod(rng.bounds)] += 1
        except _PathTooLong:
            cut[math.prod(rng.bounds)] += 1
        script = _next_script(rng.answers, rng.bounds)
        if script is None:
            return {order: _sum_reciprocals(counts) for order, counts in weights.items()}, _sum_reciprocals(cut)
    raise ExactTooCostly(f"{algorithm_id} on {n} cards has more than {MAX_PORT_PATHS:,} paths")


def _next_script(answers: list[int], bounds: list[int]) -> list[int] | None:
    """Return the next path's prefix in depth-first order, or None after the last path."""
    k = len(answers) - 1
    while k >= 0 and answers[k] == bounds[k] - 1:
        k -= 1
    if k < 0:
        return None
    return answers[:k] + [answers[k] + 1]


def _sum_reciprocals(counts: dict[int, int]) -> Fraction:
    return sum((Fraction(count, product) for product, count in counts.items()), Fraction(0))


# --- whole orders: distributions as integer numerators over one denominator ---------
#
# Composing passes multiplies many probabilities; integers over a common denominator
# keep that exact and far faster than Fraction arithmetic.

_IntDist = tuple[dict[Order, int], int]


def _as_int_dist(dist: Distribution) -> _IntDist:
    denominator = math.lcm(*(p.denominator for p in dist.values())) if dist else 1
    return {o: p.numerator * (denominator // p.denominator) for o, p in dist.items() if p}, denominator


def _as_fractions(dist: _IntDist) -> Distribution:
    numerators, denominator = dist
    return {o: Fraction(w, denominator) for o, w in sorted(numerators.items()) if w}


def _then(first: _IntDist, second: _IntDist) -> _IntDist:
    """Return the distribution of doing ``first`` and then ``second`` (independent passes)."""
    out: dict[Order, int] = defaultdict(int)
    for tau, w_tau in second[0].items():
        # pass tau applied to a deck in order sigma gives sigma[tau[j]] at position j
        rearrange = _rearranger(tau)
        for sigma, w_sigma in first[0].items():
            out[rearrange(sigma)] += w_sigma * w_tau
    return dict(out), first[1] * second[1]


def _rearranger(tau: Order) -> Callable[[Order], Order]:
    if len(tau) == 1:
        return lambda sigma: sigma
    return itemgetter(*tau) if tau else (lambda sigma: ())


def _repeat_pass(one_pass: _IntDist, passes: int, n: int, algorithm_id: str, what: str,
                 reachable: int | None = None) -> _IntDist:
    """Return ``passes`` independent passes, or raise ExactTooCostly naming the largest feasible count.

    ``reachable`` bounds how many orders can ever come out (n! unless known smaller).
    """
    reachable = math.factorial(n) if reachable is None else reachable
    feasible = _feasible_passes(len(one_pass[0]), reachable, len(str(one_pass[1])), passes)
    if passes > feasible:
        raise ExactTooCostly(
            f"exact fractions for {algorithm_id} on {n} cards are limited to {feasible} "
            f"{what if feasible != 1 else _SINGULAR[what]} "
            f"here (each one composes up to {len(one_pass[0]):,} × {reachable:,} fractions "
            f"that grow by {len(str(one_pass[1]))} digits); ask for fewer, or use the position matrix"
        )
    dist = one_pass
    for _ in range(passes - 1):
        dist = _then(dist, one_pass)
    return dist


_SINGULAR = {"passes": "pass", "repetitions": "repetition"}


def _feasible_passes(support: int, reachable: int, digits_per_pass: int, wanted: int) -> int:
    """Return min(wanted, the most passes whose composition fits MAX_COMPOSE_WORK)."""
    work, current = 0.0, support
    for passes in range(2, wanted + 1):
        # a k-pass numerator times a one-pass weight costs about 1 + k·digits/3000 small products
        work += current * support * (1 + passes * digits_per_pass / 3000)
        if work > MAX_COMPOSE_WORK:
            return passes - 1
        current = min(current * support, reachable)
    return wanted


def _point(order: Order) -> _IntDist:
    return {order: 1}, 1


def _steps(n: int, step_dists: list[_IntDist]) -> _IntDist:
    dist = _point(tuple(range(n)))
    for step in step_dists:
        dist = _then(dist, step)
    return dist


def _swap_step(n: int, i: int, weights: list[int], denominator: int) -> _IntDist:
    """Return the whole-order step 'swap position i with j', j drawn with weights[j]/denominator."""
    out: dict[Order, int] = defaultdict(int)
    for j, w in enumerate(weights):
        if w:
            order = list(range(n))
            order[i], order[j] = order[j], order[i]
            out[tuple(order)] += w
    return dict(out), denominator


def _pair_swap_step(n: int) -> _IntDist:
    """Return naive-pairs' step: swap positions a and b, both uniform and independent."""
    out: dict[Order, int] = defaultdict(int)
    for a in range(n):
        for b in range(n):
            order = list(range(n))
            order[a], order[b] = order[b], order[a]
            out[tuple(order)] += 1
    return dict(out), n * n


def _riffle_gsr_step(n: int) -> _IntDist:
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


# --- riffle-physical: the port's lines, as steps of a chain on whole states -------------


def physical_cut(deck: list, cut_draw: int, right_draw: int) -> tuple[list, int, int]:
    """Cut as the port does: return (left half, left_count, right_count); ``deck`` keeps the rest."""
    cut = len(deck) / 2 + cut_draw - 4  # a float for odd decks, as in JavaScript
    left_half = algorithms.js_splice(deck, 0, cut)
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


def _physical_pass_distribution(n: int) -> Distribution:
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


# --- whole-order distributions --------------------------------------------------------


def outcome_distribution(algorithm_id: str, n: int, params: dict | None = None) -> Distribution:
    """Return the exact probability of every reachable output order of the deck 0..n-1 (n ≤ 7).

    Orders that cannot come out are absent. The sum is exactly 1. See the module
    docstring for how each algorithm is computed and what is modelled.
    """
    algorithm = algorithms.get(algorithm_id)
    resolved = algorithm.resolve_params(params)
    if not 0 <= n <= MAX_EXACT_CARDS:
        raise ValueError(f"exact whole-order distributions need 0 to {MAX_EXACT_CARDS} cards, not {n}")
    return _as_fractions(_WHOLE_ORDER[algorithm.id](n, resolved))


def _enumerated(algorithm_id: str) -> Callable[[int, dict], _IntDist]:
    def build(n: int, params: dict) -> _IntDist:
        dist, _ = enumerate_port(algorithm_id, n, params)
        return _as_int_dist(dist)
    return build


def _uniform_dist(n: int, params: dict) -> _IntDist:
    return {order: 1 for order in permutations(range(n))}, math.factorial(n)


def _swap_any_dist(n: int, params: dict) -> _IntDist:
    return _steps(n, [_swap_step(n, i, [1] * n, n) for i in range(n - 1, -1, -1)])


def _naive_pairs_dist(n: int, params: dict) -> _IntDist:
    return _steps(n, [_pair_swap_step(n)] * n)


def _c_rand_dist(n: int, params: dict) -> _IntDist:
    if n == 0:
        return _point(())
    weights = ideal_rand_residue_weights(n)
    return _steps(n, [_swap_step(n, i, weights, RAND_SPAN) for i in range(n)])


def _riffle_gsr_dist(n: int, params: dict) -> _IntDist:
    return _repeat_pass(_riffle_gsr_step(n), params["passes"], n, "riffle-gsr", "passes")


def _riffle_physical_dist(n: int, params: dict) -> _IntDist:
    one_pass = _as_int_dist(_physical_pass_distribution(n))
    return _repeat_pass(one_pass, params["passes"], n, "riffle-physical", "passes")


def _cut_insert_dist(n: int, params: dict) -> _IntDist:
    one, _ = enumerate_port("cut-insert", n, {"repetitions": 1})
    # the paste point is below the rest's length, so the bottom card never moves
    reachable = math.factorial(max(n - 1, 0))
    return _repeat_pass(_as_int_dist(one), params["repetitions"], n, "cut-insert", "repetitions", reachable)


_WHOLE_ORDER: dict[str, Callable[[int, dict], _IntDist]] = {
    "fisher-yates": _enumerated("fisher-yates"),
    "splice": _enumerated("splice"),
    "stack": _enumerated("stack"),
    "random-key": _uniform_dist,
    "riffle-gsr": _riffle_gsr_dist,
    "fisher-yates-off-by-one": _enumerated("fisher-yates-off-by-one"),
    "naive-pairs": _naive_pairs_dist,
    "swap-any": _swap_any_dist,
    "c-rand": _c_rand_dist,
    "riffle-physical": _riffle_physical_dist,
    "cut-insert": _cut_insert_dist,
    "random-comparator": _enumerated("random-comparator"),
    "none": _enumerated("none"),
}


def total_variation_to_uniform(dist: Distribution, n: int) -> Fraction:
    """Return ½ Σ |p(σ) − 1/n!| over all n! orders, exactly (absent orders count as p = 0)."""
    uniform = Fraction(1, math.factorial(n))
    missing = math.factorial(n) - len(dist)
    return (sum((abs(p - uniform) for p in dist.values()), Fraction(0)) + missing * uniform) / 2


# --- riffle shuffles: Bayer & Diaconis -------------------------------------------------


@lru_cache(maxsize=64)
def eulerian_row(n: int) -> tuple[int, ...]:
    """Return A(n, m) for m = 0..n-1: how many orders of n cards have m descents (m+1 rising sequences)."""
    row = [1]
    for size in range(2, n + 1):
        row = [(m + 1) * (row[m] if m < len(row) else 0) + (size - m) * (row[m - 1] if m >= 1 else 0)
               for m in range(size)]
    return tuple(row) if n >= 1 else ()


def riffle_tv(n: int, max_k: int) -> list[Fraction]:
    """Return the exact total variation distance to uniform after k = 1..max_k GSR riffles of n cards.

    Bayer & Diaconis (1992): after k riffles an order with r rising sequences has
    probability C(2^k + n − r, n) / 2^(kn), and A(n, r − 1) orders have r rising sequences.
    """
    if n < 1:
        raise ValueError(f"riffle-tv needs at least 1 card, not {n}")
    if max_k < 1:
        raise ValueError(f"max-k must be at least 1, not {max_k}")
    counts = eulerian_row(n)
    factorial = math.factorial(n)
    distances = []
    for k in range(1, max_k + 1):
        scale = 1 << (k * n)
        # |C(...)/2^(kn) − 1/n!| over the common denominator 2^(kn)·n!
        gap = sum(counts[r - 1] * abs(math.comb((1 << k) + n - r, n) * factorial - scale)
                  for r in range(1, n + 1))
        distances.append(Fraction(gap, 2 * scale * factorial))
    return distances


# --- position matrices ------------------------------------------------------------------


def position_matrix(algorithm_id: str, n: int, params: dict | None = None, exact: bool = False) -> Matrix:
    """Return P[i][j]: the probability that card i, starting at position i, ends at position j.

    Floats by default (each row sums to 1 within rounding); exact Fractions with
    ``exact=True`` (meant for small n). Raises NoExactMatrix for random-comparator.
    """
    algorithm = algorithms.get(algorithm_id)
    resolved = algorithm.resolve_params(params)
    if n < 0:
        raise ValueError(f"a deck cannot have {n} cards")
    one = Fraction(1) if exact else 1.0
    if n == 0:
        return []
    return _POSITION[algorithm.id](n, resolved, one)


def _no_matrix(n: int, params: dict, one) -> Matrix:
    raise NoExactMatrix(
        "random-comparator has no exact position matrix: which comparisons the sort makes "
        "depends on earlier answers, so a card's position is not a Markov chain; "
        "use the whole-order distribution (n ≤ 7) or the measured tally"
    )


def _identity(n: int, one) -> Matrix:
    zero = one - one
    return [[one if i == j else zero for j in range(n)] for i in range(n)]


def _uniform_matrix(n: int, params: dict, one) -> Matrix:
    return [[one / n] * n for _ in range(n)]


def _identity_matrix(n: int, params: dict, one) -> Matrix:
    return _identity(n, one)


def _transpose(columns: list[list]) -> Matrix:
    return [list(row) for row in zip(*columns)]


def _blend(a: list, wa, b: list, wb) -> list:
    """Return wa·a + wb·b, elementwise."""
    return list(map(add, map(mul, a, repeat(wa)), map(mul, b, repeat(wb))))


def _scaled_sum(columns: list[list], weights: list) -> list:
    """Return Σ weights[k]·columns[k], elementwise."""
    return [sum(map(mul, cells, weights)) for cells in zip(*columns)]


def _swap_with(columns: list[list], i: int, weights: list) -> None:
    """Update columns (position → card probabilities) for 'swap position i with j ~ weights'."""
    held = columns[i]
    columns[i] = _scaled_sum(columns, weights)
    for j, w in enumerate(weights):
        if j != i and w:
            columns[j] = _blend(columns[j], 1 - w, held, w)


def _swap_uniform_below(columns: list[list], i: int, span: int, one) -> None:
    """Update columns for 'swap position i with j uniform in [0, span)' (span ≤ n)."""
    w = one / span
    held = columns[i]
    picked = [sum(cells) * w for cells in zip(*columns[:span])]
    for j in range(span):
        if j != i:
            columns[j] = _blend(columns[j], 1 - w, held, w)
    columns[i] = picked


def _fisher_yates_matrix(n: int, params: dict, one) -> Matrix:
    columns = _identity(n, one)
    for i in range(n - 1, 0, -1):
        _swap_uniform_below(columns, i, i + 1, one)
    return _transpose(columns)


def _off_by_one_matrix(n: int, params: dict, one) -> Matrix:
    columns = _identity(n, one)
    for i in range(n - 1, 0, -1):
        _swap_uniform_below(columns, i, i, one)
    return _transpose(columns)


def _swap_any_matrix(n: int, params: dict, one) -> Matrix:
    columns = _identity(n, one)
    for i in range(n - 1, -1, -1):
        _swap_uniform_below(columns, i, n, one)
    return _transpose(columns)


def _c_rand_matrix(n: int, params: dict, one) -> Matrix:
    weights = [one * w / RAND_SPAN for w in ideal_rand_residue_weights(n)]
    columns = _identity(n, one)
    for i in range(n):
        _swap_with(columns, i, weights)
    return _transpose(columns)


def _naive_pairs_matrix(n: int, params: dict, one) -> Matrix:
    # each step keeps a card with weight 1 − 2/n and spreads 2/n² everywhere:
    # M ← (1 − 2/n)·M + (2/n²)·J, so after n steps M = a·I + (1 − a)/n·J with a = (1 − 2/n)^n
    stay = (1 - 2 * one / n) ** n
    spread = (1 - stay) / n
    return [[stay + spread if i == j else spread for j in range(n)] for i in range(n)]


def _move_step(columns: list[list], count: int, target: int, one) -> None:
    """Update columns for 'pull a uniform card from positions [0, count), insert it at target'."""
    n = len(columns)
    picked = [sum(cells) / count for cells in zip(*columns[:count])]
    moved = columns[:]
    for j in range(target):
        # position j now holds old j if the pulled card was below j, else old j + 1
        below = one * min(j + 1, count) / count
        moved[j] = _blend(columns[j], 1 - below, columns[j + 1], below) if below else columns[j]
    moved[target] = picked
    columns[:] = moved[:n]


def _stack_matrix(n: int, params: dict, one) -> Matrix:
    columns = _identity(n, one)
    for count in range(n, 0, -1):
        _move_step(columns, count, n - 1, one)
    return _transpose(columns)


def _splice_matrix(n: int, params: dict, one) -> Matrix:
    columns = _identity(n, one)
    for count in range(n, 0, -1):
        # JS splice(count, 0, x) on the n-1 cards left after the pull: index count, or the end
        _move_step(columns, count, min(count, n - 1), one)
    return _transpose(columns)


def riffle_gsr_pass_matrix(n: int, one=1.0) -> Matrix:
    """Return one GSR riffle's position matrix, in closed form.

    Summing over the Binomial(n, 1/2) cut c, the top card i lands at q with probability
    C(q, i)·2^(n−1−q)/2^n, and a bottom card i with C(n−1−q, n−1−i)·2^q/2^n.
    """
    scale = 1 << n
    return [[one * (math.comb(q, i) * (1 << (n - 1 - q)) + math.comb(n - 1 - q, n - 1 - i) * (1 << q)) / scale
             for q in range(n)] for i in range(n)]


def _riffle_gsr_matrix(n: int, params: dict, one) -> Matrix:
    return matrix_power(riffle_gsr_pass_matrix(n, one), params["passes"])


def cut_insert_step_matrix(n: int, one=1.0) -> Matrix:
    """Return one cut-insert repetition's position matrix (split s uniform, paste q uniform below n − s)."""
    zero = one - one
    matrix = [[zero] * n for _ in range(n)]
    for split in range(n):
        rest = n - split
        w = one / (n * rest)
        for i in range(split):
            # a top card moves to paste + i, for each of the rest possible pastes
            for q in range(rest):
                matrix[i][q + i] += w
        for i in range(split, n):
            k = i - split
            # a rest card ends at k when the top part is pasted after it, else it keeps i
            matrix[i][k] += w * (rest - 1 - k)
            matrix[i][i] += w * (k + 1)
    return matrix


def _cut_insert_matrix(n: int, params: dict, one) -> Matrix:
    return matrix_power(cut_insert_step_matrix(n, one), params["repetitions"])


def matrix_product(a: Matrix, b: Matrix) -> Matrix:
    """Return a·b for square matrices given as lists of rows."""
    columns = list(zip(*b))
    return [[sum(map(mul, row, column)) for column in columns] for row in a]


def matrix_power(m: Matrix, k: int) -> Matrix:
    """Return m^k (k ≥ 1) of a stochastic matrix by repeated squaring.

    Float rows are renormalised after each product: squaring doubles a row-sum error,
    so 15000 repetitions would otherwise turn 1e-16 into 1e-11.
    """
    result = None
    square = m
    while True:
        if k & 1:
            result = square if result is None else _stochastic_product(result, square)
        k >>= 1
        if not k:
            return result
        square = _stochastic_product(square, square)


def _stochastic_product(a: Matrix, b: Matrix) -> Matrix:
    product = matrix_product(a, b)
    if not product or not isinstance(product[0][0], float):
        return product
    return [[x / total for x in row] if (total := math.fsum(row)) > 0 else row for row in product]


def _splice_start(r: int, length: int) -> int:
    """Return where JavaScript's splice(r, ...) starts in an array of ``length``."""
    return max(length + r, 0) if r < 0 else min(r, length)


MAX_PHYSICAL_MATRIX_CARDS = 52  # the pass matrix costs O(n⁴): about 10 s at 52 cards in CPython
PHYSICAL_SECONDS_AT_52 = 15.0  # measured in CPython 3.11 here (the cache makes a second call free)


def matrix_seconds_estimate(algorithm_id: str, n: int) -> float:
    """Return roughly how many CPython seconds a first ``position_matrix`` call takes; 0 where well under one."""
    if algorithm_id == "riffle-physical" and n <= MAX_PHYSICAL_MATRIX_CARDS:
        return PHYSICAL_SECONDS_AT_52 * (n / 52) ** 4
    return 0.0


def riffle_physical_pass_matrix(n: int, one=1.0) -> Matrix:
    """Return one riffle-physical pass's exact position matrix.

    A pass's random choices never look at the cards, so (left_count, g, right_count),
    with g = left half's length − left_count (at most 3), is a Markov chain by itself,
    and every card's place is a deterministic function of that chain's path. For each
    chain state this keeps the matrix (place in deck-then-left-half × card) of joint
    probabilities and moves its rows exactly as the port moves cards. There are O(n²)
    states, so the cost is O(n⁴): exact for any n, about 10 s at 52 cards in CPython.
    Floats travel two cards to a complex number, halving the element operations.
    """
    if n > MAX_PHYSICAL_MATRIX_CARDS:
        raise ExactTooCostly(
            f"riffle-physical's exact matrix costs O(n⁴) (about 10 s at {MAX_PHYSICAL_MATRIX_CARDS} cards "
            f"in CPython, 16 times that at twice the cards), so it is limited to {MAX_PHYSICAL_MATRIX_CARDS} cards"
        )
    if isinstance(one, float):
        return [list(row) for row in _physical_pass_floats(n)]
    return _unpack(_physical_pass_flat(n, one, 1), n, 1)


@lru_cache(maxsize=8)
def _physical_pass_floats(n: int) -> tuple[tuple[float, ...], ...]:
    return tuple(map(tuple, _unpack(_physical_pass_flat(n, 1.0 + 0j, 2), n, 2)))


def _unpack(flat: list, n: int, per_cell: int) -> Matrix:
    """Return P[card][place] from a flat place-major list holding per_cell cards per entry."""
    width = -(-n // per_cell)
    if per_cell == 1:
        return [flat[card::width] for card in range(n)]
    return [[(z.real if card % 2 == 0 else z.imag) for z in flat[card // 2::width]] for card in range(n)]


def _physical_pass_flat(n: int, one, per_cell: int) -> list:
    """Run the chain; return the final place × card matrix, flat, per_cell cards per entry."""
    width = -(-n // per_cell)  # entries per row (one row per place)
    zero = one - one
    pending: dict[tuple[int, int, int], list] = {}
    queue: list = []
    final = [zero] * (n * width)

    def add_to(key: tuple[int, int, int], flat: list) -> None:
        held = pending.get(key)
        if held is None:
            pending[key] = flat
            heapq.heappush(queue, (-key[0], -key[2], key))
        else:
            pending[key] = list(map(add, held, flat))

    units = [one, one * 1j] if per_cell == 2 else [one]
    for cut_draw in range(9):
        for right_draw in range(4):
            deck = list(range(n))
            left_half, left_count, right_count = physical_cut(deck, cut_draw, right_draw)
            flat = [zero] * (n * width)
            for place, card in enumerate(deck + left_half):
                flat[place * width + card // per_cell] = units[card % per_cell] / 36
            add_to((left_count, 0, max(right_count, physical_floor(n, left_count))), flat)
    while queue:
        key = heapq.heappop(queue)[2]
        flat = pending.pop(key)
        left_count, g, right_count = key
        deck_cells = (n - left_count - g) * width
        start = _splice_start(right_count, n - left_count - g) * width
        if left_count <= 0:
            final = list(map(add, final, flat[:start] + flat[deck_cells:] + flat[start:deck_cells]))
            continue
        floor = physical_floor(n, left_count)
        loops = 4 if right_count == floor else 1
        flat = list(map(mul, flat, repeat(one / (16 - loops))))
        left_start = deck_cells + left_count * width
        for take in range(4):
            taken_end = left_start + min(take, g) * width
            # the taken rows of the left half go in at the splice start; nothing else moves
            moved = (flat[:start] + flat[left_start:taken_end] + flat[start:deck_cells]
                     + flat[deck_cells:left_start] + flat[taken_end:])
            next_floor = physical_floor(n, left_count - take)
            for drop in range(4):
                if take == 0 and (drop == 0 or right_count == floor):
                    continue
                add_to((left_count - take, max(g, take), max(right_count - drop + take, next_floor)), moved)
    return final


def _riffle_physical_matrix(n: int, params: dict, one) -> Matrix:
    return matrix_power(riffle_physical_pass_matrix(n, one), params["passes"])


_POSITION: dict[str, Callable[[int, dict, object], Matrix]] = {
    "fisher-yates": _fisher_yates_matrix,
    "splice": _splice_matrix,
    "stack": _stack_matrix,
    "random-key": _uniform_matrix,
    "riffle-gsr": _riffle_gsr_matrix,
    "fisher-yates-off-by-one": _off_by_one_matrix,
    "naive-pairs": _naive_pairs_matrix,
    "swap-any": _swap_any_matrix,
    "c-rand": _c_rand_matrix,
    "riffle-physical": _riffle_physical_matrix,
    "cut-insert": _cut_insert_matrix,
    "random-comparator": _no_matrix,
    "none": _identity_matrix,
}


def position_matrix_from_distribution(dist: Distribution, n: int) -> Matrix:
    """Return the exact position matrix implied by a whole-order distribution."""
    matrix = [[Fraction(0)] * n for _ in range(n)]
    for order, p in dist.items():
        for position, card in enumerate(order):
            matrix[card][position] += p
    return matrix


# --- plain-data reports (the CLI prints them; the page can pass them through a worker) ------

MAX_RIFFLE_TV_CARDS = 520
MAX_RIFFLE_TV_K = 20

METHODS = {
    "fisher-yates": "the port, every path enumerated",
    "splice": "the port, every path enumerated",
    "stack": "the port, every path enumerated",
    "random-key": "exactly uniform (exchangeable keys; ties have probability below n²/2^54)",
    "riffle-gsr": "Binomial cut and uniform interleaving per pass (checked against the port), passes composed",
    "fisher-yates-off-by-one": "the port, every path enumerated",
    "naive-pairs": "n independent swaps of two uniform positions (checked against the port)",
    "swap-any": "n independent swaps with a uniform position (checked against the port)",
    "c-rand": "an ideal rand(): each rand() % n distributed as 0..32767 fall modulo n; the LCG's correlations left out",
    "riffle-physical": "the port's steps as a Markov chain on whole states, self-loops summed; passes composed",
    "cut-insert": "the port, every path of one repetition enumerated; repetitions composed",
    "random-comparator": "the port, every path enumerated (a fair coin per comparison)",
    "none": "the port, every path enumerated",
}


def fraction_text(value: Fraction) -> str:
    """Return a fraction as 'p/q' (always with a denominator, e.g. '0/1', '1/1')."""
    return f"{value.numerator}/{value.denominator}"


def exact_report(algorithm_id: str, n: int, params: dict | None = None) -> dict:
    """Return every order's exact probability (all n! of them) and the TV distance, as plain data."""
    algorithm = algorithms.get(algorithm_id)
    resolved = algorithm.resolve_params(params)
    dist = outcome_distribution(algorithm.id, n, resolved)
    distance = total_variation_to_uniform(dist, n)
    zero = Fraction(0)
    return {
        "algorithm": algorithm.id,
        "params": resolved,
        "cards": n,
        "method": METHODS[algorithm.id],
        "orders": [{"order": list(order), "probability": fraction_text(dist.get(order, zero))}
                   for order in permutations(range(n))],
        "reachable": len(dist),
        "total_orders": math.factorial(n),
        "total_variation": fraction_text(distance),
        "total_variation_float": float(distance),
    }


def riffle_tv_report(n: int, max_k: int) -> dict:
    """Return the exact distance to uniform after 1..max_k GSR riffles of n cards, as plain data."""
    if not 1 <= n <= MAX_RIFFLE_TV_CARDS:
        raise ValueError(f"riffle-tv takes 1 to {MAX_RIFFLE_TV_CARDS} cards, not {n}")
    if not 1 <= max_k <= MAX_RIFFLE_TV_K:
        raise ValueError(f"max-k must be 1 to {MAX_RIFFLE_TV_K}, not {max_k}")
    return {
        "cards": n,
        "distances": [{"k": k, "exact": fraction_text(d), "value": float(d)}
                      for k, d in enumerate(riffle_tv(n, max_k), start=1)],
    }
