"""The lab's own form (main thread, MicroPython): its fields shown from the view, typed values read through the link's
field table, "Compare with" built from the catalog, and the lab's Copy link and Share.
"""

import json

import js
from pyscript import document

from shufflelab import catalog
from shufflelab.errors import quoted
from shufflelab.link import FIELDS, compared_ids, field

from . import app, deal_view, lab_status
from .dom import create, element, number_row, one_line, set_text


def write_lab_form(view) -> None:
    """Make the lab's own controls show the view (the compared algorithm's parameters only where they apply)."""
    element("lab-n").value = str(view.lab_n)
    element("tally-seed").value = view.tally_seed
    element("vs").value = view.compare
    given = dict(view.compare_params)
    for entry in compared_param_fields():
        name = entry.key[len("vs-"):]
        element(entry.control + "-row").hidden = name not in given
        if name in given:
            element(entry.control).value = str(given[name])
    for radio in document.querySelectorAll('input[name="heat"]'):
        radio.checked = radio.value == view.heat


def compared_param_fields() -> list:
    """Return the field table's fields for the compared algorithm's parameters."""
    return [entry for entry in FIELDS if entry.key.startswith("vs-")]


def build_compare_form() -> None:
    """Fill "Compare with" from the catalog (built-ins: a user's shuffle is compared by running it) and add a row per
    parameter, from the field table."""
    menu = element("vs")
    for algorithm_id in compared_ids()[1:]:
        option = create("option", catalog.get(algorithm_id).name)
        option.value = algorithm_id
        menu.appendChild(option)
    rows = element("vs-params")
    for entry in compared_param_fields():
        rows.appendChild(number_row(entry.control, entry.label, "vs-param-row"))


def change_compared_param(page, control: str, text: str) -> None:
    """Use a typed parameter of the compared algorithm if the field table accepts it; otherwise name it and keep it."""
    key = control.replace("param-", "", 1)  # "vs-param-passes" is the control of "vs-passes"
    name = key[len("vs-"):]
    given = dict(page.link.view.compare_params)
    value = read_lab_field(key, text, given[name])
    if value is not None:
        given[name] = value
        page.update_view(compare_params=[(p, given[p]) for p, _ in page.link.view.compare_params])
    app.keep_press_in_place()  # a refused value's status line may have moved the button pressed, too


def read_lab_field(key: str, text: str, kept):
    """Return a lab field's typed value if the field table accepts it, as a link would; otherwise say so, put ``kept``
    back in the field and return None."""
    entry = field(key)
    value, notice = entry.read(text, {}, None)
    if notice is None:
        return value
    shown = str(kept) if not isinstance(kept, str) else (quoted(kept) if kept else "none")
    lab_status.notify("%s; kept %s." % (notice.text.split(";")[0], shown))
    element(entry.control).value = str(kept)
    return None


def change_lab_field(page, key: str, attribute: str, text: str) -> None:
    """Use a lab field's typed text for the view's ``attribute`` if the field table accepts it; otherwise keep it."""
    value = read_lab_field(key, text, getattr(page.link.view, attribute))
    if value is not None:
        page.update_view(**{attribute: value})
    app.keep_press_in_place()  # the press that left the field (Start, Copy link) lands where it was pressed


async def copy_lab_link() -> None:
    """Copy the lab's link as the deal view's Copy link does (the same path: the public link on a sealed deal)."""
    await app.copy_link(None, "lab-copy-status")


async def share_lab(page) -> None:
    """Hand the lab's link (the public one on a sealed deal) to the browser's share sheet; a cancelled share says
    nothing, a failed one says so in one line."""
    url = str(element(deal_view.copy_source(page.link, page.sealing())).value)
    data = js.JSON.parse(json.dumps({"title": "Shuffle Lab: bias lab", "url": url}))
    try:
        await js.navigator.share(data)
    except Exception as error:
        if "AbortError" not in str(error):  # the user closed the share sheet
            set_text("lab-copy-status", "Sharing failed: " + one_line(error))
