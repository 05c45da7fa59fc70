"""The catalog: one entry per algorithm, holding everything there is to know about it.

An entry has the port (``algorithms.py``), its parameters, the verdict and the texts the
page and the CLI show, and the analysis side: how its exact answers are found (a
whole-order model, a position-matrix model, in words), how the tally makes its decks
fast, and what its exact matrix costs. Built-in algorithms and users' own shuffles
register the same way, through ``register()``; ``tests/unit/test_catalog.py`` checks
that every entry is complete and that every model it names exists.

The analysis parts are named, not imported ("exact.matrices:swap_any" is the function
``swap_any`` of ``shufflelab.exact.matrices``): the catalog is part of the portable core
and runs on MicroPython, where the analysis modules (CPython and Pyodide only) are never
loaded. ``resolve()`` imports a named part when the analysis asks for it; a custom
shuffle may give the functions themselves (``custom.py`` builds a user's entry that way).
"""

from . import algorithms
from .errors import ShuffleLabError

CUSTOM_ID = "custom"  # the id a user's own shuffle registers under (shufflelab.custom)

UNBIASED = "unbiased"
BIASED = "biased"
UNKNOWN = "unknown"  # a user's own shuffle: the lab's tally and exact answers are there to tell
VERDICTS = (UNBIASED, BIASED, UNKNOWN)
ENUMERATE = "enumerate"  # the whole-order model that replays every path of the port's below() answers
ENUMERATED = "the port, every path enumerated"  # how an entry's exact answers are found, unless it says otherwise
DEFAULT_ALGORITHM = "fisher-yates"


class UnknownAlgorithm(ShuffleLabError):
    """An algorithm id that is not in the catalog."""


class ParamError(ShuffleLabError):
    """An algorithm parameter that is unknown, not a whole number, or out of range."""


