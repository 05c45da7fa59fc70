"""tally and audit: the lab's verdict in the command line, the page's for the same seed, exit 0, 1 or 2."""

import io
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflelab import catalog
from shufflelab.cards import standard_deck
from shufflelab.cli import main, verdicts
from shufflelab.cli.verdicts import VERDICT_STATUS
from shufflelab.lab import protocol
from shufflelab.lab.protocol import ExactStatus, Snapshot, TallyConfig
from shufflelab.lab.sandbox import SandboxService
from shufflelab.lab.service import LabService
from shufflelab.rng import StreamRng
from shufflelab.tally import Tally

GOLDEN = json.loads((Path(__file__).resolve().parents[1] / "golden" / "tally_v1.json").read_text("utf-8"))
SWAP_ANY = """def shuffle(cards, rng):
    for i in range(len(cards) - 1, -1, -1):
        j = rng.below(len(cards))
        cards[i], cards[j] = cards[j], cards[i]
    return cards
"""


def run(capsys, *argv):
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def tally_json(capsys, *argv):
    status, out, err = run(capsys, "tally", "--json", *argv)
    return status, json.loads(out), err


def params_of(held):
    return [word for name, value in held["params"].items() for word in (f"--{name}", str(value))]


@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_tally_counts_the_golden_vectors(capsys, key):
    held = GOLDEN[key]
    _, data, _ = tally_json(capsys, "--algo", held["algo"], *params_of(held), "--cards", str(held["n"]),
                            "--shuffles", str(held["trials"]), "--seed", held["seed"], "--no-exact")
    assert (data["counts"], data["fixed_points"]) == (held["counts"], held["fixed_points"])
    assert (data["algo"], data["params"], data["seed"], data["shuffles"]) == (
        held["algo"], held["params"], held["seed"], held["trials"])


def the_pages_lab(algo, n, params, seed, shuffles):
    """What the page's lab shows for a tally seed: its worker's service, driven as the page drives it."""
    lab = LabService()
    status = protocol.read(lab.configure(protocol.request(TallyConfig(algo, params, n, seed, None))), ExactStatus)
    while not status.available and not status.reason:  # the page steps a walk on its own, a slow matrix when asked
        status = protocol.read(lab.exact_step(500), ExactStatus)
    snapshot = None
    while snapshot is None or snapshot.trials < shuffles:
        snapshot = protocol.read(lab.run_for(200, "observed", None, shuffles), Snapshot)
    return status, snapshot


@pytest.mark.parametrize("algo, n, params, shuffles", [
    ("swap-any", 9, [], 4000),  # a matrix the page computes at once
    ("random-comparator", 5, [], 3000),  # a walk the page steps through, with the distance
    ("riffle-physical", 12, [["passes", 3]], 2000),  # a matrix computed in steps
    ("fisher-yates", 52, [], 70_000),  # across a block of the kernel
    ("c-rand", 6, [], 5000),  # a model that depends on the deck size (an ideal rand()'s at 6 cards), and its gap
])
def test_tally_says_what_the_pages_lab_says_for_the_same_tally_seed(capsys, algo, n, params, shuffles):
    status, snapshot = the_pages_lab(algo, n, params, "the page", shuffles)
    words = [word for name, value in params for word in (f"--{name}", str(value))]
    _, data, _ = tally_json(capsys, "--algo", algo, *words, "--cards", str(n), "--shuffles", str(shuffles),
                            "--seed", "the page")
    counts = [[snapshot.count_at(card, position) for position in range(n)] for card in range(n)]
    assert data["counts"] == counts
    summary = snapshot.summary
    assert (data["verdict"], data["sentence"], data["detail"], data["figures"]) == (
        summary["verdict"], summary["sentence"], summary["detail"], summary["figures"])  # the plain sentence first
    assert data["fixed_point_bars"] == summary["fixed_points"]
    assert data["exact"]["matrix"] == status.available and data["exact"]["distance"] == status.distance


def test_tally_of_a_file_counts_what_the_pages_sandbox_counts(capsys, tmp_path, only_built_ins_afterwards):
    path = tmp_path / "my_shuffle.py"
    path.write_text(SWAP_ANY)
    _, data, _ = tally_json(capsys, "--file", str(path), "--cards", "5", "--shuffles", "2000", "--seed", "mine")
    sandbox = SandboxService()
    sandbox.compile(SWAP_ANY)
    sandbox.configure(5, "mine")
    counted = {"trials": 0}
    while counted["trials"] < 2000:
        counted = sandbox.run_for(200, 2000)
    assert data["counts"] == [counted["counts"][row * 5:(row + 1) * 5] for row in range(5)]
    assert data["fixed_points"] == counted["fixed_points"] and data["algo"] == "custom"
    assert data["exact"]["distance"][1] == "3157/37500"  # swap-any on 5 cards, walked from the user's code
    assert data["verdict"] == "biased"


