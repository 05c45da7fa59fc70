"""The bias lab's state and decisions, apart from the page and the workers: its view model.

What runs (the menu's algorithm or the user's shuffle, on one side or two), the
Start/Pause/Run/Reset state, which side tallies next so a comparison stays fair, the time left
of an exact matrix, and the words and figures derived from them. No ``js`` or ``pyscript``
import: it runs on the page (MicroPython) and is unit-tested under CPython
(``tests/unit/page/test_lab_model.py``). ``lab_view.Lab`` adds the workers and the drawing.
"""

from shufflelab import catalog
from shufflelab.catalog import CUSTOM_ID
from shufflelab.lab.protocol import TallyConfig
from shufflelab.lab.words import distance_sentence

CATCH_UP_CHUNKS = 10  # after Pause, at most this many chunks (2 s) for the side behind to reach the other's count
DISTANCE_NOTE_CARDS = 7  # on a deck this small, say why an exact distance is missing (on a big one it is plain)


class Side:
    """One of the lab's two tallies: its worker slot, the ids of its part of the page, and what it last drew.

    Side "a" is the lab's main tally (the menu's algorithm, or the user's shuffle once it
    runs) and uses the ids in index.html; side "b", the algorithm it is compared with, uses
    copies of them ending in "-b" (``lab_draw.clone_side_b``).
    """

    def __init__(self, slot: str, suffix: str, letter: str) -> None:
        self.slot = slot
        self.suffix = suffix
        self.letter = letter  # how a comparison names it: "A", "B"
        self.config = None  # what the worker tallies in this slot; None: nothing (no comparison)
        self.generation = 0  # bumped on every reset: answers for an older tally are dropped
        self.latest = None
        self.matrix = None  # the exact matrix of the current configuration, when there is one
        self.cursor = None  # (card, position) the arrow keys are on in the heat map
        self.title = ""  # "A · Fisher–Yates (Durstenfeld)" while comparing, "Your shuffle" for the user's, else ""
        self.compared = False  # shown beside the other side
        self.said = None  # the verdict last announced (its level): a screen reader hears a change, not every count

    def id(self, name: str) -> str:
        """Return the id of this side's copy of the element ``name``."""
        return name + self.suffix

    def prefix(self, text: str) -> str:
        """Say which side a status line is about when there are two."""
        return "%s: %s" % (self.letter, text) if self.compared else text

    def verdict_news(self, level: str, sentence: str) -> str:
        """Return what to announce of the side's verdict, now ``level`` with ``sentence``: the sentence when the level
        differs from the one last announced, '' when it does not or while there are too few shuffles to tell (a new
        tally starts there, so its first verdict is heard again)."""
        if level == "too-few":
            self.said = None
            return ""
        if level == self.said:
            return ""
        self.said = level
        return self.prefix(sentence)

    def trials(self) -> int:
        """Return how many shuffles the side's last snapshot counted (0 before the first)."""
        return self.latest.trials if self.latest is not None else 0

    def rate(self) -> float:
        """Return the side's last measured shuffles per second (0 before the first)."""
        return self.latest.rate if self.latest is not None else 0.0


