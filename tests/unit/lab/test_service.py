"""The lab service that the worker exports: sessions, exact matrices, snapshots, failures."""

import pytest

from shufflelab.exact import physical, position_matrix
from shufflelab.lab import protocol, service
from shufflelab.lab.protocol import ExactStatus, ProtocolError, RiffleReport, Snapshot, TallyConfig


@pytest.fixture
def lab():
    physical._FLOAT_PASSES.clear()  # each test starts with nothing computed, as a fresh worker does
    return service.LabService()


def configure(lab, algo, n, params=(), seed="service"):
    return protocol.read(lab.configure(protocol.request(TallyConfig(algo, [list(p) for p in params], n, seed))),
                         ExactStatus)


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
    other.session.tally.run(first.trials)
    again = protocol.read(other.snapshot("observed"), Snapshot)
    assert again.counts == first.counts


def test_no_exact_matrix_is_a_reason_not_a_failure(lab):
    status = configure(lab, "random-comparator", 5)
    assert not status.available and "Markov chain" in status.reason


def test_a_too_costly_matrix_is_a_reason_and_replaces_the_previous_one(lab):
    # the live bug: riffle-physical at 60 cards failed to configure, and the lab kept
    # showing the previous algorithm's "Exact matrix computed"
    assert configure(lab, "fisher-yates", 60).available
    status = configure(lab, "riffle-physical", 60)
    assert not status.available and not status.matrix
    assert "52 cards" in status.reason
    assert protocol.read(lab.snapshot("exact"), Snapshot).n == 60  # the tally itself still works


def test_a_slow_matrix_waits_for_the_user(lab):
    status = configure(lab, "riffle-physical", 40)
    assert not status.available and status.pending_seconds > service.ASK_FIRST_SECONDS


def test_a_slow_matrix_is_estimated_at_this_machines_pace_and_computed_in_steps(lab):
    status = configure(lab, "riffle-physical", 30)  # about 1.7 s in CPython: a few steps
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
    assert done.matrix == [[float(p) for p in row] for row in position_matrix("riffle-physical", 30, {"passes": 7})]
    assert configure(lab, "riffle-physical", 30).available  # computed once: the next configuration has it at once


def test_moving_on_drops_a_slow_matrix_half_done(lab):
    assert configure(lab, "riffle-physical", 30).progress is not None
    assert configure(lab, "fisher-yates", 30).available
    again = configure(lab, "riffle-physical", 30)
    assert not again.available and again.progress is not None  # started afresh, not taken as done


def test_library_errors_come_back_as_one_line(lab):
    with pytest.raises(ProtocolError, match="unknown algorithm 'bogo'"):
        configure(lab, "bogo", 5)
    with pytest.raises(ProtocolError, match="no tally yet"):
        protocol.read(lab.snapshot("observed"), Snapshot)
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


def test_the_worker_exports_exactly_the_service(lab):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "py" / "worker.py"
    spec = importlib.util.spec_from_file_location("lab_worker", path)
    worker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(worker)
    assert worker.__export__ == service.EXPORTS
    assert all(callable(getattr(worker, name)) for name in worker.__export__)
