"""Users' own shuffles: source code in, a checked shuffle out, registered like a built-in.

The rules (docs/how-to/write-your-own-shuffle.md): the code defines ``shuffle(cards, rng)``, which
returns the cards in a new order as a list (or tuple) and draws its randomness only from
``rng.below(m)`` (a whole number in [0, m), 1 ≤ m ≤ 2^32) and ``rng.random()`` (a float in
[0, 1)). It gets a copy of the cards, so changing them in place is allowed. Every result is
checked to be the same cards in some order, and every mistake becomes one CustomCodeError
line that quotes the user's line where it happened.

This module gives no isolation: ``compile_shuffle`` runs the code with the normal builtins
in this very interpreter, so it can import, read files or loop forever. On the page it runs
only in the sandbox (``lab/sandbox.py``: Pyodide in an opaque-origin frame the page ends
after 10 s), never in the built-ins' worker; in the CLI it is the user's own file, under
``time_limit``. CPython and Pyodide only.
"""

import ast
import builtins
import inspect
import signal
import threading
import warnings
from collections import Counter
from contextlib import contextmanager

from . import catalog
from .errors import ShuffleLabError, printable
from .exact.matrices import MAX_WALKED_CARDS as MAX_WALKED_CARDS  # re-exported: the user's limit, named here
from .exact.matrices import walked
from .rng import WORD_SPAN

CUSTOM_ID = catalog.CUSTOM_ID  # re-exported: where users' shuffles register
DEFAULT_FILENAME = "my_shuffle.py"
MODULE_NAME = "my_shuffle"  # the code's __name__: not "__main__", so its own test block does not run
MAX_QUOTED_LINE = 80  # characters of the user's line in a message
MAX_DETAIL = 200  # characters of an exception's own message
# the matrix walks the user's code for up to MAX_WALKED_CARDS (6) cards, as for random-comparator
# (exact.matrices says why that many); `exact --file` still lists whole orders up to exact.orders.MAX_EXACT_CARDS (7)
CUSTOM_WALKS = "the exact matrix of your shuffle walks every path of its code"  # begins the refusal of a bigger deck
RECHECK_SECONDS = 1.0  # after a time limit, how often to interrupt again code that swallowed the interruption


class CustomCodeError(ShuffleLabError):
    """A user's shuffle that cannot run, or ran wrongly: one line, quoting the user's line where there is one."""


class TimeLimitExceeded(CustomCodeError):
    """A user's shuffle still running when its time limit ran out."""


class _TimedOut(BaseException):
    """Raised by the time limit's alarm; a BaseException so that ``except Exception`` in user code cannot swallow it."""


class Rng:
    """What a user's shuffle draws from: ``below(m)`` and ``random()``, with their arguments checked, and nothing else;
    the first draw marks its shuffle as one that draws (``CustomShuffle.drew``)."""

    __slots__ = ("_below", "_random", "_owner")

    def __init__(self, source, owner) -> None:
        self._below = source.below
        self._random = source.random
        self._owner = owner

    def below(self, m):
        """Return an unbiased whole number in [0, m); m must be a whole number from 1 to 2**32."""
        if type(m) is not int:
            raise TypeError("rng.below(m) needs a whole number m, not %s" % _shown(m))
        if not 1 <= m <= WORD_SPAN:
            raise ValueError("rng.below(m) needs 1 <= m <= 2**32, not %s" % _shown(m))
        self._owner.drew = True
        return self._below(m)

    def random(self):
        """Return a float in [0, 1)."""
        self._owner.drew = True
        return self._random()


class CustomShuffle:
    """A user's compiled shuffle: calling it runs their function on a copy of the cards and checks the result."""

    def __init__(self, function, source: str, filename: str) -> None:
        self.function = function
        self.lines = _source_lines(source)
        self.filename = filename
        self.name = filename  # what the exact walk calls it in its messages
        self.drew = False  # whether any call so far drew from rng: one that never does is told so, before any figure
        self._deck_key = None
        self._deck_counts = Counter()

    def __repr__(self) -> str:
        return "CustomShuffle(%r)" % self.filename

    def __call__(self, cards, rng) -> list:
        """Return the user's order of ``cards``; raise CustomCodeError if their code fails or returns anything else."""
        deck = list(cards)
        try:
            result = self.function(list(deck), Rng(rng, self))
        except _TimedOut as error:
            raise TimeLimitExceeded(_time_limit_message(error, self.lines, self.filename)) from None
        except (Exception, SystemExit) as error:  # SystemExit: exit() in the code must not end the CLI or the worker
            raise CustomCodeError(_error_message(error, self.lines, self.filename)) from error
        return self._checked(result, deck)

    def _checked(self, result, deck: list) -> list:
        """Return ``result`` as a list if it holds exactly the cards of ``deck``, else raise CustomCodeError saying how not."""
        if not isinstance(result, (list, tuple)):
            raise CustomCodeError("shuffle(cards, rng) returned %s, not a list" % _a_type(result))
        if len(result) != len(deck):
            raise CustomCodeError("shuffle(cards, rng) returned %s for a deck of %d" % (_cards(len(result)), len(deck)))
        try:
            # (type, value): 1.0 and True equal the card 1, yet are not it; dict's == runs in C,
            # and is exact here because counts made from items are never 0
            same = dict.__eq__(Counter(zip(map(type, result), result)), self._counts(deck))
        except TypeError:  # an unhashable item
            same = False
        if not same:
            raise CustomCodeError("shuffle(cards, rng) " + _first_wrong_card(result, deck))
        return list(result)

    def _counts(self, deck: list) -> Counter:
        """Return how often each card is in ``deck``, remembered for the last deck (the tally passes the same one)."""
        key = tuple(deck)
        if key != self._deck_key:
            self._deck_key = key
            self._deck_counts = Counter(zip(map(type, deck), deck))
        return self._deck_counts


