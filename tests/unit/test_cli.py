"""The command line: JSON round trips with share links, text output, one-line errors."""

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from shufflelab import catalog, exact
from shufflelab.cli import COMMANDS, build_parser, main
from shufflelab.cli.exact import shown_fraction
from shufflelab.link import outcome_of, read_link

ROOT = Path(__file__).resolve().parent.parent.parent


def run(capsys, *argv):
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_shuffle_json_holds_the_contract_and_round_trips(capsys):
    status, out, err = run(capsys, "shuffle", "--algo", "riffle-gsr", "--passes", "3", "--seed", "草 seed", "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["stream"] == 1 and data["algo"] == "riffle-gsr" and data["params"] == {"passes": 3}
    assert data["seed"] == "草 seed" and sorted(data["order"]) == list(range(52))
    link, notices = read_link(data["query"])
    assert notices == [] and outcome_of(link.deal).order == data["order"]
    assert data["labels"][0] == link.deal.deck.card(data["order"][0]).label


def test_deal_json_matches_the_page_link(capsys):
    status, out, _ = run(capsys, "deal", "--seed", "table", "--players", "3", "--cards-each", "7",
                         "--style", "blocks", "--deck", "standard", "--packs", "2", "--jokers", "1", "--json")
    data = json.loads(out)
    assert status == 0
    link, notices = read_link(data["query"])
    outcome = outcome_of(link.deal)
    assert notices == []
    assert (outcome.deal.hands, outcome.deal.stock) == (data["hands"], data["stock"])
    assert len(data["order"]) == 106 and [len(h) for h in data["hands"]] == [7, 7, 7]


@pytest.mark.parametrize("argv, page_can_show", [
    (["shuffle", "--deck", "numbered", "--size", "1000"], True),
    (["shuffle", "--deck", "numbered", "--size", "1001"], False),
    (["deal", "--players", "52", "--cards-each", "1"], True),
    (["deal", "--players", "53", "--cards-each", "0"], False),
])
def test_query_is_null_exactly_where_the_page_cannot_show_the_deal(capsys, argv, page_can_show):
    # the docs (reference/cli.md) and --help say so: the page's links stop at 1,000 numbered items and 52 players,
    # and a link it would correct (with a notice) would show other cards
    status, out, _ = run(capsys, *argv, "--seed", "limits", "--json")
    data = json.loads(out)
    assert status == 0
    if page_can_show:
        link, notices = read_link(data["query"])
        assert notices == [] and outcome_of(link.deal).order == data["order"]
    else:
        assert data["query"] is None


def test_json_help_says_when_query_is_null(capsys):
    with pytest.raises(SystemExit):
        main(["shuffle", "--help"])
    assert "null when the page cannot show the deal" in " ".join(capsys.readouterr().out.split())


def test_without_a_seed_a_fresh_one_is_drawn_and_printed(capsys):
    _, first, _ = run(capsys, "shuffle", "--json")
    _, second, _ = run(capsys, "shuffle", "--json")
    first, second = json.loads(first), json.loads(second)
    assert len(first["seed"]) == 43 and first["seed"] != second["seed"]
    # --seed=VALUE: a fresh seed may begin with "-" (URL-safe base64), which a separate word can't
    _, again, _ = run(capsys, "shuffle", "--json", f"--seed={first['seed']}")
    assert json.loads(again)["order"] == first["order"]


def test_a_seed_beginning_with_a_dash_works_as_seed_equals(capsys):
    status, out, _ = run(capsys, "shuffle", "--json", "--seed=-dash")
    assert status == 0 and json.loads(out)["seed"] == "-dash"


def test_text_output_lists_hands_and_stock(capsys):
    status, out, _ = run(capsys, "deal", "--seed", "s", "--players", "2", "--cards-each", "2", "--deck", "euchre")
    lines = out.splitlines()
    assert status == 0
    assert lines[0] == "fisher-yates, seed 's', 1 euchre pack (24 cards), stream v1"
    assert lines[2].startswith("Player 1: ") and lines[3].startswith("Player 2: ")
    assert lines[4].startswith("Stock (20): ")


def test_algorithms_lists_the_catalog(capsys):
    _, out, _ = run(capsys, "algorithms", "--json")
    rows = json.loads(out)
    assert [(row["id"], row["verdict"]) for row in rows] == [(a.id, a.verdict) for a in catalog.entries()]
    assert {"name", "source", "description", "params"} <= set(rows[0])
    _, text, _ = run(capsys, "algorithms")
    # each entry is two lines: "id  verdict  name [params]", then its description, indented
    columns = [line.split()[:2] for line in text.splitlines()[0::2]]
    assert columns == [[a.id, a.verdict] for a in catalog.entries()]
    assert {verdict for _, verdict in columns} == {"biased", "unbiased"}


@pytest.mark.slow  # 4 s: in make test, not in the fast loop
def test_a_million_numbered_cards(capsys):
    status, out, _ = run(capsys, "shuffle", "--deck", "numbered", "--size", "1000000", "--seed", "m", "--json")
    assert status == 0 and len(json.loads(out)["order"]) == 1_000_000


@pytest.mark.parametrize(
    "argv, message",
    [(["shuffle", "--algo", "bogo"], "unknown algorithm 'bogo'; choose one of fisher-yates, "),
     (["exact", "--algo", "bogo", "--cards", "3"], "unknown algorithm 'bogo'"),
     (["shuffle", "--algo", "riffle-gsr", "--passes", "0"], "passes must be 1 to 50, not 0"),
     (["shuffle", "--packs", "9"], "packs must be 1 to 8, not 9"),
     (["shuffle", "--passes", "3"], "fisher-yates takes no parameter 'passes'"),
     (["shuffle", "--algo", "riffle-gsr", "--passes", "x"], "invalid int value: 'x'"),
     (["shuffle", "--seed", ""], "the seed '' is empty"),
     (["shuffle", "--seed", "bell\x07"], "the seed 'bell\ufffd' contains a control character (U+0007)"),
     (["shuffle", "--seed", "two\nlines"], "contains a control character (U+000A)"),
     (["deal", "--deck", "euchre", "--players", "5", "--cards-each", "5"],
      "cannot deal 5 players × 5 cards = 25 cards from a 24-card deck"),
     (["shuffle", "--size", "10"], "--size applies only to --deck numbered"),
     (["shuffle", "--deck", "numbered", "--jokers", "1"], "do not apply to --deck numbered"),
     (["deal", "--players", "20", "--cards-each", "5"], "cannot deal 20 players × 5 cards = 100 cards"),
     (["deal", "--players", "0"], "need at least 1 player, not 0"),
     (["deal", "--style", "sideways"], "invalid choice: 'sideways'"),
     (["frobnicate"], "invalid choice: 'frobnicate'"),
     ([], "the following arguments are required: COMMAND")],
)
def test_bad_arguments_exit_2_with_one_line(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("shufflelab: error: ") and message in err


def shell(*argv):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    return subprocess.run([sys.executable, "-m", "shufflelab", *argv], capture_output=True, text=True, env=env)


def test_python_dash_m_runs_from_a_shell():
    ok = shell("deal", "--seed", "x", "--json")
    assert ok.returncode == 0 and json.loads(ok.stdout)["seed"] == "x" and ok.stderr == ""


@pytest.mark.parametrize("argv, family", [(["shuffle", "--seed", "s"], "deals"), (["nope"], None), (["--help"], None)])
def test_a_command_imports_its_own_family_alone(argv, family):
    """COMMANDS names each command's module: shuffle runs on the portable core, without exact, tally or the lab."""
    code = (f"import sys\nfrom shufflelab.cli import main\ntry:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
            "print(' '.join(m for m in sys.modules if m.startswith('shufflelab.')), file=sys.stderr)")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    loaded = set(done.stderr.splitlines()[-1].split())
    families = {name.rpartition(".")[2] for name in loaded if name.startswith("shufflelab.cli.")}
    assert families == {"common"} | ({family} if family else set()), done.stderr
    assert not {"shufflelab.exact", "shufflelab.tally", "shufflelab.custom", "shufflelab.lab.service"} & loaded


def test_the_whole_parser_has_every_commands_options():
    """The CLI reference (scripts/docs_hooks.py) is every subparser's --help: build_parser() gives them all."""
    commands = next(action for action in build_parser()._actions if action.dest == "command")
    assert list(commands.choices) == list(COMMANDS)
    assert all(any(a.option_strings for a in sub._actions if a.dest != "help") for sub in commands.choices.values())
    assert "--workers" in commands.choices["tally"].format_help()


@pytest.mark.parametrize(
    "argv, named",
    [(["deal", "--players", "-3"], "need at least 1 player, not -3"),
     (["shuffle", "--seed", "ctrl\x01char"], "U+0001"),
     (["deal", "--players", "9", "--cards-each", "9"], "81 cards from a 52-card deck"),
     (["shuffle", "--algo", "bogo"], "'bogo'")],
)
def test_errors_reach_a_shell_as_one_line_without_a_traceback(argv, named):
    bad = shell(*argv)
    assert bad.returncode == 2 and bad.stdout == ""
    assert "Traceback" not in bad.stderr and bad.stderr.count("\n") == 1 and named in bad.stderr


def test_riffle_tv_measures_small_decks_beside_the_exact_distance(capsys):
    status, out, _ = run(capsys, "riffle-tv", "--cards", "4", "--max-k", "6", "--trials", "20000", "--json")
    data = json.loads(out)
    assert status == 0 and data["measured_trials"] == 20000
    assert all(abs(row["measured"] - row["value"]) < 0.05 for row in data["distances"])
    _, out, _ = run(capsys, "riffle-tv", "--cards", "52", "--max-k", "3", "--json")
    assert "measured_trials" not in json.loads(out)  # 52! orders cannot be sampled


def test_riffle_tv_refuses_bad_trials(capsys):
    status, out, err = run(capsys, "riffle-tv", "--cards", "4", "--trials", "-5")
    assert status == 2 and out == "" and err.count("\n") == 1 and "--trials" in err


# --- exact --file: your own shuffle ---------------------------------------------------------------

SWAP_ANY = """\
def shuffle(cards, rng):
    n = len(cards)
    for i in range(n - 1, -1, -1):
        j = rng.below(n)
        cards[i], cards[j] = cards[j], cards[i]
    print("a debugging line, sent to stderr")
    return cards
"""


def shuffle_file(tmp_path, source, name="my_shuffle.py"):
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return str(path)


def test_exact_file_prints_what_exact_algo_prints_for_the_same_shuffle(capsys, tmp_path):
    path = shuffle_file(tmp_path, SWAP_ANY)
    status, out, err = run(capsys, "exact", "--file", path, "--cards", "4", "--json")
    mine = json.loads(out)
    _, theirs, _ = run(capsys, "exact", "--algo", "swap-any", "--cards", "4", "--json")
    theirs = json.loads(theirs)
    assert status == 0 and mine.keys() == theirs.keys() and mine["algorithm"] == "custom"
    assert {key: mine[key] for key in mine if key not in ("algorithm", "method")} == \
           {key: theirs[key] for key in theirs if key not in ("algorithm", "method")}
    assert err.count("a debugging line, sent to stderr\n") == 4 ** 4  # one per path; stdout stays JSON
    assert "custom" not in catalog.ids()  # the file's shuffle is gone from the catalog afterwards
    status, text, _ = run(capsys, "exact", "--file", path, "--cards", "2")
    assert status == 0
    assert text.splitlines()[0] == f"custom ({path}) on 2 cards: your code, every path of its below() answers walked"
    assert text.splitlines()[-1] == "total variation distance to uniform: 0/1 (0)"


@pytest.mark.parametrize("source, argv, message", [
    ("def shuffle(cards, rng):\n    return cards[:-1\n", [],
     "my_shuffle.py: line 2: \"return cards[:-1\" – SyntaxError: '[' was never closed"),
    ("def shuffle(cards, rng):\n    j = rng.below(0)\n    return cards\n", [],
     'my_shuffle.py: line 2: "j = rng.below(0)" – ValueError: rng.below(m) needs 1 <= m <= 2**32, not 0'),
    ("def shuffle(cards, rng):\n    return cards[1:]\n", [],
     "my_shuffle.py: shuffle(cards, rng) returned 2 cards for a deck of 3"),
    ("def shuffle(cards, rng):\n    rng.random()\n    return cards\n", [],
     r"my_shuffle.py: custom calls rng.random(): a float has 2^53 values"),
    ("def shuffle(cards, rng):\n    while rng.below(2):\n        pass\n    return cards\n", [],
     "my_shuffle.py: custom on 3 cards drew more than 1,000 times on one path"),
    ("x = 1\n", [], "my_shuffle.py: no function named shuffle(cards, rng) is defined"),
    (SWAP_ANY, ["--passes", "2"], "my_shuffle.py: custom takes no parameter 'passes'"),
    (SWAP_ANY, ["--algo", "swap-any"], "argument --algo: not allowed with argument --file"),
    (SWAP_ANY, ["--time-limit", "-1"], "--time-limit must be 0 (no limit) or more seconds, not -1"),
    (SWAP_ANY, ["--time-limit", "nan"], "--time-limit must be 0 (no limit) or more seconds, not nan"),
], ids=["syntax", "raises", "short", "random", "endless", "missing", "param", "algo-too", "negative-limit", "nan-limit"])
def test_exact_file_mistakes_exit_2_with_one_line(capsys, tmp_path, source, argv, message):
    path = shuffle_file(tmp_path, source)
    status, out, err = run(capsys, "exact", "--file", path, "--cards", "3", *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("shufflelab: error: ") and message in err
    assert "custom" not in catalog.ids()


def test_exact_file_that_cannot_be_read_is_one_line(capsys, tmp_path):
    status, _, err = run(capsys, "exact", "--file", str(tmp_path / "absent.py"), "--cards", "3")
    assert status == 2 and err == f"shufflelab: error: cannot read {tmp_path / 'absent.py'}: No such file or directory\n"
    latin = tmp_path / "latin.py"
    latin.write_bytes(b"# caf\xe9\n")
    status, _, err = run(capsys, "exact", "--file", str(latin), "--cards", "3")
    assert status == 2 and err == f"shufflelab: error: {latin} is not UTF-8 text\n"


def test_exact_file_that_never_returns_stops_at_the_time_limit_without_a_traceback(tmp_path):
    path = shuffle_file(tmp_path, "def shuffle(cards, rng):\n    while True:\n        pass\n")
    stuck = shell("exact", "--file", path, "--cards", "3", "--time-limit", "0.5")
    assert stuck.returncode == 2 and stuck.stdout == "" and "Traceback" not in stuck.stderr
    assert stuck.stderr.count("\n") == 1 and "still running after 0.5 s: it may never return" in stuck.stderr
    assert stuck.stderr.endswith("--time-limit SECONDS gives it longer\n")
    assert 'line 2: "while True:"' in stuck.stderr or 'line 3: "pass"' in stuck.stderr


# cut-insert's 15,000 repetitions give 7,158-digit denominators on 3 cards and 20,704 on 4, past
# Python's 4,300-digit limit for int to str; both outputs must print them (4 cards: about 2 s each).
@pytest.mark.parametrize("cards, denominator_digits", [(3, 7158), (4, 20704)])
def test_exact_json_writes_cut_insert_fractions_whole(capsys, cards, denominator_digits):
    status, out, err = run(capsys, "exact", "--algo", "cut-insert", "--cards", str(cards), "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    texts = [row["probability"] for row in data["orders"]]
    assert max(len(text.partition("/")[2]) for text in texts) == denominator_digits
    probabilities = [exact.fraction_from_text(text) for text in texts]  # Fraction(str) would hit the limit too
    assert sum(probabilities) == 1
    if cards == 3:  # 4 cards would walk again for 2 s: the sum to exactly 1 is the check there
        dist = exact.outcome_distribution("cut-insert", 3, {"repetitions": 15000})
        assert {tuple(row["order"]): p for row, p in zip(data["orders"], probabilities) if p} == dist


@pytest.mark.parametrize("cards, denominator_digits", [(3, "7,158"), (4, "20,704")])
def test_exact_text_gives_a_long_fraction_as_a_decimal_and_its_digit_counts(capsys, cards, denominator_digits):
    status, out, err = run(capsys, "exact", "--algo", "cut-insert", "--cards", str(cards))
    assert status == 0 and err == ""
    assert f" / {denominator_digits} digits, in full with --json)" in out
    identity = next(line for line in out.splitlines() if line.startswith(" ".join(map(str, range(cards))) + " "))
    assert identity.split()[cards + 1] == "(a" and 0 < float(identity.split()[cards]) < 1  # the decimal, then digits
    assert max(map(len, out.splitlines())) < 120  # no 7,158-digit line


def test_shown_fraction_keeps_a_short_fraction_and_counts_a_long_ones_digits():
    assert shown_fraction("1/3") == "1/3  (0.333333)" and shown_fraction("0/1", gap=" ") == "0/1 (0)"
    long = "1" + "0" * 99 + "/3" + "0" * 100
    assert shown_fraction(long) == "0.0333333  (a fraction of 100 / 101 digits, in full with --json)"


def _exact_sweep_cases():
    """Every catalog algorithm, cut-insert's 2 s walks in the slow set."""
    return [pytest.param(algo, marks=pytest.mark.slow) if algo == "cut-insert" else algo for algo in catalog.ids()]


@pytest.mark.parametrize("algo", _exact_sweep_cases())
def test_exact_prints_every_algorithm_up_to_5_cards_or_refuses_in_one_line(capsys, algo):
    for cards in range(6):
        for output in ([], ["--json"]):
            status, out, err = run(capsys, "exact", "--algo", algo, "--cards", str(cards), *output)
            if status == 0:
                assert err == "" and out.strip()
                if output:
                    assert json.loads(out)["cards"] == cards
            else:  # e.g. cut-insert's 15,000 repetitions cost too much on 5 cards
                assert status == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err


def test_riffle_distances_json_has_exact_fractions_and_the_meanings(capsys):
    status, out, err = run(capsys, "riffle-distances", "--cards", "52", "--max-k", "12", "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert list(data["meanings"]) == ["tv", "separation", "kl"]
    row = data["distances"][6]
    assert row["k"] == 7 and exact.fraction_from_text(row["tv"]) == exact.riffle_tv(52, 7)[6]
    assert exact.fraction_from_text(row["separation"]) == exact.riffle_separation(52, 7)[6]
    assert row["kl_bits"] == pytest.approx(row["kl_nats"] / 0.6931471805599453)
    status, out, _ = run(capsys, "riffle-distances", "--cards", "52")
    assert status == 0 and " 7         0.334061    0.999995" in out and "Separation: how much less likely" in out


def readme_riffle_table() -> list[list[str]]:
    text = (ROOT / "docs" / "explanation" / "riffles.md").read_text("utf-8")
    start = text.index("| k | total variation | separation | KL (bits) |")
    lines = text[start:].split("\n\n")[0].splitlines()[2:]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def test_readme_riffle_distances_table_is_what_the_code_computes(capsys):
    rows = readme_riffle_table()
    _, out, _ = run(capsys, "riffle-distances", "--json")
    computed = json.loads(out)["distances"]
    assert len(rows) == len(computed) == 12
    for cells, row in zip(rows, computed):
        assert cells == [str(row["k"]), f"{row['tv_value']:.4f}", f"{row['separation_value']:.4f}",
                         f"{row['kl_bits']:.4g}"]


def test_riffles_reads_an_order_and_says_how_many_riffles_it_looks_like(capsys, monkeypatch):
    _, out, _ = run(capsys, "shuffle", "--algo", "riffle-gsr", "--passes", "2", "--seed", "two", "--json")
    codes = " ".join(json.loads(out)["codes"])
    status, out, err = run(capsys, "riffles", "--order", codes, "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["best_k"] == 2 and data["rising"] <= 4 and data["order"] == codes.split()
    assert data["likelihoods"][0]["numerator"] == "0" and data["sentence"].startswith("Not shuffled enough")
    monkeypatch.setattr("sys.stdin", io.StringIO(codes.replace(" ", "\n")))
    status, out, _ = run(capsys, "riffles", "--order", "-")
    assert status == 0 and "looks like 2 riffles" in out and re.search(r"^ 2 +\+\d+\.\d\d  plausible$", out, re.M)


@pytest.mark.parametrize("argv, named", [
    (["riffles", "--order", "AC 2C AC"], "AC is given twice"),
    (["riffles", "--order", "AC QQ"], "card 2, 'QQ', is not a card of"),
    (["riffles", "--order", "AC 2C"], "2 cards given, 1 standard pack (52 cards) has 52: missing 3C"),
    (["riffles", "--order", "AC", "--max-k", "0"], "--max-k must be 1 to 20, not 0"),
    (["riffles"], "the following arguments are required: --order"),
    (["riffle-distances", "--cards", "0"], "riffle-distances takes 1 to 520 cards, not 0"),
])
def test_riffles_bad_input_is_one_line_and_status_2(capsys, argv, named):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and named in err and err.count("\n") == 1
