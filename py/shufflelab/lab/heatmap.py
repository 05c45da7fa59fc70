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
