"""Sources of randomness behind one small protocol.

Every algorithm receives an object with:

* ``below(m)`` -> an exactly unbiased integer in ``[0, m)``;
* ``below_many(bounds)`` -> ``[below(m) for m in bounds]``, drawn in that order
  (sources may do it faster, never differently);
* ``random()`` -> a float in ``[0, 1)``, for algorithms written with ``Math.random()``.

Only this module creates sources:

* ``StreamRng(seed)``: seeded stream v1, the share-link contract (see README);
* ``SystemRng()``: the operating system's CSPRNG, via ``secrets``;
* ``FastRng(seed)``: fast source for simulations, still exactly unbiased;
* ``CRand(seed)``: the ANSI C ``rand()`` generator, for the ``c-rand`` port.
"""

from __future__ import annotations

import hmac
import random as _stdlib_random
import secrets
import struct
from math import prod
from typing import Iterable, Protocol, Sequence

STREAM_VERSION = 1
WORD_BITS = 32
WORD_SPAN = 1 << WORD_BITS
WORD_MASK = WORD_SPAN - 1
GROUP_BITS = 120  # bits per exact draw (fewest instructions of 30-512 under callgrind): 52 cards take three draws
SEED_BYTES = 32  # 256 bits: every one of the 52! (about 2^225.6) orders is reachable
_EIGHT_WORDS = struct.Struct(">8I")


class Rng(Protocol):
    """What every algorithm may ask of its source of randomness."""

    def below(self, m: int) -> int: ...

    def below_many(self, bounds: Iterable[int]) -> list[int]: ...

    def random(self) -> float: ...


def check_bound(m: int) -> None:
    """Raise ValueError unless ``m`` is a usable upper bound for ``below``."""
    if not 1 <= m <= WORD_SPAN:
        raise ValueError(f"below(m) needs 1 <= m <= 2**32, got {m}")


def new_seed() -> str:
    """Return a fresh seed: 256 bits from the OS CSPRNG as 43 URL-safe characters."""
    return secrets.token_urlsafe(SEED_BYTES)


class StreamRng:
    """Seeded stream v1: HMAC-SHA256 over a block counter, identical in any language.

    key = seed as UTF-8; block c = HMAC-SHA256(key, c as 8-byte big-endian);
    each block yields eight big-endian 32-bit words, consumed in order.
    """

    version = STREAM_VERSION

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self._key = seed.encode("utf-8")
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._next = 0

    def word(self) -> int:
        """Return the next 32-bit word of the stream."""
        if self._next == len(self._words):
            message = self._block.to_bytes(8, "big")
            self._words = _EIGHT_WORDS.unpack(hmac.digest(self._key, message, "sha256"))
            self._block += 1
            self._next = 0
        w = self._words[self._next]
        self._next += 1
        return w

    def below(self, m: int) -> int:
        """Return an unbiased integer in [0, m): reject words >= floor(2^32/m)*m."""
        check_bound(m)
        limit = WORD_SPAN - WORD_SPAN % m
        w = self.word()
        while w >= limit:
            w = self.word()
        return w % m

    def below_many(self, bounds: Iterable[int]) -> list[int]:
        """Return ``[below(m) for m in bounds]``, consuming the stream in that order."""
        return [self.below(m) for m in bounds]

    def random(self) -> float:
        """Return a float in [0, 1) with 53 random bits from two consecutive words."""
        a = self.word()
        b = self.word()
        return ((a >> 5) * 67108864 + (b >> 6)) / 9007199254740992.0


class SystemRng:
    """The operating system's CSPRNG (``secrets``; ``crypto.getRandomValues`` in Pyodide)."""

    def below(self, m: int) -> int:
        """Return an unbiased integer in [0, m)."""
        check_bound(m)
        return secrets.randbelow(m)

    def below_many(self, bounds: Iterable[int]) -> list[int]:
        """Return one unbiased draw per bound, in order."""
        return [self.below(m) for m in bounds]

    def random(self) -> float:
        """Return a float in [0, 1) with 53 random bits."""
        return secrets.randbits(53) / 9007199254740992.0


class FastRng:
    """Fast source for simulations over a Mersenne Twister, still exactly unbiased.

    ``below_many`` draws one exact uniform integer below the product of a group of bounds
    (bits, then rejection, as CPython's ``_randbelow``) and reads the draws off as its
    mixed-radix digits: a bijection, so every digit is uniform and independent. One draw
    per group and a ``%`` and ``//`` per bound beat a rejection loop per bound. Not for
    share links (use StreamRng).
    """

    def __init__(self, seed: int | str | None = None) -> None:
        self._generator = _stdlib_random.Random(seed)
        self._getrandbits = self._generator.getrandbits
        self.random = self._generator.random

    def words(self, count: int) -> Sequence[int]:
        """Return ``count`` independent uniform 32-bit words, made in one call."""
        if count == 0:
            return ()
        raw = self._getrandbits(WORD_BITS * count).to_bytes(4 * count, "little")
        return memoryview(raw).cast("I")

    def below(self, m: int) -> int:
        """Return an unbiased integer in [0, m)."""
        check_bound(m)
        return self.uniform_below(m)

    def below_many(self, bounds: Iterable[int]) -> list[int]:
        """Return one unbiased draw per bound, in order: mixed-radix digits of exact group draws."""
        bounds = list(bounds)
        if not bounds:
            return []
        low = min(bounds)
        if low < 1:
            check_bound(low)  # raises, naming it
        # groups are sized by the first bound: only speed depends on that, never exactness
        per_group = max(1, GROUP_BITS // bounds[0].bit_length())
        digits: list[int] = []
        append, getrandbits = digits.append, self._getrandbits
        for start in range(0, len(bounds), per_group):
            group = bounds[start : start + per_group]
            # uniform below the product (as uniform_below, inlined: one call per group counts),
            # so each digit is uniform
            span = prod(group)
            bits = span.bit_length()
            x = getrandbits(bits)
            while x >= span:
                x = getrandbits(bits)
            for m in group:
                append(x % m)
                x //= m
        return digits

    def uniform_below(self, span: int) -> int:
        """Return an exactly uniform integer in [0, span): as many bits as span has, values >= span redrawn."""
        bits = span.bit_length()
        x = self._getrandbits(bits)
        while x >= span:  # accepted with probability span / 2^bits > 1/2
            x = self._getrandbits(bits)
        return x


class CRand:
    """The ANSI C sample ``rand()``: a 32-bit LCG, RAND_MAX 32767, seeded like ``srand``."""

    RAND_MAX = 32767

    def __init__(self, seed: int) -> None:
        self.state = seed & WORD_MASK

    def rand(self) -> int:
        """Return the next value in [0, 32767], as the C standard's example does."""
        self.state = (self.state * 1103515245 + 12345) & WORD_MASK
        return (self.state >> 16) & 0x7FFF


def stream(seed: str, version: int = STREAM_VERSION) -> StreamRng:
    """Return the seeded stream of the given version (only v1 exists)."""
    if version != STREAM_VERSION:
        raise ValueError(f"unknown stream version {version}; this build knows v{STREAM_VERSION}")
    return StreamRng(seed)
