"""shufflelab.lab.counts: a lab session's tally counted to a total, the counts those of one Tally for its seed."""

import contextlib

import pytest

from shufflelab.lab.counts import count_to, processes_for
from shufflelab.lab.protocol import TallyConfig
from shufflelab.lab.service import Session
from shufflelab.tally import Tally


def one_tally(algo, n, seed, trials):
    tally = Tally(algo, n, None, seed)
    tally.run(trials)
    return tally.counts, tally.fixed_points


def test_processes_are_the_workers_asked_for_only_where_a_split_keeps_the_counts():
    assert processes_for("fisher-yates", 3) == 3 and processes_for("fisher-yates", 1) == 1
    assert processes_for("random-comparator", 3) == 1  # its merge sort decides what to draw from what it drew


@pytest.mark.parametrize("processes", [1, 2])
def test_the_counts_are_one_tallys_in_one_process_or_split(processes):
    session = Session(TallyConfig("fisher-yates", [], 6, "c", None), in_process=True)
    heard = []
    counts = count_to(session, 5000, processes, 0.0, show=lambda done, *_: heard.append(done))
    assert counts == one_tally("fisher-yates", 6, "c", 5000)
    assert heard and heard[-1] == 5000 and heard == sorted(heard)


def test_in_one_process_each_chunk_runs_under_the_limit():
    session = Session(TallyConfig("random-comparator", [], 5, "c", None), in_process=True)
    entered = []

    def limit():
        entered.append(session.tally.trials)
        return contextlib.nullcontext()

    assert count_to(session, 300, 1, 0.0, limit) == one_tally("random-comparator", 5, "c", 300)
    assert entered[0] == 0 and entered == sorted(set(entered))  # one limit a chunk, each entered before it ran
