"""Riffles and guessing: ``riffle-tv``, ``riffle-distances`` (exact distances to uniform after 1..K riffles),
``riffles`` (how many riffles a real deck's order looks like) and ``guess`` (the guessing game's best score)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys

from .. import exact, riffles, tally
from ..cards import MAX_JOKERS_PER_PACK, DeckSpec
from ..exact import guessing
from .common import UsageError, tally_seed_from, utf8_argument
from .exact import shown_fraction

MEASURED_TRIALS = 20_000  # sampled decks per k for riffle-tv's measured column
MAX_TRIALS = 10_000_000


def add_riffle_tv_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``riffle-tv``: deck size, how many riffles, output format."""
    parser.add_argument("--cards", type=int, default=52, metavar="N",
                        help=f"deck size, 1-{exact.MAX_RIFFLE_TV_CARDS} (default 52)")
    parser.add_argument("--max-k", type=int, default=12, metavar="K",
                        help=f"riffles, 1-{exact.MAX_RIFFLE_TV_K} (default 12)")
    parser.add_argument("--json", action="store_true", help="print JSON (exact distances as 'p/q' strings)")
    parser.add_argument("--trials", type=int, default=MEASURED_TRIALS, metavar="T",
                        help=f"sampled decks per k for the measured distance, decks of up to "
                             f"{tally.MAX_MEASURED_RIFFLE_CARDS} cards only; 0 for none (default {MEASURED_TRIALS:,})")


def run_riffle_tv(args: argparse.Namespace) -> int:
    """Print the exact distance to uniform after 1..K Gilbert-Shannon-Reeds riffles."""
    report = exact.riffle_tv_report(args.cards, args.max_k)
    if not 0 <= args.trials <= MAX_TRIALS:
        raise UsageError(f"--trials must be 0 to {MAX_TRIALS:,}, not {args.trials}")
    measured = args.trials and args.cards <= tally.MAX_MEASURED_RIFFLE_CARDS
    if measured:
        for row, value in zip(report["distances"], tally.measured_riffle_tv(args.cards, args.max_k, args.trials)):
            row["measured"] = value
        report["measured_trials"] = args.trials
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{report['cards']} cards, Gilbert-Shannon-Reeds riffles: exact total variation distance "
          f"to uniform (Bayer & Diaconis 1992)")
    print(" k  distance" + (f"  measured ({args.trials:,} decks each)" if measured else ""))
    for row in report["distances"]:
        print(f"{row['k']:>2}  {row['value']:.6f}" + (f"  {row['measured']:.6f}" if measured else ""))
    return 0


def add_riffle_distances_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``riffle-distances``: deck size, how many riffles, output format."""
    parser.add_argument("--cards", type=int, default=52, metavar="N",
                        help=f"deck size, 1-{exact.MAX_RIFFLE_TV_CARDS} (default 52)")
    parser.add_argument("--max-k", type=int, default=12, metavar="K",
                        help=f"riffles, 1-{exact.MAX_RIFFLE_TV_K} (default 12)")
    parser.add_argument("--json", action="store_true",
                        help="print JSON (total variation and separation as exact 'p/q' strings, KL as floats)")


def run_riffle_distances(args: argparse.Namespace) -> int:
    """Print total variation, separation and Kullback-Leibler distances to uniform after 1..K riffles."""
    report = exact.riffle_distances_report(args.cards, args.max_k)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{report['cards']} cards, Gilbert-Shannon-Reeds riffles: exact distances to uniform "
          f"(Bayer & Diaconis 1992)")
    print(" k  total variation  separation  KL (bits)")
    for row in report["distances"]:
        tv, separation, kl = exact.riffle_distance_texts(row)  # the page's riffle table shows these very texts
        print(f"{row['k']:>2}  {tv:>15}  {separation:>10}  {kl:>9}")
    for meaning in report["meanings"].values():
        print(f"{meaning['name'][0].upper()}{meaning['name'][1:]}: {meaning['meaning']}.")
    return 0


def add_riffles_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``riffles``: the order, the deck it is from, how many riffles to weigh, output format."""
    parser.add_argument("--order", required=True, metavar="CODES",
                        help="the deck's order after your riffles, top card first, as codes (AS 0H or 10H KC ...), "
                             "separated by spaces or commas; - reads it from standard input. Start the riffles from "
                             "this project's new-deck order, top first: A-K of clubs, then diamonds, hearts, spades "
                             "(AC 2C ... KC AD ... KS), which is not the order a new deck comes in")
    parser.add_argument("--deck", choices=("standard", "piquet", "euchre"), default="standard",
                        help="deck kind (default standard)")
    parser.add_argument("--jokers", type=int, default=0, metavar="N",
                        help=f"jokers (X1 black, X2 red) after the other cards, 0-{MAX_JOKERS_PER_PACK} (default 0)")
    parser.add_argument("--max-k", type=int, default=riffles.MAX_RIFFLES, metavar="K",
                        help=f"weigh 0..K riffles, 1-{riffles.MAX_RIFFLES} (default {riffles.MAX_RIFFLES})")
    parser.add_argument("--json", action="store_true", help="print JSON (likelihoods as exact integers)")


