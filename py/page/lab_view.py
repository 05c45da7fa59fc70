"""The bias lab's controller (main thread, MicroPython): run the tallies through the workers' clients, and draw.

The worker (Pyodide, ``shufflelab.lab.service``) does every heavy step: shuffling,
counting, exact matrices, statistics and heat-map pixels. The lab awaits it through its
client (``lab_client``; the user's shuffle through the sandbox's, ``workers.Sandbox``) and puts
the results on the page (``lab_draw``, ``riffle_chart``, ``heat_key``), so the main thread stays
free while the tally runs. Its decisions are ``lab_model``'s; answers are read with
``shufflelab.lab.protocol``.
"""

import asyncio

import js
from pyscript import document

from shufflelab.catalog import CUSTOM_ID
from shufflelab.lab import protocol
from shufflelab.lab.protocol import CodeReady, ExactStatus, RiffleReport, Snapshot

from . import dom, lab_status
from .dom import element, listen, one_line, set_text, show
from .heat_key import wire_heatmap
from .lab_client import LabClient
from .lab_draw import SIDE_PARTS, clone_side_b, describe_cell, draw_side, exact_note
from .lab_forms import (
    build_compare_form,
    change_compared_param,
    change_lab_field,
    compared_param_fields,
    copy_lab_link,
    share_lab,
    write_lab_form,
)
from .lab_model import STATUS, LabModel, ProgressClock, Side, progress_text
from .riffle_chart import draw_riffle_chart
from .workers import Sandbox, SandboxStopped, WorkerStopped

CHUNK_MS = 200  # the worker answers about five times a second while running
EXACT_STEP_MS = 500  # a slow exact matrix: progress twice a second, and a change of algorithm heard as soon
RIFFLE_MAX_K = 12
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


