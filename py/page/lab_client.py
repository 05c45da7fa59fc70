"""The lab's client on the main thread (MicroPython): the one owner of the built-ins' worker.

It starts the worker (on a repeat visit ahead of time: the prewarm), shows how far the start
has got in the lab's status line, starts a fresh worker after a stop, and sends the calls,
each within the time limit (``page.workers``). The lab, the Play tab and your own shuffle are
each handed this one client; none of them reaches into another view for the worker. Who needs
to act on the worker's life registers a listener: ``started`` (awaited after each start),
``lost`` (told why a worker was stopped, before the next one starts).
"""

import asyncio

import js
from pyscript import document
from pyscript.ffi import create_proxy

from . import dom, lab_status
from .dom import element, one_line
from .lab_model import STATUS, start_progress
from .workers import BuiltinsWorker, CallDropped, WorkerStopped, fetched_so_far, save_data

PROGRESS = "lab-progress"
START_PROGRESS_SECONDS = 0.25  # how often the start's progress is redrawn (aria-busy meanwhile: heard once, at its end)
PREWARM_IDLE_MS = 2000  # after the deal, a repeat visit starts the lab's worker in idle time, or after this at most
RUNTIME_KEPT = "./static/vendor/pyodide/pyodide.asm.wasm"  # kept by the service worker: the lab ran here before
WAIT_SECONDS = 0.1  # how often ready() looks whether the start under way has ended


class LabClient:
    """The built-ins' worker as the page's views use it: started once, started again after a stop, asked in turn."""

    def __init__(self) -> None:
        self.builtins = BuiltinsWorker()  # every built-in's tally, and every verdict and figure
        self.connecting = None  # the start under way or done (a task); None before it, and after a start failed
        self.runtime_kept = False  # the service worker keeps the lab's runtime: it ran here before
        self.started = []  # coroutine functions awaited, in order, after each start (the lab: its tallies again)
        self.lost = []  # functions told the error that stopped the worker, before a fresh one starts

    @property
    def worker(self):
        """The built-ins' worker once it has started, else None."""
        return self.builtins.worker

    def start(self) -> None:
        """Start the worker unless a start is under way or done; a failure is said in the lab's status, with Retry."""
        if self.connecting is None:
            self.connecting = dom.spawn(self.connect(), STATUS)

    def retry(self) -> None:
        """Try to start the worker again after a start failed."""
        if self.worker is None:
            self.start()

    async def ready(self) -> None:
        """Return once the worker has started (starting it if need be); raise with the reason if it cannot."""
        self.start()
        while self.worker is None:
            if self.connecting is None:  # the start failed: the lab's status says why, and offers Retry
                raise RuntimeError("the lab's worker could not start: check the connection, then press Retry")
            await asyncio.sleep(WAIT_SECONDS)

    async def connect(self) -> None:
        """Start the worker with its progress shown, then await every ``started`` listener; on failure say why and offer
        Retry (the next start tries again)."""
        element("lab-retry").hidden = True
        try:
            watch = asyncio.create_task(show_start_progress(self.runtime_kept, lab_status.claim()))
            try:
                await self.builtins.start()  # or the prewarm's start, under way or done
            finally:
                watch.cancel()
                end_start_progress()
        except Exception as error:
            reason = "it took too long" if isinstance(error, asyncio.TimeoutError) else one_line(error)
            lab_status.notify("The lab's worker could not start (%s). Check the connection, then Retry." % reason)
            element("lab-retry").hidden = False
            self.connecting = None
            return
        keep_the_lab_offline()
        for listener in self.started:
            await listener()

    async def ask(self, method: str, *args):
        """Return the worker's answer to ``method(*args)``; a call over the time limit stops the worker, the ``lost``
        listeners are told, a fresh worker starts, and WorkerStopped is raised."""
        try:
            return await self.builtins.ask(method, *args)
        except WorkerStopped as error:
            if not isinstance(error, CallDropped):  # the stop that dropped it is said and handled once
                self.worker_lost(error)
            raise

    def worker_lost(self, error: WorkerStopped) -> None:
        """Tell the ``lost`` listeners why the worker was stopped, then start a fresh one."""
        for listener in self.lost:
            listener(error)
        self.connecting = dom.spawn(self.connect(), STATUS)

    # --- the prewarm: a repeat visit starts the worker before the lab is opened ------------------------------------

    def prewarm(self, event=None) -> None:
        """Start the worker before the lab is opened (the user moves toward its tab, or a repeat visit is idle after its
        deal), so Start is ready sooner: only when its runtime is kept from an earlier visit (a deal-only visit never
        fetches 13 MB), and never when the browser asks to save data."""
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


async def show_start_progress(kept: bool, claim: int) -> None:
    """Until cancelled, show how far the worker's start has got: the runtime's bytes fetched (a <progress> and the
    status line, marked busy so a screen reader hears where it ends, not each step), then Python starting."""
    bar = element(PROGRESS)
    began = js.performance.now()
    dom.mark_busy(STATUS, True)
    while True:
        text, share = start_progress(fetched_so_far(), (js.performance.now() - began) / 1000, kept)
        lab_status.say_for(claim, text)  # a notice given meanwhile (a refused n) stays
        if share is None:
            bar.removeAttribute("value")  # indeterminate: nothing says how far the fetch is
        else:
            bar.value = share
        bar.classList.remove("idle")
        await asyncio.sleep(START_PROGRESS_SECONDS)


def end_start_progress() -> None:
    """Hide the start's progress bar (its room kept) and let the status line be heard again."""
    element(PROGRESS).classList.add("idle")
    dom.mark_busy(STATUS, False)


def prewarm_said(decision: str) -> None:
    """Record what the last prewarm decided (html[data-lab-prewarm]: started, saving-data, not-kept, no-cache), so a
    test waits for the decision instead of for time to pass."""
    document.documentElement.dataset.labPrewarm = decision


def keep_the_lab_offline() -> None:
    """Ask the service worker, once it is in control, to keep every file the lab's workers load (docs: accessibility,
    "Offline"): a worker started before it was in control is never controlled, so what it fetched is not kept otherwise."""
    if js.Reflect.has(js.navigator, "serviceWorker"):
        js.navigator.serviceWorker.ready.then(
            create_proxy(lambda registration: registration.active.postMessage(js.JSON.parse('{"keepLab": true}'))))
