"""Sources of randomness behind one small protocol, and the seeded stream v1.

Every algorithm receives an object with:

* ``below(m)`` -> an exactly unbiased integer in ``[0, m)``;
* ``below_many(bounds)`` -> ``[below(m) for m in bounds]``, drawn in that order
  (sources may do it faster, never differently);
* ``random()`` -> a float in ``[0, 1)``, for algorithms written with ``Math.random()``.

Sources: ``StreamRng(seed)``, seeded stream v1, the share-link contract (docs/reference/stream-v1.md);
``SystemRng()``, the operating system's CSPRNG (CPython and Pyodide); ``CRand(seed)``,
the ANSI C ``rand()`` generator, for the ``c-rand`` port. The fast source for
simulations, ``FastRng``, lives with the tally (``shufflelab.tally.fast_rng``).

Portable core: runs unchanged on CPython, Pyodide and MicroPython. HMAC-SHA256 is built
here on ``hashlib.sha256`` (RFC 2104, padded keys made once) because MicroPython's
``hmac`` module is pure Python and about 100 times slower.
"""

import hashlib
import struct

from .errors import ShuffleLabError

STREAM_VERSION = 1
WORD_BITS = 32
WORD_SPAN = 1 << WORD_BITS
WORD_MASK = WORD_SPAN - 1
SEED_BYTES = 32  # 256 bits: every one of the 52! (about 2^225.6) orders is reachable
_SHA256_BLOCK = 64
_BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def check_bound(m: int) -> None:
    """Raise ValueError unless ``m`` is a usable upper bound for ``below`` (a bad bound is a bug, not input)."""
    if not 1 <= m <= WORD_SPAN:
        raise ValueError("below(m) needs 1 <= m <= 2**32, got %r" % (m,))


def seed_text(raw: bytes) -> str:
    """Return bytes as unpadded URL-safe base64: 32 bytes give the 43 characters of a fresh seed."""
    out = []
    for start in range(0, len(raw), 3):
        chunk = raw[start:start + 3]
        value = int.from_bytes(chunk + bytes(3 - len(chunk)), "big")
        digits = (value >> 18 & 63, value >> 12 & 63, value >> 6 & 63, value & 63)
        # a partial chunk of k bytes gives k + 1 characters (the padding is left out)
        out.extend(_BASE64URL[d] for d in digits[:len(chunk) + 1])
    return "".join(out)


def new_seed(random_bytes=None) -> str:
    """Return a fresh seed: 256 bits from a CSPRNG as 43 URL-safe characters.

    ``random_bytes(count)`` supplies the bits (the page passes ``crypto.getRandomValues``);
    by default they come from the operating system through ``secrets``.
    """
    if random_bytes is None:
        import secrets  # not on MicroPython, where the page supplies random_bytes

        random_bytes = secrets.token_bytes
    raw = bytes(random_bytes(SEED_BYTES))
    if len(raw) != SEED_BYTES:
        raise ValueError("a seed needs %d random bytes, got %d" % (SEED_BYTES, len(raw)))
    return seed_text(raw)


def _padded_key(key: bytes) -> bytes:
    """Return the HMAC key as one SHA-256 block: hashed first when longer (RFC 2104), then zero-padded."""
    if len(key) > _SHA256_BLOCK:
        key = hashlib.sha256(key).digest()
    return key + bytes(_SHA256_BLOCK - len(key))


