"""The Play tab's view model, under CPython: a game's moves and score, the figure's words, a real deck's test.

It is the page's own code (``py/page/play_model.py``, which MicroPython runs), imported here
without the page: it has no ``js`` or ``pyscript`` import, so these tests need no browser.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "py"))

from page import play_model  # noqa: E402 (after the path)
from page.play_model import Game  # noqa: E402
from shufflelab import riffles  # noqa: E402
from shufflelab.algorithms import riffle_gsr  # noqa: E402
from shufflelab.cards import standard_deck  # noqa: E402
from shufflelab.exact import guessing  # noqa: E402
from shufflelab.rng import stream  # noqa: E402


def test_a_game_deals_the_portable_riffle_of_a_new_deck():
    game = play_model.deal_game(10, 2, "full", stream("play-model"))
    assert game.order == riffle_gsr(range(10), stream("play-model"), passes=2)
    assert riffles.rising_sequences(game.order) <= 4  # two riffles: at most 2^2 rising sequences
    assert [card.label for card in play_model.game_cards(3)] == ["A", "2", "3"] or \
        [card.code for card in play_model.game_cards(3)] == ["AC", "2C", "3C"]


def test_with_feedback_each_guess_shows_a_card_and_the_last_ends_the_game():
    game = Game([2, 0, 1], 1, "full")
    assert game.shown() == 0 and not game.finish()  # nothing guessed: nothing to score
    game.guess(2)
    game.guess(1)
    assert game.shown() == 2 and game.right() == 1 and not game.over
    game.undo()
    assert game.guesses == [2]
    game.guess(0)
    game.guess(1)
    assert game.over and game.right() == 3 and game.played() == 3
    game.guess(0)  # after the end: ignored
    assert game.guesses == [2, 0, 1]


def test_with_feedback_a_game_can_stop_early_and_is_scored_on_the_cards_played():
    game = Game([3, 2, 1, 0], 0, "full")
    game.guess(3)
    assert game.finish() and game.over and game.played() == 1 and game.right() == 1
    assert game.shown() == 4  # over: the whole deck is face up
    text = play_model.score_sentence(game, 1, 0.25)
    assert text.startswith("You called 1 of 1 card right (you stopped after 1 card of 4). The best strategy calls 1")


def test_without_feedback_guesses_fill_slots_repeats_allowed_then_reveal():
    game = Game([0, 1, 2], 1, "none")
    assert game.shown() == 0 and not game.ready() and not game.finish()
    game.guess(0)
    game.guess(0)  # a repeat is allowed
    assert game.guesses == [0, 0, None] and game.cursor == 2
    game.select(1)
    game.guess(1)  # overwrites slot 1, then goes to the next empty slot
    assert game.guesses == [0, 1, None] and game.cursor == 2
    game.undo()
    assert game.guesses == [0, None, None] and game.cursor == 1
    game.guess(1)
    game.guess(1)
    assert game.ready() and game.shown() == 0
    assert game.finish() and game.shown() == 3 and game.right() == 2 and game.played() == 3
    assert play_model.prompt(game) == "Game over: the score is below."


def test_prompts_say_what_to_do_next():
    assert play_model.prompt(Game([0, 1], 0, "full")) == "Card 1 of 2: which card is it? Tap your guess."
    written = Game([0, 1], 0, "none")
    assert play_model.prompt(written) == "Position 1 of 2: tap your guess (repeats allowed; 0 filled)."
    written.guess(1)
    written.guess(1)
    assert play_model.prompt(written).startswith("Every position has a guess: press Reveal")


def test_the_figure_reads_the_clis_report_and_names_the_command_that_prints_it():
    exact = guessing.guess_report(8, 1, "full")
    assert play_model.figure_value(exact) == "5.551 cards right on average (exact: 1421/256)"
    assert play_model.random_value(exact) == "2.718 (exact: 761/280)"
    assert play_model.cli_command(exact) == "python -m shufflelab guess --cards 8 --riffles 1 --feedback full --json"
    long = guessing.guess_report(52, 1, "none")
    assert play_model.figure_value(long).endswith("cards right on average (exact)")  # hundreds of digits: not shown
    simulated = guessing.guess_report(24, 2, "full", 3, "play")
    assert play_model.figure_value(simulated).endswith("(simulated, ± standard error, 3 decks)")
    assert play_model.cli_command(simulated) == ("python -m shufflelab guess --cards 24 --riffles 2 --feedback full "
                                                 "--seed play --samples 3 --json")
    assert play_model.random_value(long) == "1.000 (exact)"  # not "exact: 1/1"
    assert play_model.thousands(1000) == "1,000" and play_model.thousands(999) == "999"


def test_a_real_decks_test_is_the_clis_assess_and_bad_input_is_one_line():
    deck = standard_deck()
    order = riffle_gsr(deck.ids(), stream("real"), passes=2)
    text = " ".join(deck.codes(order))
    result, problem = play_model.check_real_deck(text)
    assert problem is None and result == riffles.assess(order)
    rows = play_model.likelihood_rows(result)
    assert len(rows) == riffles.MAX_RIFFLES + 1 and rows[0] == (0, "impossible", False)
    assert "plausible" in play_model.range_text(result)
    for bad, named in (("AC 2C", "missing 3C"), (text + " AC", "AC is given twice"), ("ZZ", "'ZZ'")):
        result, problem = play_model.check_real_deck(bad)
        assert result is None and named in problem and "\n" not in problem


@pytest.mark.parametrize(("text", "code", "after"), [("", "AS", "AS"), ("AC 2C ", "3C", "AC 2C 3C")])
def test_taps_append_codes_and_undo_drops_the_last(text, code, after):
    assert play_model.appended_code(text, code) == after
    assert play_model.dropped_code(after) == text.strip()


def test_the_picker_marks_the_cards_typed_so_far():
    assert play_model.typed_cards("as, 10h 0H zz") == {39, 35}  # ace of spades, ten of hearts
