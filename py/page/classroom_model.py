"""The classroom dialog's words and choices, apart from the page: which error-correction level a link's QR code uses,
and what the dialog says. No ``js`` or ``pyscript`` import: unit-tested under CPython (tests/unit/page/).

The level is M (15% of the code may be lost: a projector's glare, a smudge), unless the link is
too long for it; then L, which holds about 27% more. A link too long for L too (a long piece
of your own code in it) is said so in one line, with the link to copy.
"""

QR_LEVELS = ("M", "L")  # in the order tried: more error correction first
QR_MOST_BYTES = {"M": 2331, "L": 2953}  # byte mode at version 40 (shufflelab.qr checks it against python-qrcode)
QUIET_ZONE = 4  # modules of white around the code, as the standard asks
QR_LABEL = "QR code of the link to this deal"
NOT_LOADED = "The QR code could not be loaded (offline before it was first used?): copy the link below instead."
HEADINGS = {"qr": "Scan to see this deal", "present": "This deal"}


def qr_level(length: int):
    """Return the level for a link of ``length`` bytes: the first of QR_LEVELS that holds it, or None if none does."""
    for level in QR_LEVELS:
        if length <= QR_MOST_BYTES[level]:
            return level
    return None


def too_long(length: int) -> str:
    """Say that a link of ``length`` bytes is too long for any QR code."""
    return "This link is %s bytes, too long for a QR code (at most %s): copy it below instead." % (
        f"{length:,}", f"{QR_MOST_BYTES[QR_LEVELS[-1]]:,}")


def heading(mode: str) -> str:
    """Return the dialog's heading for ``mode`` ("qr" or "present")."""
    return HEADINGS[mode]
