"""The position tally against uniform and against an exact matrix.

A tally is an n × n list of counts: ``tally[i][j]`` = how many of N shuffles of a deck
starting in order put card i at position j; every row and column sums to N.

* **Against uniform**: X² = Σ (O − E)² / E with E = N/n. The cells are not independent
  (rows and columns are fixed at N): one uniform shuffle's indicator matrix has
  covariance (1/(n−1))·(I − J/n)⊗(I − J/n), a projection of rank (n−1)² scaled by
  1/(n−1), so X² → (n/(n−1))·χ²((n−1)²). We report X²·(n−1)/n on (n−1)² degrees of
  freedom; its mean is exactly (n−1)² for every N.
* **Against an exact matrix** P: row i of the tally is exactly Multinomial(N, P[i]),
  since each shuffle places card i independently of the others. Each row gets a
  Cressie–Read (λ = 2/3) power-divergence test (cells pooled by expectation alone,
  before any count is read, until each bin expects 5; df = bins − 1); a count in a
  cell the model says is impossible is a certain mismatch. The n row p-values are
  combined by Bonferroni: p = min(1, n · min pᵢ), valid however the rows depend.
"""

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from ..errors import ShuffleLabError
from .chi2 import ChiSquare, chi_square
from .verdicts import MIN_EXPECTED, Verdict, verdict

# An expectation this close to MIN_EXPECTED reaches it: N/52 at N = 260 computes as
# 4.999999999999993, and float error must not decide which cells are pooled.
POOL_TOLERANCE = 1e-9
CRESSIE_READ_LAMBDA = 2 / 3  # Cressie & Read (1984): the power divergence closest to χ² at small counts


@dataclass(frozen=True)
class Deviation:
    """The cell farthest from its expectation, as |observed/expected − 1| in percent."""

    percent: float
    card: int
    position: int
    observed: int
    expected: float

    def as_dict(self) -> dict:
        """Return the deviation as plain data."""
        return asdict(self)


@dataclass(frozen=True)
class ExactComparison:
    """A tally against an exact matrix: per-row tests combined by Bonferroni."""

    p_value: float
    log10_p_value: float
    worst_card: int
    row_p_values: list[float]
    impossible: list[tuple[int, int, int]] = field(default_factory=list)  # (card, position, count)

    def as_dict(self) -> dict:
        """Return the comparison as plain data (tuples become lists)."""
        data = asdict(self)
        data["impossible"] = [list(cell) for cell in self.impossible]
        return data


def tally_trials(tally: Sequence[Sequence[int]]) -> int:
    """Return N, checking that the tally is square and every row and column sums to it."""
    n = len(tally)
    if any(len(row) != n for row in tally):
        raise ShuffleLabError("a tally must be square: n rows of n counts")
    if n == 0:
        return 0
    trials = sum(tally[0])
    if any(sum(row) != trials for row in tally) or any(sum(column) != trials for column in zip(*tally)):
        raise ShuffleLabError("every row and column of a tally must sum to the number of shuffles")
    if any(count < 0 for row in tally for count in row):
        raise ShuffleLabError("a tally cannot hold negative counts")
    return trials


def minimum_trials(n: int) -> int:
    """Return the fewest shuffles for which every cell expects MIN_EXPECTED counts under uniform."""
    return math.ceil(MIN_EXPECTED * n)


def chi_square_uniform(tally: Sequence[Sequence[int]]) -> ChiSquare:
    """Return X²·(n−1)/n of the tally against uniform placement, on (n−1)² degrees of freedom."""
    trials = tally_trials(tally)
    n = len(tally)
    if n < 2 or trials == 0:
        return ChiSquare(0.0, 0, 1.0, 0.0)
    squares = sum(count * count for row in tally for count in row)
    # Σ(O − E)²/E with E = N/n is n(ΣO² − N²)/N; scaled by (n − 1)/n, in exact integers
    statistic = (n - 1) * (squares - trials * trials) / trials
    return chi_square(statistic, (n - 1) ** 2)


def largest_deviation(tally: Sequence[Sequence[int]], matrix: Sequence[Sequence[float]] | None = None) -> Deviation | None:
    """Return the cell with the largest |observed/expected − 1| (uniform expectation unless a matrix is given)."""
    trials = tally_trials(tally)
    n = len(tally)
    if trials == 0 or n == 0:
        return None
    worst = None
    for card, row in enumerate(tally):
        for position, observed in enumerate(row):
            expected = trials / n if matrix is None else trials * float(matrix[card][position])
            if expected <= 0:
                continue
            percent = abs(observed / expected - 1) * 100
            if worst is None or percent > worst.percent:
                worst = Deviation(percent, card, position, observed, expected)
    return worst


