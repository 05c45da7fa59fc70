"""Page glue for Shuffle Lab: runs in the browser (PyScript, main thread).

Skeleton: it loads the shufflelab package, enables the controls and marks the page
ready (<html data-ready="true">), which the end-to-end tests wait for.
"""

from pyscript import document

import shufflelab


def mark_ready() -> None:
    """Enable the controls and tell the reader and the tests that Python is ready."""
    document.getElementById("controls-fieldset").disabled = False
    status = document.getElementById("status")
    status.dataset.state = "ready"
    status.textContent = "Python ready."
    document.documentElement.dataset.ready = "true"


mark_ready()
