"""The guessing game: how many cards a guesser calls right, at best, after k GSR riffles of a new deck.

The deck 0..n-1 starts in order and is riffled k times (Gilbert–Shannon–Reeds); the guesser
then names the cards from the top down. Two games:

* ``feedback="none"``: every guess is written down first (repeats allowed). The best
  strategy names the most likely card at each position, so the expected score is
  Σ_positions max_card P(card at position): exact, from the position matrix, for any n.
* ``feedback="full"``: each card is shown after its guess. The best strategy names the most
  likely next card given what has been shown, so the expected score is the sum, over every
  prefix of shown cards, of max_c P(prefix followed by c).

k riffles are one a-shuffle with a = 2^k (Bayer & Diaconis 1992): an order π of the deck has
probability C(a + n − r, n) / a^n, where r is the number of rising sequences of π: maximal
runs of consecutive card values v, v+1, … lying top to bottom in that order, that is one
more than the number of v with v+1 above v.

The posterior with feedback, in closed form (this module's own derivation, checked against
the enumeration of every order in the tests). An a-shuffle cuts the deck into a packets of
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
(if cards follow it in the run). That makes the best guess cheap to find, and exact, for any n:
``optimal_feedback_simulation`` plays the best strategy on sampled decks (exact decisions,
a simulated mean), and ``feedback_expected`` sums it over every state exactly where the state
count allows.

Sources: Bayer & Diaconis (1992), "Trailing the dovetail shuffle to its lair" (a-shuffles,
rising sequences, guessing after riffles); Ciucu (1998), "No-feedback card guessing for
dovetail shuffles"; Liu (2019), arXiv:1908.07718, on guessing with feedback after riffles;
Diaconis, Fulman & Holmes (2013), "Analysis of casino shelf shuffling machines". CPython
and Pyodide, standard library only.
"""

import math
import operator
from fractions import Fraction
from functools import lru_cache
from itertools import permutations

from ..errors import ShuffleLabError
from ..riffles import count_rising
from ..tally.fast_rng import FastRng
from .matrices import matrix_power, riffle_gsr_pass_matrix

FEEDBACKS = ("none", "full")
MAX_ENUMERATED_CARDS = 8  # 8! = 40,320 orders, about 0.2 s
MAX_NO_FEEDBACK_CARDS = 64  # the exact position matrix: 64 cards and 16 riffles take 0.4 s here (128 cards 12 s)
MAX_RIFFLES = 16
MAX_STATE_SUM_CARDS = 20  # the exact sum over states (feedback_expected): 20 cards 0.3-0.8 s here, 24 about 5 s


def harmonic(n: int) -> Fraction:
    """Return H_n = 1 + 1/2 + … + 1/n: a random deck's expected score with feedback (best: any unseen card)."""
    return sum((Fraction(1, i) for i in range(1, n + 1)), Fraction(0))


def random_deck_expected(n: int, feedback: str) -> Fraction:
    """Return the expected score on a uniformly random deck: H_n with feedback, exactly 1 without (n ≥ 1)."""
    _check_feedback(feedback)
    return harmonic(n) if feedback == "full" else Fraction(1 if n else 0)


def _check_feedback(feedback: str) -> None:
    if feedback not in FEEDBACKS:
        raise ShuffleLabError(f"feedback must be one of {', '.join(FEEDBACKS)}, not {feedback!r}")


def _check(n: int, k: int, max_n: int, what: str) -> None:
    if not 1 <= n <= max_n:
        raise ShuffleLabError(f"{what} takes 1 to {max_n} cards, not {n}")
    if not 0 <= k <= MAX_RIFFLES:
        raise ShuffleLabError(f"riffles must be 0 to {MAX_RIFFLES}, not {k}")


# --- no feedback: the position matrix ------------------------------------------------------


def no_feedback_expected(n: int, k: int) -> Fraction:
    """Return the exact best expected score without feedback: Σ_positions max_card P(card at position)."""
    _check(n, k, MAX_NO_FEEDBACK_CARDS, "guessing without feedback")
    if k == 0:
        return Fraction(n)
    best = sum(max(column) for column in zip(*_position_counts(n, k)))
    return Fraction(best, 1 << (n * k))


def _position_counts(n: int, k: int) -> list:
    """Return 2^(n·k) · P(card i at position j) after k riffles, as whole numbers (row = card)."""
    # the project's closed-form pass matrix, scaled by 2^n to whole numbers: its k-th power is exact and fast
    scale = 1 << n
    one_pass = [[int(p * scale) for p in row] for row in riffle_gsr_pass_matrix(n, Fraction(1))]
    return matrix_power(one_pass, k)


def no_feedback_best_guesses(n: int, k: int) -> list:
    """Return the best guesses written in advance: the most likely card at each position, top first (ties: lowest card).

    Their expected score is ``no_feedback_expected(n, k)``.
    """
    _check(n, k, MAX_NO_FEEDBACK_CARDS, "guessing without feedback")
    if k == 0:
        return list(range(n))
    columns = zip(*_position_counts(n, k))
    return [max(range(n), key=lambda card, column=column: (column[card], -card)) for column in columns]


