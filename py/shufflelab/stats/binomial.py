"""Exact binomial tails, in log space: the fixed-point test's p-values, valid at every count.

P(X ≥ x) for X ~ Binomial(N, p) is the regularized incomplete beta function I_p(x, N−x+1),
and P(X ≤ x) is I_(1−p)(N−x, x+1). I_z(a, b) is evaluated by its continued fraction
(modified Lentz) on the side where it converges fast, and by 1 − I_(1−z)(b, a) on the other;
its prefactor comes from ``lgamma``, so tails far below 1e-300 keep their logarithm.
"""

import math

_EPSILON = 1e-15
_TINY = 1e-300
_MAX_TERMS = 1_000_000  # the fraction needs about √max(a, b) terms near the mean: 3e4 at N = 1e9


def log10_binomial_tails(observed: int, trials: int, probability: float) -> tuple[float, float]:
    """Return (log10 P(X ≤ observed), log10 P(X ≥ observed)) for X ~ Binomial(trials, probability)."""
    if not 0 <= observed <= trials:
        raise ValueError(f"a count of {observed} is not between 0 and {trials}")
    if not 0 < probability < 1:
        raise ValueError(f"a binomial probability must be strictly between 0 and 1, not {probability!r}")
    lower = 0.0 if observed == trials else _log_beta_regularized(trials - observed, observed + 1, 1 - probability)
    upper = 0.0 if observed == 0 else _log_beta_regularized(observed, trials - observed + 1, probability)
    return min(0.0, lower / math.log(10)), min(0.0, upper / math.log(10))


def log10_two_sided(observed: int, trials: int, probability: float) -> float:
    """Return log10 of the two-sided p-value min(1, 2 · the smaller tail): never below the exact tail's chance."""
    lower, upper = log10_binomial_tails(observed, trials, probability)
    return min(0.0, min(lower, upper) + math.log10(2))


def _log_beta_regularized(a: float, b: float, z: float) -> float:
    """Return ln I_z(a, b), the regularized incomplete beta function, for a, b > 0 and 0 < z < 1."""
    if z < (a + 1) / (a + b + 2):
        return _log_beta_front(a, b, z) + math.log(_beta_fraction(a, b, z)) - math.log(a)
    complement = _log_beta_front(b, a, 1 - z) + math.log(_beta_fraction(b, a, 1 - z)) - math.log(b)
    return math.log1p(-min(math.exp(complement), 1.0)) if complement < 0 else -math.inf


def _log_beta_front(a: float, b: float, z: float) -> float:
    """Return ln(z^a (1−z)^b / B(a, b))."""
    return a * math.log(z) + b * math.log1p(-z) + math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)


def _beta_fraction(a: float, b: float, z: float) -> float:
    """Return the continued fraction of I_z(a, b) (converges fast for z < (a+1)/(a+b+2))."""
    c, d = 1.0, 1.0 - (a + b) * z / (a + 1)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    fraction = d
    for m in range(1, _MAX_TERMS):
        for term in (m * (b - m) * z / ((a + 2 * m - 1) * (a + 2 * m)),
                     -(a + m) * (a + b + m) * z / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + term * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + term / c
            c = c if abs(c) > _TINY else _TINY
            fraction *= c * d
        if abs(c * d - 1.0) < _EPSILON:
            return fraction
    raise ArithmeticError(f"the incomplete beta fraction did not converge for a={a}, b={b}, z={z}")
