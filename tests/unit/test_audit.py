"""Orders from any engine: read fast or line by line, the same decks either way, bad lines named by number."""

import io
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflelab import riffles
from shufflelab.audit import _CODE_IDS, MAX_REPORTED_BAD_LINES, Audit, _fast_decks, audit_file, read_order
from shufflelab.cards import normal_code, standard_deck
from shufflelab.errors import ShuffleLabError
from shufflelab.tally.counting import count_decks, count_orders


def direct_counts(orders, n):
    """Count card i at position j, and the fixed points, one order at a time: the plain way."""
    counts = [[0] * n for _ in range(n)]
    fixed = [0] * (n + 1)
    for order in orders:
        for position, card in enumerate(order):
            counts[card][position] += 1
        fixed[sum(card == position for position, card in enumerate(order))] += 1
    return counts, fixed


def audited(text: bytes, cards=None, chunk_bytes=1 << 20):
    return Audit(cards).read(io.BytesIO(text), chunk_bytes)


@st.composite
def order_files(draw):
    """Random orders of n cards written with the separators engines use, with blank and comment lines between."""
    n = draw(st.integers(2, 130))
    picker = random.Random(draw(st.integers(0, 2**32)))
    orders, lines = [], []
    for _ in range(draw(st.integers(1, 40))):
        order = list(range(n))
        picker.shuffle(order)
        orders.append(order)
        separator = draw(st.sampled_from([" ", ",", ", ", "\t", "  ", " , "]))
        padding = draw(st.sampled_from(["", " ", "\t", "  "]))
        zeros = draw(st.sampled_from(["", "0"]))  # zeros in front: still the card's number
        lines.append(padding + separator.join(zeros + str(card) for card in order) + padding)
        lines += draw(st.sampled_from([[], [""], ["   "], ["# a comment: 1 2 3"]]))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    text = ending.join(lines) + draw(st.sampled_from(["", ending]))
    return n, orders, text.encode("ascii")


@settings(max_examples=60, deadline=None)
@given(case=order_files(), chunk_bytes=st.sampled_from([7, 64, 1 << 20]))
def test_the_counts_of_random_orders_are_their_direct_counts(case, chunk_bytes):
    n, orders, text = case
    audit = audited(text, chunk_bytes=chunk_bytes)  # chunks that cut lines anywhere, or one chunk for all
    assert (audit.n, audit.bad_lines, audit.orders) == (n, 0, len(orders))
    assert (audit.counts, audit.fixed_points) == direct_counts(orders, n)


@settings(max_examples=40, deadline=None)
@given(case=order_files())
def test_the_fast_path_reads_plain_orders_as_the_line_by_line_reader_does(case):
    n, orders, text = case
    plain = text.replace(b"\r", b"")
    plain = b"\n".join(line for line in plain.split(b"\n") if not line.strip().startswith(b"#")) + b"\n"
    decks = _fast_decks(plain, n)
    if re.search(rb"\d{4}", plain):
        assert decks is None  # four digits (zeros in front of 100 and up): left to the line-by-line reader
        return
    assert decks is not None, "plain orders must not need the slow path"
    assert decks == b"".join(read_order(line, n)[0] or b"" for line in plain.split(b"\n"))
    assert decks == b"".join(map(bytes, orders))


@pytest.mark.parametrize("n", [101, 200, 253, 254, 255])
def test_three_digit_cards_count_right_on_both_paths(n):
    picker = random.Random(n)
    orders = [picker.sample(range(n), n) for _ in range(30)]
    text = "".join(" ".join(map(str, order)) + "\n" for order in orders).encode()
    audit = audited(text)
    assert (audit.n, audit.bad_lines) == (n, 0)
    assert (audit.counts, audit.fixed_points) == direct_counts(orders, n)


