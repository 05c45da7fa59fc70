"""The bias lab: the worker's service, its protocol, the summary text, the heat-map colours, the words
the page and the command line share, and the command line's tally counted to a total (``counts``).

This ``__init__`` imports nothing: ``protocol`` and ``words`` are part of the portable core
that the page (MicroPython) imports, while the rest needs CPython or Pyodide.
"""
