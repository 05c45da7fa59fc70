"""The heat map's key and its cells read aloud (main thread, MicroPython): the legend's scale and words, and the
tooltip that a pointer, a tap or the arrow keys show for one cell.
"""

import js

from .dom import create, element, listen, set_text, show
from .lab_model import STATUS, Side


def draw_legend(ticks: list, key) -> None:
    """Write the legend's tick labels under the colour bar (scores run from -1 to 1), and what its colours mean in the
    view drawn (``key``: [title, words], from the worker)."""
    place_ticks("heat-legend-ticks", [((score + 1) / 2, text) for score, text in ticks])
    if key:
        set_text("heat-key-title", str(key[0]) + ".")
        set_text("heat-key-text", str(key[1]))
    show("heat-key", bool(key))


def place_ticks(container_id: str, ticks: list) -> None:
    """Replace a scale's labels: each (fraction along it, text) a span the CSS places by --at."""
    container = element(container_id)
    container.replaceChildren()
    for at, text in ticks:
        tick = create("span", text)
        tick.style.setProperty("--at", "%.4f" % at)
        container.appendChild(tick)


def wire_heatmap(side: Side, describe_cell) -> None:
    """Show a cell's figures under the pointer, on a tap, and as the arrow keys move over a side's heat map
    (``describe_cell(side, row, column)`` gives its words)."""
    canvas = side.id("heatmap")

    def on(event_name: str, handler) -> None:
        listen(canvas, event_name, handler, STATUS)

    on("mousemove", lambda event: show_tooltip(side, event, describe_cell))
    on("click", lambda event: show_tooltip(side, event, describe_cell))  # a tap on a touch screen
    # a tap ends with the pointer "leaving": only a mouse that leaves hides the tooltip
    on("pointerleave", lambda event: hide_tooltip(side) if str(event.pointerType) == "mouse" else None)
    on("keydown", lambda event: move_cell_cursor(side, event, describe_cell))
    on("blur", lambda event: hide_tooltip(side))


def show_tooltip(side: Side, event, describe_cell) -> None:
    """Show card, position, count and probabilities for the cell under the pointer."""
    if side.latest is None:
        return
    canvas = event.currentTarget
    n = side.latest.n
    box = canvas.getBoundingClientRect()
    column = min(n - 1, max(0, int((event.clientX - box.left) / box.width * n)))
    row = min(n - 1, max(0, int((event.clientY - box.top) / box.height * n)))
    tooltip = element(side.id("heat-tooltip"))
    tooltip.textContent = describe_cell(side, row, column)
    place_tooltip(tooltip, event.clientX, event.clientY)


CURSOR_KEYS = {"ArrowUp": (-1, 0), "ArrowDown": (1, 0), "ArrowLeft": (0, -1), "ArrowRight": (0, 1)}


def move_cell_cursor(side: Side, event, describe_cell) -> None:
    """Arrow keys walk the heat map cell by cell; the cell is shown in the tooltip and read aloud."""
    key = str(event.key)
    if side.latest is None or key not in CURSOR_KEYS:
        return
    event.preventDefault()
    n = side.latest.n
    row, column = side.cursor if side.cursor is not None else (-1, 0)
    step_row, step_column = CURSOR_KEYS[key]
    side.cursor = (min(n - 1, max(0, row + step_row)), min(n - 1, max(0, column + step_column)))
    text = describe_cell(side, *side.cursor)
    tooltip = element(side.id("heat-tooltip"))
    tooltip.textContent = text
    box = element(side.id("heatmap")).getBoundingClientRect()
    place_tooltip(tooltip, box.left + (side.cursor[1] + 0.5) * box.width / n, box.top + (side.cursor[0] + 0.5) * box.height / n)
    set_text(side.id("heat-cell"), text)


TOOLTIP_GAP = 12  # px between the pointed cell and the tooltip
WINDOW_MARGIN = 8  # px the tooltip keeps from the window's edges


def place_tooltip(tooltip, x: float, y: float) -> None:
    """Show the tooltip beside the point (x, y) of the window, inside the window wherever the point is.

    Below and to the right of the point where it fits; else to its left, or above it; at worst pushed in
    from the edge (a phone is narrower than the tooltip's text). Positions are relative to its box.
    """
    tooltip.hidden = False
    size = tooltip.getBoundingClientRect()
    frame = tooltip.offsetParent.getBoundingClientRect()
    width, height = js.document.documentElement.clientWidth, js.window.innerHeight
    left = x + TOOLTIP_GAP
    if left + size.width > width - WINDOW_MARGIN:
        left = x - TOOLTIP_GAP - size.width
    left = max(WINDOW_MARGIN, min(left, width - WINDOW_MARGIN - size.width))
    top = y + TOOLTIP_GAP
    if top + size.height > height - WINDOW_MARGIN:
        top = y - TOOLTIP_GAP - size.height
    top = max(WINDOW_MARGIN, min(top, height - WINDOW_MARGIN - size.height))
    tooltip.style.left = "%dpx" % int(left - frame.left)
    tooltip.style.top = "%dpx" % int(top - frame.top)


def hide_tooltip(side: Side) -> None:
    """Hide a side's heat-map tooltip."""
    element(side.id("heat-tooltip")).hidden = True
