"""Every path of a shuffle's random choices, walked depth-first with exact probabilities.

A *path* is one complete run of the shuffle on the deck 0..n-1 together with the answers
its ``below(m)`` calls got; its probability is the product of their ``1/m``. A scripted
rng answers from a script (0 past its end); after each run the script moves to the next
path like an odometer over the bounds the run asked for, so every path is run exactly
once and the distribution of outputs is exact. The shuffle is a catalog id (its port) or
any function ``shuffle(cards, rng) -> list``, such as a user's own (``custom.py``).

Limits, each a ShuffleLabError that says what it counted:

* ``MAX_PORT_PATHS`` paths per walk (the n! orders of 7 cards need at least 5,040; swap-any's
  7^7 = 823,543 fit);
* ``MAX_PATH_DRAWS`` draws on one path: more is taken for a loop that never ends (rejection
  sampling, for one, has endless paths and cannot be walked);
* ``random()`` is refused (NotEnumerable): a float has 2^53 values, a branch each, far too
  many to walk, and walking fewer would not be exact. random-key, the one built-in that
  draws floats, has its own model instead (exactly uniform).

A walk that takes longer than a blink reports ``progress(paths, covered)`` every
``PROGRESS_PATHS`` paths or ``PROGRESS_SECONDS``, whichever comes first: paths run so far
and the probability they cover (a float from 0 to 1). ``walk_steps`` is the same walk as
a generator that yields the coverage at those moments, for a caller that walks a little
at a time (the lab's workers: the sandbox for a user's shuffle); ``enumerate_port`` drives it to the end.
"""

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction

from .. import catalog, clock
from ..errors import ShuffleLabError
from ..rng import check_bound
from .errors import ExactTooCostly, NotEnumerable

MAX_PORT_PATHS = 1_000_000  # about 8 s of swap-any's 7-card paths in CPython, 15 s as a user's code
MAX_PATH_DRAWS = 1_000  # far above what a walkable shuffle of 7 cards draws (swap-any: 7)
PROGRESS_PATHS = 4096
PROGRESS_SECONDS = 0.1
_CLOCK_EVERY = 64  # paths between looks at the clock: a look costs about as much as a short path

Order = tuple[int, ...]
Distribution = dict[Order, Fraction]
Progress = Callable[[int, float], None]


class _Stop(BaseException):
    """Ends a path from inside the shuffle; a BaseException so that ``except Exception`` in user code cannot swallow it."""


class ScriptedRng:
    """An rng that answers ``below`` from a script, then 0, and records every draw.

    It remembers why it stopped a path (``stopped``), so a shuffle that swallows the
    exception with a bare ``except:`` still cannot turn a refused path into an outcome.
    """

    def __init__(self, script: Sequence[int], max_draws: int | None = None, script_bounds: Sequence[int] = ()) -> None:
        self.script = script
        self.script_bounds = script_bounds
        self.max_draws = max_draws
        self.answers: list[int] = []
        self.bounds: list[int] = []
        self.stopped = ""  # "", "draws", "random" or "replay"
        self.replay_bounds = (0, 0, 0)  # on a "replay" stop: (draw, the bound first asked, the bound asked now)

    def below(self, m: int) -> int:
        """Return the scripted answer (0 past the script's end) and record the bound."""
        check_bound(m)
        k = len(self.answers)
        if self.max_draws is not None and k >= self.max_draws:
            self._stop("draws")
        if k < len(self.script):
            if k < len(self.script_bounds) and m != self.script_bounds[k]:
                self.replay_bounds = (k, self.script_bounds[k], m)
                self._stop("replay")
            answer = self.script[k]
        else:
            answer = 0
        self.answers.append(answer)
        self.bounds.append(m)
        return answer

    def below_many(self, bounds) -> list[int]:
        """Answer each bound in turn, exactly as repeated ``below`` calls."""
        return [self.below(m) for m in bounds]

    def random(self) -> float:
        """Refuse: a float's 2^53 values cannot be walked (see the module docstring)."""
        self._stop("random")

    def _stop(self, why: str) -> None:
        self.stopped = self.stopped or why
        raise _Stop


def enumerate_port(
    algorithm, n: int, params: dict | None = None, max_draws: int | None = None,
    progress: Progress | None = None, max_paths: int = MAX_PORT_PATHS,
) -> tuple[Distribution, Fraction]:
    """Return (exact distribution of the shuffle's outputs on 0..n-1, mass of paths cut at max_draws).

    ``algorithm`` is a catalog id (its port runs with ``params``) or a function
    ``shuffle(cards, rng) -> list``. Every sequence of ``below`` answers is replayed
    depth-first. With ``max_draws``, paths longer than that are cut and their probability
    returned instead of counted (the distribution is then a lower bound); without it, a
    path of more than MAX_PATH_DRAWS draws raises ExactTooCostly. More than ``max_paths``
    paths raise ExactTooCostly too, and so does ``random()`` (NotEnumerable). It is the walk
    of ``walk_steps`` driven to its end, each step reported as ``progress(paths, covered)``.
    """
    count = _PathCount()
    walk = _walk(algorithm, n, params, max_draws, max_paths, count)
    on_step = None if progress is None else (lambda covered: progress(count.paths, covered))
    result = run_steps(walk, on_step)
    if progress is not None:
        progress(count.paths, 1.0)  # the finished walk: every path, all of the probability
    return result