class LabModel:
    """What the lab runs and whether it runs: its two sides, Start/Pause, the user's shuffle, and fair turns."""

    def __init__(self) -> None:
        self.running = False
        self.resume_when_shown = False  # paused by hiding, not by the user
        self.custom_active = False  # side a tallies the user's shuffle (in the sandbox), not the menu's algorithm
        self.ran_code = None  # the user's code whose results the lab shows (the last that ran)
        self.box_code = None  # the code in the box now, once the user has edited or run it
        self.a = Side("a", "", "A")
        self.b = Side("b", "-b", "B")

    def sides(self) -> tuple:
        """Return the sides in use: the main one, and the compared one when there is a comparison."""
        return (self.a, self.b) if self.b.config is not None else (self.a,)

    def custom_side(self, side: Side) -> bool:
        """Whether the side tallies the user's shuffle (counted in the sandbox) rather than a built-in."""
        return side.config is not None and side.config.algo == CUSTOM_ID

    def tally_config(self, link, side: Side):
        """What the worker should tally on a side for ``link`` (None: side b with nothing compared).

        Side a: the menu's algorithm, or the user's shuffle once it runs; side b: the view's comparison.
        """
        view = link.view
        seed = view.tally_seed or None
        if side is self.b:
            if not view.compare:
                return None
            return TallyConfig(view.compare, [list(p) for p in view.compare_params], view.lab_n, seed, "b")
        algo, params = (CUSTOM_ID, []) if self.custom_active else (link.deal.algo, [list(p) for p in link.deal.params])
        return TallyConfig(algo, params, view.lab_n, seed, "a")

    def code_in_box(self, source: str) -> bool:
        """Note the code now in the box; return whether that changed whether the results shown are stale."""
        was = self.results_stale()
        self.box_code = source
        return self.results_stale() != was

    def code_ran(self, source: str) -> None:
        """The box's code compiled and runs: the results shown are its own."""
        self.ran_code = self.box_code = source

    def results_stale(self) -> bool:
        """True while the lab shows the user's shuffle for code other than the box's (edited since, or a Run failed)."""
        return self.custom_active and self.box_code is not None and self.box_code != self.ran_code

    def name_sides(self) -> None:
        """Title each side: "A · …" and "B · …" when comparing; what the user's code counted is always "Your shuffle",
        said to be the earlier code's when the box's code is not what ran."""
        comparing = self.b.config is not None
        for side in (self.a, self.b):
            side.compared = comparing
            if comparing:
                side.title = "%s · %s" % (side.letter, config_name(side.config))
            else:
                side.title = "Your shuffle" if self.custom_side(side) else ""
            if side.title and self.custom_side(side) and self.results_stale():
                side.title += " (the code that last ran, not the code in the box now)"

    def next_side(self):
        """Return the side to tally next and how far (None: as far as a chunk goes).

        With a comparison, the side behind catches up to the other's count exactly; when they are
        level, the slower side runs a whole chunk. So both verdicts rest on as many shuffles,
        however much faster one side is, and the slower side never waits.
        """
        if self.b.config is None:
            return self.a, None
        a, b = self.a.trials(), self.b.trials()
        if a != b:
            return (self.a, b) if a < b else (self.b, a)
        rate_a, rate_b = self.a.rate(), self.b.rate()
        return (self.b, None) if 0 < rate_b < rate_a else (self.a, None)

    def next_chunk(self, catching_up: int):
        """Return (side, up_to, chunks caught up so far) for the run loop's next chunk, or None when it should stop:
        while running, always; after Pause, only for the side behind to catch up, at most CATCH_UP_CHUNKS chunks."""
        side, up_to = self.next_side()
        if self.running:
            return side, up_to, 0
        if up_to is None or catching_up >= CATCH_UP_CHUNKS:
            return None
        return side, up_to, catching_up + 1

    def start(self) -> bool:
        """Mark the lab running; return whether it was not already (the caller then starts the loop)."""
        if self.running:
            return False
        self.running = True
        return True

    def pause(self) -> None:
        """Stop after the chunk under way (by the user: coming back into sight does not resume)."""
        self.running = False
        self.resume_when_shown = False

    def seen(self, shown: bool):
        """Follow whether the lab is on screen; return "hidden" when it pauses for that, "shown" when it should resume,
        else None."""
        if not shown and self.running:
            self.running = False
            self.resume_when_shown = True
            return "hidden"
        if shown and self.resume_when_shown:
            self.resume_when_shown = False
            return "shown"
        return None

    def leave_custom(self) -> bool:
        """Go back to the menu's algorithm; return whether the user's shuffle was running."""
        was_custom, self.custom_active = self.custom_active, False
        return was_custom

    def forget_tallies(self) -> None:
        """A worker was lost: nothing runs, no side has a tally, and answers still on their way are dropped."""
        self.running = False
        for side in (self.a, self.b):
            side.config = None
            side.generation += 1


class ProgressClock:
    """The time left of an exact matrix computed in steps, measured on the page's clock from the first answer on."""

    def __init__(self) -> None:
        self.first = None  # (seconds, fraction done) at the first answer

    def left(self, now: float, done: float, estimate: float) -> float:
        """Return the seconds still needed at the pace seen since the first answer (the worker's ``estimate`` until
        there is a pace to see)."""
        if self.first is None or done <= self.first[1]:
            self.first = self.first or (now, done)
            return estimate
        return (now - self.first[0]) * (1 - done) / (done - self.first[1])


def progress_text(done: float, elapsed: float, left: float) -> str:
    """Say how far a slow exact matrix has got, and the time left at the pace seen so far."""
    return ("Computing the exact matrix: %d%% done in %d s, about %d s left (the tally shares the worker "
            "meanwhile)…" % (int(done * 100), elapsed, round(left)))


STATUS = "lab-status"  # the lab's status line: what runs, and what went wrong (one id, for every lab module)


