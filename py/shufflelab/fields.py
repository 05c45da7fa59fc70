"""The share link's fields: one table (``FIELDS``) from which reading, writing, the form and the limits derive.

Each ``Field`` says its URL key, its form control, its kind and range, and how a bad value falls back to its
default with one ``Notice`` naming it. The text rules every seed and field shares are here too. ``link``
builds a deal and a view from these fields.

Portable core: runs unchanged on CPython, Pyodide and MicroPython.
"""


from . import catalog
from .cards import DECK_KINDS, MAX_JOKERS_PER_PACK, MAX_PACKS, DeckSpec
from .codelink import CodeLinkError, pack_code, unpack_code
from .deal import DEAL_STYLES, DEFAULT_STYLE
from .errors import ShuffleLabError, is_control, quoted
from .rng import STREAM_VERSION
from .urlquery import Undecodable

MAX_SEED_LENGTH = 256
MAX_TALLY_SEED_LENGTH = 64
MAX_PAGE_DECK = 1000  # the page draws every card; the CLI and library go to 1,000,000
MAX_PLAYERS = 52
DEFAULT_PLAYERS = 4
DEFAULT_CARDS_EACH = 5
VIEWS = ("deal", "lab", "play")  # new views go at the end: a link names its view by word
HEAT_VIEWS = ("observed", "exact", "difference")
LAB_MIN_N, LAB_MAX_N, LAB_DEFAULT_N = 2, 128, 52
MAX_WHOLE_NUMBER_DIGITS = 9
COMMITMENT_DIGITS = 64  # a SHA-256, in hexadecimal
HEX_DIGITS = "0123456789abcdef"
SHOWN_UNKNOWN_KEYS = 3
# parameters that links pick up from social apps and ad trackers: not ours, not worth a notice
TRACKING_KEYS = ("fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "twclid", "ttclid",
                 "igshid", "mc_cid", "mc_eid", "_ga", "_gl", "ref_src", "ref_url", "si", "spm")


class SeedError(ShuffleLabError):
    """A seed that is not 1 to 256 code points of text without control characters."""


class Notice:
    """One replaced value: which field (a URL key) and a sentence that quotes the value."""

    __slots__ = ("field", "text")

    def __init__(self, field: str, text: str) -> None:
        self.field = field
        self.text = text

    def __eq__(self, other) -> bool:
        return isinstance(other, Notice) and (self.field, self.text) == (other.field, other.text)

    def __repr__(self) -> str:
        return "Notice(%r, %r)" % (self.field, self.text)

    def __str__(self) -> str:
        return self.text


# --- text rules ---------------------------------------------------------------------------


def text_problem(text: str, max_length: int, allow_empty: bool = False):
    """Return why ``text`` is not a usable seed, or None: 1 to max_length code points, no controls, no surrogates."""
    if not text and not allow_empty:
        return "is empty"
    if len(text) > max_length:
        return "is longer than %d characters" % max_length
    for character in text:
        code = ord(character)
        if is_control(code):
            return "contains a control character (U+%04X)" % code
        if 0xD800 <= code <= 0xDFFF:
            return "contains an unpaired surrogate (U+%04X)" % code
    return None


def check_seed(text: str, what: str = "the seed") -> str:
    """Return ``text`` if it is a valid seed, else raise SeedError saying why (naming it ``what``)."""
    if not isinstance(text, str):
        raise SeedError("%s must be text, not %r" % (what, text))
    problem = text_problem(text, MAX_SEED_LENGTH)
    if problem:
        raise SeedError("%s %s %s" % (what, quoted(text), problem))
    return text


def whole_number(text: str):
    """Return the whole number ``text`` spells (ASCII digits, an optional leading '-', spaces around), or None."""
    digits = text.strip(" \t\n\r\f\v")
    negative = digits.startswith("-")
    if negative:
        digits = digits[1:]
    if not 1 <= len(digits) <= MAX_WHOLE_NUMBER_DIGITS or any(c not in "0123456789" for c in digits):
        return None
    return -int(digits) if negative else int(digits)


def commitment_text(text: str):
    """Return a commitment as 64 lower-case hex digits (spaces around and upper case allowed), or None."""
    digits = text.strip(" \t\n\r").lower()
    if len(digits) != COMMITMENT_DIGITS or any(c not in HEX_DIGITS for c in digits):
        return None
    return digits


# --- the field table ----------------------------------------------------------------------


