"""Exact card × position matrices: P[i][j], the chance that card i (starting at i) ends at j.

Each model follows the port's steps on the columns (position → card probabilities), so
it works for any deck size; passes and repetitions compose as matrix powers. Floats by
default, exact Fractions on request. Where a card's position is not a Markov chain
(random-comparator, a user's own code), the matrix is summed from the whole-order walk
instead, for decks of up to MAX_WALKED_CARDS; an entry with no matrix at all says why.
"""

import math
from fractions import Fraction
from itertools import repeat
from operator import add, mul

from .. import catalog
from ..errors import ShuffleLabError
from . import crand
from .enumeration import Distribution, run_steps
from .errors import ExactTooCostly, NoExactMatrix
from .orders import RAND_SPAN, ideal_rand_residue_weights, outcome_distribution

Matrix = list[list]
# the lab walks a small deck in half-second steps, showing its progress: 6 cards of swap-any as a user's
# code are 46,656 paths (0.65 s in CPython, 1.3 s in Pyodide here), 7 cards 823,543 (about 12 s in
# CPython, a minute in Pyodide), too long to wait for; whole orders are walked up to orders.MAX_EXACT_CARDS (7)
MAX_WALKED_CARDS = 6
# one float product of two 128 × 128 matrices, CPython 3.11 here: cut-insert's 100,000 repetitions are 21 of them, 1.04 s
PRODUCT_SECONDS_AT_128 = 0.05


def position_matrix(algorithm_id: str, n: int, params: dict | None = None, exact: bool = False) -> Matrix:
    """Return P[i][j]: the probability that card i, starting at position i, ends at position j.

    Floats by default (each row sums to 1 within rounding); exact Fractions with
    ``exact=True`` (meant for small n). Raises NoExactMatrix, with the entry's reason,
    for an algorithm that has none.
    """
    entry = catalog.get(algorithm_id)
    resolved = entry.resolve_params(params)
    if n < 0:
        raise ShuffleLabError(f"a deck cannot have {n} cards")
    model = entry.resolve("matrix")
    if model is None:
        raise NoExactMatrix(entry.no_matrix_reason)
    if n == 0:
        return []
    return model(n, resolved, Fraction(1) if exact else 1.0)


def matrix_seconds_estimate(algorithm_id: str, n: int, params: dict | None = None) -> float:
    """Return roughly how many CPython seconds a first ``position_matrix`` call takes; 0 where well under one."""
    entry = catalog.get(algorithm_id)
    estimate = entry.resolve("matrix_seconds")
    return estimate(n, entry.resolve_params(params)) if estimate is not None else 0.0


def position_matrix_from_distribution(dist: Distribution, n: int) -> Matrix:
    """Return the exact position matrix implied by a whole-order distribution."""
    matrix = [[Fraction(0)] * n for _ in range(n)]
    for order, p in dist.items():
        for position, card in enumerate(order):
            matrix[card][position] += p
    return matrix


# --- the models the catalog names (n, params, one) -> Matrix --------------------


def _identity(n: int, one) -> Matrix:
    zero = one - one
    return [[one if i == j else zero for j in range(n)] for i in range(n)]


def uniform(n: int, params: dict, one) -> Matrix:
    """Every card equally likely at every position."""
    return [[one / n] * n for _ in range(n)]


def identity(n: int, params: dict, one) -> Matrix:
    """Every card stays where it is."""
    return _identity(n, one)


def _transpose(columns: list[list]) -> Matrix:
    return [list(row) for row in zip(*columns)]


def _blend(a: list, wa, b: list, wb) -> list:
    """Return wa·a + wb·b, elementwise."""
    return list(map(add, map(mul, a, repeat(wa)), map(mul, b, repeat(wb))))


def _scaled_sum(columns: list[list], weights: list) -> list:
    """Return Σ weights[k]·columns[k], elementwise."""
    return [sum(map(mul, cells, weights)) for cells in zip(*columns)]


def _swap_with(columns: list[list], i: int, weights: list) -> None:
    """Update columns (position → card probabilities) for 'swap position i with j ~ weights'."""
    held = columns[i]
    columns[i] = _scaled_sum(columns, weights)
    for j, w in enumerate(weights):
        if j != i and w:
            columns[j] = _blend(columns[j], 1 - w, held, w)


