"""Sealed deals: commit to a deal before it is dealt, reveal its seed after, and let anyone check.

The dealer publishes a commitment, SHA-256 of the deal written in one canonical byte
format (``commitment_bytes``: the scheme, the stream version, the algorithm and its
parameters, the deck, the deal, whether a player seed will be mixed in, and the seed).
After the game the dealer reveals the seed; ``verify`` checks that the revealed deal
hashes to the commitment and returns its cards. The fresh 256-bit seed is what keeps the
commitment hiding, so no separate nonce is needed; a guessable seed can be found from the
commitment alone (``seal_seed_problem`` says when a seed is too short to trust).

A player seed, given by the player after seeing the commitment, is mixed into the stream's
key (``mixed_key``) so that the dealer, already bound to their seed, cannot pick one that
suits them. It is deliberately not part of the commitment: it does not exist yet when the
commitment is made, and if it did, the dealer could try seeds against it before committing.
The commitment records only whether one will be mixed in. Without a player seed a sealed
deal is exactly the plain v1 deal of its seed (``link.outcome_of``), so no link changes.

docs/reference/seal-v1.md specifies the format byte for byte.

Portable core: runs unchanged on CPython, Pyodide and MicroPython (hashlib.sha256 only;
no hexdigest, which MicroPython lacks).
"""

import hashlib

from . import rng
from .cards import DeckSpec
from .catalog import CUSTOM_ID
from .errors import ShuffleLabError
from .link import (
    COMMITMENT_DIGITS,
    HEX_DIGITS,
    MAX_SEED_LENGTH,
    DealSpec,
    Link,
    Outcome,
    View,
    commitment_text,
    outcome_of,
    quoted,
    read_link,
    text_problem,
)
from .urlquery import url_query

SCHEME = "shufflelab-seal-v1"
FRESH_SEED_LENGTH = 43  # characters of a fresh 256-bit seed (rng.new_seed)
_YES, _NO = "yes", "no"


class SealError(ShuffleLabError):
    """A commitment, player seed or seal preimage that cannot be used; the message says why in one line."""


class SealMismatch(SealError):
    """A revealed deal that does not hash to the commitment it was sealed with."""


# --- the commitment -------------------------------------------------------------------------


def commitment_bytes(spec: DealSpec, with_player_seed=None) -> bytes:
    """Return the preimage of a deal's commitment: UTF-8 text, one "key=value\\n" line per field, in a fixed order.

    ``with_player_seed`` None means "if the deal has a player seed"; the player seed's text is never committed.

    The lines: the scheme ``shufflelab-seal-v1``; ``stream``; ``algo``; one
    ``param.NAME=VALUE`` per parameter of the algorithm in the catalog's order; ``deck``;
    ``packs`` and ``jokers`` (playing cards) or ``size`` (numbered); ``players``; ``cards``;
    ``style``; ``player-seed`` (``yes`` or ``no``); ``seed``. No value holds a line break
    (seeds have no control characters), so the text reads back one way only (``read_preimage``).
    """
    check_sealable(spec.algo)
    if with_player_seed is None:
        with_player_seed = spec.player_seed is not None
    deck = spec.deck
    lines = [SCHEME, _line("stream", spec.version), _line("algo", spec.algo)]
    for name, value in spec.params:
        if "=" in name:
            raise SealError("parameter name %s contains '='" % quoted(name))
        lines.append(_line("param." + name, value))
    lines.append(_line("deck", deck.kind))
    if deck.kind == "numbered":
        lines.append(_line("size", deck.size))
    else:
        lines.append(_line("packs", deck.packs))
        lines.append(_line("jokers", deck.jokers))
    lines.append(_line("players", spec.players))
    lines.append(_line("cards", spec.cards_each))
    lines.append(_line("style", spec.style))
    lines.append(_line("player-seed", _YES if with_player_seed else _NO))
    lines.append(_line("seed", spec.seed))
    return ("\n".join(lines) + "\n").encode("utf-8")


def check_sealable(algo: str) -> str:
    """Return ``algo`` if a deal shuffled with it can be sealed, else raise SealError saying why in one line."""
    # The preimage names the algorithm by id only: a user's shuffle's id says nothing of its
    # code, so its deal could not be re-derived from the reveal (hashing the code would be a v2).
    if algo == CUSTOM_ID:
        raise SealError("a custom shuffle cannot be sealed: the commitment would not cover its code, "
                        "so no one could re-derive the deal from the reveal")
    return algo


