"""Write algorithms_v1.json: every algorithm's output for fixed seeds under stream v1.

Run once when an algorithm is ADDED; never to "fix" a failing test. A share link made
today must show the same cards forever, so a changed vector is a broken link.
Usage: PYTHONPATH=py python tests/golden/make_algorithm_vectors.py
"""

import json
from pathlib import Path

from shufflelab import algorithms
from shufflelab.cards import DeckSpec
from shufflelab.rng import StreamRng
from shufflelab.share import State, outcome_data, play

SEEDS = ("golden", "♠ ünïcode ♥")
SIZES = (0, 1, 2, 5, 52)


def algorithm_vectors():
    for algorithm in algorithms.ALGORITHMS:
        for seed in SEEDS:
            for n in SIZES:
                order = algorithm.shuffled(list(range(n)), StreamRng(seed))
                yield {"algo": algorithm.id, "params": {}, "seed": seed, "n": n, "order": order}
            for param in algorithm.params:
                value = 3 if param.name == "passes" else 40
                order = algorithm.shuffled(list(range(52)), StreamRng(seed), {param.name: value})
                yield {"algo": algorithm.id, "params": {param.name: value}, "seed": seed, "n": 52, "order": order}


def deal_vectors():
    decks = (DeckSpec(), DeckSpec(packs=2, jokers=2), DeckSpec(kind="euchre"))
    for deck in decks:
        for style, players, cards_each in (("round-robin", 4, 5), ("blocks", 3, 7), ("pick", 2, 6)):
            for algo in ("fisher-yates", "none", "riffle-gsr"):
                state = State(algo=algo, seed="deal golden", deck=deck, players=players,
                              cards_each=cards_each, style=style)
                data = outcome_data(state, play(state))
                yield {key: data[key] for key in ("query", "order", "hands", "stock")}


if __name__ == "__main__":
    out = {"algorithms": list(algorithm_vectors()), "deals": list(deal_vectors())}
    path = Path(__file__).with_name("algorithms_v1.json")
    path.write_text(json.dumps(out, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path}")
