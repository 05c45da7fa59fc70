"""How many riffles are enough: Bayer & Diaconis's exact distance to uniform after k GSR riffles."""

import math
from fractions import Fraction
from functools import lru_cache

from ..errors import ShuffleLabError


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
        raise ShuffleLabError(f"riffle-tv needs at least 1 card, not {n}")
    if max_k < 1:
        raise ShuffleLabError(f"max-k must be at least 1, not {max_k}")
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
