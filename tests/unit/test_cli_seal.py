"""The command line's sealed deals: seal, then verify after the reveal; exit 0 on a match, 1 on none, 2 on bad arguments."""

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from shufflelab.cards import DeckSpec
from shufflelab.cli import main
from shufflelab.link import DealSpec, Link, View, read_link
from shufflelab.seal import commitment, play_sealed

ROOT = Path(__file__).resolve().parent.parent.parent
VECTORS = json.loads((ROOT / "tests" / "golden" / "seal_v1.json").read_text(encoding="utf-8"))["seals"]
DEAL = ["--players", "3", "--cards-each", "4", "--style", "blocks", "--deck", "euchre"]
STRONG = "Kv3h2Zx8T0mYpQ7wL5cN1bR9sD4fG6jH2kA8eU0oI3y"


def run(capsys, *argv):
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def sealed(capsys, *argv):
    status, out, err = run(capsys, "seal", *argv, "--json")
    assert status == 0 and err == "", err
    return json.loads(out)


def test_seal_then_verify_gives_the_deal_commands_json(capsys):
    made = sealed(capsys, *DEAL)
    assert len(made["secret_seed"]) == 43 and made["with_player_seed"] is False
    spec = DealSpec("fisher-yates", None, made["secret_seed"], DeckSpec("euchre"), 3, 4, "blocks")
    assert made["commitment"] == commitment(spec)
    status, out, err = run(capsys, "verify", "--commitment", made["commitment"], *DEAL, f"--seed={made['secret_seed']}",
                           "--json")
    assert status == 0 and err == ""
    checked = json.loads(out)
    _, dealt, _ = run(capsys, "deal", *DEAL, f"--seed={made['secret_seed']}", "--json")
    assert {"matches": True, "commitment": made["commitment"], "player_seed": None, **json.loads(dealt)} == checked


def test_verify_prints_the_deal_commands_text_under_the_match(capsys):
    made = sealed(capsys, *DEAL, "--seed", STRONG)
    status, out, _ = run(capsys, "verify", "--commitment", made["commitment"].upper(), *DEAL, "--seed", STRONG)
    _, dealt, _ = run(capsys, "deal", *DEAL, "--seed", STRONG)
    assert status == 0
    assert out == f"Matches the commitment {made['commitment']}\n" + dealt


def test_a_player_seed_deals_other_cards_and_is_needed_to_verify(capsys):
    made = sealed(capsys, *DEAL, "--seed", STRONG, "--with-player-seed")
    assert made["with_player_seed"] is True and made["verify"].endswith("--seed=SEED --player-seed=PLAYER_SEED")
    spec = DealSpec("fisher-yates", None, STRONG, DeckSpec("euchre"), 3, 4, "blocks")
    argv = ["verify", "--commitment", made["commitment"], *DEAL, "--seed", STRONG]
    status, out, _ = run(capsys, *argv, "--player-seed", "lucky 7", "--json")
    data = json.loads(out)
    outcome = play_sealed(spec, "lucky 7")
    assert status == 0 and data["matches"] and data["player_seed"] == "lucky 7"
    assert (data["order"], data["hands"], data["stock"]) == (outcome.order, outcome.deal.hands, outcome.deal.stock)
    assert read_link(data["query"])[0].deal == spec.replace(player_seed="lucky 7")  # the link carries it: pseed=
    _, plain, _ = run(capsys, "deal", *DEAL, "--seed", STRONG, "--json")
    assert json.loads(plain)["order"] != data["order"]
    _, mixed, _ = run(capsys, "deal", *DEAL, "--seed", STRONG, "--player-seed", "lucky 7", "--json")
    assert {"matches": True, "commitment": made["commitment"], "player_seed": "lucky 7", **json.loads(mixed)} == data
    status, text, _ = run(capsys, *argv, "--player-seed", "lucky 7")
    assert status == 0 and text.splitlines()[1].endswith(", stream v1, player seed 'lucky 7'")
    # without the player seed the commitment is not this deal's
    status, out, err = run(capsys, *argv)
    assert status == 1 and err == "" and "(it was sealed with a player seed: give --player-seed)" in out


