"""The lab's two workers, each behind a client: the built-ins' worker, and the sandbox where users' shuffles run.

Both clients start on demand, give every call CALL_LIMIT_SECONDS, and end their worker when
a call runs over (the only way to stop code that never returns), raising WorkerStopped; the
next need starts them again. The page enforces the limit, not the worker: ending the worker
(or the sandbox's frame) ends everything in it.

- ``BuiltinsWorker``: PyScript's named worker on Pyodide, running ``shufflelab.lab.service``
  (``py/worker.py``). Trusted: it computes every verdict and figure, and never runs user code.
- ``Sandbox``: Pyodide in a Worker of an opaque-origin frame (``static/js/sandbox.mjs``),
  running ``py/sandbox.py``. Untrusted: it answers JSON text, which only the built-ins'
  worker reads (``shufflelab.lab.sandbox``), after sandbox.mjs has checked its shape and size.
"""

import asyncio
import json

import js
from pyscript import create_named_worker, document

from shufflelab.lab import protocol

from .dom import load_module_script

# one call to a worker (a chunk of the tally, a step of a matrix, the user's code compiling)
CALL_LIMIT_SECONDS = 10
WORKER_SRC = "./py/worker.py"  # relative to the page, as every URL here (served under a sub-path)
# pyscript.toml with its [files] (every module under py/) in one archive, lab.zip: one fetch instead of 63, made
# by scripts/site_manifest.py (served by scripts/serve.py, written into the built site)
WORKER_CONFIG = "./lab.toml"
# What the worker fetches first: if one can't be reached (offline, blocked), say so at once
# instead of letting PyScript fail inside the worker, where the page can't catch it.
WORKER_FILES = (WORKER_SRC, WORKER_CONFIG, "./lab.zip", "./static/vendor/pyodide/pyodide.mjs",
                "./static/vendor/pyodide/pyodide.asm.wasm", "./static/vendor/pyodide/python_stdlib.zip")
CHECK_SECONDS = 10  # the files above answer a HEAD request well within this, or something is wrong
# Where the service worker's count of the lab's runtime bytes fetched lands (static/js/offline.js, from sw.js): the
# page cannot see what its workers fetch, the service worker can
FETCH_STATE = "shufflelabLabFetch"
START_LIMIT_SECONDS = 240  # a worker that has not started by now will not (13 MB on a slow line)
SANDBOX_SCRIPT = "./static/js/sandbox.mjs"
PROGRESS_SECONDS = 0.25  # how often the sandbox's start-up progress is shown
CONGESTED_MS = 3000  # a call answered this late (each asks for at most a second's work) finds the sandbox congested


class WorkerStopped(protocol.ProtocolError):
    """A call that ran over CALL_LIMIT_SECONDS: its worker was ended, and starts again when next needed."""


class CallDropped(WorkerStopped):
    """A call that waited its turn while the call ahead of it ran over the limit: never sent (that stop is said once,
    by the call that ran over)."""


class SandboxStopped(WorkerStopped):
    """The sandbox was ended (a call over the limit, or it misbehaved): only the user's shuffle is concerned."""


async def within_limit(pending, end_worker, message: str):
    """Return a JavaScript promise's value; one still pending after CALL_LIMIT_SECONDS ends the worker and raises
    WorkerStopped with ``message``."""

    async def answer():
        return await pending

    try:
        return await asyncio.wait_for(answer(), CALL_LIMIT_SECONDS)
    except asyncio.TimeoutError:  # noqa: UP041 (MicroPython's asyncio has its own)
        end_worker()
        raise WorkerStopped(message) from None


async def check_worker_file(url: str) -> None:
    """Raise, naming the file, if ``url`` cannot be fetched."""
    try:
        answer = await js.fetch(url, js.JSON.parse('{"method": "HEAD", "cache": "no-store"}'))
    except Exception:
        raise RuntimeError("%s could not be fetched" % url.rpartition("/")[2]) from None
    if not answer.ok:
        raise RuntimeError("%s answered %d" % (url.rpartition("/")[2], answer.status))


