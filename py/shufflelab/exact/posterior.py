"""The guessing game with feedback: the posterior after k GSR riffles in closed form, and the best next guess.

k riffles are one a-shuffle with a = 2^k (Bayer & Diaconis 1992). The posterior with feedback,
in closed form (this project's own derivation, checked against the enumeration of every order
in tests/unit/exact/test_guessing.py). An a-shuffle cuts the deck into a packets of
consecutive cards, some empty, and interleaves them uniformly. Given a shown prefix, a
packet's shown cards must be its first ones, top down in increasing order; so each gap
between card values v and v+1 is either a forced cut (v unshown and v+1 shown, or both
shown with v+1 above v: D of them), free (both shown in order, or v shown and v+1 not: A of
them), or inside a run of u unshown cards. A cut vector with j packets in use counts
C(a, j) times, and the unshown cards of the packets interleave in (n−m)!/Π(unshown in each
packet)! ways, so with x marking a cut,

    P(prefix) = (n − m)! / a^n · L( x^D (1 + x)^A Π_runs B_u(x) ),   L(x^i) = C(a, i + 1),
    B_u(x) = Σ_p x^(p−1) · p! S(u, p) / u!   (a run of u unshown cards cut into p parts),

and P(prefix) depends on the prefix only through D and the multiset of run lengths. Showing
card c at offset t of a run of u replaces B_u by x B_t (if t > 0) times (1 + x) B_(u−t−1)
(if cards follow it in the run). That makes the best guess cheap to find, and exact, for any n;
``guessing`` plays it and sums it. CPython and Pyodide, standard library only.
"""

import math
import operator
from fractions import Fraction
from functools import lru_cache

from ..errors import ShuffleLabError


@lru_cache(maxsize=256)
def run_polynomial(u: int) -> tuple[int, ...]:
    """Return u!·B_u(x) as coefficients: x^(p−1) has p!·S(u, p), the ways to cut u unshown cards into p ordered parts."""
    surjections = [1]  # p!·S(0, p) for p = 0
    for size in range(1, u + 1):
        surjections = [0] + [p * ((surjections[p] if p < len(surjections) else 0) + surjections[p - 1])
                             for p in range(1, size + 1)]
    return tuple(surjections[1:])


def _multiply(a, b) -> list[int]:
    """Return the product of two polynomials with whole coefficients ≥ 0 (lowest degree first).

    Kronecker substitution: each is packed into one integer, a byte field per coefficient
    wide enough for any coefficient of the product, so one big-integer product (inside C)
    does the work of len(a)·len(b) small ones.
    """
    if len(a) == 1 or len(b) == 1:
        return [x * y for x in a for y in b]
    width = (max(a).bit_length() + max(b).bit_length() + min(len(a), len(b)).bit_length() + 7) // 8
    packed = (int.from_bytes(b"".join(x.to_bytes(width, "little") for x in a), "little")
              * int.from_bytes(b"".join(y.to_bytes(width, "little") for y in b), "little"))
    size = len(a) + len(b) - 1
    raw = packed.to_bytes(size * width, "little")
    return [int.from_bytes(raw[i:i + width], "little") for i in range(0, size * width, width)]


@lru_cache(maxsize=256)
def _power_of_one_plus_x(power: int) -> tuple[int, ...]:
    """Return the coefficients of (1 + x)^power: the free gaps' factor."""
    return tuple(math.comb(power, i) for i in range(power + 1))


def _apply_l(poly, a: int, shift: int = 0) -> int:
    """Return L(x^shift · poly) with L(x^i) = C(a, i + 1): packets in use chosen among the a labels."""
    return sum(c * math.comb(a, i + shift + 1) for i, c in enumerate(poly) if c)


