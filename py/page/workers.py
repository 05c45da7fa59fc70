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

from shufflelab.errors import printable
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
MAX_SANDBOX_TEXT = 200  # a line from the sandbox's side, shown in "Your shuffle stopped: …"
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


def sandbox_module():
    """Return sandbox.mjs's object (its ``create``), or None before the script has run."""
    if not js.Reflect.has(js.globalThis, "shufflelabSandbox"):
        return None
    return js.globalThis.shufflelabSandbox


def js_error_message(error) -> str:
    """Return the message of a JavaScript error raised into Python (MicroPython's JsException carries it as its
    third argument, after the error and its name; Pyodide's as ``message``)."""
    args = getattr(error, "args", ())
    if len(args) >= 3 and isinstance(args[2], str):
        return args[2]
    return str(getattr(error, "message", "") or "")


def sandbox_says(text) -> str:
    """Return a text that came from a sandbox's side (an error's message, a reason to stop) as one printable line."""
    return printable(" ".join(str(text).split()), MAX_SANDBOX_TEXT)


class Sandbox:
    """The sandbox's client. One Run, one sandbox: code runs in a sandbox where no other code ever ran (the one the
    same code ran in, or a fresh one), so nothing one code did can touch the next. A spare, started ahead while the
    user edits, makes that fresh sandbox as quick to use as the old one; a call over the limit ends its sandbox."""

    def __init__(self) -> None:
        self.api = None  # the sandbox in use (one of sandbox.mjs's), or None
        self.code = None  # the code that ran in it; None while none has
        self.spare = None  # a sandbox started ahead, in which no code has run
        # while a Run moves to a fresh sandbox: (the sandbox, its code) it replaces, kept until the new code compiles
        self.previous = None
        # the code that ran last slowed the sandbox's answers down (timers, workers or tasks of its own that go on
        # between calls): the next Run gets a fresh sandbox instead of sharing the CPU with them
        self.congested = False

    @property
    def ready(self) -> bool:
        """Whether a sandbox is up to take calls."""
        return self.api is not None and str(self.api.state.phase) == "ready"

    def load(self) -> None:
        """Add sandbox.mjs to the page once (it starts nothing by itself)."""
        load_module_script("sandbox-script", SANDBOX_SCRIPT)

    async def module(self):
        """Return sandbox.mjs's object once its script has run (raises if it does not load)."""
        self.load()
        waited = 0.0
        while sandbox_module() is None:
            if waited > CHECK_SECONDS:
                raise RuntimeError("%s did not load" % SANDBOX_SCRIPT.rpartition("/")[2])
            await asyncio.sleep(0.05)
            waited += 0.05
        return sandbox_module()

    def fits(self, code) -> bool:
        """Whether the sandbox in use may run ``code`` (None: any code, as opening the box asks): it is up or starting,
        and no code but this one ever ran in it."""
        return (self.api is not None and str(self.api.state.phase) in ("fetching", "starting", "ready")
                and (code is None or self.code is None or self.code == code))

    async def start(self, progress, code=None) -> None:
        """Make sure a sandbox that may run ``code`` is up, calling ``progress(text)`` while it starts; raise with the
        reason if it cannot start. Another code's sandbox is ended, and the spare (or a new one) takes its place."""
        if not self.fits(code):
            module = await self.module()
            # from here to api.start() nothing waits: two starts at once (the box opened, and Run) may both have waited
            # for sandbox.mjs, in either order, so the one that sees it second takes the sandbox the first set up
            self.replace_unless_fits(code, module)
        api = self.api
        if code is not None:
            self.code = code  # before it runs: code that fails half way may still have changed the sandbox
        if str(api.state.phase) == "ready":
            return
        starting = asyncio.create_task(self._await(api.start()))  # the start under way, if there is one
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
            raise RuntimeError("the sandbox could not start (%s)" % sandbox_says(api.state.error))

    def replace_unless_fits(self, code, module) -> None:
        """Unless the sandbox in use may run ``code``, end another code's sandbox (or keep it aside until the new code
        compiles) and take the spare, or a new sandbox from ``module``, in its place. Never waits."""
        if self.fits(code):
            return
        if self.previous is not None:  # a Run that never settled (it was interrupted): its old sandbox ends
            self.previous[0].stop("the sandbox was stopped")
            self.previous = None
        if self.ready and self.code is not None:
            self.previous = (self.api, self.code)  # paused, untouched: it stays if the new code cannot run
        else:
            self.stop()
        self.api = self.spare if self.spare is not None else module.create()
        self.spare = None
        self.code = None

    def settle(self, compiled: bool) -> None:
        """End a Run's move to a fresh sandbox: once the new code ``compiled`` there, the sandbox it replaces ends;
        otherwise the fresh one ends and the one before it (paused on the last code of the user's that ran) stays."""
        if self.previous is None:
            return
        (before, code), self.previous = self.previous, None
        if compiled:
            before.stop("its code was replaced")
            return
        self.stop()
        self.api, self.code = before, code

    def warm_spare(self, code: str) -> None:
        """Start a spare sandbox, quietly, once the box's ``code`` is not the code that ran (the next Run will need a
        fresh one); nothing when there is one, or when no code has run yet (the sandbox up is still fresh)."""
        if self.spare is not None or self.code is None or code == self.code or sandbox_module() is None:
            return
        self.spare = sandbox_module().create()
        self.spare.warm()

    async def _await(self, promise):
        """Await a JavaScript promise, keeping its failure for ``start`` to read from the sandbox's state."""
        try:
            await promise
        except Exception:
            pass

    async def ask(self, method: str, *args) -> str:
        """Return the JSON text the sandbox answers to ``method(*args)``, within the time limit (raises WorkerStopped)."""
        api = self.api
        if api is None:
            raise SandboxStopped("the sandbox is not running")
        started = js.performance.now()
        try:
            text = await within_limit(api.call(method, json.dumps(args)), lambda: self.stop_if(api),
                                      "your shuffle ran over %d s without returning, so its sandbox was stopped; a "
                                      "new one starts at the next Run" % CALL_LIMIT_SECONDS)
        except WorkerStopped as stopped:
            raise SandboxStopped(str(stopped)) from None
        except Exception as error:  # the frame was ended meanwhile (it misbehaved, or crashed)
            self.stop_if(api)
            raise SandboxStopped("the sandbox stopped (%s); a new one starts at the next Run"
                                 % sandbox_says(js_error_message(error) or "it ended")) from None
        if js.performance.now() - started > CONGESTED_MS:
            self.congested = True
        return str(text)

    def stop_if(self, api) -> None:
        """Stop the sandbox if ``api`` is still the one in use (a late call never ends its successor)."""
        if self.api is api:
            self.stop()

    def stop(self) -> None:
        """End the sandbox in use and everything in it, and the one a Run is replacing, if any (the next start takes
        the spare, or makes a new one)."""
        api, self.api, self.code = self.api, None, None
        self.congested = False
        if api is not None:
            api.stop("the sandbox was stopped")
        if self.previous is not None:
            self.previous[0].stop("the sandbox was stopped")
            self.previous = None


def start_progress_text(state) -> str:
    """Say how far the sandbox's start has got: the bytes fetched, then Python starting."""
    if str(state.phase) == "fetching" and state.total:
        return ("Starting the sandbox for your shuffle: fetching Pyodide, %.1f of %.1f MB…"
                % (min(state.loaded, state.total) / 1e6, state.total / 1e6))
    if str(state.phase) == "starting":
        return "Starting the sandbox for your shuffle: starting Python…"
    return "Starting the sandbox for your shuffle…"
