"""Page glue for Shuffle Lab (PyScript, main thread): read inputs, call shufflelab, render.

The page's whole state is one ``share.State``; the URL query is its serialisation and the
form only mirrors it. Every text that came from a user or a URL is set as ``textContent``,
never as HTML.
"""

from urllib.parse import urlencode

from pyscript import document, when, window

import lab
from shufflelab import algorithms
from shufflelab.deal import DealError
from shufflelab.rng import new_seed
from shufflelab.share import MAX_PLAYERS, State, play, with_changes

FORM_FIELDS = ("algo", "passes", "repetitions", "seed", "deck", "packs", "jokers", "size",
               "players", "cards", "style")


class Page:
    """The current state, and the listeners (such as the bias lab) told when it changes."""

    def __init__(self) -> None:
        self.state = State(seed=new_seed())
        self.listeners = []

    def set(self, state: State) -> None:
        """Make ``state`` current: render it, put it in the URL, tell the listeners."""
        self.state = state
        render(state)
        window.history.replaceState(None, "", "?" + state.to_query())
        for listener in self.listeners:
            listener(state)

    def update(self, **changes) -> None:
        """Make current a copy of the state with some fields changed (used by the bias lab)."""
        self.set(with_changes(self.state, **changes))


PAGE = Page()


def element(element_id: str):
    """Return the element with this id (the page's ids are fixed in index.html)."""
    return document.getElementById(element_id)


def set_text(element_id: str, text: str) -> None:
    """Set an element's text; text is never parsed as HTML."""
    element(element_id).textContent = text


def show(element_id: str, visible: bool) -> None:
    """Show or hide an element."""
    element(element_id).hidden = not visible


# --- the form ------------------------------------------------------------------------------


def fill_algorithm_choices() -> None:
    """Fill the algorithm menu from the registry, unbiased first, in two labelled groups."""
    menu = element("algorithm")
    for verdict, label in ((algorithms.UNBIASED, "Unbiased"), (algorithms.BIASED, "Biased")):
        group = document.createElement("optgroup")
        group.label = label
        for algorithm in algorithms.ALGORITHMS:
            if algorithm.verdict == verdict:
                option = document.createElement("option")
                option.value = algorithm.id
                option.textContent = algorithm.name
                group.appendChild(option)
        menu.appendChild(group)


def write_form(state: State) -> None:
    """Make every control show the state's value."""
    params = state.resolved_params()
    deck = state.deck.as_dict()
    values = {
        "algorithm": state.algo, "seed": state.seed, "deck-kind": state.deck.kind,
        "packs": deck.get("packs", 1), "jokers": deck.get("jokers", 0), "size": deck.get("size", 52),
        "players": state.players, "cards-each": state.cards_each, "deal-style": state.style,
    }
    for name in ("passes", "repetitions"):
        values[f"param-{name}"] = params.get(name, "")
    for element_id, value in values.items():
        element(element_id).value = str(value)


def read_form_query() -> str:
    """Return the form's values as a URL query, plus the state's fields the form lacks."""
    form = element("controls")
    pairs = []
    for name in FORM_FIELDS:
        field = form.elements.namedItem(name)
        # a hidden row is a parameter that does not apply (another algorithm's, another deck's)
        if field is not None and not field.closest(".row[hidden]"):
            pairs.append((name, str(field.value)))
    lab = PAGE.state
    pairs += [("view", lab.view), ("n", str(lab.lab_n)), ("heat", lab.heat)]
    if lab.tally_seed:
        pairs.append(("tseed", lab.tally_seed))
    return urlencode(pairs)


def apply_form(fresh_seed: bool = False) -> None:
    """Apply the form: a valid state is rendered; an impossible deal changes nothing."""
    if fresh_seed:
        element("seed").value = new_seed()
    try:
        state, notices = State.from_query(read_form_query(), strict_deal=True)
    except DealError as error:
        message = str(error)
        set_text("deal-error", f"{message[:1].upper()}{message[1:]}; the cards shown are unchanged.")
        show("deal-error", True)
        return
    show("deal-error", False)
    show_notices(notices)
    write_form(state)
    PAGE.set(state)


def show_notices(notices: list[str]) -> None:
    """List what was replaced by a default, one line each; hide the list when empty."""
    box = element("notices")
    box.replaceChildren()
    for notice in notices:
        item = document.createElement("li")
        item.textContent = f"{notice}."
        box.appendChild(item)
    show("notices", bool(notices))


# --- rendering -----------------------------------------------------------------------------


def card_element(state: State, card_id: int):
    """Return a card as an element: label text, colour, and data-card for readers and tests."""
    card = state.deck.card(card_id)
    node = document.createElement("span")
    node.className = f"card {card.colour or 'plain'}{' joker' if card.joker else ''}"
    node.dataset.card = str(card_id)
    node.textContent = card.label
    node.title = f"{card.label} ({card.code})" if card.suit or card.joker else card.label
    return node


def fill_cards(container, state: State, ids: list[int]) -> None:
    """Replace the container's children with these cards, in order."""
    fragment = document.createDocumentFragment()
    for card_id in ids:
        fragment.appendChild(card_element(state, card_id))
    container.replaceChildren(fragment)


