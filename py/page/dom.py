"""DOM helpers shared by the page's views: find, fill, show and listen, with failures kept to one line."""

import asyncio
import sys

from pyscript import document, window
from pyscript.ffi import create_proxy


def element(element_id: str):
    """Return the element with this id (the page's ids are fixed in index.html)."""
    return document.getElementById(element_id)


def set_text(element_id: str, text: str) -> None:
    """Set an element's text; text is never parsed as HTML."""
    element(element_id).textContent = text


def isolated(text: str):
    """Return ``text`` (a user's: a seed, a player seed, a commitment) in a ``<bdi>``: its own direction, so a
    right-to-left override inside it cannot turn the rest of the sentence around."""
    return create("bdi", text)


def set_sentence(element_id: str, *parts) -> None:
    """Set an element's content to ``parts`` in order: strings as text (never HTML), elements (``isolated``) as they are."""
    element(element_id).replaceChildren(*parts)


def set_command(element_id: str, command: str) -> None:
    """Show a command line that wraps only between its words: each word a span that never breaks (a browser would
    break "--cards" after its hyphens), the spaces between them as text, so a copy gives the command as it is."""
    parts = []
    for word in command.split(" "):
        if parts:
            parts.append(" ")
        parts.append(create("span", word, "word"))
    element(element_id).replaceChildren(*parts)


def show(element_id: str, visible: bool) -> None:
    """Show or hide an element."""
    element(element_id).hidden = not visible


def mark_busy(element_id: str, busy: bool) -> None:
    """Mark an element aria-busy while it changes in steps, so assistive technology waits for where it ends."""
    if busy:
        element(element_id).setAttribute("aria-busy", "true")
    else:
        element(element_id).removeAttribute("aria-busy")


def create(tag: str, text: str = None, class_name: str = None):
    """Return a new element, with its text (never HTML) and class when given."""
    node = document.createElement(tag)
    if text is not None:
        node.textContent = text
    if class_name:
        node.className = class_name
    return node


def number_row(control: str, label_text: str, class_name: str):
    """Return a hidden row holding a label and a text field for a whole number, the field's id ``control``.

    Text, not type=number: a number field hides what was typed (it reads as ''), and a notice
    must quote the value it refuses; the field table checks the range.
    """
    row = create("div", None, class_name)
    row.id = control + "-row"
    row.hidden = True
    label = create("label", label_text)
    label.htmlFor = control
    box = document.createElement("input")
    box.id = control
    box.type = "text"
    box.inputMode = "numeric"
    box.autocomplete = "off"
    box.spellcheck = False
    row.append(label, box)
    return row


def one_line(error: Exception) -> str:
    """Return one line about a failure: the last line of its text (a worker's error carries its traceback)."""
    lines = [line.strip() for line in str(error).split("\n") if line.strip()]
    return (lines[-1] if lines else type(error).__name__)[:200]


def report_failure(error: Exception, status_id: str = "status") -> None:
    """Say in one line that something failed, keeping the page usable."""
    status = element(status_id)
    status.hidden = False
    status.dataset.state = "error"
    status.textContent = "Something went wrong: " + one_line(error)
    sys.print_exception(error) if hasattr(sys, "print_exception") else print(repr(error), file=sys.stderr)


def guarded(handler, status_id: str = "status"):
    """Return ``handler`` wrapped so that any failure becomes one line in a status, never a traceback."""

    def run(event=None):
        try:
            return handler(event)
        except Exception as error:  # the page must stay usable whatever happens
            report_failure(error, status_id)

    return run


def listen(target, event: str, handler, status_id: str = "status", capture: bool = False) -> None:
    """Call ``handler(event)`` on each ``event`` of ``target`` (an element or its id), guarded; with ``capture``, before
    the event reaches its target."""
    node = element(target) if isinstance(target, str) else target
    node.addEventListener(event, create_proxy(guarded(handler, status_id)), capture)


def spawn(coroutine, status_id: str = "status"):
    """Run a coroutine in the background; a failure becomes one line in a status, not a traceback."""

    async def guarded_run():
        try:
            return await coroutine
        except Exception as error:
            report_failure(error, status_id)

    return asyncio.create_task(guarded_run())


_LATER = create_proxy(lambda resolve, reject: window.setTimeout(resolve, 0))


def next_task():
    """Return a promise that settles in a later browser task: the browser paints and takes input first."""
    return window.Promise.new(_LATER)


def random_bytes(count: int) -> bytes:
    """Return ``count`` bytes from the browser's CSPRNG (``crypto.getRandomValues``)."""
    values = window.crypto.getRandomValues(window.Uint8Array.new(count))
    return bytes(values[i] for i in range(count))


def load_module_script(script_id: str, src: str) -> None:
    """Add ``<script type="module" id=script_id src=src>`` to the page once (a later call finds it there)."""
    if document.getElementById(script_id) is None:
        script = document.createElement("script")
        script.type = "module"
        script.id = script_id
        script.src = src
        document.head.appendChild(script)


SVG = "http://www.w3.org/2000/svg"


def svg(tag: str, **attributes):
    """Return a new SVG element with these attributes (class_ is class; other underscores become hyphens)."""
    node = document.createElementNS(SVG, tag)
    for name, value in attributes.items():
        node.setAttribute(name.rstrip("_").replace("_", "-"), str(value))
    return node


def svg_text(x: float, y: float, text: str, **attributes):
    """Return an SVG text element; the text is set as text, never markup."""
    node = svg("text", x=round(x, 1), y=round(y, 1), **attributes)
    node.textContent = text
    return node
