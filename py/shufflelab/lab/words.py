"""The lab's words that both the page and the command line show, written once so that the two never drift.

Portable core: the page's main thread (MicroPython) imports it through ``page.lab_model``,
and ``tally`` in the command line (CPython) prints the same sentences. So %-formatting
only (MicroPython's f-strings fall short), and nothing but str.
"""

from ..cards import standard_deck

MAX_SHOWN_FRACTION_CHARS = 24  # a fraction too long to read helps nobody: the decimal alone says it


def distance_sentence(distance) -> str:
    """Return the exact total variation distance to uniform, ``[float, "p/q"]``, as one sentence ending in '.'."""
    return "Exact distance to uniform (total variation): %s." % distance_words(distance[0], distance[1])


def distance_words(value: float, fraction: str) -> str:
    """Return an exact distance to uniform as the lab words it: a decimal, and the fraction when it is short."""
    if fraction == "0/1":
        return "0, every order equally likely"
    shown = "%.4f" % value if value >= 1e-4 else "%.2e" % value
    return "%s (%s)" % (shown, fraction) if len(fraction) <= MAX_SHOWN_FRACTION_CHARS else shown


def ordinal(number: int) -> str:
    """Return a whole number as an ordinal in English: 1st, 2nd, 3rd, 4th, 11th, 21st, 112th."""
    if number % 100 in (11, 12, 13):
        return "%dth" % number
    return "%d%s" % (number, {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th"))


def place_words(position: int, n: int) -> str:
    """Say a place in a deck of n cards (0 is the top) as a player does: 'on top', '3rd from the top', 'at the bottom'."""
    if position == 0:
        return "on top"
    if position == n - 1:
        return "at the bottom"
    return "%s from the top" % ordinal(position + 1)


def card_words(card: int, n: int, label: str = "") -> str:
    """Name a lab card (the deck starts in order, card 0 on top) as a player does: its face when it has one ('A♣'),
    else where it started ('the card that started 3rd from the top')."""
    return label if label else "the card that started %s" % place_words(card, n)


def lab_card(card: int, n: int) -> str:
    """Name a card of the lab's deck: its face on 52 cards (a standard deck in order, A♣ on top), else where it started."""
    return card_words(card, n, standard_deck().card(card).label if n == 52 else "")


SCALES = ((12, "trillion"), (9, "billion"), (6, "million"), (3, "thousand"))
MOST_NAMED_LOG10 = 15  # past a thousand trillion, a number is said by its digits: nobody pictures "a quadrillion"


def number_words(log10_value: float) -> str:
    """Say 10^log10_value as a card player reads it: '340', '12 thousand', '8.8 billion', 'a 21-digit number'."""
    if log10_value >= MOST_NAMED_LOG10:
        return "a %d-digit number" % (int(log10_value) + 1)
    for power, name in SCALES:
        if log10_value >= power:
            return "%s %s" % (_two_figures(10 ** (log10_value - power)), name)
    return "%d" % round(10 ** log10_value)


def _two_figures(value: float) -> str:
    """Return a number from 1 to 1000 to two significant figures, without a trailing '.0': '8.8', '12', '900'."""
    if value >= 9.95:
        return "%d" % round(value, -1 if value >= 99.5 else 0)
    shown = "%.1f" % value
    return shown[:-2] if shown.endswith(".0") else shown


def odds_words(log10_odds: float) -> str:
    """Say a chance of 1 in 10^log10_odds in words: 'about 1 in 900 million' (exactly '1 in 2' below ten)."""
    return "about 1 in " + number_words(log10_odds)