def walk_steps(
    algorithm, n: int, params: dict | None = None, max_draws: int | None = None, max_paths: int = MAX_PORT_PATHS,
):
    """Yield the probability covered so far (a float from 0 to 1) as enumerate_port reports it; return what it returns.

    The same walk, limits and errors as ``enumerate_port``, raised as the walk meets them
    (a bad id or parameter at the first ``next``). A step comes every PROGRESS_PATHS
    paths or PROGRESS_SECONDS of walking, whichever is first; the time the consumer
    spends between steps does not count. A step may fall on the last path, at 1.0 (or
    just under, by rounding), just before the return.
    """
    return (yield from _walk(algorithm, n, params, max_draws, max_paths, _PathCount()))


def run_steps(steps, on_step: Callable | None = None):
    """Return what the generator ``steps`` returns, after passing each value it yields to ``on_step`` (if any)."""
    while True:
        try:
            value = next(steps)
        except StopIteration as done:
            return done.value
        if on_step is not None:
            on_step(value)


class _PathCount:
    """The paths a walk has run by its latest step: ``enumerate_port`` reports them beside the coverage."""

    __slots__ = ("paths",)

    def __init__(self) -> None:
        self.paths = 0


def _walk(algorithm, n: int, params: dict | None, max_draws: int | None, max_paths: int, count: _PathCount):
    """Walk every path (see ``enumerate_port``), yielding the coverage at each step and setting ``count.paths`` first."""
    shuffle, name = _shuffle_and_name(algorithm, params)
    limit = MAX_PATH_DRAWS if max_draws is None else max_draws
    deck = list(range(n))
    # outcome -> {product of bounds along a path: number of such paths}
    weights: dict[Order, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    cut: dict[int, int] = defaultdict(int)
    script, script_bounds = [], []
    covered = 0.0
    cadence = _Cadence()
    for paths in range(1, max_paths + 1):
        rng = ScriptedRng(script, limit, script_bounds)
        try:
            outcome = shuffle(deck, rng)
        except _Stop:
            outcome = None
        if rng.stopped:
            product = _stopped_path(rng, name, n, max_draws is None)
            cut[product] += 1
        else:
            product = math.prod(rng.bounds)
            weights[tuple(outcome)][product] += 1
        covered += 1 / product
        if cadence.due(paths):
            count.paths = paths
            yield min(covered, 1.0)  # float sums may overshoot 1 by a rounding error
            cadence.restart(paths)
        script, script_bounds = _next_script(rng.answers, rng.bounds)
        if script is None:
            count.paths = paths
            return {order: _sum_reciprocals(counts) for order, counts in weights.items()}, _sum_reciprocals(cut)
    raise ExactTooCostly(f"{name} on {n} cards has more than {max_paths:,} paths: the walk stopped after "
                         f"{max_paths:,}, which cover {_percent(covered)} of the probability")


def _shuffle_and_name(algorithm, params: dict | None) -> tuple[Callable, str]:
    """Return the function to walk, ``shuffle(cards, rng)``, and the name errors call it by."""
    if callable(algorithm):
        if params:
            raise ShuffleLabError("a shuffle function takes no parameters; give them to it before walking it")
        return algorithm, getattr(algorithm, "name", None) or getattr(algorithm, "__name__", "the shuffle")
    entry = catalog.get(algorithm)
    resolved = entry.resolve_params(params)
    if not resolved:
        return entry.port, entry.id
    port = entry.port
    return (lambda deck, rng: port(deck, rng, **resolved)), entry.id


def _stopped_path(rng: ScriptedRng, name: str, n: int, endless_is_an_error: bool) -> int:
    """Return the product of a path the rng stopped when cutting it is allowed, else raise why it stopped."""
    if rng.stopped == "random":
        raise NotEnumerable(f"{name} calls rng.random(): a float has 2^53 values, too many paths to walk; "
                            f"draw rng.below(k) where it takes int(rng.random() * k) for an exact answer")
    if rng.stopped == "replay":
        k, first, then = rng.replay_bounds
        raise NotEnumerable(f"{name} is not a function of its draws: given the same answers, its draw {k + 1} "
                            f"asked below({first}) and then below({then}); it may use no randomness but the "
                            f"rng's and keep no state between calls")
    if endless_is_an_error:
        raise ExactTooCostly(f"{name} on {n} cards drew more than {MAX_PATH_DRAWS:,} times on one path: it may "
                             f"loop forever on some answers (rejection sampling does), and walking every path "
                             f"needs every path to end")
    return math.prod(rng.bounds)


def _next_script(answers: list[int], bounds: list[int]) -> tuple[list[int] | None, list[int]]:
    """Return the next path's prefix in depth-first order and its bounds, or (None, []) after the last path."""
    k = len(answers) - 1
    while k >= 0 and answers[k] == bounds[k] - 1:
        k -= 1
    if k < 0:
        return None, []
    return answers[:k] + [answers[k] + 1], bounds[:k + 1]


def _sum_reciprocals(counts: dict[int, int]) -> Fraction:
    return sum((Fraction(count, product) for product, count in counts.items()), Fraction(0))


def _percent(share: float) -> str:
    """Return a share as a percentage to 4 digits that never rounds an unfinished walk up to 100%."""
    text = "%.4g" % (100 * share)
    return ("99.99" if text == "100" else text) + "%"


class _Cadence:
    """Says when a walk's next step is due: PROGRESS_PATHS paths or PROGRESS_SECONDS after the last one."""

    def __init__(self) -> None:
        self.last_paths = 0
        self.last_time = clock.now()

    def due(self, paths: int) -> bool:
        """True when enough paths, or enough time, went by since the last step (the clock is read every _CLOCK_EVERY paths)."""
        if paths - self.last_paths >= PROGRESS_PATHS:
            return True
        return paths % _CLOCK_EVERY == 0 and clock.now() - self.last_time >= PROGRESS_SECONDS

    def restart(self, paths: int) -> None:
        """Count the next step from now: the consumer's time between steps is not the walk's."""
        self.last_paths = paths
        self.last_time = clock.now()
