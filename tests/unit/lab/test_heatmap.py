"""Heat-map colours: centred on white, signed, one RGBA pixel per cell."""

import pytest

from shufflelab.lab import heatmap


def test_as_expected_is_white_and_the_ends_are_the_scale_ends():
    assert heatmap.score_colour(0.0) == bytes((247, 247, 247, 255))
    assert heatmap.score_colour(-1.0) == bytes((84, 39, 136, 255))
    assert heatmap.score_colour(1.0) == bytes((179, 88, 6, 255))
    assert heatmap.score_colour(7.0) == heatmap.score_colour(1.0)
    assert heatmap.score_colour(None) == bytes(heatmap.UNKNOWN)


def test_colour_darkens_steadily_away_from_the_centre():
    def lightness(score):
        r, g, b, _ = heatmap.score_colour(score)
        return r + g + b

    for sign in (-1, 1):
        values = [lightness(sign * k / 10) for k in range(11)]
        assert values == sorted(values, reverse=True)


def test_observed_scores_are_log_ratios_to_the_uniform_expectation():
    counts = [[10, 30], [30, 10]]  # 40 trials, 20 expected per cell
    assert heatmap.observed_scores(counts, 40) == pytest.approx([-1.0, 0.5849625, 0.5849625, -1.0])
    assert heatmap.observed_scores(counts, 0) == [None] * 4


def test_exact_scores_and_differences():
    matrix = [[0.0, 1.0], [1.0, 0.0]]
    assert heatmap.exact_scores(matrix) == [-1.0, 1.0, 1.0, -1.0]
    assert heatmap.difference_scores([[0, 9], [9, 0]], 9, matrix) == [0.0] * 4
    # a count where the exact probability is 0 is a certain failure: full colour
    assert heatmap.difference_scores([[1, 8], [8, 1]], 9, matrix) == [1.0, -1.0, -1.0, 1.0]
    half = [[0.5, 0.5], [0.5, 0.5]]
    # 100 trials, p = 1/2: sd 5, so 70 observed is +4 sd, full colour
    assert heatmap.difference_scores([[70, 30], [30, 70]], 100, half)[0] == pytest.approx(1.0)


def test_rgba_has_one_pixel_per_cell():
    assert len(heatmap.rgba(heatmap.observed_scores([[1] * 52] * 52, 52))) == 52 * 52 * 4
