"""What the bias lab shows about a tally: one plain verdict sentence, the figures behind it, the fixed-point bars.

The plain sentence (``sentence``) says what was found in words a player reads at a glance
("Biased: A♣ ends up on top 36% more often than a perfect shuffle would, more than chance
can explain."), naming cards and places as a player does (``words``); ``detail`` is the test's own sentence, with its p-value and
threshold, and ``figures`` every statistic. The page shows the sentence first and the rest
one click away; ``tally`` and ``audit`` print them in the same order (``report``).
"""

import math
from collections.abc import Sequence

from ..errors import sentence_start
from ..stats.fixed_points import BARS as FIXED_POINT_BARS
from ..stats.fixed_points import fixed_point_report
from ..stats.positions import position_report
from ..stats.verdicts import LEVELS, format_p
from .words import lab_card, odds_words, place_words


def summarize(tally: Sequence[Sequence[int]], fixed_points: Sequence[int],
              exact_matrix: Sequence[Sequence[float]] | None = None, model_gap: str = "", drew: bool = True) -> dict:
    """Return the lab's verdict, its figures and the fixed-point bars, as plain data.

    The verdict is the stronger of the position test and the fixed-point test; each has
    the 1e-9 threshold, so by the union bound their false-alarm rate at most doubles.
    A shuffle that never drew from rng (``drew`` false: the user's) is told so in the sentence, before any figure.
    """
    positions = position_report(tally, exact_matrix, model_gap)
    fixed = fixed_point_report(fixed_points)
    strongest = max((positions["verdict"], fixed["verdict"]), key=lambda v: _strength(v["level"]))
    if positions["verdict"]["level"] == "too-few" and strongest["level"] != "biased":
        strongest = positions["verdict"]  # say nothing until the position test can speak
    return {
        "verdict": strongest["level"],
        "sentence": plain_sentence(strongest, positions, fixed) if drew or not positions["trials"] else
        never_drew_sentence(strongest["level"], tally),
        "detail": _sentence(strongest["text"]),
        "figures": _figures(positions, fixed),
        "fixed_points": _fixed_point_bars(fixed),
        "heat_summary": heat_summary(tally),
    }


def plain_sentence(strongest: dict, positions: dict, fixed: dict) -> str:
    """Return the verdict as one plain sentence: what was found, in words, with no statistics.

    ``strongest`` is the verdict given (the position test's or the fixed points'); a finding
    names the cell farthest from uniform, or how often cards stay in place, whichever test spoke.
    """
    level, trials = strongest["level"], positions["trials"]
    if level == "too-few":
        return (f"Too early to tell: {trials:,} of the {positions['minimum_trials']:,} shuffles needed "
                f"for a verdict so far.")
    if level == "no-bias":
        if positions["cards"] < 2:
            return "Fair: a deck of one card cannot be biased."
        return f"Fair so far: after {trials:,} shuffles, nothing tells it apart from a perfect shuffle."
    if strongest is fixed["verdict"] and strongest is not positions["verdict"]:
        finding, certain = _fixed_point_finding(fixed)
    else:
        finding, certain = _cell_finding(positions["deviation"], positions["cards"], trials)
    if level == "biased":
        return f"Biased: {finding}{'' if certain else ', more than chance can explain'}."
    odds = _odds_of(fixed if strongest is fixed["verdict"] else positions.get("uniform"))
    return f"Suspicious: {finding}{odds}; not yet enough to call it biased, so keep shuffling."


def _odds_of(test) -> str:
    """Say a test's p-value as odds a player reads ('; a perfect shuffle looks this far off about 1 in 12 thousand
    times'), or nothing when the test gives none (the raw p-value stays with the figures)."""
    if not test or test.get("p_value") is None:
        return ""
    p_value, log10_p = test["p_value"], test.get("log10_p_value")
    exponent = -math.log10(p_value) if p_value > 0 else (-log10_p if log10_p is not None else None)
    if exponent is None or not math.isfinite(exponent) or exponent <= 0:
        return ""
    return "; a perfect shuffle looks this far off " + odds_words(exponent) + " times"


def never_drew_sentence(level: str, tally: Sequence[Sequence[int]]) -> str:
    """Say plainly that the user's shuffle never called rng: the same order every time when the counts show it, else
    orders from something the lab cannot replay; the verdict's word stays first."""
    lead = {"biased": "Biased:", "suspicious": "Suspicious:", "no-bias": "Looks fair, but"}.get(level, "Too early to tell:")
    trials = sum(tally[0]) if tally else 0
    if all(trials in row for row in tally):
        return lead + " your shuffle never called rng, so it gives the same order every time."
    return (lead + " your shuffle never called rng, so its orders come from something the lab cannot replay or walk; "
            "draw from rng.below(m) or rng.random() instead.")


def _cell_finding(deviation: dict, n: int, trials: int) -> tuple[str, bool]:
    """Say how often the cell farthest from uniform was hit against a perfect shuffle, and whether that alone is
    proof (a cell never hit in shuffles enough to expect it many times)."""
    card, place = lab_card(deviation["card"], n), place_words(deviation["position"], n)
    observed = deviation["observed"]
    if observed == 0:
        return (f"{card} never ended up {place} in {trials:,} shuffles, where a perfect shuffle puts it there "
                f"1 time in {n}"), True
    return f"{card} ends up {place} {how_often(observed / deviation['expected'])} a perfect shuffle would", False


def how_often(ratio: float) -> str:
    """Compare a ratio of observed to expected in words, up to the word before the perfect shuffle: '36% more often
    than', '2.5 times as often as', '12% less often than'."""
    if ratio >= 2:
        return (f"{ratio:.1f}" if ratio < 10 else f"{ratio:.0f}") + " times as often as"
    change = abs(ratio - 1) * 100
    shown = f"{change:.0f}%" if change >= 1 else f"{change:.1f}%"
    return f"{shown} {'more' if ratio > 1 else 'less'} often than"


def _fixed_point_finding(fixed: dict) -> tuple[str, bool]:
    """Say how the number of cards left in place differs from a perfect shuffle's, and whether that alone is proof."""
    trials, observed = fixed["trials"], fixed["observed"]
    if trials and observed[0] == trials and len(observed) > 1:
        return (f"none of its {trials:,} shuffles left a card in place, while a perfect shuffle leaves at least "
                f"one in place {1 - fixed['probabilities'][0]:.0%} of the time"), True
    mean = fixed["mean_observed"] or 0.0
    if abs(mean - 1) < 0.01:
        return "how many cards it leaves where they started differs from a perfect shuffle", False
    return (f"it leaves {mean:.2f} cards where they started per shuffle on average, where a perfect shuffle "
            f"leaves 1"), False


def heat_summary(tally: Sequence[Sequence[int]]) -> str:
    """Return the heat map in words: its most over- and under-represented cells against uniform."""
    n = len(tally)
    trials = sum(tally[0]) if n else 0
    if not trials:
        return "Nothing counted yet: every cell is grey."
    cells = [(count * n / trials, card, position) for card, row in enumerate(tally) for position, count in enumerate(row)]
    high, low = max(cells), min(cells)
    return "Most over-represented: %s. Most under-represented: %s." % (_cell_words(high, n), _cell_words(low, n))


def _cell_words(cell: tuple, n: int) -> str:
    """Say a heat-map cell (ratio to uniform, card, position) in a player's words, with its ratio."""
    ratio, card, position = cell
    return "%s %s, %.2f× as often as uniform" % (lab_card(card, n), place_words(position, n), ratio)


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