@pytest.mark.parametrize("line, problem", [
    (b"0 1 2", "has 3 numbers, not 4"),
    (b"0 1 2 3 0", "has 5 numbers, not 4"),
    (b"0 1 2 2", "card 2 appears twice"),
    (b"0 1 2 4", "card 4 is out of range: the cards are 0 to 3"),
    (b"0 1 2 256", "card 256 is out of range: the cards are 0 to 3"),
    (b"0 1 2 299", "card 299 is out of range: the cards are 0 to 3"),
    (b"0 1 2 " + b"9" * 5000, "card " + "9" * 19 + "… is out of range: the cards are 0 to 3"),
    (b"0 1 2 -3", "'-3' is not a card number"),
    (b"0 1 2 +3", "'+3' is not a card number"),
    (b"0 1 2 3.0", "'3.0' is not a card number"),
    (b"0 1 2 1_0", "'1_0' is not a card number"),
    (b"0 1 2 x", "'x' is not a card number"),
    (b"0 1 2 \xd9\xa3", "'\u0663' is not a card number"),  # an Arabic-Indic three: a digit, but not ASCII
    (b"0 1 2 \xff", "'\ufffd' is not a card number"),  # not UTF-8
    (b"[0, 1, 2, 3]", "'[0' is not a card number or code (0 to n-1, or codes such as AS, 10H, A♠)"),
    (b"0 1 2 3 # four cards", "'#' is not a card number"),  # a comment is a whole line
])
def test_each_kind_of_bad_line_is_named_by_its_number_and_never_counted(line, problem):
    good = b"0 1 2 3\n3 2 1 0\n"
    audit = audited(b"# four cards\n" + good + line + b"\n" + good)
    assert audit.bad == [(4, problem)] and audit.bad_lines == 1
    assert (audit.counts, audit.fixed_points) == direct_counts([[0, 1, 2, 3], [3, 2, 1, 0]] * 2, 4)


def test_bad_lines_are_counted_all_but_kept_only_for_the_first_twenty():
    text = b"1 0\n" + b"1 1\n" * 30 + b"0 1\n"
    audit = audited(text, chunk_bytes=16)
    assert audit.bad_lines == 30 and len(audit.bad) == MAX_REPORTED_BAD_LINES
    assert [number for number, _ in audit.bad] == list(range(2, 2 + MAX_REPORTED_BAD_LINES))
    assert audit.orders == 2 and audit.lines == 32


def test_n_is_the_first_orders_length_and_bad_lines_before_it_are_reported():
    audit = audited(b"\n# orders\n1 2 3\n0 1 2 x\n2 0 1\n0 1 2 3\n")
    assert audit.n == 3 and audit.orders == 1
    assert audit.bad == [(3, "card 3 is out of range: the cards are 0 to 2"), (4, "'x' is not a card number"),
                         (6, "has 4 numbers, not 3")]


def test_a_one_based_engine_is_told_where_the_cards_run():
    audit = audited(b"# one-based\n1 2 3 4\n4 3 2 1\n")
    assert audit.orders == 0 and audit.bad[0] == (2, "card 4 is out of range: the cards are 0 to 3")
    assert audit.numbered_from_one == (2, 4)


def test_a_zero_based_file_with_one_stray_line_is_not_taken_for_one_based():
    audit = audited(b"0 1 2 3\n1 2 3 4\n")
    assert audit.numbered_from_one == (2, 4) and audit.orders == 1  # an order was read: the hint is not given


@settings(max_examples=30, deadline=None)
@given(case=order_files(), chunk_bytes=st.sampled_from([7, 64, 1 << 20]))
def test_cards_numbered_from_one_count_as_the_same_orders_numbered_from_zero(case, chunk_bytes):
    n, orders, text = case
    one_based = re.sub(rb"\d+", lambda number: b"%d" % (int(number.group()) + 1), text)
    audit = Audit(numbered_from=1).read(io.BytesIO(one_based), chunk_bytes)
    assert (audit.counts, audit.fixed_points) == direct_counts(orders, n) and audit.bad == []


@pytest.mark.parametrize("line, problem", [
    (b"0 1 2 3", "card 0 is out of range: the cards are 1 to 4"),
    (b"1 2 3 5", "card 5 is out of range: the cards are 1 to 4"),
    (b"1 2 3 3", "card 3 appears twice"),
])
def test_bad_lines_numbered_from_one_are_named_in_its_numbers(line, problem):
    audit = Audit(4, numbered_from=1).read(io.BytesIO(b"1 2 3 4\n" + line + b"\n"))
    assert audit.bad == [(2, problem)] and audit.orders == 1
    with pytest.raises(ShuffleLabError, match="from 0 or from 1, not from 2"):
        Audit(numbered_from=2)


