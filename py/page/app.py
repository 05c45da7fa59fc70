"""The page: one current link, its history entries, the form's events, and the start-up."""

import asyncio

import js
from pyscript import document, window
from pyscript.ffi import create_proxy

from shufflelab import seal
from shufflelab.deal import DealError
from shufflelab.errors import sentence_start
from shufflelab.link import commitment_text, outcome_steps, read_link, read_values
from shufflelab.rng import new_seed

from . import deal_view
from .dom import element, listen, next_task, random_bytes, report_failure, set_text, show, spawn

# The longest the page computes a deal before the browser may paint and take input again: a long
# shuffle (100,000 cut-and-insert repetitions, 1.5 s on MicroPython) goes on in slices this long.
DEAL_SLICE_MS = 40


def fresh_seed() -> str:
    """Return a new 256-bit seed from the browser's CSPRNG."""
    return new_seed(random_bytes)


class Page:
    """The current link, what is drawn of it, and who is told when it changes (the bias lab)."""

    def __init__(self) -> None:
        self.link = None
        self.described_deal = None  # the deal the form and the algorithm notes show
        self.drawn_deal = None  # the deal whose cards are drawn
        self.listeners = []
        self.changed = False  # a field's change was applied since "Shuffle & deal" was last pressed
        self.dealing = 0  # counts deals begun: a long one still going stops when a newer one begins
        self.busy = False  # a long shuffle is under way
        self.after_deal = []  # called once the cards being dealt are drawn
        self.sealed_deals = set()  # deals that were on screen while the seal box was open: their seed stays here

    def show(self, link, history: str = "replace") -> None:
        """Make ``link`` current: draw what changed, record it in the history, tell the listeners.

        ``history`` is "push" for a new deal (Back returns to the previous one), "replace"
        for a change of view, or "" when the address already says it (Back, Forward).
        """
        self.link = link
        if link.deal != self.described_deal:
            deal_view.write_form(link)
            deal_view.render_controls(link)
            self.described_deal = link.deal
        if link.view.view == "deal" and link.deal != self.drawn_deal:
            # a deal costs real work (15,000 cut-and-insert repetitions, 0.25 s): only when it
            # changed, and only when its cards are on screen (the lab's clicks never wait for it)
            self.draw_deal(link)
        deal_view.render_view(link.view.view)
        query = "?" + link.to_query()
        if history == "push" and query != str(window.location.search):
            window.history.pushState(None, "", query)
        elif history:
            window.history.replaceState(None, "", query)
        deal_view.render_seal(link)  # two SHA-256s: cheap, and the view's commitment may have changed alone
        deal_view.render_share(link, self.sealing())  # after render_seal, which may open the box
        for listener in self.listeners:
            listener(link)

    def sealing(self) -> bool:
        """True when the deal on screen is being sealed: the seal box is open, or was while this deal was shown."""
        if element("seal").open:
            self.sealed_deals.add(self.link.deal)
        return self.link.deal in self.sealed_deals

    def draw_deal(self, link) -> None:
        """Deal the link's cards and draw them; a long shuffle goes on in slices, its panel marked busy meanwhile.

        A sealed deal's public link has no seed to deal from: it is drawn without cards.
        """
        js.performance.mark("shufflelab:deal-start")
        self.drawn_deal = link.deal
        self.dealing += 1
        if link.seed_withheld:
            self.busy = False
            deal_view.show_dealing(False)
            self.dealt(link, None)
            return
        steps = outcome_steps(link.deal)
        outcome = step_for(steps, DEAL_SLICE_MS)
        self.busy = outcome is None
        deal_view.show_dealing(self.busy)
        if self.busy:
            spawn(self.finish_deal(link, steps, self.dealing))
        else:
            self.dealt(link, outcome)

    async def finish_deal(self, link, steps, ticket: int) -> None:
        """Go on with a long shuffle a slice per browser task, unless a newer deal has begun."""
        outcome = None
        while outcome is None:
            await next_task()
            if ticket != self.dealing:
                return
            outcome = step_for(steps, DEAL_SLICE_MS)
        self.busy = False
        deal_view.show_dealing(False)
        self.dealt(link, outcome)

    def dealt(self, link, outcome) -> None:
        """Draw a finished deal (None: a public link's, without cards) and tell whoever waited for it."""
        if outcome is None:
            deal_view.render_withheld(link)
        else:
            deal_view.render_deal(link, outcome)
        js.performance.measure("shufflelab:deal", "shufflelab:deal-start")  # the benchmark reads it
        waiting, self.after_deal = self.after_deal, []
        for callback in waiting:
            callback()

    def when_dealt(self, callback) -> None:
        """Call ``callback`` once no deal is under way (now, if none is)."""
        if self.busy:
            self.after_deal.append(callback)
        else:
            callback()

    def update_view(self, **changes) -> None:
        """Change the view's settings (the lab's, the heat map's) and keep the deal: the history entry is replaced."""
        self.show(self.link.replace_view(**changes), "replace")

    def switch_tab(self, view: str) -> None:
        """Show another tab with the same deal: a history entry of its own, so Back returns to the tab (and the deal)
        that was shown. Pressing the tab already shown adds nothing."""
        if view != self.link.view.view:
            self.show(self.link.replace_view(view=view), "push")


