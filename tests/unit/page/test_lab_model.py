"""The lab's view model, under CPython: what runs, Start/Pause/hide/show, fair turns, the time left, the words.

It is the page's own code (``py/page/lab_model.py``, which MicroPython runs), imported here
without the page: it has no ``js`` or ``pyscript`` import, so these tests need no browser.
"""

import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "py"))

from page.lab_model import (  # noqa: E402 (after the path)
    CATCH_UP_CHUNKS,
    SLOW_START_SECONDS,
    LabModel,
    ProgressClock,
    Side,
    StatusLine,
    config_name,
    distance_text,
    model_text,
    sampling_noise,
    start_progress,
)
from shufflelab.lab.protocol import ExactStatus, Snapshot, TallyConfig  # noqa: E402
from shufflelab.link import read_link  # noqa: E402


def link(query: str):
    return read_link(query)[0]


def counted(side, trials: int, rate: float) -> None:
    """Give a side a snapshot of ``trials`` shuffles at ``rate`` a second."""
    side.latest = Snapshot(8, trials, rate)


def test_side_a_tallies_the_menus_algorithm_until_the_users_shuffle_runs():
    model = LabModel()
    shown = link("view=lab&algo=swap-any&n=8&tseed=t")
    assert model.tally_config(shown, model.a) == TallyConfig("swap-any", [], 8, "t", "a")
    assert model.tally_config(shown, model.b) is None  # nothing compared
    model.custom_active = True
    assert model.tally_config(shown, model.a) == TallyConfig("custom", [], 8, "t", "a")
    compared = link("view=lab&algo=swap-any&n=8&vs=riffle-gsr&vs-passes=3")
    assert model.tally_config(compared, model.b) == TallyConfig("riffle-gsr", [["passes", 3]], 8, None, "b")
    assert model.leave_custom() is True and model.leave_custom() is False
    assert model.tally_config(shown, model.a).algo == "swap-any"


def test_what_the_users_code_counted_is_always_titled_as_theirs():
    model = LabModel()
    model.a.config = TallyConfig("custom", [], 8, None, "a")
    model.name_sides()
    assert (model.a.title, model.a.compared, model.a.prefix("ready")) == ("Your shuffle", False, "ready")
    model.b.config = TallyConfig("fisher-yates", [], 8, None, "b")
    model.name_sides()
    assert (model.a.title, model.b.title) == ("A · your shuffle", "B · Fisher–Yates (Durstenfeld)")
    assert model.b.prefix("ready") == "B: ready"
    model.a.config = TallyConfig("swap-any", [], 8, None, "a")
    model.b.config = None
    model.name_sides()
    assert model.a.title == "" and model.sides() == (model.a,)


def test_results_of_earlier_code_are_titled_as_such_until_the_box_code_runs():
    model = LabModel()
    model.a.config = TallyConfig("custom", [], 8, None, "a")
    model.custom_active = True
    model.code_ran("def shuffle(cards, rng): ...")
    model.name_sides()
    assert model.a.title == "Your shuffle" and not model.results_stale()
    assert model.code_in_box("def shuffle(cards, rng): return cards[") is True  # edited, or a Run that failed
    model.name_sides()
    assert model.results_stale() and model.a.title == "Your shuffle (the code that last ran, not the code in the box now)"
    assert model.code_in_box("def shuffle(cards, rng): return cards[:") is False  # still stale: nothing to redraw
    model.code_ran("def shuffle(cards, rng): return cards[:")
    assert not model.results_stale()
    model.code_in_box("x")
    assert model.leave_custom() and not model.results_stale()  # the menu's algorithm: nothing of the code is shown


def test_a_comparison_keeps_both_sides_at_one_count_and_the_slower_side_never_waits():
    model = LabModel()
    assert model.next_side() == (model.a, None)  # alone: side a, a whole chunk
    model.b.config = TallyConfig("fisher-yates", [], 8, None, "b")
    counted(model.a, 1000, 5e6)
    counted(model.b, 400, 5e4)
    assert model.next_side() == (model.b, 1000)  # the side behind catches up exactly
    counted(model.b, 1000, 5e4)
    assert model.next_side() == (model.b, None)  # level: the slower side runs a whole chunk
    counted(model.a, 1000, 1e4)
    assert model.next_side() == (model.a, None)


