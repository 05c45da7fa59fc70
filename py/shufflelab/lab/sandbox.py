"""The user's shuffle, run where it can do no harm: what the sandbox computes, and how trusted code checks it.

Two halves, one description of the messages between them:

- ``SandboxService`` runs in the sandbox (Pyodide in a Worker of an opaque-origin frame,
  ``static/js/sandbox.mjs``): it compiles the user's code, tallies it and walks every path
  of its draws. It answers JSON data only (counts, orders with their probabilities, the
  fraction done, one-line errors), never sentences or markup for the page to show as its own.
- ``read_counts`` and ``read_distribution`` run in trusted code (the built-ins' worker):
  they accept an answer only if it has the right shape, fits the limits and is consistent
  (every row and column of the counts sums to the trials), and raise ShuffleLabError naming
  what is wrong otherwise. Code in the sandbox can lie about its own shuffle, since that is
  all it can reach; it cannot make trusted code crash, or say anything about a built-in.

CPython and Pyodide only (the walk uses fractions).
"""

import json
import math
from fractions import Fraction

from .. import catalog, clock
from ..catalog import CUSTOM_ID
from ..errors import ShuffleLabError, printable
from ..exact.matrices import MAX_WALKED_CARDS
from ..exact.orders import walked_distribution_steps
from ..exact.reports import fraction_text
from ..tally import Tally, check_card_count
from .bounded import ArithmeticBudget, check_json_before_parsing, common_denominator

MAX_RUN_MILLISECONDS = 1000
MAX_STEP_MILLISECONDS = 1000
# big enough for the bit-sliced kernels (a batch costs n² work however few decks), small
# enough to keep a chunk near its budget
TARGET_BATCH_SECONDS = 0.08
# one deck first: a deck can take 0.3 s (cut-insert's 100,000 repetitions of 128 cards in Pyodide), and 64 of
# them would run past the page's 10 s limit per call; the batch doubles from there while it is quick
FIRST_BATCH = 1
MAX_ANSWER_CHARACTERS = 4_000_000  # 128 × 128 counts of up to 20 digits, with room; a longer answer is refused unread
MAX_TRIALS = 10**15  # far beyond what a page can tally; an answer above it is a lie
MAX_ERROR_CHARACTERS = 400  # the error line the user sees under their code
# {"ok": …, "data": {"orders": [[[0, …], "p/q"], …]}} is the deepest answer: 5 levels
MAX_ANSWER_DEPTH = 5
# quotes, backslashes and opening brackets: a walk of 720 orders has 1,440 of each, an error line at most 800
MAX_ANSWER_MARKS = 10_000
# every probability of a walk as written (p and q each) and their common denominator: a walk of built-in-like
# code needs a few dozen (swap-any on 6 cards: 6**6, 5 digits)
MAX_PROBABILITY_DIGITS = 1000
# the big-integer work of reading a walk, in digit products: what 720 orders at the digit limit need (a gcd to
# reduce each, a step of the common denominator, a term of the sum), so a walk past it is refused, not computed
MAX_WALK_DIGIT_PRODUCTS = 720 * 4 * MAX_PROBABILITY_DIGITS ** 2


