"""One shuffle in CPython: 52 and 1,000,000 cards, instructions per shuffle under callgrind, and counting a batch.

The shuffles: random.shuffle beside fisher_yates with FastRng and with StreamRng. Instructions under callgrind repeat
exactly on a busy machine. Counting: which way of counting card x position over a batch of decks is fastest.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from collections import Counter

from bench import ROOT
from bench.measure import DECK, interleaved_medians, print_table, seconds_per_call, target_row
from shufflelab import algorithms
from shufflelab.rng import StreamRng
from shufflelab.tally.bitslice import (
    FastLaneSource,
    decks_from_columns,
    planes_from_lane_bytes,
    planes_per_card,
    value_masks,
)
from shufflelab.tally.counting import count_lanes
from shufflelab.tally.fast_rng import FastRng
from shufflelab.tally.kernels import fisher_yates_block, make_block

BIG_DECK = 1_000_000
ONE_MILLION_TARGET_SECONDS = 1.0
INSTRUCTION_CALLS = 3000
INSTRUCTION_CASES = {
    "nothing (interpreter start-up)": "",
    "random.Random().shuffle": "g = random.Random(1)\nfor _ in range(CALLS): g.shuffle(deck)",
    "fisher_yates + FastRng": "r = FastRng(1)\nfor _ in range(CALLS): algorithms.fisher_yates(deck, r)",
}


def shuffle_section(repeats: int, quick: bool) -> dict:
    """Measure 52-card and 1,000,000-card shuffles; print them; return the figures."""
    calls = 500 if quick else 3000
    deck = list(range(DECK))
    shuffler = random.Random(1)  # an instance: the global random module is never used
    fast, streamed = FastRng(1), StreamRng("bench")
    per_shuffle = interleaved_medians(
        {
            "random.Random().shuffle": lambda: seconds_per_call(lambda: shuffler.shuffle(deck), calls),
            "fisher_yates + FastRng": lambda: seconds_per_call(lambda: algorithms.fisher_yates(deck, fast), calls),
            "fisher_yates + StreamRng": lambda: seconds_per_call(
                lambda: algorithms.fisher_yates(deck, streamed), calls
            ),
        },
        repeats,
    )
    big = list(range(BIG_DECK))
    big_repeats = 1 if quick else max(1, min(repeats, 3))
    one_million = interleaved_medians(
        {
            "fisher_yates + FastRng": lambda: seconds_per_call(lambda: algorithms.fisher_yates(big, fast), 1),
            "fisher_yates + StreamRng": lambda: seconds_per_call(lambda: algorithms.fisher_yates(big, streamed), 1),
        },
        big_repeats,
    )
    print_shuffles(per_shuffle, one_million, repeats, big_repeats)
    return {
        "us_per_shuffle_52": {name: s * 1e6 for name, s in per_shuffle.items()},
        "seconds_1e6_cards": one_million,
    }


def print_shuffles(per_shuffle: dict, one_million: dict, repeats: int, big_repeats: int) -> None:
    """Print the 52-card shuffles beside random.shuffle, and the million-card ones against their target."""
    baseline = per_shuffle["random.Random().shuffle"]
    rows = [
        [name, f"{seconds * 1e6:.1f}", f"{baseline / seconds:.2f}x"] for name, seconds in per_shuffle.items()
    ]
    print_table(f"One shuffle of {DECK} cards, CPython (median of {repeats})",
                ["method", "us/shuffle", "speed vs random.shuffle"], rows)
    # the target is for the fast source; the stream's figure is for comparison
    rows = [
        [name, f"{seconds:.3f}",
         ("yes" if seconds < ONE_MILLION_TARGET_SECONDS else "NO") if "FastRng" in name else "-"]
        for name, seconds in one_million.items()
    ]
    print_table(f"One shuffle of {BIG_DECK:,} cards, CPython (median of {big_repeats})",
                ["method", "seconds", f"target < {ONE_MILLION_TARGET_SECONDS:g} s"], rows)


def instructions_section() -> dict:
    """Count instructions per 52-card shuffle under callgrind (the same whatever else the machine does)."""
    if not shutil.which("valgrind"):
        print("\nInstructions per shuffle: valgrind is not installed (apt-get install valgrind); skipped")
        return {}
    prelude = (f"import sys, random\nsys.path.insert(0, {str(ROOT / 'py')!r})\n"
               f"from shufflelab import algorithms\nfrom shufflelab.tally.fast_rng import FastRng\n"
               f"deck = list(range({DECK}))\nCALLS = {INSTRUCTION_CALLS}\n")
    totals = {}
    for name, body in INSTRUCTION_CASES.items():
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={os.devnull}",
                              sys.executable, "-c", prelude + body], capture_output=True, text=True)
        totals[name] = int(re.search(r"Collected : (\d+)", run.stderr).group(1))
    start_up = totals.pop("nothing (interpreter start-up)")
    per_shuffle = {name: (total - start_up) / INSTRUCTION_CALLS for name, total in totals.items()}
    baseline = per_shuffle["random.Random().shuffle"]
    print_table(f"Instructions per {DECK}-card shuffle under callgrind (repeatable on a busy machine)",
                ["method", "instructions", "vs random.shuffle"],
                [[name, f"{count:,.0f}", f"{count / baseline:.2f}x"] for name, count in per_shuffle.items()])
    return per_shuffle


def _zero_counts(n: int) -> list[list[int]]:
    """Return an n x n table of zero counts (card x position)."""
    return [[0] * n for _ in range(n)]


def count_card_by_card(decks: bytes, n: int) -> list[list[int]]:
    """Return the counts of ``decks`` (n bytes each, one after another) by a Python loop over every card."""
    counts = _zero_counts(n)
    for start in range(0, len(decks), n):
        for position, card in enumerate(decks[start : start + n]):
            counts[card][position] += 1
    return counts


def count_with_bytes_count(decks: bytes, n: int) -> list[list[int]]:
    """Return the counts of ``decks`` by bytes.count, per column (position) and card."""
    counts = _zero_counts(n)
    for p in range(n):
        column = decks[p::n]
        for card in range(n):
            counts[card][p] += column.count(card)
    return counts


def count_with_counter(decks: bytes, n: int) -> list[list[int]]:
    """Return the counts of ``decks`` by a Counter per column."""
    counts = _zero_counts(n)
    for p in range(n):
        for card, k in Counter(decks[p::n]).items():
            counts[card][p] += k
    return counts


def count_with_planes(decks: bytes, n: int) -> list[list[int]]:
    """Return the counts of ``decks`` by turning each column into bit planes and counting each card's mask's bits."""
    counts, lanes = _zero_counts(n), len(decks) // n
    every_lane = (1 << lanes) - 1
    for p in range(n):
        planes = planes_from_lane_bytes(decks[p::n], 1, planes_per_card(n))
        for card, mask in enumerate(value_masks(planes, n, every_lane)):
            counts[card][p] += mask.bit_count()
    return counts


def count_bit_sliced(columns: list, n: int, lanes: int) -> list[list[int]]:
    """Return the counts of a bit-sliced block as the tally counts it (fixed points included, then left out here)."""
    counts, fixed = _zero_counts(n), [0] * (n + 1)
    count_lanes(columns, 0, lanes, counts, fixed)
    return counts


def counting_section(repeats: int, quick: bool) -> dict:
    """Compare ways of counting card x position for one batch of decks, in turns; print and return us/deck."""
    n, lanes = DECK, 4096 if quick else 16384
    columns = make_block(fisher_yates_block, n, lanes, FastLaneSource(FastRng(5)))
    decks = decks_from_columns(columns, lanes)
    sample = decks[: n * 1024]  # the per-card Python loop is too slow for the whole batch
    techniques = {
        "Python loop over every card": (lambda: count_card_by_card(sample, n), len(sample) // n),
        "bytes.count per column and card": (lambda: count_with_bytes_count(decks, n), lanes),
        "Counter per column": (lambda: count_with_counter(decks, n), lanes),
        "bytes -> bit planes, popcount": (lambda: count_with_planes(decks, n), lanes),
        "bit-sliced block, popcount (tally)": (lambda: count_bit_sliced(columns, n, lanes), lanes),
    }
    expected = count_with_bytes_count(decks, n)
    assert count_with_counter(decks, n) == count_with_planes(decks, n) == count_bit_sliced(columns, n, lanes) == expected
    per_deck = interleaved_medians(
        {name: (lambda f=f, k=k: seconds_per_call(f, 1) / k) for name, (f, k) in techniques.items()},
        repeats,
    )
    baseline = per_deck["bytes.count per column and card"]
    rows = [[name, f"{s * 1e6:.3f}", f"{baseline / s:.2f}x"] for name, s in per_deck.items()]
    print_table(f"Counting a {n}x{n} tally of {lanes:,} decks kept as bytes; last row: kept bit-sliced, "
                f"as the tally does, fixed points included (median of {repeats})",
                ["technique", "us/deck", "speed vs bytes.count"], rows)
    return {name: s * 1e6 for name, s in per_deck.items()}


def target_rows(figures: dict) -> list[dict]:
    """Return the rows of the targets table for one shuffle of a million cards and the instructions per shuffle."""
    seconds = figures["shuffle"]["seconds_1e6_cards"]["fisher_yates + FastRng"]
    rows = [target_row("one_million_cards", f"{BIG_DECK:,} cards, `fisher_yates` + `FastRng`, CPython",
                       f"{seconds:.2f} s", f"under {ONE_MILLION_TARGET_SECONDS:g} s",
                       seconds < ONE_MILLION_TARGET_SECONDS)]
    instructions = figures.get("instructions") or {}
    if instructions:
        ours, theirs = instructions["fisher_yates + FastRng"], instructions["random.Random().shuffle"]
        rows.insert(0, target_row("instructions", f"{DECK} cards, instructions: `fisher_yates` + `FastRng` vs "
                                  "`random.Random().shuffle`", f"{round(ours, -2):,.0f} vs {round(theirs, -2):,.0f} "
                                  f"({ours / theirs:.2f}×)", "no more than `random.shuffle`", ours <= theirs))
    return rows
