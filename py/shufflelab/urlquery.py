"""URL query strings, read and written the way browsers and ``urllib.parse`` do.

``parse_query`` splits ``a=1&b=x+y`` into pairs, percent-decodes them and decodes UTF-8
strictly: a value that is not valid UTF-8 is reported as such, never silently replaced.
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


def utf8_or_none(raw):
    """Return ``raw`` decoded as UTF-8, or None when it is not valid UTF-8 (or is None)."""
    if raw is None:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeError:
        return None


def shown_bytes(raw: bytes) -> str:
    """Return undecodable bytes as text for a message: ASCII kept, every other byte '\ufffd'."""
    return "".join(chr(b) if b < 128 else "\ufffd" for b in raw)


def parse_query(query: str) -> list:
    """Return ``[(key, value), ...]`` of a query (leading '?' allowed); value is None where it is not valid UTF-8.

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
        pairs.append((decoded_key, utf8_or_none(unquote_bytes(value))))
    return pairs