def _swap_uniform_below(columns: list[list], i: int, span: int, one) -> None:
    """Update columns for 'swap position i with j uniform in [0, span)' (span ≤ n)."""
    w = one / span
    held = columns[i]
    picked = [sum(cells) * w for cells in zip(*columns[:span])]
    for j in range(span):
        if j != i:
            columns[j] = _blend(columns[j], 1 - w, held, w)
    columns[i] = picked


def fisher_yates(n: int, params: dict, one) -> Matrix:
    """Swap position i (n-1 down to 1) with one uniform in [0, i]."""
    columns = _identity(n, one)
    for i in range(n - 1, 0, -1):
        _swap_uniform_below(columns, i, i + 1, one)
    return _transpose(columns)


def off_by_one(n: int, params: dict, one) -> Matrix:
    """Swap position i (n-1 down to 1) with one uniform in [0, i): Sattolo's cycles."""
    columns = _identity(n, one)
    for i in range(n - 1, 0, -1):
        _swap_uniform_below(columns, i, i, one)
    return _transpose(columns)


def swap_any(n: int, params: dict, one) -> Matrix:
    """Swap position i (n-1 down to 0) with one uniform in [0, n)."""
    columns = _identity(n, one)
    for i in range(n - 1, -1, -1):
        _swap_uniform_below(columns, i, n, one)
    return _transpose(columns)


def c_rand(n: int, params: dict, one) -> Matrix:
    """Swap position i (0 up) with rand() % n: the real ANSI rand() over every seed on 2^k ≤ 16 cards, else an ideal rand()."""
    return run_steps(c_rand_steps(n, params, one))


def c_rand_steps(n: int, params: dict, one=1.0):
    """Yield the fraction done now and then; return ``c_rand(n, params, one)`` (the lab computes 8 and 16 cards in steps)."""
    if crand.is_real_rand_size(n):
        return (yield from crand.matrix_steps(n, one))
    return ideal_c_rand(n, one)


def c_rand_seconds(n: int, params: dict) -> float:
    """Return roughly how many CPython seconds a first c-rand matrix takes: the real rand()'s 2^(16+k) deals on 2^k cards."""
    return crand.seconds(n)


def ideal_c_rand(n: int, one) -> Matrix:
    """Swap position i (0 up) with rand() % n of an ideal rand()."""
    weights = [one * w / RAND_SPAN for w in ideal_rand_residue_weights(n)]
    columns = _identity(n, one)
    for i in range(n):
        _swap_with(columns, i, weights)
    return _transpose(columns)


def naive_pairs(n: int, params: dict, one) -> Matrix:
    """n swaps of two uniform positions, in closed form."""
    # each step keeps a card with weight 1 − 2/n and spreads 2/n² everywhere:
    # M ← (1 − 2/n)·M + (2/n²)·J, so after n steps M = a·I + (1 − a)/n·J with a = (1 − 2/n)^n
    stay = (1 - 2 * one / n) ** n
    spread = (1 - stay) / n
    return [[stay + spread if i == j else spread for j in range(n)] for i in range(n)]


def _move_step(columns: list[list], count: int, target: int, one) -> None:
    """Update columns for 'pull a uniform card from positions [0, count), insert it at target'."""
    n = len(columns)
    picked = [sum(cells) / count for cells in zip(*columns[:count])]
    moved = columns[:]
    for j in range(target):
        # position j now holds old j if the pulled card was below j, else old j + 1
        below = one * min(j + 1, count) / count
        moved[j] = _blend(columns[j], 1 - below, columns[j + 1], below) if below else columns[j]
    moved[target] = picked
    columns[:] = moved[:n]


def stack(n: int, params: dict, one) -> Matrix:
    """Pull a uniform card from the unshuffled ones and push it last, n times."""
    columns = _identity(n, one)
    for count in range(n, 0, -1):
        _move_step(columns, count, n - 1, one)
    return _transpose(columns)


