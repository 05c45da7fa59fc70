"""The command line (``python -m shufflelab``): algorithms, shuffle, deal, seal, verify, exact, riffle-tv,
riffle-distances, riffles, tally, audit, guess.

Bad arguments exit with status 2 and one line on stderr (``verify`` exits with 1 when the
deal does not match its commitment); so does a user's shuffle (``exact --file``, ``tally
--file``) that cannot be read, compiled, run or walked, or that runs past its time limit.
Only the library's own errors (``ShuffleLabError``) and bad command lines become that line:
anything else is a bug, and its traceback is left to show.

``tally`` (shuffles of a built-in or of your file, counted as the page's lab counts them for
the same tally seed) and ``audit`` (orders from any engine, one a line) give the lab's
verdict, and exit with it, so a CI job can gate on it: 0 no bias, 1 biased or suspicious,
2 for too few shuffles to judge, bad arguments, or (``audit``) any bad line.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shlex
import sys
from collections.abc import Callable, Sequence

from . import catalog, clock, custom, exact, riffles, seal, tally
from .cards import DECK_KINDS, MAX_JOKERS_PER_PACK, MAX_NUMBERED_SIZE, MAX_PACKS, DeckSpec
from .deal import DEAL_STYLES, DEFAULT_STYLE
from .errors import ShuffleLabError
from .exact import guessing
from .lab.words import distance_sentence
from .link import (
    DEFAULT_CARDS_EACH,
    DEFAULT_PLAYERS,
    LAB_MAX_N,
    MAX_PAGE_DECK,
    MAX_PLAYERS,
    MAX_TALLY_SEED_LENGTH,
    DealSpec,
    outcome_data,
    outcome_of,
    quoted,
    text_problem,
)
from .rng import new_seed
from .urlquery import shown_bytes

PROG = "shufflelab"
USAGE_ERROR = 2
INTERRUPTED = 130  # what a shell reports for a command stopped by Ctrl-C (128 + SIGINT)


class UsageError(Exception):
    """A bad command line: the message is the whole one-line explanation."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line, not usage plus a message."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    """Return the parser of every subcommand; subcommands register through ``COMMANDS``."""
    parser = _Parser(prog=PROG, description="Shuffle, deal and measure card-shuffling algorithms.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    for name, (help_text, add_arguments, _) in COMMANDS.items():
        add_arguments(commands.add_parser(name, help=help_text, description=help_text))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit status."""
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command][2](args)
    except (UsageError, ShuffleLabError) as error:
        print(f"{PROG}: error: {_one_line(error)}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:  # Ctrl-C in a long tally or audit: stopped on purpose, no traceback
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return INTERRUPTED


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split())


# --- shared options --------------------------------------------------------------------


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
    """Options of ``deal``: the shuffle's options plus players, cards each and style."""
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
    for param in _all_params():
        parser.add_argument(f"--{param.name}", type=int, default=None, metavar="N",
                            help=f"{param.label.lower()} ({param.minimum}-{param.maximum}, default {param.default})")


def _all_params() -> list[catalog.Param]:
    seen: dict[str, catalog.Param] = {}
    for entry in catalog.entries():
        for param in entry.params:
            seen.setdefault(param.name, param)
    return list(seen.values())


def given_params(args: argparse.Namespace) -> dict:
    """Return the parameters given on the command line, by name."""
    return {p.name: getattr(args, p.name) for p in _all_params() if getattr(args, p.name) is not None}


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


# --- commands --------------------------------------------------------------------------


def run_algorithms(args: argparse.Namespace) -> int:
    """Print the registry: id, verdict, name, parameters and description."""
    rows = [
        {
            "id": a.id,
            "name": a.name,
            "verdict": a.verdict,
            "source": a.source,
            "description": a.description,
            "params": [{"name": p.name, "default": p.default, "min": p.minimum, "max": p.maximum}
                       for p in a.params],
        }
        for a in catalog.entries()
    ]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    width = max(len(row["id"]) for row in rows)
    for row in rows:
        params = "".join(f" [{p['name']}={p['default']}]" for p in row["params"])
        print(f"{row['id']:<{width}}  {row['verdict']:<8}  {row['name']}{params}")
        print(f"{'':<{width}}  {'':<8}  {row['description']}")
    return 0


def run_shuffle(args: argparse.Namespace) -> int:
    """Shuffle the deck and print its order."""
    spec = deal_from_args(args, players=1, cards_each=0, style=DEFAULT_STYLE)
    data = outcome_data(spec, outcome_of(spec))
    for key in ("players", "cards_each", "style", "hands", "hand_labels", "stock"):
        del data[key]
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(_header(spec))
        print(" ".join(data["labels"]))
    return 0


def add_deal_command_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``deal``: the deal's, plus a sealed deal's player seed."""
    add_deal_options(parser)
    add_player_seed_option(parser, "a sealed deal's player seed, mixed into the stream (default none)")


def run_deal(args: argparse.Namespace) -> int:
    """Shuffle, deal, and print the hands and the stock."""
    spec = deal_from_args(args, args.players, args.cards_each, args.style)
    data = outcome_data(spec, outcome_of(spec))
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
        return 0
    _print_deal(_header(spec), spec, data)
    return 0


def _print_deal(header: str, spec: DealSpec, data: dict) -> None:
    print(header)
    print(f"Deck:  {' '.join(data['labels'])}")
    for number, hand in enumerate(data["hand_labels"], start=1):
        print(f"Player {number}: {' '.join(hand)}")
    stock = spec.deck.labels(data["stock"])
    print(f"Stock ({len(stock)}): {' '.join(stock)}")


def _header(spec: DealSpec) -> str:
    return f"{_algorithm_with_params(spec)}, seed {spec.seed!r}, {spec.deck.describe()}, stream v{spec.version}"


def _algorithm_with_params(spec: DealSpec) -> str:
    """The algorithm id and its parameters as the output's headers write them: 'riffle-gsr, passes=7'."""
    return spec.algo + "".join(f", {k}={v}" for k, v in spec.params)


# --- sealed deals: commit, reveal, verify ------------------------------------------------------

MISMATCH = 1  # verify's exit status when the deal does not match the commitment
# The commitment fixes the hands in order (Player 1's, Player 2's, ...), not who sits where.
SEATS_NOT_SEALED = "not sealed: agree who gets Player 1's hand, Player 2's and so on before the deal"


def add_seal_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``seal``: the deal's, plus whether a player seed will be mixed in."""
    add_deal_options(parser)
    parser.add_argument("--with-player-seed", action="store_true",
                        help="the player gives a seed after seeing the commitment, and it is mixed into the stream")
    parser.add_argument("--allow-short-seed", action="store_true",
                        help=f"accept a --seed shorter than {seal.FRESH_SEED_LENGTH} characters (it could be guessed "
                             "from the commitment)")


def add_verify_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``verify``: the commitment and the revealed deal (its --seed required), or a reveal link."""
    parser.add_argument("--commitment", default=None, metavar="HEX", help="the commitment the dealer published")
    parser.add_argument("--link", default=None, metavar="URL",
                        help="a reveal link: the page's share link of the deal with its commit= (and pseed=); "
                             "it replaces the deal options")
    add_deal_options(parser)
    add_player_seed_option(parser, "the player seed, if the deal was sealed with one")
    deal_options = ["algo", "seed", "deck", "packs", "jokers", "size", "players", "cards_each", "style",
                    "player_seed"] + [p.name for p in _all_params()]
    parser.set_defaults(deal_defaults={dest: parser.get_default(dest) for dest in deal_options})


def run_seal(args: argparse.Namespace) -> int:
    """Seal a deal: print its commitment, and the seed the dealer keeps secret until the reveal."""
    seal.check_sealable(args.algo)  # before the catalog, which would only call "custom" unknown
    spec = deal_from_args(args, args.players, args.cards_each, args.style)
    problem = None if args.seed is None or args.allow_short_seed else seal.seal_seed_problem(spec.seed)
    if problem:
        raise UsageError(f"the seed {quoted(spec.seed)} {problem}; leave --seed out for a fresh one, or add --allow-short-seed")
    sealed = seal.commitment(spec, args.with_player_seed)
    check = _verify_command(spec, sealed, args.with_player_seed)
    if args.json:
        print(json.dumps({"scheme": seal.SCHEME, "commitment": sealed, "secret_seed": spec.seed,
                          "with_player_seed": args.with_player_seed, "stream": spec.version, "algo": spec.algo,
                          "params": spec.resolved_params(), "deck": spec.deck.as_dict(), "players": spec.players,
                          "cards_each": spec.cards_each, "style": spec.style, "covers_seats": False, "verify": check},
                         ensure_ascii=False))
        return 0
    print(f"Commitment:  {sealed}   (publish it before the deal)")
    print(f"Deal:        {_public_header(spec)}   (public)")
    print("Player seed: " + ("the player chooses one after seeing the commitment; it is mixed in"
                             if args.with_player_seed else "none"))
    print(f"Seats:       {SEATS_NOT_SEALED}")
    print(f"SECRET seed: {spec.seed}   (keep it until the reveal: whoever has it knows the cards)")
    print(f"Check after the reveal: {check}")
    return 0


def _public_header(spec: DealSpec) -> str:
    return (f"{_algorithm_with_params(spec)}, {spec.deck.describe()}, {spec.players} players × {spec.cards_each} cards, "
            f"{spec.style}, stream v{spec.version}")


def _verify_command(spec: DealSpec, sealed: str, with_player_seed: bool) -> str:
    """The command that checks this deal once the seed is out: SEED (and PLAYER_SEED) left to fill in."""
    deck = spec.deck
    words = ["python", "-m", PROG, "verify", "--commitment", sealed, "--algo", spec.algo]
    for name, value in spec.params:
        words += [f"--{name}", str(value)]
    words += ["--deck", deck.kind]
    words += ["--size", str(deck.size)] if deck.kind == "numbered" else ["--packs", str(deck.packs), "--jokers", str(deck.jokers)]
    words += ["--players", str(spec.players), "--cards-each", str(spec.cards_each), "--style", spec.style]
    command = " ".join(shlex.quote(word) for word in words) + " --seed=SEED"
    return command + (" --player-seed=PLAYER_SEED" if with_player_seed else "")


def run_verify(args: argparse.Namespace) -> int:
    """Check a revealed deal against its commitment; print the deal when it matches (exit 0), else say so (exit 1)."""
    wanted, spec = reveal_from_link(args) if args.link is not None else reveal_from_options(args)
    try:
        outcome = seal.verify(wanted, spec)
    except seal.SealMismatch:
        got = seal.commitment(spec)
        if args.json:
            print(json.dumps({"matches": False, "commitment": wanted, "computed": got}))
        else:
            print(f"Does NOT match: this deal seals to {got}, not to the commitment {wanted} "
                  f"({_mismatch_hint(wanted, spec)})")
        return MISMATCH
    data = outcome_data(spec, outcome)
    if args.json:
        print(json.dumps({"matches": True, "commitment": wanted, "player_seed": spec.player_seed, **data},
                         ensure_ascii=False))
        return 0
    print(f"Matches the commitment {wanted}")
    player = "" if spec.player_seed is None else f", player seed {spec.player_seed!r}"
    _print_deal(_header(spec) + player, spec, data)
    return 0


def _mismatch_hint(wanted: str, spec: DealSpec) -> str:
    """Return what to check when a deal does not match: the player seed, if flipping it alone would match."""
    mixed = spec.player_seed is not None
    if not seal.matches(wanted, spec, not mixed):
        return "check the seed and every deal option"
    if mixed:
        # Never suggest dropping it: that "match" would show cards the player had no part in.
        return ("WARNING: it was sealed without a player seed, so none was mixed in; a sealed deal checked "
                "without its player seed proves nothing about the player's part")
    return "it was sealed with a player seed: give --player-seed"


def reveal_from_options(args: argparse.Namespace) -> tuple[str, DealSpec]:
    """Return (commitment, revealed deal) from --commitment and the deal options."""
    if args.commitment is None:
        raise UsageError("verify needs --commitment (the one the dealer published), or --link with a reveal link")
    if args.seed is None:
        raise UsageError("verify needs --seed: the seed the dealer revealed")
    return seal.check_commitment(args.commitment), deal_from_args(args, args.players, args.cards_each, args.style)


def reveal_from_link(args: argparse.Namespace) -> tuple[str, DealSpec]:
    """Return (commitment, revealed deal) from --link, and --commitment if given: both must name the same one."""
    given = [dest for dest, default in args.deal_defaults.items() if getattr(args, dest) != default]
    if given:
        raise UsageError("--link carries the whole deal; leave out --" + ", --".join(d.replace("_", "-") for d in given))
    from_link, deal = seal.read_reveal_link(args.link)
    if args.commitment is None and not from_link:
        raise UsageError("the link carries no commit=; give the published commitment with --commitment")
    wanted = seal.check_commitment(args.commitment) if args.commitment is not None else from_link
    if from_link and wanted != from_link:
        raise UsageError(f"--commitment {wanted} is not the link's commit={from_link}")
    return wanted, deal


DEFAULT_TIME_LIMIT = 60.0  # seconds: the longest walk allowed, 1,000,000 paths of a user's swap-any, takes about 15 s here


def add_algorithm_or_file_options(parser: argparse.ArgumentParser) -> None:
    """``--algo`` and its parameters, or ``--file`` with your own shuffle: one or the other."""
    choice = parser.add_mutually_exclusive_group()
    add_algorithm_options(parser, choice)
    choice.add_argument("--file", metavar="PATH",
                        help="your own shuffle: a Python file that defines shuffle(cards, rng) (docs: Write your own shuffle)")


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


@contextlib.contextmanager
def shuffle_to_run(args: argparse.Namespace):
    """Yield (algorithm id, a time limit for each step of the user's code): the built-in ``--algo``, or the shuffle in
    ``--file`` registered for the block and unregistered after it, its errors one line naming the file, its prints on
    stderr (so that --json stays JSON)."""
    if args.file is None:
        yield catalog.get(args.algo).id, contextlib.nullcontext
        return
    check_time_limit(args.time_limit)
    source = _read_source(args.file)

    def limit():
        return custom.time_limit(args.time_limit)

    try:
        with contextlib.redirect_stdout(sys.stderr):
            with limit():  # its top level runs here: a loop there must not hang the command
                entry = custom.register_custom(source, args.file)
            try:
                yield entry.id, limit
            finally:
                catalog.unregister(entry.id)
    except custom.TimeLimitExceeded as error:
        raise UsageError(f"{args.file}: {error}; --time-limit SECONDS gives it longer") from None
    except ShuffleLabError as error:  # the code's own mistakes, and what the walk refuses
        raise UsageError(f"{args.file}: {error}") from None


def check_time_limit(seconds: float) -> None:
    """Raise UsageError unless ``seconds`` is a time limit: 0 (none) or more."""
    if not seconds >= 0:  # also refuses nan
        raise UsageError(f"--time-limit must be 0 (no limit) or more seconds, not {seconds:g}")


def _read_source(path: str) -> str:
    """Return the text of a user's shuffle file, or raise UsageError naming it (unreadable, or not UTF-8)."""
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return handle.read()
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not UTF-8 text") from None


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


# --- the lab's verdict in the command line: tally and audit -----------------------------------

# A gate must not pass a run too short to judge: too-few is "could not be judged", as bad input is.
VERDICT_STATUS = {"no-bias": 0, "suspicious": 1, "biased": 1, "too-few": USAGE_ERROR}
DEFAULT_TALLY_CARDS = 52  # the lab's default n
DEFAULT_SHUFFLES = 100_000
MAX_SHUFFLES = 10**12
MAX_WORKERS = 256
TALLY_STREAM_VERSION = 1  # tests/golden/tally_v1.json pins it
PROGRESS_SECONDS = 0.2  # at most five redraws a second
TALLY_CHUNK_SECONDS = 0.25  # one process: the tally runs in chunks of about this long between redraws


class Progress:
    """One line of progress on stderr, redrawn in place, only when stderr is a terminal (nothing when piped)."""

    def __init__(self) -> None:
        stream = sys.stderr
        self.shown = bool(getattr(stream, "isatty", None)) and stream.isatty()
        self.drawn = 0  # characters on the line now
        self.last = 0.0

    def show(self, text: str) -> None:
        """Redraw the line with ``text``, unless it was redrawn less than PROGRESS_SECONDS ago."""
        if not self.shown or clock.now() - self.last < PROGRESS_SECONDS:
            return
        self.last = clock.now()
        sys.stderr.write("\r" + text.ljust(self.drawn))
        sys.stderr.flush()
        self.drawn = len(text)

    def clear(self) -> None:
        """Erase the line, so what follows starts on a clean one."""
        if self.shown and self.drawn:
            sys.stderr.write("\r" + " " * self.drawn + "\r")
            sys.stderr.flush()
            self.drawn = 0


def add_tally_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``tally``: algorithm or file, its parameters, cards, shuffles, tally seed, workers, output."""
    add_algorithm_or_file_options(parser)
    parser.add_argument("--cards", type=int, default=DEFAULT_TALLY_CARDS, metavar="N",
                        help=f"deck size, {tally.MIN_CARDS}-{tally.MAX_CARDS} (default {DEFAULT_TALLY_CARDS}; "
                             f"the page's lab goes to {LAB_MAX_N})")
    parser.add_argument("--shuffles", type=int, default=DEFAULT_SHUFFLES, metavar="N",
                        help=f"shuffles to tally, 1-{MAX_SHUFFLES:,} (default {DEFAULT_SHUFFLES:,})")
    parser.add_argument("--seed", default=None, metavar="TEXT",
                        help=f"tally seed, the lab's tseed: 1 to {MAX_TALLY_SEED_LENGTH} characters, no control "
                             "characters (default: a fresh one, printed)")
    parser.add_argument("--workers", type=int, default=1, metavar="K",
                        help="processes that make and count the decks, the counts the same for any K (default 1)")
    parser.add_argument("--no-exact", action="store_true",
                        help="skip the exact card × position matrix (its figures are left out; the verdict is the same)")
    parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
                        help=f"with --file, stop code still running after this long in one step (its top level, a batch "
                             f"of shuffles, the exact walk); 0 for no limit (default {DEFAULT_TIME_LIMIT:g})")
    parser.add_argument("--json", action="store_true", help="print JSON: the counts, the verdict, its figures")


def tally_seed_from(text: str | None) -> tuple[str, bool]:
    """Return (the tally seed, whether it is fresh): ``text`` if the lab's tseed field would take it, else UsageError."""
    if text is None:
        return new_seed(), True
    seed = utf8_argument(text, "--seed")
    problem = text_problem(seed, MAX_TALLY_SEED_LENGTH)
    if problem:
        raise UsageError(f"--seed {quoted(seed)} {problem}")
    return seed, False


def run_tally(args: argparse.Namespace) -> int:
    """Tally shuffles as the page's lab does for the same tally seed, and print its verdict; exit 0, 1 or 2 by it."""
    # imported here: the analysis is only needed by this command, and the others start faster without it
    from .lab.counts import count_to
    from .lab.protocol import TallyConfig
    from .lab.report import verdict_data
    from .lab.service import Session

    if not 1 <= args.shuffles <= MAX_SHUFFLES:
        raise UsageError(f"--shuffles must be 1 to {MAX_SHUFFLES:,}, not {args.shuffles}")
    if not 1 <= args.workers <= MAX_WORKERS:
        raise UsageError(f"--workers must be 1 to {MAX_WORKERS}, not {args.workers}")
    check_time_limit(args.time_limit)
    seed, fresh = tally_seed_from(args.seed)
    if not tally.MIN_CARDS <= args.cards <= tally.MAX_CARDS:
        raise UsageError(f"--cards must be {tally.MIN_CARDS} to {tally.MAX_CARDS}, not {args.cards}")
    progress = Progress()
    with shuffle_to_run(args) as (algo, limit):
        config = TallyConfig(algo, sorted(given_params(args).items()), args.cards, seed, None)
        session = Session(config, in_process=True)  # the page's session: its tally, and its exact answers
        if not args.no_exact:
            with limit():
                session.finish_exact(set(), progress=lambda done: progress.show(f"exact matrix: {done:.0%}"))
        workers = _processes(session.algo, args.workers)
        started = clock.now()
        show = _progress_line(session, args.shuffles, progress)
        counts, fixed_points = count_to(session, args.shuffles, workers, TALLY_CHUNK_SECONDS, limit, show)
        seconds = clock.now() - started
        progress.clear()
        # while the user's shuffle is still registered: what the exact answers model asks the catalog
        data = {"algo": session.algo, "params": session.params, "file": args.file, "seed": seed, "fresh_seed": fresh,
                "tally_stream": TALLY_STREAM_VERSION, **verdict_data(counts, fixed_points, session.summary(counts, fixed_points)),
                "exact": _exact_data(session, args.no_exact), "workers": workers, "seconds": round(seconds, 3)}
    _print_verdict(data, _tally_header(data), args.json)
    return _verdict_status(data, f"run at least {data['minimum_shuffles']:,} shuffles (--shuffles)")


def _processes(algo: str, workers: int) -> int:
    """Return the processes the tally runs in: --workers, or 1, said on stderr, when splitting would change its counts."""
    from .lab.counts import processes_for  # imported here: only tally needs it, as in run_tally

    processes = processes_for(algo, workers)
    if processes < workers:
        print(f"{PROG}: note: {algo} decides what to draw from what it drew, so its tally cannot be split "
              "without changing its counts; it runs in one process", file=sys.stderr)
    return processes


def _progress_line(session, total: int, progress: Progress):
    """Return what ``count_to`` calls after each chunk: it redraws the progress line, with the verdict so far."""
    started = clock.now()

    def show(done: int, counts, fixed_points) -> None:
        rate = done / max(clock.now() - started, 1e-9)
        level = session.summary(counts, fixed_points)["verdict"] if progress.shown else ""  # only when it is drawn
        progress.show(f"{done:,} of {total:,} shuffles ({done / total:.0%}), {rate:,.0f}/s, verdict so far: {level}")

    return show


def _exact_data(session, skipped: bool) -> dict:
    """Return what the exact answers gave: the matrix (used in the figures, not printed), the distance, or why not."""
    if skipped:
        return {"matrix": False, "reason": "skipped (--no-exact)", "distance": None, "distance_reason": None,
                "model": None}
    return {"matrix": session.matrix is not None, "reason": session.matrix_reason or None,
            "distance": session.distance, "distance_reason": session.distance_reason or None, "model": session.model()}


def _tally_header(data: dict) -> list[str]:
    """The lines above a tally's verdict: what was tallied, the seed that repeats it, how fast, what is exact."""
    name = data["algo"] if data["file"] is None else f"{data['algo']} ({data['file']})"
    params = "".join(f", {k}={v}" for k, v in data["params"].items())
    fresh = f" (fresh: --seed={shlex.quote(data['seed'])} repeats this run)" if data["fresh_seed"] else ""
    rate = data["shuffles"] / data["seconds"] if data["seconds"] else 0
    workers = f", {data['workers']} workers" if data["workers"] > 1 else ""
    lines = [f"{name}{params} on {data['cards']} cards: {data['shuffles']:,} shuffles, tally seed {data['seed']!r}"
             f"{fresh}, tally stream v{data['tally_stream']}",
             f"Counted in {data['seconds']:.2f} s ({rate:,.0f} shuffles/s{workers})."]
    exact = data["exact"]
    if exact["distance"]:
        lines.append(distance_sentence(exact["distance"]))  # the page's lab shows the same sentence
    if not exact["matrix"]:
        lines.append(f"No exact matrix: {exact['reason'].rstrip('.')}.")
    if exact["model"]:
        lines.append(f"Exact model: {exact['model']}.")
    return lines


def _print_verdict(data: dict, header: list[str], as_json: bool) -> None:
    """Print the verdict as JSON, or as the header, the verdict, its figures, the heat map and the fixed points."""
    from .lab.report import verdict_lines

    if as_json:
        print(json.dumps(data, ensure_ascii=False))
        return
    print("\n".join(header + [""] + verdict_lines(data)))


def _verdict_status(data: dict, more: str) -> int:
    """Return the exit status of a verdict; when it is too-few, also say so in one line on stderr (``more``: the fix)."""
    if data["verdict"] == "too-few" and data["shuffles"] < data["minimum_shuffles"]:
        print(f"{PROG}: error: no verdict from {data['shuffles']:,} shuffles of {data['cards']} cards: "
              f"{data['minimum_shuffles']:,} are needed; {more}", file=sys.stderr)
    elif data["verdict"] == "too-few":  # enough for the position test, yet no verdict: say what the lab says
        print(f"{PROG}: error: no verdict: {data['sentence']}", file=sys.stderr)
    return VERDICT_STATUS[data["verdict"]]


def add_audit_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``audit``: the file of orders (or -), the deck size if it is not the first order's, output."""
    parser.add_argument("orders", metavar="ORDERS",
                        help="a text file of orders, one a line, top card first, cards 0..n-1 separated by spaces or "
                             "commas; - reads standard input")
    parser.add_argument("--cards", type=int, default=None, metavar="N",
                        help=f"deck size, {tally.MIN_CARDS}-{tally.MAX_CARDS} (default: the first order's length)")
    parser.add_argument("--json", action="store_true", help="print JSON: the counts, the verdict, its figures")


def run_audit(args: argparse.Namespace) -> int:
    """Count orders from any engine as the lab counts its tally, and print its verdict; exit 0, 1 or 2 by it."""
    from .audit import MAX_REPORTED_BAD_LINES, audit_file
    from .lab.report import verdict_data

    started = clock.now()
    audit = audit_file(args.orders, args.cards, sys.stdin.buffer if args.orders == "-" else None)
    seconds = clock.now() - started
    for number, problem in audit.bad:
        print(f"{PROG}: {args.orders}: line {number}: {problem}", file=sys.stderr)
    if audit.bad_lines > MAX_REPORTED_BAD_LINES:
        print(f"{PROG}: {args.orders}: and {audit.bad_lines - MAX_REPORTED_BAD_LINES:,} more bad lines",
              file=sys.stderr)
    if not audit.orders:
        raise UsageError(f"{args.orders} holds no order of cards 0 to n-1 (one order a line, top card first)")
    data = {"source": args.orders, "lines": audit.lines, "bad_lines": audit.bad_lines,
            "bad_line_examples": [{"line": number, "problem": problem} for number, problem in audit.bad],
            **verdict_data(audit.counts, audit.fixed_points), "seconds": round(seconds, 3)}
    bad = f", {audit.bad_lines:,} bad lines not counted" if audit.bad_lines else ""
    header = [f"{args.orders}: {data['shuffles']:,} orders of {data['cards']} cards from {audit.lines:,} lines{bad}; "
              f"read in {seconds:.2f} s."]
    _print_verdict(data, header, args.json)
    status = _verdict_status(data, "give more orders")
    if audit.bad_lines:
        # malformed lines are the engine's or the pipe's fault: a gate must not judge on what is left of them
        print(f"{PROG}: error: {audit.bad_lines:,} bad lines in {args.orders} (not counted)", file=sys.stderr)
        return USAGE_ERROR
    return status


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
                             f"{guessing.MAX_STATE_SUM_CARDS} cards), 2-{guessing.MAX_SAMPLES:,} "
                             f"(default {guessing.DEFAULT_SAMPLES:,})")
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


def _add_json_only(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


Command = tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]

COMMANDS: dict[str, Command] = {
    "algorithms": ("list every algorithm with its verdict", _add_json_only, run_algorithms),
    "shuffle": ("shuffle a deck with a seed and print its order", add_shuffle_options, run_shuffle),
    "deal": ("shuffle, then deal hands from the top", add_deal_command_options, run_deal),
    "seal": ("commit to a deal before dealing it: print its commitment and the secret seed", add_seal_options, run_seal),
    "verify": ("check a revealed deal against its commitment, and show it", add_verify_options, run_verify),
    "exact": ("every order's exact probability for a tiny deck, and the distance to uniform (your own shuffle with --file)",
              add_exact_options, run_exact),
    "riffle-tv": ("exact distance to uniform after 1..K riffles (Bayer & Diaconis)",
                  add_riffle_tv_options, run_riffle_tv),
    "riffle-distances": ("total variation, separation and KL distances to uniform after 1..K riffles, and what each "
                         "means for a bet", add_riffle_distances_options, run_riffle_distances),
    "riffles": ("count a real deck's rising sequences after your riffles and say how many riffles it looks like",
                add_riffles_options, run_riffles),
    "tally": ("tally shuffles and give the bias lab's verdict, as the page does for the same tally seed (exit 0, 1 or 2)",
              add_tally_options, run_tally),
    "audit": ("give the bias lab's verdict on orders from any engine, one a line (exit 0, 1 or 2)",
              add_audit_options, run_audit),
    "guess": ("the guessing game: how many cards the best guesser calls right after K riffles, beside a random deck",
              add_guess_options, run_guess),
}