PAGE = Page()


def step_for(steps, budget_ms: float):
    """Step a deal (``outcome_steps``) for up to ``budget_ms``; return its Outcome, or None if it is not done."""
    end = js.performance.now() + budget_ms
    for step in steps:
        if step is not None or js.performance.now() >= end:
            return step
    return None


def apply_form(new_seed_text: str = None, reshuffle_if_unchanged: bool = False, scroll: bool = False) -> None:
    """Apply the form: a valid deal is drawn and pushed to the history; an impossible one changes nothing.

    With ``reshuffle_if_unchanged`` (the main button), a press with no field changed since the last
    press deals anew with a fresh seed; one after a change deals what was changed (a typed seed as
    typed, however long ago it was typed): pressing "Shuffle & deal" always does something.
    Only with ``scroll`` (the main button, whose press asks to see the cards) does the page scroll:
    a field's change fires on the mousedown that leaves it, and a page that moved then would take
    the button away from under the pointer, so the click (Copy link, Copy reveal link) is lost.
    """
    if new_seed_text is not None:
        element("seed").value = new_seed_text
    raw = deal_view.read_form(PAGE.link)
    kept = PAGE.link.values()  # a rejected value leaves the link's last valid one
    try:
        link, notices = read_values(raw, fresh_seed, strict_deal=True, kept=kept)
        changed = PAGE.changed
        if reshuffle_if_unchanged:
            PAGE.changed = False  # the press is the last press now
        if reshuffle_if_unchanged and not changed and not notices and link.deal == PAGE.link.deal:
            element("seed").value = fresh_seed()
            raw = deal_view.read_form(PAGE.link)
            link, notices = read_values(raw, fresh_seed, strict_deal=True, kept=kept)
    except DealError as error:
        set_text("deal-error", sentence_start(str(error)) + "; the cards shown are unchanged.")
        show("deal-error", True)
        return
    show("deal-error", False)
    if notices or link != PAGE.link or deal_view.holds_rejected_values():
        # a submit that only repeats what a change just applied keeps that change's notices; a value fixed back
        # to the one the link kept changes no link, but its notice and mark must go
        deal_view.show_notices(notices)
    PAGE.show(link, "push")
    if notices:
        # the rejected text stays in its field, marked invalid, until it is fixed; the link keeps the last valid value
        deal_view.keep_rejected(raw, notices)
    if scroll and notices:
        deal_view.bring_notice_into_view()
    elif scroll:
        bring_cards_into_view()


def bring_cards_into_view() -> None:
    """On a narrow screen the cards sit above the form: after a deal from it, scroll back to them (not on load)."""
    top = element("deck-heading").getBoundingClientRect().top
    if top < 0 or top > js.window.innerHeight:
        element("deck-heading").scrollIntoView(True)  # instant: no motion to opt out of


