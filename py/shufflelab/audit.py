"""Orders from any engine, in any language, read and checked line by line, counted as the lab counts its tally.

The format: one order a line, top card first, as the card numbers 0..n-1 (or 1..n, when
the audit is told so) separated by spaces or commas (tabs too), or as the card codes of a
standard pack (``AS 10H KC``, ``A♠``: cards.py's ids, so n is 52); whitespace around a
line, blank lines and lines that begin with ``#`` are skipped. ``n`` is the length of the
first line that is an order, unless it is given. A line that is not an order of the n
cards (a wrong length, a repeated card, a number out of range, something that is not a
card) is a bad line: it is never counted, and the first ``MAX_REPORTED_BAD_LINES`` are
kept with their line numbers and what is wrong. When the first bad line holds exactly the
numbers 1..n, ``Audit.numbered_from_one`` says where: if no line was an order, the orders
look numbered from 1.

Fast without NumPy: the text is read in chunks of lines; a chunk of plain orders is parsed
by whole-chunk byte operations (``_fast_decks``: ``bytes.translate``, and big integers as
byte-wise adders) and counted bit-sliced (``counting.count_orders``); a chunk where
anything is unusual is read again line by line (``read_order``), which says what is wrong
and where. Both give the same decks. CPython and Pyodide.
"""

from .cards import RANKS_BY_KIND, SUIT_CODES, SUIT_SYMBOL_LETTERS, normal_code, standard_deck
from .errors import ShuffleLabError, printable, quoted
from .stats.repeats import RepeatCounter
from .tally import MAX_CARDS, MIN_CARDS, check_card_count
from .tally.counting import count_orders

MAX_REPORTED_BAD_LINES = 20
CHUNK_BYTES = 8 << 20  # about 55,000 orders of 52 cards: big enough for bulk work, small enough for memory
MAX_QUOTED_TOKEN = 20

_SEPARATORS = bytes.maketrans(b",\t\r\v\f", b"     ")  # everything allowed between numbers becomes a space
_ORDER_CHARACTERS = b"0123456789 \n"
_DIGIT_VALUE = bytes(b - 48 if 48 <= b <= 57 else 0 for b in range(256))
_HUNDREDS_VALUE = bytes(100 * (b - 48) if 48 <= b <= 50 else 0 for b in range(256))  # '0'..'2': 0, 100, 200
_IS_DIGIT = bytes(255 if 48 <= b <= 57 else 0 for b in range(256))
_IS_HIGH_HUNDREDS = bytes(255 if 51 <= b <= 57 else 0 for b in range(256))  # '3'..'9': 300 or more
_IS_TWO = bytes(255 if b == 50 else 0 for b in range(256))
_AT_LEAST_56 = bytes(255 if b >= 56 else 0 for b in range(256))
_IS_NEWLINE = bytes(1 if b == 10 else 0 for b in range(256))
# in _fast_decks: what a byte that ends no number becomes (dropped), and a line's end (kept, then checked)
_DROPPED, _LINE_END = 0xFF, 0xFE
MAX_FAST_CARDS = _LINE_END  # card numbers up to 253 never collide with the two markers
_ONE_LESS = bytes([0xFF]) + bytes(range(255))  # 1..n as 0..n-1; a 0 becomes 255, which is no card of any order
CODED_CARDS = 52  # card codes name the cards of one standard pack
CODE_HINT = "0 to n-1, or codes such as AS, 10H, A♠"


def _code_ids() -> dict:
    """Return {a card code as typed, in UTF-8: its id} for the 52 cards of a standard pack, every way normal_code reads
    one (either case; ten as 10, 0 or T; the suit as a letter or a symbol)."""
    deck = standard_deck()
    ids = dict(zip(deck.codes(deck.ids()), deck.ids()))
    suit_forms = {letter: [letter, letter.lower()] for letter in SUIT_CODES}
    for symbol, letter in SUIT_SYMBOL_LETTERS:
        suit_forms[letter].append(symbol)
    typed = {}
    for rank in RANKS_BY_KIND["standard"]:
        for rank_form in ("10", "0", "T", "t") if rank == "10" else (rank, rank.lower()):
            for forms in suit_forms.values():
                for suit_form in forms:
                    text = rank_form + suit_form
                    typed[text.encode("utf-8")] = ids[normal_code(text)]
    return typed


