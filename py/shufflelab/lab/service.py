"""The bias lab's service: a tally session in each of two slots, answered as protocol envelopes.

This is what the lab's worker (Pyodide) runs; ``py/worker.py`` only exports these
functions. Slot "a" is the lab's main tally, slot "b" the one it compares with; each
call names its slot ("a" when it does not). Each exported function takes plain values or a JSON request and returns a
protocol answer (``protocol.py``); a library error (``ShuffleLabError``) comes back as a
failure answer with one line for the page; any other exception is a bug and propagates.
CPython and Pyodide only.
"""

import json
from array import array

from .. import catalog, clock
from ..catalog import CUSTOM_ID
from ..errors import ShuffleLabError
from ..exact import (
    outcome_distribution,
    position_matrix,
    riffle_distance_texts,
    riffle_distances_report,
    total_variation_to_uniform,
)
from ..exact.matrices import MAX_WALKED_CARDS, position_matrix_from_distribution
from ..exact.orders import walked_distribution_steps
from ..exact.reports import fraction_text
from ..tally import MAX_MEASURED_RIFFLE_CARDS, Tally, check_card_count, measured_riffle_tv
from . import heatmap, protocol
from .protocol import BestPlay, CodeReady, ExactStatus, GuessReport, RiffleReport, Snapshot, TallyConfig
from .sandbox import (
    FIRST_BATCH,
    AdoptedTally,
    read_answer,
    read_counts,
    read_distribution,
    read_drew,
    read_progress,
    read_seconds,
    run_paced,
)
from .summary import summarize

MEASURED_RIFFLE_TRIALS = 10_000  # per k, for decks of at most 5 cards
MAX_RUN_MILLISECONDS = 1000
# how much slower Pyodide is than CPython, for a matrix's estimate before anything was timed in the worker. Measured
# as 4.4 on the riffle-physical matrix's old chain (66 s against 15 s at 52 cards); its integer rows now run about 1.6x
# slower (2.2 s against 1.4 s, docs/physical.json). Kept at 4.4 on purpose: it errs towards asking first on a slower
# device, and the first steps' timing replaces it (CALIBRATION_SECONDS). The docs' "from N cards" is pinned by a test.
PYODIDE_SLOWDOWN = 4.4
ASK_FIRST_SECONDS = 2.0  # a longer exact matrix waits for the user to ask: the worker can't tally meanwhile
# a slow matrix's first steps, timed when it is offered: its estimate is this machine's pace, not a constant
CALIBRATION_SECONDS = 0.3
MAX_STEP_MILLISECONDS = 1000
HEAT_VIEWS = ("observed", "exact", "difference")
# The exact distance to uniform sums over all n! orders. A walk of every path (a user's shuffle, and the
# built-ins whose model is their port) gives it with the matrix, in steps, up to the walk's limit; the
# other models give it in one call, which is quick up to 5 cards (riffle-physical: 0.11 s in CPython)
# but not at 6 (1.9 s, about 8 s in Pyodide, near the page's 10 s limit per call).
MAX_MODEL_DISTANCE_CARDS = 5
# The Play tab's simulated figure: the CLI's seed and deck count, so `guess --seed play --samples N` prints it
GUESS_SEED = "play"
GUESS_SAMPLES = None  # decks a simulated guessing figure samples: None for guessing.DEFAULT_SAMPLES (a test sets fewer)