async def check_worker_files() -> None:
    """Raise, naming a file, if one the built-ins' worker needs cannot be fetched (all asked at once: one round trip
    on a slow line instead of five)."""
    await asyncio.gather(*[check_worker_file(url) for url in WORKER_FILES])


def save_data() -> bool:
    """Whether the browser asks to save data (navigator.connection.saveData): then nothing is fetched ahead of a
    click."""
    if not js.Reflect.has(js.navigator, "connection"):
        return False
    connection = js.navigator.connection
    return connection is not None and bool(getattr(connection, "saveData", False))


def fetched_so_far():
    """Return (bytes, total) of the lab's runtime the service worker has read in this page's life, or None before
    any (no service worker in control, or nothing fetched yet)."""
    if not js.Reflect.has(js.window, FETCH_STATE):
        return None
    state = getattr(js.window, FETCH_STATE)
    return int(state.loaded), int(state.total)


class BuiltinsWorker:
    """The built-ins' worker: PyScript's named worker running the lab service, replaced under a new name after a stop."""

    def __init__(self) -> None:
        self.worker = None  # PyScript's proxy of the worker's exports, once started
        self.starting = None  # the start under way (a task), which a prewarm and the lab's own start share
        self.name = "lab"  # a stopped worker is replaced by "lab-2", "lab-3"… (PyScript keys workers by name)
        self.restarts = 0
        # one call in the worker at a time: the worker answers them in turn anyway, and a limit timed from sending
        # would count the wait behind the others (a burst of changes made the last over 10 s, which stopped a
        # healthy worker, and each late call then stopped the next one)
        self.turn = asyncio.Lock()

    async def start(self) -> None:
        """Start the worker, or wait for the start already under way (raises with the reason when a file can't be
        fetched or it takes too long; the next call starts again)."""
        if self.worker is not None:
            return
        if self.starting is None:
            self.starting = asyncio.create_task(self._start())
        task = self.starting
        try:
            await task
        except BaseException:
            if self.starting is task:
                self.starting = None
            raise

    async def _start(self) -> None:
        """Check the files, then start PyScript's named worker and keep its exports."""
        await asyncio.wait_for(check_worker_files(), CHECK_SECONDS)
        starting = create_named_worker(src=WORKER_SRC, name=self.name, config=WORKER_CONFIG)
        self.worker = await asyncio.wait_for(starting, START_LIMIT_SECONDS)

    async def prewarm(self) -> None:
        """Start the worker ahead of the lab's own start; a failure is left for that start to meet and say."""
        try:
            await self.start()
        except Exception:
            pass

    async def ask(self, method: str, *args):
        """Return the answer of one of the service's functions. Calls go to the worker one at a time, and each has the
        time limit from when it is sent: a wait behind other calls never counts, and only a call over the limit ends
        the worker, the one it was sent to."""
        worker = self.worker
        async with self.turn:
            if worker is None or self.worker is not worker:
                # its worker was stopped (by the call ahead of it) while it waited: it is dropped, not sent to the
                # next worker, which holds none of this one's tallies
                raise CallDropped("the lab's worker was stopped before this call was sent") from None
            return await within_limit(getattr(worker, method)(*args), lambda: self.stop_if(worker),
                                      "one call took the lab's worker over %d s, so it was stopped and started again"
                                      % CALL_LIMIT_SECONDS)

    def stop_if(self, worker) -> None:
        """Stop the worker if ``worker`` is still the one running (a late call never ends its successor)."""
        if self.worker is worker:
            self.stop()

    def stop(self) -> None:
        """Terminate the worker (PyScript keeps it on its <script>) and take a new name for the next one."""
        script = document.querySelector('script[name="%s"]' % self.name)
        if script is not None:
            try:
                script.xworker.terminate()
            finally:
                script.remove()
        self.worker = None
        self.starting = None
        self.restarts += 1
        self.name = "lab-%d" % (self.restarts + 1)


