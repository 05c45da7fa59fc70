"""The lab's view model (py/page/lab_model.py) runs on the page's MicroPython: one scenario of each decision.

Run by tests/test_portable.py under MicroPython in Node (py/page mounted at /lib/page); the
same decisions are tested one by one under CPython in tests/unit/page/test_lab_model.py.
Prints "portable: N passed, M failed".
"""

from page.lab_model import LabModel, ProgressClock, StatusLine, config_name, distance_text, sampling_noise
from shufflelab.lab.protocol import ExactStatus, Snapshot
from shufflelab.lab.words import lab_card, place_words
from shufflelab.link import read_link

results = []


def check(name, ok):
    results.append(ok)
    if not ok:
        print("FAILED:", name)


model = LabModel()
shown = read_link("view=lab&algo=swap-any&n=8&tseed=t&vs=fisher-yates&seed=s", lambda: "unused")[0]
model.a.config = model.tally_config(shown, model.a)
model.b.config = model.tally_config(shown, model.b)
check("configs", (model.a.config.algo, model.b.config.algo, model.a.config.seed) == ("swap-any", "fisher-yates", "t"))
model.custom_active = True
model.a.config = model.tally_config(shown, model.a)
model.name_sides()
check("titles", (model.a.title, model.b.prefix("x")) == ("A · your shuffle", "B: x"))
model.a.latest = Snapshot(8, 1000, 5e6)
model.b.latest = Snapshot(8, 400, 5e4)
check("catch up", model.next_side() == (model.b, 1000))
check("start once", model.start() and not model.start())
model.pause()
check("after pause", model.next_chunk(0) == (model.b, 1000, 1) and model.next_chunk(10) is None)
model.start()
check("hide and show", model.seen(False) == "hidden" and model.seen(True) == "shown")
clock = ProgressClock()
check("time left", clock.left(10.0, 0.1, 42.0) == 42.0 and abs(clock.left(12.0, 0.3, 0.0) - 7.0) < 1e-9)
check("noise", abs(sampling_noise(5, 10000) - 0.4 * (120 / 10000) ** 0.5) < 1e-12)
check("names", config_name(model.a.config) == "your shuffle")
check("leave", model.leave_custom() and not model.custom_active)
line = StatusLine()
began = line.claim()
line.noticed()
check("a notice stays", not line.may_write(began) and line.may_write(line.claim()))
# the words the command line's tally prints too (shufflelab.lab.words), formatted by MicroPython's own % operator
check("distance", distance_text(ExactStatus(True, distance=[2285 / 23328, "2285/23328"]), None)
      == " Exact distance to uniform (total variation): 0.0980 (2285/23328).")
check("tiny distance", distance_text(ExactStatus(True, distance=[1 / 40320, "1/40320"]), None)
      == " Exact distance to uniform (total variation): 2.48e-05 (1/40320).")
check("places", [place_words(p, 12) for p in (0, 1, 2, 10, 11)]
      == ["on top", "2nd from the top", "3rd from the top", "11th from the top", "at the bottom"])
check("cards", lab_card(5, 52) == "6♣" and lab_card(2, 10) == "the card that started 3rd from the top")
print("portable: %d passed, %d failed" % (results.count(True), results.count(False)))
