"""Helpers shared by the end-to-end tests: a page opened with its dialogs recorded, and what
went wrong on it since the last look."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Opened:
    """A visit plus the dialogs its page opened, and how much of it earlier tests checked."""

    visit: object
    dialogs: list[str] = field(default_factory=list)
    checked: dict = field(default_factory=dict)

    @property
    def page(self):
        return self.visit.page


def open_in(context, url: str, visit, label: str) -> Opened:
    """Open `url` in a new page of `context`, recording dialogs from the start, until ready."""
    page = context.new_page()
    dialogs: list[str] = []

    def on_dialog(dialog) -> None:
        dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    opened = Opened(visit(page, url, label=label), dialogs)
    return opened


def problems(opened: Opened) -> list[str]:
    """What went wrong on a page since the last check: offsite/failed requests, errors, dialogs."""
    visit = opened.visit
    found = []
    for name, items in (
        ("request off the page's origin", visit.offsite_requests()),
        ("failed request", visit.failed_requests),
        ("console error", visit.console_errors),
        ("dialog", opened.dialogs),
    ):
        start = opened.checked.get(name, 0)
        found += [f"{name}: {item}" for item in items[start:]]
        opened.checked[name] = len(items)
    return found
