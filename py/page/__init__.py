"""The page's main-thread glue, run by MicroPython: read inputs, call shufflelab, render.

Thin on purpose: the state is one ``shufflelab.link.Link``, the URL is its serialisation
and the form only mirrors it. Nothing here decides a card. Every text that came from a
user or a URL is set as ``textContent``, never as HTML.
"""
