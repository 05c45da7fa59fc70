"""What the stats tests share: tallies and fixed-point histograms of seeded runs of a port."""

from __future__ import annotations

from shufflelab import catalog
from shufflelab.tally import FastRng


def port_tally(algorithm_id: str, n: int, trials: int, rng: FastRng, params: dict | None = None) -> list[list[int]]:
    """Return counts[card][position] of ``trials`` runs of the port on 0..n-1."""
    counts = [[0] * n for _ in range(n)]
    deck = list(range(n))
    for _ in range(trials):
        for position, card in enumerate(catalog.shuffled(deck, algorithm_id, rng, params)):
            counts[card][position] += 1
    return counts


def fixed_point_histogram(algorithm_id: str, n: int, trials: int, rng: FastRng) -> list[int]:
    """Return h[k]: how many of ``trials`` runs of the port on 0..n-1 left exactly k cards in place."""
    histogram = [0] * (n + 1)
    deck = list(range(n))
    for _ in range(trials):
        order = catalog.shuffled(deck, algorithm_id, rng)
        histogram[sum(card == position for position, card in enumerate(order))] += 1
    return histogram
