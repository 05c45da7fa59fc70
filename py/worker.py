"""The bias lab's Web Worker: tallies, exact matrices, statistics and heat-map pixels.

Runs in a PyScript worker (no DOM here: pages without cross-origin isolation can't give
workers one, and this needs none). The main thread awaits the exported functions; every
argument and result is plain JSON text, so nothing depends on proxy conversions.
"""

import base64
import json
import time

from shufflelab import exact, heatmap, stats, tally
from shufflelab.tally import Tally

FIRST_BATCH = 64
MEASURED_RIFFLE_TRIALS = 10_000  # per k, for decks of at most 5 cards
TARGET_BATCH_SECONDS = 0.08  # big enough for the bit-sliced kernels (a batch costs n² work however few decks), small enough to keep run_for near its budget


class Session:
    """One tally configuration: its tally, and its exact matrix once computed."""

    def __init__(self, algo: str, params: dict, n: int, seed: str | None) -> None:
        self.algo, self.params, self.n = algo, params, n
        self.tally = Tally(algo, n, params, seed)
        self.batch = FIRST_BATCH
        self.busy_seconds = 0.0
        self.matrix = None
        self.matrix_reason = ""
        self.matrix_seconds = None

    def run_for(self, seconds: float) -> None:
        """Add batches of shuffles for about ``seconds``, sizing batches to the speed seen."""
        deadline = time.perf_counter() + seconds
        while True:
            started = time.perf_counter()
            self.tally.run(self.batch)
            spent = time.perf_counter() - started
            self.busy_seconds += spent
            if spent < TARGET_BATCH_SECONDS / 2:
                self.batch *= 2
            elif spent > TARGET_BATCH_SECONDS * 2 and self.batch > 1:
                self.batch //= 2
            if time.perf_counter() + spent > deadline:
                return

    def slow_matrix_seconds(self) -> float:
        """Return the browser seconds a first exact matrix would take, if that is too long to just do."""
        if (self.algo, self.n) in COMPUTED:
            return 0.0
        seconds = exact.matrix_seconds_estimate(self.algo, self.n) * PYODIDE_SLOWDOWN
        return seconds if seconds > ASK_FIRST_SECONDS else 0.0

    def ensure_matrix(self) -> None:
        """Compute the exact card × position matrix once, or note why there is none."""
        if self.matrix is not None or self.matrix_reason:
            return
        COMPUTED.add((self.algo, self.n))  # exact caches per-pass work by n
        started = time.perf_counter()
        try:
            self.matrix = [[float(p) for p in row] for row in exact.position_matrix(self.algo, self.n, self.params)]
        except exact.NoExactMatrix as reason:
            self.matrix_reason = str(reason)
        self.matrix_seconds = time.perf_counter() - started


SESSION = None
COMPUTED: set = set()  # (algo, n) whose slow exact matrices exact.py has cached
PYODIDE_SLOWDOWN = 4.0  # this matrix in Pyodide vs CPython, measured here (66 s vs 15 s at 52 cards)
ASK_FIRST_SECONDS = 2.0  # a longer exact matrix waits for the user to ask: the worker can't tally meanwhile


def configure(config_json: str) -> str:
    """Start a new tally for {algo, params, n, seed}; return its exact-matrix status."""
    global SESSION
    config = json.loads(config_json)
    SESSION = Session(config["algo"], config.get("params") or {}, int(config["n"]), config.get("seed") or None)
    if not SESSION.slow_matrix_seconds():
        SESSION.ensure_matrix()
    return json.dumps(exact_status())


def compute_exact() -> str:
    """Compute the exact matrix now, however long it takes; return its status."""
    SESSION.ensure_matrix()
    return json.dumps(exact_status())


def exact_status() -> dict:
    """Whether the exact matrix exists, why not, and what it cost."""
    pending = SESSION.matrix is None and not SESSION.matrix_reason
    # the matrix travels once, here, not with every snapshot: the main thread parses less
    return {
        "matrix": SESSION.matrix,
        "available": SESSION.matrix is not None,
        "reason": SESSION.matrix_reason,
        "seconds": SESSION.matrix_seconds,
        "pending_seconds": SESSION.slow_matrix_seconds() if pending else 0.0,
    }


def run_for(milliseconds: int, view: str) -> str:
    """Tally for about ``milliseconds`` and return a snapshot drawn for ``view``."""
    SESSION.run_for(max(0, min(int(milliseconds), 1000)) / 1000)
    return snapshot(view)


def snapshot(view: str) -> str:
    """Return counts, rate, statistics and the heat-map pixels for ``view``, as JSON."""
    data = SESSION.tally.snapshot()
    counts, trials = data["counts"], data["trials"]
    matrix = SESSION.matrix
    if view == "exact" and matrix is not None:
        scores = heatmap.exact_scores(matrix)
    elif view == "difference" and matrix is not None:
        scores = heatmap.difference_scores(counts, trials, matrix)
    else:
        scores = heatmap.observed_scores(counts, trials)
    data["pixels"] = base64.b64encode(heatmap.rgba(scores)).decode("ascii")
    data["legend"] = heatmap.legend(view)
    data["rate"] = trials / SESSION.busy_seconds if SESSION.busy_seconds else 0.0
    data["stats"] = stats.summarize(counts, data["fixed_points"], matrix)
    return json.dumps(data)


def riffle(n: int, max_k: int) -> str:
    """Return the exact total variation distances after 1..max_k GSR riffles, and measured ones for small n."""
    started = time.perf_counter()
    n, max_k = int(n), int(max_k)
    data = {"n": n, "tv": [float(d) for d in exact.riffle_tv(n, max_k)]}
    if n <= tally.MAX_MEASURED_RIFFLE_CARDS:
        data["measured"] = tally.measured_riffle_tv(n, max_k, MEASURED_RIFFLE_TRIALS)
        data["measured_trials"] = MEASURED_RIFFLE_TRIALS
    data["seconds"] = time.perf_counter() - started
    return json.dumps(data)


__export__ = ["configure", "compute_exact", "run_for", "snapshot", "riffle"]