_CODE_IDS = _code_ids()


class Audit:
    """The orders read so far: their counts (card by position), fixed points and bad lines."""

    def __init__(self, cards: int | None = None, numbered_from: int = 0) -> None:
        if numbered_from not in (0, 1):
            raise ShuffleLabError(f"cards are numbered from 0 or from 1, not from {numbered_from}")
        self.numbered_from = numbered_from
        self.numbered_from_one = None  # (line number, n) when the first bad line holds exactly 1..n
        self.n = None if cards is None else check_card_count(cards)
        self.counts = [] if cards is None else [[0] * cards for _ in range(cards)]
        self.fixed_points = [] if cards is None else [0] * (cards + 1)
        self.lines = 0  # lines read, blank and comment lines included
        self.bad_lines = 0
        self.bad = []  # (line number, what is wrong), the first MAX_REPORTED_BAD_LINES
        self.repeats = RepeatCounter()  # pairs of identical orders: how many decks the engine can deal

    @property
    def orders(self) -> int:
        """The orders counted (bad lines never are)."""
        return sum(self.fixed_points)

    def read(self, stream, chunk_bytes: int = CHUNK_BYTES) -> "Audit":
        """Read every line of a binary stream; return this audit."""
        rest = b""
        while True:
            data = stream.read(chunk_bytes)
            if not data:
                break
            data = rest + data
            cut = data.rfind(b"\n") + 1  # a chunk ends at a line's end; the part line waits for the next
            rest = data[cut:]
            if cut:
                self.add_chunk(data[:cut])
        if rest:
            self.add_chunk(rest + b"\n")
        return self

    def add_chunk(self, chunk: bytes) -> None:
        """Count the orders of a chunk of whole lines, each ending in a line feed, and note its bad lines."""
        first_line = self.lines + 1
        self.lines += chunk.count(b"\n")
        if self.n is None:
            chunk, first_line = self._find_n(chunk, first_line)
            if self.n is None:
                return
        decks = _fast_decks(chunk, self.n)
        if decks is not None and self.numbered_from:
            decks = decks.translate(_ONE_LESS)
        if decks is None:
            decks = _coded_decks(chunk, self.n)
        if decks is not None and count_orders(decks, self.n, self.counts, self.fixed_points):
            self.repeats.add_decks(decks, self.n)
            return
        decks = bytearray()  # something is unusual: line by line, which says what and where
        for number, line in enumerate(chunk.split(b"\n")[:-1], start=first_line):
            deck, problem = read_order(line, self.n, self.numbered_from)
            if problem:
                self._note_bad(number, problem, line)
            elif deck is not None:
                decks += deck
        if not count_orders(bytes(decks), self.n, self.counts, self.fixed_points):
            raise AssertionError("read_order let through a deck that is not an order")  # a bug, never the input's
        self.repeats.add_decks(bytes(decks), self.n)

    def _find_n(self, chunk: bytes, first_line: int) -> tuple[bytes, int]:
        """Read lines until the first order, which sets n (and is counted); return the rest of the chunk."""
        start = 0
        number = first_line
        while start < len(chunk):
            end = chunk.index(b"\n", start) + 1
            deck, problem = read_order(chunk[start:end - 1], None, self.numbered_from)
            if problem:
                self._note_bad(number, problem, chunk[start:end - 1])
            elif deck is not None:
                self.n = len(deck)
                self.counts = [[0] * self.n for _ in range(self.n)]
                self.fixed_points = [0] * (self.n + 1)
                count_orders(deck, self.n, self.counts, self.fixed_points)
                self.repeats.add_decks(deck, self.n)
                return chunk[end:], number + 1
            start, number = end, number + 1
        return b"", number

    def _note_bad(self, number: int, problem: str, line: bytes) -> None:
        """Count a bad line, and keep its number and problem if it is among the first reported; note the first that
        holds exactly 1..n when the cards are read from 0."""
        if self.bad_lines == 0 and not self.numbered_from:
            size = _one_to_what(line, self.n)
            self.numbered_from_one = (number, size) if size else None
        self.bad_lines += 1
        if len(self.bad) < MAX_REPORTED_BAD_LINES:
            self.bad.append((number, problem))


