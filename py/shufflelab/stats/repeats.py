"""Repeated decks: how many different decks an engine can deal, from how often its orders repeat.

Among N orders drawn uniformly from M possible decks, the number of pairs of identical orders
has mean C(N, 2)/M, and is nearly Poisson while N is small beside M (the birthday problem;
Marsaglia's birthday-spacings test rests on the same count). A fair shuffle of n cards has
M = n!: 52! is about 8e67, so a fair 52-card shuffle repeats no deck in any number of orders
anyone will ever make. An engine seeded from b bits deals at most 2^b decks, and its orders
repeat once N nears 2^(b/2): 100,000 orders of a 20-bit engine hold about 4,800 repeated pairs.
So the repeats estimate M, the number of decks the engine can deal, as C(N, 2)/pairs, with an
exact (Garwood) Poisson interval; and under a fair shuffle, P(pairs >= observed) is the
Poisson upper tail with mean C(N, 2)/n!, exact in the limit and in log space here.

Orders are counted by a 64-bit BLAKE2b digest each: two different orders share a digest with
probability 2^-64 per pair, so among 10^8 orders (5e15 pairs) about 3e-4 false pairs are
expected, far below one. Standard library only.
"""

import hashlib
import math

from ..lab.words import number_words
from .chi2 import gamma_q, log_gamma_q

DIGEST_BYTES = 8  # 64 bits: see the module's docstring for what its own collisions cost
CONFIDENCE = 0.95  # of the interval on the number of decks
MAX_POISSON_SHARE = 0.01  # the Poisson law is used while N is at most 1% of the decks there are (N ≪ M)


class RepeatCounter:
    """Orders seen so far (one digest each) and the pairs of identical orders among them."""

    def __init__(self) -> None:
        self.seen = {}  # digest -> how many orders had it
        self.orders = 0
        self.pairs = 0

    def add_decks(self, decks: bytes, n: int) -> None:
        """Count each deck of ``decks`` (n bytes a deck, one byte a card) and the pairs it makes with earlier ones."""
        seen = self.seen
        for start in range(0, len(decks), n):
            key = hashlib.blake2b(decks[start:start + n], digest_size=DIGEST_BYTES).digest()
            before = seen.get(key, 0)
            self.pairs += before
            seen[key] = before + 1
        self.orders += len(decks) // n


def pairs_among(orders: int) -> int:
    """Return C(orders, 2): the pairs of orders that could be identical."""
    return orders * (orders - 1) // 2


def log10_decks(n: int) -> float:
    """Return log10(n!), the number of different orders of n cards."""
    return math.lgamma(n + 1) / math.log(10)


def poisson_log10_upper_tail(observed: int, mean: float) -> float:
    """Return log10 P(X >= observed) for X ~ Poisson(mean), accurate far below 1e-300 (mean > 0)."""
    if observed <= 0:
        return 0.0
    if mean >= observed:  # at least about half: 1 - Q(observed, mean) loses nothing that matters
        return math.log10(max(1.0 - gamma_q(observed, mean), 1e-300))
    # past the mean each term shrinks by mean/(j+1) < 1: sum from the first term until they vanish
    first = observed * math.log(mean) - mean - math.lgamma(observed + 1)
    total, term, j = 1.0, 1.0, observed
    while term > 1e-17 * total:
        j += 1
        term *= mean / j
        total += term
    return min(0.0, (first + math.log(total)) / math.log(10))


def poisson_lower_tail(observed: int, mean: float) -> float:
    """Return P(X <= observed) for X ~ Poisson(mean): Q(observed + 1, mean), the regularized upper gamma."""
    return math.exp(log_gamma_q(observed + 1, mean))


def poisson_interval(observed: int, confidence: float = CONFIDENCE) -> tuple:
    """Return the exact (Garwood) interval (low, high) on a Poisson mean from one count: each tail holds
    (1 - confidence)/2; low is 0 for a count of 0."""
    tail = (1 - confidence) / 2
    low = 0.0 if observed == 0 else _solve(lambda mean: (1.0 - gamma_q(observed, mean)) - tail, True)
    high = _solve(lambda mean: poisson_lower_tail(observed, mean) - tail, False)
    return low, high


def _solve(excess, rising: bool) -> float:
    """Return the mean where ``excess`` (monotone in the mean: rising, or falling) crosses 0, by bisection on its log."""
    low, high = math.log(1e-12), math.log(1e20)
    for _ in range(100):
        middle = (low + high) / 2
        if (excess(math.exp(middle)) < 0) == rising:
            low = middle
        else:
            high = middle
    return math.exp((low + high) / 2)


