"""Page glue for the bias lab (main thread): drive the worker, draw what it returns.

The worker does every heavy step (shuffling, counting, exact matrices, statistics,
heat-map pixels); this module only awaits it and puts the results on the page, so the
main thread stays free while the tally runs.
"""

import asyncio
import base64
import json
import math

from pyodide.ffi import create_proxy, to_js
from pyscript import create_named_worker, document, window

from shufflelab.cards import standard_deck
from shufflelab.share import LAB_MAX_N, LAB_MIN_N, MAX_TALLY_SEED_LENGTH, valid_tally_seed

CHUNK_MS = 200  # the worker answers about five times a second while running
RIFFLE_MAX_K = 12
SVG = "http://www.w3.org/2000/svg"
WORKER_SRC = "./py/worker.py"  # relative to the page, as every URL here (served under a sub-path)
CONFIG = "./pyscript.toml"


def element(element_id: str):
    """Return the element with this id."""
    return document.getElementById(element_id)


def set_text(element_id: str, text: str) -> None:
    """Set an element's text (never parsed as HTML)."""
    element(element_id).textContent = text


def failure_line(error: Exception) -> str:
    """Return one line about a failure: the last line of its text (a worker's error carries its traceback)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return (lines[-1] if lines else type(error).__name__)[:200]


def spawn(coroutine) -> asyncio.Future:
    """Run a coroutine in the background; a failure becomes one line in the lab status, not a traceback."""
    async def guarded():
        try:
            return await coroutine
        except Exception as error:
            set_text("lab-status", f"Something went wrong: {failure_line(error)}")

    return asyncio.ensure_future(guarded())


def parse_snapshot(text: str) -> dict:
    """Read a worker snapshot: the browser's JSON parser takes the n × n counts, Python only the small parts.

    The counts are read only for a tooltip, so they stay a JavaScript array: parsing them
    into Python objects several times a second is what could block the main thread at n = 128.
    """
    snapshot = window.JSON.parse(text)
    data = {key: getattr(snapshot, key) for key in ("n", "trials", "rate", "pixels")}
    data["legend"] = snapshot.legend.to_py()
    data["stats"] = snapshot.stats.to_py()
    data["counts"] = snapshot.counts
    return data


def card_name(card_id: int, n: int) -> str:
    """Name a lab card: a playing card when n is 52, else its number."""
    return f"card {card_id} ({standard_deck().card(card_id).label})" if n == 52 else f"card {card_id}"


class Lab:
    """The lab's view of the page state, its worker, and the latest snapshot it drew."""

    def __init__(self, update_state) -> None:
        self.update_state = update_state
        self.worker = None
        self.state = None
        self.config = None
        self.running = False
        self.generation = 0  # bumped on every reset: answers for an older tally are dropped
        self.latest = None
        self.matrix = None  # the exact matrix of the current configuration, when there is one
        self.riffle_n = None
        self.loop_task = None
        self.connecting = None

    # --- state from the page -----------------------------------------------------------

    def state_changed(self, state) -> None:
        """Follow the page state: reconfigure when the tally's inputs change, redraw on view."""
        old, self.state = self.state, state
        write_lab_form(state)
        config = {"algo": state.algo, "params": state.resolved_params(), "n": state.lab_n,
                  "seed": state.tally_seed or None}
        if config != self.config:
            self.config = config
            spawn(self.reset())
        elif old is not None and old.heat != state.heat and not self.running:
            spawn(self.redraw())
        if state.view == "lab" and self.connecting is None:
            # the worker is a second Pyodide: started on the first visit to the lab, so a
            # deal-only visit loads one interpreter, not two on a two-core machine
            self.connecting = spawn(self.connect())
        if state.view == "lab" and self.worker is not None and self.riffle_n != state.lab_n:
            spawn(self.draw_riffle(state.lab_n))

    # --- worker calls ---------------------------------------------------------------------

    async def connect(self) -> None:
        """Start the worker, then enable the lab's buttons; say so in one line if it fails."""
        set_text("lab-status", "Starting the worker (a second Python, a few seconds)…")
        try:
            self.worker = await create_named_worker(src=WORKER_SRC, name="lab", config=CONFIG)
        except Exception as error:  # one line in the lab, never a traceback
            set_text("lab-status", f"The bias lab's worker could not start: {failure_line(error)}")
            return
        for name in ("lab-start", "lab-pause", "lab-reset"):
            element(name).disabled = False
        await self.reset()
        if self.state is not None and self.state.view == "lab":
            await self.draw_riffle(self.state.lab_n)

    async def reset(self) -> None:
        """Start a fresh tally for the current configuration (keeps running if it was)."""
        self.generation += 1
        if self.worker is None or self.config is None:
            return
        generation = self.generation
        set_text("lab-status", "Computing the exact matrix…")
        status = json.loads(await self.worker.configure(json.dumps(self.config)))
        if generation == self.generation:
            await self.show_configured(status)

    async def compute_exact(self) -> None:
        """Compute a slow exact matrix because the user asked for it."""
        if self.worker is None:
            return
        generation = self.generation
        element("compute-exact").disabled = True
        set_text("lab-status", "Computing the exact matrix…")
        status = json.loads(await self.worker.compute_exact())
        element("compute-exact").disabled = False
        if generation == self.generation:
            await self.show_configured(status)

    async def show_configured(self, status: dict) -> None:
        """Show the exact-matrix status and the current snapshot, then say the lab is ready."""
        self.show_exact_status(status)
        await self.redraw()
        set_text("lab-status", "Running…" if self.running else "Ready: press Start.")

    async def redraw(self) -> None:
        """Draw the current snapshot without running more shuffles."""
        if self.worker is None:
            return
        generation = self.generation
        data = parse_snapshot(await self.worker.snapshot(self.state.heat))
        if generation == self.generation:
            self.draw(data)

    async def run_loop(self) -> None:
        """While running, ask the worker for a chunk of shuffles and draw each answer."""
        try:
            while self.running:
                generation = self.generation
                data = parse_snapshot(await self.worker.run_for(CHUNK_MS, self.state.heat))
                if generation == self.generation:
                    self.draw(data)  # also the chunk that was under way when Pause came
        finally:
            self.running = False  # after a failure too, so Start works again
        set_text("lab-status", "Paused.")

    def start(self) -> None:
        """Run the tally until paused."""
        if self.worker is None or self.running:
            return
        self.running = True
        set_text("lab-status", "Running…")
        # a loop still awaiting the chunk under way at Pause sees running again and goes on:
        # a second loop would double the work and keep counting after the next Pause
        if self.loop_task is None or self.loop_task.done():
            self.loop_task = spawn(self.run_loop())

    def pause(self) -> None:
        """Stop after the chunk under way."""
        self.running = False

    # --- drawing -------------------------------------------------------------------------

    def draw(self, data: dict) -> None:
        """Put one worker snapshot on the page."""
        self.latest = data
        element("trials").textContent = str(data["trials"])
        set_text("rate", f"{round(data['rate']):,}" if data["trials"] else "–")
        draw_heatmap(data)
        draw_legend(data["legend"])
        draw_stats(data["stats"])
        draw_fixed_points(data["stats"].get("fixed_points"))

    def show_exact_status(self, status: dict) -> None:
        """Say whether the exact views exist, and what the exact matrix cost or would cost."""
        self.matrix = status["matrix"]
        element("compute-exact").hidden = not status["pending_seconds"]
        if status["available"]:
            set_text("exact-note", f"Exact matrix computed in {status['seconds'] * 1000:.0f} ms.")
        elif status["pending_seconds"]:
            set_text("exact-note", f"The exact matrix takes about {status['pending_seconds']:.0f} s here, "
                                   "and the tally waits meanwhile:")
        else:
            set_text("exact-note", f"No exact matrix for this algorithm: {status['reason']}")
        for view in ("exact", "difference"):
            radio = document.querySelector(f'input[name="heat"][value="{view}"]')
            radio.disabled = not status["available"]
        if not status["available"] and self.state is not None and self.state.heat != "observed":
            self.update_state(heat="observed")  # the only view there is: say so in the form and the link

    async def draw_riffle(self, n: int) -> None:
        """Draw the exact riffle distances for n cards."""
        if self.worker is None:
            return
        self.riffle_n = n
        data = json.loads(await self.worker.riffle(n, RIFFLE_MAX_K))
        if self.riffle_n == n:
            draw_riffle_chart(data)

    def describe_cell(self, row: int, column: int) -> str:
        """Return the tooltip text for one heat-map cell."""
        data = self.latest
        n, trials = data["n"], data["trials"]
        count = data["counts"][row][column]
        observed = count / trials if trials else 0.0
        parts = [f"{card_name(row, n)} at position {column}", f"count {count:,} of {trials:,}",
                 f"observed {observed:.4%}", f"uniform {1 / n:.4%}"]
        if self.matrix is not None and len(self.matrix) == n:
            parts.append(f"exact {self.matrix[row][column]:.4%}")
        return " · ".join(parts)