class Param:
    """An integer parameter of an algorithm, with its default and inclusive limits."""

    __slots__ = ("name", "label", "default", "minimum", "maximum")

    def __init__(self, name: str, label: str, default: int, minimum: int, maximum: int) -> None:
        self.name = name
        self.label = label
        self.default = default
        self.minimum = minimum
        self.maximum = maximum

    def __repr__(self) -> str:
        return "Param(%r, %d..%d, default %d)" % (self.name, self.minimum, self.maximum, self.default)

    def check(self, value) -> int:
        """Return ``value`` if it is a whole number within limits, else raise ParamError naming it."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise ParamError("%s must be a whole number, not %r" % (self.name, value))
        if not self.minimum <= value <= self.maximum:
            raise ParamError("%s must be %d to %d, not %d" % (self.name, self.minimum, self.maximum, value))
        return value


class Algorithm:
    """One catalog entry: the single description the page, the CLI, the lab and the tests read.

    ``orders``, ``matrix``, ``method_of``, ``kernel``, ``deck_maker``, ``matrix_seconds`` and ``matrix_steps`` name analysis
    functions ("module:function" under ``shufflelab``) or are the functions themselves:
    ``orders(n, params) -> (numerators by order, denominator)`` gives the exact whole-order
    distribution (ENUMERATE: replay the port); ``method_of(n)``, where the model depends on the
    deck size, says what it is on n cards (None: ``method`` at every size), and ``model_gap_of(n)`` what that model
    leaves out of the real algorithm (None: nothing); ``matrix(n, params, one) -> rows`` the exact
    card × position matrix (None: there is none, and ``no_matrix_reason`` says why);
    ``kernel`` makes bit-sliced blocks of decks and ``deck_maker`` whole decks in bulk for
    the tally (neither: the tally runs the port once per deck); ``matrix_seconds(n, params)`` is
    what a first exact matrix costs in CPython (None: under a blink), and
    ``matrix_steps(n, params)``, for such a slow one, is a generator that yields the
    fraction done now and then and returns the float matrix (the lab shows its progress
    and can stop it; on a deck small enough to walk, the lab walks an ENUMERATE entry's
    port in steps itself, whatever it costs). ``steps``,
    for a port that can run long on the page, is the port as a generator: None at each pause,
    then the shuffled list (``shuffle_steps``).

    What the tests need to know of an entry lives here too, so that a new entry is tested
    everywhere by adding it (tests/catalog_tables.py derives every per-algorithm table from
    these; tests/unit/test_catalog_tables.py fails when a built-in lacks one):
    ``matrix_max_n`` is the largest deck the exact matrix is offered for (None: any);
    ``test_params`` a parameter set small enough for quick exact tests (None: no parameters);
    for an entry with its own whole-order model, ``walk`` is ``(params, n)``: the port's walk
    agrees with the model on 2..n cards, or ``walk_refused`` is ``(error, message)``: what the
    walk raises instead on 3 cards within 1,000 paths (an ``exact.errors`` class name and its
    words); ``tallies`` is ``((n, params, shuffles), ...)``: seeded tallies of the port checked
    against the exact matrix (``()``: none, and a comment says why); ``vector_sizes`` are deck
    sizes its golden vectors hold beside everyone's.
    """

    __slots__ = ("id", "name", "source", "description", "verdict", "port", "params", "orders", "matrix",
                 "no_matrix_reason", "method", "method_of", "model_gap_of", "kernel", "deck_maker", "matrix_seconds",
                 "matrix_steps", "steps", "builtin", "matrix_max_n", "test_params", "walk", "walk_refused", "tallies",
                 "vector_sizes")

    def __init__(self, id: str, name: str, source: str, description: str, verdict: str, port,
                 params: tuple = (), orders=ENUMERATE, matrix=None, no_matrix_reason: str = "",
                 method: str = "", method_of=None, model_gap_of=None, kernel=None, deck_maker=None, matrix_seconds=None,
                 matrix_steps=None,
                 steps=None, builtin: bool = False, matrix_max_n=None, test_params=None, walk=None, walk_refused=None,
                 tallies=None, vector_sizes: tuple = ()) -> None:
        self.id = id
        self.name = name
        self.source = source
        self.description = description
        self.verdict = verdict
        self.port = port
        self.params = tuple(params)
        self.orders = orders
        self.matrix = matrix
        self.no_matrix_reason = no_matrix_reason
        self.method = method or ENUMERATED
        self.method_of = method_of
        self.model_gap_of = model_gap_of
        self.kernel = kernel
        self.deck_maker = deck_maker
        self.matrix_seconds = matrix_seconds
        self.matrix_steps = matrix_steps
        self.steps = steps
        self.builtin = builtin
        self.matrix_max_n = matrix_max_n
        self.test_params = test_params
        self.walk = walk
        self.walk_refused = walk_refused
        self.tallies = tallies
        self.vector_sizes = tuple(vector_sizes)

    def __repr__(self) -> str:
        return "Algorithm(%r)" % self.id

    @property
    def biased(self) -> bool:
        """True when the algorithm is known not to give every order equally often."""
        return self.verdict == BIASED

    def resolve_params(self, given=None) -> dict:
        """Return every parameter's value: given ones checked, missing ones defaulted."""
        given = dict(given or {})
        known = [p.name for p in self.params]
        for name in sorted(given):
            if name not in known:
                raise ParamError("%s takes no parameter %r" % (self.id, name))
        return {p.name: p.check(given.get(p.name, p.default)) for p in self.params}

    def param_items(self, given=None) -> tuple:
        """Return ``((name, value), ...)`` for every parameter, in the entry's order (dicts are unordered on MicroPython)."""
        values = self.resolve_params(given)
        return tuple((p.name, values[p.name]) for p in self.params)

    def shuffled(self, cards, rng, params=None) -> list:
        """Return a new list: ``cards`` shuffled by this algorithm with checked parameters."""
        return self.port(cards, rng, **self.resolve_params(params))

    def shuffle_steps(self, cards, rng, params=None):
        """Yield None at each pause of a long shuffle, then what ``shuffled`` returns (one item if it never pauses)."""
        values = self.resolve_params(params)
        if self.steps is None:
            yield self.port(cards, rng, **values)
        else:
            yield from self.steps(cards, rng, **values)

    def method_for(self, n: int) -> str:
        """Return what the exact answers on n cards model: ``method_of(n)`` if the model depends on the size, else ``method``."""
        method_of = self.resolve("method_of")
        return self.method if method_of is None else method_of(n)

    def model_gap(self, n: int) -> str:
        """Return what the exact model on n cards leaves out of the real algorithm ('' for a model of the algorithm itself)."""
        model_gap_of = self.resolve("model_gap_of")
        return "" if model_gap_of is None else model_gap_of(n)

    def resolve(self, part: str):
        """Return the analysis function an entry names for ``part`` (None where it has none)."""
        reference = getattr(self, part)
        if reference is None or callable(reference) or reference == ENUMERATE:
            return reference
        module_name, _, attribute = reference.partition(":")
        module = __import__("shufflelab." + module_name, None, None, [attribute])
        return getattr(module, attribute)

    def check_complete(self) -> None:
        """Raise ShuffleLabError naming the first missing or malformed part of the entry."""
        for name in ("id", "name", "source", "description", "method"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name).strip():
                raise ShuffleLabError("catalog entry %r needs a %s" % (self.id, name))
        if self.verdict not in VERDICTS:
            raise ShuffleLabError("catalog entry %r has verdict %r; choose %s or %s"
                                  % (self.id, self.verdict, ", ".join(VERDICTS[:-1]), VERDICTS[-1]))
        if not callable(self.port):
            raise ShuffleLabError("catalog entry %r needs a port: a function (cards, rng, **params) -> list" % self.id)
        if any(not isinstance(p, Param) for p in self.params):
            raise ShuffleLabError("catalog entry %r: parameters must be Param" % self.id)
        if self.orders is None:
            raise ShuffleLabError("catalog entry %r needs a whole-order model (ENUMERATE replays the port)" % self.id)
        if self.matrix is None and not self.no_matrix_reason:
            raise ShuffleLabError("catalog entry %r has no position matrix and must say why" % self.id)
        if self.kernel is not None and self.deck_maker is not None:
            raise ShuffleLabError("catalog entry %r: a tally kernel or a deck maker, not both" % self.id)