def test_after_pause_only_the_side_behind_runs_and_only_a_few_chunks():
    model = LabModel()
    model.b.config = TallyConfig("fisher-yates", [], 8, None, "b")
    counted(model.a, 1000, 5e6)
    counted(model.b, 400, 5e4)
    assert model.start() is True and model.start() is False  # a second Start starts no second loop
    assert model.next_chunk(7) == (model.b, 1000, 0)  # running: every chunk, and the catching up starts afresh
    model.pause()
    assert model.next_chunk(0) == (model.b, 1000, 1)
    assert model.next_chunk(CATCH_UP_CHUNKS) is None  # it gave up: the sides stay as they are
    counted(model.b, 1000, 5e4)
    assert model.next_chunk(0) is None  # level: nothing to catch up


def test_hiding_the_lab_pauses_it_and_showing_it_resumes_only_what_hiding_paused():
    model = LabModel()
    assert model.seen(False) is None  # not running: nothing to pause
    model.start()
    assert model.seen(False) == "hidden" and not model.running
    assert model.seen(True) == "shown"
    assert model.seen(True) is None  # once
    model.start()
    model.seen(False)
    model.pause()  # the user paused while it was hidden: coming back does not resume
    assert model.seen(True) is None


def test_a_lost_worker_leaves_nothing_running_and_drops_answers_on_their_way():
    model = LabModel()
    model.start()
    model.a.config = TallyConfig("swap-any", [], 8, None, "a")
    generations = (model.a.generation, model.b.generation)
    model.forget_tallies()
    assert not model.running and model.a.config is None
    assert (model.a.generation, model.b.generation) == (generations[0] + 1, generations[1] + 1)


def test_the_time_left_is_the_workers_estimate_until_the_page_has_seen_a_pace():
    clock = ProgressClock()
    assert clock.left(10.0, 0.1, 42.0) == 42.0
    assert clock.left(10.5, 0.1, 41.0) == 41.0  # no progress yet: still the estimate
    assert clock.left(12.0, 0.3, 40.0) == pytest.approx(2.0 * 0.7 / 0.2)  # 0.2 done in 2 s: 7 s for the 0.7 left


def test_the_words_and_figures():
    assert sampling_noise(5, 10_000) == pytest.approx(0.4 * math.sqrt(120 / 10_000))
    assert config_name(TallyConfig("riffle-gsr", [["passes", 3]], 8, None, "a")).endswith(" (passes 3)")
    assert config_name(TallyConfig("custom", [], 8, None, "a")) == "your shuffle"
    status = ExactStatus(True, None, "", 0.1, 0.0, distance=[2285 / 23328, "2285/23328"])
    assert distance_text(status, None) == " Exact distance to uniform (total variation): 0.0980 (2285/23328)."
    assert "0, every order" in distance_text(ExactStatus(True, distance=[0.0, "0/1"]), None)
    why = ExactStatus(False, distance_reason="too big.")
    assert distance_text(why, TallyConfig("x", [], 7, None, "a")) == " No exact distance to uniform: too big."
    assert distance_text(why, TallyConfig("x", [], 52, None, "a")) == ""


def test_the_exact_note_names_the_model_only_where_it_depends_on_the_size():
    assert model_text(ExactStatus(True, model="the real ANSI rand()")) == " Exact model: the real ANSI rand()."
    assert model_text(ExactStatus(True)) == ""


# --- the worker's start: the bytes of the lab's Python fetched, then Python starting -----------------------------


def test_the_start_shows_the_bytes_fetched_of_the_runtime_then_python_starting():
    assert start_progress((4_200_000, 13_520_000), 3.0) == ("Fetching the lab's Python: 4.2 of 13.5 MB…",
                                                            4_200_000 / 13_520_000)
    assert start_progress((0, 13_520_000), 0.0) == ("Fetching the lab's Python: 0.0 of 13.5 MB…", 0.0)
    # all of it read (or more: a file read twice counts once, but never past the total): Python starts
    assert start_progress((13_520_000, 13_520_000), 9.0) == ("Starting the lab's Python…", 1.0)
    assert start_progress((14_000_000, 13_520_000), 9.0) == ("Starting the lab's Python…", 1.0)


