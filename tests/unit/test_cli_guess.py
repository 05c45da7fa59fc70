"""python -m shufflelab guess: the guessing game's best score beside a random deck's; one-line errors, exit 2."""

import json

import pytest

from shufflelab.cli import main


def run(capsys, *argv):
    status = main(["guess", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_an_exact_score_is_a_fraction_beside_a_random_decks(capsys):
    status, out, err = run(capsys, "--cards", "3", "--riffles", "1", "--feedback", "full")
    assert status == 0 and err == ""
    assert "best strategy: 19/8  (2.375) cards right on average (exact" in out
    assert "a random deck: 11/6  (1.83333) (exact)" in out


def test_json_exact(capsys):
    status, out, _ = run(capsys, "--cards", "2", "--riffles", "1", "--feedback", "none", "--json")
    data = json.loads(out)
    assert status == 0
    assert data["expected"] == "3/2" and data["exact"] is True and data["random_deck"] == "1/1"
    assert (data["cards"], data["riffles"], data["feedback"]) == (2, 1, "none")


def test_json_simulated(capsys):
    status, out, _ = run(capsys, "--cards", "21", "--riffles", "6", "--samples", "20", "--seed", "cli", "--json")
    data = json.loads(out)
    assert status == 0 and data["exact"] is False
    assert isinstance(data["expected"], float) and data["standard_error"] > 0
    assert (data["samples"], data["seed"]) == (20, "cli")
    assert data == json.loads(run(capsys, "--cards", "21", "--riffles", "6", "--samples", "20", "--seed", "cli",
                                  "--json")[1])


def test_a_simulation_says_so_and_prints_a_fresh_seed(capsys):
    status, out, _ = run(capsys, "--cards", "21", "--riffles", "8", "--samples", "5")
    assert status == 0
    assert "(simulated: the exact best guess on 5 sampled decks" in out
    assert "repeat it with --seed=" in out


@pytest.mark.parametrize("argv, named", [
    (["--cards", "53"], "not 53"),
    (["--cards", "65", "--feedback", "none"], "not 65"),
    (["--cards", "0"], "not 0"),
    (["--riffles", "17", "--feedback", "none"], "not 17"),
    (["--feedback", "partial"], "'partial'"),
    (["--samples", "1"], "not 1"),
    (["--samples", "5001"], "not 5001"),
    (["--cards", "x"], "'x'"),
    (["--cards", "30", "--seed", ""], "--seed"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, named):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and named in err
