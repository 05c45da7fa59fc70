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

With feedback, the best guess comes from the posterior in closed form (``posterior.py``):
``best_feedback_guesses`` plays it on a deck, ``FeedbackSimulation`` on sampled decks (exact
decisions, a simulated mean), and ``feedback_expected`` sums it over every state exactly where
the state count allows.

Sources: Bayer & Diaconis (1992), "Trailing the dovetail shuffle to its lair" (a-shuffles,
rising sequences, guessing after riffles); Ciucu (1998), "No-feedback card guessing for
dovetail shuffles"; Liu (2019), arXiv:1908.07718, on guessing with feedback after riffles;
Diaconis, Fulman & Holmes (2013), "Analysis of casino shelf shuffling machines". CPython
and Pyodide, standard library only.
"""

import math
from fractions import Fraction
from itertools import permutations

from ..algorithms import riffle_gsr
from ..errors import ShuffleLabError
from ..riffles import count_rising
from ..tally.fast_rng import FastRng
from .matrices import matrix_power, riffle_gsr_pass_matrix
from .posterior import Shown, best_next
from .reports import fraction_text

FEEDBACKS = ("none", "full")
MAX_ENUMERATED_CARDS = 8  # 8! = 40,320 orders, about 0.2 s
MAX_NO_FEEDBACK_CARDS = 64  # the exact position matrix: 64 cards and 16 riffles take 0.4 s here (128 cards 12 s)
MAX_RIFFLES = 16
MAX_STATE_SUM_CARDS = 20  # the exact sum over states (feedback_expected): 20 cards 0.3-0.8 s here, 24 about 5 s
# Fewer riffles reach fewer states: a prefix needs at most a - 1 forced cuts (a = 2^k), so after one riffle the unshown
# cards lie in at most two runs, and the sum over states is exact at 52 cards.
STATE_SUM_CARDS_BY_RIFFLES = {0: 52, 1: 52}


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


def state_sum_cards(k: int) -> int:
    """Return the most cards for which the exact sum over states (``feedback_expected``) is offered after k riffles."""
    return STATE_SUM_CARDS_BY_RIFFLES.get(k, MAX_STATE_SUM_CARDS)


def feedback_expected(n: int, k: int) -> Fraction:
    """Return the exact best expected score with feedback, summed over the states of the closed form.

    Prefixes with the same run lengths and D have the same best next probability, so the sum
    over prefixes is a sum over states weighted by how many prefixes reach each. Exact for
    any n; the state count grows fast, so it is offered up to ``state_sum_cards(k)`` cards (52 after 0 or 1 riffle).
    """
    _check(n, k, state_sum_cards(k), "guessing with feedback exactly")
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
                    if forced + (t > 0) >= a:
                        continue  # a prefix that needs a forced cuts has no chance under an a-shuffle, nor its sequels
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
    if n <= state_sum_cards(k):
        return feedback_expected(n, k), "states"
    return None


def guess_start(n: int, k: int, feedback: str, seed: str | None = None) -> tuple[dict, FeedbackSimulation | None]:
    """Return (report, None) where the best expected score is exact, else (report without it, a simulation to run).

    The report is ``guess_report``'s; a simulation's decks come from the tally's generator
    seeded by ``seed``, and ``simulation.report_fields()`` completes the report at any point.
    """
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
