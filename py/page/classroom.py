"""Share in a classroom: the link's QR code, and the deal in cards readable from the back of the room.

Both live in one modal ``<dialog id="classroom">``: "QR code" shows the code large, "Present" the
hands large with the code beside them, and its own "Shuffle again". The code is always of the link
Copy link copies (on a sealed deal the public link, never the seed). The QR encoder
(shufflelab/qr.py) is fetched the first time a code is drawn: the first deal never waits for it.
"""

import js

from . import classroom_model as words
from . import deal_view
from .dom import create, element, listen, set_text, spawn, svg

QR_SOURCE = "./py/shufflelab/qr.py"  # beside page.toml's files, relative to the page
QR_DESTINATION = "shufflelab/qr.py"  # where page.toml puts the package's files, so it imports as shufflelab.qr
_encoder = []  # the qr module once fetched and imported (a list: set from inside a coroutine)


async def qr_encoder():
    """Return shufflelab.qr, fetching it into MicroPython's files the first time: it is needed only when asked for."""
    if not _encoder:
        response = await js.fetch(QR_SOURCE)
        if not response.ok:
            raise RuntimeError("qr.py could not be fetched (%s)" % response.status)
        source = await response.text()
        with open(QR_DESTINATION, "w") as handle:
            handle.write(source)
        from shufflelab import qr  # lazy, on purpose: the file exists only once fetched above

        _encoder.append(qr)
    return _encoder[0]


class Classroom:
    """The dialog: which mode it shows, and redrawing it when the deal changes while it is open."""

    def __init__(self, page, shuffle_again) -> None:
        self.page = page
        self.shuffle_again = shuffle_again
        self.drawn = 0  # counts draws begun: a QR code finished after a newer deal is not shown

    def open(self, mode: str) -> None:
        """Show the dialog in ``mode`` ("qr" or "present") with the current deal."""
        dialog = element("classroom")
        dialog.dataset.mode = mode
        set_text("classroom-heading", words.heading(mode))
        show_present_parts = mode == "present"
        element("classroom-again").hidden = not show_present_parts
        element("classroom-hands").hidden = not show_present_parts
        if not dialog.open:
            dialog.showModal()
        self.redraw()

    def link_changed(self, link) -> None:
        """Redraw the open dialog once the new deal's cards are drawn."""
        if element("classroom").open:
            self.page.when_dealt(self.redraw)

    def redraw(self) -> None:
        """Copy the hands (in present mode) and draw the link's QR code."""
        self.drawn += 1
        if element("classroom").dataset.mode == "present":
            copy_hands(element("classroom-hands"))
        link = str(element(deal_view.copy_source(self.page.link, self.page.sealing())).value)
        spawn(self.draw_code(link, self.drawn), "classroom-status")

    async def draw_code(self, link: str, draw: int) -> None:
        """Draw ``link``'s QR code, or say in one line why it cannot be (offline before the encoder was fetched)."""
        set_text("classroom-link", link)
        set_text("classroom-status", "Drawing the QR code…")
        try:
            qr = await qr_encoder()
        except Exception:
            if draw == self.drawn:
                element("classroom-code").replaceChildren()
                set_text("classroom-status", words.NOT_LOADED)
            return
        data = link.encode("utf-8")
        level = words.qr_level(len(data))
        if draw != self.drawn:
            return  # a newer deal's code is on its way
        if level is None:
            element("classroom-code").replaceChildren()
            set_text("classroom-status", words.too_long(len(data)))
            return
        modules = qr.matrix(data, level)
        side = len(modules) + 2 * words.QUIET_ZONE
        picture = svg("svg", viewBox="0 0 %d %d" % (side, side), role="img", class_="qr",
                      aria_label=words.QR_LABEL)
        picture.append(svg("rect", width=side, height=side, fill="#fff"),
                       svg("path", d=qr.svg_path(modules, words.QUIET_ZONE), fill="#000"))
        element("classroom-code").replaceChildren(picture)
        set_text("classroom-status", "")


def copy_hands(target) -> None:
    """Put a copy of the deal's hands (or, with no hands, the deck) in ``target``, every id made its own."""
    source = element("hands") if element("hands").children.length else element("deck")
    copy = source.cloneNode(True)
    copy.removeAttribute("id")
    for node in copy.querySelectorAll("[id]"):
        node.id = "classroom-" + node.id
    for node in copy.querySelectorAll("[aria-labelledby]"):
        node.setAttribute("aria-labelledby", "classroom-" + node.getAttribute("aria-labelledby"))
    box = create("div", None, "classroom-cards")
    box.appendChild(copy)
    target.replaceChildren(box)


def mount(page, shuffle_again) -> Classroom:
    """Wire the QR code and Present buttons and the dialog's own; redraw the open dialog when the deal changes."""
    classroom = Classroom(page, shuffle_again)
    listen("show-qr", "click", lambda event: classroom.open("qr"))
    listen("present", "click", lambda event: classroom.open("present"))
    listen("classroom-again", "click", lambda event: shuffle_again())
    listen("classroom-close", "click", lambda event: element("classroom").close())
    page.listeners.append(classroom.link_changed)
    return classroom
