"""Riffles of a real deck: rising sequences, how likely an order is after k GSR riffles, and what distances mean.

A user riffles a physical deck k times, starting from new-deck order (the project's: ids
0, 1, ..., n-1 top first, so A♣ 2♣ ... K♣ A♦ ... K♦ A♥ ... K♥ A♠ ... K♠ for a standard pack),
and types the order they got. Bayer & Diaconis (1992): after k Gilbert-Shannon-Reeds riffles
of n cards, an order with r rising sequences has probability

    C(2^k + n - r, n) / 2^(k n),

which is 1 for new-deck order and 0 for every other order at k = 0.

**Rising sequences** (the convention used here and in Bayer & Diaconis): a rising sequence is
a maximal run of consecutive cards c, c+1, ..., d (in new-deck order) that lie in the deck
top to bottom in that order, not necessarily next to each other. An order's count is 1 plus
the number of cards c whose successor c+1 lies above it. New-deck order has 1; one riffle
interleaves two packets that keep their order, so it gives at most 2; k riffles at most 2^k.

Portable core: integers only (no fractions, dataclasses or typing), so the page's MicroPython
can run it; every likelihood is an exact ratio of integers and compared as one.
"""

import math

from .cards import normal_code
from .errors import ShuffleLabError, quoted
from .lab.words import number_words

LOG10_2 = 0.30102999566398120

MAX_RIFFLES = 20  # likelihoods for k = 0..20; past it, 2^k dwarfs any deck's n² and k riffles look uniform
# Royall's likelihood benchmark (Statistical Evidence, 1997): a ratio of 8 is "fairly strong" evidence,
# so the plausible ks are those within a factor of 8 of the best explanation of the order.
PLAUSIBLE_FACTOR = 8

# What each distance to uniform means for a bet on the order: one place, read by the CLI and the page.
DISTANCE_MEANINGS = (
    ("tv", "total variation",
     "the largest edge a bettor who knows the shuffle gains on any single yes/no bet about the order, "
     "at the odds a perfectly shuffled deck would make fair"),
    ("separation", "separation",
     "how much less likely than under a perfect shuffle the least likely order can be: every order "
     "keeps at least 1 - separation of its fair chance, and separation is never below total variation"),
    ("kl", "Kullback-Leibler divergence",
     "the expected log-gain per deck, in bits (each bit doubles the stake), of a "
     "bettor who knows the shuffle "
     "and spreads their whole stake over the orders in proportion to their chances, at fair uniform odds"),
)


class OrderError(ShuffleLabError):
    """An entered order that is not one deck in some order; the message names what is wrong."""


def deck_codes(deck) -> dict:
    """Return {code: id} for a deck's cards (upper-case codes, as cards.py writes them)."""
    ids = deck.ids()
    return dict(zip(deck.codes(ids), ids))


def parse_order(text: str, deck) -> list:
    """Return the card ids of an order typed as codes, top card first ('AS 0H 2C', spaces or commas).

    Codes are cards.py's (rank then suit, ``0`` or ``10`` for ten), in any case, the suit a letter or the symbol the
    page draws ('A♣', '10♥'). Raises
    OrderError naming the first problem: an unknown code, a repeated card, or missing cards.
    """
    codes = deck_codes(deck)
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise OrderError("no cards given: type the deck's order as codes, top card first, e.g. AC 2C 3C")
    ids = []
    seen = {}
    for place, token in enumerate(tokens, 1):
        code = normal_code(token)
        card = codes.get(code)
        if card is None:
            raise OrderError("card %d, %s, is not a card of %s (codes are rank then suit: AS, 10H, 0H or TH, KC, or A♠)"
                             % (place, quoted(token, 24), deck.describe()))
        if card in seen:
            raise OrderError("%s is given twice (cards %d and %d)" % (code, seen[card], place))
        seen[card] = place
        ids.append(card)
    if len(ids) != len(deck):
        missing = [code for code, card in sorted(codes.items(), key=lambda item: item[1]) if card not in seen]
        shown = " ".join(missing[:8]) + (" ..." if len(missing) > 8 else "")
        raise OrderError("%d cards given, %s has %d: missing %s" % (len(ids), deck.describe(), len(deck), shown))
    return ids


def check_order(order) -> None:
    """Raise OrderError unless ``order`` holds each of 0..n-1 exactly once."""
    n = len(order)
    seen = [False] * n
    for card in order:
        if not isinstance(card, int) or not 0 <= card < n or seen[card]:
            raise OrderError("an order of %d cards must hold each of 0..%d once, not %r" % (n, n - 1, card))
        seen[card] = True


def rising_sequences(order) -> int:
    """Return the number of rising sequences of ``order`` (ids top first), raising OrderError if it is not an order."""
    check_order(order)
    return count_rising(order)


def count_rising(order) -> int:
    """Return the number of rising sequences of a valid order (ids top first): 1 + cards whose successor lies above them.

    0 for no cards. Unchecked, for the guessing game's loops over every order (exact.guessing); ``rising_sequences``
    checks the order first.
    """
    if not order:
        return 0
    place = [0] * len(order)
    for position, card in enumerate(order):
        place[card] = position
    return 1 + sum(1 for card in range(len(order) - 1) if place[card + 1] < place[card])


