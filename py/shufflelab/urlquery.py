"""URL query strings, read and written the way browsers and ``urllib.parse`` do.

``parse_query`` splits ``a=1&b=x+y`` into pairs, percent-decodes them and decodes UTF-8
strictly, on MicroPython too: a value that is not valid UTF-8 is reported as such, as it
was written, never silently replaced.
``url_query`` finds a whole URL's query, as ``urllib.parse.urlsplit`` does.
``encode_query`` writes pairs as ``urllib.parse.urlencode`` does (``quote_plus``), so a
link written here reads back the same anywhere. Portable core (MicroPython has no
``urllib``); the tests compare both with ``urllib.parse``.
"""

_SAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~")
_HEX = "0123456789ABCDEF"
_HEX_VALUES = {ord(c): i for i, c in enumerate("0123456789abcdef")}
_HEX_VALUES.update({ord(c): i for i, c in enumerate("ABCDEF", 10)})


def quote_plus(text: str) -> str:
    """Return ``text`` percent-encoded as UTF-8, space as '+', as ``urllib.parse.quote_plus``."""
    out = []
    for byte in text.encode("utf-8"):
        if byte in _SAFE:
            out.append(chr(byte))
        elif byte == 0x20:
            out.append("+")
        else:
            out.append("%" + _HEX[byte >> 4] + _HEX[byte & 15])
    return "".join(out)


def encode_query(pairs) -> str:
    """Return ``key=value`` pairs joined with '&', each side quoted as ``quote_plus``."""
    return "&".join(quote_plus(key) + "=" + quote_plus(value) for key, value in pairs)


def unquote_bytes(text: str):
    """Return the bytes ``text`` percent-encodes, '+' as space; None if ``text`` holds a lone surrogate.

    A '%' not followed by two hex digits stays as it is, as browsers read it.
    """
    try:
        raw = text.replace("+", " ").encode("utf-8")
    except UnicodeError:  # CPython text may hold lone surrogates; no URL can
        return None
    out = bytearray()
    i, end = 0, len(raw)
    while i < end:
        byte = raw[i]
        if byte == 0x25 and i + 2 < end and raw[i + 1] in _HEX_VALUES and raw[i + 2] in _HEX_VALUES:
            out.append(_HEX_VALUES[raw[i + 1]] * 16 + _HEX_VALUES[raw[i + 2]])
            i += 3
        else:
            out.append(byte)
            i += 1
    return bytes(out)


class Undecodable:
    """A query value that is not valid UTF-8, kept as written in the URL so that a message can quote it."""

    def __init__(self, written: str) -> None:
        self.written = written

    def __repr__(self) -> str:
        return "Undecodable(%r)" % self.written

    def __eq__(self, other) -> bool:
        return isinstance(other, Undecodable) and other.written == self.written

    def __hash__(self) -> int:
        return hash(self.written)


# Well-formed UTF-8 (Unicode's table 3-7): lead byte -> (continuation bytes, range of the first of them).
# MicroPython's decode lets surrogates (ED A0 80) and overlong forms through; CPython's does not.
_UTF8_LEADS = {}
_UTF8_LEADS.update({b: (1, 0x80, 0xBF) for b in range(0xC2, 0xE0)})
_UTF8_LEADS.update({b: (2, 0x80, 0xBF) for b in range(0xE1, 0xF0)})
_UTF8_LEADS.update({0xE0: (2, 0xA0, 0xBF), 0xED: (2, 0x80, 0x9F)})
_UTF8_LEADS.update({0xF0: (3, 0x90, 0xBF), 0xF1: (3, 0x80, 0xBF), 0xF2: (3, 0x80, 0xBF), 0xF3: (3, 0x80, 0xBF),
                    0xF4: (3, 0x80, 0x8F)})


def well_formed_utf8(raw: bytes) -> bool:
    """True when ``raw`` is well-formed UTF-8: no surrogates, overlong forms or code points past U+10FFFF."""
    i, end = 0, len(raw)
    while i < end:
        byte = raw[i]
        if byte < 0x80:
            i += 1
            continue
        lead = _UTF8_LEADS.get(byte)
        if lead is None:
            return False
        more, low, high = lead
        if i + more >= end:  # cut short
            return False
        if not low <= raw[i + 1] <= high:
            return False
        for k in range(2, more + 1):
            if not 0x80 <= raw[i + k] <= 0xBF:
                return False
        i += more + 1
    return True


def utf8_or_none(raw):
    """Return ``raw`` decoded as UTF-8, or None when it is not well-formed UTF-8 (or is None), on every Python."""
    if raw is None:
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeError:
        return None
    # plain ASCII decodes one character a byte and needs no second look
    return text if len(text) == len(raw) or well_formed_utf8(raw) else None


def shown_bytes(raw: bytes) -> str:
    """Return undecodable bytes as text for a message: ASCII kept, every other byte '\ufffd'."""
    return "".join(chr(b) if b < 128 else "\ufffd" for b in raw)


def url_query(url: str) -> str:
    """Return the query of ``url``, after its first '?' and before any '#', as ``urllib.parse.urlsplit(url).query``.

    Like urlsplit, it drops tabs and line breaks anywhere in the URL first, as browsers do.
    Unlike it, it never raises: urlsplit refuses a malformed host ('http://[x/?...'), whose
    query is still plain to read.
    """
    for character in "\t\r\n":
        url = url.replace(character, "")
    url = url.split("#", 1)[0]
    return url.split("?", 1)[1] if "?" in url else ""


def parse_query(query: str) -> list:
    """Return ``[(key, value), ...]`` of a query (leading '?' allowed); a value that is not UTF-8 is an Undecodable.

    As ``urllib.parse.parse_qsl(query, keep_blank_values=True)``: pairs split on '&', a
    pair without '=' has an empty value, empty pairs are skipped. A key that is not valid
    UTF-8 is kept in its shown form (it can only be unknown).
    """
    if query.startswith("?"):
        query = query[1:]
    pairs = []
    for part in query.split("&"):
        if not part:
            continue
        key, _, value = part.partition("=")
        raw_key = unquote_bytes(key)
        decoded_key = utf8_or_none(raw_key)
        if decoded_key is None:
            decoded_key = "\ufffd" if raw_key is None else shown_bytes(raw_key)
        decoded = utf8_or_none(unquote_bytes(value))
        pairs.append((decoded_key, Undecodable(value) if decoded is None else decoded))
    return pairs
