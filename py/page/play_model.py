"""The Play tab's state and words, apart from the page and the worker: the guessing game and a real deck's test.

A game deals the first n cards of a new standard deck (new-deck order: ids 0..n-1 top
first), riffles them k times with the portable riffle-gsr port and the injected rng, and
takes the user's guesses from the top down: with feedback one at a time, each card shown
after its guess (the user may stop early); without, one guess per position written in
advance (repeats allowed), then revealed. The best strategy's figures come from the lab's
worker (``shufflelab.exact.guessing``); a real deck's test runs here (``shufflelab.riffles``).
No ``js`` or ``pyscript`` import: it runs on the page (MicroPython) and is unit-tested under
CPython (``tests/unit/page/test_play_model.py``).
"""

from shufflelab import riffles
from shufflelab.algorithms import riffle_gsr
from shufflelab.cards import standard_deck

GAME_SIZES = (4, 5, 6, 8, 10, 13, 16, 20, 26, 32, 39, 52)
DEFAULT_GAME_SIZE = 52
RIFFLE_CHOICES = tuple(range(13))  # 0..12, as the lab's riffle chart
DEFAULT_RIFFLES = 1
FEEDBACKS = ("full", "none")  # guessing.FEEDBACKS' words, in the order the page offers them
GUESS_CLI = "python -m shufflelab guess"
SHORT_FRACTION = 24  # an exact figure's p/q is shown when it is at most this long (52 cards' is hundreds of digits)


class Game:
    """One game: the dealt deck (card ids, top first) and the user's guesses.

    With feedback ``guesses`` grows one guess at a time and card i is shown once guess i is
    made; without, it holds one slot per position (None until filled) and ``cursor`` is the
    slot the next tap fills. ``over`` once every card is guessed, the user stopped, or the
    written guesses are revealed.
    """

    def __init__(self, order, k: int, feedback: str) -> None:
        if feedback not in FEEDBACKS:
            raise ValueError("feedback must be full or none, not %r" % (feedback,))
        self.order = list(order)
        self.n = len(self.order)
        self.k = k
        self.feedback = feedback
        self.guesses = [] if feedback == "full" else [None] * self.n
        self.cursor = 0
        self.over = False

    def guess(self, card: int) -> None:
        """Take a guess: with feedback the next card's (ending the game at the last card), without it the cursor
        slot's, the cursor then moving to the next empty slot."""
        if self.over or not 0 <= card < self.n:
            return
        if self.feedback == "full":
            self.guesses.append(card)
            self.over = len(self.guesses) == self.n
            return
        self.guesses[self.cursor] = card
        self.cursor = self.next_empty(self.cursor)

    def next_empty(self, start: int) -> int:
        """Return the first empty slot after ``start`` (wrapping), or ``start`` when every slot is filled."""
        for step in range(1, self.n + 1):
            slot = (start + step) % self.n
            if self.guesses[slot] is None:
                return slot
        return start

    def select(self, slot: int) -> None:
        """Move the cursor to a slot (without feedback, before the reveal)."""
        if self.feedback == "none" and not self.over and 0 <= slot < self.n:
            self.cursor = slot

    def undo(self) -> None:
        """Take back the last guess (with feedback) or empty the slot before the cursor's (without)."""
        if self.over:
            return
        if self.feedback == "full":
            if self.guesses:
                self.guesses.pop()
            return
        filled = [slot for slot in range(self.n) if self.guesses[slot] is not None]
        if filled:
            slot = self.cursor - 1 if self.cursor and self.guesses[self.cursor - 1] is not None else filled[-1]
            self.guesses[slot] = None
            self.cursor = slot

    def shown(self) -> int:
        """Return how many cards from the top are face up: those guessed (with feedback), all of them once over."""
        if self.over:
            return self.n
        return len(self.guesses) if self.feedback == "full" else 0

    def ready(self) -> bool:
        """True when the written guesses can be revealed (every slot filled)."""
        return self.feedback == "none" and not self.over and None not in self.guesses

    def finish(self) -> bool:
        """End the game (Reveal, or Stop with feedback after at least one card); return whether it ended now."""
        if self.over:
            return False
        if self.feedback == "none" and not self.ready():
            return False
        if self.feedback == "full" and not self.guesses:
            return False
        self.over = True
        return True

    def played(self) -> int:
        """Return how many positions are scored: every one without feedback, those guessed with it."""
        return len(self.guesses) if self.feedback == "full" else self.n

    def right(self) -> int:
        """Return how many of the user's guesses name the card at their position."""
        return sum(1 for guess, card in zip(self.guesses, self.order) if guess == card)


def deal_game(n: int, k: int, feedback: str, rng) -> Game:
    """Return a new game: the first n cards of a new deck, riffled k times (Gilbert-Shannon-Reeds) with ``rng``."""
    return Game(riffle_gsr(range(n), rng, passes=k), k, feedback)


def game_cards(n: int) -> list:
    """Return the Card of each id 0..n-1 of the standard deck: a game's cards in new-deck order."""
    return standard_deck().cards(list(range(n)))


