"""Fixtures the unit tests share."""

import pytest

from shufflelab import catalog, clock


@pytest.fixture(autouse=True)
def only_built_ins_afterwards():
    """After every test, the catalog holds the built-in algorithms only (what a test registered is gone): a user's
    shuffle compiled by one test (the sandbox's service registers it in this process) never shows in the next one's."""
    yield
    for entry in catalog.entries():
        if not entry.builtin:
            catalog.unregister(entry.id)


class TickingClock:
    """A clock that moves on by ``tick`` seconds each time it is read, whatever the machine is doing.

    Paced work (a step of about 200 ms, a chunk of about a second) then does the same number of
    steps on a quiet fast machine and on a loaded slow one. The default tick, 1/32 s, is exact in
    binary, so sums of ticks compare as they would on paper.
    """

    def __init__(self, tick: float = 2**-5) -> None:
        self.tick, self.time, self.reads = tick, 0.0, 0

    def __call__(self) -> float:
        self.time += self.tick
        self.reads += 1
        return self.time


@pytest.fixture
def ticking_clock(monkeypatch):
    """Put a TickingClock in place of ``shufflelab.clock.now`` for the test; return it (set ``.tick`` to change its pace)."""
    fake = TickingClock()
    monkeypatch.setattr(clock, "now", fake)
    return fake
