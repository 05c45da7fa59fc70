"""The catalog: complete entries, models that exist, stable ids, and registering users' shuffles."""

import pytest

from shufflelab import catalog
from shufflelab.catalog import BIASED, ENUMERATE, Algorithm, Param, ParamError, UnknownAlgorithm
from shufflelab.errors import ShuffleLabError
from shufflelab.rng import StreamRng

# the ids are part of the share-link contract: a link names its algorithm by id, forever. Kept by hand on purpose:
# a new built-in is appended here (and at the end of catalog.ALGORITHMS); the tables the tests derive from the
# catalog need nothing else (tests/catalog_tables.py, tests/unit/test_catalog_tables.py)
CONTRACT_IDS = [
    "fisher-yates", "splice", "stack", "random-key", "riffle-gsr", "fisher-yates-off-by-one",
    "naive-pairs", "swap-any", "c-rand", "riffle-physical", "cut-insert", "random-comparator", "none",
    "overhand", "shelf-shuffler",  # appended: the order above is the menu's and never changes
]
# where each named analysis part must live (CPython and Pyodide only; never loaded on the page)
PART_MODULES = {
    "orders": ("exact.orders", "exact.physical"),
    "matrix": ("exact.matrices", "exact.physical"),
    "matrix_seconds": ("exact.physical", "exact.matrices"),
    "matrix_steps": ("exact.physical", "exact.matrices"),
    "kernel": ("tally.kernels",),
    "deck_maker": ("tally.makers",),
}
BUILT_IN = catalog.ALGORITHMS


def test_built_in_ids_are_the_stable_contract_list():
    ids = [entry.id for entry in BUILT_IN]
    assert ids[: len(CONTRACT_IDS)] == CONTRACT_IDS, "a built-in id never changes, moves or goes: links name it"
    assert ids == CONTRACT_IDS, f"a new built-in must be appended to CONTRACT_IDS too: {ids[len(CONTRACT_IDS):]}"
    assert [entry.id for entry in catalog.entries() if entry.builtin] == CONTRACT_IDS
    assert list(catalog.ids()[: len(CONTRACT_IDS)]) == CONTRACT_IDS
    assert catalog.DEFAULT_ALGORITHM == "fisher-yates"


@pytest.mark.parametrize("entry", BUILT_IN, ids=lambda e: e.id)
def test_every_entry_is_complete(entry):
    entry.check_complete()
    assert entry.builtin and catalog.get(entry.id) is entry
    assert entry.description.endswith(".") and "\n" not in entry.description
    assert entry.biased == (entry.verdict == BIASED)


@pytest.mark.parametrize("part", sorted(PART_MODULES))
@pytest.mark.parametrize("entry", BUILT_IN, ids=lambda e: e.id)
def test_every_named_analysis_part_resolves_to_a_function(entry, part):
    reference = getattr(entry, part)
    if reference is None or reference == ENUMERATE:
        assert entry.resolve(part) == reference
        return
    module, colon, name = reference.partition(":")
    assert colon and name, f"{entry.id}.{part} = {reference!r} is not 'module:function'"
    assert module in PART_MODULES[part], f"{entry.id}.{part} names {module}, not one of {PART_MODULES[part]}"
    assert callable(entry.resolve(part))


def test_the_verdicts_are_the_articles():
    unbiased = [entry.id for entry in BUILT_IN if not entry.biased]
    assert unbiased == ["fisher-yates", "splice", "stack", "random-key"]


# --- parameters -------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", [e for e in BUILT_IN if e.params], ids=lambda e: e.id)
def test_parameter_limits_are_inclusive_and_enforced(entry):
    for param in entry.params:
        assert param.minimum <= param.default <= param.maximum
        for good in (param.minimum, param.maximum):
            assert entry.resolve_params({param.name: good})[param.name] == good
        for bad in (param.minimum - 1, param.maximum + 1):
            with pytest.raises(ParamError, match=f"{param.name} must be {param.minimum} to {param.maximum}, not {bad}"):
                entry.resolve_params({param.name: bad})


def test_missing_parameters_take_their_defaults_in_the_entrys_order():
    assert catalog.get("riffle-gsr").resolve_params() == {"passes": 7}
    assert catalog.get("cut-insert").param_items({"repetitions": 3}) == (("repetitions", 3),)
    assert catalog.get("fisher-yates").param_items() == ()


