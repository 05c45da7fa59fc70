"""The deal view: the form that mirrors a deal, and the deck, hands and stock it shows.

The form's controls come from ``link.FIELDS`` (each field names its control) and the
algorithm menu and parameter rows from the catalog, so a new field or algorithm needs
no edit here.
"""

from pyscript import document, window

from shufflelab import catalog, link, seal
from shufflelab.errors import sentence_start
from shufflelab.link import FIELDS, Link

from .dom import create, element, isolated, mark_busy, number_row, set_sentence, set_text, show

COMPACT_ABOVE = 104  # several packs: smaller cards keep the view readable


# --- the form ------------------------------------------------------------------------------


def build_form() -> None:
    """Fill the algorithm menu from the catalog (unbiased first) and make a row per parameter."""
    menu = element("algorithm")
    for verdict, label in ((catalog.UNBIASED, "Unbiased"), (catalog.BIASED, "Biased")):
        group = document.createElement("optgroup")
        group.label = label
        for entry in catalog.entries():
            if entry.verdict == verdict:
                option = create("option", entry.name)
                option.value = entry.id
                group.appendChild(option)
        menu.appendChild(group)
    rows = element("algo-params")
    for field in FIELDS:
        if field.control and field.control.startswith("param-"):
            row = number_row(field.control, field.label, "row")
            row.querySelector("input").name = field.key
            rows.appendChild(row)


def write_form(current: Link) -> None:
    """Make every deal control show the link's value."""
    values = current.values()
    for field in FIELDS:
        if field.part == "deal" and field.control:
            value = values.get(field.key, field.default)
            element(field.control).value = "" if value is None else str(value)


def read_form(current: Link) -> dict:
    """Return the raw texts of every deal control by URL key, plus the current view's values as a link writes them."""
    raw = {}
    values = current.values()
    for field in FIELDS:
        if field.part == "deal" and field.control:
            raw[field.key] = str(element(field.control).value)
        elif field.part == "view" and field.key in values:
            raw[field.key] = field.write(values[field.key])  # as a link writes it: the editor's code packed
    raw["v"] = str(current.deal.version)
    return raw


# --- rendering -----------------------------------------------------------------------------


def render_controls(current: Link) -> None:
    """Show the algorithm's notes and only the form rows whose fields apply (both views show them)."""
    render_algorithm(current.deal)
    values = current.values()
    for field in FIELDS:
        if field.part == "deal" and field.control and field.applies is not None:  # the lab shows its own
            show(field.control + "-row", field.applies_to(values))


def show_dealing(busy: bool) -> None:
    """Mark the deal's panel busy (its old cards dimmed, the summary saying so) while a long shuffle runs."""
    mark_busy("deal-panel", busy)
    if busy:
        set_text("deck-summary", "Shuffling…")


def describe(spec) -> str:
    """Return what a deal is without its seed: the deck, and the algorithm with its parameters."""
    params = "".join(", %s %s" % (name, value) for name, value in spec.params)
    return "%s, shuffled by %s%s" % (spec.deck.describe(), spec.algorithm.name, params)


def render_deal(current: Link, outcome) -> None:
    """Draw the deal's outcome: deck, hands, stock, the spoken summary and the seal."""
    spec = current.deal
    # each user text in its own <bdi>: a seed with a right-to-left override must not reverse the sentence
    player = () if spec.player_seed is None else (", player seed “", isolated(spec.player_seed), "”")
    set_sentence("deck-summary", "%s, seed “" % describe(spec), isolated(spec.seed), "”", *player, ".")
    compact = len(spec.deck) > COMPACT_ABOVE
    for container_id in ("deck", "stock", "hands"):
        element(container_id).classList.toggle("compact", compact)
    labels = card_faces(spec)
    fill_cards(element("deck"), labels, outcome.order)
    render_hands(labels, outcome.deal.hands)
    fill_cards(element("stock"), labels, outcome.deal.stock)
    set_text("stock-count", "(%d cards)" % len(outcome.deal.stock))
    show("stock-heading", True)
    set_text("deal-announcement", announcement(spec, outcome))
    clear_copy_notes()