def read_order(line: bytes, n: int | None, numbered_from: int = 0) -> tuple[bytes | None, str | None]:
    """Return (deck, None) for an order of the cards 0..n-1 (numbered from ``numbered_from``; any length from 2 to 255
    when n is None) or of a standard pack's 52 codes, (None, None) for a blank or comment line, and (None, what is
    wrong) for anything else."""
    text = line.translate(_SEPARATORS).strip()
    if not text or text.startswith(b"#"):
        return None, None
    tokens = text.split()
    if not tokens[0].isdigit():  # bytes.isdigit is ASCII only: no sign, '_', '.' or other script
        return _read_coded_order(tokens, n)
    for token in tokens:
        if not token.isdigit():
            return None, f"{quoted(token.decode('utf-8', 'replace'), MAX_QUOTED_TOKEN)} is not a card number"
    size = len(tokens) if n is None else n
    if len(tokens) != size:
        return None, f"has {len(tokens)} numbers, not {n}"
    if n is None and not MIN_CARDS <= size <= MAX_CARDS:
        return None, f"has {size} numbers; an order has {MIN_CARDS} to {MAX_CARDS} cards"
    values = []
    for token in tokens:
        digits = token.lstrip(b"0") or b"0"
        # a card is below 256: a longer number is out of range, and int() refuses a few thousand digits
        if len(digits) > 3 or not numbered_from <= int(digits) < size + numbered_from:
            shown = printable(digits.decode("ascii"), MAX_QUOTED_TOKEN)
            return None, f"card {shown} is out of range: the cards are {numbered_from} to {size - 1 + numbered_from}"
        values.append(int(digits) - numbered_from)
    deck = bytes(values)
    if len(set(deck)) != size:
        repeated = next(value for position, value in enumerate(deck) if value in deck[:position])
        return None, f"card {repeated + numbered_from} appears twice"
    return deck, None


def _read_coded_order(tokens: list, n: int | None) -> tuple[bytes | None, str | None]:
    """Return (deck, None) for tokens that are an order of a standard pack's codes, else (None, what is wrong)."""
    values = []
    for token in tokens:
        card = _CODE_IDS.get(token)
        if card is None:
            shown = quoted(token.decode("utf-8", "replace"), MAX_QUOTED_TOKEN)
            return None, f"{shown} is not a card number or code ({CODE_HINT})"
        values.append(card)
    if n not in (None, CODED_CARDS):
        return None, f"holds card codes, which name the {CODED_CARDS} cards of a standard pack, not {n} cards"
    if len(values) != CODED_CARDS:
        return None, f"has {len(values)} card codes, not {CODED_CARDS}"
    deck = bytes(values)
    if len(set(deck)) != CODED_CARDS:
        position = next(place for place, value in enumerate(deck) if value in deck[:place])
        return None, f"card {printable(tokens[position].decode('utf-8', 'replace'), MAX_QUOTED_TOKEN)} appears twice"
    return deck, None


def _coded_decks(chunk: bytes, n: int) -> bytes | None:
    """Return the decks of a chunk of orders written as card codes, one byte per card, or None when any line is not
    exactly 52 known codes (blank and comment lines aside); the caller then reads it line by line."""
    if n != CODED_CARDS:
        return None
    decks = bytearray()
    codes = _CODE_IDS
    for line in chunk.translate(_SEPARATORS).split(b"\n"):
        tokens = line.split()
        if not tokens or tokens[0].startswith(b"#"):
            continue
        if len(tokens) != CODED_CARDS:
            return None
        try:
            decks += bytes([codes[token] for token in tokens])
        except KeyError:
            return None
    return bytes(decks)


