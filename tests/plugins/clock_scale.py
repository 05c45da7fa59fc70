"""A pytest plugin that runs the tests as if the machine were SHUFFLELAB_CLOCK_SCALE times slower (above 1) or faster
(below 1): ``shufflelab.clock.now`` runs at that rate. ``make check-clock`` runs the suite without a browser at 0.1×
and 10×; a test whose result changes between them decides something by the clock, which no test outside the timing
tier may do: such a test runs on a ticking clock (``tests/unit/conftest.py``) or to a count instead.

A test's own ``ticking_clock`` still wins: it is put in place after this one.
"""

import os
import time

import pytest

from shufflelab import clock

SCALE = float(os.environ.get("SHUFFLELAB_CLOCK_SCALE", "1"))


@pytest.fixture(autouse=True)
def _scaled_clock(monkeypatch):
    """Run ``shufflelab.clock.now`` at SCALE times the real clock's rate for the test."""
    start = time.perf_counter()
    monkeypatch.setattr(clock, "now", lambda: (time.perf_counter() - start) * SCALE)
