"""The bias lab's view (main thread, MicroPython): drive the worker, draw what it answers.

The worker (Pyodide, ``shufflelab.lab.service``) does every heavy step: shuffling,
counting, exact matrices, statistics and heat-map pixels. This module only awaits it
and puts the results on the page, so the main thread stays free while the tally runs.
Answers are read with ``shufflelab.lab.protocol``; the pixels stay a JavaScript array
all the way to the canvas.
"""

import asyncio
import math

import js
from pyscript import create_named_worker, document, window

from shufflelab.cards import standard_deck
from shufflelab.errors import quoted
from shufflelab.lab import protocol
from shufflelab.lab.protocol import CodeReady, ExactStatus, RiffleReport, Snapshot, TallyConfig
from shufflelab.link import field

from . import dom
from .dom import create, element, listen, one_line, set_text, show

CHUNK_MS = 200  # the worker answers about five times a second while running
EXACT_STEP_MS = 500  # a slow exact matrix: progress twice a second, and a change of algorithm heard as soon
RIFFLE_MAX_K = 12
SVG = "http://www.w3.org/2000/svg"
WORKER_SRC = "./py/worker.py"  # relative to the page, as every URL here (served under a sub-path)
WORKER_CONFIG = "./pyscript.toml"
# What the worker fetches first: if one can't be reached (offline, blocked), say so at once
# instead of letting PyScript fail inside the worker, where the page can't catch it.
WORKER_FILES = (WORKER_SRC, WORKER_CONFIG, "./static/vendor/pyodide/pyodide.mjs",
                "./static/vendor/pyodide/pyodide.asm.wasm", "./static/vendor/pyodide/python_stdlib.zip")
CHECK_SECONDS = 10  # the files above answer a HEAD request well within this, or something is wrong
SLOW_START_SECONDS = 10  # after this, say what is taking long (13 MB of Pyodide on a slow line)
START_LIMIT_SECONDS = 240  # a worker that has not started by now will not: offer Retry
STATUS = "lab-status"
WORKER_BUTTONS = ("lab-start", "lab-pause", "lab-reset", "custom-run")
# one call to the worker (a chunk of the tally, a matrix, the user's code compiling): a user's shuffle
# still running after this is stopped, with the worker, which starts again
CALL_LIMIT_SECONDS = 10


class WorkerStopped(protocol.ProtocolError):
    """A worker call that ran over CALL_LIMIT_SECONDS: the worker was terminated and a new one is starting."""


def spawn(coroutine):
    """Run a coroutine in the background; a failure becomes one line in the lab status."""
    return dom.spawn(coroutine, STATUS)


async def check_worker_files() -> None:
    """Raise, naming the file, if one the worker needs cannot be fetched."""
    for url in WORKER_FILES:
        try:
            answer = await js.fetch(url, js.JSON.parse('{"method": "HEAD", "cache": "no-store"}'))
        except Exception:
            raise RuntimeError("%s could not be fetched" % url.rpartition("/")[2]) from None
        if not answer.ok:
            raise RuntimeError("%s answered %d" % (url.rpartition("/")[2], answer.status))


def progress_text(done: float, elapsed: float, left: float) -> str:
    """Say how far a slow exact matrix has got, and the time left at the pace seen so far."""
    return ("Computing the exact matrix: %d%% done in %d s, about %d s left (the tally shares the worker "
            "meanwhile)…" % (int(done * 100), elapsed, round(left)))


async def say_when_slow() -> None:
    """After a while, say what the worker is waiting for (it keeps going)."""
    await asyncio.sleep(SLOW_START_SECONDS)
    set_text(STATUS, "Still starting: the worker downloads Pyodide (about 13 MB, once; then it is cached)…")


def card_name(card_id: int, n: int) -> str:
    """Name a lab card: a playing card when n is 52, else its number."""
    return "card %d (%s)" % (card_id, standard_deck().card(card_id).label) if n == 52 else "card %d" % card_id


