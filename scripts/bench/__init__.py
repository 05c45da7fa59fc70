"""Shuffle Lab's benchmark suite: figures printed side by side from one run (not a timed test).

One module per area, each a few sections (a section measures, prints its table and returns its figures):

  measure       the shared means: medians of cases taking turns, a plain text table, the verdict words
  browser       the site on a free port, bare Pyodide pages, Chromium, a cold load's figures
  baseline      an older tree beside this one: the one baseline kept as a target, and any tree for a look
  shuffle       CPython: one shuffle of 52 and of 1,000,000 cards, instructions under callgrind, counting
  tally         CPython: tally throughput for every catalog algorithm
  command_line  `tally --workers 1 / 2` and `audit` of a million orders, as a user runs them
  alarms        the verdicts' false alarms: the docs' pinned run beside a fresh one
  pages         in Chromium: a shared link's first deal, cold and throttled; cut-insert's deal
  lab           the lab's tally and exact matrix in Pyodide, the page's live tally, plain JavaScript
  speed         Fisher-Yates's tally in Pyodide against 500,000/s (``--speed``; docs/speed.json)
  exact         riffle-physical's exact 52-card matrix in Pyodide against 5 s (``--physical``; docs/physical.json)
  sandbox       Run -> first verdict: beside the lab's own worker (the kept baseline), and one Run, one sandbox
  lab_start     tap "Bias lab" -> Start enabled on the phone profile (docs/lab_start.json)
  targets       every target, its latest figure and whether it is met: docs/targets.json, the docs' table
  runner        the command line: which sections run, and what a full run writes
  answers       how long trusted code takes to read a hostile sandbox's answer (alone, CPython or Pyodide)

    .venv/bin/python scripts/bench [--quick] [--repeats N] [--cpython-only] [--baseline REV|none]
                                   [--json PATH] [--speed] [--physical] [--only SECTION]
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for _folder in (ROOT / "py", ROOT / "scripts"):  # shufflelab; serve and false_alarms beside this package
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))
