"""The bias tally: how often card ``i`` ends at position ``j``, over many shuffles, fast without numpy.

``tally.py`` is the count itself; ``kernels.py`` runs the swap algorithms on 65,536
decks at once by bit-slicing (``bitslice.py``); ``makers.py`` makes riffle and
random-comparator decks in bulk; ``counting.py`` adds decks to the counts;
``fast_rng.py`` is the source of randomness, and ``stream_v1.py`` writes down the
Mersenne Twister a seeded tally draws from; ``riffle.py`` measures riffle distances;
``parallel.py`` splits a seeded tally across processes with the same counts (the CLI's
``tally --workers``).
Which path an algorithm takes is in its catalog entry (``kernel``, ``deck_maker``, or
neither: its port once per deck). CPython and Pyodide only.
"""

from .fast_rng import FastRng
from .riffle import MAX_MEASURED_RIFFLE_CARDS, measured_riffle_tv
from .tally import MAX_CARDS, MIN_CARDS, Tally, check_card_count

__all__ = ["MAX_CARDS", "MAX_MEASURED_RIFFLE_CARDS", "MIN_CARDS", "FastRng", "Tally", "check_card_count",
           "measured_riffle_tv"]
