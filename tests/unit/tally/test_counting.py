"""Counting: a block's lanes and a run of decks add to the counts exactly as one deck at a time would."""

import itertools
import random

import pytest

from shufflelab import catalog
from shufflelab.tally import FastRng
from shufflelab.tally.bitslice import FastLaneSource
from shufflelab.tally.counting import count_decks, count_lanes
from shufflelab.tally.kernels import make_block

from .helpers import decks, naive_counts


@pytest.mark.parametrize("start, width", [(0, 200), (0, 1), (37, 100), (199, 1)])
def test_counting_lanes_matches_counting_each_deck(start, width):
    n, lanes = 9, 200
    columns = make_block(catalog.get("swap-any").resolve("kernel"), n, lanes, FastLaneSource(FastRng(5)))
    counts, fixed = [[0] * n for _ in range(n)], [0] * (n + 1)
    count_lanes(columns, start, width, counts, fixed)
    assert (counts, fixed) == naive_counts(decks(columns, lanes)[start : start + width], n)


def test_counting_decks_matches_counting_each_deck():
    n = 7
    picker = random.Random(2)
    deck_list = [picker.sample(range(n), n) for _ in range(300)] + [list(range(n))]
    counts, fixed = [[0] * n for _ in range(n)], [0] * (n + 1)
    count_decks(bytes(itertools.chain.from_iterable(deck_list)), n, counts, fixed)
    assert (counts, fixed) == naive_counts(deck_list, n)


@pytest.mark.parametrize("n, start, width", [(52, 0, 300), (52, 45, 200), (9, 0, 1), (2, 3, 100), (33, 17, 283)])
def test_a_block_kept_by_card_counts_as_its_decks_do(n, start, width):
    # fisher-yates is made inside out, each card's position (Kernel.by_card): counted as the decks it stands for
    kernel = catalog.get("fisher-yates").resolve("kernel")
    lanes = 300
    assert kernel.by_card
    by_card = kernel.make(n, lanes, kernel.draw(n, lanes, FastLaneSource(FastRng(n))))
    *_, columns = by_card
    counts, fixed = [[0] * n for _ in range(n)], [0] * (n + 1)
    count_lanes(columns, start, width, counts, fixed, by_card=True)
    block = make_block(kernel, n, lanes, FastLaneSource(FastRng(n)))  # the same decks, each position's card
    assert (counts, fixed) == naive_counts(decks(block, lanes)[start : start + width], n)
