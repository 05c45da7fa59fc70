"""What the exact analyses refuse, and why: each a ShuffleLabError, so the CLI and the lab say it in one line."""

from ..errors import ShuffleLabError


class NoExactMatrix(ShuffleLabError):
    """An algorithm whose catalog entry has no exact matrix; the message is the entry's reason (``no_matrix_reason``)."""


class ExactTooCostly(ShuffleLabError):
    """An exact answer that exists but would take too long or grow too large to compute."""


class NotEnumerable(ShuffleLabError):
    """A port that draws floats (``random()``), which cannot be enumerated."""
