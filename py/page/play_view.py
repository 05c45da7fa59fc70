"""The Play tab (main thread, MicroPython): the guessing game and the test of a real deck.

The state and words live in ``play_model`` (tested under CPython). The best strategy's
figures need exact fractions, so they come from the lab's worker (Pyodide, the same
``shufflelab.exact.guessing`` functions as ``python -m shufflelab guess``); a real deck's
test is portable and runs here (``shufflelab.riffles``, as ``python -m shufflelab riffles``).
One card picker (``CardPicker``) serves both: a game's guesses and a real deck's order.
"""

import json

import js
from pyscript import document

from shufflelab.cards import standard_deck
from shufflelab.lab import protocol
from shufflelab.lab.protocol import BestPlay, GuessReport
from shufflelab.rng import new_seed, stream

from . import dom, play_model
from .dom import create, element, listen, one_line, set_command, set_text, show

STATUS = "play-status"
MORE_MS = 300  # a simulated figure gains decks in chunks this long: it tightens while the user watches
ARROWS = {"ArrowLeft": (0, -1), "ArrowRight": (0, 1), "ArrowUp": (-1, 0), "ArrowDown": (1, 0)}


def spawn(coroutine):
    """Run a coroutine in the background; a failure becomes one line in the Play tab's status."""
    return dom.spawn(coroutine, STATUS)


class CardPicker:
    """A grid of card buttons, one row per suit, one Tab stop (arrow keys move, Home/End go to a row's ends).

    ``on_pick(card_id)`` is called on a click or Enter/Space; ``mark(used)`` disables the
    cards in ``used`` (cards already shown, or already typed).
    """

    def __init__(self, container_id: str, label: str, on_pick) -> None:
        self.box = element(container_id)
        self.box.setAttribute("role", "group")
        self.box.setAttribute("aria-label", label)
        self.on_pick = on_pick
        self.rows = []  # rows of buttons, one per suit
        self.focus = (0, 0)
        listen(self.box, "click", self.clicked, STATUS)
        listen(self.box, "keydown", self.key, STATUS)

    def build(self, cards) -> None:
        """Draw these cards (Card objects), a row per suit in the order given."""
        self.box.replaceChildren()
        self.rows = []
        row_box = None
        suit = None
        for card in cards:
            if card.suit != suit:
                suit = card.suit
                row_box = create("div", None, "picker-row")
                self.box.appendChild(row_box)
                self.rows.append([])
            button = create("button", card.label, "pick card " + card.colour)
            button.type = "button"
            button.dataset.pick = str(card.id)
            # the visible label first (speech input users say what they see), then the card's name
            button.setAttribute("aria-label", "%s %s" % (card.label, card.spoken))
            button.tabIndex = -1
            row_box.appendChild(button)
            self.rows[-1].append(button)
        self.focus = (0, 0)
        if self.rows:
            self.rows[0][0].tabIndex = 0

    def mark(self, used) -> None:
        """Disable the buttons of the cards in ``used`` (a set of ids), enable the others."""
        for row in self.rows:
            for button in row:
                button.disabled = int(button.dataset.pick) in used

    def clicked(self, event) -> None:
        """A click or tap on a card (Enter and Space click a focused button too) picks it."""
        button = event.target.closest("button")
        if button is None or button.disabled:
            return
        self.move_to(button)
        self.on_pick(int(button.dataset.pick))

    def move_to(self, button) -> None:
        """Make ``button`` (a click's) the grid's one Tab stop, so Tab comes back to where the user was."""
        pick = str(button.dataset.pick)
        for r, row in enumerate(self.rows):
            for c, other in enumerate(row):
                if str(other.dataset.pick) == pick:  # JS proxies of one element need not be the same object
                    self.set_focus(r, c, False)
                    return

    def set_focus(self, r: int, c: int, move: bool = True) -> None:
        """Make the card at row r, column c the one Tab stop, and focus it when ``move``."""
        old_r, old_c = self.focus
        if old_r < len(self.rows) and old_c < len(self.rows[old_r]):
            self.rows[old_r][old_c].tabIndex = -1
        self.focus = (r, c)
        self.rows[r][c].tabIndex = 0
        if move:
            self.rows[r][c].focus()

    def key(self, event) -> None:
        """Arrows move between cards (a disabled card can be focused, not picked), Home and End to a row's ends."""
        key = str(event.key)
        r, c = self.focus
        if key in ARROWS:
            dr, dc = ARROWS[key]
            r = max(0, min(len(self.rows) - 1, r + dr))
            c = max(0, min(len(self.rows[r]) - 1, c + dc))
        elif key in ("Home", "End"):
            c = 0 if key == "Home" else len(self.rows[r]) - 1
        else:
            return
        event.preventDefault()
        self.set_focus(r, c)