class Lab:
    """The lab's view of the page's link, its worker, and the latest snapshot it drew."""

    def __init__(self, page) -> None:
        self.page = page
        self.worker = None
        self.link = None
        self.config = None
        self.running = False
        self.generation = 0  # bumped on every reset: answers for an older tally are dropped
        self.latest = None
        self.matrix = None  # the exact matrix of the current configuration, when there is one
        self.riffle_n = None
        self.loop_task = None
        self.connecting = None
        self.resume_when_shown = False  # paused by hiding, not by the user
        self.pending_seconds = 0.0  # the estimate of a slow exact matrix not computed yet
        self.cursor = None  # (card, position) the arrow keys are on in the heat map
        self.worker_name = "lab"  # a worker stopped for running too long is replaced by "lab-2", "lab-3"…
        self.restarts = 0
        self.custom_active = False  # the tally runs the user's shuffle (registered in the worker), not the menu's
        self.custom_listeners = []  # told (with a one-line message) when the user's shuffle fails or is stopped

    # --- the page's link --------------------------------------------------------------

    def link_changed(self, link) -> None:
        """Follow the page's link: reconfigure when the tally's inputs change, redraw on a new view."""
        old, self.link = self.link, link
        view = link.view
        write_lab_form(view)
        if old is not None and (link.deal.algo, link.deal.params) != (old.deal.algo, old.deal.params):
            self.custom_active = False  # an algorithm chosen from the menu replaces the user's shuffle
        config = self.tally_config(link)
        if config != self.config:
            self.config = config
            spawn(self.reset())
        elif old is not None and old.view.heat != view.heat and not self.running:
            spawn(self.redraw())
        self.follow_visibility()
        if view.view == "lab" and self.connecting is None:
            # the worker is a second interpreter (Pyodide, about 13 MB): started on the first
            # visit to the lab, so a deal-only visit never loads it
            self.connecting = spawn(self.connect())
        if view.view == "lab" and self.worker is not None and self.riffle_n != view.lab_n:
            spawn(self.draw_riffle(view.lab_n))

    def tally_config(self, link) -> TallyConfig:
        """What the worker should tally for ``link``: the menu's algorithm, or the user's shuffle once it runs."""
        view = link.view
        algo, params = ("custom", []) if self.custom_active else (link.deal.algo, [list(p) for p in link.deal.params])
        return TallyConfig(algo, params, view.lab_n, view.tally_seed or None)

    # --- worker calls ---------------------------------------------------------------------

    async def ask(self, pending):
        """Return a worker call's answer; one that takes over CALL_LIMIT_SECONDS stops the worker and raises WorkerStopped."""

        async def answer():
            return await pending

        try:
            return await asyncio.wait_for(answer(), CALL_LIMIT_SECONDS)
        except asyncio.TimeoutError:  # noqa: UP041 (MicroPython's asyncio has its own)
            was_custom = self.custom_active
            self.stop_worker()
            raise WorkerStopped("%s ran over %d s without returning, so the worker was stopped; a new one is starting"
                                % ("your shuffle" if was_custom else "the worker", CALL_LIMIT_SECONDS)) from None

    def stop_worker(self) -> None:
        """Terminate the worker (the only way to stop code that never returns) and start a fresh one under a new name."""
        script = document.querySelector('script[name="%s"]' % self.worker_name)
        if script is not None:
            try:
                script.xworker.terminate()  # PyScript keeps the Worker on its <script>
            finally:
                script.remove()
        self.worker = None
        self.running = False
        self.custom_active = False
        self.config = None  # the new worker starts with the menu's algorithm
        self.generation += 1
        self.enable_buttons(False)
        self.restarts += 1
        self.worker_name = "lab-%d" % (self.restarts + 1)
        self.connecting = spawn(self.connect())

    def enable_buttons(self, enabled: bool) -> None:
        """Enable the buttons that need the worker, or disable them while there is none."""
        for name in WORKER_BUTTONS:
            element(name).disabled = not enabled

    async def use_code(self, source: str) -> None:
        """Register the user's shuffle in the worker and tally it (raises ProtocolError with the one-line reason)."""
        protocol.read(await self.ask(self.worker.use_code(source)), CodeReady)
        self.custom_active = True
        self.config = None  # new code under the same id: always a fresh tally
        self.page.update_view(code=source)  # the share link carries it (and link_changed reconfigures)
        self.start()

    async def connect(self) -> None:
        """Start the worker, then enable the lab's buttons; on failure say why and offer Retry."""
        element("lab-retry").hidden = True
        set_text(STATUS, "Starting the worker (Pyodide, a few seconds)…")
        try:
            await asyncio.wait_for(check_worker_files(), CHECK_SECONDS)
            starting = create_named_worker(src=WORKER_SRC, name=self.worker_name, config=WORKER_CONFIG)
            watch = asyncio.create_task(say_when_slow())
            try:
                self.worker = await asyncio.wait_for(starting, START_LIMIT_SECONDS)
            finally:
                watch.cancel()
        except Exception as error:
            reason = "it took too long" if isinstance(error, asyncio.TimeoutError) else one_line(error)
            set_text(STATUS, "The lab's worker could not start (%s). Check the connection, then Retry." % reason)
            element("lab-retry").hidden = False
            self.connecting = None  # so Retry, or the next visit to the lab, starts again
            return
        self.enable_buttons(True)
        if self.link is not None:
            self.config = self.tally_config(self.link)
        await self.reset()
        if self.link is not None and self.link.view.view == "lab":
            await self.draw_riffle(self.link.view.lab_n)

    async def reset(self) -> None:
        """Start a fresh tally for the current configuration (keeps running if it was)."""
        self.generation += 1
        if self.worker is None or self.config is None:
            return
        generation = self.generation
        set_text(STATUS, "Computing the exact matrix…")
        try:
            status = protocol.read(await self.ask(self.worker.configure(protocol.request(self.config))), ExactStatus)
        except protocol.ProtocolError as error:
            if isinstance(error, WorkerStopped) or self.custom_active:
                self.tell_custom(one_line(error))
            if self.worker is not None:
                self.show_exact_status(ExactStatus(False, None, str(error), None, 0.0))
                set_text(STATUS, "This tally cannot run: " + one_line(error))
            return
        if generation == self.generation:
            await self.show_configured(status)

    async def compute_exact(self) -> None:
        """Compute a slow exact matrix because the user asked for it: in steps, showing the progress, until it is
        there or the user moves on (another algorithm or n drops it)."""
        if self.worker is None:
            return
        generation = self.generation
        element("compute-exact").disabled = True
        first = None  # (page clock, fraction) at the first answer: the time left is measured on the page's clock
        try:
            while True:
                status = protocol.read(await self.ask(self.worker.exact_step(EXACT_STEP_MS)), ExactStatus)
                if generation != self.generation or status.progress is None:
                    break
                now = js.performance.now() / 1000
                if first is None or status.progress <= first[1]:
                    first = first or (now, status.progress)
                    left = status.pending_seconds
                else:
                    left = (now - first[0]) * (1 - status.progress) / (status.progress - first[1])
                set_text(STATUS, progress_text(status.progress, status.seconds, left))
        finally:
            element("compute-exact").disabled = False
        if generation == self.generation:
            await self.show_configured(status)

    async def show_configured(self, status: ExactStatus) -> None:
        """Show the exact-matrix status and the current snapshot, then say the lab is ready."""
        self.show_exact_status(status)
        await self.redraw()
        set_text(STATUS, "Running…" if self.running else "Ready: press Start.")

    async def redraw(self) -> None:
        """Draw the current snapshot without running more shuffles."""
        if self.worker is None:
            return
        generation = self.generation
        snapshot = protocol.read(await self.ask(self.worker.snapshot(self.link.view.heat)), Snapshot)
        if generation == self.generation:
            self.draw(snapshot)

    async def run_loop(self) -> None:
        """While running, ask the worker for a chunk of shuffles and draw each answer."""
        try:
            while self.running:
                generation = self.generation
                snapshot = protocol.read(await self.ask(self.worker.run_for(CHUNK_MS, self.link.view.heat)), Snapshot)
                if generation == self.generation:
                    self.draw(snapshot)  # also the chunk that was under way when Pause came
        except protocol.ProtocolError as error:
            if not (self.custom_active or isinstance(error, WorkerStopped)):
                raise
            self.tell_custom(one_line(error))  # the user's shuffle failed: said beside their code
            set_text(STATUS, "Paused: your shuffle stopped (see the message under your code).")
            return
        finally:
            self.running = False  # after a failure too, so Start works again
        set_text(STATUS, "Paused.")

    def tell_custom(self, message: str) -> None:
        """Pass a one-line message about the user's shuffle to whoever shows it."""
        for listener in self.custom_listeners:
            listener(message)

    def retry(self) -> None:
        """Try to start the worker again after it failed."""
        if self.worker is None and self.connecting is None:
            self.connecting = spawn(self.connect())

    def start(self) -> None:
        """Run the tally until paused."""
        if self.worker is None or self.running:
            return
        self.running = True
        set_text(STATUS, "Running…")
        # a loop still awaiting the chunk under way at Pause sees running again and goes on:
        # a second loop would double the work and keep counting after the next Pause
        if self.loop_task is None or self.loop_task.done():
            self.loop_task = spawn(self.run_loop())

    def pause(self) -> None:
        """Stop after the chunk under way."""
        self.running = False
        self.resume_when_shown = False

    def follow_visibility(self) -> None:
        """Pause while the lab is not on screen (another tab of the page, or the browser tab hidden); resume after."""
        shown = self.link is not None and self.link.view.view == "lab" and not document.hidden
        if not shown and self.running:
            self.running = False
            self.resume_when_shown = True
            set_text(STATUS, "Paused while the lab is out of sight; it carries on when you come back.")
        elif shown and self.resume_when_shown:
            self.resume_when_shown = False
            self.start()

    # --- drawing -------------------------------------------------------------------------

    def draw(self, snapshot: Snapshot) -> None:
        """Put one worker snapshot on the page."""
        self.latest = snapshot
        set_text("trials", str(snapshot.trials))
        set_text("rate", f"{round(snapshot.rate):,}" if snapshot.trials else "–")
        if snapshot.memory:
            set_text("worker-memory", "%.1f" % (snapshot.memory / 1e6))
            show("worker-memory-line", True)
        draw_heatmap(snapshot)
        set_text("heat-summary", snapshot.summary.get("heat_summary", ""))
        draw_legend(snapshot.legend)
        draw_stats(snapshot.summary)
        draw_fixed_points(snapshot.summary.get("fixed_points"))

    def show_exact_status(self, status: ExactStatus) -> None:
        """Say whether the exact views exist, and what the exact matrix cost or would cost."""
        self.matrix = status.matrix
        self.pending_seconds = status.pending_seconds
        element("compute-exact").hidden = not status.pending_seconds
        if status.available:
            set_text("exact-note", "Exact matrix computed in %.0f ms." % (status.seconds * 1000))
        elif status.pending_seconds:
            set_text("exact-note", "The exact matrix takes about %.0f s more here (timed on its first steps), "
                     "and slows the tally meanwhile:" % status.pending_seconds)
        else:
            set_text("exact-note", "No exact matrix: " + status.reason)
        for view in ("exact", "difference"):
            radio = document.querySelector('input[name="heat"][value="%s"]' % view)
            radio.disabled = not status.available
        if not status.available and self.link is not None and self.link.view.heat != "observed":
            self.page.update_view(heat="observed")  # the only view there is: say so in the form and the link

    async def draw_riffle(self, n: int) -> None:
        """Draw the exact riffle distances for n cards."""
        if self.worker is None:
            return
        self.riffle_n = n
        report = protocol.read(await self.ask(self.worker.riffle(n, RIFFLE_MAX_K)), RiffleReport)
        if self.riffle_n == n:
            draw_riffle_chart(report)

    def describe_cell(self, row: int, column: int) -> str:
        """Return the tooltip text for one heat-map cell."""
        snapshot = self.latest
        n, trials = snapshot.n, snapshot.trials
        count = snapshot.count_at(row, column)
        observed = count / trials if trials else 0.0
        parts = ["%s at position %d" % (card_name(row, n), column), f"count {count:,} of {trials:,}",
                 f"observed {observed:.4%}", f"uniform {1 / n:.4%}"]
        if self.matrix is not None and len(self.matrix) == n:
            parts.append(f"exact {self.matrix[row][column]:.4%}")
        return " · ".join(parts)


