"""The lab's verdict on a tally as the command line gives it: plain data for ``--json``, and lines of text.

Both come from ``summary.summarize``, the very function that makes the page's verdict
sentence, figures and fixed-point bars, so ``tally`` and ``audit`` say what the page says
about the same counts. CPython and Pyodide.
"""

from collections.abc import Sequence

from ..stats.positions import position_report
from .heatmap import TEXT_LEGEND, text_heat_map
from .summary import summarize


def verdict_data(counts: Sequence[Sequence[int]], fixed_points: Sequence[int], summary: dict | None = None) -> dict:
    """Return the counts and everything the page shows about them, as JSON-ready data.

    ``summary`` is what the page shows for them (``summarize``, or a lab session's
    ``summary``, which knows its exact matrix); without it, the counts against uniform alone.
    Keys: cards, shuffles, counts (counts[i][j]: card i at position j), fixed_points (k:
    shuffles that left k cards in place), verdict (too-few, no-bias, suspicious or biased),
    sentence (the verdict in plain words), detail (the test's own sentence, p-value and threshold), figures
    ([label, value] pairs), fixed_point_bars, heat_summary, and
    minimum_shuffles (the fewest for which the position test can give a verdict).
    """
    if summary is None:
        summary = summarize(counts, fixed_points)
    return {
        "cards": len(counts),
        "shuffles": sum(fixed_points),
        "counts": [list(row) for row in counts],
        "fixed_points": list(fixed_points),
        "verdict": summary["verdict"],
        "sentence": summary["sentence"],
        "detail": summary.get("detail", ""),
        "figures": [list(figure) for figure in summary["figures"]],
        "fixed_point_bars": summary["fixed_points"],
        "heat_summary": summary["heat_summary"],
        "minimum_shuffles": position_report(counts)["minimum_trials"],
    }


def verdict_lines(data: dict) -> list[str]:
    """Return ``verdict_data`` as text: the verdict and its plain sentence, then (as the page's "The figures") the
    test's own sentence and every figure, the heat map, the fixed points."""
    lines = [f"Verdict: {data['verdict']}", data["sentence"], "", data["detail"]]
    width = max(len(label) for label, _ in data["figures"])
    lines += [f"  {label:<{width}}  {value}" for label, value in data["figures"]]
    lines += [""] + heat_map_lines(data["counts"], data["shuffles"]) + [data["heat_summary"]]
    lines += [""] + fixed_point_lines(data["fixed_point_bars"])
    return lines


def heat_map_lines(counts: Sequence[Sequence[int]], shuffles: int) -> list[str]:
    """Return the heat map of observed ÷ uniform (the page's first view) as text, with its legend."""
    k, rows = text_heat_map(counts, shuffles)
    what = "one character per card (row) and position (column)" if k == 1 else (
        f"one character per block of {k} cards (rows, each labelled with its first card) × {k} positions "
        f"(columns: column c holds positions {k}c to {k}c+{k - 1})")
    return [f"Heat map, observed ÷ uniform: {what}.", *(f"  {line}" for line in TEXT_LEGEND), *rows]


def fixed_point_lines(bars: dict) -> list[str]:
    """Return the fixed-point bars as a table, observed beside fair, and the page's sentence about them."""
    lines = ["Cards left in place   observed      fair"]
    for label, observed, fair in zip(bars["labels"], bars["observed"], bars["expected"]):
        lines.append(f"  {label:<19} {observed:>8.2%}  {fair:>8.2%}")
    return lines + [bars["sentence"]]
