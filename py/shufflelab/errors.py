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
    """Return ``text`` in quotes, shortened to ``limit`` characters, with what would break or reorder the line shown
    as '\ufffd'."""
    return "'" + printable(text, limit) + "'"


def printable(text: str, limit: int) -> str:
    """Return ``text`` shortened to ``limit`` characters ('…' last), with what would break or reorder the line shown
    as '\ufffd'."""
    short = text if len(text) <= limit else text[:limit - 1] + "…"
    return "".join("\ufffd" if _breaks_line(c) else c for c in short)


def is_control(code: int) -> bool:
    """True for the C0 and C1 control characters and DEL."""
    return code < 0x20 or 0x7F <= code < 0xA0


# The bidirectional formatting characters (marks, embeddings, overrides, isolates): quoted inside a message, an
# override left open reverses the rest of the message as shown ("Trojan Source"), so a quote shows them as '\ufffd'
_BIDI_CONTROLS = (0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069)


def _breaks_line(character: str) -> bool:
    """True for control characters, surrogates, the line and paragraph separators and the bidirectional controls."""
    code = ord(character)
    return is_control(code) or 0xD800 <= code <= 0xDFFF or code in (0x2028, 0x2029) or code in _BIDI_CONTROLS