def on_submit(event) -> None:
    event.preventDefault()
    apply_form(reshuffle_if_unchanged=True, scroll=True)


# What a press (mouse, pen or touch) landed on, and where it was in the window: a field's change fires on the very
# press that leaves the field, and the deal it applies can change the page's height above the button pressed.
PRESS = {"node": None, "top": 0.0}


def remember_press(event) -> None:
    """Note the element a press lands on and its place in the window, before the change of the field it leaves."""
    node = event.target
    if node is not None and hasattr(node, "getBoundingClientRect"):
        PRESS["node"], PRESS["top"] = node, float(node.getBoundingClientRect().top)


def forget_press(event) -> None:
    """The press has ended in a click, or became a scroll: nothing of it is to be kept in place any more."""
    PRESS["node"] = None


def keep_press_in_place() -> None:
    """Scroll back by what the page moved under a press since it began, so its click lands where the user pressed
    (a Copy link pressed straight after typing a seed copies the new link: nothing moves from under the pointer)."""
    node, PRESS["node"] = PRESS["node"], None
    if node is None or not node.isConnected:
        return
    moved = float(node.getBoundingClientRect().top) - PRESS["top"]
    if abs(moved) >= 0.5:
        js.window.scrollBy(0, moved)


def on_change(event) -> None:
    if event.target.id not in ("share-url", "seal-check") and event.target.closest("#controls"):
        apply_form()
        PAGE.changed = True
        keep_press_in_place()


def on_player_seed(event) -> None:
    """The player seed sits in the seal box, outside the form: its change deals like a field's."""
    apply_form()
    PAGE.changed = True
    keep_press_in_place()


def on_seal_check(event) -> None:
    """A complete commitment (or none) becomes the link's commit=; a partial one is only judged beside the field."""
    text = str(element("seal-check").value)
    digits = commitment_text(text) if text.strip() else ""
    if digits is not None and digits != PAGE.link.view.commitment:
        PAGE.update_view(commitment=digits)
    else:
        deal_view.check_seal(PAGE.link)


def on_seal_toggle(event) -> None:
    """Opening the seal box seals the deal on screen: from then on Copy link copies its public link."""
    deal_view.render_share(PAGE.link, PAGE.sealing())


def on_tab(event) -> None:
    PAGE.switch_tab(str(event.currentTarget.dataset.view))


TAB_KEYS = {"ArrowRight": 1, "ArrowDown": 1, "ArrowLeft": -1, "ArrowUp": -1}


def on_tab_key(event) -> None:
    """The ARIA tab pattern: arrows move to the next or previous tab (wrapping), Home and End to the ends."""
    tabs = list(document.querySelectorAll(".tab"))
    names = [str(tab.dataset.view) for tab in tabs]
    key = str(event.key)
    current = names.index(PAGE.link.view.view)
    if key in TAB_KEYS:
        target = (current + TAB_KEYS[key]) % len(names)
    elif key in ("Home", "End"):
        target = 0 if key == "Home" else len(names) - 1
    else:
        return
    event.preventDefault()
    PAGE.switch_tab(names[target])
    tabs[target].focus()


def on_history(event) -> None:
    link, notices = read_link(str(window.location.search), fresh_seed)
    deal_view.show_notices(notices)
    PAGE.show(link, "")


async def copy_field(field_id: str, status_id: str, said: str) -> None:
    """Put a link field's text on the clipboard and say ``said``, or select the field for the user where that is refused."""
    try:
        await window.navigator.clipboard.writeText(str(element(field_id).value))
        set_text(status_id, said)
    except Exception:
        # clipboard access can be refused (permissions, insecure origin): let the user copy
        field = element(field_id)
        if field.closest("[hidden]") is not None:
            # not on screen (the bias lab's Copy link): the address bar holds the share link, never the public one
            set_text(status_id, "The browser refused to copy: copy the link in the address bar." if field_id == "share-url"
                     else "The browser refused to copy: the public link is in the sealed-deal box of Shuffle & deal.")
            return
        box = field.closest("details")
        if box is not None:
            box.open = True  # the public link's field is in the seal box
        field.focus()
        field.select()
        set_text(status_id, "Press Ctrl+C (⌘C) to copy the selected link.")


