"""What the tally tests share: scripted lane sources, blocks read back as decks, counts done the slow way."""

import itertools
import math

from shufflelab import catalog
from shufflelab.tally.bitslice import decks_from_columns

from ..scripted import ScriptedRng

# the catalog entries whose tally runs a bit-sliced kernel
KERNEL_IDS = [entry.id for entry in catalog.entries() if entry.kernel is not None]
# the most paths a test replays one by one through the port (naive-pairs on 3 cards: 3^6)
MAX_PATHS = 729


def planes_of(values, width):
    """Return ``width`` planes holding ``values[l]`` in lane ``l``."""
    return [sum((v >> q & 1) << lane for lane, v in enumerate(values)) for q in range(width)]


def read_lanes(planes, lanes):
    """Return the value each lane holds in ``planes``."""
    return [sum((plane >> lane & 1) << q for q, plane in enumerate(planes)) for lane in range(lanes)]


class ScriptedLanes:
    """A lane source that answers ``bits`` and ``below`` from scripts, checking sizes."""

    def __init__(self, planes, belows=()):
        self.planes = list(planes)
        self.belows = list(belows)
        self.used_planes = 0
        self.used_belows = 0

    def bits(self, count):
        plane = self.planes[self.used_planes]
        assert 0 <= plane < 1 << count
        self.used_planes += 1
        return plane

    def below(self, m):
        answer = self.belows[self.used_belows]
        assert 0 <= answer < m
        self.used_belows += 1
        return answer

    @property
    def exhausted(self):
        return self.used_planes == len(self.planes) and self.used_belows == len(self.belows)


class BoundsRng(ScriptedRng):
    """Answers every ``below`` with 0 and records the bounds, in the order the port asks them."""

    def __init__(self):
        super().__init__([])
        self.bounds = []

    def below(self, m):
        assert m >= 1
        self.bounds.append(m)
        return 0


def port_bounds(algorithm_id, n):
    """Return the bounds the port draws below on n cards (the swap ports' bounds never depend on the answers)."""
    rng = BoundsRng()
    catalog.get(algorithm_id).shuffled(range(n), rng)
    return rng.bounds


def path_sizes(algorithm_id, most=5, max_paths=MAX_PATHS):
    """Return the deck sizes 2..most whose every path (at most max_paths) can be replayed through the port."""
    return [n for n in range(2, most + 1) if math.prod(port_bounds(algorithm_id, n)) <= max_paths]


def script_choices(bounds, paths):
    """Return the planes a kernel draws when lane ``l`` must choose ``paths[l][t]`` at step t."""
    planes = []
    for t, m in enumerate(bounds):
        planes += planes_of([path[t] for path in paths], (m - 1).bit_length())
    return planes


def decks(columns, lanes):
    """Return the block as a list of decks (lists of card ids)."""
    data = decks_from_columns(columns, lanes)
    n = len(columns)
    return [list(data[k : k + n]) for k in range(0, len(data), n)]


def exact_matrix(algorithm_id, n, bounds):
    """Return P[card][position] for the port, over every equally likely path."""
    counts = [[0] * n for _ in range(n)]
    paths = list(itertools.product(*(range(m) for m in bounds)))
    for path in paths:
        order = catalog.get(algorithm_id).shuffled(range(n), ScriptedRng(path))
        for position, card in enumerate(order):
            counts[card][position] += 1
    return [[c / len(paths) for c in row] for row in counts]


def naive_counts(deck_list, n):
    """Return (counts[card][position], fixed-point histogram) of decks, one at a time."""
    counts = [[0] * n for _ in range(n)]
    fixed = [0] * (n + 1)
    for deck in deck_list:
        for position, card in enumerate(deck):
            counts[card][position] += 1
        fixed[sum(card == position for position, card in enumerate(deck))] += 1
    return counts, fixed