def test_a_deal_that_does_not_match_exits_1_and_says_why_on_one_line(capsys):
    made = sealed(capsys, *DEAL, "--seed", STRONG)
    status, out, err = run(capsys, "verify", "--commitment", made["commitment"], *DEAL, "--seed", STRONG + "!")
    assert status == 1 and err == "" and out.count("\n") == 1
    assert out.startswith("Does NOT match: this deal seals to ") and f"not to the commitment {made['commitment']}" in out
    assert out.endswith(f"not to the commitment {made['commitment']} (check the seed and every deal option)\n")
    # every option counts: here the deal style
    status, out, _ = run(capsys, "verify", "--commitment", made["commitment"], *DEAL[:-4], "--deck", "euchre",
                         "--seed", STRONG, "--json")
    round_robin = DealSpec("fisher-yates", None, STRONG, DeckSpec("euchre"), 3, 4, "round-robin")
    assert status == 1 and json.loads(out) == {"matches": False, "commitment": made["commitment"],
                                               "computed": commitment(round_robin)}


def test_a_player_seed_the_deal_was_not_sealed_with_is_a_warning_not_a_hint_to_drop_it(capsys):
    made = sealed(capsys, *DEAL, "--seed", STRONG)
    status, out, err = run(capsys, "verify", "--commitment", made["commitment"], *DEAL, "--seed", STRONG,
                           "--player-seed", "p")
    assert status == 1 and err == "" and out.count("\n") == 1 and "leave --player-seed out" not in out
    assert out.endswith("(WARNING: it was sealed without a player seed, so none was mixed in; a sealed deal checked "
                        "without its player seed proves nothing about the player's part)\n")


def test_the_printed_verify_command_checks_the_deal(capsys):
    status, out, err = run(capsys, "seal", "--algo", "riffle-gsr", "--passes", "3", "--deck", "numbered", "--size", "30",
                           "--players", "2", "--cards-each", "6", "--style", "pick")
    assert status == 0 and err == ""
    lines = dict(line.split(":", 1) for line in out.splitlines())
    seed = lines["SECRET seed"].split()[0]
    command = lines["Check after the reveal"].strip()
    assert seed not in command and command.endswith("--seed=SEED")  # the printed command holds no secret
    words = shlex.split(command.replace("SEED", seed))
    assert words[:4] == ["python", "-m", "shufflelab", "verify"]
    status, checked, _ = run(capsys, *words[3:])
    assert status == 0 and checked.startswith("Matches the commitment " + lines["Commitment"].split()[0])


def test_seal_text_labels_the_secret(capsys):
    status, out, _ = run(capsys, "seal", *DEAL, "--seed", STRONG)
    lines = out.splitlines()
    assert status == 0 and [line.split(":")[0] for line in lines] == [
        "Commitment", "Deal", "Player seed", "Seats", "SECRET seed", "Check after the reveal"]
    assert lines[0].split()[1] == commitment(DealSpec("fisher-yates", None, STRONG, DeckSpec("euchre"), 3, 4, "blocks"))
    assert lines[1] == "Deal:        fisher-yates, 1 euchre pack (24 cards), 3 players × 4 cards, blocks, stream v1   (public)"
    assert [STRONG in line for line in lines] == [False, False, False, False, True, False]
    assert "keep it until the reveal" in lines[4]


def test_seal_says_the_commitment_does_not_cover_who_gets_which_hand(capsys):
    _, out, _ = run(capsys, "seal", *DEAL, "--seed", STRONG)
    assert ("Seats:       not sealed: agree who gets Player 1's hand, Player 2's and so on before the deal"
            in out.splitlines())
    assert sealed(capsys, *DEAL)["covers_seats"] is False


