"""A user's shuffle code in a share link: raw DEFLATE, then base64url without padding.

A link may carry the code of the lab's editor (``code=``) so that whoever opens it sees
the same shuffle. Opening such a link only fills the editor: the code runs when the user
presses Run, in the sandbox (an opaque-origin frame), never by itself, never on the page's
main thread and never in the built-ins' worker.

``pack_code`` writes the token and ``unpack_code`` reads it back; any DEFLATE decoder can
read what any encoder wrote, so CPython, Pyodide (``zlib``) and MicroPython (``deflate``)
read each other's links. A token that is not base64url, not raw DEFLATE, not UTF-8, or
longer than ``MAX_CODE_CHARACTERS`` once unpacked is refused with one line saying which.

Portable core: runs unchanged on CPython, Pyodide and MicroPython.
"""

import binascii
import io

from .errors import ShuffleLabError, quoted

MAX_CODE_CHARACTERS = 8000  # a shuffle is a few lines; a link stays well under browsers' limits
MAX_TOKEN_CHARACTERS = 12000
_BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

try:  # CPython and Pyodide (MicroPython's zlib, where there is one, only decompresses)
    from zlib import compressobj, decompressobj

    def _deflate(raw: bytes) -> bytes:
        packer = compressobj(9, 8, -15)  # level 9, DEFLATE, raw (no zlib header)
        return packer.compress(raw) + packer.flush()

    def _inflate(packed: bytes, limit: int) -> bytes:
        unpacker = decompressobj(-15)
        raw = unpacker.decompress(packed, limit + 1)
        if not unpacker.eof and len(raw) <= limit:
            raise ValueError("truncated")
        return raw

except ImportError:  # MicroPython
    import deflate

    def _deflate(raw: bytes) -> bytes:
        out = io.BytesIO()
        with deflate.DeflateIO(out, deflate.RAW) as packer:
            packer.write(raw)
        return out.getvalue()

    def _inflate(packed: bytes, limit: int) -> bytes:
        # raw DEFLATE has no header to give the window size: 15 (32 KiB) reads any encoder's output
        return deflate.DeflateIO(io.BytesIO(packed), deflate.RAW, 15).read(limit + 1)


class CodeLinkError(ShuffleLabError):
    """A code token that cannot be read back; the message says why in one line."""


def check_code_size(source: str) -> str:
    """Return ``source`` if a link can carry it, else raise CodeLinkError saying how long it is."""
    if len(source) > MAX_CODE_CHARACTERS:
        raise CodeLinkError("the code is %d characters long; a link carries at most %d" % (len(source), MAX_CODE_CHARACTERS))
    return source


def pack_code(source: str) -> str:
    """Return the link token of ``source``: its UTF-8, raw DEFLATE, base64url without '=' padding."""
    packed = binascii.b2a_base64(_deflate(check_code_size(source).encode("utf-8"))).decode("ascii").strip()
    return packed.replace("+", "-").replace("/", "_").rstrip("=")


def unpack_code(token: str) -> str:
    """Return the code a link token holds, or raise CodeLinkError saying why it can't be read."""
    if len(token) > MAX_TOKEN_CHARACTERS:
        raise CodeLinkError("the code in the link is %d characters long; at most %d" % (len(token), MAX_TOKEN_CHARACTERS))
    for character in token:
        if character not in _BASE64URL:
            raise CodeLinkError("the code in the link has %s (U+%04X), which base64url does not use" % (
                quoted(character), ord(character)))
    if len(token) % 4 == 1:
        raise CodeLinkError("the code in the link is cut short")
    padded = token.replace("-", "+").replace("_", "/") + "=" * (-len(token) % 4)
    try:
        raw = _inflate(binascii.a2b_base64(padded.encode("ascii")), MAX_CODE_CHARACTERS * 4)
    except Exception:
        raise CodeLinkError("the code in the link is not compressed code (it may be cut short)") from None
    try:
        source = raw.decode("utf-8")
    except UnicodeError:
        raise CodeLinkError("the code in the link is not UTF-8 text") from None
    return check_code_size(source)