class Play:
    """The Play tab: the figure from the worker, the game on screen, and the real deck's test."""

    def __init__(self, page, client) -> None:
        self.page = page
        self.client = client  # the lab's worker (lab_client.LabClient), which computes the figure and the best play
        self.game = None
        self.best = None  # BestPlay of the finished game
        self.figure_ticket = 0  # bumped on every new (n, k, feedback): an older figure's loop stops
        self.figure_key = None
        self.figure_done = False
        self.figure_running = False  # a figure's loop is under way (one at a time per ticket)
        self.visible = False
        self.game_picker = CardPicker("play-picker", "Cards to guess", self.pick)
        self.real_picker = CardPicker("real-picker", "Cards of your deck, in order", self.pick_real)
        self.real_picker.build(standard_deck().cards(standard_deck().ids()))

    # --- the settings and the figure --------------------------------------------------------

    def settings(self) -> tuple:
        """Return (n, k, feedback) as the controls say."""
        feedback = "full" if element("play-feedback-full").checked else "none"
        return int(element("play-n").value), int(element("play-k").value), feedback

    def link_changed(self, link) -> None:
        """Start the figure on the first visit to the tab (the worker starts then, if the lab has not started it); a
        simulated figure left unfinished goes on from where it was when the tab is back."""
        self.visible = link.view.view == "play"
        if not self.visible or self.figure_running:
            return
        if self.figure_key != self.settings():
            self.refresh_figure()
        elif not self.figure_done:
            spawn(self.figure(self.figure_ticket, resume=True))

    def settings_changed(self) -> None:
        """New settings: a new figure, and the game in progress (of the old settings) is put away."""
        self.game = None
        self.best = None
        self.draw_game()
        self.refresh_figure()

    def refresh_figure(self) -> None:
        """Begin a new figure for the settings; an older figure's loop stops at its next answer."""
        self.figure_ticket += 1
        self.figure_running = False
        spawn(self.figure(self.figure_ticket))

    async def figure(self, ticket: int, resume: bool = False) -> None:
        """Show the best expected score for the settings: exact at once, or simulated in chunks while the tab shows."""
        self.figure_running = True
        try:
            await self.run_figure(ticket, resume)
        finally:
            if ticket == self.figure_ticket:
                self.figure_running = False

    async def run_figure(self, ticket: int, resume: bool) -> None:
        if not resume:
            self.figure_key = self.settings()
            self.figure_done = False
            element("play-expected").removeAttribute("data-value")
            element("play-expected").removeAttribute("data-exact")
            set_text("play-expected", "Best strategy: working it out… (the first visit starts Python's worker, a few "
                     "seconds)")
            set_text("play-random", "")
        n, k, feedback = self.figure_key
        try:
            await self.client.ready()
        except RuntimeError as error:  # the worker could not start (offline on a first visit): say so, offer Retry
            if ticket == self.figure_ticket:
                set_text("play-expected", "Best strategy: not worked out: %s." % one_line(error))
                show("play-retry", True)
            return
        if ticket != self.figure_ticket:
            return
        if resume:  # the worker kept its decks: go on adding to them
            report = protocol.read(await self.client.ask("guess_more", MORE_MS), GuessReport)
        else:
            report = protocol.read(await self.client.ask("guess_begin", n, k, feedback), GuessReport)
        while ticket == self.figure_ticket:
            self.show_figure(report.report)
            if report.done:
                self.figure_done = True
                return
            if not self.visible:
                return  # goes on (the worker keeps its decks) when the tab is back
            report = protocol.read(await self.client.ask("guess_more", MORE_MS), GuessReport)

    def retry(self) -> None:
        """Try to start the worker again (as the lab's Retry does), and work the figure out once it has."""
        show("play-retry", False)
        self.client.retry()
        self.refresh_figure()

    def show_figure(self, report: dict) -> None:
        """Put a guess_report on the page: the best strategy's figure, a random deck's, the command that checks it."""
        figure = element("play-expected")
        figure.dataset.exact = "true" if report["exact"] else "false"
        figure.dataset.value = repr(report["expected_value"])
        set_text("play-expected", "Best strategy: %s" % play_model.figure_value(report))
        set_text("play-random", "A perfectly shuffled deck: %s" % play_model.random_value(report))
        set_command("play-cli", play_model.cli_command(report))

    # --- the game ----------------------------------------------------------------------------

    def new_game(self) -> None:
        """Deal a new deck with fresh randomness from the browser's CSPRNG and start guessing."""
        n, k, feedback = self.settings()
        self.game = play_model.deal_game(n, k, feedback, stream(new_seed(dom.random_bytes)))
        self.best = None
        self.game_picker.build(play_model.game_cards(n))
        self.draw_game()
        bring_game_into_view()
        element("play-picker").querySelector("button").focus(js.JSON.parse('{"preventScroll": true}'))

    def pick(self, card: int) -> None:
        if self.game is None or self.game.over:
            return
        self.game.guess(card)
        self.draw_game()
        if self.game.over:
            spawn(self.score())

    def undo(self) -> None:
        if self.game is not None:
            self.game.undo()
            self.draw_game()

    def finish(self) -> None:
        """Stop (with feedback) or Reveal (without): score the game."""
        if self.game is not None and self.game.finish():
            self.draw_game()
            spawn(self.score())

    def select_slot(self, event) -> None:
        slot = event.target.closest("button[data-slot]")
        if slot is not None and self.game is not None:
            self.game.select(int(slot.dataset.slot))
            self.draw_game()

    async def score(self) -> None:
        """Ask the worker for the best strategy on this same deck, then say how the user did."""
        game = self.game
        set_text("play-score", "Scoring: the best strategy plays the same deck…")
        await self.client.ready()
        answer = await self.client.ask("best_play", json.dumps(game.order), game.k, game.feedback, game.played())
        best = protocol.read(answer, BestPlay)
        if game is not self.game:
            return
        self.best = best
        self.draw_game()

    def draw_game(self) -> None:
        """Draw the positions (cards shown, guesses, the best strategy's once scored), the prompt, the buttons."""
        game = self.game
        table = element("play-table")
        table.replaceChildren()
        playing = game is not None
        show("play-game", playing)
        if not playing:
            element("play-score").removeAttribute("data-you")
            element("play-score").removeAttribute("data-best")
            set_text("play-score", "")
            return
        cards = play_model.game_cards(game.n)
        shown = game.shown()
        fragment = document.createDocumentFragment()
        for place in range(game.n if game.feedback == "none" else min(shown + (0 if game.over else 1), game.n)):
            fragment.appendChild(self.slot(cards, place, place < shown))
        table.appendChild(fragment)
        set_text("play-prompt", play_model.prompt(game))
        used = set(game.order[:shown]) if game.feedback == "full" else set()
        self.game_picker.mark(set(range(game.n)) if game.over else used)
        element("play-undo").disabled = game.over
        finishing = element("play-finish")
        finishing.textContent = "Stop and score" if game.feedback == "full" else "Reveal"
        finishing.disabled = game.over or (game.ready() is False if game.feedback == "none" else not game.guesses)
        score = element("play-score")
        if self.best is None:  # not scored yet: nothing of an earlier game's score may stay (tests wait on data-best)
            score.removeAttribute("data-you")
            score.removeAttribute("data-best")
            score.textContent = "" if not game.over else score.textContent
            return
        score.dataset.you = str(game.right())
        score.dataset.best = str(self.best.right)
        score.textContent = play_model.score_sentence(game, self.best.right, self.best.random_deck_value)

    def slot(self, cards, place: int, face_up: bool):
        """One position of the game: the true card once shown, the user's guess, the best strategy's once scored."""
        game = self.game
        item = create("li", None, "slot")
        guess = game.guesses[place] if place < len(game.guesses) else None
        if face_up:
            card = cards[game.order[place]]
            item.dataset.dealt = str(card.id)
            face = create("span", card.label, "card " + card.colour)
            right = guess == card.id
            item.classList.add("right" if right else "unplayed" if place >= game.played() else "wrong")
            item.appendChild(face)
            if place < game.played():
                item.appendChild(create("span", "you %s %s" % ("—" if guess is None else cards[guess].label,
                                                              "✓" if right else "✗"), "slot-note"))
            else:
                item.appendChild(create("span", "not played", "slot-note"))
            if self.best is not None and place < len(self.best.guesses):
                best = self.best.guesses[place]
                item.appendChild(create("span", "best %s" % cards[best].label, "slot-note"))
            item.setAttribute("aria-label", "%d: %s; %s" % (
                place + 1, card.spoken, "not played" if place >= game.played() else "you guessed %s%s" % (
                    "nothing" if guess is None else cards[guess].spoken, ", right" if right else "")))
        elif game.feedback == "none":
            button = create("button", "%d: %s" % (place + 1, "–" if guess is None else cards[guess].label), "slot-pick")
            button.type = "button"
            button.dataset.slot = str(place)
            button.setAttribute("aria-pressed", "true" if place == game.cursor else "false")
            item.appendChild(button)
        else:
            item.appendChild(create("span", "?", "card back"))
            item.setAttribute("aria-label", "%d: your guess?" % (place + 1))
        return item

    # --- a real deck -------------------------------------------------------------------------

    def pick_real(self, card: int) -> None:
        """A tap on the real deck's picker adds the card's code to the typed order."""
        box = element("real-order")
        box.value = play_model.appended_code(str(box.value), standard_deck().codes([card])[0])
        self.typed()
        if len(play_model.typed_cards(str(box.value))) == len(standard_deck()):
            self.check_real()

    def typed(self) -> None:
        """Mark the cards typed so far as used on the picker."""
        self.real_picker.mark(play_model.typed_cards(str(element("real-order").value)))

    def undo_real(self) -> None:
        box = element("real-order")
        box.value = play_model.dropped_code(str(box.value))
        self.typed()

    def clear_real(self) -> None:
        element("real-order").value = ""
        self.typed()
        show("real-error", False)
        show("real-result", False)

    def check_real(self) -> None:
        """Assess the typed order (riffles.assess, as the CLI): one line naming what is wrong, or the result."""
        result, problem = play_model.check_real_deck(str(element("real-order").value))
        show("real-error", problem is not None)
        show("real-result", result is not None)
        element("real-order").setAttribute("aria-invalid", "true" if problem else "false")
        if problem is not None:
            set_text("real-error", problem[:1].upper() + problem[1:] + ("" if problem.endswith(".") else "."))
            return
        set_text("real-verdict", result["sentence"])
        set_text("real-rising", "%d rising sequence%s." % (result["rising"], "" if result["rising"] == 1 else "s"))
        set_text("real-range", play_model.range_text(result))
        body = element("real-table-body")
        body.replaceChildren()
        for k, shown, plausible in play_model.likelihood_rows(result):
            row = create("tr", None, "plausible" if plausible else None)
            row.appendChild(create("th", str(k)))
            row.appendChild(create("td", shown))
            row.appendChild(create("td", "plausible" if plausible else ""))
            row.firstChild.setAttribute("scope", "row")
            body.appendChild(row)


