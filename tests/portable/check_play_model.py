"""The Play tab's view model (py/page/play_model.py) runs on the page's MicroPython: a game, the words, a real deck.

Run by tests/test_portable.py under MicroPython in Node (py/page mounted at /lib/page); the
same things are tested one by one under CPython in tests/unit/page/test_play_model.py.
Prints "portable: N passed, M failed".
"""

from page import play_model
from page.play_model import Game
from shufflelab.cards import standard_deck
from shufflelab.rng import stream

results = []


def check(name, ok):
    results.append(ok)
    if not ok:
        print("FAILED:", name)


game = play_model.deal_game(10, 1, "full", stream("portable-play"))
check("dealt", sorted(game.order) == list(range(10)))
for card in game.order[:4]:
    game.guess(card)
check("right", game.right() == 4 and game.finish() and game.played() == 4 and game.shown() == 10)
written = Game([0, 1, 2], 1, "none")
for card in (0, 0, 2):
    written.guess(card)
check("written", written.ready() and written.finish() and written.right() == 2)
check("thousands", play_model.thousands(1234567) == "1,234,567")
report = {"cards": 52, "riffles": 1, "feedback": "full", "exact": False, "expected_value": 27.5, "standard_error": 0.25,
          "samples": 1000, "seed": "play"}
check("figure", play_model.figure_value(report) == "27.500 ± 0.250 cards right on average (simulated, ± standard error, "
      "1,000 decks)")
check("cli", play_model.cli_command(report).endswith("--seed play --samples 1000 --json"))
deck = standard_deck()
result, problem = play_model.check_real_deck(" ".join(deck.codes(game.order + list(range(10, 52)))))
check("real", problem is None and result["rising"] <= 2 and len(play_model.likelihood_rows(result)) == 21)
result, problem = play_model.check_real_deck("AC AC")
check("bad", result is None and "AC is given twice" in problem)
check("typed", play_model.typed_cards("as 10h") == {39, 35})

print("portable: %d passed, %d failed" % (sum(1 for ok in results if ok), sum(1 for ok in results if not ok)))
