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


def quoted(text: str, limit: int = 40) -> str:
    """Return ``text`` in quotes, shortened to ``limit`` characters, with what would break the line shown as '\ufffd'."""
    return "'" + printable(text, limit) + "'"


def printable(text: str, limit: int) -> str:
    """Return ``text`` shortened to ``limit`` characters ('…' last), with what would break the line shown as '\ufffd'."""
    short = text if len(text) <= limit else text[:limit - 1] + "…"
    return "".join("\ufffd" if _breaks_line(c) else c for c in short)


def is_control(code: int) -> bool:
    """True for the C0 and C1 control characters and DEL."""
    return code < 0x20 or 0x7F <= code < 0xA0


def _breaks_line(character: str) -> bool:
    """True for control characters, surrogates and the line and paragraph separators."""
    code = ord(character)
    return is_control(code) or 0xD800 <= code <= 0xDFFF or code in (0x2028, 0x2029)