_REGISTRY = {}
_ORDER = []  # ids in registration order (MicroPython's dicts keep no order)


def register(entry: Algorithm) -> Algorithm:
    """Add a complete entry to the catalog under a new id and return it."""
    entry.check_complete()
    if entry.id in _REGISTRY:
        raise ShuffleLabError("an algorithm with id %r is already in the catalog" % entry.id)
    _REGISTRY[entry.id] = entry
    _ORDER.append(entry.id)
    return entry


def unregister(algorithm_id: str) -> None:
    """Remove a user's algorithm (built-ins stay: share links name them)."""
    entry = get(algorithm_id)
    if entry.builtin:
        raise ShuffleLabError("%r is built in and cannot be removed" % algorithm_id)
    del _REGISTRY[algorithm_id]
    _ORDER.remove(algorithm_id)


def get(algorithm_id: str) -> Algorithm:
    """Return the catalog entry for ``algorithm_id`` or raise UnknownAlgorithm naming it."""
    entry = _REGISTRY.get(algorithm_id)
    if entry is None:
        raise UnknownAlgorithm("unknown algorithm %r; choose one of %s" % (algorithm_id, ", ".join(_ORDER)))
    return entry


def ids() -> tuple:
    """Return every registered id, built-ins first, in registration order."""
    return tuple(_ORDER)


def entries() -> tuple:
    """Return every registered entry, in registration order."""
    return tuple(_REGISTRY[i] for i in _ORDER)


