"""Whole-order distributions as integer numerators over one denominator, and passes composed.

Composing passes multiplies many probabilities; integers over a common denominator keep
that exact and far faster than Fraction arithmetic. Multi-pass algorithms draw each pass
independently of the cards, so passes compose as a random walk on permutations.
"""

import math
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from operator import itemgetter

from .enumeration import Distribution, Order
from .errors import ExactTooCostly

MAX_COMPOSE_WORK = 6_000_000  # small-int products while composing passes: about 3 s in CPython

IntDist = tuple[dict[Order, int], int]


def as_int_dist(dist: Distribution) -> IntDist:
    denominator = math.lcm(*(p.denominator for p in dist.values())) if dist else 1
    return {o: p.numerator * (denominator // p.denominator) for o, p in dist.items() if p}, denominator


def as_fractions(dist: IntDist) -> Distribution:
    numerators, denominator = dist
    return {o: Fraction(w, denominator) for o, w in sorted(numerators.items()) if w}


def then(first: IntDist, second: IntDist) -> IntDist:
    """Return the distribution of doing ``first`` and then ``second`` (independent passes)."""
    out: dict[Order, int] = defaultdict(int)
    for tau, w_tau in second[0].items():
        # pass tau applied to a deck in order sigma gives sigma[tau[j]] at position j
        rearrange = rearranger(tau)
        for sigma, w_sigma in first[0].items():
            out[rearrange(sigma)] += w_sigma * w_tau
    return dict(out), first[1] * second[1]


def rearranger(tau: Order) -> Callable[[Order], Order]:
    if len(tau) == 1:
        return lambda sigma: sigma
    return itemgetter(*tau) if tau else (lambda sigma: ())


def repeat_passes(one_pass: IntDist, passes: int, n: int, algorithm_id: str, what: str,
                 reachable: int | None = None) -> IntDist:
    """Return ``passes`` independent passes, or raise ExactTooCostly naming the largest feasible count.

    ``reachable`` bounds how many orders can ever come out (n! unless known smaller).
    """
    reachable = math.factorial(n) if reachable is None else reachable
    feasible = feasible_passes(len(one_pass[0]), reachable, len(str(one_pass[1])), passes)
    if passes > feasible:
        raise ExactTooCostly(
            f"exact fractions for {algorithm_id} on {n} cards are limited to {feasible} "
            f"{what if feasible != 1 else _SINGULAR.get(what, what)} "
            f"here (each one composes up to {len(one_pass[0]):,} × {reachable:,} fractions "
            f"that grow by {len(str(one_pass[1]))} digits); ask for fewer, or use the position matrix"
        )
    dist = one_pass
    for _ in range(passes - 1):
        dist = then(dist, one_pass)
    return dist


_SINGULAR = {"passes": "pass", "repetitions": "repetition", "rounds": "round", "overhands": "overhand"}


def feasible_passes(support: int, reachable: int, digits_per_pass: int, wanted: int) -> int:
    """Return min(wanted, the most passes whose composition fits MAX_COMPOSE_WORK)."""
    work, current = 0.0, support
    for passes in range(2, wanted + 1):
        # a k-pass numerator times a one-pass weight costs about 1 + k·digits/3000 small products
        work += current * support * (1 + passes * digits_per_pass / 3000)
        if work > MAX_COMPOSE_WORK:
            return passes - 1
        current = min(current * support, reachable)
    return wanted


def point(order: Order) -> IntDist:
    return {order: 1}, 1


def steps(n: int, step_dists: list[IntDist]) -> IntDist:
    dist = point(tuple(range(n)))
    for step in step_dists:
        dist = then(dist, step)
    return dist
