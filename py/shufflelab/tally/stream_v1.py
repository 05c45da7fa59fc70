"""Tally stream v1 in pure Python: exactly the numbers the seeded tally draws, without ``random``.

The tally draws from CPython's ``random.Random(seed)``: MT19937 seeded by ``seed()``
version 2 and read through ``getrandbits(k)`` and ``random()``. CPython does not promise
to keep that stable, so tally stream v1 is written down here, step for step, and pinned
by ``tests/golden/mt_stream_v1.json`` (docs/reference/tally-stream-v1.md):

1. **Seed.** A text seed becomes the integer whose big-endian bytes are its UTF-8
   followed by their SHA-512 digest; a whole-number seed becomes its absolute value.
   That integer's 32-bit words, least significant first (one word 0 for the integer 0),
   are the key of MT19937's ``init_by_array``.
2. **Words.** MT19937's ``genrand_uint32``: a twist of all 624 state words whenever the
   last was used (the first call twists too), then the tempering.
3. **getrandbits(k).** 0 draws nothing; k <= 32 is the next word shifted right by 32 - k;
   a wider k takes ceil(k / 32) words, the first one the least significant, and keeps
   only the top ``k mod 32`` bits of the last when k is not a multiple of 32.
4. **random().** Two words a, b: ((a >> 5) * 2^26 + (b >> 6)) / 2^53.

``FastRng`` uses ``random.Random`` (C speed) while it gives ``CHECK``'s answers, and
``MersenneTwister`` (slow, but the same numbers) if a CPython ever stops doing so.
CPython and Pyodide only, like the rest of the tally.
"""

import hashlib
import struct

N = 624  # state words
M = 397  # the twist's middle offset
MATRIX_A = 0x9908B0DF
_ODD_TWIST = (0, MATRIX_A)  # what the twist adds for an even and an odd y
UPPER_MASK = 0x80000000
LOWER_MASK = 0x7FFFFFFF
WORD_MASK = 0xFFFFFFFF


def seed_integer(seed) -> int:
    """Return the integer CPython's ``seed(seed, version=2)`` hands to MT19937 for a text or whole-number seed."""
    if isinstance(seed, str):
        raw = seed.encode("utf-8")
        return int.from_bytes(raw + hashlib.sha512(raw).digest(), "big")
    if isinstance(seed, int):
        return abs(seed)
    raise TypeError("a tally stream v1 seed is text or a whole number, not %r" % (seed,))


def seed_key(seed) -> list:
    """Return ``init_by_array``'s key for a seed: the seed integer's 32-bit words, least significant first."""
    number = seed_integer(seed)
    count = max(1, -(-number.bit_length() // 32))  # the integer 0 is one word 0
    return list(struct.unpack("<%dI" % count, number.to_bytes(4 * count, "little")))


def init_genrand(s: int) -> list:
    """Return MT19937's state after the reference ``init_genrand(s)``."""
    mt = [s & WORD_MASK]
    for i in range(1, N):
        mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + i) & WORD_MASK)
    return mt


def init_by_array(key: list) -> list:
    """Return MT19937's state after the reference ``init_by_array(key)`` (the 2002 version CPython uses)."""
    mt = init_genrand(19650218)
    i, j = 1, 0
    for _ in range(max(N, len(key))):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & WORD_MASK
        i, j = i + 1, j + 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= len(key):
            j = 0
    for _ in range(N - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & WORD_MASK
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = 0x80000000  # the most significant bit set: the state is never all zeros
    return mt


def twist(mt: list) -> None:
    """Replace all 624 state words by the next ones, in place, as the reference generator does."""
    # In place and in order: mt[i + 1] is still old when mt[i] changes, and from i = N - M
    # on, mt[(i + M) % N] is already new. (List operations in three runs measured no faster.)
    for i in range(N):
        y = (mt[i] & UPPER_MASK) | (mt[(i + 1) % N] & LOWER_MASK)
        mt[i] = mt[(i + M) % N] ^ (y >> 1) ^ _ODD_TWIST[y & 1]


def temper(y: int) -> int:
    """Return MT19937's output for state word ``y``."""
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    return y ^ (y >> 18)


class MersenneTwister:
    """Tally stream v1 without ``random``: the words, ``getrandbits`` and ``random`` of ``random.Random(seed)``."""

    def __init__(self, seed) -> None:
        self.state = init_by_array(seed_key(seed))
        self._batch = []  # tempered words of the current state, not yet drawn
        self._next = 0

    def words(self, count: int) -> list:
        """Return the next ``count`` 32-bit words of MT19937, in the order ``genrand_uint32`` gives them."""
        taken = []
        while len(taken) < count:
            if self._next == len(self._batch):
                twist(self.state)
                self._batch = [temper(y) for y in self.state]
                self._next = 0
            end = min(len(self._batch), self._next + count - len(taken))
            taken += self._batch[self._next : end]
            self._next = end
        return taken

    def getrandbits(self, k: int) -> int:
        """Return what CPython's ``getrandbits(k)`` returns: k random bits from ceil(k / 32) words, the first lowest."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0  # no word drawn
        words = self.words(-(-k // 32))
        # only the last (most significant) word can be partial: it keeps its top bits
        words[-1] >>= 32 * len(words) - k
        return int.from_bytes(struct.pack("<%dI" % len(words), *words), "little")

    def random(self) -> float:
        """Return what CPython's ``random()`` returns: 53 bits from two words, in [0, 1)."""
        a, b = self.words(2)
        return ((a >> 5) * 67108864.0 + (b >> 6)) * (1.0 / 9007199254740992.0)


# What a generator must answer to draw tally stream v1 (the tests check these answers against
# MersenneTwister and random.Random, and both against tests/golden/mt_stream_v1.json): for each seed, calls in
# order, ("bits", k, value) or ("random", None, value); value None draws without comparing, to
# reach the second twist. Text and whole-number seeding, the twist, one word, many words, a
# partial last word and the float are all on the way, in about 0.02 ms in CPython.
CHECK = (
    ("tally stream v1 \u2660 \u2713", (
        ("bits", 32, 0xB8BF10CF),
        ("bits", 7, 0x1B),
        ("bits", 95, 0x4B3F57A6163CFEE835D1CBFC),
        ("random", None, 0.8278963425245778),
        ("bits", 19968, None),
        ("bits", 33, 0x67CA0AFA),
        ("random", None, 0.908839673810637),
    )),
    (2**64 + 12345, (
        ("bits", 33, 0x1002829EC),
        ("random", None, 0.9096583904676042),
    )),
)


def agrees(make) -> bool:
    """True when ``make(seed)`` gives every answer of ``CHECK``, that is, draws tally stream v1."""
    for seed, calls in CHECK:
        generator = make(seed)
        for call, k, expected in calls:
            got = generator.random() if call == "random" else generator.getrandbits(k)
            if expected is not None and got != expected:
                return False
    return True