def render_withheld(current: Link) -> None:
    """Draw a sealed deal's public link: what was sealed, and no cards (the seed is the dealer's until the reveal)."""
    spec = current.deal
    set_text("deck-summary", "A sealed deal: %s, %d hands of %d. Its cards stay hidden until the dealer reveals the seed." % (
        describe(spec), spec.players, spec.cards_each))
    for container_id in ("deck", "stock"):
        element(container_id).replaceChildren()
    render_hands({}, [])
    set_text("stock-count", "")
    show("stock-heading", False)  # no cards, so no stock to name
    set_text("deal-announcement", "A sealed deal: its cards stay hidden until the dealer reveals the seed.")
    clear_copy_notes()


def clear_copy_notes() -> None:
    """Empty the "copied" notes: after a new deal they would be about an older link."""
    set_text("copy-status", "")
    set_text("seal-copy-status", "")


def announcement(spec, outcome) -> str:
    """Return the one sentence a screen reader hears after a shuffle or a deal (plain text: it is never drawn, so a
    seed's direction cannot reorder it on screen, and a reader speaks it in its logical order)."""
    hands = outcome.deal.hands
    dealt = ("; dealt %d hands of %d" % (len(hands), len(hands[0]))) if hands and hands[0] else ""
    top = spec.deck.card(outcome.order[0]).spoken if outcome.order else "nothing"
    player = "" if spec.player_seed is None else " and player seed %s" % spec.player_seed
    return "Shuffled %d cards with %s, seed %s%s%s; top card %s; %d left in the stock." % (
        len(outcome.order), spec.algorithm.name, spec.seed, player, dealt, top, len(outcome.deal.stock))


def render_seal(current: Link) -> None:
    """Show the dealer's side of the seal box (on a link with the seed), fill and judge the check field, and the verdict.

    A reveal link's ``commit=`` fills the check field, opens the box, and its verdict is
    also shown under the deck's summary, where someone opening the link looks first.
    """
    spec = current.deal
    show("seal-dealer", not current.seed_withheld)
    if not current.seed_withheld:
        render_dealer_seal(current)
    wanted = current.view.commitment
    if wanted and link.commitment_text(str(element("seal-check").value)) != wanted:
        element("seal-check").value = wanted
    if wanted or spec.player_seed is not None:
        element("seal").open = True
    check_seal(current)
    render_reveal_verdict(current)


def render_dealer_seal(current: Link) -> None:
    """Show the deal's commitments, its public and reveal links, and warn about a seed too short to seal with."""
    spec = current.deal
    set_text("seal-commitment", seal.commitment(spec))
    set_text("seal-commitment-player", seal.commitment(spec, True) if spec.player_seed is None else "")
    show("seal-player-row", spec.player_seed is None)
    problem = seal.seal_seed_problem(spec.seed)
    set_text("seal-warning", "Don't seal with this seed: it %s. Press New seed first." % problem if problem else "")
    show("seal-warning", bool(problem))
    element("public-url").value = share_url(seal.public_link(current))
    element("reveal-url").value = share_url(seal.reveal_link(current))


def copy_source(current: Link, sealing: bool) -> str:
    """Return the id of the field Copy link copies: the share link, or on a sealed deal (or one being sealed) whose
    seed the page has, the public link, which never carries it."""
    if current.seed_withheld or not (sealing or seal.is_sealed(current)):
        return "share-url"
    return "public-url"


def render_share(current: Link, sealing: bool) -> None:
    """Put the link in the share field, hidden on a sealed deal whose seed it carries; name what Copy link copies."""
    element("share-url").value = share_url(current)
    public = copy_source(current, sealing) == "public-url"
    for node_id in ("share-label", "share-url"):
        show(node_id, not public)  # the seed must not sit on screen ready to copy (the address bar keeps it)
    set_text("copy-link", "Copy public link" if public or current.seed_withheld else "Copy link")