class StatusLine:
    """Who may write the lab's status line: a notice (a refused value, a failure) stays until someone acts again.

    A background step (a tally's start, a slow matrix's progress, "Ready") claims the line
    when it begins and writes only while no notice came after its claim: a late "Ready"
    never replaces the "…; kept 6." the user was just told.
    """

    def __init__(self) -> None:
        self.notices = 0

    def claim(self) -> int:
        """Return a claim for a background step beginning now."""
        return self.notices

    def may_write(self, claim: int) -> bool:
        """Say whether a background step with this claim may still write: no notice came after it began."""
        return claim == self.notices

    def noticed(self) -> None:
        """Record a notice: every background step begun before it stops writing."""
        self.notices += 1


SLOW_START_SECONDS = 10  # with nothing heard of the fetch by then, say what the start is waiting for
LAB_DOWNLOAD_MB = 14  # Pyodide's files, the lab's download, rounded: test_lab_model.py checks it against the manifest


def start_progress(fetched, seconds: float, kept: bool = False):
    """Say how far the lab's worker has got in starting: (text, share of its runtime fetched, or None when unknown).

    ``fetched``: (bytes, total) of the runtime fetched so far, or None when nothing says (no service worker in
    control, or nothing to fetch); ``seconds``: since the start began; ``kept``: the runtime is kept from an earlier
    visit (so there is nothing to download).
    """
    if fetched is not None and fetched[1] > 0:
        loaded, total = min(fetched[0], fetched[1]), fetched[1]
        if loaded < total:
            return ("Fetching the lab's Python: %.1f of %.1f MB…" % (loaded / 1e6, total / 1e6), loaded / total)
        return "Starting the lab's Python…", 1.0
    if kept:
        return "Starting the lab's Python…", None
    if seconds >= SLOW_START_SECONDS:
        return "Still starting: the worker downloads Pyodide (about %d MB, once; then it is cached)…" % LAB_DOWNLOAD_MB, None
    return "Starting the worker (Pyodide, a few seconds)…", None


def sampling_noise(n: int, trials: int) -> float:
    """Return about how much sampling adds to a total variation distance measured from ``trials`` decks of n cards
    (its expectation for a uniform shuffle is near 0.4·sqrt(n!/trials) while that is small)."""
    factorial = 1
    for k in range(2, n + 1):
        factorial *= k
    return 0.4 * (factorial / trials) ** 0.5


def config_name(config) -> str:
    """Name a tally for a side's title: the algorithm and the parameters it was given."""
    if config is None:
        return ""
    if config.algo == CUSTOM_ID:
        return "your shuffle"
    entry = catalog.get(config.algo)
    given = ", ".join("%s %d" % (name, value) for name, value in config.params)
    return "%s (%s)" % (entry.name, given) if given else entry.name


def model_text(status) -> str:
    """Return ' Exact model: …' where what the exact answers model depends on the deck size, else ''."""
    return " Exact model: %s." % status.model if status.model else ""


def distance_text(status, config) -> str:
    """Return ' Exact distance to uniform: …' for a small deck (or why there is none), else ''."""
    if status.distance:
        return " " + distance_sentence(status.distance)  # the command line's tally prints the same sentence
    if status.distance_reason and config is not None and config.n <= DISTANCE_NOTE_CARDS:
        return " No exact distance to uniform: %s." % status.distance_reason.rstrip(".")
    return ""


def edge_words(tv: float) -> str:
    """Say a bettor's best edge (a total variation distance) in words: 'about 1 in 3', 'more than half', 'none'."""
    if tv <= 0:
        return "none"
    if tv >= 0.5:
        return "more than half"
    return "about 1 in %d" % round(1 / tv)


def riffle_conclusion(n: int, tv) -> str:
    """Say the riffle chart's conclusion in one sentence: from how many riffles (``tv[k - 1]`` is after k) a bettor's
    edge falls below a half, what it is then and one riffle later."""
    first = next((k for k, value in enumerate(tv, 1) if value < 0.5), None)
    if first is None:
        return ("After %d riffles of %d cards a bettor who knows the shuffle still wins more than half the bets a "
                "perfect shuffle would make fair." % (len(tv), n))
    said = "After %d riffle%s of %d cards, a bettor's edge on a single bet is %s" % (
        first, "" if first == 1 else "s", n, edge_words(tv[first - 1]))
    if first < len(tv):
        said += "; after %d, %s" % (first + 1, edge_words(tv[first]))
    return said + "."