# --- with feedback: every order (n ≤ 8) ------------------------------------------------------


def order_weight(order, k: int) -> int:
    """Return a^n · P(order) after k GSR riffles of the ordered deck (a = 2^k): C(a + n − r, n), r rising sequences."""
    n = len(order)
    return math.comb((1 << k) + n - count_rising(order), n)


def order_probability(order, k: int) -> Fraction:
    """Return the exact probability of ``order`` (cards top first) after k GSR riffles (Bayer & Diaconis)."""
    return Fraction(order_weight(order, k), 1 << (k * len(order)))


def enumerated_feedback_expected(n: int, k: int) -> Fraction:
    """Return the exact best expected score with feedback, by listing every order (n ≤ MAX_ENUMERATED_CARDS).

    Σ over every prefix p of max_c P(p then c): the best guess after p is right with
    probability max_c P(p then c) / P(p), and p is reached with probability P(p).
    """
    _check(n, k, MAX_ENUMERATED_CARDS, "guessing with feedback by enumeration")
    # the weights of the orders with r rising sequences, r = 1..n
    weight_by_rises = [math.comb((1 << k) + n - r, n) for r in range(n + 1)]
    level = {order: weight_by_rises[count_rising(order)] for order in permutations(range(n))}
    total = 0
    for _ in range(n):
        # level maps prefixes of one length to their weight; the best next card is the heaviest extension
        best: dict = {}
        shorter: dict = {}
        for prefix, weight in level.items():
            head = prefix[:-1]
            if weight > best.get(head, -1):
                best[head] = weight
            shorter[head] = shorter.get(head, 0) + weight
        total += sum(best.values())
        level = shorter
    return Fraction(total, 1 << (k * n))


# --- with feedback: the posterior in closed form ----------------------------------------------


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


def feedback_expected(n: int, k: int) -> Fraction:
    """Return the exact best expected score with feedback, summed over the states of the closed form.

    Prefixes with the same run lengths and D have the same best next probability, so the sum
    over prefixes is a sum over states weighted by how many prefixes reach each. Exact for
    any n; the state count grows fast, so it is offered up to MAX_STATE_SUM_CARDS cards.
    """
    _check(n, k, MAX_STATE_SUM_CARDS, "guessing with feedback exactly")
    a = 1 << k
    level = {((n,), 0): 1}  # (run lengths sorted, D) -> how many prefixes of this length reach it
    total = Fraction(0)
    for shown in range(n):
        following: dict = {}
        for (lengths, forced), count in level.items():
            _, _, weight, scale = best_next(lengths, forced, shown, a)
            total += Fraction(count * math.factorial(n - shown - 1) * weight, scale)
            for index, u in enumerate(lengths):
                if index and lengths[index - 1] == u:
                    continue
                copies = lengths.count(u)
                others = list(lengths)
                others.remove(u)
                for t in range(u):
                    pieces = others + [p for p in (t, u - t - 1) if p]
                    state = (tuple(sorted(pieces)), forced + (t > 0))
                    following[state] = following.get(state, 0) + count * copies
        level = following
    return total / a ** n


# --- with feedback, on sampled decks ------------------------------------------------------------

MAX_SIMULATED_CARDS = 52
MAX_SAMPLES = 5_000  # 52 cards: 5 to 25 ms a deck here (the decisions are cached by state), so at most about a minute
DEFAULT_SAMPLES = 1_000


def best_feedback_guesses(order, k: int) -> list:
    """Return the best guesser's guesses with feedback on ``order`` (top first), one per card, after k riffles.

    Each guess is the exact most likely next card given the cards of ``order`` shown before
    it (``best_next``); a guess may be wrong, the next one knows the true card.
    """
    _check(len(order), k, MAX_SIMULATED_CARDS, "the guessing game with feedback")
    state = Shown(len(order))
    a = 1 << k
    guesses = []
    for card in order:
        lengths, forced = state.key()
        u, t, _, _ = best_next(lengths, forced, state.shown, a)
        guesses.append(next(first for first, length in state.runs if length == u) + t)
        state.show(card)
    return guesses


def play_best(order, k: int) -> int:
    """Return how many cards of ``order`` (top first) the best guesser with feedback calls right, after k riffles."""
    return sum(guess == card for guess, card in zip(best_feedback_guesses(order, k), order))


def random_deck_prefix_expected(n: int, m: int, feedback: str) -> Fraction:
    """Return a random deck's expected score on its top m cards of n: H_n − H_(n−m) with feedback, m/n without.

    A game stopped after m cards is scored against this; m = n gives ``random_deck_expected``.
    """
    _check_feedback(feedback)
    if not 0 <= m <= n:
        raise ShuffleLabError(f"a game of {n} cards can stop after 0 to {n} of them, not {m}")
    if feedback == "none":
        return Fraction(m, n) if n else Fraction(0)
    return sum((Fraction(1, n - i) for i in range(m)), Fraction(0))