class Lab(LabModel):
    """The lab on the page: its view model (``lab_model``), the clients of its two workers, and what they answer drawn."""

    def __init__(self, page, client: LabClient, sandbox: Sandbox) -> None:
        super().__init__()
        self.page = page
        self.client = client  # the built-ins' worker: every built-in's tally, and every verdict and figure
        self.sandbox = sandbox  # the user's shuffle, where it can reach nothing of the site
        self.link = None
        self.riffle_n = None
        self.loop_task = None
        self.walks = {}  # slot: an Event set once that side's slow exact matrix under way has stopped
        self.stalled = []  # the configurations under way when the built-ins' worker was stopped
        self.stalled_reason = ""
        self.custom_listeners = []  # told (with a one-line message) when the user's shuffle fails or is stopped
        self.leave_listeners = []  # told when the lab goes back from the user's shuffle to the menu's algorithm

    @property
    def worker(self):
        """The built-ins' worker once it has started, else None."""
        return self.client.worker

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
        if view.view == "lab":
            # the worker is a second interpreter (Pyodide, about 13 MB): started on the first
            # visit to the lab, so a deal-only visit never loads it
            self.client.start()
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
                if self.results_stale() and self.custom_side(side):
                    box.setAttribute("data-stale", "true")  # dimmed: these figures are not the box's code's
                else:
                    box.removeAttribute("data-stale")
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
        """Return the built-ins' worker's answer to ``method(*args)`` (through the client, which starts a fresh worker
        after a stop and raises WorkerStopped)."""
        return await self.client.ask(method, *args)

    def worker_lost(self, error: WorkerStopped) -> None:
        """The built-ins' worker was stopped: forget what it held. The client starts a fresh one, which does not start
        the tallies under way again by itself (one of them ran over the limit: again would loop)."""
        self.stalled = [side.config for side in (self.a, self.b) if side.config is not None]
        self.stalled_reason = one_line(error)
        self.leave_custom()
        self.forget_tallies()
        self.enable_buttons(False)

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
            # no chunk or walk step may be under way while the sandbox changes, or ask the new one for a tally
            # before it has one
            await self.stop_the_loop()
            await self.stop_walk(self.a)
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
        self.code_ran(source)
        side = self.a
        side.config = self.tally_config(self.link, side)
        side.generation += 1  # new code under the same id: always a fresh tally
        generation = side.generation
        began = lab_status.claim()
        self.show_titles()
        status = await self.configure(side, began)  # both workers hold the new tally before the first chunk is asked for
        if status is None:
            return
        self.page.update_view(code=source)  # the share link carries it (its tally is configured already)
        if generation == side.generation:
            spawn(self.show_configured(side, status, began))  # the walk of a small deck goes on beside the tally
            self.start()

    async def worker_started(self) -> None:
        """The built-ins' worker has started: enable the lab's buttons and start each side's tally (not one that
        stopped the last worker), then draw the riffle chart if the lab is on screen."""
        began = lab_status.claim()  # a notice given while the tallies start (a refused n) stays on the line
        self.enable_buttons(True)
        for side in (self.a, self.b):
            if self.link is not None:
                side.config = self.tally_config(self.link, side)
            if side.config is not None and side.config in self.stalled:
                # Reset, or another algorithm, n or parameter, tallies again; nothing does by itself
                lab_status.notify(side.prefix("Stopped: %s. Press Reset to try this tally again, or change it."
                                              % self.stalled_reason))
                continue
            await self.reset(side, began)
        if self.link is not None and self.link.view.view == "lab":
            await self.draw_riffle(self.link.view.lab_n)

    async def reset_all(self) -> None:
        """Start both sides' tallies afresh (the Reset button), those that stopped the worker included."""
        self.stalled = []
        for side in self.sides():
            await self.reset(side)

    async def reset(self, side: Side, began=None) -> None:
        """Start a fresh tally on one side for its configuration (keeps running if it was); its progress is said
        until a notice comes after ``began`` (by default: now)."""
        began = lab_status.claim() if began is None else began
        side.generation += 1
        if self.worker is None or side.config is None:
            return
        generation = side.generation
        status = await self.configure(side, began)
        if status is not None and generation == side.generation:
            await self.show_configured(side, status, began)

    async def configure(self, side: Side, began: int):
        """Start a side's fresh tally (the user's shuffle: in the sandbox too) and return its ExactStatus; None, with the
        reason said, when it cannot run."""
        lab_status.say_for(began, side.prefix("Computing the exact matrix…"))
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
                lab_status.notify(side.prefix("This tally cannot run: " + one_line(error)))
            return None
        return status

    async def compute_exact(self, side: Side, began=None) -> None:
        """Compute a slow exact matrix in steps, showing the progress (until a notice comes after ``began``), until it
        is there or the user moves on (another algorithm or n drops it; new code stops a walk): because the user
        asked, or on its own for a walk of a small deck."""
        if self.worker is None:
            return
        began = lab_status.claim() if began is None else began
        generation = side.generation
        walking = self.walks[side.slot] = asyncio.Event()
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
                lab_status.say_for(began, side.prefix(progress_text(status.progress, status.seconds, left)))
        finally:
            button.disabled = False
            dom.mark_busy(STATUS, False)
            count_loops(-1)
            walking.set()
        if generation == side.generation:
            await self.show_configured(side, status, began)

    async def stop_walk(self, side: Side) -> None:
        """Drop a side's slow exact matrix under way, and return once its step under way has ended: nothing is then
        asked of the sandbox for it (new code replaces the sandbox)."""
        side.generation += 1
        walking = self.walks.get(side.slot)
        if walking is not None:
            await walking.wait()

    async def exact_step(self, side: Side) -> ExactStatus:
        """Work on a side's exact matrix for a step: a built-in's in its worker; the user's shuffle is walked in the
        sandbox, and what it answers read by the built-ins' worker."""
        if not self.custom_side(side):
            return protocol.read(await self.ask("exact_step", EXACT_STEP_MS, side.slot), ExactStatus)
        walked = await self.sandbox.ask("walk_step", EXACT_STEP_MS)
        return protocol.read(await self.ask("adopt_walk", walked, side.slot), ExactStatus)

    async def show_configured(self, side: Side, status: ExactStatus, began: int) -> None:
        """Show the exact-matrix status and the current snapshot, then say the lab is ready (or go on with a walk)
        unless a notice came after ``began``."""
        self.show_exact_status(side, status)
        await self.redraw(side)
        if status.goes_on:
            await self.compute_exact(side, began)
            return
        lab_status.say_for(began, "Running…" if self.running else "Ready: press Start.")

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
            lab_status.notify("Paused: your shuffle stopped (see the message under your code).")
            return
        except WorkerStopped:  # the built-ins' worker: worker_lost has said why and is starting a new one
            return
        except protocol.ProtocolError as error:
            if not self.custom_active:
                raise
            self.tell_custom(one_line(error))  # the user's shuffle failed: said beside their code
            lab_status.notify("Paused: your shuffle stopped (see the message under your code).")
            return
        finally:
            self.running = False  # after a failure too, so Start works again
            count_loops(-1)
        lab_status.say("Paused.")

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
        lab_status.say("Running…")
        # a loop still awaiting the chunk under way at Pause sees running again and goes on:
        # a second loop would double the work and keep counting after the next Pause
        if self.loop_task is None or self.loop_task.done():
            self.loop_task = spawn(self.run_loop())

    def follow_visibility(self) -> None:
        """Pause while the lab is not on screen (another tab of the page, or the browser tab hidden); resume after."""
        change = self.seen(self.link is not None and self.link.view.view == "lab" and not document.hidden)
        if change == "hidden":
            lab_status.say("Paused while the lab is out of sight; it carries on when you come back.")
        elif change == "shown":
            self.start()

    # --- drawing -------------------------------------------------------------------------

    def draw(self, side: Side, snapshot: Snapshot) -> None:
        """Put one worker snapshot on its side of the page."""
        draw_side(side, snapshot, self.link.view.heat, side is self.a)

    def show_exact_status(self, side: Side, status: ExactStatus) -> None:
        """Say whether a side's exact views exist, its exact distance, and what the exact matrix cost or would cost."""
        side.matrix = status.matrix
        element(side.id("compute-exact")).hidden = not status.pending_seconds or bool(status.goes_on)
        set_text(side.id("exact-note"), exact_note(side, status))
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



def mount(page, client: LabClient, sandbox: Sandbox) -> Lab:
    """Create the lab with the workers' clients, subscribe it to the page's link and to the built-ins' worker's life,
    and wire its controls (the worker starts on the first visit)."""
    lab = Lab(page, client, sandbox)
    client.started.append(lab.worker_started)
    client.lost.append(lab.worker_lost)
    build_compare_form()
    clone_side_b()
    page.listeners.append(lab.link_changed)

    def on(element_id: str, event: str, handler) -> None:
        listen(element_id, event, handler, STATUS)

    on("lab-start", "click", lambda event: lab.start())
    on("lab-pause", "click", lambda event: lab.pause())
    on("lab-reset", "click", lambda event: spawn(lab.reset_all()))
    on("compute-exact", "click", lambda event: spawn(lab.compute_exact(lab.a)))
    on("lab-retry", "click", lambda event: client.retry())
    for moving_toward in ("pointerenter", "focus", "touchstart"):  # a tap's touchstart comes ~100 ms before its click
        on("tab-lab", moving_toward, client.prewarm)
    page.when_dealt(client.prewarm_when_idle)
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
        wire_heatmap(side, describe_cell)
    return lab