def comb(a: int, b: int) -> int:
    """Return the binomial coefficient C(a, b) (0 when b < 0 or b > a), in integers (MicroPython has no math.comb)."""
    if b < 0 or a < 0 or b > a:
        return 0
    b = min(b, a - b)
    result = 1
    for i in range(1, b + 1):
        result = result * (a - b + i) // i  # exact: a product of i consecutive integers is divisible by i!
    return result


def factorial(n: int) -> int:
    """Return n! in integers."""
    result = 1
    for i in range(2, n + 1):
        result *= i
    return result


def riffle_chance(n: int, rising: int, k: int) -> tuple:
    """Return (numerator, denominator): the exact chance of one order with ``rising`` rising sequences after k riffles."""
    return comb((1 << k) + n - rising, n), 1 << (k * n)


def log10_ratio(a: int, b: int) -> float:
    """Return log10(a / b) for positive integers of any size (MicroPython's math.log gives inf past floats)."""
    # keep the top 60 bits of each: the quotient is then good to about 1e-17, the shifts add exactly
    a_drop = max(_bits(a) - 60, 0)
    b_drop = max(_bits(b) - 60, 0)
    return math.log10((a >> a_drop) / (b >> b_drop)) + (a_drop - b_drop) * LOG10_2


def _bits(value: int) -> int:
    """Return the bit length of a positive integer (MicroPython's int has no bit_length)."""
    bits = 0
    while value >> (bits + 64):
        bits += 64
    while value >> bits:
        bits += 1
    return bits


def assess(order, max_k: int = MAX_RIFFLES) -> dict:
    """Return how well k = 0..max_k GSR riffles of new-deck order, and a perfect shuffle, explain ``order``.

    Plain data (ints, floats, strings, lists; no float is ever compared): ``cards``, ``rising``,
    ``likelihoods`` (for each k: ``k``, exact ``numerator`` and ``denominator``, and
    ``log10_vs_uniform``, log10 of its ratio to the uniform chance 1/n!, None where the order
    is impossible after k riffles), ``best_k`` (None when a perfect shuffle explains the
    order at least as well as every k), ``plausible`` (the ks within PLAUSIBLE_FACTOR of the
    best explanation, perfect shuffle included), ``plausible_low`` / ``plausible_high``
    (``plausible_high`` None when the range is open: more riffles explain it about as well),
    ``uniform_plausible`` and ``sentence``.
    """
    if not isinstance(max_k, int) or not 0 <= max_k <= MAX_RIFFLES:
        raise OrderError("max k must be 0 to %d, not %r" % (MAX_RIFFLES, max_k))
    rising = rising_sequences(order)
    n = len(order)
    if n < 2:
        raise OrderError("an order needs at least 2 cards to say anything about riffles, not %d" % n)
    n_factorial = factorial(n)
    # every chance scaled by n!·2^(max_k·n), so all of them, uniform's too, are integers to compare exactly
    top = 1 << (max_k * n)
    scores = []
    likelihoods = []
    for k in range(max_k + 1):
        numerator, denominator = riffle_chance(n, rising, k)
        scores.append(numerator * n_factorial * (top // denominator))
        likelihoods.append({"k": k, "numerator": numerator, "denominator": denominator,
                            "log10_vs_uniform": log10_ratio(numerator * n_factorial, denominator) if numerator else None})
    uniform = top
    best = max(max(scores), uniform)
    # the smallest k among equals; None when a perfect shuffle explains the order at least as well as any k
    best_k = scores.index(max(scores)) if max(scores) > uniform else None
    plausible = [k for k in range(max_k + 1) if scores[k] * PLAUSIBLE_FACTOR >= best]
    uniform_plausible = uniform * PLAUSIBLE_FACTOR >= best
    low = plausible[0] if plausible else None  # empty only when max_k is too small for an order that looks shuffled
    high = None if uniform_plausible else plausible[-1]
    result = {"cards": n, "rising": rising, "likelihoods": likelihoods, "best_k": best_k, "plausible": plausible,
              "plausible_low": low, "plausible_high": high, "uniform_plausible": uniform_plausible,
              "plausible_factor": PLAUSIBLE_FACTOR, "max_k": max_k,
              "uniform_log10_vs_best": log10_ratio(uniform, max(scores)) if max(scores) else None}
    result["sentence"] = verdict_sentence(result)
    return result


def verdict_sentence(result: dict) -> str:
    """Return one plain sentence on ``assess``'s result: shuffled enough or not, and how many riffles it looks like."""
    rising = result["rising"]
    sequences = "%d rising sequence%s" % (rising, "" if rising == 1 else "s")
    low, high = result["plausible_low"], result["plausible_high"]
    if result["uniform_plausible"]:
        fits = "more than %d" % result["max_k"] if low is None else "%d or more" % low
        return ("Looks well shuffled: %s; a perfectly shuffled deck explains this order about as well as any number "
                "of riffles (within a factor of %d), and it fits %s riffles." % (sequences, PLAUSIBLE_FACTOR, fits))
    if rising == 1:
        return "Not shuffled at all: this is new-deck order (1 rising sequence)."
    span = "%d" % low if low == high else "%d to %d" % (low, high)
    riffles = "riffle" if low == high == 1 else "riffles"
    times = number_words(-result["uniform_log10_vs_best"])
    return ("Not shuffled enough: %s, which looks like %s %s (the most likely %d); a perfectly shuffled deck is "
            "%s times less likely to give this order." % (sequences, span, riffles, result["best_k"], times))


