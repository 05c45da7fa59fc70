"""QR codes (ISO/IEC 18004 Model 2) for share links, drawn on the page with no library: byte mode, versions 1 to 40.

``matrix(data, level)`` returns the modules, dark as 1, row by row (no quiet zone): the smallest
version that holds ``data`` at error-correction level ``level`` (L, M, Q or H: 7, 15, 25 or 30%
of the code may be lost), with the mask of the lowest penalty score. ``svg_path`` turns the
modules into one SVG path. tests/unit/test_qr.py checks every version and level, module for
module, against python-qrcode, an encoder written apart from this one, mask choice included.

Portable: CPython, Pyodide and MicroPython (lists of ints, no dataclasses or typing). The page
fetches this file only when a QR code is asked for.
"""

from .errors import ShuffleLabError

LEVELS = "LMQH"
_FORMAT_LEVEL_BITS = {"L": 1, "M": 0, "Q": 3, "H": 2}
# error-correction codewords per block and number of blocks, by level and version (index 0 unused): the standard's
# table 9
_ECC_PER_BLOCK = {
    "L": (0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30,
          30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
    "M": (0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28,
          28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28),
    "Q": (0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28,
          30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
    "H": (0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30,
          30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
}
_BLOCKS = {
    "L": (0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17,
          18, 19, 19, 20, 21, 22, 24, 25),
    "M": (0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29,
          31, 33, 35, 37, 38, 40, 43, 45, 47, 49),
    "Q": (0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38,
          40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68),
    "H": (0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45,
          48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81),
}
_PENALTY_RUN, _PENALTY_BLOCK, _PENALTY_FINDER, _PENALTY_BALANCE = 3, 3, 40, 10
_FINDER_LIKE = ((1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0), (0, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1))


class QrError(ShuffleLabError):
    """Data too long for any QR code at the level, or a level that is not L, M, Q or H."""


def matrix(data: bytes, level: str = "M", mask: int = -1) -> list:
    """Return the QR code of ``data`` as rows of 0 (light) and 1 (dark), no quiet zone: the smallest version that holds
    it at ``level``, with ``mask`` 0-7 or, when -1, the mask of the lowest penalty."""
    if level not in _ECC_PER_BLOCK:
        raise QrError("error correction is L, M, Q or H, not %r" % (level,))
    version = smallest_version(len(data), level)
    codewords = _with_error_correction(_data_codewords(data, version, level), version, level)
    size = 4 * version + 17
    modules = [[0] * size for _ in range(size)]
    reserved = [[False] * size for _ in range(size)]
    _draw_function_patterns(modules, reserved, version)
    _place_codewords(modules, reserved, codewords)
    masks = range(8) if mask == -1 else (mask,)
    best = None
    for candidate in masks:
        masked = _masked(modules, reserved, candidate)
        # scored with the format, the version and the dark module still light, as python-qrcode does (the standard
        # leaves it open): the same input gets the same code from both
        score = penalty(masked) if len(masks) > 1 else 0
        if best is None or score < best[0]:
            best = (score, candidate, masked)
    _, chosen, masked = best
    _draw_format_and_version(masked, level, chosen, version)
    return masked


def smallest_version(length: int, level: str) -> int:
    """Return the smallest version (1-40) whose byte mode holds ``length`` bytes at ``level``."""
    for version in range(1, 41):
        header_bits = 4 + (8 if version < 10 else 16)
        if header_bits + 8 * length <= 8 * _data_capacity(version, level):
            return version
    raise QrError("%d bytes are too many for a QR code at level %s (at most %d)"
                  % (length, level, (8 * _data_capacity(40, level) - 20) // 8))


def svg_path(modules: list, border: int = 4) -> str:
    """Return an SVG path of the dark modules, one unit each, a run of dark modules in a row as one rectangle, offset
    by a quiet zone of ``border`` modules (the viewBox is 0 0 size+2*border size+2*border)."""
    parts = []
    for y, row in enumerate(modules):
        x = 0
        while x < len(row):
            if row[x]:
                start = x
                while x < len(row) and row[x]:
                    x += 1
                parts.append("M%d %dh%dv1h-%dz" % (start + border, y + border, x - start, x - start))
            else:
                x += 1
    return "".join(parts)


def _raw_modules(version: int) -> int:
    """Return how many modules of a version hold data and error correction (all but the function patterns)."""
    count = (16 * version + 128) * version + 64
    if version >= 2:
        alignments = version // 7 + 2
        count -= (25 * alignments - 10) * alignments - 55
        if version >= 7:
            count -= 36  # the two version-information blocks
    return count


def _data_capacity(version: int, level: str) -> int:
    """Return the data codewords of a version at a level."""
    return _raw_modules(version) // 8 - _ECC_PER_BLOCK[level][version] * _BLOCKS[level][version]


def _data_codewords(data: bytes, version: int, level: str) -> list:
    """Return the data codewords: byte mode, the count, the bytes, the terminator and the standard's padding."""
    bits = []

    def push(value, width):
        for shift in range(width - 1, -1, -1):
            bits.append((value >> shift) & 1)

    push(0b0100, 4)
    push(len(data), 8 if version < 10 else 16)
    for byte in data:
        push(byte, 8)
    capacity = 8 * _data_capacity(version, level)
    push(0, min(4, capacity - len(bits)))
    push(0, -len(bits) % 8)
    codewords = [int("".join(str(bit) for bit in bits[i:i + 8]), 2) for i in range(0, len(bits), 8)]
    pad = 0xEC
    while len(codewords) < capacity // 8:
        codewords.append(pad)
        pad ^= 0xEC ^ 0x11
    return codewords


def _with_error_correction(data: list, version: int, level: str) -> list:
    """Return the codewords in the order they are placed: the blocks' data interleaved, then their error correction."""
    blocks = _BLOCKS[level][version]
    ecc_length = _ECC_PER_BLOCK[level][version]
    raw = _raw_modules(version) // 8
    short_blocks = blocks - raw % blocks
    short_length = raw // blocks
    divisor = _reed_solomon_divisor(ecc_length)
    data_blocks, ecc_blocks = [], []
    start = 0
    for index in range(blocks):
        length = short_length - ecc_length + (0 if index < short_blocks else 1)
        block = data[start:start + length]
        start += length
        data_blocks.append(block)
        ecc_blocks.append(_reed_solomon_remainder(block, divisor))
    placed = []
    for i in range(short_length - ecc_length + 1):
        for block in data_blocks:
            if i < len(block):
                placed.append(block[i])
    for i in range(ecc_length):
        for block in ecc_blocks:
            placed.append(block[i])
    return placed


def _gf_multiply(x: int, y: int) -> int:
    """Return x * y in GF(2^8) modulo the QR polynomial x^8 + x^4 + x^3 + x^2 + 1."""
    product = 0
    for shift in range(7, -1, -1):
        product = (product << 1) ^ ((product >> 7) * 0x11D)
        product ^= ((y >> shift) & 1) * x
    return product


def _reed_solomon_divisor(degree: int) -> list:
    """Return the generator polynomial's coefficients, highest first without its leading 1: (x - a^0)...(x - a^(d-1))."""
    coefficients = [0] * (degree - 1) + [1]
    root = 1
    for _ in range(degree):
        for j in range(degree):
            coefficients[j] = _gf_multiply(coefficients[j], root)
            if j + 1 < degree:
                coefficients[j] ^= coefficients[j + 1]
        root = _gf_multiply(root, 0x02)
    return coefficients


def _reed_solomon_remainder(data: list, divisor: list) -> list:
    """Return the error-correction codewords of a block: its data polynomial modulo the generator."""
    remainder = [0] * len(divisor)
    for byte in data:
        factor = byte ^ remainder.pop(0)
        remainder.append(0)
        for i, coefficient in enumerate(divisor):
            remainder[i] ^= _gf_multiply(coefficient, factor)
    return remainder


def _alignment_positions(version: int) -> list:
    """Return the rows (and columns) of the alignment patterns' centres."""
    if version == 1:
        return []
    count = version // 7 + 2
    step = 26 if version == 32 else (version * 4 + count * 2 + 1) // (count * 2 - 2) * 2
    size = 4 * version + 17
    return [6] + [size - 7 - step * i for i in range(count - 2, -1, -1)]


def _draw_function_patterns(modules: list, reserved: list, version: int) -> None:
    """Draw the timing, finder and alignment patterns and the version information, and reserve the format's places."""
    size = len(modules)

    def put(x, y, dark):
        modules[y][x] = 1 if dark else 0
        reserved[y][x] = True

    for i in range(size):
        put(6, i, i % 2 == 0)
        put(i, 6, i % 2 == 0)
    for cx, cy in ((3, 3), (size - 4, 3), (3, size - 4)):
        for dy in range(-4, 5):
            for dx in range(-4, 5):
                x, y = cx + dx, cy + dy
                if 0 <= x < size and 0 <= y < size:
                    put(x, y, max(abs(dx), abs(dy)) not in (2, 4))
    positions = _alignment_positions(version)
    last = len(positions) - 1
    for i, cx in enumerate(positions):
        for j, cy in enumerate(positions):
            if (i, j) in ((0, 0), (0, last), (last, 0)):
                continue  # where the finders are
            for dy in range(-2, 3):
                for dx in range(-2, 3):
                    put(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1)
    for i in range(9):  # the format's places, drawn for each mask later
        for x, y in ((8, i), (i, 8)):
            reserved[y][x] = True
    for i in range(8):
        reserved[8][size - 1 - i] = True
        reserved[size - 1 - i][8] = True
    reserved[size - 8][8] = True  # the dark module, drawn with the format
    if version >= 7:
        for i in range(18):  # the version's two places, drawn with the format
            a, b = size - 11 + i % 3, i // 3
            reserved[b][a] = reserved[a][b] = True


def _place_codewords(modules: list, reserved: list, codewords: list) -> None:
    """Place the codewords' bits in two-column strips, upwards then downwards from the bottom right, around what is
    reserved; the timing column is skipped."""
    size = len(modules)
    total = 8 * len(codewords)
    index = 0
    right = size - 1
    while right >= 1:
        if right == 6:
            right = 5
        upward = (right + 1) & 2 == 0
        for step in range(size):
            y = size - 1 - step if upward else step
            for x in (right, right - 1):
                if not reserved[y][x] and index < total:
                    modules[y][x] = (codewords[index >> 3] >> (7 - (index & 7))) & 1
                    index += 1
        right -= 2


def _mask_applies(mask: int, x: int, y: int) -> bool:
    """True where mask ``mask`` flips the module in column x, row y."""
    if mask == 0:
        return (x + y) % 2 == 0
    if mask == 1:
        return y % 2 == 0
    if mask == 2:
        return x % 3 == 0
    if mask == 3:
        return (x + y) % 3 == 0
    if mask == 4:
        return (x // 3 + y // 2) % 2 == 0
    if mask == 5:
        return x * y % 2 + x * y % 3 == 0
    if mask == 6:
        return (x * y % 2 + x * y % 3) % 2 == 0
    return ((x + y) % 2 + x * y % 3) % 2 == 0


def _masked(modules: list, reserved: list, mask: int) -> list:
    """Return a copy of the modules with the mask applied to every module not reserved."""
    return [[bit ^ 1 if not reserved[y][x] and _mask_applies(mask, x, y) else bit for x, bit in enumerate(row)]
            for y, row in enumerate(modules)]


def _draw_format_and_version(modules: list, level: str, mask: int, version: int) -> None:
    """Draw the format information (level and mask, BCH-protected) in both of its places, the dark module, and from
    version 7 the version information (BCH-protected) in both of its places."""
    size = len(modules)
    data = _FORMAT_LEVEL_BITS[level] << 3 | mask
    remainder = data
    for _ in range(10):
        remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537)
    bits = (data << 10 | remainder) ^ 0x5412
    bit = [(bits >> i) & 1 for i in range(15)]
    for i in range(6):
        modules[i][8] = bit[i]
    modules[7][8] = bit[6]
    modules[8][8] = bit[7]
    modules[8][7] = bit[8]
    for i in range(9, 15):
        modules[8][14 - i] = bit[i]
    for i in range(8):
        modules[8][size - 1 - i] = bit[i]
    for i in range(8, 15):
        modules[size - 15 + i][8] = bit[i]
    modules[size - 8][8] = 1
    if version >= 7:
        remainder = version
        for _ in range(12):
            remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25)
        bits = version << 12 | remainder
        for i in range(18):
            a, b = size - 11 + i % 3, i // 3
            modules[b][a] = modules[a][b] = (bits >> i) & 1


def penalty(modules: list) -> int:
    """Return the standard's penalty score of a masked code: long runs, 2x2 blocks, finder-like patterns, imbalance."""
    size = len(modules)
    columns = [[modules[y][x] for y in range(size)] for x in range(size)]
    score = 0
    for line in modules + columns:
        score += _run_penalty(line) + _finder_like_penalty(line)
    for y in range(size - 1):
        row, below = modules[y], modules[y + 1]
        for x in range(size - 1):
            if row[x] == row[x + 1] == below[x] == below[x + 1]:
                score += _PENALTY_BLOCK
    dark = sum(sum(row) for row in modules)
    total = size * size
    score += abs(dark * 20 - total * 10) // total * _PENALTY_BALANCE
    return score


def _run_penalty(line: list) -> int:
    """Return the penalty of a row or column's runs of five or more modules of one colour."""
    score = 0
    run = 1
    for i in range(1, len(line) + 1):
        if i < len(line) and line[i] == line[i - 1]:
            run += 1
            continue
        if run >= 5:
            score += _PENALTY_RUN + run - 5
        run = 1
    return score


def _finder_like_penalty(line: list) -> int:
    """Return the penalty of a row or column's 1:1:3:1:1 patterns with four light modules on one side, within the
    code (the quiet zone outside is not counted)."""
    score = 0
    for start in range(len(line) - 10):
        if tuple(line[start:start + 11]) in _FINDER_LIKE:
            score += _PENALTY_FINDER
    return score