def test_unknown_algorithm_and_bad_parameters_are_named():
    with pytest.raises(UnknownAlgorithm, match="unknown algorithm 'bogo'"):
        catalog.get("bogo")
    rng = StreamRng("named")
    with pytest.raises(ParamError, match="passes must be 1 to 50, not 0"):
        catalog.shuffled([1, 2], "riffle-gsr", rng, {"passes": 0})
    with pytest.raises(ParamError, match="fisher-yates takes no parameter 'passes'"):
        catalog.shuffled([1, 2], "fisher-yates", rng, {"passes": 3})
    for not_whole in ("7", 7.0, True):
        with pytest.raises(ParamError, match="whole number"):
            catalog.shuffled([1, 2], "cut-insert", rng, {"repetitions": not_whole})
    assert issubclass(UnknownAlgorithm, ShuffleLabError) and issubclass(ParamError, ShuffleLabError)


# --- users' own shuffles register the same way ----------------------------------------------------


def _reverse(cards, rng, times=1):
    return list(cards)[::-1] if times % 2 else list(cards)


def custom(**changes):
    """A complete custom entry, with some fields changed."""
    fields = dict(id="test-reverse", name="Reverse", source="a test", description="Reverse the deck.",
                  verdict=BIASED, port=_reverse, params=(Param("times", "Times", 1, 1, 3),),
                  no_matrix_reason="a test entry has no matrix")
    fields.update(changes)
    return Algorithm(**fields)


pytestmark = pytest.mark.usefixtures("only_built_ins_afterwards")  # tests/unit/conftest.py


@pytest.fixture
def registered():
    return catalog.register(custom())


def test_a_custom_entry_registers_like_a_built_in(registered):
    assert catalog.ids() == tuple(CONTRACT_IDS) + ("test-reverse",)
    assert catalog.get("test-reverse") is registered and catalog.entries()[-1] is registered
    assert catalog.shuffled([1, 2, 3], "test-reverse", StreamRng("c")) == [3, 2, 1]
    assert catalog.shuffled([1, 2, 3], "test-reverse", StreamRng("c"), {"times": 2}) == [1, 2, 3]
    with pytest.raises(ParamError, match="times must be 1 to 3, not 4"):
        catalog.shuffled([1, 2, 3], "test-reverse", StreamRng("c"), {"times": 4})
    catalog.unregister("test-reverse")
    assert catalog.ids() == tuple(CONTRACT_IDS)
    with pytest.raises(UnknownAlgorithm, match="'test-reverse'"):
        catalog.get("test-reverse")


def test_a_custom_entry_may_give_its_models_as_functions():
    def orders(n, params):
        return {}, 1

    entry = custom(id="test-functions", orders=orders)
    assert entry.resolve("orders") is orders and entry.resolve("kernel") is None


def test_a_duplicate_id_is_refused(registered):
    for taken in ("fisher-yates", "test-reverse"):
        with pytest.raises(ShuffleLabError, match=f"id '{taken}' is already in the catalog"):
            catalog.register(custom(id=taken))
    assert catalog.get("fisher-yates") is BUILT_IN[0] and catalog.ids().count("test-reverse") == 1


@pytest.mark.parametrize(
    "changes, message",
    [({"name": " "}, "needs a name"),
     ({"source": None}, "needs a source"),
     ({"description": ""}, "needs a description"),
     ({"verdict": "fair-ish"}, "verdict 'fair-ish'"),
     ({"port": "fisher_yates"}, "needs a port"),
     ({"params": (("times", 1),)}, "parameters must be Param"),
     ({"orders": None}, "needs a whole-order model"),
     ({"no_matrix_reason": ""}, "no position matrix and must say why"),
     ({"kernel": "tally.kernels:swap_any_block", "deck_maker": "tally.makers:riffle_gsr_decks"},
      "a tally kernel or a deck maker, not both")],
    ids=lambda value: str(value)[:30],
)
def test_an_incomplete_entry_is_refused_naming_what_it_lacks(changes, message):
    with pytest.raises(ShuffleLabError, match=message) as refused:
        catalog.register(custom(id="test-incomplete", **changes))
    assert "'test-incomplete'" in str(refused.value)
    assert "test-incomplete" not in catalog.ids()


def test_built_ins_cannot_be_unregistered():
    with pytest.raises(ShuffleLabError, match="'fisher-yates' is built in"):
        catalog.unregister("fisher-yates")
    assert catalog.ids() == tuple(CONTRACT_IDS)
    with pytest.raises(UnknownAlgorithm, match="'never-registered'"):
        catalog.unregister("never-registered")


@pytest.mark.parametrize("entry", catalog.entries(), ids=lambda e: e.id)
def test_every_entrys_parts_resolve_to_what_the_analysis_can_call(entry):
    # orders: ENUMERATE (replay the port) or a model; the rest: a function, or None for "has none"
    orders = entry.resolve("orders")
    assert orders == ENUMERATE or callable(orders), f"{entry.id}.orders resolves to {orders!r}"
    for part in ("matrix", "kernel", "deck_maker", "matrix_seconds", "matrix_steps"):
        resolved = entry.resolve(part)
        assert resolved is None or callable(resolved), f"{entry.id}.{part} resolves to {resolved!r}"
