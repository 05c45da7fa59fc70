"""Share links: one table of fields, from which reading, writing, the form and the limits derive.

A link holds two things, kept apart:

* ``DealSpec``: the permanent deal contract (stream version, algorithm and parameters,
  seed, deck, players, cards each, style, and the player seed of a sealed deal, if any).
  It is validated when made and hashable; a valid v1 link shows the same cards forever.
* ``View``: the page's view state (tab, the lab's deck size and heat-map view, the
  tally seed, the commitment a reveal link asks the page to check, the code of the
  lab's editor, which a link only shows, never runs, and the built-in algorithm the lab
  compares with, with its parameters). It may change meaning between versions; the deal
  never does.

``FIELDS`` describes every URL parameter and form control once. ``read_link`` never
raises: a missing, unknown, malformed or out-of-range value falls back to its default
with one ``Notice`` naming it. ``Link.to_query`` writes what ``read_link`` reads back.
``outcome_of`` turns a deal into cards: the CLI and the page both call it, which is why they
agree card for card.

Portable core: runs unchanged on CPython, Pyodide and MicroPython.
"""

from . import catalog
from .algorithms import last_step
from .cards import DeckError, DeckSpec
from .deal import DEFAULT_STYLE, DealError, check_deal, deal
from .errors import ShuffleLabError, quoted, sentence_start
from .fields import (  # noqa: F401 (the field table and its rules are re-exported: callers read them here)
    COMMITMENT_DIGITS,
    DEFAULT_CARDS_EACH,
    DEFAULT_PLAYERS,
    FIELD_BY_KEY,
    FIELDS,
    HEAT_VIEWS,
    HEX_DIGITS,
    LAB_DEFAULT_N,
    LAB_MAX_N,
    LAB_MIN_N,
    MAX_PAGE_DECK,
    MAX_PLAYERS,
    MAX_SEED_LENGTH,
    MAX_TALLY_SEED_LENGTH,
    MAX_WHOLE_NUMBER_DIGITS,
    SHOWN_UNKNOWN_KEYS,
    TRACKING_KEYS,
    VIEWS,
    Field,
    Notice,
    SeedError,
    check_seed,
    commitment_text,
    compared_ids,
    deck_of,
    field,
    text_problem,
    whole_number,
)
from .rng import STREAM_VERSION, new_seed, stream
from .urlquery import encode_query, parse_query

# --- the deal contract and the view ----------------------------------------------------------