class Field:
    """One URL parameter and form control: its key, words, kind, limits and when it applies."""

    __slots__ = ("key", "label", "kind", "part", "default", "low", "high", "choices", "control", "applies", "most")

    def __init__(self, key: str, label: str, kind: str, part: str, default=None, low=None, high=None,
                 choices=None, control=None, applies=None, most=None) -> None:
        self.key = key  # the URL parameter
        self.label = label  # how a notice names it
        self.kind = kind  # "version", "whole", "choice", "seed", "text", "commitment" or "code"
        self.part = part  # "deal" (the permanent contract) or "view"
        self.default = default
        self.low = low  # whole numbers: inclusive limits; texts: high is the maximum length
        self.high = high
        self.choices = choices  # a tuple, or a function returning one (the catalog can grow)
        self.control = control  # the form control's element id on the page, if it has one
        self.applies = applies  # applies(values read so far) -> bool; None: always
        self.most = most  # most(values read so far) -> (the real upper limit, why) or None; None: ``high`` is it

    def __repr__(self) -> str:
        return "Field(%r)" % self.key

    def options(self) -> tuple:
        """Return the allowed values of a choice field."""
        return self.choices() if callable(self.choices) else self.choices

    def applies_to(self, values: dict) -> bool:
        """True when this field means something for the values read before it."""
        return self.applies is None or self.applies(values)

    def read(self, raw, values: dict, fresh_seed, instead=None):
        """Return ``(value, notice or None)`` for a raw URL value (None: absent; an Undecodable: not UTF-8).

        A rejected value becomes ``instead`` when it is given (the form keeps the value shown), else the default.
        """
        if raw is None:
            return (fresh_seed() if self.kind == "seed" else self.default), None
        if isinstance(raw, Undecodable):
            return self._reject(instead, fresh_seed, "%s %s is not valid UTF-8 text" % (self.label, quoted(raw.written)))
        if self.kind == "version":
            return self._read_version(raw, values, fresh_seed)  # a version is never kept
        if self.kind == "whole":
            number = whole_number(raw)
            if number is not None and self.low <= number <= self.high:
                return number, None
            limit = self.range_words(values)
            if raw.strip() == "":
                why = "%s is blank: it takes a whole number from %s" % (self.label, limit)
            elif number is None:
                why = "%s %s is not a whole number from %s" % (self.label, quoted(raw), limit)
            else:
                why = "%s %s is outside %s" % (self.label, quoted(raw), limit)
            return self._reject(instead, fresh_seed, why)
        if self.kind == "choice":
            options = self.options()
            if raw not in options:
                listed = "is unknown" if len(options) > 6 else "is not one of " + ", ".join(options)
                return self._reject(instead, fresh_seed, "%s %s %s" % (self.label, quoted(raw), listed))
            return raw, None
        if self.kind == "seed" and raw == "":
            return fresh_seed(), None
        if self.kind == "code":
            try:
                return (unpack_code(raw) if raw else ""), None
            except CodeLinkError as error:
                return self._reject(instead, fresh_seed, "%s %s can't be read (%s)" % (self.label, quoted(raw, 20), error))
        if self.kind == "commitment":
            digits = commitment_text(raw) if raw.strip(" \t\n\r") else ""
            if digits is None:
                return self._reject(instead, fresh_seed, "%s %s is not %d hexadecimal digits (a SHA-256)" % (
                    self.label, quoted(raw), COMMITMENT_DIGITS))
            return digits, None
        problem = text_problem(raw, self.high, allow_empty=self.kind == "text")
        if problem:
            return self._reject(instead, fresh_seed, "%s %s %s" % (self.label, quoted(raw), problem))
        return raw, None

    def write(self, value) -> str:
        """Return a value as the link writes it (code packed, everything else as text)."""
        return pack_code(value) if self.kind == "code" else str(value)

    def _read_version(self, raw: str, values: dict, fresh_seed, instead=None):
        number = whole_number(raw)
        if number is not None and number > STREAM_VERSION:
            return STREAM_VERSION, Notice(self.key, (
                "This link was made by a newer version of Shuffle Lab (stream v%d); this version knows "
                "v%d, so the cards shown are not the ones the link was made with" % (number, STREAM_VERSION)))
        if number != STREAM_VERSION:
            return self._reject(instead, fresh_seed, "Stream version %s is not a version number" % quoted(raw))
        return number, None

    def range_words(self, values: dict) -> str:
        """Say a whole-number field's range as a notice does, '1 to 52', or, where what was read before it narrows it,
        the real one with why: '0 to 13 (for 4 players from 52 cards)'."""
        narrowed = self.most(values) if self.most is not None else None
        if narrowed is None or narrowed[0] >= self.high:
            return "%d to %d" % (self.low, self.high)
        return "%d to %d (%s)" % (self.low, max(self.low, narrowed[0]), narrowed[1])

    def _reject(self, instead, fresh_seed, why: str):
        if instead is not None:  # the form keeps the value shown
            if self.kind in ("seed", "text", "code"):  # user text: not repeated in the sentence
                return instead, Notice(self.key, "%s; keeping the %s shown" % (why, self.label.lower()))
            return instead, Notice(self.key, "%s; using %s" % (why, "none" if instead == "" else instead))
        value = fresh_seed() if self.kind == "seed" else self.default
        told = "a new seed" if self.kind == "seed" else ("none" if value == "" else str(value))
        return value, Notice(self.key, "%s; using %s" % (why, told))