def render_reveal_verdict(current: Link) -> None:
    """Under the summary: whether the cards shown are the ones sealed with the link's commitment (hidden without one)."""
    spec, wanted = current.deal, current.view.commitment
    verdict = element("reveal-verdict")
    show("reveal-verdict", bool(wanted))
    if not wanted:
        return
    short = wanted[:16] + "…"
    if current.seed_withheld:
        verdict.dataset.verdict = "sealed"
        verdict.replaceChildren("Sealed deal, not revealed yet: the dealer committed to ", isolated(short),
                                ". After the game, their reveal link shows the cards and checks them against it.")
        return
    if seal.matches(wanted, spec):
        verdict.dataset.verdict = "match"
        verdict.replaceChildren("Sealed deal checked: these cards match the commitment ", isolated(short), ".")
        return
    verdict.dataset.verdict = "mismatch"
    mixed = spec.player_seed is not None
    hint = ""
    if seal.matches(wanted, spec, not mixed):
        hint = " It was sealed without a player seed." if mixed else " It was sealed with a player seed: the link needs it."
    verdict.replaceChildren("These cards do NOT match the commitment ", isolated(short), " in the link." + hint)


def check_seal(current: Link) -> None:
    """Say whether the commitment in the check field is this deal's (nothing when the field is empty or the seed withheld)."""
    spec = current.deal
    text = str(element("seal-check").value)
    result = element("seal-result")
    if not text.strip() or current.seed_withheld:
        result.textContent = "The seed is not revealed yet: the check waits for the reveal link." if text.strip() else ""
        result.dataset.verdict = ""
        return
    try:
        matched = seal.matches(text, spec)
    except seal.SealError as error:
        result.textContent = sentence_start(str(error)) + "."
        result.dataset.verdict = "mismatch"
        return
    result.dataset.verdict = "match" if matched else "mismatch"
    result.textContent = ("Matches: this is the deal that was sealed." if matched else
                          "Does not match: this is not the deal that was sealed with that commitment.")


def card_faces(spec) -> dict:
    """Return what each card element needs, by id: (label, class name, title, spoken name)."""
    faces = {}
    for card in spec.deck.cards(spec.deck.ids()):
        joker = " joker" if card.joker else ""
        title = "%s (%s)" % (card.label, card.code) if card.suit or card.joker else card.label
        faces[card.id] = (card.label, "card %s%s" % (card.colour or "plain", joker), title, card.spoken)
    return faces


def fill_cards(container, faces: dict, ids: list) -> None:
    """Replace the list's items with these cards, in order, each marked data-card and named aloud with its place."""
    fragment = document.createDocumentFragment()
    total = len(ids)
    for place, card_id in enumerate(ids, 1):
        label, class_name, title, spoken = faces[card_id]
        node = create("li", label, class_name)
        node.dataset.card = str(card_id)
        node.title = title
        node.setAttribute("aria-label", "%s, %d of %d" % (spoken, place, total))
        fragment.appendChild(node)
    container.replaceChildren(fragment)


def render_hands(faces: dict, hands: list) -> None:
    """Draw each hand side by side, labelled 'Player k' and marked data-player=k."""
    fragment = document.createDocumentFragment()
    for number, hand in enumerate(hands, 1):
        box = create("section", None, "hand")
        box.dataset.player = str(number)
        heading = create("h3", "Player %d" % number)
        heading.id = "player-%d-heading" % number
        box.setAttribute("aria-labelledby", heading.id)
        cards = create("ol", None, "cards")
        cards.setAttribute("aria-label", "Player %d's hand" % number)
        fill_cards(cards, faces, hand)
        box.append(heading, cards)
        fragment.appendChild(box)
    element("hands").replaceChildren(fragment)
    show("hands-heading", bool(hands and hands[0]))