class StreamRng:
    """Seeded stream v1: HMAC-SHA256 over a block counter, identical in any language.

    key = seed as UTF-8; block c = HMAC-SHA256(key, c as 8-byte big-endian);
    each block yields eight big-endian 32-bit words, consumed in order. ``seed`` may also
    be the key itself, as bytes: a sealed deal's mixed key (``shufflelab.seal``).
    """

    version = STREAM_VERSION

    def __init__(self, seed) -> None:
        self.seed = seed
        key = _padded_key(seed if isinstance(seed, bytes) else seed.encode("utf-8"))
        self._inner_pad = bytes(b ^ 0x36 for b in key)
        self._outer_pad = bytes(b ^ 0x5C for b in key)
        # one bound method that yields the words in order: the cheapest per-draw step on MicroPython
        self.word = self._words().__next__

    def block(self, counter: int) -> bytes:
        """Return block ``counter`` of the stream: HMAC-SHA256(key, counter as 8 bytes big-endian)."""
        inner = hashlib.sha256(self._inner_pad + counter.to_bytes(8, "big")).digest()
        return hashlib.sha256(self._outer_pad + inner).digest()

    def _words(self):
        """Yield the stream's 32-bit words forever, block 0 first."""
        counter = 0
        while True:
            yield from struct.unpack(">8I", self.block(counter))
            counter += 1

    def below(self, m: int) -> int:
        """Return an unbiased integer in [0, m): reject words >= floor(2^32/m)*m."""
        if not 1 <= m <= WORD_SPAN:
            check_bound(m)  # raises, naming m
        limit = WORD_SPAN - WORD_SPAN % m
        word = self.word
        w = word()
        while w >= limit:
            w = word()
        return w % m

    def below_many(self, bounds) -> list:
        """Return ``[below(m) for m in bounds]``, consuming the stream in that order."""
        return [self.below(m) for m in bounds]

    def random(self) -> float:
        """Return a float in [0, 1) with 53 random bits from two consecutive words."""
        a = self.word()
        b = self.word()
        return ((a >> 5) * 67108864 + (b >> 6)) / 9007199254740992.0


class SystemRng:
    """The operating system's CSPRNG (``secrets``; ``crypto.getRandomValues`` in Pyodide). Not on MicroPython."""

    def __init__(self) -> None:
        import secrets  # here, not at the top: MicroPython has no secrets, and the page never makes a SystemRng

        self._secrets = secrets

    def below(self, m: int) -> int:
        """Return an unbiased integer in [0, m)."""
        check_bound(m)
        return self._secrets.randbelow(m)

    def below_many(self, bounds) -> list:
        """Return one unbiased draw per bound, in order."""
        return [self.below(m) for m in bounds]

    def random(self) -> float:
        """Return a float in [0, 1) with 53 random bits."""
        return self._secrets.randbits(53) / 9007199254740992.0


class CRand:
    """The ANSI C sample ``rand()``: a 32-bit LCG, RAND_MAX 32767, seeded like ``srand``."""

    RAND_MAX = 32767

    def __init__(self, seed: int) -> None:
        self.state = seed & WORD_MASK

    def rand(self) -> int:
        """Return the next value in [0, 32767], as the C standard's example does."""
        self.state = (self.state * 1103515245 + 12345) & WORD_MASK
        return (self.state >> 16) & 0x7FFF


MIX_PREFIX = b"shufflelab-v1-mix\x00"


def mixed_key(dealer_seed: str, player_seed: str) -> bytes:
    """Return the stream key of a deal with a player seed (checked by the caller).

    ``b"shufflelab-v1-mix\\x00"``, then the dealer seed's UTF-8 length as 4 bytes big-endian
    and the bytes, then the player seed's the same way. It holds a 0x00 byte, which no seed's
    UTF-8 does, so it is never the key of a plain seed.
    """
    dealer = dealer_seed.encode("utf-8")
    player = player_seed.encode("utf-8")
    return MIX_PREFIX + len(dealer).to_bytes(4, "big") + dealer + len(player).to_bytes(4, "big") + player


def stream(seed, version: int = STREAM_VERSION, player_seed=None) -> StreamRng:
    """Return the seeded stream of the given version (only v1 exists).

    ``seed`` is text, or the key as bytes; with a ``player_seed`` the key is ``mixed_key(seed, player_seed)``.
    """
    if version != STREAM_VERSION:
        raise ShuffleLabError("unknown stream version %r; this build knows v%d" % (version, STREAM_VERSION))
    return StreamRng(seed if player_seed is None else mixed_key(seed, player_seed))