class Shown:
    """What a guesser with feedback knows, as the posterior needs it: the unshown runs and the forced cuts.

    ``runs`` are (first card, length) of the maximal runs of unshown card values, in value
    order; ``forced`` is D, the gaps where a packet must end; ``shown`` is m.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.runs = [(0, n)] if n else []
        self.forced = 0
        self.shown = 0

    def free(self) -> int:
        """Return A, the gaps that may or may not end a packet: every gap not inside a run and not forced."""
        return self.shown - 1 + len(self.runs) - self.forced

    def key(self) -> tuple:
        """Return what the posterior depends on: the run lengths (sorted) and D."""
        return tuple(sorted(length for _, length in self.runs)), self.forced

    def show(self, card: int) -> None:
        """Record that ``card`` came next (it must be unshown)."""
        index = next((i for i, (first, length) in enumerate(self.runs) if first <= card < first + length), None)
        if index is None:
            raise ShuffleLabError(f"card {card} is not an unshown card of {self.n}")
        first, length = self.runs[index]
        left, right = card - first, first + length - card - 1
        pieces = []
        if left:
            pieces.append((first, left))
            self.forced += 1  # card − 1 unshown, card shown: a packet ends between them
        if right:
            pieces.append((card + 1, right))
        self.runs[index:index + 1] = pieces
        self.shown += 1


def prefix_probability(n: int, k: int, prefix) -> Fraction:
    """Return the exact probability that the deck after k GSR riffles starts with ``prefix`` (closed form)."""
    shown = Shown(n)
    position = {}
    for card in prefix:
        if card in position or not 0 <= card < n:
            return Fraction(0)
        # D counts v+1 shown above v when v+1 is shown (v then unshown, in the same run): no second pass
        shown.show(card)
        position[card] = len(position)
    a = 1 << k
    lengths, forced = [length for _, length in shown.runs], shown.forced
    poly = _power_of_one_plus_x(shown.free())
    for length in lengths:
        poly = _multiply(poly, run_polynomial(length))
    numerator = math.factorial(n - shown.shown) * _apply_l(poly, a, forced)
    return Fraction(numerator, a ** n * math.prod(math.factorial(u) for u in lengths))


@lru_cache(maxsize=4096)
def _binomials(a: int, top: int) -> tuple[int, ...]:
    """Return C(a, j) for j = 0..top: L's values, cached per state size."""
    return tuple(math.comb(a, j) for j in range(top + 1))


@lru_cache(maxsize=4096)
def _offset_factor(u: int, t: int) -> tuple[int, ...]:
    """Return what replaces u!·B_u when the card at offset t of a run of u is shown, times t!·(u − t − 1)!."""
    right = u - t - 1
    factor = [1]
    if t:
        factor = [0, *run_polynomial(t)]  # x · t!·B_t: a forced cut above the shown card
    if right:
        factor = _multiply(factor, _multiply([1, 1], run_polynomial(right)))  # a free gap below it
    return tuple(factor)


@lru_cache(maxsize=1 << 16)
def best_next(lengths: tuple[int, ...], forced: int, shown: int, a: int) -> tuple[int, int, int, int]:
    """Return (u, t, weight, scale) for the best next guess of a state: offset t in a run of length u.

    Every card at offset t of a run of length u is equally likely next. Its probability is
    (n − m − 1)! · weight / (a^n · scale): a fraction kept whole so that the choice is exact.
    Ties go to the shortest run, then the lowest offset.
    """
    free = shown - 1 + len(lengths) - forced
    scale = math.prod(math.factorial(u) for u in lengths)
    binomials = _binomials(a, sum(lengths) + shown + 1)
    distinct = sorted(set(lengths))
    # what every choice keeps: (1 + x)^A and each length's runs but one; then the other lengths' one run each
    common = _power_of_one_plus_x(free)
    for u in distinct:
        for _ in range(lengths.count(u) - 1):
            common = _multiply(common, run_polynomial(u))
    above = [common]
    for u in distinct[:-1]:
        above.append(_multiply(above[-1], run_polynomial(u)))
    below = [1]
    best = None
    for index in range(len(distinct) - 1, -1, -1):
        u = distinct[index]
        rest = _multiply(above[index], below)
        below = _multiply(below, run_polynomial(u))
        # L(x^(D + i) · rest) for the degrees i the new factor can have (up to u − 1)
        moments = [sum(map(operator.mul, rest, binomials[forced + i + 1:])) for i in range(u)]
        for t in range(u):
            # B_u's u! in the scale becomes t!·(u − t − 1)!: multiply by u! / (t!·(u − t − 1)!)
            weight = sum(map(operator.mul, _offset_factor(u, t), moments)) * u * math.comb(u - 1, t)
            if best is None or weight > best[2] or (weight == best[2] and (u, t) < best[:2]):
                best = (u, t, weight, scale)
    return best


def best_guess(state: Shown, a: int) -> tuple[int, Fraction]:
    """Return (card, its probability of coming next, given what was shown) under the best strategy."""
    lengths, forced = state.key()
    u, t, weight, _ = best_next(lengths, forced, state.shown, a)
    first = next(first for first, length in state.runs if length == u)
    return first + t, Fraction(weight, _state_weight(lengths, forced, state.shown, a))


def _state_weight(lengths, forced, shown, a) -> int:
    """Return (n − m)·L(x^D·rest): P(state) in the units of best_next's weights, so P(next | state) = weight / this."""
    free = shown - 1 + len(lengths) - forced
    poly = _power_of_one_plus_x(free)
    for length in lengths:
        poly = _multiply(poly, run_polynomial(length))
    # P(state) = (n − m)!·L(x^D poly)/(a^n·scale); the next card's P = (n − m − 1)!·weight/(a^n·scale)
    return sum(lengths) * _apply_l(poly, a, forced)