def test_a_short_seed_is_refused_unless_allowed(capsys):
    status, out, err = run(capsys, "seal", "--seed", "hunter2")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "the seed 'hunter2' is shorter than 43 characters" in err and "--allow-short-seed" in err
    made = sealed(capsys, "--seed", "hunter2", "--allow-short-seed")
    assert made["secret_seed"] == "hunter2" and made["commitment"] == commitment(DealSpec(seed="hunter2"))
    assert sealed(capsys, "--seed=" + "-" * 43)["secret_seed"] == "-" * 43


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["commitment"][:12])
def test_verify_checks_every_golden_seal(capsys, vector):
    deck = vector["deck"]
    argv = ["verify", f"--commitment={vector['commitment']}", "--algo", vector["algo"], f"--seed={vector['seed']}",
            "--deck", deck["kind"], "--players", str(vector["players"]), "--cards-each", str(vector["cards_each"]),
            "--style", vector["style"], "--json"]
    argv += [f"--{name}={value}" for name, value in vector["params"].items()]
    argv += ["--size", str(deck["size"])] if deck["kind"] == "numbered" else ["--packs", str(deck["packs"]),
                                                                              "--jokers", str(deck["jokers"])]
    argv += [] if vector["player_seed"] is None else [f"--player-seed={vector['player_seed']}"]
    status, out, err = run(capsys, *argv)
    data = json.loads(out)
    assert status == 0 and err == "" and data["matches"]
    assert (data["order"], data["hands"], data["stock"]) == (vector["order"], vector["hands"], vector["stock"])


