"""The exact answers as plain data, as the command line prints them (text or JSON) and refuses them."""

import json
from fractions import Fraction

import pytest

from shufflelab import cli
from shufflelab.errors import ShuffleLabError
from shufflelab.exact.reports import riffle_tv_report
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