def shuffled(cards, algorithm_id: str, rng, params=None) -> list:
    """Return a new list: ``cards`` shuffled by the named algorithm with checked parameters."""
    return get(algorithm_id).shuffled(cards, rng, params)


# --- the built-in algorithms (ids are part of the share-link contract) ----------------

PASSES = Param("passes", "Passes", 7, 1, 50)
# link fields are named by parameter, one range each: these are not the riffles' passes
OVERHAND_PASSES = Param("overhands", "Overhand passes", 10, 1, 2000)
SHELVES = Param("shelves", "Shelves", 10, 2, 20)
SHELF_PASSES = Param("rounds", "Rounds through the machine", 1, 1, 10)
REPETITIONS = Param("repetitions", "Repetitions", 15000, 1, 100000)
NINE_CARDS = ((9, None, 9000),)  # the usual seeded tally against the matrix: 9 cards, 9,000 shuffles

# The four articles the project started from, named in full where an algorithm cites one (never "seed 001", which
# reads like the page's Seed field); docs/reference/sources.md says more of each.
ARTICLE_000 = '"Shuffle a Deck of Cards" (a JavaScript blog post, 2019)'
ARTICLE_001 = 'Tuan Pham-Barnes, "The Javascript Shuffle" (The Startup, 2019)'
ARTICLE_002 = '"Shuffling the deck of cards" (a JavaScript blog post)'
ARTICLE_003 = "a C card-shuffling write-up (srand/rand)"