def run_riffles(args: argparse.Namespace) -> int:
    """Count the rising sequences of a real deck's order and say how many riffles it looks like."""
    if not 1 <= args.max_k <= riffles.MAX_RIFFLES:
        raise UsageError(f"--max-k must be 1 to {riffles.MAX_RIFFLES}, not {args.max_k}")
    deck = DeckSpec(kind=args.deck, jokers=args.jokers)
    text = sys.stdin.read() if args.order == "-" else utf8_argument(args.order, "--order")
    order = riffles.parse_order(text, deck)
    result = riffles.assess(order, args.max_k)
    if args.json:
        data = {"deck": deck.as_dict(), "order": deck.codes(order), **result}
        for row in data["likelihoods"]:  # exact integers as text: JSON readers often hold numbers as doubles
            row["numerator"], row["denominator"] = str(row["numerator"]), str(row["denominator"])
        print(json.dumps(data))
        return 0
    print(f"{deck.describe()}: {result['rising']} rising sequences.")
    print(" k  likelihood ÷ uniform (log10)")
    for row in result["likelihoods"]:
        value = row["log10_vs_uniform"]
        shown = "impossible" if value is None else f"{value:+.2f}"
        mark = "  plausible" if row["k"] in result["plausible"] else ""
        print(f"{row['k']:>2}  {shown:>10}{mark}")
    print(f"Plausible: within a factor of {result['plausible_factor']} of the likeliest explanation.")
    print(result["sentence"])
    return 0


# --- the guessing game -------------------------------------------------------------------------


def add_guess_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``guess``: deck size, riffles, feedback, and for a simulated score its samples and seed."""
    parser.add_argument("--cards", type=int, default=52, metavar="N",
                        help=f"deck size: 1-{guessing.MAX_NO_FEEDBACK_CARDS} without feedback, "
                             f"1-{guessing.MAX_SIMULATED_CARDS} with it (default 52)")
    parser.add_argument("--riffles", type=int, default=1, metavar="K",
                        help=f"Gilbert-Shannon-Reeds riffles of the new deck, 0-{guessing.MAX_RIFFLES} (default 1)")
    parser.add_argument("--feedback", choices=guessing.FEEDBACKS, default="full",
                        help="full: each card is shown after its guess; none: every guess written first (default full)")
    parser.add_argument("--samples", type=int, default=guessing.DEFAULT_SAMPLES, metavar="M",
                        help=f"decks sampled where the score is simulated (with feedback, over "
                             f"{guessing.MAX_STATE_SUM_CARDS} cards after 2 riffles or more; exact at any size after "
                             f"0 or 1), 2-{guessing.MAX_SAMPLES:,} (default {guessing.DEFAULT_SAMPLES:,})")
    parser.add_argument("--seed", metavar="TEXT",
                        help="the simulation's seed, by the tally seed's rule (--seed=TEXT for one that begins "
                             "with '-'); without it a fresh seed is drawn and printed")
    parser.add_argument("--json", action="store_true", help="print JSON (exact scores as 'p/q' strings)")


def run_guess(args: argparse.Namespace) -> int:
    """Print the best expected number of cards called right after K riffles, beside a random deck's."""
    if not 2 <= args.samples <= guessing.MAX_SAMPLES:
        raise UsageError(f"--samples must be 2 to {guessing.MAX_SAMPLES:,}, not {args.samples}")
    seed, fresh = tally_seed_from(args.seed)
    report = guessing.guess_report(args.cards, args.riffles, args.feedback, args.samples, seed)
    if args.json:
        print(json.dumps(report))
        return 0
    shown = "each card shown after its guess" if args.feedback == "full" else "no card shown until the end"
    riffles = f"{args.riffles} Gilbert-Shannon-Reeds riffle{'' if args.riffles == 1 else 's'}"
    print(f"{args.cards} cards in order, {riffles}, guessed from the top, {shown}.")
    if report["exact"]:
        print(f"best strategy: {shown_fraction(report['expected'])} cards right on average (exact, "
              f"{GUESS_METHODS[report['method']]})")
    else:
        print(f"best strategy: {report['expected']:.3f} ± {report['standard_error']:.3f} cards right on average "
              f"(simulated: the exact best guess on {report['samples']:,} sampled decks, ± one standard error)")
        again = f" (repeat it with --seed={shlex.quote(seed)})" if fresh else ""
        print(f"seed: {seed}{again}")
    print(f"a random deck: {shown_fraction(report['random_deck'])} (exact)")
    return 0


GUESS_METHODS = {
    "position matrix": "the most likely card at each position, from the exact position matrix",
    "every order": "summed over every order of the deck",
    "states": "summed over the states of the closed-form posterior",
}
