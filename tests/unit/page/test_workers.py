"""The built-ins' worker client, under CPython: calls go one at a time, and the time limit is a call's own.

``py/page/workers.py`` is the page's glue (MicroPython runs it); its ``js`` and ``pyscript``
imports are stood in for here by empty modules, and the worker by a fake whose calls answer after
a set time. The page's 10 s limit is shortened to LIMIT so that a test takes well under a second.
"""

import asyncio
import sys
import types
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "py"))

LIMIT = 0.2  # seconds: the page's CALL_LIMIT_SECONDS, shortened


@pytest.fixture
def workers(monkeypatch):
    """page.workers imported with stand-ins for the browser's modules, its call limit LIMIT."""
    pyscript = types.ModuleType("pyscript")
    pyscript.document = types.SimpleNamespace(querySelector=lambda selector: None)
    pyscript.window = types.SimpleNamespace(setTimeout=lambda *args: None)
    pyscript.create_named_worker = None
    ffi = types.ModuleType("pyscript.ffi")
    ffi.create_proxy = lambda function: function
    pyscript.ffi = ffi
    for name, module in {"js": types.ModuleType("js"), "pyscript": pyscript, "pyscript.ffi": ffi}.items():
        monkeypatch.setitem(sys.modules, name, module)
    for name in ("page.workers", "page.dom"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    import page.workers as module

    monkeypatch.setattr(module, "CALL_LIMIT_SECONDS", LIMIT)
    yield module
    for name in ("page.workers", "page.dom"):
        sys.modules.pop(name, None)


class FakeWorker:
    """A worker whose every call answers its name after ``seconds``, one call at a time as a real worker does."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.sent = []  # (name, time sent) in the order the calls arrived
        self.busy_until = 0.0

    def __getattr__(self, name):
        async def call(*args):
            loop = asyncio.get_running_loop()
            now = loop.time()
            self.sent.append((name, now))
            self.busy_until = max(self.busy_until, now) + self.seconds  # it answers the calls in turn
            await asyncio.sleep(self.busy_until - now)
            return name

        return call


def client(workers, worker: FakeWorker):
    """A BuiltinsWorker already started on ``worker``, counting its stops."""
    builtins = workers.BuiltinsWorker()
    builtins.worker = worker
    builtins.stops = 0
    stop = builtins.stop

    def counted_stop():
        builtins.stops += 1
        stop()

    builtins.stop = counted_stop
    return builtins


def test_calls_sent_together_are_answered_in_turn_and_none_is_stopped(workers):
    """Five calls at once, each 0.6 of the limit: together 3 limits of work, each within its own limit."""
    worker = FakeWorker(0.6 * LIMIT)
    builtins = client(workers, worker)

    async def burst():
        return await asyncio.gather(*[builtins.ask("configure%d" % i) for i in range(5)])

    assert asyncio.run(burst()) == ["configure%d" % i for i in range(5)]
    assert builtins.stops == 0 and builtins.worker is worker
    times = [t for _, t in worker.sent]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert min(gaps) >= 0.5 * LIMIT, gaps  # the next call is sent once the last one is answered


def test_a_call_over_the_limit_stops_its_worker_once_and_the_calls_behind_it_are_dropped(workers):
    worker = FakeWorker(1.5 * LIMIT)
    builtins = client(workers, worker)
    replacement = FakeWorker(0.0)

    async def burst():
        answers = await asyncio.gather(*[builtins.ask("chunk%d" % i) for i in range(4)], return_exceptions=True)
        builtins.worker = replacement  # the lab starts a new worker
        return answers, await builtins.ask("configure")

    answers, after = asyncio.run(burst())
    assert isinstance(answers[0], workers.WorkerStopped) and not isinstance(answers[0], workers.CallDropped)
    assert all(isinstance(a, workers.CallDropped) for a in answers[1:]), answers
    assert [name for name, _ in worker.sent] == ["chunk0"]  # the dropped calls were never sent
    assert builtins.stops == 1 and builtins.name == "lab-2"
    assert after == "configure" and builtins.stops == 1  # the new worker answers; nothing late stops it


def test_a_late_call_never_stops_the_worker_that_replaced_its_own(workers):
    worker = FakeWorker(1.5 * LIMIT)
    builtins = client(workers, worker)
    replacement = FakeWorker(0.0)

    async def replaced_while_waiting():
        pending = asyncio.ensure_future(builtins.ask("snapshot"))
        await asyncio.sleep(0.5 * LIMIT)
        builtins.worker = replacement  # replaced (a Retry, say) while the call is out
        try:
            await pending
        except workers.WorkerStopped:
            pass
        return builtins.worker

    assert asyncio.run(replaced_while_waiting()) is replacement and builtins.stops == 0


# --- the sandbox's client: one Run, one sandbox ------------------------------------------------------------------


class FakeSandbox:
    """One of sandbox.mjs's sandboxes: it starts at once, answers every call, and remembers being stopped."""

    def __init__(self) -> None:
        self.state = types.SimpleNamespace(phase="idle", error="", loaded=0, total=0)
        self.asked = []

    async def start(self):
        self.state.phase = "ready"

    def warm(self) -> None:
        self.state.phase = "ready"

    async def call(self, method, args_json):
        self.asked.append(method)
        return '{"ok": true, "data": {}}'

    def stop(self, reason="") -> None:
        self.state.phase = "idle"


@pytest.fixture
def sandboxes(workers, monkeypatch):
    """(page.workers's Sandbox client, the list of every sandbox it made), sandbox.mjs stood in for."""
    made = []

    def create():
        made.append(FakeSandbox())
        return made[-1]

    js = sys.modules["js"]
    monkeypatch.setattr(js, "Reflect", types.SimpleNamespace(has=hasattr), raising=False)
    monkeypatch.setattr(js, "globalThis", types.SimpleNamespace(shufflelabSandbox=types.SimpleNamespace(create=create)),
                        raising=False)
    monkeypatch.setattr(js, "performance", types.SimpleNamespace(now=lambda: 0.0), raising=False)
    monkeypatch.setattr(workers, "load_module_script", lambda *args: None)
    return workers.Sandbox(), made


def run(client, code):
    """A Run as lab_view.use_code makes it: a sandbox for the code, compile there, and settle."""

    async def go():
        await client.start(lambda text: None, code)
        await client.ask("compile", code)
        client.settle(True)

    asyncio.run(go())


def test_a_run_of_other_code_gets_a_fresh_sandbox_and_the_same_code_its_own(sandboxes):
    client, made = sandboxes
    asyncio.run(client.start(lambda text: None))  # the box is opened: a sandbox starts, no code has run in it
    run(client, "A")
    assert len(made) == 1 and client.api is made[0]  # the fresh one takes the first code
    run(client, "A")
    assert len(made) == 1  # the same code again: its own sandbox
    run(client, "B")
    assert len(made) == 2 and client.api is made[1] and made[0].state.phase == "idle"  # "A"'s sandbox has ended
    assert made[1].asked == ["compile"]  # nothing "A" did reached it


def test_code_that_cannot_compile_leaves_the_last_code_s_sandbox_paused_and_its_own_ends(sandboxes):
    client, made = sandboxes
    run(client, "A")

    async def failed_run():
        await client.start(lambda text: None, "broken")
        client.settle(False)

    asyncio.run(failed_run())
    assert client.api is made[0] and client.code == "A" and made[0].state.phase == "ready"
    assert made[1].state.phase == "idle"


def test_a_spare_starts_once_the_box_holds_other_code_and_the_next_run_takes_it(sandboxes):
    client, made = sandboxes
    client.warm_spare("A")
    assert made == []  # no code has run: the sandbox to come is fresh anyway
    run(client, "A")
    client.warm_spare("A")
    assert len(made) == 1  # the box still holds the code that ran
    client.warm_spare("A edited")
    client.warm_spare("A edited again")
    assert len(made) == 2 and made[1].state.phase == "ready"  # one spare, started ahead
    run(client, "A edited again")
    assert len(made) == 2 and client.api is made[1] and made[0].state.phase == "idle"


def test_opening_the_box_and_run_at_once_share_one_sandbox_whichever_sees_sandbox_mjs_first(sandboxes, monkeypatch):
    """Opening the box starts a sandbox (no code) and Run, pressed at once, starts one for its code; both wait for
    sandbox.mjs to load. Whichever of them sees it first, Run compiles in the sandbox that is up, and no sandbox is left
    running unowned (a loaded fresh clone found Run's compile sent to a sandbox still starting: "not running").
    The order is set by events, not by time: the same on a quiet machine and a loaded one."""
    client, made = sandboxes
    workers = sys.modules["page.workers"]
    asked = []
    run_saw_it = asyncio.Event()

    async def module_in_order():
        """sandbox.mjs as a busy machine may show it: the box's start, which asked first, sees it after Run's."""
        asked.append(len(asked))
        if len(asked) == 1:
            await run_saw_it.wait()
        else:
            run_saw_it.set()  # the box's start wakes only once Run's has gone on to wait for its sandbox
        return workers.sandbox_module()

    monkeypatch.setattr(client, "module", module_in_order)
    monkeypatch.setattr(workers, "PROGRESS_SECONDS", 0)

    class SlowStart(FakeSandbox):
        """A sandbox whose start takes a few turns of the loop, shared by whoever asks, as sandbox.mjs's start()."""

        starting = None

        def start(self):
            if self.starting is None:
                self.state.phase = "fetching"  # at once, as a JavaScript async function runs up to its first await
                self.starting = asyncio.ensure_future(self.boot())
            return self.starting

        async def boot(self):
            self.state.phase = "starting"
            for _ in range(3):
                await asyncio.sleep(0)
            self.state.phase = "ready"

        async def call(self, method, args_json):
            if self.state.phase != "ready":  # as sandbox.mjs's call() rejects
                raise RuntimeError("the sandbox is not running")
            return await super().call(method, args_json)

    monkeypatch.setattr(sys.modules["js"].globalThis.shufflelabSandbox, "create",
                        lambda: made.append(SlowStart()) or made[-1])

    async def both():
        opened = asyncio.ensure_future(client.start(lambda text: None))  # the box opened
        await asyncio.sleep(0)
        await client.start(lambda text: None, "A")  # Run at once
        answer = await client.ask("compile", "A")
        client.settle(True)
        await opened
        return answer

    assert asyncio.run(both()) == '{"ok": true, "data": {}}'
    assert len(made) == 1 and client.api is made[0] and made[0].asked == ["compile"]
