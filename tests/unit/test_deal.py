"""Dealing: partitions, styles, the article's pick deal, and clear errors."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shufflelab.deal import Deal, DealError, deal, deal_by_picking
from shufflelab.errors import ShuffleLabError
from shufflelab.rng import StreamRng

from .scripted import ScriptedRng


@given(n=st.integers(0, 120), players=st.integers(1, 12), cards_each=st.integers(0, 12),
       style=st.sampled_from(["round-robin", "blocks", "pick"]), seed=st.text(max_size=8))
def test_a_deal_partitions_the_deck(n, players, cards_each, style, seed):
    if players * cards_each > n:
        with pytest.raises(DealError):
            deal(list(range(n)), players, cards_each, style, StreamRng(seed))
        return
    result = deal(list(range(n)), players, cards_each, style, StreamRng(seed))
    assert len(result.hands) == players
    assert all(len(hand) == cards_each for hand in result.hands)
    assert sorted(sum(result.hands, []) + result.stock) == list(range(n))


def test_round_robin_gives_one_card_at_a_time_around_the_table():
    result = deal(list("abcdefgh"), players=3, cards_each=2)
    assert result == Deal([["a", "d"], ["b", "e"], ["c", "f"]], ["g", "h"])
    assert result != Deal([["a", "d"], ["b", "e"], ["c", "f"]], ["h", "g"])


def test_blocks_give_each_player_a_run_from_the_top():
    result = deal(list("abcdefgh"), players=3, cards_each=2, style="blocks")
    assert result.hands == [["a", "b"], ["c", "d"], ["e", "f"]]
    assert result.stock == ["g", "h"]


def test_pick_fills_one_hand_at_a_time_with_cards_from_anywhere():
    rng = ScriptedRng([4, 0, 1, 1])  # picks from 6, 5, 4, 3 remaining cards
    result = deal_by_picking(list("abcdef"), players=2, cards_each=2, rng=rng)
    assert result.hands == [["e", "a"], ["c", "d"]]
    assert result.stock == ["b", "f"]
    assert rng.exhausted


@pytest.mark.parametrize(
    "players, cards_each, style, message",
    [(5, 11, "round-robin", "cannot deal 5 players × 11 cards = 55 cards from a 52-card deck"),
     (0, 5, "blocks", "need at least 1 player, not 0"),
     (2, -1, "round-robin", "cards each must be 0 or more, not -1"),
     (2, 2, "shuffle-tracking", "unknown deal style 'shuffle-tracking'")],
)
def test_impossible_deals_name_the_numbers(players, cards_each, style, message):
    with pytest.raises(DealError, match=message) as refused:
        deal(list(range(52)), players, cards_each, style, StreamRng("0"))
    assert isinstance(refused.value, ShuffleLabError) and "\n" not in str(refused.value)


def test_pick_without_randomness_is_refused():
    with pytest.raises(DealError, match="needs a source of randomness"):
        deal([1, 2, 3], 1, 1, "pick")