class RepeatsReport:
    """What the repeats say: the count, the decks the engine can deal (estimate and interval), and the chance of as many
    under a fair shuffle."""

    __slots__ = ("orders", "pairs", "n", "expected_fair", "log10_p", "decks", "decks_low", "decks_high", "applies")

    def __init__(self, orders, pairs, n, expected_fair, log10_p, decks, decks_low, decks_high, applies):
        self.orders, self.pairs, self.n = orders, pairs, n
        self.expected_fair, self.log10_p = expected_fair, log10_p
        self.decks, self.decks_low, self.decks_high = decks, decks_low, decks_high
        self.applies = applies

    def as_dict(self) -> dict:
        """Return the report as plain data (the CLI's JSON)."""
        return {name: getattr(self, name) for name in self.__slots__}


def repeats_report(orders: int, pairs: int, n: int) -> RepeatsReport:
    """Return what ``pairs`` identical pairs among ``orders`` orders of ``n`` cards say.

    ``applies`` is False when the orders are too many beside n! for the Poisson law (more than
    MAX_POISSON_SHARE of the decks there are): there repeats are expected of any shuffle, and the
    position and fixed-point tests speak instead.
    """
    chances = pairs_among(orders)
    log10_all = log10_decks(n)
    applies = orders > 1 and math.log10(orders) <= log10_all + math.log10(MAX_POISSON_SHARE)
    expected_fair = 10 ** (math.log10(chances) - log10_all) if chances else 0.0
    log10_p = poisson_log10_upper_tail(pairs, expected_fair) if applies and pairs and expected_fair > 0 else 0.0
    if applies and pairs and expected_fair == 0.0:  # below the smallest float: the log still holds
        log10_p = _log10_tiny_mean_tail(pairs, math.log10(chances) - log10_all)
    low, high = poisson_interval(pairs)
    decks = chances / pairs if pairs else None
    decks_low = chances / high if chances else None  # more repeats than the interval's top: fewer decks
    decks_high = chances / low if pairs else None  # no repeat: no upper bound on the decks
    return RepeatsReport(orders, pairs, n, expected_fair, log10_p, decks, decks_low, decks_high, applies)


def _log10_tiny_mean_tail(observed: int, log10_mean: float) -> float:
    """Return log10 P(X >= observed) for a Poisson mean too small for a float, from its log10: the first term rules."""
    return observed * log10_mean - math.lgamma(observed + 1) / math.log(10)


def seed_bits(decks: float) -> float:
    """Return log2 of a number of decks: the bits of seed that would deal that many."""
    return math.log2(decks)


DECISIVE_LOG10_P = -9  # as the lab's "biased" (stats.verdicts.BIASED_P): a fair shuffle does this once in a billion


def repeats_sentence(report: RepeatsReport) -> str:
    """Say in one sentence what the repeats found, in a card player's words: the decks the engine can deal."""
    orders = f"{report.orders:,}"
    if not report.applies:
        return (f"Repeated decks: not a test here: {orders} orders of {report.n} cards are too many beside the "
                f"{number_words(log10_decks(report.n))} possible decks, so any shuffle repeats some.")
    if not report.pairs:
        bits = seed_bits(report.decks_low)
        return (f"No deck repeats among {orders} orders, as expected of a fair shuffle: the engine can deal at least "
                f"about {number_words(math.log10(report.decks_low))} different decks (a seed of {bits:.0f} bits "
                f"or more).")
    if report.log10_p <= DECISIVE_LOG10_P:
        return (f"Many decks repeat: {report.pairs:,} pairs of identical orders among {orders}, so this engine can "
                f"deal only about {number_words(math.log10(report.decks))} different decks "
                f"({number_words(math.log10(report.decks_low))} to {number_words(math.log10(report.decks_high))}), "
                f"as if its seed had about {seed_bits(report.decks):.0f} bits; a fair shuffle of {report.n} cards "
                f"would repeat {_expected_words(report.expected_fair)}.")
    pairs = "1 pair" if report.pairs == 1 else f"{report.pairs:,} pairs"
    return (f"{pairs} of identical orders among {orders}, where a fair shuffle of {report.n} cards expects "
            f"{_expected_words(report.expected_fair)}: not enough to say the engine deals fewer decks.")


def _expected_words(mean: float) -> str:
    """Say an expected number of repeated pairs: 'none' below one in a thousand, else about how many."""
    if mean < 1e-3:
        return "none"
    return f"about {mean:.3g}" if mean < 1000 else f"about {round(mean):,}"
