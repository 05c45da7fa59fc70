"""The exact answers as plain data: what the CLI prints as text or JSON."""

import math
from fractions import Fraction
from itertools import permutations

from .. import catalog
from ..errors import ShuffleLabError
from ..riffles import DISTANCE_MEANINGS
from .enumeration import Progress
from .matrices import position_matrix_from_distribution
from .orders import outcome_distribution, total_variation_to_uniform
from .riffle import riffle_kl, riffle_separation, riffle_tv

MAX_RIFFLE_TV_CARDS = 520
MAX_RIFFLE_TV_K = 20


# Python refuses int <-> decimal string conversions past sys.get_int_max_str_digits() (4,300 by
# default, 640 at the least), and exact answers go far past it: cut-insert on 4 cards has
# 20,704-digit denominators. Raising the limit would change the whole process's state, so
# big numbers are split into pieces that each stay under the smallest limit Python allows.
SAFE_DIGITS = 600  # fewer than 640, the lowest limit sys.set_int_max_str_digits accepts
_POWERS_OF_TEN: dict[int, int] = {}


def _power_of_ten(digits: int) -> int:
    """Return 10**digits, computed once per size (the splits below reuse a few sizes)."""
    power = _POWERS_OF_TEN.get(digits)
    if power is None:
        power = _POWERS_OF_TEN[digits] = 10 ** digits
    return power


def int_text(value: int) -> str:
    """Return an int in decimal, whatever its size, without touching the int-to-str digit limit."""
    if value < 0:
        return "-" + int_text(-value)
    # bit_length * log10(2) slightly overestimates the digits, so a value under it is small enough
    if value.bit_length() * 0.30103 < SAFE_DIGITS:
        return str(value)
    half = int(value.bit_length() * 0.30103) // 2
    high, low = divmod(value, _power_of_ten(half))
    return int_text(high) + int_text(low).rjust(half, "0")


def int_from_text(text: str) -> int:
    """Return the int a decimal string names, whatever its length, without touching the str-to-int digit limit."""
    digits = text.lstrip("+-")
    if len(digits) <= SAFE_DIGITS:
        return int(text)
    if text[0] == "-":
        return -int_from_text(digits)
    half = len(digits) // 2  # the low half's width, so the high half is shifted by exactly that
    return int_from_text(digits[:-half]) * _power_of_ten(half) + int_from_text(digits[-half:])


def fraction_text(value: Fraction) -> str:
    """Return a fraction as 'p/q' (always with a denominator, e.g. '0/1', '1/1'), at any size."""
    return f"{int_text(value.numerator)}/{int_text(value.denominator)}"


def fraction_from_text(text: str) -> Fraction:
    """Return the Fraction a 'p/q' string from ``fraction_text`` names, at any size."""
    numerator, _, denominator = text.partition("/")
    return Fraction(int_from_text(numerator), int_from_text(denominator or "1"))


def exact_report(algorithm_id: str, n: int, params: dict | None = None, progress: Progress | None = None,
                 matrix: bool = False) -> dict:
    """Return every order's exact probability (all n! of them) and the TV distance, as plain data.

    With ``matrix``, also the card × position matrix the same distribution implies (rows
    are cards, "p/q" strings), so a walk of every path is done once for both. ``progress``
    is passed to the walk (``enumeration.py``).
    """
    algorithm = catalog.get(algorithm_id)
    resolved = algorithm.resolve_params(params)
    dist = outcome_distribution(algorithm.id, n, resolved, progress)
    distance = total_variation_to_uniform(dist, n)
    zero = Fraction(0)
    report = {
        "algorithm": algorithm.id,
        "params": resolved,
        "cards": n,
        "method": algorithm.method_for(n),
        "orders": [{"order": list(order), "probability": fraction_text(dist.get(order, zero))}
                   for order in permutations(range(n))],
        "reachable": len(dist),
        "total_orders": math.factorial(n),
        "total_variation": fraction_text(distance),
        "total_variation_float": float(distance),
    }
    if matrix:
        report["matrix"] = [[fraction_text(p) for p in row] for row in position_matrix_from_distribution(dist, n)]
    return report


def riffle_tv_report(n: int, max_k: int) -> dict:
    """Return the exact distance to uniform after 1..max_k GSR riffles of n cards, as plain data."""
    if not 1 <= n <= MAX_RIFFLE_TV_CARDS:
        raise ShuffleLabError(f"riffle-tv takes 1 to {MAX_RIFFLE_TV_CARDS} cards, not {n}")
    if not 1 <= max_k <= MAX_RIFFLE_TV_K:
        raise ShuffleLabError(f"max-k must be 1 to {MAX_RIFFLE_TV_K}, not {max_k}")
    return {
        "cards": n,
        "distances": [{"k": k, "exact": fraction_text(d), "value": float(d)}
                      for k, d in enumerate(riffle_tv(n, max_k), start=1)],
    }


def riffle_distance_texts(row: dict) -> list[str]:
    """Return a ``riffle_distances_report`` row's three figures as the command line prints them (and the page shows
    them): total variation and separation to 6 decimals, Kullback-Leibler in bits to 6 significant digits."""
    return [f"{row['tv_value']:.6f}", f"{row['separation_value']:.6f}", f"{row['kl_bits']:.6g}"]


def riffle_distances_report(n: int, max_k: int) -> dict:
    """Return total variation, separation and Kullback-Leibler distances to uniform after 1..max_k GSR riffles."""
    if not 1 <= n <= MAX_RIFFLE_TV_CARDS:
        raise ShuffleLabError(f"riffle-distances takes 1 to {MAX_RIFFLE_TV_CARDS} cards, not {n}")
    if not 1 <= max_k <= MAX_RIFFLE_TV_K:
        raise ShuffleLabError(f"max-k must be 1 to {MAX_RIFFLE_TV_K}, not {max_k}")
    rows = zip(riffle_tv(n, max_k), riffle_separation(n, max_k), riffle_kl(n, max_k))
    return {
        "cards": n,
        "meanings": {key: {"name": name, "meaning": meaning} for key, name, meaning in DISTANCE_MEANINGS},
        "distances": [{"k": k, "tv": fraction_text(tv), "tv_value": float(tv),
                       "separation": fraction_text(separation), "separation_value": float(separation),
                       "kl_nats": kl, "kl_bits": kl / math.log(2)}
                      for k, (tv, separation, kl) in enumerate(rows, start=1)],
    }
