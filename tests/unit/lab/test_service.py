"""The lab service that the worker exports: sessions, exact matrices, snapshots, failures."""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from shufflelab import catalog
from shufflelab.custom import register_custom
from shufflelab.errors import ShuffleLabError
from shufflelab.exact import fraction_from_text, outcome_distribution, physical, position_matrix, total_variation_to_uniform
from shufflelab.lab import protocol, service
from shufflelab.lab.protocol import CodeReady, ExactStatus, ProtocolError, RiffleReport, Snapshot, TallyConfig
from shufflelab.lab.sandbox import SandboxService


@pytest.fixture
def lab(ticking_clock):
    """A fresh lab service whose paced steps follow a ticking clock: the same steps on any machine."""
    physical._FLOAT_PASSES.clear()  # each test starts with nothing computed, as a fresh worker does
    return service.LabService()


def configure(lab, algo, n, params=(), seed="service", slot=None):
    return protocol.read(lab.configure(protocol.request(TallyConfig(algo, [list(p) for p in params], n, seed, slot))),
                         ExactStatus)


def walked(lab, status, slot=None):
    """Drive a walk of every path to its end, as the page does; return every status on the way."""
    steps = [status]
    while steps[-1].progress is not None:
        steps.append(protocol.read(lab.exact_step(200, slot), ExactStatus))
    return steps


def test_a_configured_tally_runs_and_answers_snapshots(lab):
    status = configure(lab, "swap-any", 5)
    assert status.available and len(status.matrix) == 5
    snapshot = protocol.read(lab.run_for(50, "difference"), Snapshot)
    assert snapshot.n == 5 and snapshot.trials > 0
    assert len(snapshot.pixels) == 5 * 5 * 4
    total = sum(snapshot.count_at(card, 0) for card in range(5))
    assert total == snapshot.trials  # every shuffle puts exactly one card at position 0
    assert snapshot.summary["verdict"] in ("too-few", "no-bias", "suspicious", "biased")


def test_a_seeded_tally_is_reproducible(lab):
    configure(lab, "fisher-yates", 6, seed="same")
    first = protocol.read(lab.run_for(30, "observed"), Snapshot)
    other = service.LabService()
    configure(other, "fisher-yates", 6, seed="same")
    other.current().tally.run(first.trials)
    again = protocol.read(other.snapshot("observed"), Snapshot)
    assert again.counts == first.counts


def test_no_exact_matrix_is_a_reason_not_a_failure(lab):
    status = configure(lab, "random-comparator", 20)  # its matrix walks every path of the sort: up to 6 cards
    assert not status.available and status.matrix is None and "20" in status.reason


def test_a_too_costly_matrix_is_a_reason_and_replaces_the_previous_one(lab):
    # the live bug: riffle-physical at 60 cards failed to configure, and the lab kept
    # showing the previous algorithm's "Exact matrix computed"
    assert configure(lab, "fisher-yates", 60).available
    status = configure(lab, "riffle-physical", 60)
    assert not status.available and not status.matrix
    assert "52 cards" in status.reason
    assert protocol.read(lab.snapshot("exact"), Snapshot).n == 60  # the tally itself still works


# riffle-physical's first exact matrix at 44 cards: about 0.7 s in CPython (1.4 s at 52), estimated from the catalog as
# more than ASK_FIRST_SECONDS in Pyodide, so the page offers "Compute it" and steps through it
SLOW_N = 44


def test_a_slow_matrix_waits_for_the_user(lab):
    """Estimated as slower than ASK_FIRST_SECONDS in Pyodide, it is begun (calibrated) but not finished in configure."""
    status = configure(lab, "riffle-physical", 52)  # the slowest it gets: seconds even in CPython
    assert not status.available and status.pending_seconds > 0 and 0 < status.progress < 1