class DealSpec:
    """A valid, hashable deal: everything that decides the cards (treat it as immutable).

    Making one checks every value and raises a ShuffleLabError naming the first bad one.
    ``params`` is every parameter of the algorithm as ``((name, value), ...)`` in the
    catalog's order (defaults filled in). Without a seed a fresh one is drawn (CPython only:
    the page always passes its own).
    """

    __slots__ = ("version", "algo", "params", "seed", "deck", "players", "cards_each", "style", "player_seed")

    def __init__(self, algo: str = catalog.DEFAULT_ALGORITHM, params=None, seed: str = None,
                 deck: DeckSpec = None, players: int = DEFAULT_PLAYERS, cards_each: int = DEFAULT_CARDS_EACH,
                 style: str = DEFAULT_STYLE, version: int = STREAM_VERSION, player_seed: str = None) -> None:
        if version != STREAM_VERSION:
            raise ShuffleLabError("unknown stream version %r; this build knows v%d" % (version, STREAM_VERSION))
        self.version = version
        self.algo = catalog.get(algo).id
        self.params = catalog.get(algo).param_items(dict(params or ()))
        self.seed = check_seed(new_seed() if seed is None else seed)
        self.deck = deck if deck is not None else DeckSpec()
        if not isinstance(self.deck, DeckSpec):
            raise DeckError("a deal needs a DeckSpec, not %r" % (self.deck,))
        for name, value in (("players", players), ("cards each", cards_each)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise DealError("%s must be a whole number, not %r" % (name, value))
        check_deal(len(self.deck), players, cards_each, style)
        self.players = players
        self.cards_each = cards_each
        self.style = style
        self.player_seed = None if player_seed is None else check_seed(player_seed, "the player seed")

    def _key(self) -> tuple:
        return (self.version, self.algo, self.params, self.seed, self.deck, self.players, self.cards_each, self.style,
                self.player_seed)

    def __eq__(self, other) -> bool:
        return isinstance(other, DealSpec) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return ("DealSpec(algo=%r, params=%r, seed=%r, deck=%r, players=%r, cards_each=%r, style=%r, player_seed=%r)"
                % self._key()[1:])

    @property
    def algorithm(self) -> catalog.Algorithm:
        """The catalog entry of ``algo``."""
        return catalog.get(self.algo)

    def resolved_params(self) -> dict:
        """Every parameter of the algorithm by name, defaults filled in."""
        return dict(self.params)

    def replace(self, **changes) -> "DealSpec":
        """Return a new, checked DealSpec with some fields changed (parameters kept only if they still apply)."""
        values = {"algo": self.algo, "params": self.params, "seed": self.seed, "deck": self.deck,
                  "players": self.players, "cards_each": self.cards_each, "style": self.style,
                  "version": self.version, "player_seed": self.player_seed}
        values.update(changes)
        known = [p.name for p in catalog.get(values["algo"]).params]
        values["params"] = [(k, v) for k, v in dict(values["params"] or ()).items() if k in known]
        return DealSpec(**values)


class View:
    """What the page shows besides the deal: the tab, and the bias lab's settings."""

    __slots__ = ("view", "lab_n", "heat", "tally_seed", "commitment", "code", "compare", "compare_params")

    def __init__(self, view: str = VIEWS[0], lab_n: int = LAB_DEFAULT_N, heat: str = HEAT_VIEWS[0],
                 tally_seed: str = "", commitment: str = "", code: str = "", compare: str = "",
                 compare_params=()) -> None:
        self.view = view
        self.lab_n = lab_n
        self.heat = heat
        self.tally_seed = tally_seed
        self.commitment = commitment  # "" or 64 lower-case hex digits: the page checks the deal against it
        self.code = code  # "" or the lab editor's code (Python source), shown on opening, never run by it
        self.compare = compare  # "" or a built-in algorithm id: the lab tallies it beside the main one
        # ((name, value), ...) for every parameter of ``compare``, in the catalog's order (defaults filled in)
        self.compare_params = catalog.get(compare).param_items(dict(compare_params)) if compare else ()

    def _key(self) -> tuple:
        return (self.view, self.lab_n, self.heat, self.tally_seed, self.commitment, self.code, self.compare,
                self.compare_params)

    def __eq__(self, other) -> bool:
        return isinstance(other, View) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return ("View(view=%r, lab_n=%r, heat=%r, tally_seed=%r, commitment=%r, code=%r, compare=%r, compare_params=%r)"
                % self._key())

    def replace(self, **changes) -> "View":
        """Return a copy with some fields changed."""
        values = {"view": self.view, "lab_n": self.lab_n, "heat": self.heat, "tally_seed": self.tally_seed,
                  "commitment": self.commitment, "code": self.code, "compare": self.compare,
                  "compare_params": self.compare_params}
        values.update(changes)
        if "compare" in changes and "compare_params" not in changes:
            values["compare_params"] = ()  # another algorithm: its own defaults
        return View(**values)


class Link:
    """A deal and a view: everything a share link carries.

    ``seed_withheld`` marks a sealed deal's public link: a commitment and the deal without its
    seed, which the dealer reveals only after the game. Its deal's seed is a stand-in that is
    never written (the link and the form leave it out) and deals nothing the page shows.
    """

    __slots__ = ("deal", "view", "seed_withheld")

    def __init__(self, deal_spec: DealSpec, view: View = None, seed_withheld: bool = False) -> None:
        self.deal = deal_spec
        self.view = view if view is not None else View()
        if seed_withheld and not self.view.commitment:
            raise ShuffleLabError("a link without its seed is a sealed deal's: it needs the commitment")
        self.seed_withheld = seed_withheld

    def __eq__(self, other) -> bool:
        return isinstance(other, Link) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        withheld = ", seed_withheld=True" if self.seed_withheld else ""
        return "Link(%r, %r%s)" % (self.deal, self.view, withheld)

    def _key(self) -> tuple:
        return self.deal, self.view, self.seed_withheld

    def values(self) -> dict:
        """Return every field's value by URL key (fields that do not apply are absent, and a withheld seed too)."""
        spec, view = self.deal, self.view
        deck = spec.deck
        values = {"v": spec.version, "algo": spec.algo, "seed": spec.seed, "deck": deck.kind,
                  "players": spec.players, "cards": spec.cards_each, "style": spec.style,
                  "view": view.view, "n": view.lab_n, "heat": view.heat, "tseed": view.tally_seed,
                  "commit": view.commitment, "code": view.code, "vs": view.compare}
        if self.seed_withheld:
            del values["seed"]
        for name, value in view.compare_params:
            values["vs-" + name] = value
        if spec.player_seed is not None:
            values["pseed"] = spec.player_seed
        values.update(spec.params)
        if deck.kind == "numbered":
            values["size"] = deck.size
        else:
            values["packs"] = deck.packs
            values["jokers"] = deck.jokers
        return values

    def to_query(self) -> str:
        """Return the URL query (without '?') that ``read_link`` reads back as this link.

        Every deal field is written, so the link keeps its meaning if a default ever
        changes (the player seed only when there is one: no v1 link had it); view fields
        only when they differ from their defaults (shorter links).
        """
        values = self.values()
        pairs = []
        for f in FIELDS:
            if f.key in values and f.applies_to(values) and (f.part == "deal" or values[f.key] != f.default):
                pairs.append((f.key, f.write(values[f.key])))
        return encode_query(pairs)

    def replace_deal(self, **changes) -> "Link":
        """Return a link with the deal changed (checked), the view kept (and the seed withheld, unless it is given)."""
        return Link(self.deal.replace(**changes), self.view, self.seed_withheld and "seed" not in changes)

    def replace_view(self, **changes) -> "Link":
        """Return a link with the view changed, the deal kept (a withheld seed stays withheld: that needs a commitment)."""
        return Link(self.deal, self.view.replace(**changes), self.seed_withheld)


# --- reading ----------------------------------------------------------------------------------


def read_link(query: str, fresh_seed=new_seed, strict_deal: bool = False):
    """Return ``(Link, notices)`` for a URL query; never raises (but see ``strict_deal``).

    An impossible deal (more cards than the deck) becomes "deal no cards" with a notice,
    or, with ``strict_deal`` (a form the user is editing), raises DealError so nothing changes.
    """
    raw = {}
    unknown = []
    for key, value in parse_query(query):
        if key in FIELD_BY_KEY:
            if key not in raw:  # the first of repeated keys wins
                raw[key] = value
        elif not _is_tracking(key) and key not in unknown:
            unknown.append(key)
    return read_values(raw, fresh_seed, strict_deal, unknown)


def read_values(raw: dict, fresh_seed=new_seed, strict_deal: bool = False, unknown=(), kept=None):
    """Return ``(Link, notices)`` from raw texts by URL key (the form's values, or a query's).

    A raw value is a string, or an Undecodable for text that was not valid UTF-8; absent keys take
    their defaults. ``kept`` (the values of the link shown, by key) replaces a rejected value
    instead of its default: a bad value typed into the form leaves the link's last valid one.
    """
    values = {}
    notices = []
    kept = kept or {}
    for f in FIELDS:
        if not f.applies_to(values):
            continue
        value, notice = f.read(raw.get(f.key), values, fresh_seed, kept.get(f.key))
        values[f.key] = value
        if notice is not None:
            notices.append(notice)
    try:
        check_deal(len(deck_of(values)), values["players"], values["cards"], values["style"])
    except DealError as error:
        if strict_deal:
            raise
        notices.append(Notice("cards", "%s; dealing no cards instead" % sentence_start(str(error))))
        values["cards"] = 0
    if unknown:
        notices.append(_unknown_notice(unknown))
    # a commitment with no seed at all is a sealed deal's public link, not a request for a fresh deal
    return _link_from(values, raw.get("seed") is None and bool(values["commit"])), notices


def _link_from(values: dict, seed_withheld: bool) -> Link:
    entry = catalog.get(values["algo"])
    params = [(p.name, values[p.name]) for p in entry.params]
    spec = DealSpec(values["algo"], params, values["seed"], deck_of(values), values["players"],
                    values["cards"], values["style"], values["v"], values["pseed"] or None)
    compared = [(p.name, values["vs-" + p.name]) for p in catalog.get(values["vs"]).params] if values["vs"] else ()
    return Link(spec, View(values["view"], values["n"], values["heat"], values["tseed"], values["commit"],
                           values["code"], values["vs"], compared), seed_withheld)


def _is_tracking(key: str) -> bool:
    return key.startswith("utm_") or key in TRACKING_KEYS


def _unknown_notice(keys: list) -> Notice:
    shown = ", ".join(quoted(k, 20) for k in keys[:SHOWN_UNKNOWN_KEYS])
    more = " and %d more" % (len(keys) - SHOWN_UNKNOWN_KEYS) if len(keys) > SHOWN_UNKNOWN_KEYS else ""
    noun = "parameter" if len(keys) == 1 else "parameters"
    return Notice("", "Ignored %d unknown %s: %s%s" % (len(keys), noun, shown, more))


# --- a deal's outcome -------------------------------------------------------------------------


class Outcome:
    """What a deal produces: the shuffled deck and the hands dealt from its top."""

    __slots__ = ("order", "deal")

    def __init__(self, order: list, dealt) -> None:
        self.order = order
        self.deal = dealt

    def __eq__(self, other) -> bool:
        return isinstance(other, Outcome) and (self.order, self.deal) == (other.order, other.deal)


def outcome_of(spec: DealSpec) -> Outcome:
    """Shuffle the deal's deck with its seeded stream (the player seed mixed in, if any), then deal from the top."""
    return last_step(outcome_steps(spec))


def outcome_steps(spec: DealSpec):
    """Yield None at each pause of a long shuffle, then the Outcome ``outcome_of`` returns (the page steps through it)."""
    rng = stream(spec.seed, spec.version, spec.player_seed)
    for order in spec.algorithm.shuffle_steps(spec.deck.ids(), rng, dict(spec.params)):
        if order is None:
            yield None
    # the pick deal draws from the same stream, right after the shuffle
    yield Outcome(order, deal(order, spec.players, spec.cards_each, spec.style, rng))


def outcome_data(spec: DealSpec, outcome: Outcome) -> dict:
    """Return plain data for JSON: the contract of ``shufflelab deal --json``."""
    deck = spec.deck
    return {
        "stream": spec.version,
        "algo": spec.algo,
        "params": spec.resolved_params(),
        "seed": spec.seed,
        "deck": deck.as_dict(),
        "order": outcome.order,
        "labels": deck.labels(outcome.order),
        "codes": deck.codes(outcome.order),
        "players": spec.players,
        "cards_each": spec.cards_each,
        "style": spec.style,
        "hands": outcome.deal.hands,
        "hand_labels": [deck.labels(hand) for hand in outcome.deal.hands],
        "stock": outcome.deal.stock,
        "query": link_query(spec),
    }


def link_query(spec: DealSpec):
    """Return the page's URL query for a deal, or None when the page's limits can't carry it (e.g. 100,000 cards)."""
    query = Link(spec).to_query()
    back, notices = read_link(query, lambda: "")
    return query if not notices and back.deal == spec else None
