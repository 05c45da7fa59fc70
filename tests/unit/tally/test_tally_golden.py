"""Seeded tallies are a link's promise: tests/golden/tally_v1.json pins them (tally stream v1)."""

import json
import sys
from pathlib import Path

import pytest

from shufflelab.tally import Tally

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
sys.path.insert(0, str(GOLDEN))
import make_tally_vectors  # noqa: E402

HELD = json.loads((GOLDEN / "tally_v1.json").read_text("utf-8"))


def test_every_builtin_algorithm_has_its_vectors():
    assert make_tally_vectors.main(["--check"]) == 0


@pytest.mark.parametrize("key", sorted(HELD))
def test_a_seeded_tally_counts_what_it_counted_when_its_vector_was_written(key):
    held = HELD[key]
    tally = Tally(held["algo"], held["n"], held["params"], held["seed"])
    tally.run(held["trials"])  # one run, where the vector was made in two: batch sizes must not matter
    assert tally.counts == held["counts"]
    assert tally.fixed_points == held["fixed_points"]