# --- drawing helpers ---------------------------------------------------------------------


def draw_heatmap(snapshot: Snapshot) -> None:
    """Paint the worker's RGBA pixels, one per cell, onto the canvas (they stay a JavaScript array)."""
    n = snapshot.n
    canvas = element("heatmap")
    if canvas.getAttribute("data-n") != str(n):  # the first draw too: the canvas starts 52 wide, unlabelled
        canvas.width = n
        canvas.height = n
        canvas.setAttribute("data-n", str(n))
        draw_ticks(n)
    pixels = snapshot.pixels
    clamped = js.Uint8ClampedArray.new(pixels.buffer, pixels.byteOffset, pixels.length)
    canvas.getContext("2d").putImageData(window.ImageData.new(clamped, n, n), 0, 0)


def draw_ticks(n: int) -> None:
    """Label every 13th position and card (every quarter when n is not 52)."""
    step = 13 if n % 13 == 0 and n >= 26 else max(1, n // 4)
    ticks = [((k + 0.5) / n, str(k)) for k in range(0, n, step)]
    for container_id in ("heat-ticks-x", "heat-ticks-y"):
        place_ticks(container_id, ticks)


def draw_legend(ticks: list) -> None:
    """Write the legend's tick labels under the colour bar (scores run from -1 to 1)."""
    place_ticks("heat-legend-ticks", [((score + 1) / 2, text) for score, text in ticks])


def place_ticks(container_id: str, ticks: list) -> None:
    """Replace a scale's labels: each (fraction along it, text) a span the CSS places by --at."""
    container = element(container_id)
    container.replaceChildren()
    for at, text in ticks:
        tick = create("span", text)
        tick.style.setProperty("--at", "%.4f" % at)
        container.appendChild(tick)


def draw_stats(summary: dict) -> None:
    """Show the verdict sentence and the figures behind it."""
    verdict = element("verdict")
    verdict.dataset.verdict = summary["verdict"]
    verdict.textContent = summary["sentence"]
    rows = element("stats")
    rows.replaceChildren()
    for label, value in summary["figures"]:
        rows.append(create("dt", label), create("dd", value))


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


def draw_fixed_points(histogram) -> None:
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
    for k in range(len(labels)):
        x = left + k * slot
        for offset, share, kind in ((0.12, observed[k], "observed"), (0.5, expected[k], "expected")):
            bar_height = (height - bottom - 8) * share / top
            chart.append(svg("rect", x=round(x + offset * slot, 1), y=round(height - bottom - bar_height, 1),
                             width=round(slot * 0.38, 1), height=round(bar_height, 1), class_="bar " + kind))
        chart.append(svg_text(x + slot / 2, height - 8, labels[k], class_="tick", text_anchor="middle"))
    chart.append(svg_text(left - 4, 12, f"{top:.0%}", class_="tick", text_anchor="end"))
    set_text("fixed-verdict", histogram["sentence"])


def draw_riffle_chart(report: RiffleReport) -> None:
    """Draw TV distance against k, and fill the table beside it."""
    chart = element("riffle-chart")
    chart.replaceChildren()
    distances = report.tv
    width, height, left, bottom, top = 480, 220, 40, 28, 10
    plot_w, plot_h = width - left - 10, height - bottom - top

    def at(k: int, d: float) -> tuple:
        return left + (k - 1) * plot_w / (len(distances) - 1), top + (1 - d) * plot_h

    for d in (0.0, 0.25, 0.5, 0.75, 1.0):
        _, y = at(1, d)
        chart.append(svg("line", x1=left, y1=round(y, 1), x2=width - 10, y2=round(y, 1), class_="grid"))
        chart.append(svg_text(left - 5, y + 4, f"{d:g}", class_="tick", text_anchor="end"))
    points = " ".join("%.1f,%.1f" % at(k, d) for k, d in enumerate(distances, 1))
    chart.append(svg("polyline", points=points, class_="line"))
    for k, d in enumerate(distances, 1):
        x, y = at(k, d)
        chart.append(svg("circle", cx=round(x, 1), cy=round(y, 1), r=3, class_="dot"))
        chart.append(svg_text(x, height - 10, str(k), class_="tick", text_anchor="middle"))
    for k, d in enumerate(report.measured or (), 1):
        x, y = at(k, d)
        chart.append(svg("rect", x=round(x - 3, 1), y=round(y - 3, 1), width=6, height=6, class_="measured"))
    # top right: the curve starts high on the left and ends low on the right, so this is clear
    chart.append(svg_text(width - 10, top + 12, "k riffles →", class_="tick", text_anchor="end"))
    chart.dataset.n = str(report.n)
    table = element("riffle-table")
    table.replaceChildren()
    head, body = create("tr"), create("tr")
    for k, d in enumerate(distances, 1):
        head.appendChild(create("th", "k=%d" % k))
        body.appendChild(create("td", "%.3f" % d))
    table.append(head, body)
    if report.measured:
        measured = create("tr", None, "measured-row")
        for d in report.measured:
            measured.appendChild(create("td", "%.3f" % d))
        table.appendChild(measured)
    set_text("riffle-note", riffle_note(report))


def riffle_note(report: RiffleReport) -> str:
    """Say what the chart shows: exact distances, and measured ones where there are any."""
    if not report.measured:
        return ("Line: exact distance for %d cards. Measuring it needs far more than the %d! orders in "
                "samples, so it is measured only for decks of up to 5 cards." % (report.n, report.n))
    noise = 0.4 * (math.factorial(report.n) / report.measured_trials) ** 0.5
    return (f"Line and first row: exact. Squares and second row: measured from {report.measured_trials:,} sampled decks per k "
            f"(sampling noise adds about {noise:.2f}).")


def write_lab_form(view) -> None:
    """Make the lab's own controls show the view."""
    element("lab-n").value = str(view.lab_n)
    element("tally-seed").value = view.tally_seed
    for radio in document.querySelectorAll('input[name="heat"]'):
        radio.checked = radio.value == view.heat


# --- wiring ------------------------------------------------------------------------------


def mount(page) -> Lab:
    """Create the lab, subscribe it to the page's link and wire its controls (the worker starts on the first visit)."""
    lab = Lab(page)
    page.listeners.append(lab.link_changed)

    def on(element_id: str, event: str, handler) -> None:
        listen(element_id, event, handler, STATUS)

    on("lab-start", "click", lambda event: lab.start())
    on("lab-pause", "click", lambda event: lab.pause())
    on("lab-reset", "click", lambda event: spawn(lab.reset()))
    on("compute-exact", "click", lambda event: spawn(lab.compute_exact()))
    on("lab-retry", "click", lambda event: lab.retry())
    listen(js.document, "visibilitychange", lambda event: lab.follow_visibility(), STATUS)
    on("lab-n", "change", lambda event: change_lab_field(page, "n", "lab_n", str(event.target.value)))
    on("tally-seed", "change", lambda event: change_lab_field(page, "tseed", "tally_seed", str(event.target.value)))
    for radio in document.querySelectorAll('input[name="heat"]'):
        listen(radio, "change", lambda event: page.update_view(heat=str(event.target.value)), STATUS)
    on("heatmap", "mousemove", lambda event: show_tooltip(lab, event))
    on("heatmap", "click", lambda event: show_tooltip(lab, event))  # a tap on a touch screen
    # a tap ends with the pointer "leaving": only a mouse that leaves hides the tooltip
    on("heatmap", "pointerleave", lambda event: hide_tooltip() if str(event.pointerType) == "mouse" else None)
    on("heatmap", "keydown", lambda event: move_cell_cursor(lab, event))
    on("heatmap", "blur", lambda event: hide_tooltip())
    from . import custom_view  # it uses this module's spawn: imported once this module is whole

    custom_view.mount(page, lab)
    return lab


def change_lab_field(page, key: str, attribute: str, text: str) -> None:
    """Use a lab field's typed text if the field table accepts it, as a link would; otherwise name it and keep the
    view's ``attribute``."""
    entry = field(key)
    value, notice = entry.read(text, {}, None)
    if notice is not None:
        kept = getattr(page.link.view, attribute)
        shown = str(kept) if not isinstance(kept, str) else (quoted(kept) if kept else "none")
        set_text(STATUS, "%s; kept %s." % (notice.text.split(";")[0], shown))
        element(entry.control).value = str(kept)
        return
    page.update_view(**{attribute: value})


def show_tooltip(lab: Lab, event) -> None:
    """Show card, position, count and probabilities for the cell under the pointer."""
    if lab.latest is None:
        return
    canvas = event.currentTarget
    n = lab.latest.n
    box = canvas.getBoundingClientRect()
    column = min(n - 1, max(0, int((event.clientX - box.left) / box.width * n)))
    row = min(n - 1, max(0, int((event.clientY - box.top) / box.height * n)))
    tooltip = element("heat-tooltip")
    tooltip.textContent = lab.describe_cell(row, column)
    tooltip.style.left = "%dpx" % (event.clientX - box.left + 12)
    tooltip.style.top = "%dpx" % (event.clientY - box.top + 12)
    tooltip.hidden = False


CURSOR_KEYS = {"ArrowUp": (-1, 0), "ArrowDown": (1, 0), "ArrowLeft": (0, -1), "ArrowRight": (0, 1)}


def move_cell_cursor(lab: Lab, event) -> None:
    """Arrow keys walk the heat map cell by cell; the cell is shown in the tooltip and read aloud."""
    key = str(event.key)
    if lab.latest is None or key not in CURSOR_KEYS:
        return
    event.preventDefault()
    n = lab.latest.n
    row, column = lab.cursor if lab.cursor is not None else (-1, 0)
    step_row, step_column = CURSOR_KEYS[key]
    lab.cursor = (min(n - 1, max(0, row + step_row)), min(n - 1, max(0, column + step_column)))
    text = lab.describe_cell(*lab.cursor)
    tooltip = element("heat-tooltip")
    tooltip.textContent = text
    box = element("heatmap").getBoundingClientRect()
    tooltip.style.left = "%dpx" % int((lab.cursor[1] + 1) * box.width / n + 12)
    tooltip.style.top = "%dpx" % int((lab.cursor[0] + 1) * box.height / n + 12)
    tooltip.hidden = False
    set_text("heat-cell", text)


def hide_tooltip() -> None:
    """Hide the heat-map tooltip."""
    element("heat-tooltip").hidden = True
