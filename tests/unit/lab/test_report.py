"""The lab's verdict as the command line gives it: the page's own summary, as data and as text."""

from shufflelab.exact.matrices import position_matrix
from shufflelab.lab.report import verdict_data, verdict_lines
from shufflelab.lab.summary import summarize
from shufflelab.tally import Tally


def tally_of(algo, n, trials, seed="report"):
    tally = Tally(algo, n, seed=seed)
    tally.run(trials)
    return tally


def test_the_data_is_the_pages_summary_with_the_counts_it_came_from():
    tally = tally_of("swap-any", 6, 3000)
    matrix = position_matrix("swap-any", 6)
    summary = summarize(tally.counts, tally.fixed_points, matrix)
    data = verdict_data(tally.counts, tally.fixed_points, summary)
    assert (data["verdict"], data["sentence"], data["detail"], data["heat_summary"]) == (
        summary["verdict"], summary["sentence"], summary["detail"], summary["heat_summary"])
    assert data["figures"] == [list(figure) for figure in summary["figures"]]
    assert data["fixed_point_bars"] == summary["fixed_points"]
    assert (data["cards"], data["shuffles"], data["counts"], data["fixed_points"]) == (
        6, 3000, tally.counts, tally.fixed_points)
    assert data["minimum_shuffles"] == 30  # every cell expects 5: 5 × 6
    assert verdict_data(tally.counts, tally.fixed_points)["figures"] == [  # no summary: against uniform alone
        list(figure) for figure in summarize(tally.counts, tally.fixed_points)["figures"]]


def test_the_text_says_the_verdict_then_every_figure_the_heat_map_and_the_fixed_points():
    tally = tally_of("fisher-yates-off-by-one", 5, 2000)
    data = verdict_data(tally.counts, tally.fixed_points)
    lines = verdict_lines(data)
    assert lines[:2] == ["Verdict: biased", data["sentence"]]  # the page's plain sentence, first
    assert lines[3] == data["detail"] and data["detail"].startswith("Biased: p ")  # then the test's own words
    for label, value in data["figures"]:
        assert any(line.strip().startswith(label) and line.endswith(value) for line in lines)
    diagonal = [line for line in lines if line[:1].isdigit()]  # the heat map's rows, card first
    assert [row[3 + card] for card, row in enumerate(diagonal)] == [" "] * 5  # Sattolo: no card ever stays
    assert data["heat_summary"] in lines and lines[-1] == data["fixed_point_bars"]["sentence"]
    assert "  0                    100.00%    " in "\n".join(lines)  # every shuffle left no card in place
