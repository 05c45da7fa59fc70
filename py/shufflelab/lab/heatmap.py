"""Colours for the bias heat map: a diverging, colour-blind-safe scale centred on "as expected".

Every view is turned into one signed score per cell, clamped to [-1, 1]: 0 is white
("as expected"), negative runs to purple (too rare), positive to orange (too common),
ColorBrewer's PuOr, which stays distinguishable with every common colour-vision deficiency.
The result is RGBA bytes, one pixel per cell, row = card, column = position.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

# PuOr (ColorBrewer), from "far too rare" through white to "far too common"
RARE = ((247, 247, 247), (216, 218, 235), (178, 171, 210), (128, 115, 172), (84, 39, 136))
COMMON = ((247, 247, 247), (254, 224, 182), (253, 184, 99), (224, 130, 20), (179, 88, 6))
STEPS = 256
RATIO_OCTAVES = 1.0  # observed/expected of 2 (or 1/2) is full colour
Z_FULL = 4.0  # observed - exact of 4 standard deviations is full colour
UNKNOWN = (200, 200, 200, 255)  # a cell with no expectation (e.g. nothing counted yet)


def _blend(stops: Sequence[tuple[int, int, int]], t: float) -> tuple[int, int, int]:
    """Return the colour a fraction ``t`` in [0, 1] along a list of stops."""
    position = t * (len(stops) - 1)
    k = min(int(position), len(stops) - 2)
    f = position - k
    a, b = stops[k], stops[k + 1]
    return tuple(round(a[c] + (b[c] - a[c]) * f) for c in range(3))


def _palette() -> tuple[bytes, ...]:
    """RGBA for 2*STEPS+1 scores evenly spread over [-1, 1]."""
    colours = []
    for k in range(-STEPS, STEPS + 1):
        t = k / STEPS
        rgb = _blend(RARE, -t) if t < 0 else _blend(COMMON, t)
        colours.append(bytes((*rgb, 255)))
    return tuple(colours)


PALETTE = _palette()


def score_colour(score: float | None) -> bytes:
    """Return the RGBA of a score in [-1, 1] (clamped); None is the 'unknown' grey."""
    if score is None or math.isnan(score):
        return bytes(UNKNOWN)
    clamped = max(-1.0, min(1.0, score))
    return PALETTE[round(clamped * STEPS) + STEPS]


def ratio_score(ratio: float) -> float:
    """Return log2(ratio) / RATIO_OCTAVES: 0 for 'as expected', ±1 for double or half."""
    if ratio <= 0:
        return -1.0
    return math.log2(ratio) / RATIO_OCTAVES


def observed_scores(counts: Sequence[Sequence[int]], trials: int) -> list[float | None]:
    """Return each cell's score for observed / uniform expectation (trials / n)."""
    n = len(counts)
    if trials == 0:
        return [None] * (n * n)
    expected = trials / n
    return [ratio_score(c / expected) for row in counts for c in row]


def exact_scores(matrix: Sequence[Sequence[float]]) -> list[float]:
    """Return each cell's score for exact probability / uniform (1/n)."""
    n = len(matrix)
    return [ratio_score(float(p) * n) for row in matrix for p in row]


def difference_scores(
    counts: Sequence[Sequence[int]], trials: int, matrix: Sequence[Sequence[float]]
) -> list[float | None]:
    """Return each cell's (observed - exact) in binomial standard deviations, scaled to Z_FULL."""
    if trials == 0:
        return [None] * (len(counts) ** 2)
    scores = []
    for row_counts, row_p in zip(counts, matrix):
        for count, p in zip(row_counts, row_p):
            p = float(p)
            spread = math.sqrt(trials * p * (1.0 - p))
            if spread == 0.0:
                # a certain or impossible cell: any deviation at all is a sure failure
                scores.append(0.0 if count == trials * p else math.copysign(1.0, count - trials * p))
            else:
                scores.append((count - trials * p) / spread / Z_FULL)
    return scores


def rgba(scores: Sequence[float | None]) -> bytes:
    """Return the RGBA pixels for these scores, in order (row-major)."""
    return b"".join(map(score_colour, scores))


