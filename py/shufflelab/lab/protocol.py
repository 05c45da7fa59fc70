"""The bias lab's worker protocol: typed messages, versioned, as JSON text plus raw bytes.

The page (MicroPython, main thread) and the lab's worker (Pyodide) exchange JSON text, so
nothing depends on how PyScript converts objects between interpreters, and raw bytes
for the two big arrays (heat-map pixels and counts), which reach the page as JavaScript
``Uint8Array``s that the page hands to the canvas without copying them into Python. A
request is a JSON object with ``"protocol": 3``; every answer is a list, its first item
an envelope and the rest the message's ``BLOBS`` in order:

    ['{"protocol": 3, "ok": true, "kind": "snapshot", "data": {...}}', pixels, counts]
    ['{"protocol": 3, "ok": false, "error": "one line for the user"}']

``answer(message)`` and ``failure(text)`` write answers in the worker; ``read(answer,
Kind)`` reads one on the page and returns the message, or raises ProtocolError with the
worker's one line (or a version mismatch). Portable core: the page imports it.
"""

import json

from ..errors import ShuffleLabError

# 2: ExactStatus.progress, exact_step in place of compute_exact, use_code, Snapshot.memory;
# 3: two tallies side by side (TallyConfig.slot, a slot for every call), ExactStatus.distance and
#    goes_on, Snapshot.drawn
# 4: ExactStatus.model, what an exact answer models where that depends on the deck size (c-rand's rand())
# 5: Snapshot.key, the heat map's key in words; RiffleReport.separation, kl, texts and meanings;
#    the Play tab's guessing game: GuessReport (guess_begin, guess_more) and BestPlay (best_play)
PROTOCOL_VERSION = 5
SLOTS = ("a", "b")  # the lab's main tally, and the one it compares with


class ProtocolError(ShuffleLabError):
    """An answer that is a failure, of the wrong kind, or from another protocol version."""


class Message:
    """A plain message: ``FIELDS`` in order, to and from a dict of JSON values."""

    KIND = ""
    FIELDS = ()
    BLOBS = ()  # fields sent as raw bytes after the envelope, not inside the JSON

    def __init__(self, *values, **named) -> None:
        for name, value in zip(self.FIELDS, values):
            setattr(self, name, value)
        for name in self.FIELDS[len(values):]:
            setattr(self, name, named.get(name))

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % (n, getattr(self, n)) for n in self.FIELDS))

    def to_dict(self) -> dict:
        """Return the message's JSON fields (BLOBS travel apart)."""
        return {name: getattr(self, name) for name in self.FIELDS if name not in self.BLOBS}

    @classmethod
    def from_dict(cls, data: dict) -> "Message":
        """Return the message a dict describes; a missing field is None."""
        return cls(**{name: data.get(name) for name in cls.FIELDS})


class TallyConfig(Message):
    """What to tally: algorithm id, its parameters as [[name, value], ...], deck size n, a tally seed or None, and the
    slot it goes in ("a", the main tally, when None)."""

    KIND = "config"
    FIELDS = ("algo", "params", "n", "seed", "slot")


class ExactStatus(Message):
    """Whether the exact card × position matrix exists (the matrix itself, once), why not, and what it cost or would cost.

    While a slow matrix is being computed, ``progress`` is the fraction done, ``seconds``
    the time spent so far and ``pending_seconds`` the time left at this machine's pace;
    ``goes_on`` says the page should go on computing it without asking (a walk of every
    path of a small deck) rather than offer to. ``distance`` is the exact total variation
    distance to uniform as ``[float, "p/q"]`` on small decks (None: ``distance_reason``).
    ``model`` names what the exact answers model where that depends on n (c-rand: "the real
    ANSI rand()" on 2^k cards up to 16, else "an ideal rand()'s answer…"); None elsewhere.
    """

    KIND = "exact"
    FIELDS = ("available", "matrix", "reason", "seconds", "pending_seconds", "progress", "goes_on", "distance",
              "distance_reason", "model")


