"""Append golden vectors to algorithms_v1.json for cases it does not hold yet; never rewrite one.

A share link made today must show the same cards forever, so a vector, once written, is
the contract: this script only ADDS vectors for new cases (a new algorithm, seed, deck
size or deal) and leaves every existing one exactly as it is. A test that fails against
a vector means the code broke a link, never that the vector needs "fixing". The only
exception so far was made by an issue, and the docs say why (random-comparator, whose
v1 vectors were replaced when its sort became the library's own).

Usage: PYTHONPATH=py python tests/golden/make_algorithm_vectors.py [--check]
(--check: exit 1 if any case is missing, write nothing)
"""

import json
from pathlib import Path

from shufflelab import catalog
from shufflelab.cards import DeckSpec
from shufflelab.link import DealSpec, Link, outcome_data, outcome_of
from shufflelab.rng import stream

PATH = Path(__file__).with_name("algorithms_v1.json")
SEEDS = ("golden", "♠ ünïcode ♥")
SIZES = (0, 1, 2, 5, 52)  # every algorithm's; an entry adds its own (vector_sizes: random-comparator's sort's shapes)
# a parameter's vector value as first chosen (40 where it is in range); a later parameter takes its entry's test value
VECTOR_VALUES = {"passes": 3, "repetitions": 40, "overhands": 40, "shelves": 3, "rounds": 3}


def vector_value(entry, param) -> int:
    """Return the value a parameter's vectors use: as first chosen, else the entry's test_params value."""
    return VECTOR_VALUES[param.name] if param.name in VECTOR_VALUES else entry.test_params[param.name]


def algorithm_cases():
    """Yield (algo, params, seed, n) for every vector the file should hold."""
    for entry in catalog.entries():
        for seed in SEEDS:
            for n in SIZES + entry.vector_sizes:
                yield entry.id, {}, seed, n
            for param in entry.params:
                yield entry.id, {param.name: vector_value(entry, param)}, seed, 52


def deal_cases():
    """Yield the DealSpec of every deal vector the file should hold."""
    decks = (DeckSpec(), DeckSpec(packs=2, jokers=2), DeckSpec(kind="euchre"))
    for deck in decks:
        for style, players, cards_each in (("round-robin", 4, 5), ("blocks", 3, 7), ("pick", 2, 6)):
            for algo in ("fisher-yates", "none", "riffle-gsr"):
                yield DealSpec(algo, None, "deal golden", deck, players, cards_each, style)


def append_missing(golden: dict) -> int:
    """Add the vectors of missing cases to ``golden``; return how many were added."""
    have = {(v["algo"], json.dumps(v["params"], sort_keys=True), v["seed"], v["n"]) for v in golden["algorithms"]}
    added = 0
    for algo, params, seed, n in algorithm_cases():
        if (algo, json.dumps(params, sort_keys=True), seed, n) not in have:
            order = catalog.get(algo).shuffled(list(range(n)), stream(seed), params)
            golden["algorithms"].append({"algo": algo, "params": params, "seed": seed, "n": n, "order": order})
            added += 1
    have_deals = {v["query"] for v in golden["deals"]}
    for spec in deal_cases():
        query = Link(spec).to_query()
        if query not in have_deals:
            data = outcome_data(spec, outcome_of(spec))
            golden["deals"].append({key: data[key] for key in ("query", "order", "hands", "stock")})
            added += 1
    return added


if __name__ == "__main__":
    from append_only import run

    run(PATH, lambda: {"algorithms": [], "deals": []}, append_missing)
