"""Code in a link: any text packs to a URL-safe token and reads back exactly; a bad token is refused in one line."""

import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflelab.codelink import MAX_CODE_CHARACTERS, CodeLinkError, pack_code, unpack_code
from shufflelab.link import Link, View, read_link

SWAP_ANY = '''def shuffle(cards, rng):
    for i in range(len(cards)):
        j = rng.below(len(cards))  # any card: biased
        cards[i], cards[j] = cards[j], cards[i]
    return cards
'''


@settings(max_examples=200)
@given(st.text(max_size=400))
def test_any_text_packs_to_a_url_safe_token_and_reads_back(source):
    token = pack_code(source)
    assert set(token) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert unpack_code(token) == source


def test_the_token_is_raw_deflate_any_decoder_reads():
    token = pack_code(SWAP_ANY)
    padded = token.replace("-", "+").replace("_", "/") + "=" * (-len(token) % 4)
    import base64
    assert zlib.decompress(base64.b64decode(padded), -15).decode("utf-8") == SWAP_ANY
    assert len(token) < len(SWAP_ANY)  # compressed: a short shuffle makes a short link


@pytest.mark.parametrize("token, why", [
    ("ab*c", "has '*' (U+002A), which base64url does not use"),
    ("A", "is cut short"),
    ("AAAA", "is not compressed code"),
    (pack_code(SWAP_ANY)[:-8], "is not compressed code (it may be cut short)"),
    ("A" * 12_001, "at most 12000"),
])
def test_a_bad_token_is_refused_saying_why(token, why):
    with pytest.raises(CodeLinkError) as raised:
        unpack_code(token)
    assert why in str(raised.value) and "\n" not in str(raised.value)


def test_code_longer_than_a_link_carries_is_refused_both_ways():
    with pytest.raises(CodeLinkError, match="at most 8000"):
        pack_code("#" * (MAX_CODE_CHARACTERS + 1))
    token = pack_code("#" * MAX_CODE_CHARACTERS)
    assert unpack_code(token) == "#" * MAX_CODE_CHARACTERS


def test_a_link_carries_code_in_its_view_and_a_bad_one_gets_a_notice():
    link = Link(read_link("seed=s", lambda: "x")[0].deal, View(view="lab", code=SWAP_ANY))
    query = link.to_query()
    assert query.endswith("&code=" + pack_code(SWAP_ANY))
    assert read_link(query, lambda: "unused") == (link, [])
    back, notices = read_link("seed=s&code=AAAA", lambda: "unused")
    assert back.view.code == "" and [n.field for n in notices] == ["code"]
    assert str(notices[0]) == ("Code 'AAAA' can't be read (the code in the link is not compressed code "
                               "(it may be cut short)); using none")