@pytest.mark.parametrize("argv, message", [
    (["verify", "--seed", "s"], "verify needs --commitment (the one the dealer published), or --link with a reveal link"),
    (["verify", "--commitment", "0" * 64], "verify needs --seed: the seed the dealer revealed"),
    (["verify", "--commitment", "abc", "--seed", "s"], "a commitment is 64 hexadecimal digits (a SHA-256), not 'abc'"),
    (["verify", "--commitment", "g" * 64, "--seed", "s"], "a commitment is 64 hexadecimal digits"),
    (["verify", "--commitment", "0" * 64, "--seed", "s", "--player-seed="], "the player seed '' is empty"),
    (["verify", "--commitment", "0" * 64, "--seed", "s", "--player-seed", "a\tb"], "contains a control character (U+0009)"),
    (["verify", "--commitment", "0" * 64, "--seed", "s", "--players", "9", "--cards-each", "9"],
     "cannot deal 9 players × 9 cards = 81 cards from a 52-card deck"),
    (["verify", "--commitment", "0" * 64, "--seed", "ab\udcff"], "--seed 'ab\ufffd' is not valid UTF-8 text"),
    (["verify", "--commitment", "0" * 64, "--seed", "s", "--player-seed", "\udcffp"],
     "--player-seed '\ufffdp' is not valid UTF-8 text"),
    (["seal", "--seed", "ab\udcff"], "--seed 'ab\ufffd' is not valid UTF-8 text"),
    (["seal", "--player-seed", "p"], "unrecognized arguments: --player-seed p"),
    (["seal", "--seed", "two\nlines"], "contains a control character (U+000A)"),
    (["seal", "--algo", "bogo"], "unknown algorithm 'bogo'"),
    (["seal", "--algo", "custom"], "a custom shuffle cannot be sealed: the commitment would not cover its code, "
                                   "so no one could re-derive the deal from the reveal"),
])
def test_bad_arguments_exit_2_with_one_line(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert "surrogate" not in err  # what argv could not decode is bytes that are not UTF-8, not a character
    assert err.count("\n") == 1 and err.startswith("shufflelab: error: ") and message in err


def test_python_dash_m_exits_1_on_a_mismatch():
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    done = subprocess.run([sys.executable, "-m", "shufflelab", "verify", "--commitment", "0" * 64, "--seed", "s"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 1 and done.stdout.startswith("Does NOT match") and done.stderr == ""


# --- reveal links: the share link of the deal plus commit= (and pseed=) -------------------------------

SITE = "https://example.org/shufflelab/"


def reveal_link(spec: DealSpec, sealed_with: str) -> str:
    return SITE + "?" + Link(spec, View(commitment=sealed_with)).to_query()


@pytest.mark.parametrize("player_seed", [None, "lucky 7", "می‌خواهم"])
def test_a_reveal_link_verifies_and_shows_the_deal(capsys, player_seed):
    spec = DealSpec("riffle-gsr", {"passes": 3}, STRONG, DeckSpec("euchre"), 3, 4, "pick", player_seed=player_seed)
    link = reveal_link(spec, commitment(spec))
    assert ("pseed=" in link) == (player_seed is not None) and "commit=" in link
    status, out, err = run(capsys, "verify", "--link", link, "--json")
    data = json.loads(out)
    assert status == 0 and err == "" and data["matches"] and data["player_seed"] == player_seed
    outcome = play_sealed(spec.replace(player_seed=None), player_seed)
    assert (data["order"], data["hands"], data["stock"]) == (outcome.order, outcome.deal.hands, outcome.deal.stock)


def test_a_tampered_reveal_link_does_not_match(capsys):
    spec = DealSpec(seed=STRONG, player_seed="lucky 7")
    sealed_with = commitment(spec)
    for changed in (spec.replace(seed=STRONG + "!"), spec.replace(player_seed=None), spec.replace(players=3)):
        status, out, err = run(capsys, "verify", "--link", reveal_link(changed, sealed_with))
        assert status == 1 and err == "" and out.startswith("Does NOT match: ")


@pytest.mark.parametrize("argv, message", [
    (["--link", SITE + "?algo=fisher-yates&commit=" + "0" * 64], "carries no seed=; a reveal link has the revealed seed"),
    (["--link", SITE + "?seed=s"], "the link carries no commit=; give the published commitment with --commitment"),
    # urlsplit raised ValueError on a malformed host, a traceback; the query is still plain to read
    (["--link", "http://[x/?seed=s"], "the link carries no commit=; give the published commitment with --commitment"),
    (["--link", SITE + "?seed=s&players=--4&commit=" + "0" * 64],
     "the link cannot be checked as it is: Players '--4' is not a whole number"),
    (["--link", SITE + "?seed=s&commit=abc"], "Commitment 'abc' is not 64 hexadecimal digits (a SHA-256)"),
    (["--link", SITE + "?seed=s&commit=" + "0" * 64, "--players", "3"], "--link carries the whole deal; leave out --players"),
    (["--link", SITE + "?seed=s&commit=" + "0" * 64, "--commitment", "1" * 64],
     "--commitment " + "1" * 64 + " is not the link's commit=" + "0" * 64),
])
def test_a_bad_reveal_link_exits_2_with_one_line(capsys, argv, message):
    status, out, err = run(capsys, "verify", *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


@pytest.mark.parametrize("seed, shown", [("ab%FF", "'ab%FF'"), ("ab\udcff", "'ab\ufffd'")])  # argv's undecodable byte
def test_a_reveal_link_seed_that_is_not_utf8_is_quoted_as_the_url_wrote_it(capsys, seed, shown):
    status, out, err = run(capsys, "verify", "--link", SITE + "?seed=" + seed + "&commit=" + "0" * 64)
    assert status == 2 and out == "" and err.count("\n") == 1 and "surrogate" not in err
    assert f"the link cannot be checked as it is: Seed {shown} is not valid UTF-8 text" in err, err


@pytest.mark.parametrize("query", ["seed=&commit=" + "0" * 64, "pseed=p&commit=" + "0" * 64])
def test_a_reveal_link_with_an_empty_seed_or_only_a_player_seed_carries_no_seed(capsys, query):
    status, out, err = run(capsys, "verify", "--link", SITE + "?" + query)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "carries no seed=; a reveal link has the revealed seed" in err, err
