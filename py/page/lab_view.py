"""The bias lab's view (main thread, MicroPython): drive the worker, draw what it answers.

The worker (Pyodide, ``shufflelab.lab.service``) does every heavy step: shuffling,
counting, exact matrices, statistics and heat-map pixels. This module only awaits it
and puts the results on the page, so the main thread stays free while the tally runs.
Answers are read with ``shufflelab.lab.protocol``; the pixels stay a JavaScript array
all the way to the canvas.
"""

import asyncio
import json

import js
from pyscript import document, window
from pyscript.ffi import create_proxy

from shufflelab import catalog
from shufflelab.catalog import CUSTOM_ID
from shufflelab.errors import quoted
from shufflelab.lab import protocol
from shufflelab.lab.protocol import CodeReady, ExactStatus, RiffleReport, Snapshot
from shufflelab.link import FIELDS, compared_ids, field

from . import dom
from .dom import create, element, listen, number_row, one_line, set_text, show
from .lab_model import (
    LabModel,
    ProgressClock,
    Side,
    card_name,
    distance_text,
    model_text,
    progress_text,
    sampling_noise,
    start_progress,
)
from .workers import BuiltinsWorker, CallDropped, Sandbox, SandboxStopped, WorkerStopped, fetched_so_far, save_data

CHUNK_MS = 200  # the worker answers about five times a second while running
EXACT_STEP_MS = 500  # a slow exact matrix: progress twice a second, and a change of algorithm heard as soon
RIFFLE_MAX_K = 12
SVG = "http://www.w3.org/2000/svg"
START_PROGRESS_SECONDS = 0.25  # how often the start's progress is redrawn (aria-busy meanwhile: heard once, at its end)
PREWARM_IDLE_MS = 2000  # after the deal, a repeat visit starts the lab's worker in idle time, or after this at most
RUNTIME_KEPT = "./static/vendor/pyodide/pyodide.asm.wasm"  # kept by the service worker: the lab ran here before
STATUS = "lab-status"
PROGRESS = "lab-progress"
WORKER_BUTTONS = ("lab-start", "lab-pause", "lab-reset", "custom-run")
MENU_ENTRY = "algo-custom-group"  # "Your shuffle" in the algorithm menu (custom_view.add_menu_entry)
_LOOPS = [0]  # the lab's loops under way, shown as #lab-panel's data-loops


def count_loops(change: int) -> None:
    """Keep #lab-panel's data-loops at the number of the lab's loops under way (the tally's, a slow matrix's steps):
    a test waits for "0" to know that nothing more will be asked of a worker or drawn, instead of waiting a while."""
    _LOOPS[0] += change
    element("lab-panel").dataset.loops = str(_LOOPS[0])


def spawn(coroutine):
    """Run a coroutine in the background; a failure becomes one line in the lab status."""
    return dom.spawn(coroutine, STATUS)


async def show_start_progress(kept: bool) -> None:
    """Until cancelled, show how far the worker's start has got: the runtime's bytes fetched (a <progress> and the
    status line, marked busy so a screen reader hears where it ends, not each step), then Python starting."""
    bar = element(PROGRESS)
    began = js.performance.now()
    dom.mark_busy(STATUS, True)
    while True:
        text, share = start_progress(fetched_so_far(), (js.performance.now() - began) / 1000, kept)
        set_text(STATUS, text)
        if share is None:
            bar.removeAttribute("value")  # indeterminate: nothing says how far the fetch is
        else:
            bar.value = share
        bar.classList.remove("idle")
        await asyncio.sleep(START_PROGRESS_SECONDS)


def prewarm_said(decision: str) -> None:
    """Record what the last prewarm decided (html[data-lab-prewarm]: started, saving-data, not-kept, no-cache), so a
    test waits for the decision instead of for time to pass."""
    document.documentElement.dataset.labPrewarm = decision


def end_start_progress() -> None:
    """Hide the start's progress bar (its room kept) and let the status line be heard again."""
    element(PROGRESS).classList.add("idle")
    dom.mark_busy(STATUS, False)


