"""The page's entry point (MicroPython, main thread): show the link's deal, then mount the bias lab and the Play tab.

The lab's glue is imported only after the deal is on screen: compiling it would delay the
first cards, and the lab is needed only when someone opens it. In another site's frame, nothing
runs (static/js/startup-watch.js says why).
"""

from pyscript import document

# inside another site's frame static/js/startup-watch.js has said so: nothing here runs, no control works
if document.documentElement.getAttribute("data-ready") != "framed":
    from page import app  # only outside another site's frame

    app.start()
    from page import classroom  # (after the first deal: the dialog is needed only when asked for)

    classroom.mount(app.PAGE, lambda: app.apply_form(reshuffle_if_unchanged=True))
    from page import custom_view, lab_client, lab_view, play_view, workers  # (after the first deal, on purpose)

    # one client per worker, handed to every view that uses it: none reaches into another view for one
    client, sandbox = lab_client.LabClient(), workers.Sandbox()
    app.mount(lambda page: lab_view.mount(page, client, sandbox),
              lambda page, lab: custom_view.mount(page, lab, client, sandbox),
              lambda page, lab: play_view.mount(page, client))
