"""Untrusted data read within bounds: how deep JSON nests, found by a cheap scan before it is parsed, and exact
arithmetic on untrusted numbers under a budget of digits and of work.

Trusted code (the built-ins' worker) reads what the sandbox answers. Python's ``json`` parses
nested arrays by recursion, and in Pyodide 20,000 levels overflow the WebAssembly stack: a
fatal error no ``except`` catches, which ends the interpreter until the page is reloaded. And
adding fractions whose denominators have nothing in common makes the sum's denominator grow
with every term: 720 of 2,000 digits each take minutes. So a scan refuses what nests too deep
before ``json`` sees it, and every big-integer step on untrusted numbers is counted, and
refused past its limit, before it is taken.

CPython 3.11+ and Pyodide (possessive quantifiers; the scan runs in ``re``'s C loop).
"""

import math
import re

from ..errors import ShuffleLabError

# A JSON string (its escapes included) or a run of anything else but brackets and quotes. Possessive, so the scan
# never backtracks: linear in the text's length, whatever it holds.
_STRINGS_CLOSED = re.compile(r'(?:[^"]++|"(?:[^"\\]++|\\.)*+")*+', re.DOTALL)
_STRING_OR_PLAIN = re.compile(r'"(?:[^"\\]++|\\.)*+"|[^\[\]{}"]++', re.DOTALL)
_EMPTY_PAIR = re.compile(r"\[\]|\{\}")
_LOG10_2 = 0.30103


def check_json_before_parsing(text: str, depth: int, marks: int, what: str = "the answer") -> None:
    """Raise ShuffleLabError unless ``text`` has at most ``marks`` quotes, as many backslashes and as many opening
    brackets, every string in it is closed, and its brackets nest at most ``depth`` deep (the caller still parses
    it: this makes parsing it safe, and the scan's own cost linear in the text's length)."""
    for kind, count in (("quotes", text.count('"')), ("backslashes", text.count("\\")),
                        ("brackets", text.count("[") + text.count("{"))):  # C loops, before any regex sees a flood
        if count > marks:
            raise ShuffleLabError("%s has more than %s %s: nested or repeated past what any answer needs"
                                  % (what, format(marks, ","), kind))
    if _STRINGS_CLOSED.fullmatch(text) is None:
        raise ShuffleLabError("%s is not JSON: a string in it is not closed" % what)
    brackets = _STRING_OR_PLAIN.sub("", text)  # strings and values gone: "[[],[]]" is all that is left
    for _ in range(depth):  # each pass removes the innermost pairs: a level per pass
        if not brackets:
            return
        brackets = _EMPTY_PAIR.sub("", brackets)
    if brackets:
        raise ShuffleLabError("%s is nested deeper than %d levels (or its brackets do not match)" % (what, depth))


def digits(value: int) -> int:
    """Return an upper bound on the decimal digits of ``value`` (from its bit length: no conversion to text)."""
    return int(abs(value).bit_length() * _LOG10_2) + 1


class ArithmeticBudget:
    """Work allowed on untrusted whole numbers, counted in digit products (an n-digit by m-digit multiplication, or
    gcd, counts n × m): ``charge`` before each step, and past the limit it raises ShuffleLabError."""

    def __init__(self, limit: int, what: str) -> None:
        self.limit = limit
        self.spent = 0
        self.what = what

    def charge(self, a: int, b: int) -> None:
        """Count one step on ``a`` and ``b``; raise ShuffleLabError, before the step is taken, past the limit."""
        self.spent += digits(a) * digits(b)
        if self.spent > self.limit:
            raise ShuffleLabError("%s take more arithmetic than the lab allows (%s digit products)"
                                  % (self.what, format(self.limit, ",")))


def common_denominator(denominators, max_digits: int, budget: ArithmeticBudget, what: str) -> int:
    """Return the least common multiple of positive ``denominators``, if it has at most ``max_digits`` digits
    (checked after each step, so it never grows past that by more than one denominator), else raise
    ShuffleLabError."""
    common = 1
    for denominator in denominators:
        budget.charge(common, denominator)
        common = common // math.gcd(common, denominator) * denominator
        if digits(common) > max_digits:
            raise ShuffleLabError("%s have no common denominator of at most %s digits"
                                  % (what, format(max_digits, ",")))
    return common

