"""The lab's own-shuffle editor: the code box, its Run button and what it says.

The code is a plain ``<textarea>``; ``static/js/editor.mjs`` puts CodeMirror over it the
first time the box is opened (it keeps the textarea's value current). Not before: compiling
0.45 MB of CodeMirror is a main-thread task of over 100 ms, which a lab visit that never
opens the box should not pay while its tally runs. Run hands the code to
the sandbox (``workers.Sandbox``: an opaque-origin frame that can reach nothing of the site),
which compiles and tallies it; nothing here runs it. A link that carries code only fills
the box and says so, above Run: it never presses Run.
"""

import js
from pyscript import document

from shufflelab.catalog import CUSTOM_ID
from shufflelab.codelink import MAX_CODE_CHARACTERS
from shufflelab.lab import protocol

from . import dom
from .dom import create, element, listen, one_line
from .lab_view import MENU_ENTRY

CODE = "custom-code"
SAY = "custom-status"
ORIGIN = "custom-origin"  # the note above Run on code that came from a link
EDITOR_SCRIPT = "./static/js/editor.mjs"


def say(text: str, error: bool = False) -> None:
    """Put one line under the code box (an error is marked so, and read out by its status role)."""
    box = element(SAY)
    box.textContent = text
    box.dataset.state = "error" if error else ""


def spawn(coroutine):
    """Run a coroutine in the background; a failure becomes one line under the code."""
    return dom.spawn(coroutine, SAY)


def link_code_note(source: str) -> str:
    """Say what code from a link is: whose it is, where it runs, and how much of it there is."""
    text = source.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.count("\n") + (0 if text.endswith("\n") else 1)  # a last line break starts no line
    return ("This code came with the link you opened: who wrote it is unknown. Read it before you press Run. It runs in "
            "a sandbox that cannot reach this page or this site's storage. It is %d line%s, %d characters long."
            % (lines, "" if lines == 1 else "s", len(source)))


def load_editor() -> None:
    """Add the editor's script once, when the box is first opened (the deal and the tally never wait for CodeMirror)."""
    dom.load_module_script("editor-script", EDITOR_SCRIPT)


def show_code(source: str) -> None:
    """Put ``source`` in the code box (and in CodeMirror, if it is there)."""
    box = element(CODE)
    box.value = source
    box.dispatchEvent(js.Event.new("shufflelab:set"))


def add_menu_entry() -> None:
    """Put "Your shuffle" at the end of the algorithm menu, once (after the user's code first runs)."""
    if document.getElementById(MENU_ENTRY) is not None:
        return
    group = create("optgroup")
    group.id = MENU_ENTRY
    group.label = "Yours"
    option = create("option", "Your shuffle (the code in the box)")
    option.value = CUSTOM_ID
    group.appendChild(option)
    element("algorithm").appendChild(group)


