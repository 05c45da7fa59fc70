"""Deck makers: catalog algorithms whose decks can be made faster in bulk, same distribution.

The tests check each maker exhaustively on small decks and against the exact whole-order
distributions.
"""

from collections.abc import Iterator, Sequence

from .. import algorithms
from .fast_rng import FastRng


def riffle_gsr_decks(n: int, params: dict, rng: FastRng, count: int) -> bytes:
    """Return ``count`` decks of ``passes`` GSR riffles each, one byte per card, made inside C.

    Why it is the same distribution (Bayer & Diaconis 1992): the inverse of ``k`` GSR
    riffles puts the cards in stable order of independent uniform labels in [0, 2^k), so
    the inverse of that arrangement, the rank of each card, is exactly a k-riffle deck.
    """
    labels = _uniform_labels(params["passes"], n * count, rng)
    return b"".join(riffle_deck_from_labels(labels[start : start + n]) for start in range(0, n * count, n))


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
