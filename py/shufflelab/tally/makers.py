"""Deck makers: catalog algorithms whose decks can be made faster in bulk, same distribution.

riffle-gsr's maker is a ``SplitMaker``: its draws (a label per card) come apart from its work, so a
tally of it can be split across processes (``parallel.py``); random-comparator's cannot, since which
coins its merge sort asks for depends on the coins before.

The tests check each maker exhaustively on small decks and against the exact whole-order
distributions.
"""

from collections.abc import Iterator, Sequence

from .. import algorithms
from .fast_rng import FastRng


class SplitMaker:
    """A deck maker in two halves: ``draw`` takes every random number ``count`` decks need, in stream order, and
    ``make`` makes the decks from those numbers alone (in another process, for ``tally/parallel.py``).

    Called as ``maker(n, params, rng, count)`` it is an ordinary deck maker.
    """

    def __init__(self, draw, make, doc: str) -> None:
        self.draw = draw  # (n, params, rng, count) -> the draws
        self.make = make  # (n, params, draws) -> bytes of decks
        self.__doc__ = doc

    def __call__(self, n: int, params: dict, rng: FastRng, count: int) -> bytes:
        """Return ``count`` decks, one byte per card."""
        return self.make(n, params, self.draw(n, params, rng, count))


def _riffle_gsr_labels(n: int, params: dict, rng: FastRng, count: int) -> Sequence[int]:
    """Draw a uniform ``passes``-bit label per card of ``count`` decks: all a riffle deck draws."""
    return _uniform_labels(params["passes"], n * count, rng)


def _riffle_gsr_from_labels(n: int, params: dict, labels: Sequence[int]) -> bytes:
    """Return the decks whose inverses are their cards in stable order of the labels, n labels a deck."""
    return b"".join(riffle_deck_from_labels(labels[start : start + n]) for start in range(0, len(labels), n))


riffle_gsr_decks = SplitMaker(_riffle_gsr_labels, _riffle_gsr_from_labels, """\
Return ``count`` decks of ``passes`` GSR riffles each, one byte per card, made inside C.

Why it is the same distribution (Bayer & Diaconis 1992): the inverse of ``k`` GSR
riffles puts the cards in stable order of independent uniform labels in [0, 2^k), so
the inverse of that arrangement, the rank of each card, is exactly a k-riffle deck.
""")


def riffle_deck_from_labels(labels: Sequence[int]) -> bytes:
    """Return the deck whose inverse is the cards in stable order of their labels."""
    positions = range(len(labels))
    inverse_deck = sorted(positions, key=labels.__getitem__)  # stable: ties keep their order
    return bytes(sorted(positions, key=inverse_deck.__getitem__))


def _uniform_labels(bits: int, count: int, rng: FastRng) -> Sequence[int]:
    """Return ``count`` independent uniform integers in [0, 2^bits)."""
    if bits <= 8:
        return rng.take_bytes(count).translate(bytes(b & ((1 << bits) - 1) for b in range(256)))
    words_each = -(-bits // 32)
    size, surplus = 4 * words_each, 32 * words_each - bits
    raw = bytes(rng.words(words_each * count))
    return [int.from_bytes(raw[i : i + size], "little") >> surplus for i in range(0, len(raw), size)]


def random_comparator_decks(n: int, params: dict, rng: FastRng, count: int) -> bytes:
    """Return ``count`` decks of the port's comparator merge sort, its coins drawn eight per random byte."""
    coin_rng = _CoinRng(rng.coins())
    deck = list(range(n))
    return b"".join(bytes(algorithms.comparator_merge_sort(deck, coin_rng)) for _ in range(count))


class _CoinRng:
    """Answers the merge sort's ``below(2)`` with pre-drawn fair coins (it asks for nothing else)."""

    __slots__ = ("below",)

    def __init__(self, coins: Iterator[int]) -> None:
        self.below = lambda m: next(coins)