def code_forms(card: int, picker: random.Random) -> str:
    """One way an engine may write a standard card: AS, as, A♠, A♤, 10H, 0H, TH, th (rank then suit)."""
    label = standard_deck().card(card).label  # 'A♣', '10♥'
    rank, suit = label[:-1], label[-1]
    rank = picker.choice(["10", "0", "T", "t"]) if rank == "10" else picker.choice([rank, rank.lower()])
    letter = "CDHS"["♣♦♥♠".index(suit)]
    return rank + picker.choice([letter, letter.lower(), suit, "♧♢♡♤"["♣♦♥♠".index(suit)]])


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), count=st.integers(1, 30), chunk_bytes=st.sampled_from([64, 1 << 20]))
def test_orders_written_as_card_codes_count_as_their_ids(seed, count, chunk_bytes):
    picker = random.Random(seed)
    orders = [picker.sample(range(52), 52) for _ in range(count)]
    separator = picker.choice([" ", ", ", "\t"])
    text = "\n".join(separator.join(code_forms(card, picker) for card in order) for order in orders) + "\n"
    audit = audited(text.encode("utf-8"), chunk_bytes=chunk_bytes)
    assert audit.n == 52 and audit.bad == []
    assert (audit.counts, audit.fixed_points) == direct_counts(orders, 52)
    assert riffles.parse_order(text.splitlines()[0].replace("\t", " "), standard_deck()) == orders[0]


def test_every_code_the_audit_reads_is_the_card_the_page_reads():
    deck = standard_deck()
    for typed, card in _CODE_IDS.items():
        assert deck.codes([card])[0] == normal_code(typed.decode("utf-8"))
    assert len(set(_CODE_IDS.values())) == 52


@pytest.mark.parametrize("line, problem", [
    ("AS KS", "has 2 card codes, not 52"),
    ("AS ZZ", "'ZZ' is not a card number or code (0 to n-1, or codes such as AS, 10H, A♠)"),
    ("AS 11H", "'11H' is not a card number or code"),
    ("AS " + "K" * 300, "'" + "K" * 19 + "…' is not a card number or code"),
    ("AS AS", "card AS appears twice"),
])
def test_bad_lines_of_codes_are_named(line, problem):
    deck = standard_deck()
    good = " ".join(deck.codes(list(range(52))))
    if problem == "card AS appears twice":
        line = good.replace("KS", "AS")
    audit = audited(f"{good}\n{line}\n".encode())
    assert audit.orders == 1 and audit.bad[0][0] == 2 and audit.bad[0][1].startswith(problem)


def test_codes_in_a_file_of_fewer_cards_are_bad_lines():
    audit = audited(b"0 1 2\nAS 2C 3C\n")
    assert audit.bad == [(2, "holds card codes, which name the 52 cards of a standard pack, not 3 cards")]


def test_cards_given_make_every_other_length_bad():
    audit = audited(b"0 1 2\n0 1\n1 0\n", cards=2)
    assert audit.bad == [(1, "has 3 numbers, not 2")] and audit.orders == 2
    with pytest.raises(ShuffleLabError, match="2 to 255 cards, not 1"):
        Audit(1)


def test_a_last_line_without_its_line_feed_is_read():
    assert audited(b"0 1 2\n2 1 0").orders == 2


def test_unreadable_files_are_one_line_naming_them(tmp_path):
    with pytest.raises(ShuffleLabError, match="cannot read .*missing.txt: No such file"):
        audit_file(str(tmp_path / "missing.txt"))
    with pytest.raises(ShuffleLabError, match="cannot read"):
        audit_file(str(tmp_path))


def test_standard_input_is_read_when_the_path_is_a_dash():
    assert audit_file("-", None, io.BytesIO(b"0 1\n1 0\n")).orders == 2


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 70), count=st.integers(0, 300), seed=st.integers(0, 2**32))
def test_count_orders_counts_what_count_decks_counts(n, count, seed):
    picker = random.Random(seed)
    decks = b"".join(bytes(picker.sample(range(n), n)) for _ in range(count))
    expected = [[0] * n for _ in range(n)], [0] * (n + 1)
    count_decks(decks, n, *expected)
    got = [[0] * n for _ in range(n)], [0] * (n + 1)
    assert count_orders(decks, n, *got) and got == expected


@pytest.mark.parametrize("bad", [b"\x00\x01\x01", b"\x00\x01\x03", b"\x00\x01"])
def test_count_orders_adds_nothing_when_a_deck_is_no_order(bad):
    decks = bytes([0, 1, 2] * 70_000) + bad  # the bad deck in a second block of lanes
    counts, fixed = [[0] * 3 for _ in range(3)], [0] * 4
    assert not count_orders(decks, 3, counts, fixed)
    assert counts == [[0] * 3 for _ in range(3)] and fixed == [0] * 4