class Snapshot(Message):
    """The tally so far, drawn for one heat-map view.

    ``pixels`` (bytes): the heat map as RGBA, one pixel per cell, row = card; ``counts``
    (bytes): the n × n counts row-major as little-endian unsigned 64-bit integers, read one
    cell at a time for the tooltip (``count_at``), never parsed whole on the page (and
    never as JavaScript numbers, which MicroPython's bridge truncates to 32 bits);
    ``legend``: [[score, text]]; ``summary``: the verdict, its sentence, the figures and
    the fixed-point bars; ``memory``: the worker's WebAssembly memory in bytes (None where
    it can't be read), which only grows, so a long run shows any leak; ``drawn``: the
    view the pixels show (observed where the asked-for view needs an exact matrix there is not);
    ``key``: [title, words], what a colour of the drawn view means and its scale.
    """

    KIND = "snapshot"
    FIELDS = ("n", "trials", "rate", "legend", "summary", "pixels", "counts", "memory", "drawn", "key")
    BLOBS = ("pixels", "counts")

    def count_at(self, card: int, position: int) -> int:
        """Return how many shuffles put ``card`` at ``position``."""
        start = 8 * (card * self.n + position)
        return int.from_bytes(bytes(self.counts[start + k] for k in range(8)), "little")


class CodeReady(Message):
    """The user's shuffle compiled in the worker and registered as the algorithm ``algo``."""

    KIND = "code"
    FIELDS = ("algo",)


class RiffleReport(Message):
    """Exact distances to uniform after 1..k riffles of n cards, and measured total variation for tiny decks.

    ``tv`` and ``separation`` are floats of the exact fractions, ``kl`` the Kullback–Leibler
    divergence in bits: the figures ``riffle-distances --json`` gives as tv_value,
    separation_value and kl_bits; ``texts``: [tv, separation, kl] per k, written as the command line
    prints them (``riffle_distance_texts``: the page's MicroPython formats floats its own way).
    ``meanings``: [[key, name, what it means for a bet]].
    """

    KIND = "riffle"
    FIELDS = ("n", "tv", "measured", "measured_trials", "seconds", "separation", "kl", "texts", "meanings")


class GuessReport(Message):
    """The guessing game's best expected score: ``report`` is ``guessing.guess_report``'s dict (the CLI's ``--json``)
    so far; ``done`` is False while a simulated figure still gains decks (ask ``guess_more``)."""

    KIND = "guess"
    FIELDS = ("report", "done")


class BestPlay(Message):
    """The best strategy on one dealt deck: its ``guesses`` (card ids, top first), how many of the first ``played``
    it calls ``right``, and a random deck's expected score on as many cards (``random_deck`` "p/q", and its value)."""

    KIND = "best"
    FIELDS = ("guesses", "right", "played", "random_deck", "random_deck_value")


def answer(message: Message) -> list:
    """Return a successful answer: the JSON envelope, then the message's blobs."""
    envelope = json.dumps({"protocol": PROTOCOL_VERSION, "ok": True, "kind": message.KIND, "data": message.to_dict()})
    return [envelope] + [getattr(message, name) for name in message.BLOBS]


def failure(text: str) -> list:
    """Return a failed answer: the JSON envelope with one line of text."""
    return [json.dumps({"protocol": PROTOCOL_VERSION, "ok": False, "error": " ".join(str(text).split())[:300]})]


def request(message: Message) -> str:
    """Return a request's JSON text (requests carry the version too)."""
    data = message.to_dict()
    data["protocol"] = PROTOCOL_VERSION
    return json.dumps(data)


def read_request(text: str, kind) -> Message:
    """Return the request a JSON text holds, or raise ProtocolError."""
    data = json.loads(text)
    if data.get("protocol") != PROTOCOL_VERSION:
        raise ProtocolError("the page speaks lab protocol %r, this worker %d: reload the page"
                            % (data.get("protocol"), PROTOCOL_VERSION))
    return kind.from_dict(data)


def read(answer, kind) -> Message:
    """Return the message of an answer (a list, or a JavaScript array on the page), or raise ProtocolError."""
    envelope = json.loads(answer[0])
    if envelope.get("protocol") != PROTOCOL_VERSION:
        raise ProtocolError("the lab's worker speaks protocol %r, this page %d: reload the page"
                            % (envelope.get("protocol"), PROTOCOL_VERSION))
    if not envelope.get("ok"):
        raise ProtocolError(envelope.get("error") or "the lab's worker failed")
    if envelope.get("kind") != kind.KIND:
        raise ProtocolError("expected a %s answer from the lab's worker, got %r" % (kind.KIND, envelope.get("kind")))
    message = kind.from_dict(envelope["data"])
    for index, name in enumerate(kind.BLOBS, 1):
        setattr(message, name, answer[index])
    return message
