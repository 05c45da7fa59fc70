"""The one clock that paced work reads: the lab's steps and chunks, a walk's progress, the command line's redraws.

Paced work does as much as fits in a budget of seconds, so how much it does depends on the
machine. Tests put a clock of their own in ``now``'s place (``tests/unit/conftest.py``'s
``ticking_clock``), so what they check is the same on a quiet fast machine and a loaded slow one.
CPython and Pyodide only.
"""

import time


def now() -> float:
    """Return seconds since an arbitrary start, never going backwards."""
    return time.perf_counter()
