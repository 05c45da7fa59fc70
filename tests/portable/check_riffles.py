"""shufflelab.riffles (a real deck's riffles) on the page's MicroPython: the same answers as CPython's.

Run by tests/test_portable.py under MicroPython in Node (and in-process under CPython). Prints
"portable: N passed, M failed". Integers only: no fractions, dataclasses or typing.
"""

from shufflelab import riffles
from shufflelab.algorithms import riffle_gsr
from shufflelab.cards import standard_deck
from shufflelab.errors import ShuffleLabError
from shufflelab.rng import StreamRng

results = []


def check(name, ok):
    results.append(ok)
    if not ok:
        print("FAILED:", name)


deck = standard_deck()
identity = list(range(52))
check("identity", riffles.assess(identity)["best_k"] == 0)
check("comb", riffles.comb(52, 26) == 495918532948104)
check("factorial", riffles.factorial(52) == 80658175170943878571660636856403766975289505440883277824000000000000)
check("chance", riffles.riffle_chance(52, 8, 3) == (riffles.comb(52, 52), 1 << 156))
check("log10", abs(riffles.log10_ratio(riffles.factorial(52), 1) - 67.90665) < 1e-5)
for k in (1, 2, 3, 4):
    order = riffle_gsr(list(identity), StreamRng("portable %d" % k), passes=k)
    check("at most 2^%d rising" % k, riffles.rising_sequences(order) <= 2 ** k)
three = riffle_gsr(list(identity), StreamRng("three"), passes=3)
result = riffles.assess(three)
check("three riffles", result["plausible"] == [3] and result["sentence"].startswith("Not shuffled enough"))
text = " ".join(deck.codes(three)).lower().replace("0h", "10h")
check("parse", riffles.parse_order(text, deck) == three)
try:
    riffles.parse_order("AC 2C AC", deck)
    check("repeat named", False)
except ShuffleLabError as error:
    check("repeat named", "AC is given twice" in str(error))
check("meanings", [entry[0] for entry in riffles.DISTANCE_MEANINGS] == ["tv", "separation", "kl"])
print("portable: %d passed, %d failed" % (results.count(True), results.count(False)))
