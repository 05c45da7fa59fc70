"""The page's whole state as one plain object that round-trips through a URL query.

``State.from_query`` never raises: a missing, unknown, malformed or out-of-range
parameter falls back to its default and adds one notice naming it. ``play(state)``
turns a state into the shuffled deck and the deal: the CLI and the page both call it,
which is why they agree card for card.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable
from urllib.parse import parse_qsl, urlencode

from . import algorithms
from .cards import DECK_KINDS, MAX_JOKERS_PER_PACK, MAX_PACKS, DeckSpec
from .deal import DEAL_STYLES, DEFAULT_STYLE, Deal, DealError, check_deal, deal
from .rng import STREAM_VERSION, new_seed, stream

MAX_SEED_LENGTH = 256
MAX_PAGE_DECK = 1000  # the page draws every card; the CLI and library go to 1,000,000
MAX_PLAYERS = 52
MAX_CARDS_EACH = MAX_PAGE_DECK
DEFAULT_PLAYERS = 4
DEFAULT_CARDS_EACH = 5
VIEWS = ("deal", "lab")
HEAT_VIEWS = ("observed", "exact", "difference")
LAB_MIN_N, LAB_MAX_N, LAB_DEFAULT_N = 2, 128, 52
MAX_TALLY_SEED_LENGTH = 64


@dataclass(frozen=True)
class State:
    """Everything a share link carries; every field is already valid."""

    algo: str = algorithms.DEFAULT_ALGORITHM
    params: dict = field(default_factory=dict)
    seed: str = ""
    deck: DeckSpec = field(default_factory=DeckSpec)
    players: int = DEFAULT_PLAYERS
    cards_each: int = DEFAULT_CARDS_EACH
    style: str = DEFAULT_STYLE
    version: int = STREAM_VERSION
    view: str = VIEWS[0]
    lab_n: int = LAB_DEFAULT_N
    heat: str = HEAT_VIEWS[0]
    tally_seed: str = ""  # empty: the bias tally draws fresh randomness

    @property
    def algorithm(self) -> algorithms.Algorithm:
        """The registry entry of ``algo``."""
        return algorithms.get(self.algo)

    def resolved_params(self) -> dict:
        """Every parameter of the algorithm, defaults filled in."""
        return self.algorithm.resolve_params(self.params)

    def to_query(self) -> str:
        """Return the URL query (without '?') that ``from_query`` reads back as this state."""
        pairs = [("v", str(self.version)), ("algo", self.algo)]
        pairs += [(name, str(value)) for name, value in self.resolved_params().items()]
        pairs += [("seed", self.seed)]
        pairs += [(key if key != "kind" else "deck", str(value)) for key, value in self.deck.as_dict().items()]
        pairs += [("players", str(self.players)), ("cards", str(self.cards_each)), ("style", self.style)]
        # the lab's fields only when they differ from their defaults: shorter deal links
        lab = (("view", self.view, VIEWS[0]), ("n", str(self.lab_n), str(LAB_DEFAULT_N)),
               ("heat", self.heat, HEAT_VIEWS[0]), ("tseed", self.tally_seed, ""))
        pairs += [(key, value) for key, value, default in lab if value != default]
        return urlencode(pairs)

    @classmethod
    def from_query(
        cls, query: str, fresh_seed: Callable[[], str] = new_seed, strict_deal: bool = False
    ) -> tuple["State", list[str]]:
        """Return the state a query describes and one notice per parameter that was replaced.

        An impossible deal becomes "deal no cards" with a notice, or, with ``strict_deal``
        (a form the user is editing), raises DealError so that nothing changes.
        """
        reader = _QueryReader(query)
        version = reader.integer("v", STREAM_VERSION, STREAM_VERSION, STREAM_VERSION)
        algo = reader.choice("algo", algorithms.DEFAULT_ALGORITHM, tuple(algorithms.REGISTRY))
        params = {
            p.name: reader.integer(p.name, p.default, p.minimum, p.maximum)
            for p in algorithms.get(algo).params
        }
        seed = reader.seed(fresh_seed)
        deck = reader.deck()
        players = reader.integer("players", DEFAULT_PLAYERS, 1, MAX_PLAYERS)
        cards_each = reader.integer("cards", DEFAULT_CARDS_EACH, 0, MAX_CARDS_EACH)
        style = reader.choice("style", DEFAULT_STYLE, DEAL_STYLES)
        try:
            check_deal(len(deck), players, cards_each, style)
        except DealError as error:
            if strict_deal:
                raise
            reader.notices.append(f"players/cards: {error}; dealing no cards instead")
            cards_each = 0
        view = reader.choice("view", VIEWS[0], VIEWS)
        lab_n = reader.integer("n", LAB_DEFAULT_N, LAB_MIN_N, LAB_MAX_N)
        heat = reader.choice("heat", HEAT_VIEWS[0], HEAT_VIEWS)
        tally_seed = reader.tally_seed()
        reader.note_unknown()
        state = cls(algo, params, seed, deck, players, cards_each, style, version,
                    view, lab_n, heat, tally_seed)
        return state, reader.notices


@dataclass(frozen=True)
class Outcome:
    """What a state produces: the shuffled deck and the deal made from its top."""

    order: list[int]
    deal: Deal


def play(state: State) -> Outcome:
    """Shuffle the state's deck with its seeded stream, then deal from the top."""
    rng = stream(state.seed, state.version)
    order = state.algorithm.shuffled(state.deck.ids(), rng, state.params)
    # the pick deal draws from the same stream, right after the shuffle
    return Outcome(order, deal(order, state.players, state.cards_each, state.style, rng))


