"""The bias lab: the worker's service, its protocol, the summary text, the heat-map colours, and the words
the page and the command line share.

This ``__init__`` imports nothing: ``protocol`` and ``words`` are part of the portable core
that the page (MicroPython) imports, while the rest needs CPython or Pyodide.
"""