def figure_value(report: dict) -> str:
    """Return the best expected score of a ``guess_report`` in words: exact with its fraction, or simulated with
    its standard error and deck count."""
    if report["exact"]:
        return "%s cards right on average (%s)" % (decimal(report["expected_value"]), exact_note(report["expected"]))
    return "%s ± %s cards right on average (simulated, ± standard error, %s decks)" % (
        decimal(report["expected_value"]), decimal(report["standard_error"]), thousands(report["samples"]))


def random_value(report: dict) -> str:
    """Return a random deck's expected score (always exact) in words."""
    return "%s (%s)" % (decimal(report["random_deck_value"]), exact_note(report["random_deck"]))


def exact_note(fraction: str) -> str:
    """Return "exact", with the fraction when it is short enough to read and not a whole number."""
    if fraction.endswith("/1") or "/" not in fraction or len(fraction) > SHORT_FRACTION:
        return "exact"
    return "exact: %s" % fraction


def cli_command(report: dict) -> str:
    """Return the command line that prints the same figure (for a simulated one, the same seed and deck count)."""
    words = "%s --cards %d --riffles %d --feedback %s" % (GUESS_CLI, report["cards"], report["riffles"],
                                                          report["feedback"])
    if not report["exact"]:
        words += " --seed %s --samples %d" % (report["seed"], report["samples"])
    return words + " --json"


def score_sentence(game: Game, best_right: int, random_deck_value: float) -> str:
    """Return the end of a game in one sentence: the user's score, the best strategy's on the same deck, a random
    deck's expectation."""
    played = game.played()
    cards = "%d card%s" % (played, "" if played == 1 else "s")
    stopped = "" if played == game.n else " (you stopped after %s of %d)" % (cards, game.n)
    return ("You called %d of %s right%s. The best strategy calls %d of them on this same deck; on a perfectly "
            "shuffled deck it would expect %s." % (game.right(), cards, stopped, best_right,
                                                   decimal(random_deck_value)))


def prompt(game: Game) -> str:
    """Return what the user is asked to do next in a game."""
    if game.over:
        return "Game over: the score is below."
    if game.feedback == "full":
        return "Card %d of %d: which card is it? Tap your guess." % (len(game.guesses) + 1, game.n)
    filled = sum(1 for guess in game.guesses if guess is not None)
    if filled == game.n:
        return "Every position has a guess: press Reveal (or tap a position to change it)."
    return "Position %d of %d: tap your guess (repeats allowed; %d filled)." % (game.cursor + 1, game.n, filled)


def decimal(value: float) -> str:
    """Return a figure with 3 decimals (MicroPython and CPython agree on it)."""
    return "%.3f" % value


def thousands(value: int) -> str:
    """Return a whole number with thousands separators (MicroPython's format has no ',')."""
    text = "%d" % value
    groups = []
    while len(text) > 3:
        groups.insert(0, text[-3:])
        text = text[:-3]
    return ",".join([text] + groups)


# --- a real deck ----------------------------------------------------------------------------


def check_real_deck(text: str):
    """Return (``riffles.assess`` of the typed order of a standard deck, None), or (None, one line naming what is
    wrong): the CLI's ``riffles --order`` on the same text."""
    try:
        order = riffles.parse_order(text, standard_deck())
        return riffles.assess(order), None
    except riffles.OrderError as error:
        return None, str(error)


def likelihood_rows(result: dict) -> list:
    """Return the table of ``assess``'s likelihoods as the CLI prints it: (k, log10 vs uniform as text, plausible)."""
    rows = []
    for row in result["likelihoods"]:
        value = row["log10_vs_uniform"]
        shown = "impossible" if value is None else "%+.2f" % value
        rows.append((row["k"], shown, row["k"] in result["plausible"]))
    return rows


def range_text(result: dict) -> str:
    """Return the most likely k and its plausible range in words."""
    best, low, high = result["best_k"], result["plausible_low"], result["plausible_high"]
    if best is None:
        return "No number of riffles explains it better than a perfect shuffle; plausible: %s riffles." % (
            "none up to %d" % result["max_k"] if low is None else "%d or more" % low)
    span = "%d or more" % low if high is None else ("%d" % low if low == high else "%d to %d" % (low, high))
    return "Most likely %d riffle%s; plausible: %s (within a factor of %d of the likeliest)." % (
        best, "" if best == 1 else "s", span, result["plausible_factor"])


def appended_code(text: str, code: str) -> str:
    """Return the typed order with one more card code (a tap on the card picker)."""
    text = text.rstrip()
    return code if not text else text + " " + code


def dropped_code(text: str) -> str:
    """Return the typed order without its last code (Undo)."""
    tokens = text.replace(",", " ").split()
    return " ".join(tokens[:-1])


def typed_cards(text: str, deck=None) -> set:
    """Return the ids of the known codes typed so far (the picker marks them used)."""
    codes = riffles.deck_codes(deck if deck is not None else standard_deck())
    found = set()
    for token in text.replace(",", " ").split():
        code = token.upper()
        if code.startswith("10"):
            code = "0" + code[2:]
        if code in codes:
            found.add(codes[code])
    return found