# --- drawing helpers ---------------------------------------------------------------------


def draw_heatmap(data: dict) -> None:
    """Paint the worker's RGBA pixels, one per cell, onto the canvas."""
    n = data["n"]
    canvas = element("heatmap")
    if canvas.getAttribute("data-n") != str(n):  # the first draw too: the canvas starts 52 wide, unlabelled
        canvas.width = n
        canvas.height = n
        canvas.setAttribute("data-n", str(n))
        draw_ticks(n)
    pixels = to_js(base64.b64decode(data["pixels"]))
    image = window.ImageData.new(window.Uint8ClampedArray.new(pixels.buffer), n, n)
    canvas.getContext("2d").putImageData(image, 0, 0)


def draw_ticks(n: int) -> None:
    """Label every 13th position and card (every quarter when n is not 52)."""
    step = 13 if n % 13 == 0 and n >= 26 else max(1, n // 4)
    for container_id in ("heat-ticks-x", "heat-ticks-y"):
        container = element(container_id)
        container.replaceChildren()
        for k in range(0, n, step):
            tick = document.createElement("span")
            tick.textContent = str(k)
            tick.style.setProperty("--at", f"{(k + 0.5) / n:.4f}")
            container.appendChild(tick)


def draw_legend(ticks: list) -> None:
    """Write the legend's tick labels under the colour bar."""
    container = element("heat-legend-ticks")
    container.replaceChildren()
    for score, text in ticks:
        tick = document.createElement("span")
        tick.textContent = text
        tick.style.setProperty("--at", f"{(score + 1) / 2:.3f}")
        container.appendChild(tick)


def draw_stats(summary: dict) -> None:
    """Show the verdict sentence and the figures behind it."""
    verdict = element("verdict")
    verdict.dataset.verdict = summary["verdict"]
    verdict.textContent = summary["sentence"]
    rows = element("stats")
    rows.replaceChildren()
    for label, value in summary["figures"]:
        term = document.createElement("dt")
        term.textContent = label
        detail = document.createElement("dd")
        detail.textContent = value
        rows.append(term, detail)


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


def draw_fixed_points(histogram: dict | None) -> None:
    """Draw observed against fair shares of shuffles with k fixed points, k = 0, 1, …"""
    chart = element("fixed-points")
    chart.replaceChildren()
    if not histogram or not histogram["labels"]:
        set_text("fixed-verdict", "")
        return
    labels, observed, expected = histogram["labels"], histogram["observed"], histogram["expected"]
    top = max(max(observed), max(expected), 0.05)
    width, height, left, bottom = 480, 170, 34, 24
    slot = (width - left) / len(labels)
    chart.append(svg("line", x1=left, y1=height - bottom, x2=width, y2=height - bottom, class_="axis"))
    for k, (label, seen, fair) in enumerate(zip(labels, observed, expected)):
        x = left + k * slot
        for offset, share, kind in ((0.12, seen, "observed"), (0.5, fair, "expected")):
            bar_height = (height - bottom - 8) * share / top
            chart.append(svg("rect", x=round(x + offset * slot, 1), y=round(height - bottom - bar_height, 1),
                             width=round(slot * 0.38, 1), height=round(bar_height, 1), class_=f"bar {kind}"))
        chart.append(svg_text(x + slot / 2, height - 8, label, class_="tick", text_anchor="middle"))
    chart.append(svg_text(left - 4, 12, f"{top:.0%}", class_="tick", text_anchor="end"))
    set_text("fixed-verdict", histogram["sentence"])


def draw_riffle_chart(data: dict) -> None:
    """Draw TV distance against k, and fill the table beside it."""
    chart = element("riffle-chart")
    chart.replaceChildren()
    distances = data["tv"]
    width, height, left, bottom, top = 480, 220, 40, 28, 10
    plot_w, plot_h = width - left - 10, height - bottom - top

    def at(k: int, d: float) -> tuple[float, float]:
        return left + (k - 1) * plot_w / (len(distances) - 1), top + (1 - d) * plot_h

    for d in (0.0, 0.25, 0.5, 0.75, 1.0):
        _, y = at(1, d)
        chart.append(svg("line", x1=left, y1=round(y, 1), x2=width - 10, y2=round(y, 1), class_="grid"))
        chart.append(svg_text(left - 5, y + 4, f"{d:g}", class_="tick", text_anchor="end"))
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (at(k, d) for k, d in enumerate(distances, start=1)))
    chart.append(svg("polyline", points=points, class_="line"))
    for k, d in enumerate(distances, start=1):
        x, y = at(k, d)
        chart.append(svg("circle", cx=round(x, 1), cy=round(y, 1), r=3, class_="dot"))
        chart.append(svg_text(x, height - 10, str(k), class_="tick", text_anchor="middle"))
    for k, d in enumerate(data.get("measured", ()), start=1):
        x, y = at(k, d)
        chart.append(svg("rect", x=round(x - 3, 1), y=round(y - 3, 1), width=6, height=6, class_="measured"))
    # top right: the curve starts high on the left and ends low on the right, so this is clear
    chart.append(svg_text(width - 10, top + 12, "k riffles →", class_="tick", text_anchor="end"))
    chart.dataset.n = str(data["n"])
    table = element("riffle-table")
    table.replaceChildren()
    head, body = document.createElement("tr"), document.createElement("tr")
    for k, d in enumerate(distances, start=1):
        cell = document.createElement("th")
        cell.textContent = f"k={k}"
        head.appendChild(cell)
        value = document.createElement("td")
        value.textContent = f"{d:.3f}"
        body.appendChild(value)
    table.append(head, body)
    if "measured" in data:
        measured = document.createElement("tr")
        measured.className = "measured-row"
        for d in data["measured"]:
            value = document.createElement("td")
            value.textContent = f"{d:.3f}"
            measured.appendChild(value)
        table.appendChild(measured)
    set_text("riffle-note", riffle_note(data))


