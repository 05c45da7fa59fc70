"""The chi-square tail: p-values against SciPy and mpmath, far below the smallest float."""

import math

import pytest
from scipy import special
from scipy import stats as scipy_stats

from shufflelab.stats.chi2 import ChiSquare, chi2_log_sf, chi2_sf, chi_square, gamma_q

DEGREES = [0.5, 1, 2, 3, 7.3, 16, 49, 100, 2601, 10609]


def statistics_for(df: float) -> list[float]:
    sd = math.sqrt(2 * df)
    points = [1e-9, 0.01, 0.5, 1, 2, df / 2, df, df + 1, df + 2, 2 * df, 5 * df + 50, 20 * df + 500, 1e5, 1e6]
    points += [df + k * sd for k in (-5, -3, -1, -0.5, 0.5, 1, 3, 10, 40)]
    return [x for x in points if x > 0]


@pytest.mark.parametrize("df", DEGREES)
def test_chi2_sf_matches_scipy_to_1e10_relative(df):
    for x in statistics_for(df):
        reference = scipy_stats.chi2.sf(x, df)
        if reference > 1e-300:
            assert chi2_sf(x, df) == pytest.approx(reference, rel=1e-10, abs=0)


@pytest.mark.parametrize("df", DEGREES)
def test_chi2_log_sf_matches_scipy_where_scipy_does_not_underflow(df):
    for x in statistics_for(df):
        reference = scipy_stats.chi2.logsf(x, df)
        if math.isfinite(reference):
            assert chi2_log_sf(x, df) == pytest.approx(reference, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("df", DEGREES)
def test_chi2_log_sf_stays_accurate_beyond_float_underflow(df):
    # SciPy's logsf is log(sf) and gives -inf there; mpmath's incomplete gamma does not
    import mpmath  # a test dependency (pyproject.toml): a missing one must fail, not skip
    mpmath.mp.dps = 40
    for x in (20 * df + 2000, 1e5, 1e6):
        reference = float(mpmath.log(mpmath.gammainc(df / 2, x / 2, mpmath.inf, regularized=True)))
        assert chi2_log_sf(x, df) == pytest.approx(reference, rel=1e-12)


def test_gamma_q_matches_scipy_gammaincc():
    for a in (0.25, 1, 3.5, 12, 60.5, 700, 5304.5):
        for x in (1e-6, 0.3, a / 3, a - 1, a, a + 1, a + 3 * math.sqrt(a), 4 * a + 10):
            reference = special.gammaincc(a, x)
            if reference > 1e-300:
                assert gamma_q(a, x) == pytest.approx(reference, rel=1e-10)


def test_chi2_sf_edges():
    assert chi2_sf(0, 4) == 1.0
    assert chi2_sf(1e9, 4) == 0.0
    assert chi2_log_sf(1e9, 4) < -1e8
    with pytest.raises(ValueError):
        chi2_sf(1, 0)


def test_a_test_keeps_its_log10_p_value_where_the_p_value_underflows():
    test = chi_square(30.0, 4)
    assert test.p_value == pytest.approx(scipy_stats.chi2.sf(30.0, 4), rel=1e-10)
    assert test.log10_p_value == pytest.approx(math.log10(test.p_value), rel=1e-12)
    beyond = chi_square(1e6, 4)
    assert beyond.p_value == 0.0 and beyond.log10_p_value < -1e5
    assert chi_square(-1e-12, 3).p_value == 1.0  # a statistic rounded below 0 counts as 0
    assert chi_square(5.0, 0) == ChiSquare(5.0, 0, 1.0, 0.0)  # nothing to test: no evidence