class FeedbackSimulation:
    """The best guesser with feedback on decks sampled one after another; the estimate tightens as decks are added.

    Decks come from the project's riffle-gsr port with ``rng`` (injected), in order, so adding
    them in any chunks gives the same figures as adding them all at once.
    """

    def __init__(self, n: int, k: int, rng) -> None:
        _check(n, k, MAX_SIMULATED_CARDS, "simulated guessing with feedback")
        self.n, self.k, self.rng = n, k, rng
        self.samples = self.total = self.squares = 0

    def add(self, count: int = 1) -> None:
        """Play the best strategy on ``count`` more sampled decks."""
        from ..algorithms import riffle_gsr

        for _ in range(count):
            score = play_best(riffle_gsr(range(self.n), self.rng, passes=self.k), self.k)
            self.samples += 1
            self.total += score
            self.squares += score * score

    def estimate(self) -> tuple[float, float]:
        """Return (mean score, its standard error) over the decks so far (at least 2)."""
        if self.samples < 2:
            raise ShuffleLabError(f"an estimate needs at least 2 decks, not {self.samples}")
        mean = self.total / self.samples
        variance = max(0.0, (self.squares - self.samples * mean * mean) / (self.samples - 1))
        return mean, math.sqrt(variance / self.samples)

    def report_fields(self) -> dict:
        """Return the simulated fields of ``guess_report``: expected, its standard error and the decks."""
        mean, error = self.estimate()
        return {"exact": False, "expected": mean, "expected_value": mean, "standard_error": error,
                "samples": self.samples, "method": "simulated"}


def simulated_feedback_expected(n: int, k: int, samples: int, rng) -> tuple[float, float]:
    """Return (mean score, its standard error) of the best guesser with feedback on ``samples`` sampled decks.

    Decks are made by the project's own riffle-gsr port with ``rng`` (injected); the strategy
    is the exact best one, so the only error is sampling's: the mean estimates the exact value.
    """
    _check(n, k, MAX_SIMULATED_CARDS, "simulated guessing with feedback")
    _check_samples(samples)
    simulation = FeedbackSimulation(n, k, rng)
    simulation.add(samples)
    return simulation.estimate()


def _check_samples(samples: int) -> None:
    if not 2 <= samples <= MAX_SAMPLES:
        raise ShuffleLabError(f"samples must be 2 to {MAX_SAMPLES:,}, not {samples}")


# --- one answer, as plain data (the CLI's, later the page's) ----------------------------------


def exact_expected(n: int, k: int, feedback: str) -> tuple[Fraction, str] | None:
    """Return (the best expected score, how it was computed) where it is exact, else None (simulate it)."""
    _check_feedback(feedback)
    if feedback == "none":
        return no_feedback_expected(n, k), "position matrix"
    if n <= MAX_ENUMERATED_CARDS:
        _check(n, k, MAX_ENUMERATED_CARDS, "guessing with feedback")
        return enumerated_feedback_expected(n, k), "every order"
    if n <= MAX_STATE_SUM_CARDS:
        return feedback_expected(n, k), "states"
    return None


def guess_start(n: int, k: int, feedback: str, seed: str | None = None) -> tuple[dict, FeedbackSimulation | None]:
    """Return (report, None) where the best expected score is exact, else (report without it, a simulation to run).

    The report is ``guess_report``'s; a simulation's decks come from the tally's generator
    seeded by ``seed``, and ``simulation.report_fields()`` completes the report at any point.
    """
    from .reports import fraction_text

    _check_feedback(feedback)
    limit = MAX_NO_FEEDBACK_CARDS if feedback == "none" else MAX_SIMULATED_CARDS
    _check(n, k, limit, f"the guessing game {'with' if feedback == 'full' else 'without'} feedback")
    random_deck = random_deck_expected(n, feedback)
    report = {"cards": n, "riffles": k, "feedback": feedback,
              "random_deck": fraction_text(random_deck), "random_deck_value": float(random_deck)}
    found = exact_expected(n, k, feedback)
    if found is not None:
        value, method = found
        report.update(exact=True, expected=fraction_text(value), expected_value=float(value), method=method)
        return report, None
    if seed is None:
        raise ShuffleLabError("a simulated score needs a seed")
    report["seed"] = seed
    return report, FeedbackSimulation(n, k, FastRng(seed))


def guess_report(n: int, k: int, feedback: str, samples: int = DEFAULT_SAMPLES, seed: str | None = None) -> dict:
    """Return the best expected score of the guessing game and a random deck's, as plain data.

    Exact (a "p/q" string) wherever a method here is exact; else the mean of the best
    strategy on ``samples`` decks sampled with the tally's generator seeded by ``seed``.
    """
    report, simulation = guess_start(n, k, feedback, seed)
    if simulation is not None:
        _check_samples(samples)
        simulation.add(samples)
        report.update(simulation.report_fields())
    return report