class Session:
    """One tally configuration: its tally, and its exact matrix once computed.

    ``in_process`` tallies and walks a user's shuffle registered in this interpreter, as a
    built-in: the command line does, on the user's own file. The lab's worker never does.
    """

    def __init__(self, config: TallyConfig, in_process: bool = False) -> None:
        # the user's shuffle is never compiled here: the sandbox counts it, and this session adopts what it counted
        self.external = str(config.algo) == CUSTOM_ID and not in_process
        self.n = config.n
        if self.external:
            self.algo, self.params = CUSTOM_ID, {}
            self.tally = AdoptedTally(check_card_count(self.n))
        else:
            entry = catalog.get(str(config.algo))
            self.algo = entry.id
            self.params = entry.resolve_params(dict(config.params or ()))
            self.tally = Tally(self.algo, self.n, self.params, config.seed or None)
        self.batch = FIRST_BATCH
        self.busy_seconds = 0.0
        self.matrix = None
        self.matrix_reason = ""
        self.matrix_seconds = None
        self.job = None  # a slow exact matrix under way: a generator yielding the fraction done
        self.job_fraction = 0.0
        self.job_seconds = 0.0
        # a small deck of a shuffle whose exact answers come from walking its port: the walk gives the
        # distribution over orders, hence both the matrix and the distance, and shows its progress
        self.walked = self.n <= MAX_WALKED_CARDS and (self.external or catalog.get(self.algo).orders == catalog.ENUMERATE)
        self.distance = None  # [float, "p/q"] once known
        self.distance_reason = ""

    def run_for(self, seconds: float, up_to=None) -> None:
        """Add batches of shuffles for about ``seconds``, sizing batches to the speed seen; with ``up_to``, stop
        once the tally has that many shuffles (a comparison keeps its two sides level this way)."""
        if self.external:
            raise ShuffleLabError("the user's shuffle is tallied in the sandbox, not in the lab's worker")
        self.batch, spent = run_paced(self.tally, seconds, self.batch, up_to)
        self.busy_seconds += spent

    def adopt_counts(self, text: str) -> None:
        """Take the counts of the user's shuffle from a sandbox answer, once they are checked to be consistent."""
        data = read_answer(text)
        trials, counts, fixed_points, seconds = read_counts(data, self.n)
        self.tally.adopt(trials, counts, fixed_points, read_drew(data))
        self.busy_seconds = seconds

    def adopt_walk(self, text: str) -> None:
        """Take a step of the sandbox's walk of the user's shuffle: its progress, or, checked, its distribution."""
        try:
            data = read_answer(text)
            if "orders" in data:
                distribution, seconds = read_distribution(data, self.n), read_seconds(data, "seconds")
            else:
                self.job_fraction, self.job_seconds = read_progress(data)
                self.job = "in the sandbox"  # under way, where the user's code runs
                return
        except ShuffleLabError as reason:
            self.matrix_reason = self.distance_reason = str(reason)
            self.job = None
            return
        self.job, self.job_seconds = None, seconds
        self.set_distance(distribution)
        self.matrix = [[float(p) for p in row] for row in position_matrix_from_distribution(distribution, self.n)]
        self.matrix_seconds = self.job_seconds

    def slow_matrix_seconds(self, computed: set) -> float:
        """Return the seconds a first exact matrix would take here, if that is too long to just do.

        Once some of it has run (``advance_matrix``), the time left at the pace measured so
        far; before, the catalog's CPython estimate times the usual Pyodide slowdown.
        """
        if self.walked:
            return self.seconds_left() if self.job_fraction > 0 else 0.0
        estimate = catalog.get(self.algo).resolve("matrix_seconds")
        if estimate is None or self.matrix_key() in computed:
            return 0.0
        seconds = estimate(self.n, self.params) * PYODIDE_SLOWDOWN
        if seconds <= ASK_FIRST_SECONDS:
            return 0.0
        return self.seconds_left() if self.job_fraction > 0 else seconds

    def matrix_key(self) -> tuple:
        """Return what a computed matrix is known by: cut-insert's cost is its repetitions', so parameters count."""
        return self.algo, self.n, tuple(sorted(self.params.items()))

    def seconds_left(self) -> float:
        """Return the time the matrix under way still needs at the pace measured so far (at least 0.1 s)."""
        return max(self.job_seconds * (1 - self.job_fraction) / self.job_fraction, 0.1)

    def advance_matrix(self, seconds: float, computed: set) -> None:
        """Work on a slow exact matrix for about ``seconds`` (all at once if it has no steps); set it when done."""
        if self.matrix is not None or self.matrix_reason or self.external:
            return
        if self.job is None:
            steps = self.walk_job if self.walked else catalog.get(self.algo).resolve("matrix_steps")
            if steps is None:
                self.ensure_matrix(computed)
                return
            self.job = steps(self.n, self.params)
        started = clock.now()
        try:
            while clock.now() - started < seconds:
                self.job_fraction = next(self.job)
        except StopIteration as done:
            self.matrix = [[float(p) for p in row] for row in done.value]
            self.job = None
            computed.add(self.matrix_key())
        except ShuffleLabError as reason:
            self.matrix_reason = str(reason)
            if self.walked:
                self.distance_reason = self.matrix_reason  # one walk gives both, or neither
            self.job = None
        finally:
            self.job_seconds += clock.now() - started
        if self.matrix is not None:
            self.matrix_seconds = self.job_seconds

    def finish_exact(self, computed: set, step_seconds: float = 0.5, progress=None) -> None:
        """Compute the exact matrix to the end, in steps (``progress(fraction done)`` after each), and the distance on a
        small deck; what cannot be computed leaves its reason, as on the page. The command line's way to what the
        page computes at once, or in steps, or when asked."""
        while not self.external and self.matrix is None and not self.matrix_reason:
            self.advance_matrix(step_seconds, computed)
            if progress is not None and self.job is not None:
                progress(self.job_fraction)
        self.ensure_distance()

    def walk_job(self, n: int, params: dict):
        """Walk every path of the shuffle, yielding the probability covered; set the distance and return the matrix."""
        distribution = yield from walked_distribution_steps(self.algo, n, params)
        self.set_distance(distribution)
        return position_matrix_from_distribution(distribution, n)

    def set_distance(self, distribution: dict) -> None:
        """Keep the exact total variation distance to uniform of a whole-order distribution."""
        distance = total_variation_to_uniform(distribution, self.n)
        self.distance = [float(distance), fraction_text(distance)]

    def ensure_distance(self) -> None:
        """Find the exact distance from the algorithm's model on a deck small enough for one quick call, or say why not."""
        if self.distance is not None or self.distance_reason or self.walked:
            return
        if self.n > MAX_MODEL_DISTANCE_CARDS:
            walks = self.external or catalog.get(self.algo).orders == catalog.ENUMERATE
            limit = MAX_WALKED_CARDS if walks else MAX_MODEL_DISTANCE_CARDS
            self.distance_reason = ("it sums over every order, which the lab does for up to %d cards of %s, not %d"
                                    % (limit, self.algo, self.n))
            return
        try:
            self.set_distance(outcome_distribution(self.algo, self.n, self.params))
        except ShuffleLabError as reason:
            self.distance_reason = str(reason)

    def ensure_matrix(self, computed: set) -> None:
        """Compute the exact card × position matrix once, or note why there is none."""
        if self.matrix is not None or self.matrix_reason:
            return
        if self.external:  # the sandbox walks a small deck; a bigger one has no exact matrix
            if not self.walked:
                from ..custom import CUSTOM_WALKS  # lazily: the lab's start imports only what Start needs

                self.matrix_reason = "%s, so it needs 0 to %d cards, not %d" % (CUSTOM_WALKS, MAX_WALKED_CARDS, self.n)
            return
        computed.add(self.matrix_key())  # the exact package caches per-pass work by n
        started = clock.now()
        try:
            self.matrix = [[float(p) for p in row] for row in position_matrix(self.algo, self.n, self.params)]
        except ShuffleLabError as reason:  # no matrix exists, or it would cost too much
            self.matrix_reason = str(reason)
        self.matrix_seconds = clock.now() - started

    def exact_status(self, computed: set) -> ExactStatus:
        """Whether the exact matrix exists, why not, and what it cost or would cost."""
        pending = self.matrix is None and not self.matrix_reason
        seconds = self.job_seconds if self.job is not None else self.matrix_seconds
        return ExactStatus(self.matrix is not None, self.matrix, self.matrix_reason, seconds,
                           self.slow_matrix_seconds(computed) if pending else 0.0,
                           self.job_fraction if self.job is not None else None, self.walked and pending,
                           self.distance, self.distance_reason, self.model())

    def model(self):
        """Return what the exact answers model on this deck, where that depends on its size (else None)."""
        if self.external or catalog.get(self.algo).method_of is None:
            return None
        return catalog.get(self.algo).method_for(self.n).split(":")[0]

    def summary(self, counts, fixed_points) -> dict:
        """Return the lab's verdict, figures and fixed-point bars for counts of this session's tally (``summarize``
        with its exact matrix): what a snapshot shows, and what the command line prints for counts it split."""
        return summarize(counts, fixed_points, self.matrix,
                         "" if self.external else catalog.get(self.algo).model_gap(self.n), self.drew())

    def drew(self) -> bool:
        """Whether the shuffle tallied has drawn from rng (a built-in always does; the user's shuffle says)."""
        return self.tally.drew if self.external else getattr(catalog.get(self.algo).port, "drew", True)

    def snapshot(self, view: str) -> Snapshot:
        """Return the counts, rate, statistics and heat-map pixels for ``view``."""
        counts, trials = self.tally.counts, self.tally.trials
        matrix = self.matrix
        if view == "exact" and matrix is not None:
            scores = heatmap.exact_scores(matrix)
        elif view == "difference" and matrix is not None:
            scores = heatmap.difference_scores(counts, trials, matrix)
        else:
            scores = heatmap.observed_scores(counts, trials)
            view = "observed"
        flat = array("Q", [count for row in counts for count in row])
        if flat.itemsize != 8 or array("H", [1]).tobytes() != b"\x01\x00":
            raise RuntimeError("the counts' wire format needs 8-byte little-endian integers")
        return Snapshot(
            self.n, trials, trials / self.busy_seconds if self.busy_seconds else 0.0,
            [list(tick) for tick in heatmap.legend(view)],
            self.summary(counts, self.tally.fixed_points),
            heatmap.rgba(scores), flat.tobytes(), None, view, heatmap.key(view),
        )


