"""The bias lab's Web Worker (Pyodide): the lab service's functions, exported to the page.

Everything it does lives in ``shufflelab.lab.service`` (tested in CPython); the page
awaits these functions with JSON text in and out (``shufflelab.lab.protocol``).
"""

from shufflelab.lab.service import configure, exact_step, riffle, run_for, snapshot  # noqa: F401 (exported)

__export__ = ["configure", "exact_step", "run_for", "snapshot", "riffle"]
