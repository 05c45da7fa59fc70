"""Every per-algorithm test table, derived from the catalog: a new entry is tested everywhere by adding it.

Each function returns one table, equal to the one the tests kept by hand before: the facts
come from the entries (``test_params``, ``walk``, ``walk_refused``, ``tallies``,
``matrix_max_n``: see ``catalog.Algorithm``) and the parameters they take. A few values
chosen for today's parameters stay as they were chosen (a test keeps its meaning and cost);
a new parameter gets values from its entry and its limits. tests/unit/test_catalog_tables.py
fails if a built-in is missing from any table or lacks a fact one needs. No browser here:
the end-to-end tests import their tables from this module too.
"""

from __future__ import annotations

import re

from shufflelab import catalog
from shufflelab.exact import errors

BUILT_IN = catalog.ALGORITHMS
# the parameters the hostile links A to C carry by name; later ones get links of their own (hostile_param_links)
FIRST_PARAMS = ("passes", "repetitions")
# tests/e2e/test_links.py: each parameter's value in the deal links of the three styles (None: the default, omitted)
E2E_PARAM_VALUES = {"passes": (None, 3, 12), "repetitions": (None, 500, 2), "overhands": (None, 40, 3),
                    "shelves": (None, 4, 20), "rounds": (None, 2, 1)}


def params_by_name() -> dict:
    """Return {parameter name: (the first built-in that takes it, the Param)}, in the catalog's order."""
    found = {}
    for entry in BUILT_IN:
        for param in entry.params:
            found.setdefault(param.name, (entry, param))
    return found


def small_params() -> dict:
    """Return {id: its parameters for quick exact tests} for every built-in (None: it takes none)."""
    return {entry.id: entry.test_params for entry in BUILT_IN}


def walked() -> dict:
    """Return {id: (params, largest n)}: the built-ins whose whole-order model the port's walk checks, and how far."""
    return {entry.id: entry.walk for entry in BUILT_IN if entry.walk is not None}


def refused() -> dict:
    """Return {id: (error class, message pattern)}: the built-ins whose walk refuses on 3 cards within 1,000 paths."""
    return {entry.id: (getattr(errors, entry.walk_refused[0]), re.escape(entry.walk_refused[1]))
            for entry in BUILT_IN if entry.walk_refused is not None}


def monte_carlo() -> list:
    """Return [(id, n, params, shuffles), ...]: every built-in's seeded tallies against its exact matrix."""
    return [(entry.id, n, params, shuffles) for entry in BUILT_IN for n, params, shuffles in entry.tallies or ()]


def link_contexts() -> dict:
    """Return {link key: a query where it applies}: a parameter's first algorithm; room for a deck field's whole range."""
    contexts = {"size": "deck=numbered&players=1&cards=0", "players": "cards=0",
                "cards": "deck=numbered&size=1000&players=1"}
    for name, (entry, _) in params_by_name().items():
        contexts[name] = "algo=" + entry.id
        contexts["vs-" + name] = "vs=" + entry.id
    return contexts


def e2e_param_values() -> dict:
    """Return {parameter name: its values in the three styles' deal links}: as chosen, else derived from its entry."""
    values = {}
    for name, (entry, param) in params_by_name().items():
        values[name] = E2E_PARAM_VALUES.get(name) or new_param_values(entry, param)
    return values


def new_param_values(entry, param) -> tuple:
    """Return (None, a, b): the default and two other values, the entry's test value and an edge, where they differ."""
    # the test value first (cheap in a browser), then the minimum, then the maximum: edges a link must carry
    others = []
    for value in (entry.test_params[param.name], param.minimum, param.maximum):
        if value != param.default and value not in others:
            others.append(value)
    return (None, *(others + [None, None])[:2])


def hostile_param_entries() -> list:
    """Return the built-ins that first take a parameter beyond FIRST_PARAMS, in the catalog's order."""
    owners = []
    for name, (entry, _) in params_by_name().items():
        if name not in FIRST_PARAMS and entry not in owners:
            owners.append(entry)
    return owners


def hostile_param_keys() -> list:
    """Return the URL keys of the parameters beyond FIRST_PARAMS: the deal's, then the compared algorithm's."""
    names = [name for name in params_by_name() if name not in FIRST_PARAMS]
    return names + ["vs-" + name for name in names]


def hostile_param_links() -> dict:
    """Return {name: (query, keys)}: each key of hostile_param_keys in exactly one link, an entry against the next."""
    owners = hostile_param_entries()
    names = {entry.id: [name for name, (first, _) in params_by_name().items()
                        if first is entry and name not in FIRST_PARAMS] for entry in owners}
    links = {}
    for i, entry in enumerate(owners):
        other = owners[(i + 1) % len(owners)]
        keys = names[entry.id] + ["vs-" + name for name in names[other.id]]
        name = "link %s (%s, compared with %s)" % (chr(ord("D") + i), entry.id, other.id)
        links[name] = ("algo=%s&vs=%s" % (entry.id, other.id), keys)
    return links