def answering(method):
    """Return the method with library errors (ShuffleLabError) answered as failure envelopes."""

    def call(*args):
        try:
            return method(*args)
        except ShuffleLabError as error:
            return protocol.failure(str(error))

    call.__name__ = method.__name__
    call.__doc__ = method.__doc__
    return call


class LabService:
    """The worker's state: the session in each slot and which slow matrices are cached."""

    def __init__(self) -> None:
        self.sessions = {}  # slot -> Session
        self.computed = set()  # (algo, n) whose slow exact matrices the exact package has cached
        self.memory_probe = None  # () -> bytes of the worker's memory; the worker sets it (it can read Pyodide's)
        self.guessing = None  # (report, simulation) of the Play tab's figure while a simulation gains decks

    @answering
    def configure(self, config_json: str) -> list:
        """Start a new tally in the TallyConfig's slot; answer its ExactStatus (a fast matrix is computed now).

        A walk of every path, or a slow matrix, is timed on its first steps instead, so the
        estimate is this machine's; the page goes on with ``exact_step``.
        """
        config = protocol.read_request(config_json, TallyConfig)
        session = Session(config)
        self.sessions[_slot(config.slot)] = session
        if session.external:
            session.ensure_matrix(self.computed)  # a reason when it is too big to walk; else the sandbox walks it
        elif session.walked or session.slow_matrix_seconds(self.computed):
            session.advance_matrix(CALIBRATION_SECONDS, self.computed)
        else:
            session.ensure_matrix(self.computed)
        session.ensure_distance()
        return protocol.answer(session.exact_status(self.computed))

    @answering
    def adopt_code(self, text) -> list:
        """Read the sandbox's answer to compiling the user's shuffle; answer CodeReady, or its one-line failure.

        This worker never runs the user's code: the sandbox compiles it, and its answer is data.
        """
        read_answer(text)
        return protocol.answer(CodeReady(CUSTOM_ID))

    @answering
    def adopt_counts(self, text, view: str, slot=None) -> list:
        """Adopt the counts the sandbox answered for the user's shuffle in ``slot``; answer a Snapshot drawn for
        ``view`` (the verdict and figures computed here, from counts checked to be consistent)."""
        session = self.external_session(slot)
        session.adopt_counts(text)
        return self.answer_snapshot(session, view)

    @answering
    def adopt_walk(self, text, slot=None) -> list:
        """Adopt a step of the sandbox's walk of the user's shuffle in ``slot``; answer its ExactStatus."""
        session = self.external_session(slot)
        session.adopt_walk(text)
        return protocol.answer(session.exact_status(self.computed))

    @answering
    def exact_step(self, milliseconds, slot=None) -> list:
        """Work on the exact matrix for about ``milliseconds`` (at most a second); answer its ExactStatus.

        While it is under way the status has its ``progress``; the page asks again until the
        matrix is there, so it can show the progress and stop asking when the user moves on.
        """
        session = self.current(slot)
        session.advance_matrix(max(0, min(int(milliseconds), MAX_STEP_MILLISECONDS)) / 1000, self.computed)
        return protocol.answer(session.exact_status(self.computed))

    @answering
    def run_for(self, milliseconds, view: str, slot=None, up_to=None) -> list:
        """Tally for about ``milliseconds`` (at most a second), or until ``up_to`` shuffles, and answer a Snapshot
        drawn for ``view``."""
        session = self.current(slot)
        session.run_for(max(0, min(int(milliseconds), MAX_RUN_MILLISECONDS)) / 1000,
                        None if up_to is None else int(up_to))
        return self.answer_snapshot(session, view)

    @answering
    def snapshot(self, view: str, slot=None) -> list:
        """Answer a Snapshot of the tally so far, drawn for ``view``, without shuffling more."""
        return self.answer_snapshot(self.current(slot), view)

    def answer_snapshot(self, session: Session, view: str) -> list:
        """Answer the session's Snapshot for ``view``, with the worker's memory where it can be read."""
        snapshot = session.snapshot(_view(view))
        snapshot.memory = self.memory_probe() if self.memory_probe is not None else None
        return protocol.answer(snapshot)

    @answering
    def riffle(self, n, max_k) -> list:
        """Answer a RiffleReport: the exact distances ``riffle-distances`` gives after 1..max_k riffles (its very
        report), and measured total variation for n ≤ 5."""
        started = clock.now()
        n, max_k = int(n), int(max_k)
        measured = None
        if n <= MAX_MEASURED_RIFFLE_CARDS:
            measured = measured_riffle_tv(n, max_k, MEASURED_RIFFLE_TRIALS)
        report = riffle_distances_report(n, max_k)
        rows = report["distances"]
        meanings = [[key, meaning["name"], meaning["meaning"]] for key, meaning in report["meanings"].items()]
        return protocol.answer(RiffleReport(
            n, [row["tv_value"] for row in rows], measured, MEASURED_RIFFLE_TRIALS if measured else None,
            clock.now() - started, [row["separation_value"] for row in rows], [row["kl_bits"] for row in rows],
            [riffle_distance_texts(row) for row in rows], meanings))

    @answering
    def guess_begin(self, n, k, feedback) -> list:
        """Answer a GuessReport for the guessing game: exact and done where ``guessing`` is exact, else a simulation
        (seed GUESS_SEED) begun on its first decks, which ``guess_more`` goes on with."""
        guessing = _guessing()
        report, simulation = guessing.guess_start(int(n), int(k), str(feedback), GUESS_SEED)
        self.guessing = None if simulation is None else (report, simulation)
        if simulation is not None:
            simulation.add(2)  # an estimate needs two decks
            report.update(simulation.report_fields())
        return protocol.answer(GuessReport(report, simulation is None))

    @answering
    def guess_more(self, milliseconds) -> list:
        """Add sampled decks to the simulated figure for about ``milliseconds`` (at most a second), and at least one, up
        to GUESS_SAMPLES (guessing.DEFAULT_SAMPLES when None); answer its GuessReport so far."""
        if self.guessing is None:
            raise ShuffleLabError("no simulated guessing figure is under way: ask guess_begin first")
        report, simulation = self.guessing
        end = clock.now() + max(0, min(int(milliseconds), MAX_RUN_MILLISECONDS)) / 1000
        samples = _guessing().DEFAULT_SAMPLES if GUESS_SAMPLES is None else GUESS_SAMPLES
        while simulation.samples < samples:  # one deck at least: every call moves on, however slow the machine
            simulation.add(1)
            if clock.now() >= end:
                break
        report.update(simulation.report_fields())
        done = simulation.samples >= samples
        if done:
            self.guessing = None
        return protocol.answer(GuessReport(report, done))

    @answering
    def best_play(self, order_json, k, feedback, played) -> list:
        """Answer BestPlay: the best strategy's guesses on a dealt deck (``order_json``, card ids top first, after k
        riffles) and its score on the first ``played`` cards, beside a random deck's expected score on as many."""
        order = json.loads(str(order_json))
        if not isinstance(order, list) or sorted(order) != list(range(len(order))):
            raise ShuffleLabError("a dealt deck must hold each of 0..n-1 once")
        k, feedback, played = int(k), str(feedback), int(played)
        guessing = _guessing()
        if feedback == "full":
            guesses = guessing.best_feedback_guesses(order, k)
        else:
            guesses = guessing.no_feedback_best_guesses(len(order), k)
        random_deck = guessing.random_deck_prefix_expected(len(order), played, feedback)
        right = sum(guess == card for guess, card in zip(guesses[:played], order))
        return protocol.answer(BestPlay(guesses, right, played, fraction_text(random_deck), float(random_deck)))

    def external_session(self, slot=None) -> Session:
        """Return the session in ``slot`` if it holds the user's shuffle; a built-in's answers come only from this
        worker, so adopting any for one raises ShuffleLabError."""
        session = self.current(slot)
        if not session.external:
            raise ShuffleLabError("slot %s tallies a built-in, which only this worker counts" % _slot(slot))
        return session

    def current(self, slot=None) -> Session:
        """Return the session in ``slot`` ("a" when None), or raise ShuffleLabError when none was configured there."""
        session = self.sessions.get(_slot(slot))
        if session is None:
            raise ShuffleLabError("the lab has no tally in slot %s yet: configure one first" % _slot(slot))
        return session


