"""A quoted value can't break or reorder the one-line message that quotes it."""

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from shufflelab.errors import printable, quoted

# by their bidirectional class: the embeddings, overrides and isolates, and what closes them
REORDERING_CLASSES = {"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}
MARKS = {"\u200e", "\u200f", "\u061c"}  # left-to-right, right-to-left and Arabic letter marks


def reorders(character: str) -> bool:
    return unicodedata.bidirectional(character) in REORDERING_CLASSES or character in MARKS


def test_an_override_left_open_in_a_value_is_shown_not_obeyed():
    # "\u202e" would show the rest of "Players '…' is not a whole number" reversed
    assert quoted("\u202e4") == "'\ufffd4'"
    assert quoted("\u2067abc\u2069") == "'\ufffdabc\ufffd'"
    assert printable("x\u200fy", 40) == "x\ufffdy"


@given(st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]) | st.sampled_from(sorted(MARKS) + [
    chr(c) for c in range(0x202A, 0x202F)] + [chr(c) for c in range(0x2066, 0x206A)])))
def test_no_quoted_value_carries_a_bidirectional_control(text):
    shown = quoted(text)
    assert not any(reorders(c) for c in shown), ascii(shown)
    assert "\n" not in shown and "\u2028" not in shown
    assert len(shown) <= 42