class SandboxService:
    """The sandbox's state: the user's compiled shuffle, its tally and its walk; answers are JSON text."""

    def __init__(self) -> None:
        self.tally = None
        self.batch = FIRST_BATCH
        self.busy_seconds = 0.0
        self.walk = None  # a generator of the fraction covered; returns the distribution
        self.walk_seconds = 0.0

    def handle(self, method: str, args_json: str) -> str:
        """Call one of the service's methods with JSON arguments; answer {"ok": true, "data": …} or {"ok": false,
        "error": "one line"} (a library error, the user's mistakes included)."""
        call = {"compile": self.compile, "configure": self.configure, "run_for": self.run_for,
                "walk_step": self.walk_step}.get(str(method))
        try:
            if call is None:
                raise ShuffleLabError("the sandbox has no method %r" % str(method)[:40])
            return json.dumps({"ok": True, "data": call(*json.loads(args_json))})
        except ShuffleLabError as error:
            return json.dumps({"ok": False, "error": str(error)[:MAX_ERROR_CHARACTERS]})

    def compile(self, source: str) -> dict:
        """Compile the user's code and register it as ``custom`` (raises CustomCodeError with the line at fault)."""
        from ..custom import register_custom  # lazily: the lab's start imports only what Start needs

        register_custom(str(source))
        self.tally = None
        self.walk = None
        return {}

    def configure(self, n: int, seed) -> dict:
        """Start a fresh tally of the user's shuffle on n cards (seeded when ``seed`` is given), and a fresh walk."""
        if CUSTOM_ID not in catalog.ids():
            raise ShuffleLabError("no shuffle has been compiled in the sandbox yet")
        self.tally = Tally(CUSTOM_ID, check_card_count(n), {}, seed or None)
        self.batch, self.busy_seconds = FIRST_BATCH, 0.0
        self.walk = walked_distribution_steps(CUSTOM_ID, n, {}) if n <= MAX_WALKED_CARDS else None
        self.walk_seconds = 0.0
        return {}

    def run_for(self, milliseconds: int, up_to=None) -> dict:
        """Tally for about ``milliseconds`` (at most a second), or up to ``up_to`` shuffles; answer the counts so far."""
        tally = self._tally()
        seconds = max(0, min(int(milliseconds), MAX_RUN_MILLISECONDS)) / 1000
        self.batch, spent = run_paced(tally, seconds, self.batch, None if up_to is None else int(up_to))
        self.busy_seconds += spent
        return {"n": tally.n, "trials": tally.trials, "counts": [count for row in tally.counts for count in row],
                "fixed_points": list(tally.fixed_points), "busy_seconds": self.busy_seconds,
                "drew": bool(catalog.get(CUSTOM_ID).port.drew)}

    def walk_step(self, milliseconds: int) -> dict:
        """Walk every path of the user's shuffle for about ``milliseconds``; answer the fraction covered, or, once
        done, every order it can produce with its exact probability as "p/q"."""
        if self.walk is None:
            raise ShuffleLabError("there is no walk under way in the sandbox")
        started = clock.now()
        budget = max(0, min(int(milliseconds), MAX_STEP_MILLISECONDS)) / 1000
        covered = 0.0
        try:
            while clock.now() - started < budget:
                covered = float(next(self.walk))
        except StopIteration as done:
            self.walk = None
            self.walk_seconds += clock.now() - started
            orders = [[list(order), fraction_text(p)] for order, p in done.value.items()]
            return {"orders": orders, "seconds": self.walk_seconds}
        except ShuffleLabError:
            self.walk = None
            raise
        self.walk_seconds += clock.now() - started
        return {"progress": covered, "seconds": self.walk_seconds}

    def _tally(self) -> Tally:
        """Return the tally under way, or raise ShuffleLabError when none was configured."""
        if self.tally is None:
            raise ShuffleLabError("the sandbox has no tally yet: configure one first")
        return self.tally


def run_paced(tally, seconds: float, batch: int, up_to=None) -> tuple:
    """Add batches of shuffles to ``tally`` for about ``seconds``, doubling or halving the batch to the speed seen, and
    stop at ``up_to`` shuffles when given; return (the next batch size, the seconds spent shuffling)."""
    deadline = clock.now() + seconds
    busy = 0.0
    while True:
        wanted = batch if up_to is None else min(batch, up_to - tally.trials)
        if wanted <= 0:
            return batch, busy
        started = clock.now()
        tally.run(wanted)
        spent = clock.now() - started
        busy += spent
        if spent < TARGET_BATCH_SECONDS / 2:
            batch *= 2
        elif spent > TARGET_BATCH_SECONDS * 2 and batch > 1:
            batch //= 2
        if clock.now() + spent > deadline:
            return batch, busy


# --- trusted code: what an answer from the sandbox must be before anything is drawn from it ---------------------------


def read_answer(text) -> dict:
    """Return an answer's data, or raise ShuffleLabError with its one-line error, made printable (or with what is
    wrong with the answer). Its size, nesting and marks are checked before it is parsed."""
    if not isinstance(text, str) or len(text) > MAX_ANSWER_CHARACTERS:
        raise ShuffleLabError("the sandbox's answer is not text of at most %d characters" % MAX_ANSWER_CHARACTERS)
    check_json_before_parsing(text, MAX_ANSWER_DEPTH, MAX_ANSWER_MARKS, "the sandbox's answer")
    try:
        answer = json.loads(text)
    except ValueError:
        raise ShuffleLabError("the sandbox's answer is not JSON") from None
    if not isinstance(answer, dict) or not isinstance(answer.get("ok"), bool):
        raise ShuffleLabError("the sandbox's answer has no ok flag")
    if not answer["ok"]:
        error = answer.get("error")
        if not isinstance(error, str):
            raise ShuffleLabError("the sandbox's failure has no one-line reason")
        raise ShuffleLabError(printable(" ".join(error.split()), MAX_ERROR_CHARACTERS) or "it failed without a reason")
    data = answer.get("data")
    if not isinstance(data, dict):
        raise ShuffleLabError("the sandbox's answer has no data")
    return data


def _whole(value, low: int, high: int, what: str) -> int:
    """Return ``value`` if it is a whole number in [low, high] (not a bool), else raise ShuffleLabError naming it."""
    if type(value) is not int or not low <= value <= high:
        raise ShuffleLabError("%s must be a whole number from %d to %d" % (what, low, high))
    return value


