"""The tally: how often card ``i`` ends at position ``j``, and how many cards stay put, over many shuffles.

Reproducible whatever the batch sizes: the kernels make whole blocks of a fixed size (a
function of ``n``) and ``run`` counts the next lanes of the current block, so
``run(1000); run(2000)`` counts exactly what ``run(3000)`` does. While it counts, the
next block is made a few steps at a time, so runs of equal size take about equal time
(only the very first run makes a whole block: about 0.04 s for 52 cards in CPython).
"""

from .. import catalog
from ..errors import ShuffleLabError
from .bitslice import Columns, FastLaneSource
from .counting import count_decks, count_lanes
from .fast_rng import FastRng
from .kernels import BlockInProgress, lanes_for

MIN_CARDS = 2
MAX_CARDS = 255  # one byte per card in the bulk paths


def check_card_count(n: int) -> int:
    """Return ``n`` if the tally can count decks of that size, else raise ShuffleLabError."""
    if isinstance(n, bool) or not isinstance(n, int) or not MIN_CARDS <= n <= MAX_CARDS:
        raise ShuffleLabError(f"the tally counts decks of {MIN_CARDS} to {MAX_CARDS} cards, not {n!r}")
    return n


class Tally:
    """An ``n`` x ``n`` count of card (row) by position (column) for one algorithm."""

    def __init__(
        self,
        algo_id: str,
        n: int,
        params: dict | None = None,
        seed: int | str | None = None,
    ) -> None:
        self.algorithm = catalog.get(algo_id)
        self.n = check_card_count(n)
        self.params = self.algorithm.resolve_params(params)
        self.seed = seed
        self.kernel = self.algorithm.resolve("kernel")
        self.deck_maker = self.algorithm.resolve("deck_maker")
        self.lanes = lanes_for(n) if self.kernel else 0
        self.reset()

    @property
    def algo(self) -> str:
        """The catalog id of the algorithm being counted."""
        return self.algorithm.id

    def reset(self) -> None:
        """Zero the counts and restart the random stream (the same one again when seeded)."""
        self.counts = [[0] * self.n for _ in range(self.n)]
        self.trials = 0
        self.fixed_points = [0] * (self.n + 1)
        self._rng = FastRng(self.seed)
        self._source = FastLaneSource(self._rng)
        if self.kernel:
            self._block: Columns = []
            self._next_lane = self.lanes  # no lanes left: the first run makes a block
            self._upcoming = BlockInProgress(self.kernel, self.n, self.lanes, self._source)

    def run(self, batch_size: int) -> None:
        """Shuffle ``batch_size`` fresh decks ``0..n-1`` and add them to the counts."""
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 0:
            raise ShuffleLabError(f"batch_size must be a whole number >= 0, not {batch_size!r}")
        if self.kernel:
            self._run_kernel(batch_size)
        else:
            self._run_port(batch_size)
        self.trials += batch_size

    def _run_kernel(self, batch_size: int) -> None:
        remaining = batch_size
        while remaining:
            if self._next_lane == self.lanes:
                self._block = self._upcoming.finish()
                self._upcoming = BlockInProgress(self.kernel, self.n, self.lanes, self._source)
                self._next_lane = 0
            width = min(remaining, self.lanes - self._next_lane)
            count_lanes(self._block, self._next_lane, width, self.counts, self.fixed_points,
                        by_card=self.kernel.by_card)
            self._next_lane += width
            remaining -= width
            # make the next block in step with counting this one, so runs of equal size
            # take about equal time (a kernel has at most steps_per_card * n steps)
            self._upcoming.advance(-(-self.kernel.steps_per_card * self.n * width // self.lanes))

    def _run_port(self, batch_size: int) -> None:
        if self.deck_maker is not None:
            count_decks(self.deck_maker(self.n, self.params, self._rng, batch_size), self.n, self.counts, self.fixed_points)
            return
        run, params, rng = self.algorithm.port, self.params, self._rng
        deck = list(range(self.n))
        decks = bytearray()
        for _ in range(batch_size):
            decks += bytes(run(deck, rng, **params))
        count_decks(bytes(decks), self.n, self.counts, self.fixed_points)

    def snapshot(self) -> dict:
        """Return the tally as plain data: lists and ints a worker can post as they are."""
        return {
            "algo": self.algo,
            "n": self.n,
            "params": dict(self.params),
            "seed": self.seed,
            "trials": self.trials,
            "counts": [list(row) for row in self.counts],
            "fixed_points": list(self.fixed_points),
        }