def compile_shuffle(source: str, filename: str = DEFAULT_FILENAME) -> CustomShuffle:
    """Return the checked shuffle that ``source`` defines, or raise CustomCodeError in one line quoting the line at fault.

    The code runs once, at the top level, in a fresh namespace with the normal builtins
    (no isolation here: see the module docstring), and must define a callable
    ``shuffle`` that takes (cards, rng).
    """
    lines = _source_lines(source)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a SyntaxWarning would reach the CLI's stderr as a second line
            code = compile(source, filename, "exec")
    except SyntaxError as error:
        raise CustomCodeError(_syntax_message(error, lines)) from None
    except ValueError as error:  # null bytes, on Python 3.11
        raise CustomCodeError("the code cannot be compiled: %s" % _detail(error)) from None
    _refuse_other_randomness(source, lines)
    namespace = {"__name__": MODULE_NAME, "__builtins__": builtins}
    try:
        exec(code, namespace)
    except _TimedOut as error:
        raise TimeLimitExceeded(_time_limit_message(error, lines, filename)) from None
    except (Exception, SystemExit) as error:
        raise CustomCodeError(_error_message(error, lines, filename)) from error
    function = namespace.get("shuffle")
    if function is None:
        raise CustomCodeError("no function named shuffle(cards, rng) is defined")
    if not callable(function):
        raise CustomCodeError("shuffle is %s, not a function shuffle(cards, rng)" % _a_type(function))
    _check_signature(function, lines, filename)
    return CustomShuffle(function, source, filename)


# modules whose randomness the lab can neither replay (a tally seed) nor walk (every path of rng.below): a shuffle that
# draws from them would show a fair-looking tally beside an exact answer that contradicts it
OTHER_RANDOMNESS = ("random", "secrets", "os", "numpy")


def _refuse_other_randomness(source: str, lines: list) -> None:
    """Raise CustomCodeError, quoting the line, if the code imports a module of ``OTHER_RANDOMNESS``: the rule is that
    randomness comes from rng alone. A rule of the lab, said plainly, not a wall: the sandbox is the wall."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        for top in (name.split(".")[0] for name in names):
            if top in OTHER_RANDOMNESS:
                raise CustomCodeError(_quoted_line(lines, node.lineno) + "import %s: draw from rng instead (rng.below(m), "
                                      "rng.random()), the one source the lab can replay to count your shuffle and walk "
                                      "to answer it exactly" % top)


def custom_entry(shuffle: CustomShuffle, algorithm_id: str = CUSTOM_ID) -> catalog.Algorithm:
    """Return a complete catalog entry for a compiled shuffle: verdict unknown, exact answers by walking every path."""
    return catalog.Algorithm(
        algorithm_id, "Your shuffle", "your code (%s)" % shuffle.filename,
        "Your own shuffle(cards, rng); every result is checked to be the same cards in a new order.",
        catalog.UNKNOWN, shuffle,
        orders=catalog.ENUMERATE, matrix=walked(algorithm_id, CUSTOM_WALKS),
        method="your code, every path of its below() answers walked",
    )


def register_custom(source: str, filename: str = DEFAULT_FILENAME, algorithm_id: str = CUSTOM_ID) -> catalog.Algorithm:
    """Compile ``source`` and put it in the catalog under ``algorithm_id``, replacing the user's shuffle there before.

    Code that does not compile leaves the catalog as it was. A built-in id is refused.
    """
    entry = custom_entry(compile_shuffle(source, filename), algorithm_id)
    if algorithm_id in catalog.ids():
        catalog.unregister(algorithm_id)
    return catalog.register(entry)


@contextmanager
def time_limit(seconds):
    """Interrupt a user's shuffle still running after ``seconds`` with TimeLimitExceeded, where SIGALRM allows.

    That is CPython's main thread on a Unix; elsewhere (Windows, Pyodide, other threads)
    it limits nothing, and the page relies on stopping its worker instead. None or 0: no limit.
    """
    if not seconds or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum, frame):
        raise _TimedOut(seconds)

    previous = signal.signal(signal.SIGALRM, interrupt)
    # the interval repeats the alarm: code that swallows one interruption gets another
    signal.setitimer(signal.ITIMER_REAL, seconds, RECHECK_SECONDS)
    try:
        yield
    except _TimedOut as error:  # the alarm went off between two calls of the user's code
        raise TimeLimitExceeded(_time_limit_message(error, [], "")) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --- messages: one line each, nothing that could break it --------------------------------------


def _source_lines(source: str) -> list:
    """Return the lines as Python numbers them (\\n, \\r\\n and \\r end a line; form feeds and U+2028 do not)."""
    return source.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _quoted_line(lines: list, lineno) -> str:
    """Return 'line N: "…"' for the user's line N, stripped and shortened, or '' when there is no such line."""
    if not isinstance(lineno, int) or not 1 <= lineno <= len(lines):
        return ""
    text = lines[lineno - 1].expandtabs(4).strip()
    return 'line %d: "%s" – ' % (lineno, printable(text, MAX_QUOTED_LINE))


