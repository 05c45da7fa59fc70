"""URL queries: written and read exactly as ``urllib.parse`` does, with strict UTF-8."""

from urllib.parse import parse_qsl, urlencode, urlsplit
from urllib.parse import quote_plus as stdlib_quote_plus

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shufflelab.urlquery import Undecodable, encode_query, parse_query, quote_plus, url_query, well_formed_utf8

pairs = st.lists(st.tuples(st.text(), st.text()), max_size=8)
# query-ish text: the characters that mean something in a query, percent escapes (good, bad and
# half), '+', and any other character
query_pieces = st.one_of(
    st.sampled_from(["&", "=", "+", "%", "%2", "%41", "%e2%80%8d", "%C3%A9", "%FF", "%ED%A0%80", "?", ";"]),
    st.text(max_size=4),
)
queries = st.lists(query_pieces, max_size=20).map("".join)


@given(st.text())
def test_quote_plus_is_urllibs(text):
    assert quote_plus(text) == stdlib_quote_plus(text)


@given(pairs)
def test_encode_query_is_urlencode(items):
    assert encode_query(items) == urlencode(items)


def _strict_parse_qsl(query):
    """urllib's reading, or None when some key or value is not valid UTF-8."""
    try:
        return parse_qsl(query, keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        return None


@settings(max_examples=300)
@given(queries)
def test_parse_query_is_parse_qsl_whenever_the_text_is_utf8(query):
    assume(not query.startswith("?"))  # parse_qsl keeps a leading '?' in the first key; we drop it
    expected = _strict_parse_qsl(query)
    assume(expected is not None)
    assert parse_query(query) == expected


@given(queries)
def test_a_leading_question_mark_is_dropped(query):
    assume(not query.startswith("?"))  # only the one '?' that starts location.search is dropped
    assert parse_query("?" + query) == parse_query(query)


invalid_utf8 = st.binary(min_size=1, max_size=12).filter(lambda raw: _decodes(raw) is None)


def _decodes(raw):
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


@given(st.text(min_size=1).filter(lambda k: "&" not in k and "=" not in k), invalid_utf8)
def test_a_value_that_is_not_utf8_is_kept_as_written(key, raw):
    query = urlencode([(key, raw)])  # urlencode percent-encodes bytes as they are
    [(got_key, value)] = parse_query(query)
    assert got_key == key and isinstance(value, Undecodable)
    assert value.written == query.partition("=")[2]
    assert not well_formed_utf8(raw)


@pytest.mark.parametrize("value", ["%FF%FE", "%C3", "%ED%A0%80", "%F4%90%80%80", "%C0%AF", "a%80b"])
def test_classic_invalid_sequences_are_undecodable(value):
    # a lone byte, a cut sequence, a surrogate, beyond U+10FFFF, an overlong '/', a stray continuation
    [(key, got)] = parse_query("seed=" + value)
    assert key == "seed" and isinstance(got, Undecodable) and got.written == value


@given(st.binary(max_size=12))
def test_well_formed_utf8_is_what_cpython_decodes(raw):
    assert well_formed_utf8(raw) == (_decodes(raw) is not None)


@given(st.text(max_size=12))
def test_text_is_well_formed_utf8_unless_it_holds_a_surrogate(text):
    raw = text.encode("utf-8", "surrogatepass")
    assert well_formed_utf8(raw) == (_decodes(raw) is not None)


def test_a_percent_not_followed_by_two_hex_digits_stays_as_it_is():
    assert parse_query("a=%&b=%4&c=%zz&d=100%25") == [("a", "%"), ("b", "%4"), ("c", "%zz"), ("d", "100%")]


def test_a_key_that_is_not_utf8_is_kept_in_a_shown_form():
    [(key, value)] = parse_query("%FFk%C3=1")
    assert (key, value) == ("\ufffdk\ufffd", "1")


@given(pairs)
def test_encode_then_parse_gives_the_pairs_back(items):
    assert parse_query(encode_query(items)) == items


url_parts = st.text(alphabet=st.sampled_from("ab:/?#@=&% \t\r\n\x01"), max_size=12)  # "[": see the next test


@given(url_parts, url_parts, url_parts)
def test_url_query_is_urlsplits_query(scheme, host, rest):
    url = scheme + "://" + host + rest
    assert url_query(url) == urlsplit(url).query


def test_url_query_reads_the_query_of_a_url_urlsplit_refuses():
    assert url_query("http://[x/?seed=1#top") == "seed=1"
    assert url_query("https://example.org/shuffle-lab/") == ""
