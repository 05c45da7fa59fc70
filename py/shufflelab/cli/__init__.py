"""The command line (``python -m shufflelab``): algorithms, shuffle, deal, seal, verify, exact, riffle-tv,
riffle-distances, riffles, tally, audit, recover, guess.

Bad arguments exit with status 2 and one line on stderr (``verify`` exits with 1 when the
deal does not match its commitment); so does a user's shuffle (``exact --file``, ``tally
--file``) that cannot be read, compiled, run or walked, or that runs past its time limit.
Only the library's own errors (``ShuffleLabError``) and bad command lines become that line:
anything else is a bug, and its traceback is left to show.

``tally`` (shuffles of a built-in or of your file, counted as the page's lab counts them for
the same tally seed) and ``audit`` (orders from any engine, one a line) give the lab's
verdict, and exit with it, so a CI job can gate on it: 0 no bias, 1 biased or suspicious,
2 for too few shuffles to judge, bad arguments, or (``audit``) any bad line.

One module a family of commands: ``deals`` (algorithms, shuffle, deal, seal, verify),
``exact``, ``riffles`` (riffle-tv, riffle-distances, riffles, guess) and ``verdicts``
(tally, audit) and ``recover``; ``common`` holds what they share, ``own_shuffle`` the ``--file`` of exact and
tally. ``COMMANDS`` names each command's functions by module, and a run imports only the
chosen command's module: ``shuffle`` never loads the analysis that ``tally`` needs.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from ..errors import ShuffleLabError
from .common import INTERRUPTED, PROG, USAGE_ERROR, Parser, UsageError, one_line

__all__ = ["COMMANDS", "build_parser", "main"]

# name -> (help text, the function that adds its options, the function that runs it), each function named as
# "module:function" in this package, as the catalog names its models: only the chosen command's module is imported.
Command = tuple[str, str, str]

COMMANDS: dict[str, Command] = {
    "algorithms": ("list every algorithm with its verdict", "common:add_json_option", "deals:run_algorithms"),
    "shuffle": ("shuffle a deck with a seed and print its order", "common:add_shuffle_options", "deals:run_shuffle"),
    "deal": ("shuffle, then deal hands from the top", "deals:add_deal_command_options", "deals:run_deal"),
    "seal": ("commit to a deal before dealing it: print its commitment and the secret seed", "deals:add_seal_options",
             "deals:run_seal"),
    "verify": ("check a revealed deal against its commitment, and show it", "deals:add_verify_options",
               "deals:run_verify"),
    "exact": ("every order's exact probability for a tiny deck, and the distance to uniform (your own shuffle with --file)",
              "exact:add_exact_options", "exact:run_exact"),
    "riffle-tv": ("exact distance to uniform after 1..K riffles (Bayer & Diaconis)",
                  "riffles:add_riffle_tv_options", "riffles:run_riffle_tv"),
    "riffle-distances": ("total variation, separation and KL distances to uniform after 1..K riffles, and what each "
                         "means for a bet", "riffles:add_riffle_distances_options", "riffles:run_riffle_distances"),
    "riffles": ("count a real deck's rising sequences after your riffles and say how many riffles it looks like",
                "riffles:add_riffles_options", "riffles:run_riffles"),
    "tally": ("tally shuffles and give the bias lab's verdict, as the page does for the same tally seed (exit 0, 1 or 2)",
              "verdicts:add_tally_options", "verdicts:run_tally"),
    "audit": ("give the bias lab's verdict on orders from any engine, one a line (exit 0, 1 or 2)",
              "verdicts:add_audit_options", "verdicts:run_audit"),
    "recover": ("the cheater's view: find the srand seed of a clock-seeded c-rand deal from the cards one player sees, "
                "and print the whole deck (exit 1 when found)", "recover:add_recover_options", "recover:run_recover"),
    "guess": ("the guessing game: how many cards the best guesser calls right after K riffles, beside a random deck",
              "riffles:add_guess_options", "riffles:run_guess"),
}


def command_function(reference: str):
    """Return the function a ``COMMANDS`` reference names ("module:function"), importing that module alone."""
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """Return the parser of every subcommand, each with its options; with ``only``, only that command's options are
    added and its module imported (none for a name that is no command): the others are there by name and help text,
    which is all that listing or refusing them takes."""
    parser = Parser(prog=PROG, description="Shuffle, deal and measure card-shuffling algorithms.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True
    for name, (help_text, add_arguments, _) in COMMANDS.items():
        subparser = commands.add_parser(name, help=help_text, description=help_text)
        if only is None or only == name:
            command_function(add_arguments)(subparser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = build_parser(chosen_command(argv)).parse_args(argv)
        return command_function(COMMANDS[args.command][2])(args)
    except (UsageError, ShuffleLabError) as error:
        print(f"{PROG}: error: {one_line(error)}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:  # Ctrl-C in a long tally or audit: stopped on purpose, no traceback
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return INTERRUPTED


def chosen_command(argv: Sequence[str]) -> str:
    """Return the command ``argv`` names, '' if none: its first word that is not an option, since the top level has no
    option that takes a value. A word that names no command is returned as it is, for the parser to refuse."""
    return next((word for word in argv if not word.startswith("-")), "")
