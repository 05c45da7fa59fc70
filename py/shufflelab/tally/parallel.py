"""A seeded tally split across processes, whose counts are exactly those of one ``Tally`` (tally stream v1).

The stream is one Mersenne Twister consumed in a fixed order, and how much of it a block
takes depends on the values drawn (rejection), so it cannot be cut into independent
pieces. What a block draws never depends on its decks, though. So this process draws:
it takes every random number from the one stream, in order, chunk after chunk (a kernel's
``draw`` half, or riffle-gsr's labels), and hands each chunk's numbers to a worker
process, which makes the decks from them and counts them. Counts are whole numbers added
up, so the order in which workers finish changes nothing.

Drawing is the part that does not split: a 52-card Fisher–Yates block of 65,536 decks
draws in about a third of the time it takes to make and count it, so the speed-up is at
most about 3× however many workers there are. Only the tallies whose draws can be taken
apart from their work split (``can_split``): the bit-sliced kernels and riffle-gsr. A
port (and random-comparator's merge sort) decides what to draw next from what it drew and
did, so it runs in one process. CPython only (the command line's ``tally --workers``).
"""

import signal
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

from .. import catalog
from .bitslice import FastLaneSource
from .counting import count_decks, count_lanes
from .fast_rng import FastRng
from .kernels import Kernel, lanes_for
from .makers import SplitMaker
from .tally import check_card_count

DECKS_PER_MAKER_CHUNK = 16_384  # riffle-gsr: 52 cards are 0.85 MB of labels a chunk, about 0.2 s of work
CHUNKS_IN_FLIGHT_PER_WORKER = 2  # enough to keep every worker busy; a drawn 52-card block is about 2 MB


def can_split(algo_id: str) -> bool:
    """True when the algorithm's tally can be drawn here and made elsewhere with the same counts."""
    entry = catalog.get(algo_id)
    return isinstance(entry.resolve("kernel"), Kernel) or isinstance(entry.resolve("deck_maker"), SplitMaker)


def split_counts(algo_id: str, n: int, params: dict | None, seed: int | str | None, trials: int, workers: int,
                 progress: Callable[[int, list, list], None] | None = None) -> tuple[list[list[int]], list[int]]:
    """Return (counts, fixed points) of ``trials`` shuffles: those ``Tally(algo_id, n, params, seed).run(trials)`` gives.

    ``workers`` processes make and count the decks; ``progress(shuffles, counts, fixed
    points)`` is called with the totals so far each time a chunk is counted.
    """
    entry = catalog.get(algo_id)
    n = check_card_count(n)
    params = entry.resolve_params(params)
    if not can_split(entry.id):
        raise ValueError(f"{entry.id}'s tally draws as it shuffles: it cannot be split")
    counts = [[0] * n for _ in range(n)]
    fixed_points = [0] * (n + 1)
    done = 0
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_leave_ctrl_c_to_the_parent)
    try:
        pending = set()
        for width, drawn in _drawn_chunks(entry, n, params, seed, trials):
            pending.add(pool.submit(make_and_count, entry.id, n, params, drawn, width))
            while len(pending) >= CHUNKS_IN_FLIGHT_PER_WORKER * workers:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                done = _add_up(finished, counts, fixed_points, done, progress)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            done = _add_up(finished, counts, fixed_points, done, progress)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)  # Ctrl-C or a bug: leave the chunks still queued undone
        raise
    pool.shutdown()
    return counts, fixed_points


def _leave_ctrl_c_to_the_parent() -> None:
    """Ignore SIGINT in a worker: Ctrl-C reaches the whole process group, and the parent alone stops the tally (it
    cancels the chunks still queued); a worker would only add a traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _drawn_chunks(entry: catalog.Algorithm, n: int, params: dict, seed, trials: int):
    """Yield (decks, their draws) chunk after chunk, taking from the seed's one stream exactly what a Tally would."""
    rng = FastRng(seed)
    kernel = entry.resolve("kernel")
    if kernel is not None:
        lanes = lanes_for(n)
        source = FastLaneSource(rng)
        for start in range(0, trials, lanes):
            # a Tally makes whole blocks and counts only the lanes it needs: the last block draws in full too
            yield min(lanes, trials - start), kernel.draws(n, lanes, source)
        return
    maker = entry.resolve("deck_maker")
    for start in range(0, trials, DECKS_PER_MAKER_CHUNK):
        width = min(DECKS_PER_MAKER_CHUNK, trials - start)
        yield width, maker.draw(n, params, rng, width)


def make_and_count(algo_id: str, n: int, params: dict, drawn, width: int) -> tuple[int, list[list[int]], list[int]]:
    """Return (decks, counts, fixed points) of the first ``width`` decks made from one chunk's draws (in a worker)."""
    entry = catalog.get(algo_id)
    counts = [[0] * n for _ in range(n)]
    fixed_points = [0] * (n + 1)
    kernel = entry.resolve("kernel")
    if kernel is not None:
        columns = []
        for columns in kernel.make(n, lanes_for(n), iter(drawn)):  # noqa: B007 (the last yield is the block)
            pass
        count_lanes(columns, 0, width, counts, fixed_points, by_card=kernel.by_card)
    else:
        count_decks(entry.resolve("deck_maker").make(n, params, drawn), n, counts, fixed_points)
    return width, counts, fixed_points


def _add_up(finished, counts: list[list[int]], fixed_points: list[int], done: int, progress) -> int:
    """Add finished chunks to the totals, report progress, and return the shuffles counted so far."""
    for future in finished:
        width, chunk_counts, chunk_fixed = future.result()  # a worker's exception is a bug: it surfaces here
        for row, chunk_row in zip(counts, chunk_counts):
            for position, count in enumerate(chunk_row):
                row[position] += count
        for k, count in enumerate(chunk_fixed):
            fixed_points[k] += count
        done += width
        if progress is not None:
            progress(done, counts, fixed_points)
    return done