ALGORITHMS = tuple(register(entry) for entry in (
    Algorithm(
        "fisher-yates", "Fisher–Yates (Durstenfeld)", ARTICLE_000 + ", after Durstenfeld (1964)",
        "Swap a random unshuffled card with the last unshuffled one; every order equally likely.",
        UNBIASED, algorithms.fisher_yates,
        matrix="exact.matrices:fisher_yates",
        kernel="tally.kernels:fisher_yates_block", tallies=NINE_CARDS, builtin=True,
    ),
    Algorithm(
        "splice", "Fisher–Yates by splicing", ARTICLE_001 + ": spliceShuffle",
        "Pull a random unshuffled card out and splice it back in after them; fair, but slow on big decks: its work "
        "grows with the square of their size.",
        UNBIASED, algorithms.splice,
        matrix="exact.matrices:splice", tallies=NINE_CARDS, builtin=True,
    ),
    Algorithm(
        "stack", "Fisher–Yates as a stack", ARTICLE_001 + ": stackShuffle",
        "Pull a random unshuffled card out and push it on the end; fair, but slow on big decks: its work grows with "
        "the square of their size.",
        UNBIASED, algorithms.stack,
        matrix="exact.matrices:stack", tallies=NINE_CARDS, builtin=True,
    ),
    Algorithm(
        "random-key", "Sort by random keys", "Bostock, Will It Shuffle? (2012)",
        "Give every card an independent random number and sort by it; fair, O(n log n).",
        UNBIASED, algorithms.random_key,
        orders="exact.orders:uniform", matrix="exact.matrices:uniform",
        method="exactly uniform (exchangeable keys; ties have probability below n²/2^54)",
        walk_refused=("NotEnumerable", "calls rng.random()"), tallies=NINE_CARDS, builtin=True,
    ),
    Algorithm(
        "riffle-gsr", "Riffle (Gilbert–Shannon–Reeds)", "Gilbert–Shannon–Reeds model; Bayer & Diaconis (1992)",
        "Cut binomially, drop cards from each packet in proportion to its size; close to fair only from about 7 passes.",
        BIASED, algorithms.riffle_gsr, (PASSES,),
        orders="exact.orders:riffle_gsr", matrix="exact.matrices:riffle_gsr",
        method="Binomial cut and uniform interleaving per pass (checked against the port), passes composed",
        deck_maker="tally.makers:riffle_gsr_decks",
        test_params={"passes": 2}, walk=({"passes": 2}, 3), tallies=((9, {"passes": 2}, 9000),), builtin=True,
    ),
    Algorithm(
        "fisher-yates-off-by-one", "Fisher–Yates off by one (Sattolo)", ARTICLE_001 + ": Math.floor(Math.random() * index)",
        "Picks the swap partner only below the current card, so no card can stay: only cyclic orders come out.",
        BIASED, algorithms.fisher_yates_off_by_one,
        matrix="exact.matrices:off_by_one",
        kernel="tally.kernels:fisher_yates_off_by_one_block", tallies=NINE_CARDS, builtin=True,
    ),
    Algorithm(
        "naive-pairs", "Swap random pairs", ARTICLE_001 + ": naiveShuffle",
        "n swaps of two random positions; some cards never move, so the start order shows through.",
        BIASED, algorithms.naive_pairs,
        orders="exact.orders:naive_pairs", matrix="exact.matrices:naive_pairs",
        method="n independent swaps of two uniform positions (checked against the port)",
        kernel="tally.kernels:naive_pairs_block", walk=(None, 3), tallies=NINE_CARDS, builtin=True,
    ),
    Algorithm(
        "swap-any", "Swap with any position", ARTICLE_001 + ": altNaiveShuffle",
        "Swap each card with any position; n^n equally likely paths cannot spread evenly over n! orders.",
        BIASED, algorithms.swap_any,
        orders="exact.orders:swap_any", matrix="exact.matrices:swap_any",
        method="n independent swaps with a uniform position (checked against the port)",
        kernel="tally.kernels:swap_any_block", walk=(None, 5), tallies=NINE_CARDS, builtin=True,
    ),
    Algorithm(
        "c-rand", "C rand() % n", ARTICLE_003,
        "Swap card i with rand() % n: the swap-any bias, modulo bias, and a 32-bit seed that reaches at most 2^32 orders.",
        BIASED, algorithms.c_rand,
        orders="exact.orders:c_rand", matrix="exact.matrices:c_rand",
        method=("the real ANSI rand() over all 2^32 srand seeds on 1, 2, 4, 8 or 16 cards; an ideal rand() on other "
                "sizes (each rand() % n distributed as 0..32767 fall modulo n; the LCG's correlations left out)"),
        method_of="exact.crand:method", model_gap_of="exact.crand:model_gap",
        matrix_seconds="exact.matrices:c_rand_seconds", matrix_steps="exact.matrices:c_rand_steps",
        kernel="tally.kernels:c_rand_block",
        walk_refused=("ExactTooCostly", "more than 1,000 paths: the walk stopped after 1,000"),
        # its matrix is exact over every seed only on 1, 2, 4, 8 and 16 cards (tests/unit/exact/test_crand.py); the
        # ideal rand() it models elsewhere has its own tally, test_c_rand_port_agrees_with_the_ideal_rand_model
        tallies=(), builtin=True,
    ),
    Algorithm(
        "riffle-physical", "Hand riffle (Pham-Barnes's model)", ARTICLE_001 + ": riffleShuffle",
        ("Pham-Barnes's hand-riffle model with JavaScript splice semantics; its first drop is always empty "
         "and it stays biased at 7 passes."),
        BIASED, algorithms.riffle_physical, (PASSES,),
        orders="exact.physical:orders", matrix="exact.physical:matrix",
        method="the port's steps as a Markov chain on whole states, self-loops summed; passes composed",
        matrix_seconds="exact.physical:matrix_seconds", matrix_steps="exact.physical:matrix_steps",
        test_params={"passes": 2}, walk_refused=("ExactTooCostly", "drew more than 1,000 times on one path"),
        tallies=((16, {"passes": 1}, 6000), (9, {"passes": 3}, 6000)), builtin=True,
    ),
    Algorithm(
        "cut-insert", "Cut and insert", ARTICLE_002,
        ("Cut the top part off at random and insert it at a random place, over and over; the top part never goes "
         "to the bottom, so the bottom card never moves."),
        BIASED, algorithms.cut_insert, (REPETITIONS,), steps=algorithms.cut_insert_steps,
        orders="exact.orders:cut_insert", matrix="exact.matrices:cut_insert",
        method="the port, every path of one repetition enumerated; repetitions composed",
        matrix_seconds="exact.matrices:cut_insert_seconds", matrix_steps="exact.matrices:cut_insert_steps",
        test_params={"repetitions": 3}, walk=({"repetitions": 3}, 5), tallies=((9, {"repetitions": 4}, 9000),),
        builtin=True,
    ),
    Algorithm(
        "random-comparator", "Sort with a random comparator", "Bostock; the 2010 browser-ballot bug",
        "Merge sort with a comparator that answers at random; the result depends on the sort and is far from fair.",
        BIASED, algorithms.random_comparator,
        # which comparisons the sort makes depends on earlier answers, so a card's position is no Markov
        # chain: the matrix is summed from the whole-order walk, for small decks
        matrix="exact.matrices:random_comparator",
        method="the port, every path enumerated (a fair coin per comparison)",
        deck_maker="tally.makers:random_comparator_decks",
        matrix_max_n=6,  # exact.matrices.MAX_WALKED_CARDS: the walk's limit
        tallies=((6, None, 9000),), vector_sizes=(3, 4, 6, 7, 13),  # its merge sort's shapes: odd and even halves
        builtin=True,
    ),
    Algorithm(
        "none", "No shuffle", ARTICLE_001 + ": 'No Shuffle'",
        "Leave the deck in order; with the 'pick' deal this is Pham-Barnes's dealing of random cards from an ordered deck.",
        BIASED, algorithms.no_shuffle,
        matrix="exact.matrices:identity",
        kernel="tally.kernels:unshuffled_block", tallies=((9, None, 100),), builtin=True,
    ),
    Algorithm(
        "overhand", "Overhand shuffle", "Pemantle (1989); Jonasson (2006)",
        ("Cut between each pair of neighbours with chance 1/2 and take the packets off in reverse order: "
         "each pass moves most cards only a little, so mixing takes of order n² log n passes; at 52 cards, lower "
         "bounds show it far from uniform for a few hundred."),
        BIASED, algorithms.overhand, (OVERHAND_PASSES,),
        orders="exact.orders:overhand", matrix="exact.matrices:overhand",
        method="one pass's every path enumerated from the port, passes composed; the position matrix in closed form "
               "(checked against the port), raised to rounds",
        test_params={"overhands": 3}, walk=({"overhands": 2}, 5), tallies=((12, {"overhands": 5}, 9000),),
        builtin=True,
    ),
    Algorithm(
        "shelf-shuffler", "Casino shelf shuffler", "Diaconis, Fulman & Holmes (2013)",
        ("Each card goes to a random shelf, on top of its pile or under it; the piles are stacked. After one pass of a "
         "10-shelf machine, its authors found a player could call about 9.5 of 52 cards; the maker moved to two."),
        BIASED, algorithms.shelf_shuffler, (SHELVES, SHELF_PASSES),
        orders="exact.orders:shelf_shuffler", matrix="exact.matrices:shelf_shuffler",
        method="one round counted order by order (its cuts into 2 × shelves falling and rising runs), rounds "
               "composed; the position matrix in closed form, a mixture over the card's shelf and side of two "
               "binomials; both checked against every path of the port, raised to rounds",
        test_params={"shelves": 3, "rounds": 2}, walk=({"shelves": 2, "rounds": 2}, 3),
        tallies=((12, {"shelves": 4, "rounds": 1}, 9000), (9, {"shelves": 10, "rounds": 2}, 9000)),
        builtin=True,
    ),
))
