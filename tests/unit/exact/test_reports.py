"""The exact answers as plain data, as the command line prints them (text or JSON) and refuses them."""

import json
import sys
from decimal import Decimal
from fractions import Fraction

import pytest

from shufflelab import cli
from shufflelab.errors import ShuffleLabError
from shufflelab.exact.orders import outcome_distribution
from shufflelab.exact.reports import fraction_from_text, fraction_text, int_from_text, int_text, riffle_tv_report
from shufflelab.exact.riffle import riffle_tv


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_cli_exact_json_lists_every_order_as_fractions(capsys):
    status, out, _ = run(capsys, "exact", "--algo", "fisher-yates-off-by-one", "--cards", "4", "--json")
    data = json.loads(out)
    assert status == 0
    assert len(data["orders"]) == 24 and data["reachable"] == 6
    probabilities = {tuple(row["order"]): row["probability"] for row in data["orders"]}
    assert probabilities[(1, 2, 3, 0)] == "1/6" and probabilities[(0, 1, 2, 3)] == "0/1"
    assert data["total_variation"] == "3/4"


def test_cli_exact_text_ends_with_the_distance(capsys):
    status, out, _ = run(capsys, "exact", "--algo", "riffle-gsr", "--cards", "3", "--passes", "1")
    assert status == 0
    assert out.splitlines()[-1].startswith("total variation distance to uniform: ")
    assert "0 1 2  1/2  (0.5)" in out


@pytest.mark.parametrize("argv", [
    ("exact", "--cards", "8"),
    ("exact", "--algo", "bogus", "--cards", "3"),
    ("exact", "--algo", "riffle-gsr", "--cards", "3", "--passes", "0"),
    ("exact", "--algo", "cut-insert", "--cards", "7"),
    ("exact",),
    ("riffle-tv", "--cards", "0"),
    ("riffle-tv", "--max-k", "99"),
    ("riffle-tv", "--cards", "x"),
])
def test_cli_bad_arguments_exit_2_with_one_line(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("shufflelab: error: ")
    assert "Traceback" not in err


def test_cli_riffle_tv_json(capsys):
    status, out, _ = run(capsys, "riffle-tv", "--cards", "52", "--max-k", "8", "--json")
    data = json.loads(out)
    assert status == 0 and data["cards"] == 52
    assert [row["k"] for row in data["distances"]] == list(range(1, 9))
    assert data["distances"][6]["value"] == pytest.approx(0.334061, abs=1e-6)
    assert Fraction(data["distances"][6]["exact"]) == riffle_tv(52, 7)[6]


def test_cli_riffle_tv_text(capsys):
    status, out, _ = run(capsys, "riffle-tv", "--max-k", "7")
    assert status == 0
    assert out.splitlines()[-1] == " 7  0.334061"


@pytest.mark.parametrize("n, max_k, named", [(0, 3, "1 to 520 cards, not 0"), (521, 3, "not 521"),
                                             (52, 0, "max-k must be 1 to 20, not 0"), (52, 21, "not 21")])
def test_riffle_tv_report_refuses_out_of_range_requests_by_name(n, max_k, named):
    with pytest.raises(ShuffleLabError, match=named):
        riffle_tv_report(n, max_k)


# Python refuses int <-> str past sys.get_int_max_str_digits() (4,300 by default); Decimal does
# not, so it is the reference here. cut-insert on 4 cards has 20,704-digit denominators.
@pytest.mark.parametrize("digits", [1, 599, 600, 601, 640, 641, 4300, 4301, 7158, 20704, 50000])
def test_int_text_writes_and_reads_any_length_like_decimal(digits):
    for value in (10 ** digits - 1, 10 ** digits, 10 ** digits + 1, 7 ** int(digits * 1.18) + 3, 10 ** (digits - 1)):
        text = int_text(value)
        assert text == str(Decimal(value)) and int_text(-value) == "-" + text
        assert int_from_text(text) == value and int_from_text("-" + text) == -value


def test_int_text_works_under_the_lowest_digit_limit_python_allows_and_leaves_it_alone():
    before = sys.get_int_max_str_digits()
    value = 3 ** 43_000  # 20,517 digits
    try:
        sys.set_int_max_str_digits(640)
        text = int_text(value)
        assert int_from_text(text) == value and sys.get_int_max_str_digits() == 640
    finally:
        sys.set_int_max_str_digits(before)
    assert text == str(Decimal(value)) and sys.get_int_max_str_digits() == before


def test_fraction_text_round_trips_cut_insert_on_3_cards():
    dist = outcome_distribution("cut-insert", 3, {"repetitions": 15000})
    texts = {order: fraction_text(p) for order, p in dist.items()}
    assert max(len(text.partition("/")[2]) for text in texts.values()) == 7158
    assert {order: fraction_from_text(text) for order, text in texts.items()} == dist
    assert fraction_text(Fraction(0)) == "0/1" and fraction_from_text("0/1") == 0
