"""Dealing hands from the top of a deck: round-robin, in blocks, or by picking at random.

Portable core: runs unchanged on CPython, Pyodide and MicroPython.
"""

from .errors import ShuffleLabError

DEAL_STYLES = ("round-robin", "blocks", "pick")
DEFAULT_STYLE = "round-robin"


class DealError(ShuffleLabError):
    """A deal that cannot be made; the message names the numbers."""


class Deal:
    """Hands (player 1 first) and the stock left over, in deck order; together a partition."""

    __slots__ = ("hands", "stock")

    def __init__(self, hands: list, stock: list) -> None:
        self.hands = hands
        self.stock = stock

    def __eq__(self, other) -> bool:
        return isinstance(other, Deal) and (self.hands, self.stock) == (other.hands, other.stock)

    def __repr__(self) -> str:
        return "Deal(hands=%r, stock=%r)" % (self.hands, self.stock)


def check_deal(deck_size: int, players: int, cards_each: int, style: str = DEFAULT_STYLE) -> None:
    """Raise DealError, naming the numbers, unless the deal is possible."""
    if style not in DEAL_STYLES:
        raise DealError("unknown deal style %r; choose one of %s" % (style, ", ".join(DEAL_STYLES)))
    if players < 1:
        raise DealError("need at least 1 player, not %d" % players)
    if cards_each < 0:
        raise DealError("cards each must be 0 or more, not %d" % cards_each)
    if players * cards_each > deck_size:
        raise DealError("cannot deal %d players × %d cards = %d cards from a %d-card deck"
                        % (players, cards_each, players * cards_each, deck_size))


def deal(order, players: int, cards_each: int, style: str = DEFAULT_STYLE, rng=None) -> Deal:
    """Return ``players`` hands of ``cards_each`` cards and the stock; ``order`` is untouched."""
    check_deal(len(order), players, cards_each, style)
    dealt = players * cards_each
    if style == "round-robin":
        # one card at a time around the table, as a dealer does
        hands = [list(order[p:dealt:players]) for p in range(players)]
        return Deal(hands, list(order[dealt:]))
    if style == "blocks":
        hands = [list(order[p * cards_each : (p + 1) * cards_each]) for p in range(players)]
        return Deal(hands, list(order[dealt:]))
    if rng is None:
        raise DealError("the pick deal needs a source of randomness")
    return deal_by_picking(order, players, cards_each, rng)


def deal_by_picking(order, players: int, cards_each: int, rng) -> Deal:
    """Return hands of cards picked at random from anywhere in the deck (seed 001's deal)."""
    check_deal(len(order), players, cards_each, "pick")
    remaining = list(order)
    hands = []
    for _ in range(players):
        # the article fills one player's hand at a time, not round the table
        hands.append([remaining.pop(rng.below(len(remaining))) for _ in range(cards_each)])
    return Deal(hands, remaining)
