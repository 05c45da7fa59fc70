"""shufflelab.lab.words: the sentences the page's lab and the command line's tally both show."""

import pytest

from shufflelab.lab.words import (
    card_words,
    distance_sentence,
    distance_words,
    number_words,
    odds_words,
    ordinal,
    place_words,
)


def test_a_distance_is_a_decimal_with_its_fraction_when_the_fraction_is_short():
    assert distance_words(2285 / 23328, "2285/23328") == "0.0980 (2285/23328)"
    assert distance_sentence([2285 / 23328, "2285/23328"]) == "Exact distance to uniform (total variation): 0.0980 (2285/23328)."


def test_a_tiny_distance_is_in_scientific_notation_and_a_long_fraction_is_left_out():
    assert distance_words(1 / 40320, "1/40320") == "2.48e-05 (1/40320)"
    long = "1" * 20 + "/" + "3" * 21
    assert distance_words(1 / 3, long) == "0.3333"


def test_no_distance_says_every_order_is_equally_likely():
    assert distance_sentence([0.0, "0/1"]) == "Exact distance to uniform (total variation): 0, every order equally likely."


@pytest.mark.parametrize("number, said", [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"),
                                          (13, "13th"), (21, "21st"), (22, "22nd"), (52, "52nd"), (111, "111th"),
                                          (112, "112th"), (101, "101st")])
def test_an_ordinal_is_said_as_in_english(number, said):
    assert ordinal(number) == said


def test_places_are_counted_from_the_top_from_one_with_the_ends_named():
    assert [place_words(p, 5) for p in range(5)] == [
        "on top", "2nd from the top", "3rd from the top", "4th from the top", "at the bottom"]


def test_a_card_is_its_face_or_where_it_started():
    assert card_words(0, 52, "A♣") == "A♣"
    assert card_words(0, 10) == "the card that started on top"
    assert card_words(9, 10) == "the card that started at the bottom"
    assert card_words(2, 10) == "the card that started 3rd from the top"


@pytest.mark.parametrize("log10_value, said", [
    (0, "1"), (2.53, "339"), (3, "1 thousand"), (4.08, "12 thousand"), (8.954, "900 million"), (9.944, "8.8 billion"),
    (9.9999, "10 billion"), (12.5, "3.2 trillion"), (14.99, "980 trillion"), (15, "a 16-digit number"),
    (20.94, "a 21-digit number"),
])
def test_a_big_number_is_said_in_words_a_player_reads(log10_value, said):
    assert number_words(log10_value) == said


def test_odds_are_one_in_a_number_said_in_words():
    assert odds_words(8.954) == "about 1 in 900 million"
