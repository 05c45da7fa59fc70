"""The classroom dialog's choices: a link's QR level, the limits it states, and its words."""

import pytest

from page import classroom_model
from shufflelab import qr


def test_the_most_bytes_stated_are_the_encoders():
    for level, most in classroom_model.QR_MOST_BYTES.items():
        assert qr.smallest_version(most, level) == 40
        with pytest.raises(qr.QrError):
            qr.smallest_version(most + 1, level)


@pytest.mark.parametrize("length, level", [(1, "M"), (2331, "M"), (2332, "L"), (2953, "L"), (2954, None)])
def test_a_link_gets_the_most_error_correction_that_holds_it(length, level):
    assert classroom_model.qr_level(length) == level


def test_a_link_too_long_for_any_code_is_told_so_with_its_size():
    assert classroom_model.too_long(3000) == ("This link is 3,000 bytes, too long for a QR code (at most 2,953): "
                                              "copy it below instead.")
    assert classroom_model.heading("qr") == "Scan to see this deal" and classroom_model.heading("present") == "This deal"