def sandbox_api():
    """Return sandbox.mjs's object (start, call, stop, state), or None before the script has run."""
    if not js.Reflect.has(js.globalThis, "shufflelabSandbox"):
        return None
    return js.globalThis.shufflelabSandbox


class Sandbox:
    """The sandbox's client: its frame starts when first needed, and a call over the limit ends the frame."""

    def __init__(self) -> None:
        self.ready = False
        # the code that ran last slowed the sandbox's answers down (timers, workers or tasks of its own that go on
        # between calls): the next Run gets a fresh sandbox instead of sharing the CPU with them
        self.congested = False

    def load(self) -> None:
        """Add sandbox.mjs to the page once (it starts nothing by itself)."""
        load_module_script("sandbox-script", SANDBOX_SCRIPT)

    async def start(self, progress) -> None:
        """Start the sandbox if it is not running, calling ``progress(text)`` as it goes; raise with the reason if it
        cannot start."""
        if self.ready and str(sandbox_api().state.phase) == "ready":
            return
        self.load()
        waited = 0.0
        while sandbox_api() is None:
            if waited > CHECK_SECONDS:
                raise RuntimeError("%s did not load" % SANDBOX_SCRIPT.rpartition("/")[2])
            await asyncio.sleep(0.05)
            waited += 0.05
        api = sandbox_api()
        starting = asyncio.create_task(self._await(api.start()))
        waited = 0.0
        while not starting.done():
            progress(start_progress_text(api.state))
            await asyncio.sleep(PROGRESS_SECONDS)
            waited += PROGRESS_SECONDS
            if waited > START_LIMIT_SECONDS:
                api.stop("it took too long")
                starting.cancel()
                raise RuntimeError("the sandbox took over %d s to start" % START_LIMIT_SECONDS)
        if str(api.state.phase) != "ready":
            raise RuntimeError("the sandbox could not start (%s)" % str(api.state.error))
        self.ready = True

    async def _await(self, promise):
        """Await a JavaScript promise, keeping its failure for ``start`` to read from the sandbox's state."""
        try:
            await promise
        except Exception:
            pass

    async def ask(self, method: str, *args) -> str:
        """Return the JSON text the sandbox answers to ``method(*args)``, within the time limit (raises WorkerStopped)."""
        if not self.ready:
            raise SandboxStopped("the sandbox is not running")
        started = js.performance.now()
        try:
            text = await within_limit(sandbox_api().call(method, json.dumps(args)), self.stop,
                                      "your shuffle ran over %d s without returning, so its sandbox was stopped; a "
                                      "new one starts at the next Run" % CALL_LIMIT_SECONDS)
        except WorkerStopped as stopped:
            raise SandboxStopped(str(stopped)) from None
        except Exception as error:  # the frame was ended meanwhile (it misbehaved, or crashed)
            self.ready = False
            raise SandboxStopped("the sandbox stopped (%s); a new one starts at the next Run"
                                % str(getattr(error, "message", "") or "it ended")) from None
        if js.performance.now() - started > CONGESTED_MS:
            self.congested = True
        return str(text)

    def stop(self) -> None:
        """End the sandbox's frame and everything in it (the next start makes a new one)."""
        self.ready = False
        self.congested = False
        api = sandbox_api()
        if api is not None:
            api.stop("the sandbox was stopped")


def start_progress_text(state) -> str:
    """Say how far the sandbox's start has got: the bytes fetched, then Python starting."""
    if str(state.phase) == "fetching" and state.total:
        return ("Starting the sandbox for your shuffle: fetching Pyodide, %.1f of %.1f MB…"
                % (min(state.loaded, state.total) / 1e6, state.total / 1e6))
    if str(state.phase) == "starting":
        return "Starting the sandbox for your shuffle: starting Python…"
    return "Starting the sandbox for your shuffle…"
