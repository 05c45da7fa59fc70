"""Dealing hands from the top of a deck: round-robin, in blocks, or by picking at random."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .rng import Rng

DEAL_STYLES = ("round-robin", "blocks", "pick")
DEFAULT_STYLE = "round-robin"


class DealError(ValueError):
    """A deal that cannot be made; the message names the numbers."""


@dataclass(frozen=True)
class Deal:
    """Hands (player 1 first) and the stock left over, in deck order; together a partition."""

    hands: list[list]
    stock: list


def check_deal(deck_size: int, players: int, cards_each: int, style: str = DEFAULT_STYLE) -> None:
    """Raise DealError, naming the numbers, unless the deal is possible."""
    if style not in DEAL_STYLES:
        raise DealError(f"unknown deal style {style!r}; choose one of {', '.join(DEAL_STYLES)}")
    if players < 1:
        raise DealError(f"need at least 1 player, not {players}")
    if cards_each < 0:
        raise DealError(f"cards each must be 0 or more, not {cards_each}")
    if players * cards_each > deck_size:
        raise DealError(
            f"cannot deal {players} players × {cards_each} cards = {players * cards_each} cards"
            f" from a {deck_size}-card deck"
        )


def deal(
    order: Sequence,
    players: int,
    cards_each: int,
    style: str = DEFAULT_STYLE,
    rng: Rng | None = None,
) -> Deal:
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


def deal_by_picking(order: Sequence, players: int, cards_each: int, rng: Rng) -> Deal:
    """Return hands of cards picked at random from anywhere in the deck (seed 001's deal)."""
    check_deal(len(order), players, cards_each, "pick")
    remaining = list(order)
    hands = []
    for _ in range(players):
        # the article fills one player's hand at a time, not round the table
        hands.append([remaining.pop(rng.below(len(remaining))) for _ in range(cards_each)])
    return Deal(hands, remaining)
