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


@pytest.mark.parametrize("ratio, character", [
    (1.0, "."), (1.049, "."), (1 / 1.049, "."), (1.05, "+"), (1 / 1.05, "-"), (1.2, "*"), (1 / 1.2, "="),
    (1.5, "#"), (1 / 1.5, ":"), (1.99, "#"), (2.0, "@"), (7.0, "@"), (0.5, " "), (0.0, " "),
])
def test_a_text_cell_shows_its_ratio_on_the_pages_log2_scale(ratio, character):
    assert heatmap.text_character(heatmap.ratio_score(ratio)) == character


def test_the_text_heat_map_is_a_row_per_card_and_a_character_per_position():
    counts = [[20, 40, 0], [40, 20, 0], [0, 0, 60]]  # 60 shuffles: 20 expected per cell
    k, rows = heatmap.text_heat_map(counts, 60)
    assert k == 1 and rows == ["   0  ", "   012", "0  .@ ", "1  @. ", "2    @"]


def test_a_big_deck_is_drawn_in_blocks_that_add_their_cells_up():
    n = 130  # three cards a block: 44 columns
    counts = [[3 if card == position else 0 for position in range(n)] for card in range(n)]  # 3 shuffles, no card moves
    counts[0][0], counts[0][1], counts[1][0], counts[1][1] = 0, 3, 3, 0  # cards 0 and 1 swap: same block
    k, rows = heatmap.text_heat_map(counts, 3)
    assert k == 3 and len(rows) == 2 + 44 and {len(row) for row in rows[2:]} == {len("129  ") + 44}
    # a diagonal block holds 3 of its 9 cells' worth (3 × 3 shuffles over 9 × 3/130 expected): far too common
    assert rows[2][5] == "@" and rows[2][6] == " " and rows[-1].startswith("129  ")


def test_each_views_key_names_its_colours_and_the_scale_its_legend_ticks_show():
    from shufflelab.lab.heatmap import key, legend

    for view in ("observed", "exact", "difference"):
        title, words = key(view)
        assert "Orange" in words and "Purple" in words and "White" in words  # every colour of the bar, in words
        ends = (legend(view)[0][1], legend(view)[-1][1])  # the bar's two ends, as its ticks label them
        assert ends == (("−4σ", "+4σ") if view == "difference" else ("½×", "2×"))
        assert all(end.lstrip("+") in words for end in ends), (view, ends)
    assert key("observed")[0] == "Observed ÷ uniform" and "(1 time in n)" in key("observed")[1]
    assert key("exact")[0] == "Exact ÷ uniform" and "No luck involved" in key("exact")[1]
    assert key("difference")[0] == "Observed − exact" and "σ" in key("difference")[1]
    assert key("anything else") == key("observed")
