"""Every path of a port's random choices, replayed depth-first with exact probabilities.

A scripted rng answers ``below(m)`` from a script; after each run the script moves to the
next path like an odometer over the bounds the run asked for. Each path's probability is
the product of its ``1/m``, so the result is exact for any port that draws only ``below``.
"""

import math
from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction

from .. import catalog
from ..rng import check_bound
from .errors import ExactTooCostly, NotEnumerable

MAX_PORT_PATHS = 1_000_000

Order = tuple[int, ...]
Distribution = dict[Order, Fraction]


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
    algorithm = catalog.get(algorithm_id)
    resolved = algorithm.resolve_params(params)
    deck = list(range(n))
    # outcome -> {product of bounds along a path: number of such paths}
    weights: dict[Order, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    cut: dict[int, int] = defaultdict(int)
    script: list[int] = []
    for _ in range(MAX_PORT_PATHS):
        rng = ScriptedRng(script, max_draws)
        try:
            weights[tuple(algorithm.port(deck, rng, **resolved))][math.prod(rng.bounds)] += 1
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
