"""``recover``: the cheater's view. From the top cards of a deal by seed 003's shuffle seeded with ``srand(seed)``,
find the seeds of a window that deal them, and with one left, print the whole deck.

Exit 1 when a seed of the window deals the seen cards (the deal can be predicted: a finding),
0 when none does, 2 for bad input.
"""

from __future__ import annotations

import argparse
import json

from .. import clock, recover
from ..cards import standard_deck
from .common import FINDING


def add_recover_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``recover``: the algorithm (c-rand only), the seen cards, the window of seeds, output format."""
    parser.add_argument("--algo", choices=("c-rand",), default="c-rand",
                        help="the dealer's shuffle: seed 003's, rand() %% 52 seeded by srand (the only one recoverable)")
    parser.add_argument("--seen", required=True, metavar="CARDS",
                        help="the top cards in order, as ids 0..51 or codes (AS 10H A♠), spaces or commas between")
    parser.add_argument("--seeds", required=True, metavar="A-B",
                        help="the srand seeds the deal could have used, an inclusive range (for srand(time(NULL)): "
                             "the Unix times of the window)")
    parser.add_argument("--json", action="store_true", help="print JSON: matches, order (when one seed matches), searched")


def run_recover(args: argparse.Namespace) -> int:
    """Search the window, print how the candidates narrowed and, with one seed left, the whole deck."""
    seen = recover.read_seen(args.seen)
    first, last = recover.read_window(args.seeds)
    started = clock.now()
    search = recover.Search(seen, first, last).run()
    seconds = clock.now() - started
    order = recover.deal_of(search.found[0]) if len(search.found) == 1 else None
    if args.json:
        print(json.dumps({"matches": search.found, "order": order, "searched": search.searched,
                          "seconds": round(seconds, 3)}))
    else:
        print(f"Searched {search.searched:,} seeds ({first}-{last}) in {seconds:.2f} s.")
        print("\n".join(recover.seen_words(search)))
        print(recover.verdict_words(search))
        if order is not None:
            deck = standard_deck()
            print("The whole deck, top first: " + " ".join(card.label for card in deck.cards(order)))
    return FINDING if search.found else 0
