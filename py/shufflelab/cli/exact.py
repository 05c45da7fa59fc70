"""``exact``: every order's exact probability for a tiny deck, of a built-in or of your own shuffle, and the total
variation distance to uniform; and ``shown_fraction``, how an exact fraction is printed (``guess`` prints its scores
so too)."""

from __future__ import annotations

import argparse
import json

from .. import exact
from .common import UsageError, given_params
from .own_shuffle import DEFAULT_TIME_LIMIT, add_algorithm_or_file_options, shuffle_to_run


def add_exact_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``exact``: algorithm or a file of your own, its parameters, deck size and output format."""
    add_algorithm_or_file_options(parser)
    parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
                        help=f"with --file, stop code still running after this long in one step (its top level, the "
                             f"walk of every path); 0 for no limit (default {DEFAULT_TIME_LIMIT:g})")
    parser.add_argument("--cards", type=int, required=True, metavar="N",
                        help=f"deck size, 0-{exact.MAX_EXACT_CARDS} (every order is listed)")
    parser.add_argument("--json", action="store_true", help="print JSON (probabilities as 'p/q' strings)")


def run_exact(args: argparse.Namespace) -> int:
    """Print every order's exact probability and the distance to uniform."""
    if not 0 <= args.cards <= exact.MAX_EXACT_CARDS:
        raise UsageError(f"exact lists every order, so --cards must be 0 to {exact.MAX_EXACT_CARDS}, not {args.cards}")
    with shuffle_to_run(args) as (algo, limit), limit():
        report = exact.exact_report(algo, args.cards, given_params(args))
    if args.json:
        print(json.dumps(report))
        return 0
    params = "".join(f", {k}={v}" for k, v in report["params"].items())
    name = report["algorithm"] if args.file is None else f"{report['algorithm']} ({args.file})"
    print(f"{name}{params} on {report['cards']} cards: {report['method']}")
    width = max(2 * report["cards"] - 1, len("order"))
    print(f"{'order':<{width}}  probability")
    for row in report["orders"]:
        order = " ".join(map(str, row["order"]))
        print(f"{order:<{width}}  {shown_fraction(row['probability'])}")
    print(f"reachable orders: {report['reachable']:,} of {report['total_orders']:,}")
    print(f"total variation distance to uniform: {shown_fraction(report['total_variation'], gap=' ')}")
    return 0


MAX_SHOWN_FRACTION_CHARS = 60  # longer fractions (cut-insert's run to 20,704 digits) would drown the table


def shown_fraction(text: str, gap: str = "  ") -> str:
    """Return a 'p/q' string as 'p/q  (decimal)', or, past a line's worth, the decimal and the fraction's digit counts."""
    value = float(exact.fraction_from_text(text))
    if len(text) <= MAX_SHOWN_FRACTION_CHARS:
        return f"{text}{gap}({value:.6g})"
    numerator, _, denominator = text.partition("/")
    return f"{value:.6g}{gap}(a fraction of {len(numerator):,} / {len(denominator):,} digits, in full with --json)"
