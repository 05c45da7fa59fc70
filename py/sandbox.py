"""The sandbox's entry point (Pyodide in an opaque-origin frame's worker): one function, ``handle``.

``static/js/sandbox-worker.js`` calls ``handle(method, args_json)`` for each message from the
page and posts back the JSON text it returns. Everything it does lives in
``shufflelab.lab.sandbox`` (tested in CPython).
"""

from shufflelab.lab.sandbox import SandboxService

SERVICE = SandboxService()
handle = SERVICE.handle
