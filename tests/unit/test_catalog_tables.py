"""The guard: every built-in carries the facts the test tables need, and is in every table derived from them.

The per-algorithm tables of the tests (tests/catalog_tables.py) and the golden generators' case lists
are derived from the catalog, so a new algorithm is tested everywhere by adding its entry. These tests
fail, naming the entry and what it lacks, when an entry is missing from a table or a fact is missing.
"""

import importlib.util
import inspect
import sys
from pathlib import Path

import pytest

import catalog_tables
from shufflelab import catalog
from shufflelab.catalog import ENUMERATE, Algorithm, ParamError
from shufflelab.errors import ShuffleLabError
from shufflelab.exact import errors

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
BUILT_IN = catalog.ALGORITHMS


def _load(name: str):
    """Import a golden generator by file (tests/golden is not a package); the one already imported if it was."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, GOLDEN / f"{name}.py")
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


def bad_params(entry: Algorithm, params) -> str:
    """Return why ``params`` are not a valid parameter set of the entry ('' when they are)."""
    try:
        entry.resolve_params(params)
    except ParamError as error:
        return str(error)
    return ""


def lacking(entry: Algorithm) -> list:
    """Return what the entry lacks for the test tables, one plain sentence each (nothing when it is complete)."""
    lacks = []
    names = sorted(p.name for p in entry.params)
    if names and (not isinstance(entry.test_params, dict) or sorted(entry.test_params) != names):
        lacks.append(f"test_params must give each of {names}, not {entry.test_params!r}")
    elif names and bad_params(entry, entry.test_params):
        lacks.append("test_params: " + bad_params(entry, entry.test_params))
    elif not names and entry.test_params is not None:
        lacks.append("test_params must be None: it takes no parameters")
    if entry.matrix_max_n is not None and (entry.matrix is None or entry.matrix_max_n < 1):
        lacks.append(f"matrix_max_n {entry.matrix_max_n!r} needs a matrix and a deck of 1 card or more")
    lacks += lacking_walk(entry) + lacking_tallies(entry)
    return lacks


def lacking_walk(entry: Algorithm) -> list:
    """Return what the entry lacks to say how the port's walk checks its whole-order model."""
    if entry.orders == ENUMERATE:
        if entry.walk is not None or entry.walk_refused is not None:
            return ["walk and walk_refused are for an entry with its own whole-order model: its walk is its model"]
        return []
    if (entry.walk is None) == (entry.walk_refused is None):
        return ["its own whole-order model needs walk (params, n) or walk_refused (error, message): one of them"]
    if entry.walk is not None:
        params, n = entry.walk
        if not isinstance(n, int) or n < 2 or bad_params(entry, params):
            return [f"walk {entry.walk!r} needs parameters it takes and 2 cards or more"]
        return []
    error, message = entry.walk_refused
    if not (inspect.isclass(getattr(errors, error, None)) and issubclass(getattr(errors, error), ShuffleLabError)):
        return [f"walk_refused names {error!r}, not an error of shufflelab.exact.errors"]
    return [] if message else ["walk_refused needs the words the walk refuses with"]


def lacking_tallies(entry: Algorithm) -> list:
    """Return what the entry lacks to say which seeded tallies check its exact matrix."""
    if entry.matrix is None:
        return [] if not entry.tallies else ["tallies check an exact matrix, and it has none"]
    if entry.tallies is None:
        return ["tallies: ((n, params, shuffles), ...) against its matrix, or () with a comment saying why none"]
    lacks = []
    for n, params, shuffles in entry.tallies:
        if entry.matrix_max_n is not None and n > entry.matrix_max_n:
            lacks.append(f"a tally on {n} cards, beyond its matrix's {entry.matrix_max_n}")
        if bad_params(entry, params) or shuffles < 1:
            lacks.append(f"tally {(n, params, shuffles)!r}: {bad_params(entry, params) or 'no shuffles'}")
    return lacks


@pytest.mark.parametrize("entry", BUILT_IN, ids=lambda e: e.id)
def test_every_built_in_has_the_facts_the_test_tables_need(entry):
    assert lacking(entry) == [], f"catalog entry {entry.id!r}"


def test_an_entry_without_its_facts_is_caught():
    riffle = catalog.get("riffle-gsr")
    bare = Algorithm("test-bare", "Bare", "a test", "Riffle.", catalog.BIASED, riffle.port, riffle.params,
                     orders=riffle.orders, matrix=riffle.matrix)
    for found, fact in zip(lacking(bare), ("test_params", "walk_refused", "tallies"), strict=True):
        assert fact in found
    bare.test_params, bare.walk, bare.tallies = {"passes": 0}, ({"passes": 2}, 1), ((9, None, 0),)
    for found, fact in zip(lacking(bare), ("passes must be 1 to 50", "walk", "no shuffles"), strict=True):
        assert fact in found


@pytest.mark.parametrize("entry", BUILT_IN, ids=lambda e: e.id)
def test_every_built_in_is_in_every_derived_table(entry):
    assert entry.id in catalog_tables.small_params()
    if entry.orders != ENUMERATE:
        assert entry.id in {**catalog_tables.walked(), **catalog_tables.refused()}
    if entry.matrix is not None and entry.tallies:
        assert entry.id in {case[0] for case in catalog_tables.monte_carlo()}
    links = [key for _, keys in catalog_tables.hostile_param_links().values() for key in keys]
    for param in entry.params:
        assert {param.name, "vs-" + param.name} <= set(catalog_tables.link_contexts())
        assert all(v is None or param.check(v) == v for v in catalog_tables.e2e_param_values()[param.name])
        if param.name not in catalog_tables.FIRST_PARAMS:
            assert links.count(param.name) == links.count("vs-" + param.name) == 1


@pytest.mark.parametrize("entry", BUILT_IN, ids=lambda e: e.id)
def test_every_built_in_is_in_every_golden_generators_cases(entry):
    assert entry.id in {case[0] for case in _load("make_algorithm_vectors").algorithm_cases()}
    assert entry.id in {case[0] for case in _load("make_tally_vectors").tally_cases()}
    assert entry.id in {algo for algo, *_ in _load("make_link_vectors").design()}
    # a parameter's golden values come from the generators' tables or the entry: in range either way
    for param in entry.params:
        value = _load("make_algorithm_vectors").vector_value(entry, param)
        assert param.check(value) == value
        value = _load("make_tally_vectors").tally_value(entry, param)
        assert param.check(value) == value
        assert all(v is None or param.check(v) == v for v in _load("make_link_vectors").link_values(entry, param))
