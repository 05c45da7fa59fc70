"""A tally split across processes counts exactly what one Tally counts for the same seed (tally stream v1)."""

import json
from pathlib import Path

import pytest

from shufflelab import catalog
from shufflelab.custom import register_custom
from shufflelab.tally import Tally
from shufflelab.tally.kernels import lanes_for
from shufflelab.tally.parallel import DECKS_PER_MAKER_CHUNK, can_split, make_and_count, split_counts

from .helpers import KERNEL_IDS

GOLDEN = json.loads((Path(__file__).resolve().parents[2] / "golden" / "tally_v1.json").read_text("utf-8"))
SPLIT_IDS = KERNEL_IDS + ["riffle-gsr"]


def one_tally(algo, n, params, seed, trials):
    tally = Tally(algo, n, params, seed)
    tally.run(trials)
    return tally.counts, tally.fixed_points


def test_the_kernels_and_riffle_gsr_split_and_the_tallies_that_draw_as_they_go_do_not(only_built_ins_afterwards):
    assert sorted(entry.id for entry in catalog.entries() if can_split(entry.id)) == sorted(SPLIT_IDS)
    register_custom("def shuffle(cards, rng):\n    return cards\n")
    assert not can_split("custom")


@pytest.mark.parametrize("key", sorted(key for key in GOLDEN if GOLDEN[key]["algo"] in SPLIT_IDS))
def test_a_split_tally_counts_the_golden_vectors(key):
    held = GOLDEN[key]
    assert split_counts(held["algo"], held["n"], held["params"], held["seed"], held["trials"], 2) == (
        held["counts"], held["fixed_points"])


@pytest.mark.parametrize("algo, n, trials", [
    ("fisher-yates", 9, 2 * lanes_for(9) + 37),  # three blocks, the last one counted in part
    ("naive-pairs", 70, lanes_for(70) + 1),  # a smaller block past 64 cards
    ("c-rand", 3, 5),
    ("riffle-gsr", 7, 2 * DECKS_PER_MAKER_CHUNK + 3),
])
def test_a_split_tally_counts_what_one_tally_counts_across_chunks(algo, n, trials):
    params = {"passes": 9} if algo == "riffle-gsr" else {}  # 9 passes: labels of two bytes, drawn as words
    progress = []
    counts = split_counts(algo, n, params, "across", trials, 3, lambda done, *_: progress.append(done))
    assert counts == one_tally(algo, n, params, "across", trials)
    assert progress == sorted(progress) and progress[-1] == trials


def test_the_counts_do_not_depend_on_the_number_of_workers():
    trials = lanes_for(5) * 3 + 11
    assert split_counts("swap-any", 5, {}, 8, trials, 2) == split_counts("swap-any", 5, {}, 8, trials, 4)


def test_a_chunk_is_made_and_counted_from_its_draws_alone():
    from shufflelab.tally.bitslice import FastLaneSource
    from shufflelab.tally.fast_rng import FastRng

    kernel = catalog.get("fisher-yates").resolve("kernel")
    drawn = kernel.draws(6, lanes_for(6), FastLaneSource(FastRng("chunk")))
    assert make_and_count("fisher-yates", 6, {}, drawn, 100)[1:] == one_tally("fisher-yates", 6, {}, "chunk", 100)


def test_a_tally_that_cannot_split_is_refused():
    with pytest.raises(ValueError, match="cannot be split"):
        split_counts("cut-insert", 5, {}, 1, 10, 2)