def test_a_slow_matrix_is_estimated_at_this_machines_pace_and_computed_in_steps(lab):
    status = configure(lab, "riffle-physical", SLOW_N)
    assert 0 < status.progress < 1 and status.seconds >= service.CALIBRATION_SECONDS
    # the estimate is the measured pace: time spent so far × the fraction left / the fraction done
    assert status.pending_seconds == pytest.approx(status.seconds * (1 - status.progress) / status.progress)
    steps = [status]
    while steps[-1].progress is not None:
        steps.append(protocol.read(lab.exact_step(200), ExactStatus))
        assert steps[-1].seconds >= steps[-2].seconds
    fractions = [s.progress for s in steps[:-1]]
    assert fractions == sorted(fractions) and len(fractions) >= 3
    done = steps[-1]
    assert done.available and done.pending_seconds == 0 and done.seconds == pytest.approx(steps[-2].seconds, abs=0.5)
    assert done.matrix == [[float(p) for p in row] for row in position_matrix("riffle-physical", SLOW_N, {"passes": 7})]
    assert configure(lab, "riffle-physical", SLOW_N).available  # computed once: the next configuration has it at once


def test_a_valid_link_that_costs_seconds_a_shuffle_keeps_every_call_near_its_budget(lab, monkeypatch, ticking_clock):
    """?view=lab&algo=cut-insert&n=128&repetitions=100000 restarted the worker in a loop: its matrix (5 s in
    Pyodide) was computed inside configure, and the first chunk tallied 64 decks of 0.3 s, past the page's 10 s."""
    ticking_clock.tick = 0.1  # a deck's time in CPython between two looks at the clock
    monkeypatch.setattr(service, "CALIBRATION_SECONDS", 0.0)  # no product yet: the estimate is the catalog's
    assert configure(lab, "cut-insert", 128, [("repetitions", 1)]).available  # cheap: no product at all
    status = configure(lab, "cut-insert", 128, [("repetitions", 100_000)])  # not taken as cached by the one above
    # estimated and offered with the time it takes, not computed inside the call
    assert not status.available and status.progress == 0 and status.pending_seconds > service.ASK_FIRST_SECONDS
    snapshot = protocol.read(lab.run_for(200, "observed"), Snapshot)
    assert 1 <= snapshot.trials <= 2  # a deck is 0.1 s in CPython: a chunk of 0.2 s holds one or two, not 64


def test_cut_inserts_slow_matrix_is_computed_in_steps_to_the_same_matrix(lab, monkeypatch):
    monkeypatch.setattr(service, "ASK_FIRST_SECONDS", 0.0)  # 40 cards are quick: ask first anyway, to step it
    monkeypatch.setattr(service, "CALIBRATION_SECONDS", 0.0)  # stop after the first product
    status = configure(lab, "cut-insert", 40, [("repetitions", 100_000)])
    assert not status.available and status.pending_seconds > 0
    steps = walked(lab, status)
    assert [s.progress for s in steps[:-1]] == sorted(s.progress for s in steps[:-1])
    expected = position_matrix("cut-insert", 40, {"repetitions": 100_000})
    assert steps[-1].available and steps[-1].matrix == expected


def test_moving_on_drops_a_slow_matrix_half_done(lab):
    assert configure(lab, "riffle-physical", SLOW_N).progress is not None
    assert configure(lab, "fisher-yates", 30).available
    again = configure(lab, "riffle-physical", SLOW_N)
    assert not again.available and again.progress is not None  # started afresh, not taken as done


def test_library_errors_come_back_as_one_line(lab):
    with pytest.raises(ProtocolError, match="unknown algorithm 'bogo'"):
        configure(lab, "bogo", 5)
    with pytest.raises(ProtocolError, match="no tally in slot a yet"):
        protocol.read(lab.snapshot("observed"), Snapshot)
    with pytest.raises(ProtocolError, match="unknown lab slot 'c'"):
        configure(lab, "fisher-yates", 5, slot="c")
    configure(lab, "fisher-yates", 5)
    with pytest.raises(ProtocolError, match="unknown heat-map view"):
        protocol.read(lab.snapshot("<b>"), Snapshot)
    with pytest.raises(ProtocolError, match="2 to 255 cards"):
        configure(lab, "fisher-yates", 1)