class Lab(LabModel):
    """The lab on the page: its view model (``lab_model``), its two workers, and the drawing of what they answer."""

    def __init__(self, page) -> None:
        super().__init__()
        self.page = page
        self.builtins = BuiltinsWorker()  # every built-in's tally, and every verdict and figure
        self.sandbox = Sandbox()  # the user's shuffle, where it can reach nothing of the site
        self.link = None
        self.riffle_n = None
        self.loop_task = None
        self.connecting = None
        self.runtime_kept = False  # the service worker keeps the lab's runtime: it ran here before
        self.stalled = []  # the configurations under way when the built-ins' worker was stopped
        self.stalled_reason = ""
        self.custom_listeners = []  # told (with a one-line message) when the user's shuffle fails or is stopped
        self.leave_listeners = []  # told when the lab goes back from the user's shuffle to the menu's algorithm

    @property
    def worker(self):
        """The built-ins' worker once it has started, else None."""
        return self.builtins.worker

    # --- the page's link --------------------------------------------------------------

    def link_changed(self, link) -> None:
        """Follow the page's link: reconfigure a side when its tally's inputs change, redraw on a new view."""
        old, self.link = self.link, link
        view = link.view
        write_lab_form(view)
        if old is not None and (link.deal.algo, link.deal.params) != (old.deal.algo, old.deal.params):
            self.leave_custom()  # an algorithm chosen from the menu replaces the user's shuffle
        for side in (self.a, self.b):
            config = self.tally_config(link, side)
            if config != side.config:
                side.config = config
                spawn(self.reset(side))
            elif old is not None and old.view.heat != view.heat and not self.running and config is not None:
                spawn(self.redraw(side))
        self.show_titles()
        self.follow_visibility()
        if view.view == "lab" and self.connecting is None:
            # the worker is a second interpreter (Pyodide, about 13 MB): started on the first
            # visit to the lab, so a deal-only visit never loads it
            self.connecting = spawn(self.connect())
        if view.view == "lab" and self.worker is not None and self.riffle_n != view.lab_n:
            spawn(self.draw_riffle(view.lab_n))

    def show_titles(self) -> None:
        """Name both sides when comparing ("A · Fisher–Yates", "B · Riffle, 3 passes"); show side b only then."""
        comparing = self.b.config is not None
        self.name_sides()
        # while the lab runs the user's shuffle, the menu's description ("Unbiased…") is not what is shown
        yours = self.custom_side(self.a) and self.link is not None and self.link.view.view == "lab"
        element("algo-yours").hidden = not yours
        for name in ("algo-description", "algo-source", "algo-params"):
            element(name).hidden = yours
        self.show_menu_entry(yours)
        for side in (self.a, self.b):
            for part in SIDE_PARTS:
                box = document.getElementById(side.id(part))
                if box is None:
                    continue
                if side is self.b:
                    box.hidden = not comparing
                # each part is a landmark: two of them need two names ("Heat map, A · …", "Heat map, B · …")
                if not box.getAttribute("data-label"):  # (an unset dataset key raises on MicroPython)
                    box.setAttribute("data-label", str(box.getAttribute("aria-label")))
                label = str(box.getAttribute("data-label"))
                box.setAttribute("aria-label", "%s, %s" % (label, side.title) if side.title else label)
                title = box.querySelector(".side-title")
                title.textContent = side.title
                title.hidden = not side.title
        canvas = document.getElementById(self.b.id("heatmap"))
        if canvas is not None:
            canvas.setAttribute("aria-label", "Heat map of %s: rows are cards, columns are positions; arrow keys read a "
                                "cell" % self.b.title)

    def show_menu_entry(self, yours: bool) -> None:
        """The algorithm menu shows "Your shuffle" while the lab runs it; its entry (once the code has run) is offered
        in the lab only: the deal view cannot deal with the user's code, and its form never reads that entry."""
        entry = document.getElementById(MENU_ENTRY)
        if entry is None or self.link is None:
            return
        elsewhere = self.link.view.view != "lab"
        entry.hidden = elsewhere
        entry.firstChild.disabled = elsewhere  # the arrow keys skip it too
        menu = element("algorithm")
        if yours:
            menu.value = CUSTOM_ID
        elif str(menu.value) == CUSTOM_ID:
            menu.value = self.link.deal.algo

    # --- worker calls ---------------------------------------------------------------------

    async def ask(self, method: str, *args):
        """Return the built-ins' worker's answer to ``method(*args)``; one over the time limit stops the worker, which
        starts again, and raises WorkerStopped."""
        try:
            return await self.builtins.ask(method, *args)
        except WorkerStopped as error:
            if not isinstance(error, CallDropped):  # the stop that dropped it is said and handled once
                self.worker_lost(error)
            raise

    def worker_lost(self, error: WorkerStopped) -> None:
        """The built-ins' worker was stopped: forget what it held and start a fresh one, which does not start the
        tallies under way again by itself (one of them ran over the limit: again would loop)."""
        self.stalled = [side.config for side in (self.a, self.b) if side.config is not None]
        self.stalled_reason = one_line(error)
        self.leave_custom()
        self.forget_tallies()
        self.enable_buttons(False)
        self.connecting = spawn(self.connect())

    def leave_custom(self) -> None:
        """Go back to the menu's algorithm: the sandbox and everything the user's code started there end."""
        was_custom = super().leave_custom()
        if was_custom:  # a sandbox started by opening the box, with no code run in it yet, stays up for Run
            self.sandbox.stop()
            for listener in self.leave_listeners:
                listener()

    def sandbox_lost(self, error: WorkerStopped) -> None:
        """The sandbox was stopped while the user's shuffle ran: say why beside the code, and go back to the menu's
        algorithm."""
        self.running = False
        self.tell_custom(one_line(error))
        self.leave_custom()
        if self.link is not None:
            self.link_changed(self.link)

    def enable_buttons(self, enabled: bool) -> None:
        """Enable the buttons that need the worker, or disable them while there is none."""
        for name in WORKER_BUTTONS:
            element(name).disabled = not enabled

    async def use_code(self, source: str, progress) -> None:
        """Compile the user's shuffle in the sandbox (started first if need be, with ``progress(text)`` shown) and tally
        it; raise ProtocolError with the one-line reason when it can't run."""
        if self.sandbox.congested:
            self.sandbox.stop()  # what the last code left running there would slow this one down
        if self.custom_side(self.a) or self.custom_side(self.b):
            # no chunk may be under way while the sandbox changes, or ask the new one for a tally before it has one
            await self.stop_the_loop()
        compiled = False
        try:
            try:
                await self.sandbox.start(progress, source)  # a sandbox no other code ran in
            except Exception as error:
                raise protocol.ProtocolError("the sandbox could not start: " + one_line(error)) from None
            answer = await self.sandbox.ask("compile", source)
            protocol.read(await self.ask("adopt_code", answer), CodeReady)  # the sandbox's answer, read by trusted code
            compiled = True
        finally:
            self.sandbox.settle(compiled)
        self.custom_active = True
        side = self.a
        side.config = self.tally_config(self.link, side)
        side.generation += 1  # new code under the same id: always a fresh tally
        generation = side.generation
        self.show_titles()
        status = await self.configure(side)  # both workers hold the new tally before the first chunk is asked for
        if status is None:
            return
        self.page.update_view(code=source)  # the share link carries it (its tally is configured already)
        if generation == side.generation:
            spawn(self.show_configured(side, status))  # the walk of a small deck goes on beside the tally
            self.start()

    async def connect(self) -> None:
        """Start the worker, then enable the lab's buttons; on failure say why and offer Retry."""
        element("lab-retry").hidden = True
        try:
            watch = asyncio.create_task(show_start_progress(self.runtime_kept))
            try:
                await self.builtins.start()  # or the prewarm's start, under way or done
            finally:
                watch.cancel()
                end_start_progress()
        except Exception as error:
            reason = "it took too long" if isinstance(error, asyncio.TimeoutError) else one_line(error)
            set_text(STATUS, "The lab's worker could not start (%s). Check the connection, then Retry." % reason)
            element("lab-retry").hidden = False
            self.connecting = None  # so Retry, or the next visit to the lab, starts again
            return
        self.enable_buttons(True)
        keep_the_lab_offline()
        for side in (self.a, self.b):
            if self.link is not None:
                side.config = self.tally_config(self.link, side)
            if side.config is not None and side.config in self.stalled:
                # Reset, or another algorithm, n or parameter, tallies again; nothing does by itself
                set_text(STATUS, side.prefix("Stopped: %s. Press Reset to try this tally again, or change it."
                                             % self.stalled_reason))
                continue
            await self.reset(side)
        if self.link is not None and self.link.view.view == "lab":
            await self.draw_riffle(self.link.view.lab_n)

    def prewarm(self, event=None) -> None:
        """Start the built-ins' worker before the lab is opened (the user moves toward its tab, or a repeat visit is
        idle after its deal), so Start is ready sooner: only when its runtime is kept from an earlier visit (a
        deal-only visit never fetches 13 MB), and never when the browser asks to save data."""
        if self.worker is not None or self.builtins.starting is not None:
            return
        if save_data():
            prewarm_said("saving-data")
        elif not self.runtime_kept:
            prewarm_said("not-kept")
        else:
            prewarm_said("started")
            asyncio.create_task(self.builtins.prewarm())

    def prewarm_when_idle(self) -> None:
        """On a repeat visit (the lab's runtime is kept: it ran here before), prewarm in idle time after the deal."""
        if save_data():
            prewarm_said("saving-data")
        elif not js.Reflect.has(js.window, "caches"):
            prewarm_said("no-cache")
        elif js.Reflect.has(js.window, "requestIdleCallback"):
            js.requestIdleCallback(create_proxy(self.prewarm_if_kept), js.JSON.parse('{"timeout": %d}' % PREWARM_IDLE_MS))
        else:
            js.setTimeout(create_proxy(self.prewarm_if_kept), PREWARM_IDLE_MS // 4)

    def prewarm_if_kept(self, *args) -> None:
        """Prewarm if the service worker keeps the lab's runtime (Cache Storage answers without reading it)."""
        js.caches.match(RUNTIME_KEPT).then(create_proxy(self.prewarm_if_found))

    def prewarm_if_found(self, found=None) -> None:
        """Prewarm if ``found`` (what Cache Storage answered) is a kept file."""
        self.runtime_kept = bool(found)
        self.prewarm()

    async def reset_all(self) -> None:
        """Start both sides' tallies afresh (the Reset button), those that stopped the worker included."""
        self.stalled = []
        for side in self.sides():
            await self.reset(side)

    async def reset(self, side: Side) -> None:
        """Start a fresh tally on one side for its configuration (keeps running if it was)."""
        side.generation += 1
        if self.worker is None or side.config is None:
            return
        generation = side.generation
        status = await self.configure(side)
        if status is not None and generation == side.generation:
            await self.show_configured(side, status)

    async def configure(self, side: Side):
        """Start a side's fresh tally (the user's shuffle: in the sandbox too) and return its ExactStatus; None, with the
        reason said, when it cannot run."""
        set_text(STATUS, side.prefix("Computing the exact matrix…"))
        custom = self.custom_side(side)
        try:
            status = protocol.read(await self.ask("configure", protocol.request(side.config)), ExactStatus)
            if custom:
                await self.sandbox.ask("configure", side.config.n, side.config.seed or None)
        except protocol.ProtocolError as error:
            if isinstance(error, SandboxStopped):
                if self.custom_active:
                    self.sandbox_lost(error)
                return None
            if custom:
                self.tell_custom(one_line(error))
            if self.worker is not None:
                self.show_exact_status(side, ExactStatus(False, None, str(error), None, 0.0))
                set_text(STATUS, side.prefix("This tally cannot run: " + one_line(error)))
            return None
        return status

    async def compute_exact(self, side: Side) -> None:
        """Compute a slow exact matrix in steps, showing the progress, until it is there or the user moves on
        (another algorithm or n drops it): because the user asked, or on its own for a walk of a small deck."""
        if self.worker is None:
            return
        generation = side.generation
        button = element(side.id("compute-exact"))
        button.disabled = True
        clock = ProgressClock()
        dom.mark_busy(STATUS, True)  # twice a second "n% done": a screen reader hears the status once it is done
        count_loops(+1)
        try:
            while True:
                status = await self.exact_step(side)
                if generation != side.generation or status.progress is None:
                    break
                left = clock.left(js.performance.now() / 1000, status.progress, status.pending_seconds)
                set_text(STATUS, side.prefix(progress_text(status.progress, status.seconds, left)))
        finally:
            button.disabled = False
            dom.mark_busy(STATUS, False)
            count_loops(-1)
        if generation == side.generation:
            await self.show_configured(side, status)

    async def exact_step(self, side: Side) -> ExactStatus:
        """Work on a side's exact matrix for a step: a built-in's in its worker; the user's shuffle is walked in the
        sandbox, and what it answers read by the built-ins' worker."""
        if not self.custom_side(side):
            return protocol.read(await self.ask("exact_step", EXACT_STEP_MS, side.slot), ExactStatus)
        walked = await self.sandbox.ask("walk_step", EXACT_STEP_MS)
        return protocol.read(await self.ask("adopt_walk", walked, side.slot), ExactStatus)

    async def show_configured(self, side: Side, status: ExactStatus) -> None:
        """Show the exact-matrix status and the current snapshot, then say the lab is ready (or go on with a walk)."""
        self.show_exact_status(side, status)
        await self.redraw(side)
        if status.goes_on:
            await self.compute_exact(side)
            return
        set_text(STATUS, "Running…" if self.running else "Ready: press Start.")

    async def redraw(self, side: Side) -> None:
        """Draw a side's current snapshot without running more shuffles."""
        if self.worker is None or side.config is None:
            return
        generation = side.generation
        snapshot = protocol.read(await self.ask("snapshot", self.link.view.heat, side.slot), Snapshot)
        if generation == side.generation:
            self.draw(side, snapshot)

    async def run_loop(self) -> None:
        """While running, ask the worker for a chunk of shuffles on a side and draw each answer; after Pause, let
        the side behind catch up (a few chunks at most), so a paused comparison shows both sides at one count."""
        catching_up = 0
        count_loops(+1)
        try:
            while True:
                chunk = self.next_chunk(catching_up)
                if chunk is None:
                    break
                side, up_to, catching_up = chunk
                generation = side.generation
                snapshot = await self.run_chunk(side, up_to)
                if generation == side.generation:
                    self.draw(side, snapshot)  # also the chunk that was under way when Pause came
        except SandboxStopped as error:  # only the user's shuffle: the built-ins' worker is untouched
            self.sandbox_lost(error)
            set_text(STATUS, "Paused: your shuffle stopped (see the message under your code).")
            return
        except WorkerStopped:  # the built-ins' worker: worker_lost has said why and is starting a new one
            return
        except protocol.ProtocolError as error:
            if not self.custom_active:
                raise
            self.tell_custom(one_line(error))  # the user's shuffle failed: said beside their code
            set_text(STATUS, "Paused: your shuffle stopped (see the message under your code).")
            return
        finally:
            self.running = False  # after a failure too, so Start works again
            count_loops(-1)
        set_text(STATUS, "Paused.")

    async def run_chunk(self, side: Side, up_to) -> Snapshot:
        """Tally a chunk on a side and return its snapshot: a built-in in its worker; the user's shuffle in the
        sandbox, whose counts the built-ins' worker checks and draws."""
        # a None would reach a worker as JavaScript's null: no limit is no argument
        limit = () if up_to is None else (up_to,)
        if not self.custom_side(side):
            return protocol.read(await self.ask("run_for", CHUNK_MS, self.link.view.heat, side.slot, *limit), Snapshot)
        counted = await self.sandbox.ask("run_for", CHUNK_MS, *limit)
        return protocol.read(await self.ask("adopt_counts", counted, self.link.view.heat, side.slot), Snapshot)

    def tell_custom(self, message: str) -> None:
        """Pass a one-line message about the user's shuffle to whoever shows it."""
        for listener in self.custom_listeners:
            listener(message)

    def retry(self) -> None:
        """Try to start the worker again after it failed."""
        if self.worker is None and self.connecting is None:
            self.connecting = spawn(self.connect())

    async def stop_the_loop(self) -> None:
        """Pause, and return once the run loop has ended (after the chunk under way, and the side behind's catching up):
        then nothing is sent to either worker until the next start."""
        self.pause()
        if self.loop_task is not None and not self.loop_task.done():
            await self.loop_task  # spawned guarded: it never raises

    def start(self) -> None:
        """Run the tally until paused."""
        if self.worker is None or not super().start():
            return
        set_text(STATUS, "Running…")
        # a loop still awaiting the chunk under way at Pause sees running again and goes on:
        # a second loop would double the work and keep counting after the next Pause
        if self.loop_task is None or self.loop_task.done():
            self.loop_task = spawn(self.run_loop())

    def follow_visibility(self) -> None:
        """Pause while the lab is not on screen (another tab of the page, or the browser tab hidden); resume after."""
        change = self.seen(self.link is not None and self.link.view.view == "lab" and not document.hidden)
        if change == "hidden":
            set_text(STATUS, "Paused while the lab is out of sight; it carries on when you come back.")
        elif change == "shown":
            self.start()

    # --- drawing -------------------------------------------------------------------------

    def draw(self, side: Side, snapshot: Snapshot) -> None:
        """Put one worker snapshot on its side of the page."""
        side.latest = snapshot
        if side is self.a:
            set_text("trials", str(snapshot.trials))
            set_text("rate", f"{round(snapshot.rate):,}" if snapshot.trials else "–")
        if snapshot.memory:
            set_text("worker-memory", "%.1f" % (snapshot.memory / 1e6))
            show("worker-memory-line", True)
        draw_heatmap(side, snapshot)
        summary = snapshot.summary.get("heat_summary", "")
        if snapshot.drawn != self.link.view.heat:
            summary = "No exact matrix here, so this map shows observed ÷ uniform. " + summary
        set_text(side.id("heat-summary"), summary)
        if side is self.a:
            draw_legend(snapshot.legend, snapshot.key)
        draw_stats(side, snapshot.summary)
        draw_fixed_points(side, snapshot.summary.get("fixed_points"))

    def show_exact_status(self, side: Side, status: ExactStatus) -> None:
        """Say whether a side's exact views exist, its exact distance, and what the exact matrix cost or would cost."""
        side.matrix = status.matrix
        element(side.id("compute-exact")).hidden = not status.pending_seconds or bool(status.goes_on)
        if status.available:
            note = "Exact matrix computed in %.0f ms." % (status.seconds * 1000)
        elif status.goes_on:
            note = "Walking every path of its draws for the exact answers…"
        elif status.pending_seconds:
            note = ("The exact matrix takes about %.0f s more here (timed on its first steps), "
                    "and slows the tally meanwhile:" % status.pending_seconds)
        else:
            note = "No exact matrix: " + status.reason
        set_text(side.id("exact-note"), note + distance_text(status, side.config) + model_text(status))
        if side is not self.a:
            return
        for view in ("exact", "difference"):
            radio = document.querySelector('input[name="heat"][value="%s"]' % view)
            radio.disabled = not status.available
        if not status.available and not status.goes_on and self.link is not None and self.link.view.heat != "observed":
            self.page.update_view(heat="observed")  # the only view there is: say so in the form and the link

    async def draw_riffle(self, n: int) -> None:
        """Draw the exact riffle distances for n cards."""
        if self.worker is None:
            return
        self.riffle_n = n
        report = protocol.read(await self.ask("riffle", n, RIFFLE_MAX_K), RiffleReport)
        if self.riffle_n == n:
            draw_riffle_chart(report)

    def describe_cell(self, side: Side, row: int, column: int) -> str:
        """Return the tooltip text for one heat-map cell of a side."""
        snapshot = side.latest
        n, trials = snapshot.n, snapshot.trials
        count = snapshot.count_at(row, column)
        observed = count / trials if trials else 0.0
        parts = ["%s at position %d" % (card_name(row, n), column), f"count {count:,} of {trials:,}",
                 f"observed {observed:.4%}", f"uniform {1 / n:.4%}"]
        if side.matrix is not None and len(side.matrix) == n:
            parts.append(f"exact {side.matrix[row][column]:.4%}")
        return side.prefix(" · ".join(parts))


SIDE_PARTS = ("heat-side", "verdict-side", "fixed-side")
REFERENCES = ("for", "aria-describedby", "aria-labelledby", "aria-controls")


def keep_the_lab_offline() -> None:
    """Ask the service worker, once it is in control, to keep every file the lab's workers load (docs: accessibility, "Offline"):
    a worker started before it was in control is never controlled, so what it fetched is not kept otherwise."""
    if js.Reflect.has(js.navigator, "serviceWorker"):
        js.navigator.serviceWorker.ready.then(
            create_proxy(lambda registration: registration.active.postMessage(js.JSON.parse('{"keepLab": true}'))))


def clone_side_b() -> None:
    """Put a hidden copy of each part of side a beside it, every id (and every reference to one) ending in "-b".

    Done once, as the lab mounts, before anything is drawn: the copies start as empty as the originals.
    """
    for part in SIDE_PARTS:
        original = element(part)
        copy = original.cloneNode(True)
        for node in [copy] + list(copy.querySelectorAll("*")):
            if node.id:
                node.id = str(node.id) + "-b"
            for name in REFERENCES:
                value = node.getAttribute(name)
                if value:
                    node.setAttribute(name, " ".join(token + "-b" for token in str(value).split()))
        copy.hidden = True
        original.parentNode.appendChild(copy)


# --- drawing helpers ---------------------------------------------------------------------


def draw_heatmap(side: Side, snapshot: Snapshot) -> None:
    """Paint the worker's RGBA pixels, one per cell, onto a side's canvas (they stay a JavaScript array)."""
    n = snapshot.n
    canvas = element(side.id("heatmap"))
    if canvas.getAttribute("data-n") != str(n):  # the first draw too: the canvas starts 52 wide, unlabelled
        canvas.width = n
        canvas.height = n
        canvas.setAttribute("data-n", str(n))
        draw_ticks(side, n)
    pixels = snapshot.pixels
    clamped = js.Uint8ClampedArray.new(pixels.buffer, pixels.byteOffset, pixels.length)
    canvas.getContext("2d").putImageData(window.ImageData.new(clamped, n, n), 0, 0)


def draw_ticks(side: Side, n: int) -> None:
    """Label every 13th position and card (every quarter when n is not 52)."""
    step = 13 if n % 13 == 0 and n >= 26 else max(1, n // 4)
    ticks = [((k + 0.5) / n, str(k)) for k in range(0, n, step)]
    for container_id in ("heat-ticks-x", "heat-ticks-y"):
        place_ticks(side.id(container_id), ticks)


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


def draw_stats(side: Side, summary: dict) -> None:
    """Show a side's verdict as its plain sentence, and the test's own words and figures one click away (a details
    box, left open or closed as the user left it)."""
    verdict = element(side.id("verdict"))
    verdict.dataset.verdict = summary["verdict"]
    verdict.textContent = summary["sentence"]
    set_text(side.id("verdict-detail"), summary.get("detail") or "")
    rows = element(side.id("stats"))
    rows.replaceChildren()
    for label, value in summary["figures"]:
        rows.append(create("dt", label), create("dd", value))
    show(side.id("figures"), bool(summary["figures"]))


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


def draw_fixed_points(side: Side, histogram) -> None:
    """Draw a side's observed against fair shares of shuffles with k fixed points, k = 0, 1, …"""
    chart = element(side.id("fixed-points"))
    chart.replaceChildren()
    if not histogram or not histogram["labels"]:
        set_text(side.id("fixed-verdict"), "")
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
    set_text(side.id("fixed-verdict"), histogram["sentence"])


# the three distances, in the order of their lines, legend and table rows; each line has its own dashes (CSS) and
# marks, so it is told apart without its colour
RIFFLE_LINES = (("tv", "Total variation"), ("separation", "Separation"), ("kl", "KL (bits)"))


def riffle_mark(kind: str, x: float, y: float):
    """Return the mark of one point of a distance's line: a circle (total variation), a triangle (separation) or a
    diamond (Kullback–Leibler), as in the legend."""
    if kind == "tv":
        return svg("circle", cx=round(x, 1), cy=round(y, 1), r=3, class_="dot tv")
    if kind == "separation":
        shape = "M%.1f %.1f L%.1f %.1f L%.1f %.1f Z" % (x, y - 3.5, x + 3.5, y + 3, x - 3.5, y + 3)
    else:
        shape = "M%.1f %.1f L%.1f %.1f L%.1f %.1f L%.1f %.1f Z" % (x, y - 4, x + 4, y, x, y + 4, x - 4, y)
    return svg("path", d=shape, class_="dot " + kind)


def draw_riffle_chart(report: RiffleReport) -> None:
    """Draw total variation, separation and KL divergence (bits) against k on one 0–1 scale, each with its own dashes
    and marks (KL above 1 runs off the top, clipped), say what each means for a bet, and fill the table."""
    chart = element("riffle-chart")
    chart.replaceChildren()
    series = {"tv": report.tv, "separation": report.separation or [], "kl": report.kl or []}
    count = len(report.tv)
    width, height, left, bottom, top = 480, 220, 40, 28, 10
    plot_w, plot_h = width - left - 10, height - bottom - top

    def at(k: int, d: float) -> tuple:
        return left + (k - 1) * plot_w / max(1, count - 1), top + (1 - d) * plot_h

    clip = svg("clipPath", id="riffle-plot")
    clip.appendChild(svg("rect", x=left - 6, y=top - 6, width=plot_w + 12, height=plot_h + 12))
    defs = svg("defs")
    defs.appendChild(clip)
    chart.appendChild(defs)
    for d in (0.0, 0.25, 0.5, 0.75, 1.0):
        _, y = at(1, d)
        chart.append(svg("line", x1=left, y1=round(y, 1), x2=width - 10, y2=round(y, 1), class_="grid"))
        chart.append(svg_text(left - 5, y + 4, f"{d:g}", class_="tick", text_anchor="end"))
    plot = svg("g", clip_path="url(#riffle-plot)")
    for kind, _ in RIFFLE_LINES:
        values = series[kind]
        if not values:
            continue
        points = " ".join("%.1f,%.1f" % at(k, d) for k, d in enumerate(values, 1))  # the clip cuts what is off the scale
        plot.appendChild(svg("polyline", points=points, class_="line " + kind))
        for k, d in enumerate(values, 1):
            if d <= 1.0:  # a mark off the scale would sit on the top line as if it were 1
                plot.appendChild(riffle_mark(kind, *at(k, d)))
    chart.appendChild(plot)
    for k in range(1, count + 1):
        chart.append(svg_text(at(k, 0)[0], height - 10, str(k), class_="tick", text_anchor="middle"))
    for k, d in enumerate(report.measured or (), 1):
        x, y = at(k, d)
        chart.append(svg("rect", x=round(x - 3, 1), y=round(y - 3, 1), width=6, height=6, class_="measured"))
    # top right: the curves start high on the left and end low on the right, so this is clear
    chart.append(svg_text(width - 10, top + 12, "k riffles →", class_="tick", text_anchor="end"))
    chart.dataset.n = str(report.n)
    for key, _name, meaning in report.meanings or ():
        item = document.querySelector('#riffle-legend [data-distance="%s"] .meaning' % key)
        if item is not None:
            item.textContent = ": %s." % meaning
    draw_riffle_table(report)
    set_text("riffle-note", riffle_note(report))


def draw_riffle_table(report: RiffleReport) -> None:
    """Fill the table: k across, a row per distance in the very texts ``riffle-distances`` prints, and measured total
    variation for a small deck."""
    table = element("riffle-table")
    table.replaceChildren()
    head = create("tr")
    head.appendChild(create("th", "k", "corner"))
    for k in range(1, len(report.tv) + 1):
        cell = create("th", "k=%d" % k)
        cell.setAttribute("scope", "col")
        head.appendChild(cell)
    table.appendChild(head)
    texts = report.texts or [["%.6f" % d, "", ""] for d in report.tv]
    for column, (kind, name) in enumerate(RIFFLE_LINES):
        row = create("tr", None, "distance-row")
        row.dataset.distance = kind
        label = create("th", name)
        label.setAttribute("scope", "row")
        row.appendChild(label)
        for cells in texts:
            row.appendChild(create("td", cells[column]))
        table.appendChild(row)
    if report.measured:
        measured = create("tr", None, "measured-row")
        label = create("th", "TV measured")
        label.setAttribute("scope", "row")
        measured.appendChild(label)
        for d in report.measured:
            measured.appendChild(create("td", "%.3f" % d))
        table.appendChild(measured)


def riffle_note(report: RiffleReport) -> str:
    """Say what the chart shows: exact distances, and measured total variation where there is any."""
    if not report.measured:
        return ("Lines: exact distances for %d cards, the figures python -m shufflelab riffle-distances --cards %d "
                "prints. Measuring them needs far more than the %d! orders in samples, so total variation is measured "
                "only for decks of up to 5 cards." % (report.n, report.n, report.n))
    noise = sampling_noise(report.n, report.measured_trials)
    return (f"Lines and the first three rows: exact. Squares and the last row: total variation measured from "
            f"{report.measured_trials:,} sampled decks per k (sampling noise adds about {noise:.2f}).")


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


# --- wiring ------------------------------------------------------------------------------


def mount(page) -> Lab:
    """Create the lab, subscribe it to the page's link and wire its controls (the worker starts on the first visit)."""
    lab = Lab(page)
    build_compare_form()
    clone_side_b()
    page.listeners.append(lab.link_changed)

    def on(element_id: str, event: str, handler) -> None:
        listen(element_id, event, handler, STATUS)

    on("lab-start", "click", lambda event: lab.start())
    on("lab-pause", "click", lambda event: lab.pause())
    on("lab-reset", "click", lambda event: spawn(lab.reset_all()))
    on("compute-exact", "click", lambda event: spawn(lab.compute_exact(lab.a)))
    on("lab-retry", "click", lambda event: lab.retry())
    for moving_toward in ("pointerenter", "focus", "touchstart"):  # a tap's touchstart comes ~100 ms before its click
        on("tab-lab", moving_toward, lab.prewarm)
    page.when_dealt(lab.prewarm_when_idle)
    listen(js.document, "visibilitychange", lambda event: lab.follow_visibility(), STATUS)
    on("lab-n", "change", lambda event: change_lab_field(page, "n", "lab_n", str(event.target.value)))
    on("tally-seed", "change", lambda event: change_lab_field(page, "tseed", "tally_seed", str(event.target.value)))
    on("vs", "change", lambda event: page.update_view(compare=str(event.target.value)))
    for entry in compared_param_fields():
        on(entry.control, "change", lambda event: change_compared_param(page, str(event.target.id), str(event.target.value)))
    for radio in document.querySelectorAll('input[name="heat"]'):
        listen(radio, "change", lambda event: page.update_view(heat=str(event.target.value)), STATUS)
    on("compute-exact-b", "click", lambda event: spawn(lab.compute_exact(lab.b)))
    on("lab-copy-link", "click", lambda event: spawn(copy_lab_link()))
    on("lab-share", "click", lambda event: spawn(share_lab(page)))
    show("lab-share", js.Reflect.has(js.navigator, "share"))  # the Web Share API, where the browser has it
    for side in (lab.a, lab.b):
        wire_heatmap(lab, side)
    return lab


async def copy_lab_link() -> None:
    """Copy the lab's link as the deal view's Copy link does (the same path: the public link on a sealed deal)."""
    from . import app  # the page's module, which imports the views

    await app.copy_link(None, "lab-copy-status")


async def share_lab(page) -> None:
    """Hand the lab's link (the public one on a sealed deal) to the browser's share sheet; a cancelled share says
    nothing, a failed one says so in one line."""
    from . import deal_view

    url = str(element(deal_view.copy_source(page.link, page.sealing())).value)
    data = js.JSON.parse(json.dumps({"title": "Shuffle Lab: bias lab", "url": url}))
    try:
        await js.navigator.share(data)
    except Exception as error:
        if "AbortError" not in str(error):  # the user closed the share sheet
            set_text("lab-copy-status", "Sharing failed: " + one_line(error))


def wire_heatmap(lab: Lab, side: Side) -> None:
    """Show a cell's figures under the pointer, on a tap, and as the arrow keys move over a side's heat map."""
    canvas = side.id("heatmap")

    def on(event_name: str, handler) -> None:
        listen(canvas, event_name, handler, STATUS)

    on("mousemove", lambda event: show_tooltip(lab, side, event))
    on("click", lambda event: show_tooltip(lab, side, event))  # a tap on a touch screen
    # a tap ends with the pointer "leaving": only a mouse that leaves hides the tooltip
    on("pointerleave", lambda event: hide_tooltip(side) if str(event.pointerType) == "mouse" else None)
    on("keydown", lambda event: move_cell_cursor(lab, side, event))
    on("blur", lambda event: hide_tooltip(side))


def read_lab_field(key: str, text: str, kept):
    """Return a lab field's typed value if the field table accepts it, as a link would; otherwise say so, put ``kept``
    back in the field and return None."""
    entry = field(key)
    value, notice = entry.read(text, {}, None)
    if notice is None:
        return value
    shown = str(kept) if not isinstance(kept, str) else (quoted(kept) if kept else "none")
    set_text(STATUS, "%s; kept %s." % (notice.text.split(";")[0], shown))
    element(entry.control).value = str(kept)
    return None


def change_lab_field(page, key: str, attribute: str, text: str) -> None:
    """Use a lab field's typed text for the view's ``attribute`` if the field table accepts it; otherwise keep it."""
    value = read_lab_field(key, text, getattr(page.link.view, attribute))
    if value is not None:
        page.update_view(**{attribute: value})


def show_tooltip(lab: Lab, side: Side, event) -> None:
    """Show card, position, count and probabilities for the cell under the pointer."""
    if side.latest is None:
        return
    canvas = event.currentTarget
    n = side.latest.n
    box = canvas.getBoundingClientRect()
    column = min(n - 1, max(0, int((event.clientX - box.left) / box.width * n)))
    row = min(n - 1, max(0, int((event.clientY - box.top) / box.height * n)))
    tooltip = element(side.id("heat-tooltip"))
    tooltip.textContent = lab.describe_cell(side, row, column)
    place_tooltip(tooltip, event.clientX, event.clientY)


CURSOR_KEYS = {"ArrowUp": (-1, 0), "ArrowDown": (1, 0), "ArrowLeft": (0, -1), "ArrowRight": (0, 1)}


def move_cell_cursor(lab: Lab, side: Side, event) -> None:
    """Arrow keys walk the heat map cell by cell; the cell is shown in the tooltip and read aloud."""
    key = str(event.key)
    if side.latest is None or key not in CURSOR_KEYS:
        return
    event.preventDefault()
    n = side.latest.n
    row, column = side.cursor if side.cursor is not None else (-1, 0)
    step_row, step_column = CURSOR_KEYS[key]
    side.cursor = (min(n - 1, max(0, row + step_row)), min(n - 1, max(0, column + step_column)))
    text = lab.describe_cell(side, *side.cursor)
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