def _line(key: str, value) -> str:
    """Return "key=value" with a whole number in decimal; refuse a value that could break the format."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise SealError("%s must be text or a whole number, not %r" % (key, value))
    text = value if isinstance(value, str) else "%d" % value
    for character in key + text:
        code = ord(character)
        if code < 0x20 or 0x7F <= code < 0xA0:
            raise SealError("%s %s contains a control character (U+%04X)" % (key, quoted(text), code))
    return key + "=" + text


def commitment(spec: DealSpec, with_player_seed=None) -> str:
    """Return the deal's commitment: SHA-256 of ``commitment_bytes``, as 64 lower-case hex digits."""
    return _hex(hashlib.sha256(commitment_bytes(spec, with_player_seed)).digest())


def _hex(raw: bytes) -> str:
    return "".join(HEX_DIGITS[b >> 4] + HEX_DIGITS[b & 15] for b in raw)


def check_commitment(text: str) -> str:
    """Return a commitment as 64 lower-case hex digits (spaces around and upper case allowed), else raise SealError."""
    digits = commitment_text(text)
    if digits is None:
        raise SealError("a commitment is %d hexadecimal digits (a SHA-256), not %s" % (COMMITMENT_DIGITS, quoted(text, 70)))
    return digits


def matches(commitment_hex: str, spec: DealSpec, with_player_seed=None) -> bool:
    """True when the deal hashes to the commitment; a malformed commitment raises SealError."""
    return commitment(spec, with_player_seed) == check_commitment(commitment_hex)


# --- the player seed and the mixed key ---------------------------------------------------------


def check_player_seed(text: str) -> str:
    """Return ``text`` if it is a usable player seed (as a seed: 1 to 256 characters, no controls), else raise SealError."""
    if not isinstance(text, str):
        raise SealError("the player seed must be text, not %r" % (text,))
    problem = text_problem(text, MAX_SEED_LENGTH)
    if problem:
        raise SealError("the player seed %s %s" % (quoted(text), problem))
    return text


def mixed_key(dealer_seed: str, player_seed: str) -> bytes:
    """Return the stream key of a deal with a player seed (``rng.mixed_key``), the player seed checked first."""
    return rng.mixed_key(dealer_seed, check_player_seed(player_seed))


def play_sealed(spec: DealSpec, player_seed=None) -> Outcome:
    """Shuffle and deal a sealed deal: ``link.outcome_of`` of the deal with ``player_seed`` mixed in (if given)."""
    if player_seed is not None:
        spec = spec.replace(player_seed=check_player_seed(player_seed))
    return outcome_of(spec)


# --- the two links: public before the game, reveal after it ---------------------------------------


def public_link(current: Link) -> Link:
    """Return the link to publish before the game: the deal's commitment and its public fields, never its seed.

    It carries only the deal and ``commit=`` (no tab, no lab settings); opened, it says the deal
    is sealed and shows no cards. A public link is its own public link.
    """
    if current.seed_withheld:
        return Link(current.deal, View(commitment=current.view.commitment), True)
    return Link(current.deal, View(commitment=commitment(current.deal)), True)


def reveal_link(current: Link):
    """Return the link to share after the game: the deal with its seed and its commitment (None: the seed is withheld)."""
    if current.seed_withheld:
        return None
    return current.replace_view(commitment=commitment(current.deal))


def is_sealed(current: Link) -> bool:
    """True when the link is a sealed deal's (a commitment, or a player seed): its seed must not leave the page."""
    return bool(current.view.commitment) or current.deal.player_seed is not None


# --- the reveal ---------------------------------------------------------------------------------


def verify(commitment_hex: str, spec: DealSpec, player_seed=None) -> Outcome:
    """Return the revealed deal's cards if it matches the commitment, else raise SealMismatch saying so.

    ``spec`` carries the revealed seed, and the player seed if the deal was sealed with one
    (or give ``player_seed``). A malformed commitment or player seed raises SealError.
    """
    wanted = check_commitment(commitment_hex)
    if player_seed is not None:
        spec = spec.replace(player_seed=check_player_seed(player_seed))
    got = commitment(spec)
    if got != wanted:
        raise SealMismatch("the revealed deal seals to %s, not to the commitment %s" % (got, wanted))
    return outcome_of(spec)


