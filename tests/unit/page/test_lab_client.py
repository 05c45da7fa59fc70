"""The lab's client under CPython: one start shared by every view, a failed start said once and tried again on Retry,
a stopped worker's listeners told before a fresh one starts, and the prewarm's decisions.

``py/page/lab_client.py`` is the page's glue (MicroPython runs it); its ``js`` and ``pyscript`` imports are stood in
for here, the page's elements by plain objects, and the worker's start and calls by fakes.
"""

import asyncio
import sys
import types

import pytest


class FakeElement:
    """An element with the few properties the client sets: text, hidden, value, attributes and classes."""

    def __init__(self) -> None:
        self.textContent, self.hidden, self.value = "", False, None
        self.attributes, self.dataset = {}, types.SimpleNamespace()
        self.classList = types.SimpleNamespace(add=lambda name: None, remove=lambda name: None)

    def setAttribute(self, name, value):
        self.attributes[name] = value

    def removeAttribute(self, name):
        self.attributes.pop(name, None)


@pytest.fixture
def client_module(monkeypatch):
    """page.lab_client imported with stand-ins for the browser's modules; its elements are FakeElements by id."""
    elements = {}
    document = types.SimpleNamespace(getElementById=lambda name: elements.setdefault(name, FakeElement()),
                                     querySelector=lambda selector: None, documentElement=FakeElement())
    pyscript = types.ModuleType("pyscript")
    pyscript.document = document
    pyscript.window = types.SimpleNamespace(setTimeout=lambda *args: None)
    pyscript.create_named_worker = None
    ffi = types.ModuleType("pyscript.ffi")
    ffi.create_proxy = lambda function: function
    pyscript.ffi = ffi
    js = types.ModuleType("js")
    js.performance = types.SimpleNamespace(now=lambda: 0.0)
    js.Reflect = types.SimpleNamespace(has=lambda target, name: False)  # no service worker, no caches
    js.navigator = types.SimpleNamespace()
    for name, module in {"js": js, "pyscript": pyscript, "pyscript.ffi": ffi}.items():
        monkeypatch.setitem(sys.modules, name, module)
    names = ("page.lab_client", "page.lab_status", "page.workers", "page.dom", "page.lab_model")
    for name in names:
        monkeypatch.delitem(sys.modules, name, raising=False)
        if "page" in sys.modules:  # ``from . import dom`` takes the package's attribute when there is one
            monkeypatch.delattr(sys.modules["page"], name.split(".")[1], raising=False)
    import page.lab_client as module

    monkeypatch.setattr(module, "WAIT_SECONDS", 0.001)
    monkeypatch.setattr(module, "START_PROGRESS_SECONDS", 0.001)
    module.test_elements = elements
    yield module
    for name in names:
        sys.modules.pop(name, None)


def fake_start(client, outcomes):
    """Make the client's worker start answer from ``outcomes`` in turn: an exception fails that start; anything else is
    the started worker. Return the list of starts made."""
    starts = []

    async def start():
        outcome = outcomes[len(starts)] if len(starts) < len(outcomes) else AssertionError("a start too many")
        starts.append(outcome)
        await asyncio.sleep(0)
        if isinstance(outcome, Exception):
            raise outcome
        client.builtins.worker = outcome

    client.builtins.start = start
    return starts


def test_every_view_waiting_for_the_worker_shares_one_start(client_module):
    client = client_module.LabClient()
    starts = fake_start(client, ["worker"])
    started = []

    async def on_started():
        started.append(client.worker)

    client.started.append(on_started)

    async def go():
        await asyncio.gather(client.ready(), client.ready(), client.ready())
        client.start()  # the start is done: nothing starts again
        await asyncio.sleep(0.01)

    asyncio.run(go())
    assert starts == ["worker"] and started == ["worker"]


def test_a_failed_start_is_said_once_with_retry_and_retry_starts_again(client_module):
    client = client_module.LabClient()
    starts = fake_start(client, [OSError("lab.zip: 404"), "worker"])

    async def go():
        with pytest.raises(RuntimeError, match="could not start"):
            await client.ready()
        said = client_module.test_elements["lab-status"].textContent
        retry_shown = not client_module.test_elements["lab-retry"].hidden
        client.retry()
        await client.ready()
        return said, retry_shown

    said, retry_shown = asyncio.run(go())
    assert said == "The lab's worker could not start (lab.zip: 404). Check the connection, then Retry."
    assert retry_shown and len(starts) == 2 and client.worker == "worker"
    assert client_module.test_elements["lab-retry"].hidden  # hidden again as the next start began


def test_a_stopped_worker_tells_the_lost_listeners_then_a_fresh_one_starts(client_module):
    client = client_module.LabClient()
    starts = fake_start(client, ["first", "second"])
    events = []
    client.lost.append(lambda error: events.append(("lost", str(error), client.worker)))

    async def on_started():
        events.append(("started", client.worker))

    client.started.append(on_started)

    async def ask(method, *args):
        client.builtins.worker = None  # what BuiltinsWorker does when a call runs over its limit
        raise client_module.WorkerStopped("one call took the lab's worker over 10 s")

    async def go():
        await client.ready()
        client.builtins.ask = ask
        with pytest.raises(client_module.WorkerStopped):
            await client.ask("run_for", 200)
        await client.ready()

    asyncio.run(go())
    assert starts == ["first", "second"]
    assert events == [("started", "first"), ("lost", "one call took the lab's worker over 10 s", None),
                      ("started", "second")]


def test_a_dropped_call_is_not_a_second_loss(client_module):
    client = client_module.LabClient()
    fake_start(client, ["worker"])
    lost = []
    client.lost.append(lost.append)

    async def ask(method, *args):
        raise client_module.CallDropped("the lab's worker was stopped before this call was sent")

    async def go():
        await client.ready()
        client.builtins.ask = ask
        with pytest.raises(client_module.CallDropped):
            await client.ask("snapshot")

    asyncio.run(go())
    assert lost == []


@pytest.mark.parametrize(("saving", "kept", "decision"),
                         [(True, True, "saving-data"), (False, False, "not-kept"), (False, True, "started")])
def test_the_prewarm_starts_only_a_kept_runtime_and_never_when_saving_data(client_module, monkeypatch, saving, kept,
                                                                            decision):
    client = client_module.LabClient()
    starts = fake_start(client, ["worker"])
    monkeypatch.setattr(client_module, "save_data", lambda: saving)

    async def go():
        client.prewarm_if_found(kept)
        await asyncio.sleep(0.01)

    asyncio.run(go())
    assert sys.modules["pyscript"].document.documentElement.dataset.labPrewarm == decision
    assert len(starts) == (1 if decision == "started" else 0)