def test_riffle_report_has_exact_and_small_deck_measured_distances(lab):
    report = protocol.read(lab.riffle(4, 5), RiffleReport)
    assert len(report.tv) == 5 and report.tv[0] > report.tv[-1]
    assert len(report.measured) == 5 and report.measured_trials == service.MEASURED_RIFFLE_TRIALS
    big = protocol.read(lab.riffle(52, 12), RiffleReport)
    assert big.measured is None and round(big.tv[6], 3) == 0.334


@pytest.mark.parametrize("n", [3, 52])
def test_riffle_report_gives_the_three_distances_riffle_distances_gives(lab, n, capsys):
    from shufflelab.cli import main
    from shufflelab.riffles import DISTANCE_MEANINGS

    report = protocol.read(lab.riffle(n, 12), RiffleReport)
    assert main(["riffle-distances", "--cards", str(n), "--max-k", "12", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["distances"]
    assert report.tv == [row["tv_value"] for row in rows]
    assert report.separation == [row["separation_value"] for row in rows]
    assert report.kl == [row["kl_bits"] for row in rows]  # bits, as the command line prints them
    assert main(["riffle-distances", "--cards", str(n), "--max-k", "12"]) == 0
    printed = [line.split() for line in capsys.readouterr().out.splitlines()[2:14]]
    assert [[str(k)] + texts for k, texts in enumerate(report.texts, 1)] == printed  # the page shows these texts
    assert report.meanings == [list(meaning) for meaning in DISTANCE_MEANINGS]


def test_the_worker_exports_exactly_the_service_and_hands_it_pyodides_memory(lab, monkeypatch):
    import importlib.util
    import sys
    from pathlib import Path
    from types import SimpleNamespace

    # Pyodide's JavaScript API, as the worker sees it: only the memory's size is read
    heap = SimpleNamespace(length=33_554_432)
    monkeypatch.setitem(sys.modules, "pyodide_js", SimpleNamespace(_module=SimpleNamespace(HEAP8=heap)))
    marks = []  # the worker's global scope: the marks that time its imports for the bench
    monkeypatch.setitem(sys.modules, "js", SimpleNamespace(performance=SimpleNamespace(mark=marks.append)))
    monkeypatch.setattr(service.SERVICE, "memory_probe", None)
    path = Path(__file__).resolve().parents[3] / "py" / "worker.py"
    spec = importlib.util.spec_from_file_location("lab_worker", path)
    worker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(worker)
    assert worker.__export__ == service.EXPORTS
    assert marks == ["shufflelab:worker-imports", "shufflelab:worker-imported"]
    assert all(callable(getattr(worker, name)) for name in worker.__export__)
    heap.length = 37_748_736  # read afresh at every snapshot
    assert service.SERVICE.memory_probe() == 37_748_736


def test_a_snapshot_carries_the_workers_memory_when_the_worker_can_read_it(lab):
    configure(lab, "fisher-yates", 5)
    assert protocol.read(lab.snapshot("observed"), Snapshot).memory is None  # CPython: nothing to read
    lab.memory_probe = lambda: 31_457_280
    assert protocol.read(lab.run_for(10, "observed"), Snapshot).memory == 31_457_280
    assert protocol.read(lab.snapshot("observed"), Snapshot).memory == 31_457_280


SWAP_ANY_CODE = """def shuffle(cards, rng):
    n = len(cards)
    for i in range(n - 1, -1, -1):  # as the built-in swap-any: from the bottom card up
        j = rng.below(n)
        cards[i], cards[j] = cards[j], cards[i]
    return cards
"""


def in_sandbox(sandbox, method, *args):
    """Call the sandbox's service as the page does: JSON arguments in, JSON text out."""
    return sandbox.handle(method, json.dumps(args))


def adopted_walk(lab, sandbox, slot=None):
    """Drive the sandbox's walk to its end, handing each step to the trusted service; return its last status."""
    while True:
        status = protocol.read(lab.adopt_walk(in_sandbox(sandbox, "walk_step", 200), slot), ExactStatus)
        if status.progress is None:
            return status


def test_the_users_code_runs_in_the_sandbox_and_the_lab_draws_what_it_counted(lab):
    sandbox = SandboxService()
    assert protocol.read(lab.adopt_code(in_sandbox(sandbox, "compile", SWAP_ANY_CODE)), CodeReady).algo == "custom"
    status = configure(lab, "custom", 4)
    assert status.goes_on and not status.available  # walked in the sandbox, not here
    in_sandbox(sandbox, "configure", 4, "service")
    status = adopted_walk(lab, sandbox)
    swap_any = total_variation_to_uniform(outcome_distribution("swap-any", 4), 4)
    assert status.available and status.distance == [float(swap_any), "%d/%d" % (swap_any.numerator, swap_any.denominator)]
    assert status.matrix == [[float(p) for p in row] for row in position_matrix("swap-any", 4)]
    counted = {"trials": 0}
    while counted["trials"] < 2000:  # a count, not a time: the same shuffles on any machine
        counted = json.loads(in_sandbox(sandbox, "run_for", 200, 2000))["data"]
    snapshot = protocol.read(lab.adopt_counts(json.dumps({"ok": True, "data": counted}), "difference"), Snapshot)
    assert snapshot.trials == 2000 and sum(snapshot.count_at(card, 0) for card in range(4)) == snapshot.trials
    assert snapshot.drawn == "difference" and snapshot.summary["verdict"] == "biased"  # swap-any: 2,000 are plenty


def test_code_that_never_calls_rng_is_told_so_before_any_figure(lab):
    sandbox = SandboxService()
    protocol.read(lab.adopt_code(in_sandbox(sandbox, "compile", "def shuffle(cards, rng):\n    return cards[::-1]\n")),
                  CodeReady)
    configure(lab, "custom", 5)
    in_sandbox(sandbox, "configure", 5, "still")
    counted = {"trials": 0}
    while counted["trials"] < 500:
        counted = json.loads(in_sandbox(sandbox, "run_for", 200, 500))["data"]
    assert counted["drew"] is False
    snapshot = protocol.read(lab.adopt_counts(json.dumps({"ok": True, "data": counted}), "observed"), Snapshot)
    assert snapshot.summary["sentence"] == "Biased: your shuffle never called rng, so it gives the same order every time."
    counted["drew"] = "no"  # whatever the sandbox says is read by trusted code: a flag is true or false
    with pytest.raises(ProtocolError, match="drew must be true or false"):
        protocol.read(lab.adopt_counts(json.dumps({"ok": True, "data": counted}), "observed"), Snapshot)


def test_the_trusted_service_runs_no_code_and_tallies_no_custom_shuffle_itself(lab):
    assert not hasattr(lab, "use_code") and "use_code" not in service.EXPORTS
    configure(lab, "custom", 7)
    with pytest.raises(ProtocolError, match="tallied in the sandbox"):
        protocol.read(lab.run_for(50, "observed"), Snapshot)
    configure(lab, "swap-any", 5, slot="b")
    with pytest.raises(ProtocolError, match="which only this worker counts"):  # a built-in's counts are never adopted
        protocol.read(lab.adopt_counts('{"ok": true, "data": {}}', "observed", "b"), Snapshot)


@pytest.mark.parametrize("source, message", [
    ("def shuffle(cards, rng)\n    return cards\n", 'line 1: "def shuffle(cards, rng)"'),
    ("x = 1\n", "no function named shuffle(cards, rng) is defined"),
])
def test_code_that_cannot_run_is_one_line_naming_the_problem(lab, source, message):
    with pytest.raises(ProtocolError) as raised:
        protocol.read(lab.adopt_code(in_sandbox(SandboxService(), "compile", source)), CodeReady)
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_a_shuffle_that_returns_the_wrong_cards_stops_the_tally_with_one_line(lab):
    sandbox = SandboxService()
    protocol.read(lab.adopt_code(in_sandbox(sandbox, "compile", "def shuffle(cards, rng):\n    return cards[:-1]\n")),
                  CodeReady)
    configure(lab, "custom", 7)
    in_sandbox(sandbox, "configure", 7, None)
    with pytest.raises(ProtocolError, match="returned 6 cards for a deck of 7"):
        protocol.read(lab.adopt_counts(in_sandbox(sandbox, "run_for", 50), "observed"), Snapshot)


def test_two_slots_tally_side_by_side_without_touching_each_other(lab):
    configure(lab, "fisher-yates", 5, seed="same")
    configure(lab, "swap-any", 6, slot="b")
    first = protocol.read(lab.run_for(30, "observed"), Snapshot)
    other = protocol.read(lab.run_for(30, "observed", "b"), Snapshot)
    assert (first.n, other.n) == (5, 6)
    assert protocol.read(lab.snapshot("observed", "a"), Snapshot).trials == first.trials  # b's run added nothing to a
    alone = service.LabService()
    configure(alone, "fisher-yates", 5, seed="same")
    alone.current().tally.run(first.trials)
    assert protocol.read(alone.snapshot("observed"), Snapshot).counts == first.counts


def test_small_decks_get_the_exact_distance_to_uniform(lab):
    # swap-any on 3 cards: 27 paths over 6 orders, three at 5/27 and three at 4/27, so TV = ½·6·(1/54) = 1/18
    status = configure(lab, "swap-any", 3)
    assert status.distance == [float(Fraction(1, 18)), "1/18"] and not status.distance_reason
    assert configure(lab, "fisher-yates", 4, slot="b").distance in (None, [0.0, "0/1"])


def test_a_walk_gives_matrix_and_distance_in_steps_the_page_goes_on_with(lab, monkeypatch):
    monkeypatch.setattr(service, "CALIBRATION_SECONDS", 0.0)  # stop after the first step, however fast
    status = configure(lab, "random-comparator", 4)
    assert status.goes_on and status.progress is not None and not status.available
    done = walked(lab, status)[-1]
    assert done.available and not done.goes_on and done.progress is None
    # the docs' hand derivation: 8 orders at 1/16, 16 at 1/32, so TV = ½(8·(1/16 − 1/24) + 16·(1/24 − 1/32)) = 1/6
    assert done.distance == [float(Fraction(1, 6)), "1/6"]
    assert [round(sum(row), 12) for row in done.matrix] == [1.0] * 4


def test_a_model_gives_the_distance_up_to_its_limit_and_says_why_not_beyond(lab):
    small = configure(lab, "riffle-gsr", service.MAX_MODEL_DISTANCE_CARDS, [("passes", 1)])
    assert small.distance is not None and 0 < small.distance[0] < 1
    big = configure(lab, "riffle-gsr", service.MAX_MODEL_DISTANCE_CARDS + 1)
    assert big.distance is None and "up to 5 cards of riffle-gsr" in big.distance_reason
    deck = configure(lab, "swap-any", 52)
    assert deck.distance is None and deck.distance_reason.endswith("up to 5 cards of swap-any, not 52")


def test_a_snapshot_says_which_view_it_drew(lab):
    configure(lab, "random-comparator", 20)  # no exact matrix at 20 cards
    assert protocol.read(lab.snapshot("exact"), Snapshot).drawn == "observed"
    configure(lab, "swap-any", 20)
    assert protocol.read(lab.snapshot("exact"), Snapshot).drawn == "exact"


def test_a_snapshots_key_says_what_the_drawn_views_colours_mean(lab):
    configure(lab, "random-comparator", 20)  # no exact matrix: an exact view falls back, and so does its key
    assert protocol.read(lab.snapshot("exact"), Snapshot).key[0] == "Observed ÷ uniform"
    configure(lab, "swap-any", 20)
    titles = [protocol.read(lab.snapshot(view), Snapshot).key[0] for view in ("observed", "exact", "difference")]
    assert titles == ["Observed ÷ uniform", "Exact ÷ uniform", "Observed − exact"]


def test_a_tally_can_stop_at_a_number_of_shuffles_and_counts_the_same_as_one_that_did_not(lab):
    configure(lab, "fisher-yates", 6, seed="level")
    first = protocol.read(lab.run_for(1000, "observed", "a", 1000), Snapshot)
    assert first.trials == 1000  # long before the second was up
    again = protocol.read(lab.run_for(1000, "observed", "a", 1000), Snapshot)
    assert again.trials == 1000  # already there: nothing more
    alone = service.LabService()
    configure(alone, "fisher-yates", 6, seed="level")
    alone.current().tally.run(1000)
    assert protocol.read(alone.snapshot("observed"), Snapshot).counts == first.counts  # tally stream v1 either way


def test_a_distance_past_pythons_digit_limit_still_reaches_the_page(lab, monkeypatch):
    # cut-insert's distances are short (2/3, 3/4), but its orders run to 20,704 digits: a distance
    # that long must arrive whole, not crash the worker on the 4,300-digit limit for int to str
    long = Fraction(1, 3) - Fraction(1, 7 ** 9000)  # a 7,606-digit denominator
    monkeypatch.setattr(service, "total_variation_to_uniform", lambda distribution, n: long)
    status = configure(lab, "swap-any", 3)
    assert status.distance[0] == pytest.approx(1 / 3) and fraction_from_text(status.distance[1]) == long


def test_c_rand_says_which_rand_its_exact_answers_model(lab):
    real = configure(lab, "c-rand", 4)
    assert real.model == "the real ANSI rand()" and real.distance == [51233 / 786432, "51233/786432"]
    ideal = configure(lab, "c-rand", 3)
    assert ideal.model.startswith("an ideal rand()'s answer, not the real ANSI rand()'s")
    assert configure(lab, "swap-any", 4).model is None  # one model at every size: nothing to say


@pytest.mark.parametrize(("n", "named"), [(6, True), (4, False)])
def test_c_rand_against_an_ideal_rand_is_worded_as_the_generator_not_a_faulty_implementation(lab, n, named):
    """At 6 cards the model is an ideal rand(): a difference is the real LCG's correlations showing. At 4 it is
    the real generator's own answer, so a difference there is a real mismatch."""
    assert configure(lab, "c-rand", n).available
    session = lab.current()
    session.tally.counts = [[1000 if card == position else 0 for position in range(n)] for card in range(n)]
    session.tally.trials = 1000  # every card stayed put: nothing like either model
    figures = dict(protocol.read(lab.snapshot("observed"), Snapshot).summary["figures"])
    against = figures["Against the exact matrix"]
    assert ("not a faulty implementation" in against) is named
    assert ("does not match its exact model" in against) is not named


# --- the command line's sessions: the same session, finished in one go ------------------------------------------------


def session_of(algo, n, params=(), in_process=False):
    return service.Session(TallyConfig(algo, [list(p) for p in params], n, "cli", None), in_process=in_process)


def test_finish_exact_computes_what_the_page_computes_in_steps(ticking_clock):
    physical._FLOAT_PASSES.clear()  # nothing cached: computed in steps, as in a fresh worker
    done = []
    session = session_of("riffle-physical", SLOW_N)  # a slow matrix the page offers and steps through
    session.finish_exact(set(), step_seconds=0.2, progress=done.append)
    assert session.matrix == [[float(p) for p in row] for row in position_matrix("riffle-physical", SLOW_N, {"passes": 7})]
    assert len(done) >= 2 and done == sorted(done)


def test_finish_exact_walks_a_small_deck_for_the_matrix_and_the_distance():
    session = session_of("random-comparator", 4)
    session.finish_exact(set())
    assert session.matrix == [[0.25] * 4] * 4 and session.distance == [1 / 6, "1/6"]  # the docs: 1/6, a white map


def test_finish_exact_leaves_the_reason_where_there_is_no_matrix():
    session = session_of("random-comparator", 20)
    session.finish_exact(set())
    assert session.matrix is None and "20" in session.matrix_reason and session.distance_reason


def test_in_process_a_registered_users_shuffle_is_tallied_and_walked_here(only_built_ins_afterwards):
    register_custom(SWAP_ANY_CODE)
    session = session_of("custom", 4, in_process=True)
    session.finish_exact(set())
    assert session.matrix == [[float(p) for p in row] for row in position_matrix("swap-any", 4)]
    while session.tally.trials < 500:  # chunks of about 50 ms, as many as this machine needs
        session.run_for(0.05, up_to=500)
    assert session.tally.trials == 500
    external = session_of("custom", 4)  # the lab's worker: never
    external.finish_exact(set())
    assert external.matrix is None
    with pytest.raises(ShuffleLabError, match="tallied in the sandbox"):
        external.run_for(0.05)


def test_a_sessions_summary_is_what_its_snapshot_shows(lab):
    configure(lab, "swap-any", 6, seed="one summary")
    snapshot = protocol.read(lab.run_for(50, "observed"), Snapshot)
    session = lab.current()
    assert snapshot.summary == json.loads(json.dumps(session.summary(session.tally.counts, session.tally.fixed_points)))
    assert any(label == "Against the exact matrix" for label, _ in snapshot.summary["figures"])


# --- the Play tab's guessing game ------------------------------------------------------------


def test_the_guessing_figure_is_the_clis_exact_one_where_exact(lab):
    from shufflelab.exact import guessing
    from shufflelab.lab.protocol import GuessReport

    answer = protocol.read(lab.guess_begin(8, 1, "full"), GuessReport)
    assert answer.done and answer.report == guessing.guess_report(8, 1, "full")
    answer = protocol.read(lab.guess_begin(52, 2, "none"), GuessReport)
    assert answer.done and answer.report == guessing.guess_report(52, 2, "none")


def test_a_simulated_guessing_figure_grows_in_chunks_to_the_clis_with_the_same_seed_and_decks(lab, monkeypatch):
    from shufflelab.exact import guessing
    from shufflelab.lab.protocol import GuessReport

    monkeypatch.setattr(service, "GUESS_SAMPLES", 7)
    answer = protocol.read(lab.guess_begin(24, 2, "full"), GuessReport)
    assert not answer.done and answer.report["samples"] == 2 and answer.report["seed"] == service.GUESS_SEED
    reports = [answer]
    while not reports[-1].done:
        reports.append(protocol.read(lab.guess_more(1), GuessReport))
    assert [r.report["samples"] for r in reports] == sorted({r.report["samples"] for r in reports})
    assert reports[-1].report == guessing.guess_report(24, 2, "full", 7, service.GUESS_SEED)
    assert "guess_begin first" in json.loads(lab.guess_more(1)[0])["error"]  # nothing left under way


def test_the_best_play_on_a_dealt_deck_is_the_librarys(lab):
    from shufflelab.algorithms import riffle_gsr
    from shufflelab.exact import guessing
    from shufflelab.lab.protocol import BestPlay
    from shufflelab.tally.fast_rng import FastRng

    order = riffle_gsr(range(10), FastRng("dealt"), passes=1)
    best = protocol.read(lab.best_play(json.dumps(order), 1, "full", 10), BestPlay)
    assert best.right == guessing.play_best(order, 1) and best.guesses == guessing.best_feedback_guesses(order, 1)
    assert best.random_deck == "7381/2520" and best.played == 10
    stopped = protocol.read(lab.best_play(json.dumps(order), 1, "full", 4), BestPlay)
    assert stopped.right == sum(g == c for g, c in zip(best.guesses[:4], order[:4]))
    assert Fraction(stopped.random_deck) == Fraction(1, 10) + Fraction(1, 9) + Fraction(1, 8) + Fraction(1, 7)
    written = protocol.read(lab.best_play(json.dumps(order), 1, "none", 10), BestPlay)
    assert written.guesses == guessing.no_feedback_best_guesses(10, 1) and written.random_deck == "1/1"
    assert written.right == sum(g == c for g, c in zip(written.guesses, order))
    assert "each of 0..n-1 once" in json.loads(lab.best_play("[0, 0, 1]", 1, "full", 3)[0])["error"]


def test_the_docs_say_from_which_deck_size_riffle_physical_waits_for_compute_it():
    estimate = catalog.get("riffle-physical").resolve("matrix_seconds")
    first = next(n for n in range(2, 53) if estimate(n, {"passes": 7}) * service.PYODIDE_SLOWDOWN > service.ASK_FIRST_SECONDS)
    readme = (Path(__file__).resolve().parents[3] / "docs" / "explanation" / "the-lab.md").read_text(encoding="utf-8")
    assert f"(`riffle-physical` from {first} cards:" in readme
