"""The cheater's view: a clock-seeded deal by seed 003's shuffle is recovered from the cards one player sees, and
the deck it prints is the one seed 003's C deals."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.unit.exact.test_crand import SrandSeed

from shufflelab import algorithms, recover
from shufflelab.cards import standard_deck
from shufflelab.cli import main
from shufflelab.errors import ShuffleLabError

C_PROGRAM = Path(__file__).parent / "c" / "seed003_deal.c"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_seeds_deal_is_the_ports_and_each_card_traced_back_is_where_it_lands(seed):
    deck = recover.deal_of(seed)
    assert deck == algorithms.c_rand(list(range(52)), SrandSeed(seed))
    assert [recover.card_at(seed, position) for position in range(52)] == deck


def test_the_deck_is_what_seed_003s_c_prints(tmp_path):
    compiler = shutil.which("cc") or shutil.which("gcc")
    assert compiler, "a C compiler (Debian's gcc) is part of this project's machine: see the README's set-up"
    program = tmp_path / "seed003_deal"
    subprocess.run([compiler, "-std=c99", "-O2", "-o", str(program), str(C_PROGRAM)], check=True)
    seeds = [0, 1, 12345, 1_700_000_000, 2**32 - 1]
    printed = subprocess.run([str(program), *map(str, seeds)], check=True, capture_output=True, text=True).stdout
    assert [list(map(int, line.split())) for line in printed.splitlines()] == [recover.deal_of(s) for s in seeds]


def test_five_cards_find_the_seed_of_an_hours_window_and_the_candidates_narrow():
    secret = 1_700_001_234
    seen = recover.deal_of(secret)[:5]
    search = recover.Search(seen, 1_700_000_000, 1_700_003_599).run()
    assert search.found == [secret] and search.searched == 3600 and search.done
    assert search.narrowing == sorted(search.narrowing, reverse=True) and search.narrowing[-1] == 1
    assert 30 <= search.narrowing[0] <= 110  # about 3,600/52 seeds put the same top card
    assert recover.verdict_words(search).startswith("Found: one seed of 3,600 seeds deals these cards (1700001234)")


def test_a_search_in_slices_finds_what_one_pass_finds():
    seen = recover.deal_of(77)[:2]
    whole = recover.Search(seen, 0, 4999).run()
    sliced = recover.Search(seen, 0, 4999)
    while not sliced.done:
        sliced.step(333)
    assert (sliced.found, sliced.narrowing, sliced.searched) == (whole.found, whole.narrowing, 5000)
    assert 77 in whole.found


@pytest.mark.parametrize("text, cards", [
    ("AS 10H 3c", [39, 35, 2]), ("A♠, 10♥, 2C, js", [39, 35, 1, 49]), ("0 51 7", [0, 51, 7]),
])
def test_seen_cards_are_read_as_ids_or_codes(text, cards):
    assert recover.read_seen(text) == cards


@pytest.mark.parametrize("text, message", [
    ("", "no cards seen"),
    ("AS AS", "AS is seen twice (cards 1 and 2)"),
    ("AS ZZ", "'ZZ' is not a card id or code"),
    ("52", "card '52' is not a card id: ids are 0 to 51"),
    ("9" * 500, "card '" + "9" * 19 + "…' is not a card id"),
])
def test_bad_seen_cards_are_one_line_naming_them(text, message):
    with pytest.raises(ShuffleLabError, match="^" + re.escape(message)):
        recover.read_seen(text)


@pytest.mark.parametrize("text, message", [
    ("10-5", "the seeds 10-5 are not a range of srand seeds"),
    ("5", "seeds '5' are not a range A-B"),
    ("a-b", "seeds 'a-b' are not a range A-B"),
    ("0-99999999999", "go past 2^32"),
    ("0-4294967296", "the seeds 0-4294967296 are not a range"),
])
def test_bad_windows_are_one_line_naming_them(text, message):
    with pytest.raises(ShuffleLabError, match=re.escape(message)):
        recover.read_window(text)


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_recover_prints_the_whole_deck_and_exits_1_when_the_deal_is_found(capsys):
    secret = 1_700_000_777
    deck = standard_deck()
    seen = " ".join(deck.card(card).code for card in recover.deal_of(secret)[:5])
    status, out, err = run(capsys, "recover", "--algo", "c-rand", "--seen", seen, "--seeds", "1700000000-1700003599")
    assert (status, err) == (1, "")
    assert out.startswith("Searched 3,600 seeds (1700000000-1700003599) in ")
    whole = " ".join(card.label for card in deck.cards(recover.deal_of(secret)))
    assert out.rstrip("\n").splitlines()[-1] == "The whole deck, top first: " + whole
    status, out, _ = run(capsys, "recover", "--seen", seen, "--seeds", "1700000000-1700003599", "--json")
    data = json.loads(out)
    assert (status, data["matches"], data["order"], data["searched"]) == (1, [secret], recover.deal_of(secret), 3600)


def test_recover_exits_0_when_no_seed_of_the_window_deals_the_cards(capsys):
    seen = " ".join(map(str, recover.deal_of(5_000)[:4]))
    status, out, _ = run(capsys, "recover", "--seen", seen, "--seeds", "0-999", "--json")
    assert status == 0 and json.loads(out) == {**json.loads(out), "matches": [], "order": None, "searched": 1000}


@pytest.mark.parametrize("argv", [["--seen", "AS AS", "--seeds", "0-9"], ["--seen", "AS", "--seeds", "9-0"],
                                  ["--seen", "", "--seeds", "0-9"], ["--seen", "XX", "--seeds", "0-9"]])
def test_recover_bad_input_is_one_line_and_exit_2(capsys, argv):
    status, out, err = run(capsys, "recover", *argv)
    assert (status, out) == (2, "") and err.count("\n") == 1 and err.startswith("shufflelab: error: ")


def test_the_docs_example_finds_its_seed(capsys):
    text = (Path(__file__).parents[2] / "docs" / "explanation" / "clock-seeds.md").read_text("utf-8")
    assert '--seen "JS QD 6H 10C 3S" --seeds 1700000000-1700003599' in text and "srand(1700001234)" in text
    status, out, _ = run(capsys, "recover", "--seen", "JS QD 6H 10C 3S", "--seeds", "1700000000-1700003599", "--json")
    assert status == 1 and json.loads(out)["matches"] == [1_700_001_234]