def read_counts(data: dict, n: int) -> tuple:
    """Return (trials, counts as n rows, fixed points, busy seconds) from a run_for answer for an n-card tally, if
    they are consistent: every card is somewhere and every position holds a card in each counted shuffle."""
    trials = _whole(data.get("trials"), 0, MAX_TRIALS, "trials")
    _whole(data.get("n"), n, n, "n")
    flat, fixed = data.get("counts"), data.get("fixed_points")
    if not isinstance(flat, list) or len(flat) != n * n:
        raise ShuffleLabError("the counts must be %d whole numbers" % (n * n))
    if not isinstance(fixed, list) or len(fixed) != n + 1:
        raise ShuffleLabError("the fixed points must be %d whole numbers" % (n + 1))
    for count in flat + fixed:
        _whole(count, 0, trials, "a count")
    counts = [flat[row * n:(row + 1) * n] for row in range(n)]
    if any(sum(row) != trials for row in counts) or any(sum(column) != trials for column in zip(*counts)):
        raise ShuffleLabError("the counts are not those of %d shuffles: a row or a column does not add up" % trials)
    if sum(fixed) != trials or sum(k * share for k, share in enumerate(fixed)) != sum(counts[i][i] for i in range(n)):
        raise ShuffleLabError("the fixed points do not agree with the counts")
    return trials, counts, fixed, read_seconds(data, "busy_seconds")


def read_drew(data: dict) -> bool:
    """Return whether the user's shuffle has drawn from rng, from a run_for answer (absent: it has, as before)."""
    drew = data.get("drew", True)
    if type(drew) is not bool:
        raise ShuffleLabError("drew must be true or false")
    return drew


def read_distribution(data: dict, n: int) -> dict:
    """Return {order: Fraction} from a finished walk_step answer, if every order is one of 0..n-1 and the
    probabilities are positive and add up to exactly 1, within the digit and arithmetic limits (checked before
    each step)."""
    orders = data.get("orders")
    if not isinstance(orders, list) or not 0 < len(orders) <= math.factorial(n):
        raise ShuffleLabError("a walk's answer must list 1 to %d orders" % math.factorial(n))
    deck = list(range(n))
    budget = ArithmeticBudget(MAX_WALK_DIGIT_PRODUCTS, "a walk's probabilities")
    written = {}
    for item in orders:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], list) and isinstance(item[1], str)):
            raise ShuffleLabError("each order of a walk must be [order, \"p/q\"]")
        order, text = item
        if any(type(card) is not int for card in order) or sorted(order) != deck:
            raise ShuffleLabError("a walk's order is not an order of the cards 0 to %d" % (n - 1))
        key = tuple(order)
        if key in written:
            raise ShuffleLabError("a walk lists the same order twice")
        written[key] = _probability(text, budget)
    common = common_denominator([q for _, q in written.values()], MAX_PROBABILITY_DIGITS, budget,
                                "a walk's probabilities")
    total = 0
    for p, q in written.values():
        budget.charge(common, q)
        total += p * (common // q)
    if total != common:
        raise ShuffleLabError("a walk's probabilities do not add up to 1")
    return {key: Fraction(p, q) for key, (p, q) in written.items()}


def _probability(text: str, budget: ArithmeticBudget) -> tuple:
    """Return (p, q) in lowest terms for the probability "p/q" names, in (0, 1] with at most MAX_PROBABILITY_DIGITS
    digits each, else raise ShuffleLabError."""
    numerator, slash, denominator = text.partition("/")
    if not (slash and 0 < len(numerator) <= MAX_PROBABILITY_DIGITS and 0 < len(denominator) <= MAX_PROBABILITY_DIGITS
            and numerator.isdigit() and denominator.isdigit() and numerator.isascii() and denominator.isascii()):
        raise ShuffleLabError("a walk's probability must be written p/q, each of at most %s digits"
                              % format(MAX_PROBABILITY_DIGITS, ","))
    p, q = int(numerator), int(denominator)
    if not 0 < p <= q:
        raise ShuffleLabError("a walk's probability must be in (0, 1]")
    budget.charge(p, q)
    common = math.gcd(p, q)
    return p // common, q // common


def read_progress(data: dict) -> tuple:
    """Return (fraction covered, seconds spent) from an unfinished walk_step answer, each checked to be a number."""
    progress = data.get("progress")
    if type(progress) not in (int, float) or not 0 <= progress <= 1:
        raise ShuffleLabError("a walk's progress must be a fraction from 0 to 1")
    return float(progress), read_seconds(data, "seconds")


def read_seconds(data: dict, key: str) -> float:
    """Return ``data[key]`` as seconds if it is a number from 0 to 1e9 (no bool, NaN or infinity), else raise
    ShuffleLabError naming the key."""
    seconds = data.get(key)
    if type(seconds) not in (int, float) or not 0 <= seconds < 1e9:
        raise ShuffleLabError("%s must be a number of seconds" % key)
    return float(seconds)


class AdoptedTally:
    """A tally counted in the sandbox: the counts trusted code checked (``read_counts``), in the shape of a Tally."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.trials = 0
        self.counts = [[0] * n for _ in range(n)]
        self.fixed_points = [0] * (n + 1)
        self.drew = True  # whether the user's shuffle drew from rng (the sandbox says)

    def adopt(self, trials: int, counts: list, fixed_points: list, drew: bool = True) -> None:
        """Replace the counts with checked ones (the sandbox answers its running totals)."""
        self.trials, self.counts, self.fixed_points, self.drew = trials, counts, fixed_points, drew