def splice(n: int, params: dict, one) -> Matrix:
    """Pull a uniform card from the unshuffled ones and splice it back after them, n times."""
    columns = _identity(n, one)
    for count in range(n, 0, -1):
        # JS splice(count, 0, x) on the n-1 cards left after the pull: index count, or the end
        _move_step(columns, count, min(count, n - 1), one)
    return _transpose(columns)


def riffle_gsr_pass_matrix(n: int, one=1.0) -> Matrix:
    """Return one GSR riffle's position matrix, in closed form.

    Summing over the Binomial(n, 1/2) cut c, the top card i lands at q with probability
    C(q, i)·2^(n−1−q)/2^n, and a bottom card i with C(n−1−q, n−1−i)·2^q/2^n.
    """
    scale = 1 << n
    return [[one * (math.comb(q, i) * (1 << (n - 1 - q)) + math.comb(n - 1 - q, n - 1 - i) * (1 << q)) / scale
             for q in range(n)] for i in range(n)]


def riffle_gsr(n: int, params: dict, one) -> Matrix:
    """One GSR pass's closed form raised to ``passes``."""
    return matrix_power(riffle_gsr_pass_matrix(n, one), params["passes"])


def cut_insert_step_matrix(n: int, one=1.0) -> Matrix:
    """Return one cut-insert repetition's position matrix (split s uniform, paste q uniform below n − s)."""
    zero = one - one
    matrix = [[zero] * n for _ in range(n)]
    for split in range(n):
        rest = n - split
        w = one / (n * rest)
        for i in range(split):
            # a top card moves to paste + i, for each of the rest possible pastes
            for q in range(rest):
                matrix[i][q + i] += w
        for i in range(split, n):
            k = i - split
            # a rest card ends at k when the top part is pasted after it, else it keeps i
            matrix[i][k] += w * (rest - 1 - k)
            matrix[i][i] += w * (k + 1)
    return matrix


def cut_insert(n: int, params: dict, one) -> Matrix:
    """One repetition's matrix raised to ``repetitions``."""
    return matrix_power(cut_insert_step_matrix(n, one), params["repetitions"])


def cut_insert_steps(n: int, params: dict):
    """Yield the fraction done after each matrix product; return ``cut_insert``'s float matrix (the lab shows progress)."""
    return (yield from matrix_power_steps(cut_insert_step_matrix(n), params["repetitions"]))


def cut_insert_seconds(n: int, params: dict) -> float:
    """Return roughly how many CPython seconds ``cut_insert``'s float matrix takes: n³ work per product of its power.

    128 cards and 100,000 repetitions are about a second here, 5 s in Pyodide: long enough to ask first.
    """
    return PRODUCT_SECONDS_AT_128 * (n / 128) ** 3 * power_products(params["repetitions"])


def overhand_pass_matrix(n: int, one=1.0) -> Matrix:
    """Return one overhand pass's position matrix: the packet [s, e] around position i comes off after the n − 1 − e
    cards below it, so i goes to n − 1 − e + (i − s); s and e are independent, each set by fair cuts."""
    half = one / 2
    rows = []
    for i in range(n):
        # P(the packet starts at s): a cut at gap s (s > 0) and none at gaps s+1..i; P(it ends at e) likewise
        starts = [(s, half ** (i - s) * (half if s > 0 else one)) for s in range(i + 1)]
        ends = [(e, half ** (e - i) * (half if e < n - 1 else one)) for e in range(i, n)]
        row = [one * 0] * n
        for s, p_start in starts:
            for e, p_end in ends:
                row[n - 1 - e + i - s] += p_start * p_end
        rows.append(row)
    return rows


def overhand(n: int, params: dict, one) -> Matrix:
    """Pemantle's overhand pass in closed form, raised to ``overhands``."""
    return matrix_power(overhand_pass_matrix(n, one), params["overhands"])


