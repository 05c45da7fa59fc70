"""Deals and seals: ``algorithms``, ``shuffle``, ``deal``, ``seal`` and ``verify``.

The cards are ``link.outcome_of``'s, the page's, card for card; a sealed deal's commitment
and its checks are ``seal``'s. ``verify`` exits with FINDING (1) when the deal does not
match its commitment.
"""

from __future__ import annotations

import argparse
import json
import shlex

from .. import catalog, seal
from ..deal import DEFAULT_STYLE
from ..link import DealSpec, outcome_data, outcome_of, quoted
from .common import (
    FINDING,
    PROG,
    UsageError,
    add_deal_options,
    add_player_seed_option,
    all_params,
    deal_from_args,
)

MISMATCH = FINDING  # verify's exit status when the deal does not match the commitment
# The commitment fixes the hands in order (Player 1's, Player 2's, ...), not who sits where.
SEATS_NOT_SEALED = "not sealed: agree who gets Player 1's hand, Player 2's and so on before the deal"


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
    """Print a dealt deal as text: the header, the deck, each player's hand, the stock."""
    print(header)
    print(f"Deck:  {' '.join(data['labels'])}")
    for number, hand in enumerate(data["hand_labels"], start=1):
        print(f"Player {number}: {' '.join(hand)}")
    stock = spec.deck.labels(data["stock"])
    print(f"Stock ({len(stock)}): {' '.join(stock)}")


def _header(spec: DealSpec) -> str:
    """Return the line above a deal's cards: algorithm, seed, deck and stream, all it takes to deal it again."""
    return f"{_algorithm_with_params(spec)}, seed {spec.seed!r}, {spec.deck.describe()}, stream v{spec.version}"


def _algorithm_with_params(spec: DealSpec) -> str:
    """The algorithm id and its parameters as the output's headers write them: 'riffle-gsr, passes=7'."""
    return spec.algo + "".join(f", {k}={v}" for k, v in spec.params)


# --- sealed deals: commit, reveal, verify ------------------------------------------------------


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
                    "player_seed"] + [p.name for p in all_params()]
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
    """Return what a sealed deal may publish of itself: everything but the seed."""
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
