"""What the lab's worker imports from Pyodide's standard library comes precompiled (scripts/vendor.mjs).

Run under Pyodide by tests/test_portable.py, with the standard library the site serves:
    node scripts/pyodide.mjs tests/portable/check_stdlib_bytecode.py
It imports what py/worker.py imports at Start, then lists every module that was still compiled
from source out of the archive; it exits 1 if there is one, or if the archive has no bytecode.
"""

import sys

import shufflelab.lab.service  # noqa: F401 (what py/worker.py imports at Start)

ARCHIVE = next(path for path in sys.path if path.endswith(".zip"))


def origins(suffix):
    """Return the names of the modules loaded from the standard library's archive whose file ends with suffix."""
    found = []
    for name, module in sorted(sys.modules.items()):
        origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
        if origin.startswith(ARCHIVE + "/") and origin.endswith(suffix):
            found.append(name)
    return found


compiled, source = origins(".pyc"), origins(".py")
print("stdlib: %d modules from bytecode, %d from source (%s)" % (len(compiled), len(source), ARCHIVE))
for name in source:
    print("compiled at start from source: %s" % name)
sys.exit(1 if source or len(compiled) < 100 else 0)