def shelf_pass_matrix(n: int, shelves: int, one=1.0) -> Matrix:
    """Return one shelf-shuffler pass's position matrix.

    Card i lands on shelf s (of m) above the pile or under it. Every other card is above it independently: if it
    lands on an earlier shelf (chance s/m), or on the same shelf dealt before it when card i went under (1/m), or
    dealt after it and put on top (1/(2m)). So the position is Binomial(i, a) + Binomial(n − 1 − i, b), mixed over s
    and the side.
    """
    m = shelves
    rows = []
    for i in range(n):
        row = [one * 0] * n
        for s in range(m):
            for under in (False, True):
                before = (one * s + (one if under else 0)) / m  # a card dealt before i ends above it
                after = (one * s + one / 2) / m                  # a card dealt after i ends above it
                weight = one / (2 * m)
                for position, p in enumerate(_sum_of_binomials(i, before, n - 1 - i, after, one)):
                    row[position] += weight * p
        rows.append(row)
    return rows


def _sum_of_binomials(k1: int, p1, k2: int, p2, one) -> list:
    """Return the distribution of Binomial(k1, p1) + Binomial(k2, p2), as a list by value."""
    dist = [one]
    for count, p in ((k1, p1), (k2, p2)):
        for _ in range(count):
            dist = [(dist[v] if v < len(dist) else 0) * (1 - p) + (dist[v - 1] * p if v > 0 else 0)
                    for v in range(len(dist) + 1)]
    return dist


def shelf_shuffler(n: int, params: dict, one) -> Matrix:
    """A shelf-shuffler round in closed form, raised to ``rounds``."""
    return matrix_power(shelf_pass_matrix(n, params["shelves"], one), params["rounds"])


def matrix_product(a: Matrix, b: Matrix) -> Matrix:
    """Return a·b for square matrices given as lists of rows."""
    columns = list(zip(*b))
    return [[sum(map(mul, row, column)) for column in columns] for row in a]


def matrix_power(m: Matrix, k: int) -> Matrix:
    """Return m^k (k ≥ 1) of a stochastic matrix by repeated squaring.

    Float rows are renormalised after each product: squaring doubles a row-sum error,
    so 15000 repetitions would otherwise turn 1e-16 into 1e-11.
    """
    return run_steps(matrix_power_steps(m, k))


def matrix_power_steps(m: Matrix, k: int):
    """Yield the fraction of the products done after each one; return ``matrix_power(m, k)``."""
    total = power_products(k)
    done = 0
    result = None
    square = m
    while True:
        if k & 1:
            if result is None:
                result = square
            else:
                result = _stochastic_product(result, square)
                done += 1
                yield done / total
        k >>= 1
        if not k:
            return result
        square = _stochastic_product(square, square)
        done += 1
        yield done / total


def power_products(k: int) -> int:
    """Return how many matrix products m^k takes by repeated squaring (k ≥ 1): a squaring a bit, a product a further 1."""
    return k.bit_length() - 1 + bin(k).count("1") - 1


def _stochastic_product(a: Matrix, b: Matrix) -> Matrix:
    product = matrix_product(a, b)
    if not product or not isinstance(product[0][0], float):
        return product
    return [[x / total for x in row] if (total := math.fsum(row)) > 0 else row for row in product]


def splice_start(r: int, length: int) -> int:
    """Return where JavaScript's splice(r, ...) starts in an array of ``length``."""
    return max(length + r, 0) if r < 0 else min(r, length)


# --- matrices summed from the whole-order walk, for entries whose positions are no Markov chain ---


def walked(algorithm_id: str, walks: str):
    """Return the matrix model ``(n, params, one)`` of an entry walked path by path (n ≤ MAX_WALKED_CARDS).

    ``walks`` opens the refusal of a bigger deck: "<walks>, so it needs 0 to 6 cards, not 52".
    """

    def model(n: int, params: dict, one) -> Matrix:
        """Return P[i][j] summed from the walk's whole-order distribution, Fractions or floats as ``one`` is."""
        if n > MAX_WALKED_CARDS:
            raise ExactTooCostly(f"{walks}, so it needs 0 to {MAX_WALKED_CARDS} cards, not {n}")
        rows = position_matrix_from_distribution(outcome_distribution(algorithm_id, n, params), n)
        return rows if isinstance(one, Fraction) else [[float(p) for p in row] for row in rows]

    return model


random_comparator = walked("random-comparator", "random-comparator's exact matrix walks every path of the sort")
