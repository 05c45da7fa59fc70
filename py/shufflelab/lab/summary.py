"""What the bias lab shows about a tally: one verdict sentence, the figures, the fixed-point bars."""

from collections.abc import Sequence

from ..errors import sentence_start
from ..stats.fixed_points import BARS as FIXED_POINT_BARS
from ..stats.fixed_points import fixed_point_report
from ..stats.positions import position_report
from ..stats.verdicts import LEVELS, format_p


def summarize(tally: Sequence[Sequence[int]], fixed_points: Sequence[int],
              exact_matrix: Sequence[Sequence[float]] | None = None, model_gap: str = "") -> dict:
    """Return the lab's verdict, its figures and the fixed-point bars, as plain data.

    The verdict is the stronger of the position test and the fixed-point test; each has
    the 1e-9 threshold, so by the union bound their false-alarm rate at most doubles.
    """
    positions = position_report(tally, exact_matrix, model_gap)
    fixed = fixed_point_report(fixed_points)
    strongest = max((positions["verdict"], fixed["verdict"]), key=lambda v: _strength(v["level"]))
    if positions["verdict"]["level"] == "too-few" and strongest["level"] != "biased":
        strongest = positions["verdict"]  # say nothing until the position test can speak
    return {
        "verdict": strongest["level"],
        "sentence": _sentence(strongest["text"]),
        "figures": _figures(positions, fixed),
        "fixed_points": _fixed_point_bars(fixed),
        "heat_summary": heat_summary(tally),
    }


def heat_summary(tally: Sequence[Sequence[int]]) -> str:
    """Return the heat map in words: its most over- and under-represented cells against uniform."""
    n = len(tally)
    trials = sum(tally[0]) if n else 0
    if not trials:
        return "Nothing counted yet: every cell is grey."
    cells = [(count * n / trials, card, position) for card, row in enumerate(tally) for position, count in enumerate(row)]
    high, low = max(cells), min(cells)
    return ("Most over-represented: card %d at position %d, %.2f× as often as uniform. "
            "Most under-represented: card %d at position %d, %.2f× as often as uniform." % (
                high[1], high[2], high[0], low[1], low[2], low[0]))


def _strength(level: str) -> int:
    return LEVELS.index(level)


def _figures(positions: dict, fixed: dict) -> list[tuple[str, str]]:
    uniform = positions["uniform"]
    figures = [
        ("Shuffles", f"{positions['trials']:,}"),
        ("χ² against uniform", f"{uniform['statistic']:,.1f} on {uniform['df']:,} degrees of freedom"),
        ("p-value against uniform", format_p(uniform["p_value"], uniform["log10_p_value"]).lstrip("= ")),
    ]
    deviation = positions["deviation"]
    if deviation:
        figures.append(("Largest deviation from uniform",
                        f"{deviation['percent']:.1f}% (card {deviation['card']} at position {deviation['position']})"))
    if "exact" in positions:
        exact = positions["exact"]
        figures.append(("p-value against the exact matrix",
                        format_p(exact["p_value"], exact["log10_p_value"]).lstrip("= ")))
        figures.append(("Against the exact matrix", positions["exact_verdict"]["text"]))
    figures.append(("p-value of the fixed points", format_p(fixed["p_value"], fixed["log10_p_value"]).lstrip("= ")))
    return figures


def _fixed_point_bars(fixed: dict) -> dict:
    """Shares of shuffles with k fixed points, observed and fair, the tail in one bar."""
    trials = fixed["trials"]
    last = FIXED_POINT_BARS - 1
    observed = [count / trials if trials else 0.0 for count in fixed["observed"]]
    expected = fixed["probabilities"]
    labels = [str(k) for k in range(min(last, len(observed)))]
    bars_observed, bars_expected = observed[:last], expected[:last]
    if len(observed) > last:
        labels.append(f"{last}+")
        bars_observed.append(sum(observed[last:]))
        bars_expected.append(sum(expected[last:]))
    return {
        "labels": labels,
        "observed": bars_observed,
        "expected": bars_expected,
        "sentence": fixed["explanation"] + " " + _sentence(fixed["verdict"]["text"]),
    }


def _sentence(text: str) -> str:
    """Return a verdict's text as a sentence: first letter capital, a full stop at the end."""
    return sentence_start(text) + "."