@pytest.mark.parametrize("algo, n, params, shuffles", [
    ("fisher-yates", 52, [], 3 * 65_536 + 17),
    ("naive-pairs", 7, [], 65_536 + 1),
    ("c-rand", 16, [], 1000),
    ("riffle-gsr", 52, ["--passes", "3"], 40_000),
])
def test_the_counts_do_not_depend_on_the_number_of_workers(capsys, algo, n, params, shuffles):
    common = ["--algo", algo, *params, "--cards", str(n), "--shuffles", str(shuffles), "--seed", "K", "--no-exact"]
    _, one, _ = tally_json(capsys, *common)
    _, two, _ = tally_json(capsys, *common, "--workers", "2")
    _, three, _ = tally_json(capsys, *common, "--workers", "3")
    assert one["counts"] == two["counts"] == three["counts"]
    assert one["fixed_points"] == two["fixed_points"] == three["fixed_points"]
    assert (one["workers"], two["workers"], three["workers"]) == (1, 2, 3)
    tally = Tally(algo, n, {"passes": 3} if params else {}, "K")
    tally.run(shuffles)
    assert one["counts"] == tally.counts


def test_a_tally_that_cannot_split_runs_in_one_process_and_says_so(capsys):
    status, data, err = tally_json(capsys, "--algo", "cut-insert", "--repetitions", "10", "--cards", "5",
                                   "--shuffles", "500", "--seed", "s", "--workers", "2")
    assert data["workers"] == 1 and "cannot be split" in err and err.count("\n") == 1
    tally = Tally("cut-insert", 5, {"repetitions": 10}, "s")
    tally.run(500)
    assert data["counts"] == tally.counts


@pytest.mark.parametrize("argv, status", [
    (["--algo", "fisher-yates", "--cards", "8", "--shuffles", "5000"], 0),
    (["--algo", "swap-any", "--cards", "8", "--shuffles", "20000"], 1),
    (["--algo", "fisher-yates-off-by-one", "--cards", "52", "--shuffles", "100"], 1),  # Sattolo, before 5 a cell
    (["--algo", "naive-pairs", "--cards", "6", "--shuffles", "5000"], 1),
    (["--algo", "fisher-yates", "--cards", "52", "--shuffles", "259"], 2),  # too few: 260 needed
])
def test_exit_status_is_0_for_no_bias_1_for_bias_and_2_for_too_few(capsys, argv, status):
    got, out, err = run(capsys, "tally", *argv, "--seed", "exit")
    assert got == status
    assert out.splitlines()[3] == "Verdict: " + {0: "no-bias", 1: "biased", 2: "too-few"}[status]
    if status == 2:
        assert err == ("shufflelab: error: no verdict from 259 shuffles of 52 cards: 260 are needed; "
                       "run at least 260 shuffles (--shuffles)\n")
    else:
        assert err == ""


def test_suspicious_exits_1_like_biased(capsys):
    assert VERDICT_STATUS == {"no-bias": 0, "suspicious": 1, "biased": 1, "too-few": 2}
    # a fair shuffle that looks odd by chance: p between 1e-9 and 1e-3 (found by trying seeds)
    status, data, _ = tally_json(capsys, "--cards", "4", "--shuffles", "400", "--seed", "s738")
    assert status == VERDICT_STATUS[data["verdict"]]