def render_algorithm(spec) -> None:
    """Show the algorithm's verdict, description and source."""
    entry = spec.algorithm
    set_text("algo-description", "%s. %s" % ("Biased" if entry.biased else "Unbiased", entry.description))
    element("algo-description").dataset.verdict = entry.verdict
    set_text("algo-source", "Source: " + entry.source)


def render_view(view: str) -> None:
    """Show one view (deal, lab or play) and the controls that belong to it."""
    for name in link.VIEWS:
        tab = element("tab-" + name)
        tab.setAttribute("aria-selected", "true" if name == view else "false")
        tab.tabIndex = 0 if name == view else -1  # only the selected tab is a Tab stop
        show(name + "-panel", name == view)
    for node in document.querySelectorAll(".deal-only"):
        node.hidden = view != "deal"
    show("controls", view != "play")  # the game needs none of the algorithm's form
    document.documentElement.dataset.view = view  # what static/js/view.js set before the first paint


def share_url(current: Link) -> str:
    """Return this page's address with the link's query: the URL that reproduces it."""
    location = window.location
    return "%s%s?%s" % (location.origin, location.pathname, current.to_query())


def show_notices(notices: list) -> None:
    """Say what was replaced by a default: a summary list at the top, and each sentence next to its field.

    The field's own notice is tied to it with aria-describedby (and aria-invalid), so a
    screen reader reads it when the field has focus; it stays until the next notices.
    """
    box = element("notices")
    box.replaceChildren()
    clear_field_notices()
    for notice in notices:
        text = str(notice) + "."
        item = create("li", text)
        item.dataset.field = notice.field
        box.appendChild(item)
        attach_field_notice(notice.field, text)
    show("notices", bool(notices))


def attach_field_notice(key: str, text: str) -> None:
    """Put ``text`` right after the form control of URL key ``key`` (if it has one) and describe the control with it."""
    try:
        control_id = link.field(key).control
    except KeyError:
        return
    control = element(control_id) if control_id else None
    if control is None:
        return
    note = create("p", text, "field-notice")
    note.id = control_id + "-notice"
    control.parentElement.insertAdjacentElement("afterend", note)
    control.setAttribute("aria-describedby", note.id)
    control.setAttribute("aria-invalid", "true")


def keep_rejected(raw: dict, notices: list) -> None:
    """Put each rejected value back in its field as typed (``show_notices`` marked it invalid): the form must not
    change what the user wrote behind their back, only say why it is not used."""
    for notice in notices:
        control = link.FIELD_BY_KEY[notice.field].control if notice.field in link.FIELD_BY_KEY else None
        if control and notice.field in raw:
            element(control).value = raw[notice.field]
            element(control).dataset.rejected = "true"  # typed and refused (a link's refused value is not in the form)


def bring_notice_into_view() -> None:
    """Scroll the first field's notice (with its field) into view, no further than needed: on a phone the cards sit
    above the form, and a rejected value's notice must not be scrolled away from the field it is about."""
    note = document.querySelector(".field-notice")
    if note is None:
        return
    top = note.getBoundingClientRect().top
    field = document.querySelector("[aria-describedby='%s']" % note.id)
    if field is not None:
        top = min(top, field.getBoundingClientRect().top)
    if top < 0 or note.getBoundingClientRect().bottom > window.innerHeight:
        note.scrollIntoView(False)  # the notice's bottom at the window's: its field is just above it


def holds_rejected_values() -> bool:
    """True while a field holds a typed value that was refused (``keep_rejected``)."""
    return document.querySelector("[data-rejected]") is not None


def clear_field_notices() -> None:
    """Remove every field's notice and the attributes that pointed to it."""
    for note in document.querySelectorAll(".field-notice"):
        note.remove()
    for control in document.querySelectorAll("[aria-invalid]"):
        control.removeAttribute("aria-invalid")
        control.removeAttribute("aria-describedby")
        control.removeAttribute("data-rejected")
