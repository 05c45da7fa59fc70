"""The lab's worker protocol: messages survive the trip, and failures and versions are caught."""

import json

import pytest

from shufflelab.errors import ShuffleLabError
from shufflelab.lab import protocol
from shufflelab.lab.protocol import ExactStatus, ProtocolError, RiffleReport, Snapshot, TallyConfig


def test_a_request_round_trips_with_its_version():
    config = TallyConfig("riffle-gsr", [["passes", 3]], 52, "seed")
    text = protocol.request(config)
    assert json.loads(text)["protocol"] == protocol.PROTOCOL_VERSION
    assert protocol.read_request(text, TallyConfig) == config


def test_a_request_from_another_version_is_refused():
    text = json.dumps({"protocol": 99, "algo": "fisher-yates", "params": [], "n": 5, "seed": None})
    with pytest.raises(ProtocolError, match="protocol 99"):
        protocol.read_request(text, TallyConfig)


def test_an_answer_carries_its_blobs_after_the_envelope():
    snapshot = Snapshot(2, 3, 10.0, [[0.0, "as expected"]], {"verdict": "too-few"}, b"\x01" * 16,
                        (7).to_bytes(8, "little") + (1 << 40).to_bytes(8, "little") + bytes(16))
    answer = protocol.answer(snapshot)
    assert len(answer) == 3 and answer[1] == snapshot.pixels and answer[2] == snapshot.counts
    assert "pixels" not in json.loads(answer[0])["data"]  # raw bytes never go through JSON
    back = protocol.read(answer, Snapshot)
    assert back == snapshot and back.pixels == snapshot.pixels
    assert back.count_at(0, 0) == 7
    assert back.count_at(0, 1) == 1 << 40  # beyond 32 bits: read from bytes, never a JS number


def test_a_failure_reads_as_its_one_line():
    with pytest.raises(ProtocolError, match="^unknown algorithm 'x'$"):
        protocol.read(protocol.failure("unknown\nalgorithm   'x'"), ExactStatus)


def test_an_answer_of_the_wrong_kind_or_version_is_refused():
    answer = protocol.answer(RiffleReport(3, [0.5], None, None, 0.1))
    with pytest.raises(ProtocolError, match="expected a snapshot"):
        protocol.read(answer, Snapshot)
    envelope = json.loads(answer[0])
    envelope["protocol"] = 0
    with pytest.raises(ProtocolError, match="protocol 0"):
        protocol.read([json.dumps(envelope)], RiffleReport)


def test_protocol_errors_are_library_errors():
    assert issubclass(ProtocolError, ShuffleLabError)