def read_reveal_link(url: str):
    """Return (the link's commitment, "" if it has none; the revealed deal) from a reveal link, or raise SealError.

    A reveal link is the page's share link of the deal with its seed and ``commit=`` (and
    ``pseed=``). A link the page would correct is refused, not corrected: the corrected deal
    is not the one that was sealed. So is a link without a seed, for which the page would
    deal a fresh one, which proves nothing.
    """
    replaced = []
    link, notices = read_link(url_query(url.strip()), lambda: replaced.append(True) or "placeholder, never checked")
    if notices:
        # the page's own notice: it quotes a value that is not UTF-8 as the URL wrote it ('ab%FF')
        raise SealError("the link cannot be checked as it is: %s" % notices[0])
    if replaced:
        raise SealError("the link %s carries no seed=; a reveal link has the revealed seed" % quoted(url, 70))
    return link.view.commitment, link.deal


def seal_seed_problem(seed: str):
    """Return why a seed is too weak to seal a deal with, or None.

    The commitment hides the cards only as well as the seed resists guessing: anyone can
    hash candidate seeds with the public deal and compare. A fresh seed has 256 bits in 43
    characters; a shorter one cannot have as many, so it is refused unless the dealer insists.
    """
    if len(seed) < FRESH_SEED_LENGTH:
        return "is shorter than %d characters (a fresh 256-bit seed), so it could be guessed from the commitment" % (
            FRESH_SEED_LENGTH)
    return None


# --- reading a preimage back (it is unambiguous) ---------------------------------------------------


def read_preimage(data: bytes):
    """Return ``(DealSpec, with_player_seed)`` from the bytes ``commitment_bytes`` wrote, or raise a ShuffleLabError.

    Only the canonical bytes are accepted: what is read is written again and must give the
    same bytes, so every deal has exactly one preimage and every preimage one deal.
    """
    try:
        text = bytes(data).decode("utf-8")
    except Exception:
        raise SealError("a seal preimage is UTF-8 text") from None
    if not text.endswith("\n"):
        raise SealError("a seal preimage ends with a line break")
    lines = text[:-1].split("\n")
    if lines[0] != SCHEME:
        raise SealError("a seal preimage starts with the line %s, not %s" % (SCHEME, quoted(lines[0])))
    pairs = []
    for line in lines[1:]:
        cut = line.find("=")
        if cut < 1:
            raise SealError("the line %s is not key=value" % quoted(line))
        pairs.append((line[:cut], line[cut + 1:]))
    params = [(key[6:], _number(key, value)) for key, value in pairs if key.startswith("param.")]
    kind = _value(pairs, "deck")
    if kind == "numbered":
        deck = DeckSpec(kind=kind, size=_number("size", _value(pairs, "size")))
    else:
        deck = DeckSpec(kind=kind, packs=_number("packs", _value(pairs, "packs")),
                        jokers=_number("jokers", _value(pairs, "jokers")))
    flag = _value(pairs, "player-seed")
    if flag not in (_YES, _NO):
        raise SealError("player-seed is yes or no, not %s" % quoted(flag))
    spec = DealSpec(_value(pairs, "algo"), params, _value(pairs, "seed"), deck, _number("players", _value(pairs, "players")),
                    _number("cards", _value(pairs, "cards")), _value(pairs, "style"), _number("stream", _value(pairs, "stream")))
    with_player_seed = flag == _YES
    if commitment_bytes(spec, with_player_seed) != bytes(data):
        raise SealError("not the canonical preimage of the deal it describes (order, spelling or extra lines)")
    return spec, with_player_seed


def _value(pairs: list, key: str) -> str:
    for name, value in pairs:
        if name == key:
            return value
    raise SealError("a seal preimage needs a %s line" % key)


def _number(key: str, text: str) -> int:
    if not text or any(c not in "0123456789" for c in text):
        raise SealError("%s is a whole number, not %s" % (key, quoted(text)))
    return int(text)