@pytest.mark.parametrize("fetched", [None, (0, 0)])
def test_with_nothing_said_of_the_fetch_the_start_says_what_it_waits_for_after_a_while(fetched):
    text, share = start_progress(fetched, 0.0)
    assert (text, share) == ("Starting the worker (Pyodide, a few seconds)…", None)
    text, share = start_progress(fetched, SLOW_START_SECONDS)
    assert share is None and text.startswith("Still starting: the worker downloads Pyodide (about 14 MB")


def test_a_runtime_kept_from_an_earlier_visit_is_never_said_to_download():
    assert start_progress(None, 0.0, kept=True) == ("Starting the lab's Python…", None)
    assert start_progress(None, 3 * SLOW_START_SECONDS, kept=True) == ("Starting the lab's Python…", None)


def test_the_share_fetched_never_leaves_0_to_1():
    for loaded in range(0, 20_000_001, 1_000_000):
        _, share = start_progress((loaded, 13_520_000), 1.0)
        assert 0 <= share <= 1


def test_the_lab_download_the_page_states_is_the_manifests():
    """The page's "about 14 MB" is Pyodide's files as the service worker's manifest counts them, rounded."""
    import docs_hooks  # scripts/: the figure the docs compute (imported here: it builds the docs' generated parts)
    from page import lab_model

    assert docs_hooks.lab_download_figure() == "%.1f MB" % (docs_hooks.lab_download_bytes() / 1e6)
    assert round(docs_hooks.lab_download_bytes() / 1e6) == lab_model.LAB_DOWNLOAD_MB


def test_a_verdict_is_announced_when_it_changes_not_on_every_count():
    side = Side("a", "", "A")
    assert side.verdict_news("too-few", "Too early to tell: 10 of 260…") == ""
    assert side.verdict_news("no-bias", "Fair so far: after 300 shuffles…") == "Fair so far: after 300 shuffles…"
    assert side.verdict_news("no-bias", "Fair so far: after 900 shuffles…") == ""  # only the count moved
    assert side.verdict_news("biased", "Biased: A♣ ends up on top…") == "Biased: A♣ ends up on top…"
    side.compared = True  # beside another side, it is named
    assert side.verdict_news("suspicious", "Suspicious: …") == "A: Suspicious: …"
    assert side.verdict_news("too-few", "Too early to tell: 0 of 260…") == ""  # a new tally (Reset, a new n)
    assert side.verdict_news("suspicious", "Suspicious: …") == "A: Suspicious: …"  # its first verdict is heard again


def test_the_riffle_charts_conclusion_is_one_sentence_a_player_reads():
    from page.lab_model import edge_words, riffle_conclusion

    tv_52 = [1.0, 1.0, 1.0, 0.99993, 0.92373, 0.61354, 0.33406, 0.16716, 0.08542, 0.04295]  # GSR, 52 cards, k = 1..10
    assert riffle_conclusion(52, tv_52) == (
        "After 7 riffles of 52 cards, a bettor's edge on a single bet is about 1 in 3; after 8, about 1 in 6.")
    assert riffle_conclusion(52, tv_52[:7]) == "After 7 riffles of 52 cards, a bettor's edge on a single bet is about 1 in 3."
    assert riffle_conclusion(52, tv_52[:5]).startswith("After 5 riffles of 52 cards a bettor who knows the shuffle still")
    assert [edge_words(tv) for tv in (0.0, 0.6, 0.25)] == ["none", "more than half", "about 1 in 4"]


def test_a_background_step_never_replaces_a_notice_given_after_it_began():
    line = StatusLine()
    start, progress = line.claim(), line.claim()
    assert line.may_write(start) and line.may_write(progress)  # no notice yet: progress is said
    line.noticed()  # "…; kept 6." while both were under way
    assert not line.may_write(start) and not line.may_write(progress)
    after = line.claim()  # the user acts again: what that starts is said
    assert line.may_write(after)
    line.noticed()
    assert not line.may_write(after)