def legend(view: str) -> list[tuple[float, str]]:
    """Return (score, text) ticks for the legend of a view."""
    if view == "difference":
        return [(-1.0, f"−{Z_FULL:g}σ"), (-0.5, f"−{Z_FULL / 2:g}σ"), (0.0, "as exact"),
                (0.5, f"+{Z_FULL / 2:g}σ"), (1.0, f"+{Z_FULL:g}σ")]
    return [(-1.0, "½×"), (-0.5, "0.71×"), (0.0, "as expected"), (0.5, "1.41×"), (1.0, "2×")]


# What each view's colours mean, in words (the page's key under the colour bar): one place for the page's
# three views, so what the key says is what the worker drew.
KEYS = {
    "observed": ("Observed ÷ uniform",
                 "Each square: how often card i has landed at position j so far, divided by how often a perfect "
                 "shuffle would put it there (1 time in n). White: as often. Orange: more often, full orange at 2× "
                 "or more. Purple: less often, full purple at ½× or less. The scale is logarithmic: 1.41× and 0.71× "
                 "are halfway. Grey: nothing counted yet. A fair shuffle fades to white as the count grows."),
    "exact": ("Exact ÷ uniform",
              "Each square: the exact chance, worked out from every path of the algorithm, that card i ends at "
              "position j, divided by a perfect shuffle's 1 in n. No luck involved: this is the bias itself. "
              "White: as likely. Orange: more likely, full orange at 2× or more. Purple: less likely, full purple "
              "at ½× or less (logarithmic: 1.41× and 0.71× are halfway)."),
    "difference": ("Observed − exact",
                   "Each square: the count so far minus the count the exact chances predict, in standard "
                   f"deviations of chance (σ). White: as predicted. Orange: counted more, full orange at "
                   f"+{Z_FULL:g}σ or more. Purple: counted fewer, full purple at −{Z_FULL:g}σ or less. Chance "
                   f"alone keeps nearly every square within ±3σ, so pale; a strong colour that stays means the "
                   f"algorithm differs from its exact model."),
}


def key(view: str) -> list[str]:
    """Return [title, words] for the key of a view: what a colour means, and its scale (observed for any other)."""
    return list(KEYS.get(view, KEYS["observed"]))


# --- the heat map as text (the command line): one character per cell, on the same log2 scale -------------------------

MAX_TEXT_COLUMNS = 64  # with the card numbers in front, a 52-card map fits an 80-column terminal
# (score at least, character when too common, character when too rare): ±0.07 is 5%, ±0.26 20%, ±0.58 1.5×, ±1 2×
TEXT_SHADES = ((1.0, "@", " "), (math.log2(1.5), "#", ":"), (math.log2(1.2), "*", "="), (math.log2(1.05), "+", "-"))
AS_EXPECTED = "."
TEXT_LEGEND = ("too common:  @ 2× or more   # 1.5–2×   * 1.2–1.5×   + 1.05–1.2×   (. within 5% of uniform)",
               "too rare:    - 0.95–0.83×   = 0.83–0.67×   : 0.67–0.5×   (blank) ½× or less")


def text_character(score: float) -> str:
    """Return the character of a score (log2 of observed ÷ expected): '.' within 5%, then stronger either way."""
    for floor, common, rare in TEXT_SHADES:
        if abs(score) >= floor - 1e-12:  # 2× exactly is '@', not '#'
            return common if score > 0 else rare
    return AS_EXPECTED


def text_heat_map(counts: Sequence[Sequence[int]], trials: int, max_columns: int = MAX_TEXT_COLUMNS) -> tuple[int, list[str]]:
    """Return (k, rows): the observed ÷ uniform heat map as text, a row per card and a character per position, or,
    past ``max_columns`` cards, per block of k × k cells (their counts added up, so it stays one screen wide)."""
    n = len(counts)
    k = -(-n // max_columns)
    groups = [range(start, min(start + k, n)) for start in range(0, n, k)]
    width = len(str(n - 1))
    tens = "".join(str(column // 10 % 10) if column % 10 == 0 else " " for column in range(len(groups)))
    units = "".join(str(column % 10) for column in range(len(groups)))
    rows = [" " * (width + 2) + tens, " " * (width + 2) + units]
    for cards in groups:
        line = []
        for positions in groups:
            observed = sum(counts[card][position] for card in cards for position in positions)
            expected = trials * len(cards) * len(positions) / n
            line.append(text_character(ratio_score(observed / expected)) if expected else "?")
        rows.append(f"{cards[0]:>{width}}  " + "".join(line))
    return k, rows
