"""shufflelab.lab.words: the sentences the page's lab and the command line's tally both show."""

from shufflelab.lab.words import distance_sentence, distance_words


def test_a_distance_is_a_decimal_with_its_fraction_when_the_fraction_is_short():
    assert distance_words(2285 / 23328, "2285/23328") == "0.0980 (2285/23328)"
    assert distance_sentence([2285 / 23328, "2285/23328"]) == "Exact distance to uniform (total variation): 0.0980 (2285/23328)."


def test_a_tiny_distance_is_in_scientific_notation_and_a_long_fraction_is_left_out():
    assert distance_words(1 / 40320, "1/40320") == "2.48e-05 (1/40320)"
    long = "1" * 20 + "/" + "3" * 21
    assert distance_words(1 / 3, long) == "0.3333"


def test_no_distance_says_every_order_is_equally_likely():
    assert distance_sentence([0.0, "0/1"]) == "Exact distance to uniform (total variation): 0, every order equally likely."