def _detail(error: BaseException) -> str:
    """Return an exception's message on one line: whitespace runs as one space, shortened, no control characters."""
    return printable(" ".join(str(error).split()), MAX_DETAIL)


def _error_message(error: BaseException, lines: list, filename: str) -> str:
    """Return 'line N: "…" – Type: message' for the deepest of the user's lines the error passed through."""
    detail = _detail(error)
    named = type(error).__name__ + (": " + detail if detail else "")
    return _quoted_line(lines, _user_lineno(error, filename)) + named


def _syntax_message(error: SyntaxError, lines: list) -> str:
    """Return 'line N: "…" – SyntaxError: message' for code that does not compile."""
    detail = printable(" ".join(str(error.msg).split()), MAX_DETAIL)
    return _quoted_line(lines, error.lineno) + type(error).__name__ + ": " + detail


def _time_limit_message(error: _TimedOut, lines: list, filename: str) -> str:
    """Return 'line N: "…" – still running after S s' for the user's line the alarm interrupted."""
    seconds = error.args[0] if error.args else 0
    return _quoted_line(lines, _user_lineno(error, filename)) + "still running after %g s: it may never return" % seconds


def _user_lineno(error: BaseException, filename: str):
    """Return the line number of the deepest traceback frame in the user's file, or None."""
    lineno = None
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            lineno = tb.tb_lineno
        tb = tb.tb_next
    return lineno


def _check_signature(function, lines: list, filename: str) -> None:
    """Raise CustomCodeError, quoting the def line, unless ``function`` can be called as shuffle(cards, rng)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # a builtin without one: calling it will say what is wrong
        return
    try:
        signature.bind(None, None)
    except TypeError:
        code = getattr(function, "__code__", None)
        lineno = code.co_firstlineno if code is not None and code.co_filename == filename else None
        raise CustomCodeError(_quoted_line(lines, lineno) + "shuffle must take two arguments, shuffle(cards, rng), "
                              "not shuffle%s" % printable(str(signature), MAX_QUOTED_LINE)) from None


def _first_wrong_card(result, deck: list) -> str:
    """Return what is wrong with a result of the right length: 'returned card 7 twice', or a foreign item."""
    wanted = Counter(zip(map(type, deck), deck))
    for item in result:
        try:
            known = wanted[(type(item), item)] > 0
        except TypeError:  # unhashable, so no card
            known = False
        if not known:
            return "returned %s, which is not a card of the deck" % _shown(item)
    # every item is a card: a card comes more often than in the deck
    got = Counter(zip(map(type, result), result))
    for item in result:
        key = (type(item), item)
        if got[key] > wanted[key]:
            return "returned card %s %s" % (_shown(item), _times(got[key]))
    return "did not return the cards it was given"  # unreachable for a result of the deck's length


def _times(count: int) -> str:
    return "twice" if count == 2 else "%d times" % count


def _cards(count: int) -> str:
    return "1 card" if count == 1 else "%d cards" % count


def _a_type(value) -> str:
    """Return 'None', 'a str', 'an int': what a value is, in words."""
    if value is None:
        return "None"
    name = type(value).__name__
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def _shown(value) -> str:
    """Return a value's repr on one line, shortened; a type name when even its repr fails (an int of 5,000 digits)."""
    try:
        text = repr(value)
    except Exception:
        return _a_type(value)
    return printable(" ".join(text.split()), 40)