@pytest.mark.parametrize("argv, message", [
    (["--cards", "1"], "--cards must be 2 to 255, not 1"),
    (["--cards", "256"], "--cards must be 2 to 255, not 256"),
    (["--shuffles", "0"], "--shuffles must be 1 to 1,000,000,000,000, not 0"),
    (["--workers", "0"], "--workers must be 1 to 256, not 0"),
    (["--seed", ""], "--seed '' is empty"),
    (["--seed", "x" * 65], "is longer than 64 characters"),
    (["--seed", "a\tb"], "contains a control character (U+0009)"),
    (["--seed", "ab\udcff"], "--seed 'ab\ufffd' is not valid UTF-8 text"),  # a byte the shell passed, not UTF-8
    (["--algo", "nope"], "unknown algorithm 'nope'"),
    (["--passes", "3"], "fisher-yates takes no parameter 'passes'"),
    (["--algo", "riffle-gsr", "--passes", "0"], "passes"),
    (["--cards", "x"], "argument --cards: invalid int value: 'x'"),
    (["--file", "/nonexistent/shuffle.py"], "cannot read /nonexistent/shuffle.py"),
    (["--algo", "swap-any", "--file", "x.py"], "not allowed with argument"),
    (["--time-limit", "nan", "--file", "x.py"], "--time-limit must be 0 (no limit) or more seconds, not nan"),
])
def test_bad_input_is_one_line_naming_the_value_and_exit_2(capsys, argv, message):
    status, out, err = run(capsys, "tally", *argv)
    assert status == 2 and out == ""
    assert err.startswith("shufflelab: error: ") and message in err and err.count("\n") == 1


@pytest.mark.parametrize("source, message", [
    ("def shuffle(cards, rng)\n", 'line 1: "def shuffle(cards, rng)"'),
    ("def shuffle(cards, rng):\n    return cards[:-1]\n", "returned 4 cards for a deck of 5"),
    ("def shuffle(cards, rng):\n    while True:\n        pass\n", "still running after 0.5 s"),
    # its top level runs under the limit too: tally used to run it with none, and hung
    ("while True:\n    pass\n", "still running after 0.5 s"),
])
def test_a_users_shuffle_that_fails_is_one_line_naming_the_file(capsys, tmp_path, source, message,
                                                                only_built_ins_afterwards):
    path = tmp_path / "bad.py"
    path.write_text(source)
    before = catalog.ids()
    status, out, err = run(capsys, "tally", "--file", str(path), "--cards", "5", "--shuffles", "100",
                           "--time-limit", "0.5", "--no-exact")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"shufflelab: error: {path}: ") and message in err
    assert catalog.ids() == before  # what it registered is gone again


def test_the_users_prints_go_to_stderr_so_json_stays_json(capsys, tmp_path):
    path = tmp_path / "loud.py"
    path.write_text("def shuffle(cards, rng):\n    print('shuffling')\n    return cards[::-1]\n")
    status, data, err = tally_json(capsys, "--file", str(path), "--cards", "4", "--shuffles", "50", "--no-exact")
    assert data["shuffles"] == 50 and "shuffling" in err and status == 1  # a reversed deck every time


def test_without_a_seed_a_fresh_one_is_printed_and_repeats_the_run(capsys):
    status, out, _ = run(capsys, "tally", "--cards", "6", "--shuffles", "600")
    header = out.splitlines()[0]
    assert "(fresh: --seed=" in header and "repeats this run)" in header
    _, first, _ = tally_json(capsys, "--cards", "6", "--shuffles", "600")
    assert first["fresh_seed"] and len(first["seed"]) == 43
    _, again, _ = tally_json(capsys, "--cards", "6", "--shuffles", "600", f"--seed={first['seed']}")
    assert again["counts"] == first["counts"] and not again["fresh_seed"]


def test_json_holds_the_counts_the_verdict_and_the_figures(capsys):
    _, data, _ = tally_json(capsys, "--algo", "riffle-gsr", "--passes", "2", "--cards", "5", "--shuffles", "800",
                            "--seed", "fields")
    assert {"shuffles", "counts", "fixed_points", "verdict", "sentence", "figures", "fixed_point_bars", "heat_summary",
            "minimum_shuffles", "seed", "fresh_seed", "algo", "params", "cards", "file", "tally_stream", "exact",
            "workers", "seconds"} <= set(data)
    assert data["params"] == {"passes": 2} and data["tally_stream"] == 1 and data["cards"] == 5
    assert all(sum(row) == 800 for row in data["counts"]) and sum(data["fixed_points"]) == 800
    assert data["exact"]["matrix"] and data["exact"]["distance"][0] > 0.3  # 2 riffles of 5 cards: far from fair


class Terminal(io.StringIO):
    """A stand-in for stderr that says it is a terminal."""

    def isatty(self):
        return True


def test_progress_is_drawn_on_a_terminal_and_never_when_piped(capsys, monkeypatch):
    monkeypatch.setattr(verdicts, "PROGRESS_SECONDS", 0.0)
    monkeypatch.setattr(verdicts, "TALLY_CHUNK_SECONDS", 0.0)  # a redraw after every batch
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["tally", "--cards", "30", "--shuffles", "3000", "--seed", "p", "--json"]) == 0
    drawn = terminal.getvalue()
    assert "\r3,000 of 3,000 shuffles (100%)" in drawn and "verdict so far: no-bias" in drawn
    assert drawn.endswith("\r")  # erased at the end: the line is clean for what follows
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert main(["tally", "--cards", "30", "--shuffles", "3000", "--seed", "p", "--json"]) == 0
    assert sys.stderr.getvalue() == ""