def valid_tally_seed(text: str) -> bool:
    """True for a usable tally seed: printable text of at most MAX_TALLY_SEED_LENGTH characters."""
    return len(text) <= MAX_TALLY_SEED_LENGTH and text.isprintable()


def with_changes(state: State, **changes) -> State:
    """Return a copy of ``state`` with fields replaced (parameters kept only if they still apply)."""
    new = replace(state, **changes)
    known = {p.name for p in new.algorithm.params}
    return replace(new, params={k: v for k, v in new.params.items() if k in known})


def outcome_data(state: State, outcome: Outcome) -> dict:
    """Return plain data for JSON: the contract of ``shufflelab deal --json``."""
    deck = state.deck
    return {
        "stream": state.version,
        "algo": state.algo,
        "params": state.resolved_params(),
        "seed": state.seed,
        "deck": state.deck.as_dict(),
        "order": outcome.order,
        "labels": deck.labels(outcome.order),
        "codes": deck.codes(outcome.order),
        "players": state.players,
        "cards_each": state.cards_each,
        "style": state.style,
        "hands": outcome.deal.hands,
        "hand_labels": [deck.labels(hand) for hand in outcome.deal.hands],
        "stock": outcome.deal.stock,
        "query": state.to_query(),
    }


# parameters of other algorithms or deck kinds are ignored quietly: switching keeps links tidy
KNOWN_KEYS = {"v", "algo", "seed", "deck", "packs", "jokers", "size", "players", "cards", "style",
              "view", "n", "heat", "tseed"} | {
    p.name for a in algorithms.ALGORITHMS for p in a.params
}


class _QueryReader:
    """Reads a query one parameter at a time, collecting a notice for each bad one."""

    def __init__(self, query: str) -> None:
        self.values: dict[str, str] = {}
        for key, value in parse_qsl(query.lstrip("?"), keep_blank_values=True):
            self.values.setdefault(key, value)  # the first of repeated keys wins
        self.read: set[str] = set()
        self.notices: list[str] = []

    def raw(self, key: str) -> str | None:
        self.read.add(key)
        return self.values.get(key)

    def reject(self, key: str, why: str, default: object) -> None:
        self.notices.append(f"{key}: {why}; using {default}")

    def integer(self, key: str, default: int, low: int, high: int) -> int:
        text = self.raw(key)
        if text is None:
            return default
        if not (text.isascii() and text.strip().lstrip("-").isdigit()) or len(text) > 9:
            self.reject(key, f"{_shown(text)} is not a whole number from {low} to {high}", default)
            return default
        value = int(text)
        if not low <= value <= high:
            self.reject(key, f"{_shown(text)} is outside {low} to {high}", default)
            return default
        return value

    def choice(self, key: str, default: str, options: tuple[str, ...]) -> str:
        text = self.raw(key)
        if text is None:
            return default
        if text not in options:
            self.reject(key, f"unknown value {_shown(text)}", default)
            return default
        return text

    def seed(self, fresh_seed: Callable[[], str]) -> str:
        text = self.raw("seed")
        if text is None or text == "":
            return fresh_seed()
        if len(text) > MAX_SEED_LENGTH or not text.isprintable():
            seed = fresh_seed()
            self.reject("seed", f"must be 1 to {MAX_SEED_LENGTH} printable characters", "a new seed")
            return seed
        return text

    def tally_seed(self) -> str:
        text = self.raw("tseed")
        if text is None:
            return ""
        if not valid_tally_seed(text):
            self.reject("tseed", f"must be up to {MAX_TALLY_SEED_LENGTH} printable characters", "no seed")
            return ""
        return text

    def deck(self) -> DeckSpec:
        kind = self.choice("deck", "standard", DECK_KINDS)
        if kind == "numbered":
            return DeckSpec(kind="numbered", size=self.integer("size", 52, 1, MAX_PAGE_DECK))
        packs = self.integer("packs", 1, 1, MAX_PACKS)
        jokers = self.integer("jokers", 0, 0, MAX_JOKERS_PER_PACK)
        return DeckSpec(kind=kind, packs=packs, jokers=jokers)

    def note_unknown(self) -> None:
        for key in self.values:
            if key not in self.read and key not in KNOWN_KEYS:
                self.notices.append(f"{_shown(key)}: unknown parameter; ignored")


def _shown(text: str, limit: int = 40) -> str:
    """Return ``text`` quoted and shortened for a one-line notice (never markup: callers set textContent)."""
    short = text if len(text) <= limit else text[: limit - 1] + "…"
    return repr(short)
