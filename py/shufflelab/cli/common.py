"""What every command shares: the exit statuses, the one-line error, the parser, and the options of many commands.

Every command's module imports this one, so it imports only what choosing an algorithm,
a deck and a deal needs (the portable core): no analysis module, which would slow every
command down, the quick ones too.
"""

from __future__ import annotations

import argparse

from .. import catalog
from ..cards import DECK_KINDS, MAX_JOKERS_PER_PACK, MAX_NUMBERED_SIZE, MAX_PACKS, DeckSpec
from ..deal import DEAL_STYLES, DEFAULT_STYLE
from ..link import (
    DEFAULT_CARDS_EACH,
    DEFAULT_PLAYERS,
    MAX_PAGE_DECK,
    MAX_PLAYERS,
    MAX_TALLY_SEED_LENGTH,
    DealSpec,
    quoted,
    text_problem,
)
from ..rng import new_seed
from ..urlquery import shown_bytes

PROG = "shufflelab"
# Exit statuses: 0 all is well, FINDING the answer is "no" (a deal that does not match its commitment, a biased or
# suspicious verdict), USAGE_ERROR the input could not be used (one line on stderr says why).
FINDING = 1
USAGE_ERROR = 2
INTERRUPTED = 130  # what a shell reports for a command stopped by Ctrl-C (128 + SIGINT)


class UsageError(Exception):
    """A bad command line: the message is the whole one-line explanation."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line, not usage plus a message."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def one_line(error: Exception) -> str:
    """Return an error's message on one line: every run of whitespace, line breaks too, one space."""
    return " ".join(str(error).split())


# --- shared options --------------------------------------------------------------------


def add_json_option(parser: argparse.ArgumentParser) -> None:
    """The --json option of a command whose JSON needs no note (``algorithms``)."""
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def add_shuffle_options(parser: argparse.ArgumentParser) -> None:
    """Options that choose an algorithm, its parameters, the seed and the deck."""
    add_algorithm_options(parser)
    parser.add_argument("--seed", default=None,
                        help="seed text for stream v1: 1 to 256 characters, no control characters "
                             "(default: a fresh 256-bit seed, printed)")
    parser.add_argument("--deck", choices=DECK_KINDS, default="standard", help="deck kind (default standard)")
    parser.add_argument("--packs", type=int, default=None, metavar="N", help=f"packs, 1-{MAX_PACKS} (default 1)")
    parser.add_argument("--jokers", type=int, default=None, metavar="N",
                        help=f"jokers per pack, 0-{MAX_JOKERS_PER_PACK} (default 0)")
    parser.add_argument("--size", type=int, default=None, metavar="N",
                        help=f"items in a numbered deck, 1-{MAX_NUMBERED_SIZE} (only with --deck numbered)")
    # a link the page would correct would show other cards, so "query" is null where the page can't go
    parser.add_argument("--json", action="store_true",
                        help=f"print JSON instead of text; its \"query\", the page's link to the deal where the "
                             f"output has one, is null when the page cannot show the deal: a numbered deck over "
                             f"{MAX_PAGE_DECK:,} items, or over {MAX_PLAYERS} players")


def add_deal_options(parser: argparse.ArgumentParser) -> None:
    """Options of a deal (``deal``, ``seal``, ``verify``): the shuffle's options plus players, cards each and style."""
    add_shuffle_options(parser)
    parser.add_argument("--players", type=int, default=DEFAULT_PLAYERS, metavar="P",
                        help=f"number of players (default {DEFAULT_PLAYERS})")
    parser.add_argument("--cards-each", type=int, default=DEFAULT_CARDS_EACH, metavar="H",
                        help=f"cards per player (default {DEFAULT_CARDS_EACH})")
    parser.add_argument("--style", choices=DEAL_STYLES, default=DEFAULT_STYLE,
                        help="round-robin (one at a time), blocks, or pick (random cards from anywhere)")


def add_algorithm_options(parser: argparse.ArgumentParser, choice=None) -> None:
    """Options that choose an algorithm and its parameters (every parameter any entry has).

    ``choice``, a mutually exclusive group of ``parser``, takes ``--algo`` when other ways
    to choose a shuffle exclude it.
    """
    (choice or parser).add_argument("--algo", default=catalog.DEFAULT_ALGORITHM, metavar="ID",
                                    help=f"algorithm id (default {catalog.DEFAULT_ALGORITHM}; see 'algorithms')")
    for param in all_params():
        parser.add_argument(f"--{param.name}", type=int, default=None, metavar="N",
                            help=f"{param.label.lower()} ({param.minimum}-{param.maximum}, default {param.default})")


def all_params() -> list[catalog.Param]:
    """Return every parameter any catalog entry has, once each by name (the first entry's, for its help text)."""
    seen: dict[str, catalog.Param] = {}
    for entry in catalog.entries():
        for param in entry.params:
            seen.setdefault(param.name, param)
    return list(seen.values())


def given_params(args: argparse.Namespace) -> dict:
    """Return the parameters given on the command line, by name."""
    return {p.name: getattr(args, p.name) for p in all_params() if getattr(args, p.name) is not None}


def deck_from_args(args: argparse.Namespace) -> DeckSpec:
    """Return the deck the options describe; mixing numbered and pack options is an error."""
    if args.deck == "numbered":
        if args.packs is not None or args.jokers is not None:
            raise UsageError("--packs and --jokers do not apply to --deck numbered")
        return DeckSpec(kind="numbered", size=52 if args.size is None else args.size)
    if args.size is not None:
        raise UsageError("--size applies only to --deck numbered")
    packs = 1 if args.packs is None else args.packs
    jokers = 0 if args.jokers is None else args.jokers
    return DeckSpec(kind=args.deck, packs=packs, jokers=jokers)


def deal_from_args(args: argparse.Namespace, players: int, cards_each: int, style: str) -> DealSpec:
    """Return the deal the options describe, every value checked (ShuffleLabError names a bad one)."""
    seed = new_seed() if args.seed is None else utf8_argument(args.seed, "--seed")
    player_seed = getattr(args, "player_seed", None)
    if player_seed is not None:
        player_seed = utf8_argument(player_seed, "--player-seed")
    return DealSpec(args.algo, given_params(args), seed, deck_from_args(args), players, cards_each, style,
                    player_seed=player_seed)


def utf8_argument(text: str, option: str) -> str:
    """Return ``text`` if the command line gave it as UTF-8, else raise UsageError quoting it (never as a surrogate)."""
    # Python hands undecodable argv bytes over as lone surrogates U+DC80-U+DCFF (surrogateescape);
    # they are bytes that are not UTF-8, not characters, so say that, as the link reader does.
    if any("\udc80" <= character <= "\udcff" for character in text):
        shown = shown_bytes(text.encode("utf-8", "surrogateescape"))
        raise UsageError(f"{option} {quoted(shown)} is not valid UTF-8 text")
    return text


def add_player_seed_option(parser: argparse.ArgumentParser, help_text: str) -> None:
    """The --player-seed option (--player-seed=TEXT for one that begins with '-')."""
    parser.add_argument("--player-seed", default=None, metavar="TEXT", help=help_text)


def tally_seed_from(text: str | None) -> tuple[str, bool]:
    """Return (the tally seed, whether it is fresh): ``text`` if the lab's tseed field would take it, else UsageError."""
    if text is None:
        return new_seed(), True
    seed = utf8_argument(text, "--seed")
    problem = text_problem(seed, MAX_TALLY_SEED_LENGTH)
    if problem:
        raise UsageError(f"--seed {quoted(seed)} {problem}")
    return seed, False