def riffle_note(data: dict) -> str:
    """Say what the chart shows: exact distances, and measured ones where there are any."""
    if "measured" not in data:
        return (f"Line: exact distance for {data['n']} cards. Measuring it needs far more than the "
                f"{data['n']}! orders in samples, so it is measured only for decks of up to 5 cards.")
    return (f"Line and first row: exact. Squares and second row: measured from "
            f"{data['measured_trials']:,} sampled decks per k (sampling noise adds about "
            f"{0.4 * (math.factorial(data['n']) / data['measured_trials']) ** 0.5:.2f}).")


def write_lab_form(state) -> None:
    """Make the lab's own controls show the state."""
    element("lab-n").value = str(state.lab_n)
    element("tally-seed").value = state.tally_seed
    for radio in document.querySelectorAll('input[name="heat"]'):
        radio.checked = radio.value == state.heat


# --- wiring ------------------------------------------------------------------------------


def mount(page) -> Lab:
    """Create the lab, subscribe it to the page state, wire its controls, start the worker."""
    lab = Lab(page.update)
    page.listeners.append(lab.state_changed)

    def on(element_id: str, event: str, handler) -> None:
        element(element_id).addEventListener(event, create_handler(handler))

    def create_handler(handler):
        def guarded(event):
            try:
                handler(event)
            except Exception as error:  # one line in the lab status, never a traceback
                set_text("lab-status", f"Something went wrong: {failure_line(error)}")

        return create_proxy(guarded)

    on("lab-start", "click", lambda event: lab.start())
    on("lab-pause", "click", lambda event: lab.pause())
    on("lab-reset", "click", lambda event: spawn(lab.reset()))
    on("compute-exact", "click", lambda event: spawn(lab.compute_exact()))
    on("lab-n", "change", lambda event: change_n(page, event.target.value))
    on("tally-seed", "change", lambda event: change_tally_seed(page, event.target.value))
    for radio in document.querySelectorAll('input[name="heat"]'):
        radio.addEventListener("change", create_handler(lambda event: page.update(heat=event.target.value)))
    element("heatmap").addEventListener("mousemove", create_handler(lambda event: show_tooltip(lab, event)))
    element("heatmap").addEventListener("mouseleave", create_handler(lambda event: hide_tooltip()))
    return lab


