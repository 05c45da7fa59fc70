"""A lab session's tally counted to a set number of shuffles in one go, in this process or split across processes.

The command line's ``tally`` counts this way, through the very ``Session`` the page's lab
runs in its worker, so its counts are the lab's for the same tally seed. The lab itself
never does: it tallies a chunk per call, paced by the page. CPython only: a split tally
runs in processes (``tally.parallel``).
"""

import contextlib

from ..tally.parallel import can_split, split_counts


def processes_for(algo_id: str, workers: int) -> int:
    """Return how many processes can count ``algo_id``'s tally with one process's counts: ``workers``, or 1 when its
    draws cannot be taken apart from its work (``tally.parallel.can_split``)."""
    return workers if workers > 1 and can_split(algo_id) else 1


def count_to(session, total: int, processes: int, chunk_seconds: float, limit=contextlib.nullcontext, show=None) -> tuple:
    """Return (counts, fixed points) of ``total`` shuffles of the session's tally stream: what its tally would count.

    ``processes`` over 1 splits the tally across that many (``processes_for`` says when it
    may); in one process the session's own tally runs in chunks of about ``chunk_seconds``,
    each under ``limit()`` (the time limit of a user's shuffle). ``show(shuffles, counts,
    fixed points)`` hears the totals so far after each chunk.
    """
    if processes > 1:
        return split_counts(session.algo, session.n, session.params, session.tally.seed, total, processes, show)
    while session.tally.trials < total:
        with limit():
            session.run_for(chunk_seconds, up_to=total)
        if show is not None:
            show(session.tally.trials, session.tally.counts, session.tally.fixed_points)
    return session.tally.counts, session.tally.fixed_points
