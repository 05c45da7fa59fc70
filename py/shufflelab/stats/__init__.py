"""Statistics of a bias tally: is this shuffle biased, and how sure can we be?

``chi2.py`` is the chi-square tail; ``positions.py`` tests the card × position counts
against uniform and against an exact matrix; ``fixed_points.py`` the cards left in
place; ``verdicts.py`` turns p-values into words that stay honest under repeated looks.
CPython and Pyodide only.
"""

from .chi2 import ChiSquare, chi2_log_sf, chi2_sf, gamma_q, log_gamma_q
from .fixed_points import derangements, fixed_point_distribution, fixed_point_report
from .positions import (
                        Deviation,
                        ExactComparison,
                        chi_square_exact,
                        chi_square_uniform,
                        largest_deviation,
                        minimum_trials,
                        position_report,
                        tally_trials,
)
from .verdicts import BIASED_P, LEVELS, LOOKS_PER_SESSION, MIN_EXPECTED, MODEL_LEVELS, SUSPICIOUS_P, Verdict, verdict

__all__ = [
    "BIASED_P", "LEVELS", "LOOKS_PER_SESSION", "MIN_EXPECTED", "MODEL_LEVELS", "SUSPICIOUS_P", "ChiSquare",
    "Deviation", "ExactComparison", "Verdict", "chi2_log_sf", "chi2_sf", "chi_square_exact", "chi_square_uniform",
    "derangements", "fixed_point_distribution", "fixed_point_report", "gamma_q", "largest_deviation",
    "log_gamma_q", "minimum_trials", "position_report", "tally_trials", "verdict",
]
