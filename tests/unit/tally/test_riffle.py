"""Measured riffle distances: sampled k-riffle decks beside Bayer & Diaconis's exact answer."""

import math

import pytest

from shufflelab.errors import ShuffleLabError
from shufflelab.exact.riffle import riffle_tv
from shufflelab.tally import measured_riffle_tv


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_measured_riffle_distances_follow_the_exact_ones(n):
    trials = 20_000
    measured = measured_riffle_tv(n, 8, trials, seed=f"tv-{n}")
    exact_tv = [float(d) for d in riffle_tv(n, 8)]
    noise = 0.4 * (math.factorial(n) / trials) ** 0.5 + 0.01
    assert all(abs(m - e) <= noise for m, e in zip(measured, exact_tv)), list(zip(measured, exact_tv))


def test_measured_riffle_distances_refuse_big_decks():
    with pytest.raises(ShuffleLabError, match="1 to 5 cards"):
        measured_riffle_tv(6, 3, 100)
