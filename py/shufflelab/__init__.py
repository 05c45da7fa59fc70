"""Shuffle Lab: shuffle, deal and measure card-shuffling algorithms.

Two kinds of module live here:

* **The portable core** (``errors``, ``cards``, ``rng``, ``algorithms``, ``catalog``,
  ``deal``, ``urlquery``, ``link``, ``seal``, ``lab.protocol``, ``lab.words``) runs unchanged on CPython ≥ 3.11,
  Pyodide and MicroPython, and gives the same cards on each: the page's main thread runs
  it on MicroPython (0.5 MB, so a shared link deals in about a second), the CLI on
  CPython. So it uses only what all three have: plain classes instead of dataclasses, no
  ``typing`` or ``fractions``, no reliance on dict order or on ``sorted`` being stable,
  HMAC built on ``hashlib.sha256``. ``tests/portable`` runs its golden vectors on
  MicroPython in Node.
* **The analysis** (``exact``, ``tally``, ``stats``, ``lab.service``, ``lab.summary``,
  ``lab.heatmap``) needs CPython or Pyodide (fractions, big-integer speed, dataclasses);
  the bias lab runs it in a Pyodide Web Worker.
"""

__version__ = "0.2.0"