class CustomView:
    """Follows the link's code (shown, never run) and runs the box's code when the user asks."""

    def __init__(self, lab, client, sandbox) -> None:
        self.lab = lab  # the lab runs the user's shuffle beside the menu's algorithms
        self.client = client  # the built-ins' worker (lab_client.LabClient): Run waits for it
        self.sandbox = sandbox  # where the code runs (workers.Sandbox): a spare is warmed while the code is edited
        self.shown_code = ""  # the code of the link last put in the box (or last run)
        self.link_code = ""  # the code of the link last put in the box, which the note above Run is about

    def link_changed(self, link) -> None:
        """A link's code goes into the box once (which opens it), with a note that it has not run."""
        code = link.view.code
        if code and code != self.shown_code:
            self.shown_code = code
            if code != str(element(CODE).value):
                self.link_code = code
                show_code(code)
                element("mine").open = True  # its toggle event loads the editor
                note = element(ORIGIN)
                note.textContent = link_code_note(code)
                note.hidden = False
                say("This link carries the code above. It has not run: press Run to run it in the sandbox.")

    def edited(self) -> None:
        """The box's code changed: the link's note goes once it is no longer the link's code, and a spare sandbox
        starts for the next Run when this is not the code that ran (that Run gets a sandbox of its own)."""
        source = str(element(CODE).value)
        note = element(ORIGIN)
        if not note.hidden and source != self.link_code:
            note.hidden = True
        if self.lab.code_in_box(source):
            self.lab.show_titles()  # the results shown are (or are again) those of the code in the box
        self.sandbox.warm_spare(source)

    async def run(self) -> None:
        """Send the box's code to the worker and tally it; say what went wrong in one line if it can't."""
        source = str(element(CODE).value)
        if len(source) > MAX_CODE_CHARACTERS:
            say("Your code is %d characters long; the lab takes up to %d." % (len(source), MAX_CODE_CHARACTERS), True)
            return
        if self.client.worker is None:
            say("The lab's worker is not ready yet; Run works once it is.", True)
            return
        say("Compiling your shuffle in the sandbox…")
        was_running = self.lab.custom_active and self.lab.running  # use_code pauses it before compiling
        try:
            self.shown_code = source
            await self.lab.use_code(source, say)
        except protocol.ProtocolError as error:
            say("Your shuffle can't run: " + one_line(error) + self.paused_the_last_one(was_running), True)
            self.lab.code_in_box(source)
            self.lab.show_titles()  # what is shown is the last code that ran, and says so
            return
        if self.lab.custom_active:
            add_menu_entry()
            self.lab.show_titles()  # the menu shows "Your shuffle"
            say("Running your shuffle. Choose an algorithm from the menu to go back to it; \"Your shuffle\" there "
                "comes back to this.")

    def paused_the_last_one(self, was_running: bool) -> str:
        """Return the words that say the user's earlier shuffle, running when Run was pressed, stays paused (or
        nothing): the lab never tallies code other than the box's without saying so."""
        if not was_running:
            return ""
        self.lab.pause()
        return " The lab is paused on the last shuffle of yours that ran."

    def menu_changed(self, event) -> None:
        """The algorithm menu changed: "Your shuffle" runs the box's code again (the deal's form never sees it); an
        algorithm, while the user's shuffle runs, goes back to it even when it is the one the link already has."""
        if str(event.target.value) == CUSTOM_ID:
            event.stopPropagation()
            if not self.lab.custom_active:
                spawn(self.run_from_menu())
        elif self.lab.custom_active:
            self.lab.leave_custom()  # the form's change, next, tells the lab the link, which reconfigures it

    async def run_from_menu(self) -> None:
        """Run the box's code, then make the menu show what runs (the algorithm again, if the code could not run)."""
        try:
            await self.run()
        finally:
            self.lab.show_titles()

    def opened(self) -> None:
        """The box was opened: load the editor, and start the sandbox so that Run finds it ready (its start is
        quiet here; a Run meanwhile shows its progress, and a failure is said at Run)."""
        load_editor()
        spawn(self.prepare())

    async def prepare(self) -> None:
        """Start the sandbox without a word; Run says what went wrong, if anything did."""
        try:
            await self.sandbox.start(lambda text: None)
        except Exception:
            pass

    def failed(self, message: str) -> None:
        """The sandbox stopped the user's shuffle: say why under the code."""
        say("Your shuffle stopped: " + message, True)

    def left(self) -> None:
        """The lab went back to the menu's algorithm: say so, unless a message about the shuffle is showing."""
        if element(SAY).dataset.state != "error":
            say("Your shuffle is not running: the lab shows the menu's algorithm. Press Run to run it again.")


def mount(page, lab, client, sandbox) -> CustomView:
    """Wire the Run button and follow the page's link."""
    view = CustomView(lab, client, sandbox)
    page.listeners.append(view.link_changed)
    lab.custom_listeners.append(view.failed)
    lab.leave_listeners.append(view.left)
    listen("custom-run", "click", lambda event: spawn(view.run()), SAY)
    listen(CODE, "input", lambda event: view.edited(), SAY)
    listen("algorithm", "change", view.menu_changed, SAY)
    listen("mine", "toggle", lambda event: view.opened() if element("mine").open else None, SAY)
    view.link_changed(page.link)
    return view
