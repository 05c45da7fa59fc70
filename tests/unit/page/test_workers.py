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
