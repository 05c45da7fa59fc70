"""The lab's words that both the page and the command line show, written once so that the two never drift.

Portable core: the page's main thread (MicroPython) imports it through ``page.lab_model``,
and ``tally`` in the command line (CPython) prints the same sentences. So %-formatting
only (MicroPython's f-strings fall short), and nothing but str.
"""

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