def chi_square_exact(tally: Sequence[Sequence[int]], matrix: Sequence[Sequence[float]]) -> ExactComparison:
    """Return the tally against an exact matrix: each card's row is Multinomial(N, P[card])."""
    trials = tally_trials(tally)
    n = len(tally)
    if len(matrix) != n or any(len(row) != n for row in matrix):
        raise ShuffleLabError(f"the exact matrix must be {n} × {n}, like the tally")
    impossible = [(card, position, count)
                  for card, row in enumerate(tally) for position, count in enumerate(row)
                  if count and float(matrix[card][position]) <= 0]
    row_p = [_row_test(row, matrix[card], trials).p_value for card, row in enumerate(tally)]
    if impossible:
        worst = impossible[0][0]
        return ExactComparison(0.0, -math.inf, worst, row_p, impossible)
    worst = min(range(n), key=row_p.__getitem__) if n else 0
    combined = min(1.0, n * row_p[worst]) if n else 1.0
    log10_p = math.log10(combined) if combined > 0 else _log10_bonferroni(tally, matrix, trials, worst, n)
    return ExactComparison(combined, log10_p, worst, row_p, [])


def _log10_bonferroni(tally, matrix, trials: int, card: int, n: int) -> float:
    # the worst row's p-value underflowed: take it from its log instead
    test = _row_test(tally[card], matrix[card], trials)
    return min(0.0, test.log10_p_value + math.log10(n))


def _row_test(counts: Sequence[int], probabilities: Sequence[float], trials: int) -> ChiSquare:
    """Return the Cressie–Read test of one multinomial row, its cells pooled by expectation alone (pooled_bins)."""
    cells = [(float(p), count) for p, count in zip(probabilities, counts) if float(p) > 0]
    total = sum(p for p, _ in cells)
    if trials == 0 or total <= 0:
        return ChiSquare(0.0, 0, 1.0, 0.0)
    bins = pooled_bins([trials * p / total for p, _ in cells], [count for _, count in cells])
    return chi_square(cressie_read(bins), len(bins) - 1)


def cressie_read(bins: Sequence[tuple[float, int]]) -> float:
    """Return the power divergence 2/(λ(λ+1)) Σ O((O/E)^λ − 1) with λ = 2/3 of (expected, observed) bins.

    Asymptotically χ² like Pearson's X², but at small counts Pearson's tail is too thin at a
    per-row Bonferroni level, and this one's is not (scripts/false_alarms.py measures the
    lab's rates; docs/explanation/false-alarms.md gives them).
    """
    scale = 2 / (CRESSIE_READ_LAMBDA * (CRESSIE_READ_LAMBDA + 1))
    return scale * sum(observed * math.expm1(CRESSIE_READ_LAMBDA * math.log(observed / expected))
                       for expected, observed in bins if observed)


def pooled_bins(expected: Sequence[float], observed: Sequence[int]) -> list[tuple[float, int]]:
    """Return (expected, observed) bins that each expect MIN_EXPECTED, pooled by a rule that never reads ``observed``.

    Cells are taken in order of expectation (ties by position) and gathered until a bin
    reaches MIN_EXPECTED, within POOL_TOLERANCE; what is left over joins the last full bin.
    Which cells share a bin therefore depends on the model and N only, never on the counts.
    """
    order = sorted(range(len(expected)), key=lambda cell: (expected[cell], cell))
    bins: list[tuple[float, int]] = []
    gathered, seen = 0.0, 0
    for cell in order:
        gathered, seen = gathered + expected[cell], seen + observed[cell]
        if gathered >= MIN_EXPECTED * (1 - POOL_TOLERANCE):
            bins.append((gathered, seen))
            gathered, seen = 0.0, 0
    if gathered > 0:
        if bins:
            last_expected, last_observed = bins.pop()
            bins.append((last_expected + gathered, last_observed + seen))
        else:
            bins.append((gathered, seen))
    return bins


def position_report(tally: Sequence[Sequence[int]], exact_matrix: Sequence[Sequence[float]] | None = None,
                    model_gap: str = "") -> dict:
    """Return everything the page shows about a tally, as plain data.

    Keys: trials, cards, minimum_trials, uniform (test), deviation, verdict, and with an
    exact matrix also exact (comparison), exact_deviation and exact_verdict (``model_gap``: what
    the matrix's model leaves out of the real algorithm, see ``verdict``).
    """
    trials = tally_trials(tally)
    n = len(tally)
    needed = minimum_trials(n)
    uniform = chi_square_uniform(tally)
    deviation = largest_deviation(tally)
    report = {
        "trials": trials,
        "cards": n,
        "minimum_trials": needed,
        "uniform": uniform.as_dict(),
        "deviation": deviation.as_dict() if deviation else None,
        "verdict": (verdict(uniform.p_value, trials, needed, log10_p_value=uniform.log10_p_value).as_dict()
                    if n >= 2 else Verdict("no-bias", "a deck of one card cannot be biased").as_dict()),
    }
    if exact_matrix is not None:
        comparison = chi_square_exact(tally, exact_matrix)
        exact_deviation = largest_deviation(tally, exact_matrix)
        report["exact"] = comparison.as_dict()
        report["exact_deviation"] = exact_deviation.as_dict() if exact_deviation else None
        report["exact_verdict"] = verdict(
            comparison.p_value, trials, needed, decisive=bool(comparison.impossible),
            log10_p_value=comparison.log10_p_value, model=True, model_gap=model_gap).as_dict()
    return report