def _has_param(algo_key: str, name: str):
    """Return applies(values): the algorithm the field ``algo_key`` names takes a parameter ``name``."""
    return lambda values: bool(values[algo_key]) and any(p.name == name for p in catalog.get(values[algo_key]).params)


def _param_fields(algo_key: str = "algo", prefix: str = "", part: str = "deal", label: str = "%s") -> list:
    """One field per parameter name in the catalog, in order of first appearance, for the algorithm ``algo_key`` names.

    The deal's algorithm has keys like ``passes``; the lab's compared one ``vs-passes``.
    """
    fields, seen = [], []
    for entry in catalog.entries():
        for param in entry.params:
            if param.name not in seen:
                seen.append(param.name)
                fields.append(Field(prefix + param.name, label % param.label, "whole", part, param.default,
                                    param.minimum, param.maximum, control=prefix + "param-" + param.name,
                                    applies=_has_param(algo_key, param.name)))
    return fields


def compared_ids() -> tuple:
    """Return what the lab may compare with: nothing (""), or any built-in algorithm (a user's shuffle is compared by
    running it)."""
    return ("",) + tuple(entry.id for entry in catalog.entries() if entry.builtin)


def deck_of(values: dict) -> DeckSpec:
    """Return the deck the fields read so far describe (a numbered deck of ``size``, or ``packs`` of a kind)."""
    if values["deck"] == "numbered":
        return DeckSpec(kind="numbered", size=values["size"])
    return DeckSpec(kind=values["deck"], packs=values["packs"], jokers=values["jokers"])


def _cards_each_most(values: dict):
    """Return (the most cards each player can get, why) for the deck and players read so far (None: not yet read)."""
    if "players" not in values or "deck" not in values:
        return None
    size = len(deck_of(values))
    players = values["players"]
    return size // players, "for %d player%s from %d cards" % (players, "" if players == 1 else "s", size)


def _numbered(values: dict) -> bool:
    return values["deck"] == "numbered"


def _playing_cards(values: dict) -> bool:
    return values["deck"] != "numbered"


# The order is the order of a link's query.
FIELDS = tuple(
    [Field("v", "Stream version", "version", "deal", STREAM_VERSION),
     Field("algo", "Algorithm", "choice", "deal", catalog.DEFAULT_ALGORITHM, choices=catalog.ids,
           control="algorithm")]
    + _param_fields()
    + [Field("seed", "Seed", "seed", "deal", None, 1, MAX_SEED_LENGTH, control="seed"),
       Field("deck", "Deck", "choice", "deal", "standard", choices=DECK_KINDS, control="deck-kind"),
       Field("packs", "Packs", "whole", "deal", 1, 1, MAX_PACKS, control="packs", applies=_playing_cards),
       Field("jokers", "Jokers a pack", "whole", "deal", 0, 0, MAX_JOKERS_PER_PACK, control="jokers",
             applies=_playing_cards),
       Field("size", "Items", "whole", "deal", 52, 1, MAX_PAGE_DECK, control="size", applies=_numbered),
       Field("players", "Players", "whole", "deal", DEFAULT_PLAYERS, 1, MAX_PLAYERS, control="players"),
       Field("cards", "Cards each", "whole", "deal", DEFAULT_CARDS_EACH, 0, MAX_PAGE_DECK, control="cards-each",
             most=_cards_each_most),
       Field("style", "Deal style", "choice", "deal", DEFAULT_STYLE, choices=DEAL_STYLES, control="deal-style"),
       # a sealed deal's player seed changes the cards, so it is part of the deal; "" is none
       Field("pseed", "Player seed", "text", "deal", "", 0, MAX_SEED_LENGTH, control="player-seed"),
       Field("view", "View", "choice", "view", VIEWS[0], choices=VIEWS),
       Field("n", "Lab cards", "whole", "view", LAB_DEFAULT_N, LAB_MIN_N, LAB_MAX_N, control="lab-n"),
       Field("heat", "Heat map view", "choice", "view", HEAT_VIEWS[0], choices=HEAT_VIEWS),
       Field("tseed", "Tally seed", "text", "view", "", 0, MAX_TALLY_SEED_LENGTH, control="tally-seed"),
       Field("commit", "Commitment", "commitment", "view", ""),
       Field("code", "Code", "code", "view", ""),
       Field("vs", "Compared algorithm", "choice", "view", "", choices=compared_ids, control="vs")]
    + _param_fields("vs", "vs-", "view", "%s (compared)")
)
FIELD_BY_KEY = {field.key: field for field in FIELDS}


def field(key: str) -> Field:
    """Return the field of a URL key."""
    return FIELD_BY_KEY[key]
