"""c-rand over the real ANSI rand(): every srand seed's deal on a power-of-two deck, exactly.

The port seeds ``state = seed`` (32 bits, uniform) and each ``rand()`` first steps
``state = state·1103515245 + 12345 mod 2^32``, then returns bits 16..30. On n = 2^k cards
``rand() % n`` is bits 16..15+k of the state, and the state modulo 2^(16+k) evolves on its
own (the carries only go up), so the deal depends on the seed modulo 2^(16+k) alone, and
each of those residues is hit by exactly 2^(16−k) of the 2^32 seeds. Listing the residues
lists every seed's deal with its exact weight. (Whether rand() steps before or after it
answers changes which seed deals what, not the distribution: a step permutes the residues.
The tests pin the port's order against ``residue_deal`` seed by seed.)

Cheaper still: split a residue into its high k bits h and low 16 bits L. The high part
steps as h ← a·h + carry(L) mod 2^k, so after t steps it is a^t·h + D_t(L): one pass over
the 65,536 values of L finds every offset vector D (only 4 distinct ones on 2 cards, 256 on
4, all 65,536 from 8 on), and each (D, h) is one deal. CPython 3.11 here, 2 cores shared:
1, 2 and 4 cards in under 0.3 s, 8 cards about 2 s (2^19 deals of 8 swaps), 16 cards about
8 s (2^20 deals of 16 swaps; the matrix only, which the lab computes in steps). 32 cards
would be 2^21 deals of 32 swaps, over half a minute: past ``MAX_REAL_RAND_CARDS`` the
exact answer is an ideal rand()'s instead (``orders.ideal_c_rand``).
"""

from collections import Counter

from .composition import IntDist, point
from .enumeration import run_steps

MULTIPLIER = 1103515245
INCREMENT = 12345
LOW_BITS = 16  # rand() returns the state's bits 16..30
LOW_MASK = (1 << LOW_BITS) - 1
MAX_REAL_RAND_CARDS = 16  # the largest deck whose every seed is dealt (see the module docstring for the cost)
REAL_RAND = "the real ANSI rand()"
IDEAL_RAND = "an ideal rand()"
SECONDS_AT_8 = 2.0  # a first 8-card matrix, CPython 3.11 here (2 cores shared)
_OFFSETS: dict[int, Counter] = {}  # by n: a second call (orders, then the matrix) is free


def is_real_rand_size(n: int) -> bool:
    """True when c-rand's exact answer on n cards is the real generator's: n a power of two up to the limit."""
    return 1 <= n <= MAX_REAL_RAND_CARDS and n & (n - 1) == 0


def model_gap(n: int) -> str:
    """Return what c-rand's exact model on n cards leaves out of the real generator ('' when it leaves out nothing)."""
    return "" if is_real_rand_size(n) else f"the correlations of {REAL_RAND}'s LCG, which {IDEAL_RAND} does not have"


def model_name(n: int) -> str:
    """Return which rand() c-rand's exact answer on n cards models: the real one or an ideal one."""
    return REAL_RAND if is_real_rand_size(n) else IDEAL_RAND


def method(n: int) -> str:
    """Return what c-rand's exact answer on n cards is, naming the rand() it models."""
    sizes = ", ".join(str(1 << k) for k in range(MAX_REAL_RAND_CARDS.bit_length()))
    if is_real_rand_size(n):
        bits = LOW_BITS + n.bit_length() - 1
        return f"{REAL_RAND}: all 2^32 srand seeds, as their {1 << bits:,} residues mod 2^{bits}"
    return (f"{IDEAL_RAND}'s answer, not {REAL_RAND}'s (which is exact on {sizes} cards only): each rand() % n "
            f"distributed as 0..32767 fall modulo n; the LCG's correlations left out")


def residue_deal(n: int, residue: int) -> tuple:
    """Return the port's deal of 0..n-1 for any srand seed ≡ residue (mod 2^(16+k)), n = 2^k: the plain LCG, step by step."""
    mask = (n << LOW_BITS) - 1
    state = residue & mask
    deck = list(range(n))
    for i in range(n):
        # the state's bits past 16+k never reach bits 16..15+k, so stepping modulo 2^(16+k) is enough
        state = (state * MULTIPLIER + INCREMENT) & mask
        j = state >> LOW_BITS
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def high_offsets(n: int) -> Counter:
    """Return how many low halves L give each offset vector D (n = 2^k): after step t the high bits are a^t·h + D[t-1]."""
    cached = _OFFSETS.get(n)
    if cached is not None:
        return cached
    span = n  # the high part lives modulo 2^k = n
    slope = MULTIPLIER % span
    counts: Counter = Counter()
    for low in range(1 << LOW_BITS):
        offset = 0
        offsets = []
        for _ in range(n):
            stepped = low * MULTIPLIER + INCREMENT
            low = stepped & LOW_MASK
            # the high part steps by a·h plus what carries out of the low 16 bits
            offset = (slope * offset + (stepped >> LOW_BITS)) % span
            offsets.append(offset)
        counts[tuple(offsets)] += 1
    _OFFSETS[n] = counts
    return counts


def deal_steps(n: int, take):
    """Yield the fraction done now and then, passing every seed class's deal and its count mod 2^(16+k) to ``take`` (n = 2^k)."""
    offsets = high_offsets(n)
    slopes = [pow(MULTIPLIER, t, n) for t in range(1, n + 1)]
    for done, (offset, weight) in enumerate(offsets.items()):
        for high in range(n):
            deck = list(range(n))
            for i in range(n):
                j = (slopes[i] * high + offset[i]) % n
                deck[i], deck[j] = deck[j], deck[i]
            take(deck, weight)
        if done % 2048 == 2047:
            yield done / len(offsets)


def seconds(n: int) -> float:
    """Return roughly how many CPython seconds a first matrix of n cards takes (0 where it is the ideal model's, at once)."""
    if not is_real_rand_size(n) or n < 8:
        return 0.0
    # 2^(16+k) deals of n swaps each: n·2^(16+k) = n²·2^16 swaps, 2 s for 8 cards here
    return SECONDS_AT_8 * (n / 8) ** 2


def orders(n: int) -> IntDist:
    """Return c-rand's exact whole-order distribution on n = 2^k cards over all 2^32 srand seeds."""
    if n == 0:
        return point(())
    counts: Counter = Counter()

    def take(deck: list, weight: int) -> None:
        counts[tuple(deck)] += weight

    run_steps(deal_steps(n, take))
    return dict(counts), n << LOW_BITS


def matrix_steps(n: int, one):
    """Yield the fraction done now and then; return c-rand's exact card × position matrix on n = 2^k cards."""
    # summed deal by deal, never kept: 16 cards deal 2^20 distinct orders
    cells = [0] * (n * n)  # card·n + position

    def take(deck: list, weight: int) -> None:
        for position, card in enumerate(deck):
            cells[card * n + position] += weight

    yield from deal_steps(n, take)
    total = n << LOW_BITS
    return [[one * c / total for c in cells[card * n:card * n + n]] for card in range(n)]
