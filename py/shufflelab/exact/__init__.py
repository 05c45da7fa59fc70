"""Exact bias, without sampling: every order's probability for tiny decks, card × position matrices for any.

* ``orders.py``: ``outcome_distribution(id, n)``, the probability of each output order
  of the deck 0..n-1 (n ≤ 7), as exact fractions, and its distance to uniform.
* ``matrices.py``: ``position_matrix(id, n)``, P[i][j], the chance that card i ends at
  position j, for any deck size (floats, or fractions); one summed from a walk, up to 6.
* ``enumeration.py`` walks every path of a shuffle's ``below`` answers (a port, or any
  function such as a user's own), within its limits, with progress reports or in steps;
  ``composition.py`` composes independent passes; ``physical.py`` is riffle-physical's
  chain; ``crand.py`` deals c-rand for every srand seed of the real ANSI rand();
  ``riffle.py`` Bayer & Diaconis's riffle distances; ``reports.py`` plain data for the CLI.

Which model each algorithm uses is in its catalog entry. CPython and Pyodide only.
"""

from .composition import MAX_COMPOSE_WORK
from .enumeration import MAX_PATH_DRAWS, MAX_PORT_PATHS, ScriptedRng, enumerate_port
from .errors import ExactTooCostly, NoExactMatrix, NotEnumerable
from .matrices import matrix_power, matrix_product, matrix_seconds_estimate, position_matrix, position_matrix_from_distribution
from .orders import MAX_EXACT_CARDS, RAND_SPAN, ideal_rand_residue_weights, outcome_distribution, total_variation_to_uniform
from .reports import (
    MAX_RIFFLE_TV_CARDS,
    MAX_RIFFLE_TV_K,
    exact_report,
    fraction_from_text,
    fraction_text,
    riffle_distance_texts,
    riffle_distances_report,
    riffle_tv_report,
)
from .riffle import eulerian_row, riffle_kl, riffle_separation, riffle_tv

__all__ = [
    "MAX_COMPOSE_WORK", "MAX_EXACT_CARDS", "MAX_PATH_DRAWS", "MAX_PORT_PATHS", "MAX_RIFFLE_TV_CARDS", "MAX_RIFFLE_TV_K",
    "RAND_SPAN",
    "ExactTooCostly", "NoExactMatrix", "NotEnumerable", "ScriptedRng", "enumerate_port", "eulerian_row",
    "exact_report", "fraction_from_text", "fraction_text", "ideal_rand_residue_weights", "matrix_power", "matrix_product",
    "matrix_seconds_estimate", "outcome_distribution", "position_matrix", "position_matrix_from_distribution",
    "riffle_distance_texts", "riffle_distances_report", "riffle_kl", "riffle_separation", "riffle_tv", "riffle_tv_report",
    "total_variation_to_uniform",
]
