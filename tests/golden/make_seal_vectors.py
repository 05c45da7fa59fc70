"""Append golden vectors to seal_v1.json for cases it does not hold yet; never rewrite one.

A commitment published today must verify tomorrow, and a sealed deal must show the same
cards, so a vector, once written, is the contract: this script only ADDS vectors for new
cases and leaves every existing one exactly as it is. A test that fails against a vector
means the code broke a seal, never that the vector needs "fixing".

Each vector holds the deal's fields, the player seed (null: none), the preimage text, the
commitment, and the cards (order, hands, stock). tests/golden/seal_v1_reference.mjs
derives the preimages, commitments and the fisher-yates cards again, independently, from
docs/reference/seal-v1.md.

Usage: PYTHONPATH=py python tests/golden/make_seal_vectors.py [--check]
(--check: exit 1 if any case is missing, write nothing)
"""

from pathlib import Path

from shufflelab.cards import DeckSpec
from shufflelab.link import DealSpec
from shufflelab.seal import SCHEME, commitment, commitment_bytes, play_sealed

PATH = Path(__file__).with_name("seal_v1.json")
FRESH = "Kv3h2Zx8T0mYpQ7wL5cN1bR9sD4fG6jH2kA8eU0oI3y"  # what a fresh 256-bit seed looks like


def cases():
    """Yield (DealSpec, player seed or None) for every vector the file should hold."""
    plain = DealSpec(seed="golden seal")
    yield plain, None
    yield plain, "player one"
    riffle = DealSpec("riffle-gsr", {"passes": 3}, "♠ ünïcode ♥", DeckSpec(packs=2, jokers=2), 3, 7, "blocks")
    yield riffle, None
    yield riffle, "🂡 lucky"
    # values that look like lines of the format: '=' and U+2028 are ordinary characters in a seed
    picked = DealSpec("fisher-yates", None, FRESH, DeckSpec(kind="numbered", size=10), 2, 3, "pick")
    yield picked, "=player-seed=yes\u2028seed=x"
    yield DealSpec("cut-insert", {"repetitions": 40}, "seed=with\u2028player-seed=yes", DeckSpec(kind="euchre"), 4, 6), None
    yield DealSpec("random-comparator", None, "草", DeckSpec(kind="numbered", size=13), 1, 0), "草"
    # keys longer than SHA-256's 64-byte block: HMAC hashes them first
    yield DealSpec(seed="é" * 256), "♥" * 256
    yield DealSpec("naive-pairs", None, FRESH, DeckSpec(kind="piquet", jokers=2), 2, 8, "pick"), None
    yield DealSpec("naive-pairs", None, FRESH, DeckSpec(kind="piquet", jokers=2), 2, 8, "pick"), "a"


def vector(spec: DealSpec, player_seed) -> dict:
    """Return the vector of one case: the inputs, the preimage, the commitment and the cards."""
    outcome = play_sealed(spec, player_seed)
    with_player_seed = player_seed is not None
    return {
        "algo": spec.algo, "params": spec.resolved_params(), "seed": spec.seed, "deck": spec.deck.as_dict(),
        "players": spec.players, "cards_each": spec.cards_each, "style": spec.style, "player_seed": player_seed,
        "preimage": commitment_bytes(spec, with_player_seed).decode("utf-8"),
        "commitment": commitment(spec, with_player_seed),
        "order": outcome.order, "hands": outcome.deal.hands, "stock": outcome.deal.stock,
    }


def append_missing(golden: dict) -> int:
    """Add the vectors of missing cases to ``golden``; return how many were added."""
    have = {(v["preimage"], v["player_seed"]) for v in golden["seals"]}
    added = 0
    for spec, player_seed in cases():
        made = vector(spec, player_seed)
        if (made["preimage"], player_seed) not in have:
            golden["seals"].append(made)
            have.add((made["preimage"], player_seed))
            added += 1
    return added


def empty() -> dict:
    return {"scheme": SCHEME,
            "spec": "commitment = SHA-256(preimage); the preimage and the mixed key are in README.md, 'Sealed deals'",
            "seals": []}


if __name__ == "__main__":
    from append_only import run

    run(PATH, empty, append_missing)