def _guessing():
    """The guessing game's module, imported at its first use: the lab's start imports only what Start needs."""
    from ..exact import guessing  # lazily: see the docstring

    return guessing


def _slot(slot) -> str:
    """Return a slot name ("a" for None), or raise ShuffleLabError naming it."""
    slot = "a" if slot is None else str(slot)
    if slot not in protocol.SLOTS:
        raise ShuffleLabError("unknown lab slot %r; choose %s" % (slot, " or ".join(protocol.SLOTS)))
    return slot


def _view(view: str) -> str:
    """Return a heat-map view name, or raise ShuffleLabError naming it."""
    if view not in HEAT_VIEWS:
        raise ShuffleLabError("unknown heat-map view %r; choose %s" % (view, ", ".join(HEAT_VIEWS)))
    return view


SERVICE = LabService()
configure = SERVICE.configure
exact_step = SERVICE.exact_step
adopt_code = SERVICE.adopt_code
adopt_counts = SERVICE.adopt_counts
adopt_walk = SERVICE.adopt_walk
run_for = SERVICE.run_for
snapshot = SERVICE.snapshot
riffle = SERVICE.riffle
guess_begin = SERVICE.guess_begin
guess_more = SERVICE.guess_more
best_play = SERVICE.best_play
EXPORTS = ["configure", "exact_step", "run_for", "snapshot", "riffle", "adopt_code", "adopt_counts", "adopt_walk",
           "guess_begin", "guess_more", "best_play"]