def _one_to_what(line: bytes, n: int | None) -> int:
    """Return m if a line's numbers are exactly 1..m (m = n when n is given), an order numbered from 1; else 0."""
    tokens = line.translate(_SEPARATORS).split()
    if not tokens or not all(token.isdigit() and len(token) <= 3 for token in tokens):
        return 0
    size = len(tokens) if n is None else n
    return size if len(tokens) == size and sorted(int(token) for token in tokens) == list(range(1, size + 1)) else 0


def _fast_decks(chunk: bytes, n: int) -> bytes | None:
    """Return the decks of a chunk of plain orders (card numbers, separators, blank lines), one byte per card, or None
    when anything is unusual; the caller then reads it line by line.

    Each byte of the chunk is a byte-wide lane of a big integer, so adding two integers adds
    every lane at once (no lane ever carries: sums are kept below 256). A number's value
    lands on its last digit: that digit, plus 10 times the one before it, plus 100 times
    the one before that when all three are digits. Every other byte is marked and dropped,
    and the line ends are kept as markers to check that every line holds exactly n numbers.
    """
    if n > MAX_FAST_CARDS:
        return None
    text = chunk.translate(_SEPARATORS)
    if b"#" in text or text.translate(None, _ORDER_CHARACTERS):
        return None  # comments, or something that is no number: line by line
    size = len(text)
    digits = _lanes(text, _IS_DIGIT)
    last_digits = digits & ~(digits >> 8)  # a digit whose next byte is not one
    if digits & (digits << 8) & (digits << 16) & (digits << 24):
        return None  # four digits in a row: out of range, or zeros in front
    values = _lanes(text, _DIGIT_VALUE)
    # ten times every lane at once: a digit's 9 becomes 90, no carry
    total = (values & last_digits) + ((values * 10 << 8) & last_digits)
    three = last_digits & (digits << 8) & (digits << 16)  # last digits of three-digit numbers
    if three:
        if (_lanes(text, _IS_HIGH_HUNDREDS) << 16) & three:
            return None  # 300 or more
        twos = (_lanes(text, _IS_TWO) << 16) & three
        if twos and _lanes((total & twos).to_bytes(size, "little"), _AT_LEAST_56) & twos:
            return None  # 256 to 299: the lane would carry
        total += (_lanes(text, _HUNDREDS_VALUE) << 16) & three
    every_byte = (1 << (8 * size)) - 1
    marked = ((total | (every_byte ^ last_digits)) ^ _lanes(text, _IS_NEWLINE)).to_bytes(size, "little")
    lines = marked.translate(None, bytes((_DROPPED,)))
    while bytes((_LINE_END, _LINE_END)) in lines:  # blank lines
        lines = lines.replace(bytes((_LINE_END, _LINE_END)), bytes((_LINE_END,)))
    lines = lines.lstrip(bytes((_LINE_END,)))
    count = lines.count(_LINE_END)
    if len(lines) != count * (n + 1) or lines[n :: n + 1] != bytes((_LINE_END,)) * count:
        return None  # a line of another length (or a number of 254 or 255 taken for a marker)
    return lines.translate(None, bytes((_LINE_END,)))


def _lanes(text: bytes, table: bytes) -> int:
    """Return ``text`` mapped byte by byte through ``table``, as one integer (byte i in bits 8i to 8i+7)."""
    return int.from_bytes(text.translate(table), "little")


def audit_file(path: str, cards: int | None = None, stdin=None, numbered_from: int = 0) -> Audit:
    """Return the audit of a file of orders (``-``: ``stdin``, a binary stream); a file that cannot be read raises
    ShuffleLabError naming it."""
    if path == "-":
        return Audit(cards, numbered_from).read(stdin)
    try:
        with open(path, "rb") as handle:
            return Audit(cards, numbered_from).read(handle)
    except OSError as error:
        raise ShuffleLabError(f"cannot read {path}: {error.strerror or error}") from None
