"""The lab's status line on the page: notices stay; background progress never replaces a newer notice.

Every lab module writes the line through here (``lab_model.StatusLine`` decides who may), so a
message that answers the user (a refused value, a failure, a stop) is not overwritten by a step
that began before it and ended after it.
"""

from .dom import set_text
from .lab_model import STATUS, StatusLine

LINE = StatusLine()  # the page has one lab, and so one status line


def notify(text: str) -> None:
    """Tell the user something that must stay until they act again (a refused value, a failure)."""
    LINE.noticed()
    set_text(STATUS, text)


def say(text: str) -> None:
    """Say what the lab does now, in answer to the user's own action (Running…, Paused.)."""
    set_text(STATUS, text)


def claim() -> int:
    """Return a claim on the line for a background step beginning now (see ``say_for``)."""
    return LINE.claim()


def say_for(claim_: int, text: str) -> None:
    """Say a background step's progress, unless a notice came after the step began (``claim``)."""
    if LINE.may_write(claim_):
        set_text(STATUS, text)