def test_text_output_has_the_verdict_the_figures_the_heat_map_and_the_fixed_points(capsys):
    status, out, _ = run(capsys, "tally", "--algo", "swap-any", "--cards", "5", "--shuffles", "30000", "--seed", "t")
    lines = out.splitlines()
    assert lines[0] == "swap-any on 5 cards: 30,000 shuffles, tally seed 't', tally stream v1"
    assert lines[1].startswith("Counted in ") and lines[2].startswith("Exact distance to uniform (total variation): ")
    assert "Verdict: biased" in lines and "  p-value against the exact matrix" in out
    assert "Heat map, observed ÷ uniform" in out and "Cards left in place   observed      fair" in out


# --- audit --------------------------------------------------------------------------------------------------------


def orders_text(algo, n, count, seed=1):
    rng = StreamRng(str(seed))
    return "".join(" ".join(map(str, catalog.get(algo).shuffled(list(range(n)), rng))) + "\n" for _ in range(count))


def test_audit_exits_0_for_a_fair_engine_and_1_for_a_biased_one(capsys, tmp_path):
    fair, biased = tmp_path / "fair.txt", tmp_path / "biased.txt"
    fair.write_text(orders_text("fisher-yates", 6, 3000))
    biased.write_text(orders_text("swap-any", 6, 20000))
    status, out, err = run(capsys, "audit", str(fair))
    assert (status, err) == (0, "") and "Verdict: no-bias" in out
    assert out.startswith(f"{fair}: 3,000 orders of 6 cards from 3,000 lines; read in ")
    status, out, err = run(capsys, "audit", str(biased))
    assert (status, err) == (1, "") and "Verdict: biased" in out


def test_audit_names_bad_lines_by_number_and_exits_2_with_the_good_lines_verdict(capsys, tmp_path):
    path = tmp_path / "orders.txt"
    path.write_text("# engine output\n" + orders_text("fisher-yates", 4, 200) + "0 1 2\n0 1 1 3\n" + "5 0 1 2\n" * 25)
    status, out, err = run(capsys, "audit", str(path), "--json")
    data = json.loads(out)
    assert status == 2 and data["verdict"] == "no-bias" and data["shuffles"] == 200 and data["bad_lines"] == 27
    assert data["bad_line_examples"][:2] == [{"line": 202, "problem": "has 3 numbers, not 4"},
                                             {"line": 203, "problem": "card 1 appears twice"}]
    lines = err.splitlines()
    assert lines[0] == f"shufflelab: {path}: line 202: has 3 numbers, not 4"
    assert lines[2] == f"shufflelab: {path}: line 204: card 5 is out of range: the cards are 0 to 3"
    assert lines[20] == f"shufflelab: {path}: and 7 more bad lines"
    assert lines[21] == f"shufflelab: error: 27 bad lines in {path} (not counted)" and len(lines) == 22


def test_audit_reads_standard_input_and_gives_the_same_json(capsys, tmp_path, monkeypatch):
    text = orders_text("riffle-gsr", 8, 500)
    path = tmp_path / "orders.txt"
    path.write_text(text)
    _, from_file, _ = run(capsys, "audit", str(path), "--json")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    _, from_stdin, _ = run(capsys, "audit", "-", "--json")
    first, second = json.loads(from_file), json.loads(from_stdin)
    assert first["counts"] == second["counts"] and second["source"] == "-"


def test_audit_spots_cards_numbered_from_one_in_one_line_and_reads_them_when_told(capsys, tmp_path):
    zero_based = orders_text("swap-any", 6, 20000)
    one_based = tmp_path / "one.txt"
    one_based.write_text(re.sub(r"\d+", lambda number: str(int(number.group()) + 1), zero_based))
    status, out, err = run(capsys, "audit", str(one_based))
    assert (status, out) == (2, "")
    assert err == (f"shufflelab: error: {one_based}: the cards look numbered 1 to 6 (line 1), not 0 to 5: "
                   "add --numbered-from 1 to read them so\n")
    zero = tmp_path / "zero.txt"
    zero.write_text(zero_based)
    _, told, _ = run(capsys, "audit", str(one_based), "--numbered-from", "1", "--json")
    _, plain, _ = run(capsys, "audit", str(zero), "--json")
    assert json.loads(told)["counts"] == json.loads(plain)["counts"] and json.loads(told)["verdict"] == "biased"


