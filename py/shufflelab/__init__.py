"""Shuffle Lab: shuffle, deal and measure card-shuffling algorithms, in CPython and Pyodide."""

__version__ = "0.1.0"
