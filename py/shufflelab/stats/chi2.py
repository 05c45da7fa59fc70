"""The chi-square tail, accurate far below the smallest float p-value, and one test's result."""

import math
from dataclasses import asdict, dataclass

_EPSILON = 1e-16
_MAX_ITERATIONS = 100_000
_TINY = 1e-300
_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


def chi2_sf(statistic: float, df: float) -> float:
    """Return P(χ²(df) ≥ statistic), accurate to about 1e-12 relative (0.0 once it underflows)."""
    return math.exp(chi2_log_sf(statistic, df))


def chi2_log_sf(statistic: float, df: float) -> float:
    """Return ln P(χ²(df) ≥ statistic), finite far below the smallest float p-value."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, not {df}")
    return log_gamma_q(df / 2, statistic / 2)


def gamma_q(a: float, x: float) -> float:
    """Return the regularized upper incomplete gamma function Q(a, x) = Γ(a, x)/Γ(a)."""
    return math.exp(log_gamma_q(a, x))


def log_gamma_q(a: float, x: float) -> float:
    """Return ln Q(a, x): a series below x = a + 1, a continued fraction above (Numerical Recipes §6.2)."""
    if a <= 0:
        raise ValueError(f"Q(a, x) needs a > 0, not {a}")
    if x <= 0:
        return 0.0
    if x < a + 1:
        # here Q ≥ about 1/2 for large a, so 1 − P loses nothing that matters
        return math.log1p(-_gamma_p_series(a, x))
    return _log_gamma_q_fraction(a, x)


def _gamma_p_series(a: float, x: float) -> float:
    term = total = 1.0 / a
    denominator = a
    for _ in range(_MAX_ITERATIONS):
        denominator += 1
        term *= x / denominator
        total += term
        if term < total * _EPSILON:
            return min(1.0, total * math.exp(_log_power_over_gamma(a, x)))
    raise ArithmeticError(f"the gamma series did not converge for a={a}, x={x}")


def _log_gamma_q_fraction(a: float, x: float) -> float:
    # modified Lentz evaluation of Γ(a, x) e^x x^−a
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, _MAX_ITERATIONS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < _EPSILON:
            return math.log(h) + _log_power_over_gamma(a, x)
    raise ArithmeticError(f"the gamma continued fraction did not converge for a={a}, x={x}")


def _log_power_over_gamma(a: float, x: float) -> float:
    """Return ln(x^a e^−x / Γ(a)) without the cancellation of its large terms."""
    if a < 10:
        return a * math.log(x) - x - math.lgamma(a)
    # a·ln x − x − lnΓ(a) = a·(ln(1+u) − u) + (a ln a − a − lnΓ(a)), u = (x − a)/a,
    # and the last bracket is ½ln(a/2π) minus Stirling's small correction
    u = (x - a) / a
    return a * _log1p_minus(u) + 0.5 * math.log(a) - _LOG_SQRT_2PI - _stirling_correction(a)


def _log1p_minus(u: float) -> float:
    """Return ln(1 + u) − u, accurately even for small u."""
    if abs(u) > 0.25:
        return math.log1p(u) - u
    if u == 0:
        return 0.0
    # −u²/2 + u³/3 − u⁴/4 + …
    total, power, k = 0.0, u * u, 2
    while True:
        term = power / k
        total += -term if k % 2 == 0 else term
        if abs(term) <= 1e-17 * abs(total):
            return total
        power *= u
        k += 1


def _stirling_correction(a: float) -> float:
    """Return lnΓ(a) − [(a − ½)ln a − a + ½ln 2π] for a ≥ 10."""
    inverse = 1 / a
    square = inverse * inverse
    return inverse * (1 / 12 - square * (1 / 360 - square * (1 / 1260 - square * (1 / 1680 - square / 1188))))


@dataclass(frozen=True)
class ChiSquare:
    """A chi-square test: the statistic compared with χ²(df), and its upper-tail p-value."""

    statistic: float
    df: int
    p_value: float
    log10_p_value: float

    def as_dict(self) -> dict:
        """Return the test as plain data."""
        return asdict(self)


def chi_square(statistic: float, df: int) -> ChiSquare:
    if df <= 0:
        return ChiSquare(statistic, df, 1.0, 0.0)
    log_p = chi2_log_sf(max(statistic, 0.0), df)
    return ChiSquare(statistic, df, math.exp(log_p), log_p / math.log(10))
