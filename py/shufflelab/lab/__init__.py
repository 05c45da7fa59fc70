"""The bias lab: the worker's service, its protocol, the summary text and the heat-map colours.

This ``__init__`` imports nothing: ``protocol`` is part of the portable core that the
page (MicroPython) imports, while the rest needs CPython or Pyodide.
"""
