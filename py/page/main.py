"""The page's entry point (MicroPython, main thread): show the link's deal, then mount the bias lab and the Play tab.

The lab's glue is imported only after the deal is on screen: compiling it would delay the
first cards, and the lab is needed only when someone opens it. In another site's frame, nothing
runs (static/js/startup-watch.js says why).
"""

from pyscript import document

# inside another site's frame static/js/startup-watch.js has said so: nothing here runs, no control works
if document.documentElement.getAttribute("data-ready") != "framed":
    from page import app

    app.start()
    from page import custom_view, lab_view, play_view  # (after the first deal, on purpose)

    app.mount(lab_view.mount, custom_view.mount, play_view.mount)