def change_n(page, text: str) -> None:
    """Use the typed n if it is a whole number in range; otherwise say so and keep the old one."""
    value = int(text) if text.strip().isdigit() and len(text.strip()) < 6 else None
    if value is None or not LAB_MIN_N <= value <= LAB_MAX_N:
        set_text("lab-status", f"n must be a whole number from {LAB_MIN_N} to {LAB_MAX_N}; kept {page.state.lab_n}.")
        element("lab-n").value = str(page.state.lab_n)
        return
    page.update(lab_n=value)


def change_tally_seed(page, text: str) -> None:
    """Use the typed tally seed if it is printable text of at most 64 characters; otherwise say so."""
    text = text.strip()
    if not valid_tally_seed(text):
        set_text("lab-status", f"A tally seed is printable text of at most {MAX_TALLY_SEED_LENGTH} characters; "
                               f"kept {page.state.tally_seed or 'none'}.")
        element("tally-seed").value = page.state.tally_seed
        return
    page.update(tally_seed=text)


def show_tooltip(lab: Lab, event) -> None:
    """Show card, position, count and probabilities for the cell under the pointer."""
    if lab.latest is None:
        return
    canvas = event.currentTarget
    n = lab.latest["n"]
    box = canvas.getBoundingClientRect()
    column = min(n - 1, max(0, int((event.clientX - box.left) / box.width * n)))
    row = min(n - 1, max(0, int((event.clientY - box.top) / box.height * n)))
    tooltip = element("heat-tooltip")
    tooltip.textContent = lab.describe_cell(row, column)
    tooltip.style.left = f"{event.clientX - box.left + 12}px"
    tooltip.style.top = f"{event.clientY - box.top + 12}px"
    tooltip.hidden = False


def hide_tooltip() -> None:
    """Hide the heat-map tooltip."""
    element("heat-tooltip").hidden = True
