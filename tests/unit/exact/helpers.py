"""What the exact tests share: the enumerated port, a cycle test, and a seeded tally of the port."""

from __future__ import annotations

from catalog_tables import small_params
from shufflelab import catalog
from shufflelab.exact.enumeration import enumerate_port

# every entry with an exact position matrix (all the built-ins; random-comparator's only up to 6 cards)
WITH_MATRIX = [entry.id for entry in catalog.entries() if entry.matrix is not None]
# few enough passes and repetitions that exact fractions stay quick: each entry's test_params
SMALL_PARAMS = small_params()


def enumerated(algorithm_id: str, n: int, params: dict | None = None) -> dict:
    """Return the port's exact distribution on 0..n-1, every path enumerated (none cut)."""
    dist, cut = enumerate_port(algorithm_id, n, params)
    assert cut == 0
    return dist


def cyclic(order: tuple[int, ...]) -> bool:
    """True when the order, read as a permutation, is one single cycle."""
    seen, k, length = set(), 0, 0
    while k not in seen:
        seen.add(k)
        k = order[k]
        length += 1
    return length == len(order)
