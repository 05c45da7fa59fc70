"""The exact answers as plain data: what the CLI prints as text or JSON."""

import math
from fractions import Fraction
from itertools import permutations

from .. import catalog
from ..errors import ShuffleLabError
from .enumeration import Progress
from .matrices import position_matrix_from_distribution
from .orders import outcome_distribution, total_variation_to_uniform
from .riffle import riffle_tv

MAX_RIFFLE_TV_CARDS = 520
MAX_RIFFLE_TV_K = 20


def fraction_text(value: Fraction) -> str:
    """Return a fraction as 'p/q' (always with a denominator, e.g. '0/1', '1/1')."""
    return f"{value.numerator}/{value.denominator}"


def exact_report(algorithm_id: str, n: int, params: dict | None = None, progress: Progress | None = None,
                 matrix: bool = False) -> dict:
    """Return every order's exact probability (all n! of them) and the TV distance, as plain data.

    With ``matrix``, also the card × position matrix the same distribution implies (rows
    are cards, "p/q" strings), so a walk of every path is done once for both. ``progress``
    is passed to the walk (``enumeration.py``).
    """
    algorithm = catalog.get(algorithm_id)
    resolved = algorithm.resolve_params(params)
    dist = outcome_distribution(algorithm.id, n, resolved, progress)
    distance = total_variation_to_uniform(dist, n)
    zero = Fraction(0)
    report = {
        "algorithm": algorithm.id,
        "params": resolved,
        "cards": n,
        "method": algorithm.method,
        "orders": [{"order": list(order), "probability": fraction_text(dist.get(order, zero))}
                   for order in permutations(range(n))],
        "reachable": len(dist),
        "total_orders": math.factorial(n),
        "total_variation": fraction_text(distance),
        "total_variation_float": float(distance),
    }
    if matrix:
        report["matrix"] = [[fraction_text(p) for p in row] for row in position_matrix_from_distribution(dist, n)]
    return report


def riffle_tv_report(n: int, max_k: int) -> dict:
    """Return the exact distance to uniform after 1..max_k GSR riffles of n cards, as plain data."""
    if not 1 <= n <= MAX_RIFFLE_TV_CARDS:
        raise ShuffleLabError(f"riffle-tv takes 1 to {MAX_RIFFLE_TV_CARDS} cards, not {n}")
    if not 1 <= max_k <= MAX_RIFFLE_TV_K:
        raise ShuffleLabError(f"max-k must be 1 to {MAX_RIFFLE_TV_K}, not {max_k}")
    return {
        "cards": n,
        "distances": [{"k": k, "exact": fraction_text(d), "value": float(d)}
                      for k, d in enumerate(riffle_tv(n, max_k), start=1)],
    }
