"""shufflelab.qr: module for module the code python-qrcode (written apart from this one) makes, mask choice included."""

import random

import pytest
import qrcode
from hypothesis import given, settings
from hypothesis import strategies as st
from qrcode.constants import ERROR_CORRECT_H, ERROR_CORRECT_L, ERROR_CORRECT_M, ERROR_CORRECT_Q

from shufflelab import qr

REFERENCE_LEVELS = {"L": ERROR_CORRECT_L, "M": ERROR_CORRECT_M, "Q": ERROR_CORRECT_Q, "H": ERROR_CORRECT_H}


def reference(data: bytes, level: str, mask: int | None = None) -> tuple[int, list]:
    """python-qrcode's version and modules (dark 1) for data in byte mode, no quiet zone."""
    code = qrcode.QRCode(error_correction=REFERENCE_LEVELS[level], border=0, mask_pattern=mask)
    code.add_data(qrcode.util.QRData(data, mode=qrcode.util.MODE_8BIT_BYTE))
    code.make(fit=True)
    return code.version, [[1 if module else 0 for module in row] for row in code.modules]


def byte_capacity(version: int, level: str) -> int:
    """The most bytes a version holds at a level in byte mode."""
    return (8 * qr._data_capacity(version, level) - (12 if version < 10 else 20)) // 8


@pytest.mark.slow
@pytest.mark.parametrize("level", qr.LEVELS)
def test_every_version_is_the_references_code(level):
    picker = random.Random(level)
    for version in range(1, 41):
        length = byte_capacity(version, level) - (picker.randrange(4) if version > 1 else 0)  # full, or padded
        data = bytes(picker.randrange(256) for _ in range(length))
        mask = picker.randrange(8) if version > 6 else None  # past version 6 a given mask keeps the test short
        assert qr.matrix(data, level, -1 if mask is None else mask) == reference(data, level, mask)[1], version
        assert qr.smallest_version(length, level) == version


@settings(max_examples=25, deadline=None)
@given(seed=st.text(max_size=40), players=st.integers(1, 13), level=st.sampled_from(qr.LEVELS))
def test_a_share_link_is_the_references_code(seed, players, level):
    link = "https://shufflelab.example/shuffle-lab/?v=1&seed=%s&players=%d" % (seed, players)
    data = link.encode("utf-8")
    version, modules = reference(data, level)
    assert qr.matrix(data, level) == modules and qr.smallest_version(len(data), level) == version


def test_data_too_long_for_any_version_is_one_line_naming_its_length():
    assert qr.smallest_version(2953, "L") == 40
    with pytest.raises(qr.QrError, match=r"^2954 bytes are too many for a QR code at level L \(at most 2953\)$"):
        qr.matrix(b"x" * 2954, "L")
    with pytest.raises(qr.QrError, match="error correction is L, M, Q or H, not 'X'"):
        qr.matrix(b"x", "X")


def test_the_svg_path_draws_exactly_the_dark_modules():
    link = b"https://shufflelab.example/?seed=class%207B"
    modules = qr.matrix(link)
    size = len(modules)
    drawn = [[0] * size for _ in range(size)]
    for part in qr.svg_path(modules, border=4).split("M")[1:]:
        position, rest = part.split("h", 1)
        x, y = map(int, position.split())
        width = int(rest.split("v", 1)[0])
        for column in range(x - 4, x - 4 + width):
            assert drawn[y - 4][column] == 0
            drawn[y - 4][column] = 1
    assert drawn == modules and size == 4 * qr.smallest_version(len(link), "M") + 17