def render(state: State) -> None:
    """Draw the whole state: algorithm notes, deck, hands, stock, link and view."""
    render_algorithm(state)
    render_deck_controls(state)
    outcome = play(state)
    params = "".join(f", {k} {v}" for k, v in state.resolved_params().items())
    set_text("deck-summary",
             f"{state.deck.describe()}, shuffled by {state.algorithm.name}{params}, seed “{state.seed}”.")
    compact = len(state.deck) > 104  # several packs: smaller cards keep the view readable
    for container_id in ("deck", "stock", "hands"):
        element(container_id).classList.toggle("compact", compact)
    fill_cards(element("deck"), state, outcome.order)
    render_hands(state, outcome.deal.hands)
    fill_cards(element("stock"), state, outcome.deal.stock)
    set_text("stock-count", f"({len(outcome.deal.stock)} cards)")
    element("share-url").value = share_url(state)
    set_text("copy-status", "")  # a "copied" note would now be about an older link
    render_view(state.view)


def render_algorithm(state: State) -> None:
    """Show the algorithm's verdict, description and source, and only its parameters."""
    algorithm = state.algorithm
    verdict = "Unbiased" if not algorithm.biased else "Biased"
    set_text("algo-description", f"{verdict}. {algorithm.description}")
    element("algo-description").dataset.verdict = algorithm.verdict
    set_text("algo-source", f"Source: {algorithm.source}")
    names = {p.name: p for p in algorithm.params}
    for name in ("passes", "repetitions"):
        show(f"param-{name}-row", name in names)
        if name in names:
            field = element(f"param-{name}")
            field.min = str(names[name].minimum)
            field.max = str(names[name].maximum)


def render_deck_controls(state: State) -> None:
    """Show the size field for numbered decks, packs and jokers for playing cards."""
    numbered = state.deck.kind == "numbered"
    show("size-row", numbered)
    show("packs-row", not numbered)
    show("jokers-row", not numbered)
    element("cards-each").max = str(len(state.deck))
    element("players").max = str(MAX_PLAYERS)


def render_hands(state: State, hands: list[list[int]]) -> None:
    """Draw each hand side by side, labelled 'Player k' and marked data-player=k."""
    container = element("hands")
    fragment = document.createDocumentFragment()
    for number, hand in enumerate(hands, start=1):
        box = document.createElement("section")
        box.className = "hand"
        box.dataset.player = str(number)
        title = document.createElement("h3")
        title.textContent = f"Player {number}"
        cards = document.createElement("div")
        cards.className = "cards"
        fill_cards(cards, state, hand)
        box.append(title, cards)
        fragment.appendChild(box)
    container.replaceChildren(fragment)
    show("hands-heading", bool(hands and hands[0]))


def render_view(view: str) -> None:
    """Show one view (deal or lab) and the controls that belong to it."""
    for name in ("deal", "lab"):
        tab = element(f"tab-{name}")
        tab.setAttribute("aria-selected", "true" if name == view else "false")
        show(f"{name}-panel", name == view)
    for node in document.querySelectorAll(".deal-only"):
        node.hidden = view != "deal"


def share_url(state: State) -> str:
    """Return this page's address with the state's query: the link that reproduces it."""
    location = window.location
    return f"{location.origin}{location.pathname}?{state.to_query()}"


# --- events --------------------------------------------------------------------------------


def guarded(handler):
    """Run a handler so that any failure is one line in the status, never a traceback."""

    def run(event=None):
        try:
            return handler(event)
        except Exception as error:  # the page must stay usable whatever happens
            report_failure(error)

    return run


def report_failure(error: Exception) -> None:
    """Say in one line that something failed, keeping the page usable."""
    status = element("status")
    status.dataset.state = "error"
    status.textContent = f"Something went wrong: {' '.join(str(error).split())[:200]}"


@when("submit", "#controls")
@guarded
def on_submit(event) -> None:
    event.preventDefault()
    apply_form()


@when("change", "#controls")
@guarded
def on_change(event) -> None:
    if event.target.id != "share-url":
        apply_form()


@when("click", "#new-seed")
@guarded
def on_new_seed(event) -> None:
    apply_form(fresh_seed=True)


@when("click", ".tab")
@guarded
def on_tab(event) -> None:
    PAGE.update(view=event.currentTarget.dataset.view)


@when("click", "#copy-link")
async def on_copy_link(event) -> None:
    url = share_url(PAGE.state)
    try:
        await window.navigator.clipboard.writeText(url)
        set_text("copy-status", "Link copied.")
    except Exception:
        # clipboard access can be refused (permissions, insecure origin): let the user copy
        field = element("share-url")
        field.focus()
        field.select()
        set_text("copy-status", "Press Ctrl+C (⌘C) to copy the selected link.")


def start() -> None:
    """Read the URL, draw it, enable the controls and mark the page ready."""
    fill_algorithm_choices()
    lab.mount(PAGE)
    state, notices = State.from_query(str(window.location.search))
    show_notices(notices)
    write_form(state)
    PAGE.set(state)
    element("controls-fieldset").disabled = False
    status = element("status")
    status.dataset.state = "ready"
    status.textContent = "Python ready."
    document.documentElement.dataset.ready = "true"


try:
    start()
except Exception as failure:
    report_failure(failure)
    document.documentElement.dataset.ready = "error"
