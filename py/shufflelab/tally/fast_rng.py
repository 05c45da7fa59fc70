"""The tally's fast source: exactly unbiased draws from a Mersenne Twister, grouped for speed.

CPython and Pyodide only. A seeded tally (``tseed``) is part of a lab link: what this
source draws for a seed is frozen as tally stream v1 by tests/golden/tally_v1.json, and
its Mersenne Twister is written down in ``stream_v1`` (tests/golden/mt_stream_v1.json).
A seeded source draws from ``random.Random`` while it still draws tally stream v1, else
from ``stream_v1.MersenneTwister``: CPython does not promise to keep ``random.Random``'s
numbers, and a link's tally seed must count the same shuffles on any future Python.
"""

import random as _stdlib_random
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from math import prod

from ..rng import WORD_BITS, check_bound
from . import stream_v1

_COIN_BYTES = tuple(bytes((b >> k) & 1 for k in range(8)) for b in range(256))  # a byte's bits, lowest first
GROUP_BITS = 120  # bits per exact draw (fewest instructions of 30-512 under callgrind): 52 cards take three draws
_stdlib_checked = []  # [True or False] once random.Random has been checked against stream_v1.CHECK


def stdlib_draws_stream_v1() -> bool:
    """True when this Python's ``random.Random`` draws tally stream v1 (checked once, on first use)."""
    if not _stdlib_checked:
        _stdlib_checked.append(stream_v1.agrees(_stdlib_random.Random))
    return _stdlib_checked[0]


def mersenne_twister(seed: int | str | None):
    """Return a generator with ``getrandbits`` and ``random`` that draws tally stream v1 for ``seed``.

    ``random.Random`` while it agrees with ``stream_v1.CHECK`` (C speed), else the pure
    ``stream_v1.MersenneTwister`` (the same numbers, about 100 times slower per word). Without a seed
    nothing is promised, so it is always ``random.Random``, seeded from the system.
    """
    if seed is None:
        return _stdlib_random.Random()
    if not isinstance(seed, int | str):
        raise TypeError(f"a tally seed is text or a whole number, not {seed!r}")
    if stdlib_draws_stream_v1():
        return _stdlib_random.Random(seed)
    return stream_v1.MersenneTwister(seed)


class FastRng:
    """Fast source for simulations over a Mersenne Twister, still exactly unbiased.

    ``below_many`` draws one exact uniform integer below the product of a group of bounds
    (bits, then rejection, as CPython's ``_randbelow``) and reads the draws off as its
    mixed-radix digits: a bijection, so every digit is uniform and independent. One draw
    per group and a ``%`` and ``//`` per bound beat a rejection loop per bound. Not for
    share links (use StreamRng).
    """

    def __init__(self, seed: int | str | None = None) -> None:
        self._generator = mersenne_twister(seed)
        self._getrandbits = self._generator.getrandbits
        self.random = self._generator.random
        self._spare_bytes = b""
        self._coins = None

    def take_bytes(self, count: int) -> bytes:
        """Return the next ``count`` bytes of the word stream; bytes a call leaves over start the next one.

        So a seeded tally draws the same bytes however its shuffles are split into batches.
        """
        short = count - len(self._spare_bytes)
        if short > 0:
            self._spare_bytes += bytes(self.words(-(-short // 4)))
        taken, self._spare_bytes = self._spare_bytes[:count], self._spare_bytes[count:]
        return taken

    def coins(self) -> Iterator[int]:
        """Return this generator's one endless stream of fair coins (0 or 1), eight per byte of ``take_bytes``."""
        if self._coins is None:
            self._coins = chain.from_iterable(iter(self._next_coins, None))
        return self._coins

    def _next_coins(self) -> bytes:
        """Return the coins of the next 256 random bytes, one 0 or 1 per byte of the result."""
        return b"".join(map(_COIN_BYTES.__getitem__, self.take_bytes(256)))

    def words(self, count: int) -> Sequence[int]:
        """Return ``count`` independent uniform 32-bit words, made in one call."""
        if count == 0:
            return ()
        raw = self.words_as_int(count).to_bytes(4 * count, "little")
        return memoryview(raw).cast("I")

    def words_as_int(self, count: int) -> int:
        """Return the next ``count`` words (those ``words(count)`` would give) as one int, the first word lowest."""
        # getrandbits fills whole 32-bit words lowest first, so this is words() without its bytes
        return self._getrandbits(WORD_BITS * count) if count else 0

    def below(self, m: int) -> int:
        """Return an unbiased integer in [0, m)."""
        check_bound(m)
        return self.uniform_below(m)

    def below_many(self, bounds: Iterable[int]) -> list[int]:
        """Return one unbiased draw per bound, in order: mixed-radix digits of exact group draws."""
        bounds = list(bounds)
        if not bounds:
            return []
        check_bound(min(bounds))  # raises, naming the bound
        check_bound(max(bounds))
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
