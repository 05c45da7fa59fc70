"""The bias lab's Web Worker (Pyodide): the lab service's functions, exported to the page.

Everything it does lives in ``shufflelab.lab.service`` (tested in CPython); the page
awaits these functions with JSON text in and out (``shufflelab.lab.protocol``). It never
runs a user's code: the sandbox does (``py/sandbox.py``), and the ``adopt_*`` functions read
what the sandbox answered as untrusted data. The one
thing only the worker can do is read Pyodide's memory, which it hands to the service.
"""

import js
import pyodide_js

js.performance.mark("shufflelab:worker-imports")  # the bench's breakdown of the start: Pyodide is up, ours begin

from shufflelab.lab.service import (  # noqa: E402, F401 (exported; after the mark above)
    SERVICE,
    adopt_code,
    adopt_counts,
    adopt_walk,
    best_play,
    configure,
    exact_step,
    guess_begin,
    guess_more,
    riffle,
    run_for,
    snapshot,
)

# Pyodide's WebAssembly memory only grows, so a long run that keeps it flat has no leak
SERVICE.memory_probe = lambda: int(pyodide_js._module.HEAP8.length)

js.performance.mark("shufflelab:worker-imported")

__export__ = ["configure", "exact_step", "run_for", "snapshot", "riffle", "adopt_code", "adopt_counts", "adopt_walk",
              "guess_begin", "guess_more", "best_play"]