def test_audit_reads_card_codes_as_the_cards_ids(capsys, tmp_path):
    numbers = orders_text("riffle-gsr", 52, 300)
    deck = standard_deck()
    codes = tmp_path / "codes.txt"
    codes.write_text("".join(" ".join(deck.card(int(card)).label for card in line.split()) + "\n"
                             for line in numbers.splitlines()), encoding="utf-8")
    plain = tmp_path / "plain.txt"
    plain.write_text(numbers)
    _, from_codes, err = run(capsys, "audit", str(codes), "--json")
    _, from_numbers, _ = run(capsys, "audit", str(plain), "--json")
    assert err == "" and json.loads(from_codes)["counts"] == json.loads(from_numbers)["counts"]


@pytest.mark.parametrize("text, argv, message", [
    ("", [], "holds no order of cards 0 to n-1"),
    ("1 2 3\n", [], "the cards look numbered 1 to 3 (line 1), not 0 to 2: add --numbered-from 1"),
    ("0 1\n", ["--cards", "300"], "2 to 255 cards, not 300"),
])
def test_audit_without_orders_is_one_line_and_exit_2(capsys, tmp_path, text, argv, message):
    path = tmp_path / "orders.txt"
    path.write_text(text)
    status, out, err = run(capsys, "audit", str(path), *argv)
    assert status == 2 and out == "" and message in err.splitlines()[-1]


def test_audit_of_a_missing_file_is_one_line(capsys, tmp_path):
    status, out, err = run(capsys, "audit", str(tmp_path / "none.txt"))
    assert status == 2 and err == f"shufflelab: error: cannot read {tmp_path / 'none.txt'}: No such file or directory\n"


def test_too_few_orders_exit_2_naming_how_many_are_needed(capsys, tmp_path):
    path = tmp_path / "few.txt"
    path.write_text(orders_text("fisher-yates", 10, 49))
    status, _, err = run(capsys, "audit", str(path))
    assert status == 2 and err == ("shufflelab: error: no verdict from 49 shuffles of 10 cards: 50 are needed; "
                                   "give more orders\n")


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 40), count=st.integers(1, 300), seed=st.integers(0, 2**32))
def test_audits_counts_of_random_orders_are_their_direct_count(n, count, seed):
    picker = random.Random(seed)
    orders = [picker.sample(range(n), n) for _ in range(count)]
    expected = [[0] * n for _ in range(n)]
    for order in orders:
        for position, card in enumerate(order):
            expected[card][position] += 1
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("\n".join(",".join(map(str, o)) for o in orders).encode())))
        patch.setattr(sys, "stdout", out)
        patch.setattr(sys, "stderr", io.StringIO())
        main(["audit", "-", "--json"])
    data = json.loads(out.getvalue())
    assert data["counts"] == expected and data["shuffles"] == count and data["cards"] == n


def test_ctrl_c_is_one_line_and_exit_130_not_a_traceback(capsys, monkeypatch):
    def interrupted(*_):
        raise KeyboardInterrupt

    monkeypatch.setattr(verdicts, "run_tally", interrupted)  # the registry names it: main finds it there when run
    status, out, err = run(capsys, "tally")
    assert (status, out, err) == (130, "", "\nshufflelab: interrupted\n")


def test_audit_says_how_many_decks_an_engine_can_deal_from_its_repeats(capsys, tmp_path):
    picker = random.Random(20)
    orders = [random.Random(picker.getrandbits(20)).sample(range(52), 52) for _ in range(5000)]  # a 20-bit seed
    path = tmp_path / "engine.txt"
    path.write_text("".join(" ".join(map(str, order)) + "\n" for order in orders))
    _, out, _ = run(capsys, "audit", str(path))
    last = out.rstrip("\n").splitlines()[-1]
    assert last.startswith("Many decks repeat: ") and "different decks" in last and "a fair shuffle of 52" in last
    _, out, _ = run(capsys, "audit", str(path), "--json")
    found = json.loads(out)["repeats"]
    expected_pairs = sum(count * (count - 1) // 2 for count in Counter(map(tuple, orders)).values())
    assert found["pairs"] == expected_pairs > 0 and found["decks_low"] <= 2**20 <= found["decks_high"]
    assert found["sentence"] == last and found["orders"] == 5000
