"""How many riffles are enough, measured: sampled k-riffle decks beside Bayer & Diaconis's exact answer."""

import math
from collections import Counter

from ..errors import ShuffleLabError
from .fast_rng import FastRng
from .makers import riffle_gsr_decks

MAX_MEASURED_RIFFLE_CARDS = 5  # 5! = 120 orders: a few thousand decks estimate the distance well


def measured_riffle_tv(n: int, max_k: int, trials: int, seed: int | str | None = None) -> list[float]:
    """Return the total variation distance to uniform of ``trials`` sampled k-riffle decks, k = 1..max_k.

    A Monte-Carlo estimate to set beside the exact one: it is biased upwards by sampling
    noise (about 0.4 * sqrt(n! / trials)), so only small decks are measured.
    """
    if not 1 <= n <= MAX_MEASURED_RIFFLE_CARDS:
        raise ShuffleLabError(f"measured riffle distances need 1 to {MAX_MEASURED_RIFFLE_CARDS} cards, not {n}")
    rng = FastRng(seed)
    orders = math.factorial(n)
    uniform = 1 / orders
    distances = []
    for passes in range(1, max_k + 1):
        decks = riffle_gsr_decks(n, {"passes": passes}, rng, trials)
        seen = Counter(decks[start : start + n] for start in range(0, len(decks), n))
        unseen = orders - len(seen)
        distances.append(0.5 * (sum(abs(count / trials - uniform) for count in seen.values()) + unseen * uniform))
    return distances