def bring_game_into_view() -> None:
    """Play it asks for a game: put its prompt at the top of the window, the picker under it (a phone's first screen
    then holds both), unless they are in view already."""
    prompt, picker = element("play-prompt").getBoundingClientRect(), element("play-picker").getBoundingClientRect()
    if prompt.top < 0 or picker.bottom > js.window.innerHeight:
        js.window.scrollBy(0, prompt.top - 8)


def build_controls() -> None:
    """Fill the game's menus from play_model (one list of sizes and riffles)."""
    for control, choices, default in (("play-n", play_model.GAME_SIZES, play_model.DEFAULT_GAME_SIZE),
                                      ("play-k", play_model.RIFFLE_CHOICES, play_model.DEFAULT_RIFFLES)):
        menu = element(control)
        for value in choices:
            option = create("option", str(value))
            option.value = str(value)
            option.selected = value == default
            menu.appendChild(option)


def mount(page, client) -> Play:
    """Create the Play tab, subscribe it to the page's link and wire its controls."""
    build_controls()
    play = Play(page, client)
    page.listeners.append(play.link_changed)

    def on(element_id: str, event: str, handler) -> None:
        listen(element_id, event, handler, STATUS)

    for control in ("play-n", "play-k", "play-feedback-full", "play-feedback-none"):
        on(control, "change", lambda event: play.settings_changed())
    on("play-deal", "click", lambda event: play.new_game())
    on("play-retry", "click", lambda event: play.retry())
    on("play-undo", "click", lambda event: play.undo())
    on("play-finish", "click", lambda event: play.finish())
    on("play-table", "click", play.select_slot)
    on("real-order", "input", lambda event: play.typed())
    on("real-check", "click", lambda event: play.check_real())
    on("real-undo", "click", lambda event: play.undo_real())
    on("real-clear", "click", lambda event: play.clear_real())
    play.link_changed(page.link)
    return play