async def copy_link(event, status_id: str = "copy-status") -> None:
    """Copy the share link, or on a sealed deal the public link: never the seed (``deal_view.copy_source``); say so in
    ``status_id`` (the bias lab's Copy link comes here too, with its own status)."""
    public = seal.is_sealed(PAGE.link) or PAGE.sealing()
    await copy_field(deal_view.copy_source(PAGE.link, PAGE.sealing()), status_id,
                     "Public link copied (no seed: the deal is sealed)." if public else "Link copied.")


async def copy_public(event) -> None:
    """Copy the sealed deal's public link (its commitment and deal, no seed), to publish before the game."""
    await copy_field("public-url", "seal-copy-status", "Public link copied: publish it before the game.")


async def copy_reveal(event) -> None:
    """Copy the reveal link (the deal with its seed and commitment), to share after the game."""
    await copy_field("reveal-url", "seal-copy-status", "Reveal link copied: it shows the seed, so share it only after the game.")


def wire() -> None:
    """Listen to the form, the tabs, the history and the copy button."""
    listen("controls", "submit", on_submit)
    listen("controls", "change", on_change)
    listen("new-seed", "click", lambda event: apply_form(fresh_seed()))
    listen("shuffle-again", "click", lambda event: apply_form(reshuffle_if_unchanged=True))  # by the cards: no scroll
    listen("seal-check", "input", on_seal_check)
    listen("player-seed", "change", on_player_seed)
    listen("seal", "toggle", on_seal_toggle)
    for tab in document.querySelectorAll(".tab"):
        listen(tab, "click", on_tab)
        listen(tab, "keydown", on_tab_key)
    # pyscript's `window` proxy loses `this` in addEventListener on MicroPython; js.window keeps it
    listen(js.window, "popstate", on_history)
    listen(js.document, "pointerdown", remember_press, capture=True)  # before the field it leaves sees its change
    for ended in ("click", "pointercancel"):
        listen(js.document, ended, forget_press, capture=False)
    for button, handler in (("copy-link", copy_link), ("copy-public", copy_public), ("copy-reveal", copy_reveal)):
        element(button).addEventListener("click", _proxy_async(handler))


def _proxy_async(handler):
    """Return a proxy that runs the coroutine function ``handler(event)`` as a task on each event."""
    return create_proxy(lambda event: asyncio.create_task(handler(event)))


def start() -> None:
    """Read the link, draw it, enable the controls and mark the page ready."""
    try:
        deal_view.build_form()
        link, notices = read_link(str(window.location.search), fresh_seed)
        deal_view.show_notices(notices)
        PAGE.show(link, "replace")
        wire()
        element("controls-fieldset").disabled = False
        element("shuffle-again").disabled = False
        status = element("status")
        status.dataset.state = "ready"
        status.textContent = ""
        status.hidden = True
        if PAGE.busy:
            document.documentElement.dataset.ready = "dealing"  # Python runs; the cards come in slices
        PAGE.when_dealt(mark_ready)
    except Exception as failure:
        report_failure(failure)
        document.documentElement.dataset.ready = "error"


def mark_ready() -> None:
    """Say the page is ready: Python runs and the link's cards are on screen."""
    document.documentElement.dataset.ready = "true"
    js.performance.mark("shufflelab:deal-ready")  # for the benchmark: cards on screen


def mount(mount_view, *mount_parts) -> None:
    """Mount another view (the bias lab) on the page, then its parts (each given the page and the view), and bring it
    up to date with the current link."""
    try:
        view = mount_view(PAGE)
        for mount_part in mount_parts:
            mount_part(PAGE, view)
        listener = view.link_changed
        listener(PAGE.link)
    except Exception as failure:
        report_failure(failure)
