"""Verdicts that stay honest when the page re-tests for hours.

The page re-tests every time it redraws, for as long as the tally runs, and a fixed
significance level crossed "eventually" is a false alarm waiting to happen: repeated
tests on accumulating data inflate the error rate without bound (Armitage, McPherson &
Rowe 1969). So "biased" needs p < 1e-9, p < 1e-3 is "suspicious" (worth watching, never
called biased), and nothing is said before every cell expects at least 5 counts.

The lab runs three tests (against uniform, the fixed points, against the exact matrix). By
the union bound, one look at a correct shuffle says "biased" with chance at most 3e-9, and
a watch of 8 hours at five redraws a second (144,000 looks) at most 4.3e-4; "suspicious"
at most 3e-3 per look. The fixed points' p-value is conservative at every threshold (exact
binomial tails); the two position tests' p-values are chi-square approximations, whose
rates at 1e-3 on the lab's schedule scripts/false_alarms.py measures (docs/explanation/false-alarms.md).
"""

import math
from dataclasses import asdict, dataclass

BIASED_P = 1e-9
SUSPICIOUS_P = 1e-3
MIN_EXPECTED = 5.0
LOOKS_PER_SECOND = 5  # the page redraws after each chunk of about 0.2 s of tallying
SESSION_HOURS = 8
LOOKS_PER_SESSION = LOOKS_PER_SECOND * 60 * 60 * SESSION_HOURS
TESTS = 3  # against uniform, the fixed points, against the exact matrix


@dataclass(frozen=True)
class Verdict:
    """A plain-language conclusion: level is one of the LEVELS, text says it to a person."""

    level: str
    text: str

    def as_dict(self) -> dict:
        """Return the verdict as plain data."""
        return asdict(self)


LEVELS = ("too-few", "no-bias", "suspicious", "biased")


MODEL_LEVELS = ("too-few", "matches", "suspicious", "mismatch")


def verdict(p_value: float, trials: int, needed: int, *, decisive: bool = False,
            log10_p_value: float | None = None, model: bool = False, model_gap: str = "") -> Verdict:
    """Return the plain-language verdict for a p-value after ``trials`` shuffles.

    ``decisive`` marks evidence that needs no minimum (a count where none is possible,
    or an exact tail probability), so a verdict may come before ``needed`` shuffles.
    ``model`` words it as a comparison with an exact model instead of with uniform, and
    ``model_gap``, what that model leaves out of the real algorithm, words a difference as
    the finding it is (that part of the real algorithm showing), never as a faulty implementation.
    """
    levels = MODEL_LEVELS if model else LEVELS
    shown = format_p(p_value, log10_p_value)
    if trials < needed and not (decisive and p_value < BIASED_P):
        return Verdict(levels[0], f"too few shuffles yet: {trials:,} of the {needed:,} needed for a verdict")
    if p_value < BIASED_P:
        if model_gap:
            return Verdict(levels[3], f"differs from its exact model, which leaves out {model_gap}: p {shown} after "
                                      f"{trials:,} shuffles (threshold 1e-9); that is the generator showing, not a "
                                      f"faulty implementation")
        what = "does not match its exact model" if model else "biased"
        return Verdict(levels[3], f"{what}: p {shown} after {trials:,} shuffles (threshold 1e-9)")
    if p_value < SUSPICIOUS_P:
        return Verdict(levels[2], f"suspicious: p {shown} after {trials:,} shuffles; not enough to call it, keep shuffling")
    what = "consistent with its exact model" if model else "no bias detected"
    return Verdict(levels[1], f"{what} at {trials:,} shuffles (p {shown})")


def format_p(p_value: float, log10_p_value: float | None = None) -> str:
    if p_value > 0:
        return f"= {p_value:.3g}"
    if log10_p_value is not None and math.isfinite(log10_p_value):
        return f"≈ 1e{math.floor(log10_p_value)}"
    return "= 0 (impossible under the model)"
