"""The suite's shared means: cases measured in turns, their medians, a plain text table, the verdict words.

This machine is noisy: every figure is the median of ``--repeats`` measurements, and the cases of a section take
turns (each going first every other turn), so a busy moment hits them all alike.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import TypeVar

DECK = 52
MB = 1_000_000
FULL_RUN_REPEATS = 5  # a run with fewer (or --quick) is only a look: it writes no figures to docs/

Side = TypeVar("Side")
Result = TypeVar("Result")


def in_turns(sides: dict[str, Side], repeats: int, measure: Callable[[str, Side], Result]) -> dict[str, list[Result]]:
    """Return ``repeats`` results of ``measure(label, side)`` per side, the sides taking turns.

    Each side goes first every other turn, so a busy moment hits them all alike.
    """
    results: dict[str, list[Result]] = {label: [] for label in sides}
    for turn in range(repeats):
        order = list(sides.items())
        for label, side in (order if turn % 2 == 0 else order[::-1]):
            results[label].append(measure(label, side))
    return results


def interleaved_medians(cases: dict[str, Callable[[], float]], repeats: int) -> dict[str, float]:
    """Return each case's median result over ``repeats`` turns (in_turns)."""
    results = in_turns(cases, repeats, lambda _, measure: measure())
    return {name: statistics.median(values) for name, values in results.items()}


def seconds_per_call(action: Callable[[], object], calls: int) -> float:
    """Return the mean wall time of ``action`` over ``calls`` back-to-back calls."""
    started = time.perf_counter()
    for _ in range(calls):
        action()
    return (time.perf_counter() - started) / calls


def _aligned(cells: list, widths: list[int]) -> str:
    """Return one table line: the first cell left-aligned, the others right-aligned."""
    return "  ".join(f"{cell:<{w}}" if k == 0 else f"{cell:>{w}}" for k, (cell, w) in enumerate(zip(cells, widths)))


def print_table(title: str, header: list[str], rows: list[list[str]]) -> None:
    """Print a plain aligned text table under ``title`` (first column left, the others right)."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    print(f"\n{title}")
    line = _aligned(header, widths)
    print(line)
    print("-" * len(line))
    for row in rows:
        print(_aligned(row, widths))


def verdict(meets: bool | None) -> str:
    """Return the word a table gives a figure against its target: meets, MISSES, or a dash (no target)."""
    return "—" if meets is None else "meets" if meets else "MISSES"


def print_errors(label: str, errors: list[str]) -> None:
    """Print the distinct console errors a section's pages logged (there should be none)."""
    for error in dict.fromkeys(errors):
        print(f"  {label}: console error: {error[:300]}")


def spread(values: list[float], unit: str = " s") -> str:
    """Return 'lowest–highest' of some runs, one decimal, then ``unit``."""
    return f"{min(values):.1f}–{max(values):.1f}{unit}"


def is_full_run(repeats: int, quick: bool) -> bool:
    """Return whether a run's figures may replace the docs' (enough repeats, not --quick)."""
    return repeats >= FULL_RUN_REPEATS and not quick


def target_row(key: str, what: str, figure: str, target: str = "—", met: bool | None = None) -> dict:
    """Return one row of docs/targets.json: a figure without a target has target "—" and met None."""
    return {"key": key, "what": what, "figure": figure, "target": target, "met": met}
