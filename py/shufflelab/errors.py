"""The one root of every error the library raises about its inputs.

``ShuffleLabError`` is a ``ValueError``: a bad deck, deal, algorithm, parameter, seed or
link. The CLI and the page turn these, and only these, into one line for the user; any
other exception is a bug and is allowed to surface. Portable (CPython, Pyodide, MicroPython).
"""


class ShuffleLabError(ValueError):
    """A value the library cannot use; the message names the value and says why, in one line."""


def sentence_start(text: str) -> str:
    """Return a library message with its first letter capitalised, to begin a sentence shown to a person."""
    return text[:1].upper() + text[1:]
