"""Check the portable core against the golden vectors: the same script on CPython and MicroPython.

    python tests/portable/check_core.py [GOLDEN_DIR]                  (default: tests/golden)
    node scripts/micropython.mjs --mount tests/golden=/golden tests/portable/check_core.py /golden

Prints one line per failed check and closes with ``portable: N passed, M failed``; the exit
status is 1 if anything failed. A module or attribute that is missing fails its group of
checks (one line) instead of stopping the script.

Written for both interpreters: no dataclasses, typing or pathlib, no reliance on dict order,
%-formatting only. The golden files must keep non-ASCII text as raw UTF-8: MicroPython's json
reads a surrogate pair such as "\\ud83c\\udca1" as two lone surrogates, not one character.
"""

import json
import os
import sys

KNOWN = ("stream_v1.json", "algorithms_v1.json", "seal_v1.json")
SHOWN = 160  # characters of a value shown in a failure line


class Report:
    """Counts checks and prints a line for each one that failed."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def result(self, name, label, problems):
        if problems:
            self.fail("%s %s: %s" % (name, label, "; ".join(problems)))
        else:
            self.passed += 1

    def fail(self, line):
        self.failed += 1
        print("FAIL " + line)


def _short(value):
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "..."


def _error(exc):
    return "%s: %s" % (type(exc).__name__, exc)


def _plain(value):
    """Lists and tuples, nested, as lists: what JSON gives back."""
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _differs(what, got, want):
    """Return [] when equal, else one problem naming both values."""
    got = _plain(got)
    if got == want:
        return []
    return ["%s %s, want %s" % (what, _short(got), _short(want))]


def _group(report, name, data, key, label, setup, check):
    """Run ``check(api, case)`` (a list of problems) for every case in ``data[key]``."""
    cases = data.get(key)
    if not isinstance(cases, list) or not cases:
        report.fail("%s: no cases under key %r" % (name, key))
        return
    try:
        api = setup()
    except Exception as exc:  # ImportError, AttributeError: the code under test is not there (yet)
        report.fail("%s: %d cases not run: %s" % (name, len(cases), _error(exc)))
        return
    for case in cases:
        try:
            problems = check(api, case)
        except Exception as exc:
            problems = ["raised " + _error(exc)]
        report.result(name, label(case), problems)


# --- stream_v1.json ---------------------------------------------------------------------------


def _stream():
    from shufflelab import rng

    return rng.stream


def _stream_and_fisher_yates():
    from shufflelab import algorithms

    return _stream(), algorithms.fisher_yates


def _words(stream, case):
    rng = stream(case["seed"])
    return _differs("words", [rng.word() for _ in case["first"]], case["first"])


def _below(stream, case):
    rng = stream(case["seed"])
    return _differs("values", [rng.below(m) for m in case["bounds"]], case["values"])


def _random(stream, case):
    rng = stream(case["seed"])
    return _differs("values", [rng.random() for _ in case["values"]], case["values"])


def _fisher_yates(api, case):
    stream, fisher_yates = api
    return _differs("order", fisher_yates(list(range(case["n"])), stream(case["seed"])), case["order"])


def _seed(case):
    return "seed=%r" % (case.get("seed"),)


def check_stream(report, data):
    _group(report, "stream_v1/words", data, "words", _seed, _stream, _words)
    _group(report, "stream_v1/below", data, "below", _seed, _stream, _below)
    _group(report, "stream_v1/random", data, "random", _seed, _stream, _random)
    _group(report, "stream_v1/fisher_yates", data, "fisher_yates",
           lambda case: "seed=%r n=%r" % (case.get("seed"), case.get("n")), _stream_and_fisher_yates, _fisher_yates)


# --- algorithms_v1.json -----------------------------------------------------------------------


def _catalog():
    from shufflelab import catalog

    return catalog.get, _stream()


def _algorithm(api, case):
    get, stream = api
    order = get(case["algo"]).shuffled(list(range(case["n"])), stream(case["seed"]), case["params"])
    return _differs("order", order, case["order"])


def _link():
    from shufflelab import link

    return link.read_link, link.outcome_of


def _deal(api, case):
    read_link, outcome_of = api
    link, notices = read_link(case["query"])
    problems = []
    if notices:
        problems.append("notices %s" % _short([str(notice) for notice in notices]))
    outcome = outcome_of(link.deal)
    problems += _differs("order", outcome.order, case["order"])
    problems += _differs("hands", outcome.deal.hands, case["hands"])
    problems += _differs("stock", outcome.deal.stock, case["stock"])
    query = link.to_query()
    again, _ = read_link(query)
    if again.deal != link.deal:
        problems.append("to_query() %r reads back as %r, not %r" % (query, again.deal, link.deal))
    return problems


def check_algorithms(report, data):
    _group(report, "algorithms_v1/algorithms", data, "algorithms",
           lambda case: "%s params=%r seed=%r n=%r" % (case.get("algo"), case.get("params"), case.get("seed"), case.get("n")),
           _catalog, _algorithm)
    _group(report, "algorithms_v1/deals", data, "deals", lambda case: "query=%s" % (case.get("query"),), _link, _deal)


# --- seal_v1.json -----------------------------------------------------------------------------


def _seal():
    from shufflelab import link, seal
    from shufflelab.cards import DeckSpec

    return link, seal, DeckSpec


def _sealed(api, case):
    link, seal, DeckSpec = api
    deck = case["deck"]
    if deck["kind"] == "numbered":
        deck = DeckSpec(kind="numbered", size=deck["size"])
    else:
        deck = DeckSpec(kind=deck["kind"], packs=deck["packs"], jokers=deck["jokers"])
    spec = link.DealSpec(case["algo"], [(k, case["params"][k]) for k in sorted(case["params"])], case["seed"], deck,
                         case["players"], case["cards_each"], case["style"])
    player_seed = case["player_seed"]
    mixed = player_seed is not None
    preimage = case["preimage"].encode("utf-8")
    problems = _differs("preimage", seal.commitment_bytes(spec, mixed), preimage)
    problems += _differs("commitment", seal.commitment(spec, mixed), case["commitment"])
    if seal.read_preimage(preimage) != (spec, mixed):
        problems.append("read_preimage gives %s" % _short(seal.read_preimage(preimage)))
    outcome = seal.verify(case["commitment"], spec, player_seed)
    problems += _differs("order", outcome.order, case["order"])
    problems += _differs("hands", outcome.deal.hands, case["hands"])
    problems += _differs("stock", outcome.deal.stock, case["stock"])
    if not mixed and link.outcome_of(spec) != outcome:
        problems.append("the sealed deal without a player seed is not link.outcome_of's")
    # its reveal link: the deal (with the player seed) and the commitment read back, and deal the same cards
    revealed = spec if not mixed else spec.replace(player_seed=player_seed)
    query = link.Link(revealed, link.View(commitment=case["commitment"])).to_query()
    back, notices = link.read_link(query, None)
    if notices or back.deal != revealed or back.view.commitment != case["commitment"]:
        problems.append("the reveal link %s reads back as %r with %r" % (_short(query), back, notices))
    elif link.outcome_of(back.deal) != outcome:
        problems.append("the reveal link deals other cards than verify")
    url = " https://example.org/shuffle-lab/?" + query + "#top\n"  # as pasted: the whole address, a fragment
    if seal.read_reveal_link(url) != (case["commitment"], revealed):
        problems.append("read_reveal_link reads %s as %r" % (_short(url), seal.read_reveal_link(url)))
    try:
        seal.verify(case["commitment"], spec, None if mixed else "a player seed")
        problems.append("verify accepted the deal with the player seed flipped")
    except seal.SealMismatch:
        pass
    return problems


def check_seal(report, data):
    _group(report, "seal_v1/seals", data, "seals",
           lambda case: "commitment=%s player_seed=%r" % (case.get("commitment"), case.get("player_seed")), _seal, _sealed)


# --- reading links: the same text on every interpreter (no golden file: a link is read, never kept) ----

# (query, the notices read_link gives): UTF-8 read strictly (MicroPython's own decode lets surrogates
# and overlong forms through), and messages that quote a value the same way everywhere
READING = {"cases": [
    ["players=%FF", ["Players '%FF' is not valid UTF-8 text; using 4"]],
    ["players=%ED%A0%80", ["Players '%ED%A0%80' is not valid UTF-8 text; using 4"]],
    ["players=%C0%AF", ["Players '%C0%AF' is not valid UTF-8 text; using 4"]],
    ["players=%F4%90%80%80", ["Players '%F4%90%80%80' is not valid UTF-8 text; using 4"]],
    ["players=%C3", ["Players '%C3' is not valid UTF-8 text; using 4"]],
    ["seed=%C3%9F%E2%80%8D%F0%9F%82%A1", []],
    ["code=%C3%9F", ["Code '\u00df' can't be read (the code in the link has '\u00df' (U+00DF), which base64url does not use); "
                     "using none"]],
    ["code=%EF%BC%94", ["Code '\uff14' can't be read (the code in the link has '\uff14' (U+FF14), which base64url does "
                        "not use); using none"]],
]}


def _reading():
    from shufflelab import link

    return link.read_link


def _read(read_link, case):
    query, notices = case
    return _differs("notices", [str(n) for n in read_link(query, lambda: "fresh")[1]], notices)


def check_reading(report):
    _group(report, "reading", READING, "cases", lambda case: "query=%s" % case[0], _reading, _read)


# --- the run ----------------------------------------------------------------------------------


def _load(report, golden, name):
    try:
        with open(golden + "/" + name) as f:
            return json.load(f)
    except Exception as exc:
        report.fail("%s: cannot read: %s" % (name, _error(exc)))
        return None


def run(golden, report):
    """Check every golden file in directory ``golden``, counting into ``report``."""
    golden = str(golden).rstrip("/") or "/"
    check_reading(report)
    checks = {"stream_v1.json": check_stream, "algorithms_v1.json": check_algorithms, "seal_v1.json": check_seal}
    for name in KNOWN:
        data = _load(report, golden, name)
        if data is not None:
            checks[name](report, data)
    try:
        names = sorted(os.listdir(golden))
    except Exception:
        names = []
    for name in names:
        if name.endswith("_v1.json") and name not in KNOWN:
            data = _load(report, golden, name)
            if isinstance(data, dict) and "cases" in data:
                print("note: %s skipped (a 'cases' file this checker does not know yet)" % name)
            elif data is not None:
                print("note: %s skipped (unknown layout)" % name)


def default_golden():
    """tests/golden beside this script's folder (meant for CPython; under the harness, pass argv[1])."""
    import os.path  # frozen into the PyScript MicroPython build, not into every MicroPython

    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "golden")


def main(args=None):
    """Check the golden directory ``args[0]`` (default: tests/golden); return the exit status."""
    if args is None:
        args = sys.argv[1:]
    report = Report()
    if args:
        golden = args[0]
    else:
        try:
            golden = default_golden()
        except Exception as exc:
            golden = None
            report.fail("no golden directory given (argv[1]) and none found: %s" % _error(exc))
    if golden is not None:
        run(golden, report)
    print("portable: %d passed, %d failed" % (report.passed, report.failed))
    return 1 if report.failed else 0


if __name__ == "__main__":
    if sys.implementation.name != "micropython":
        # run straight from a checkout: the package lives in py/ (MicroPython's copy is in /lib)
        import os.path

        sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "py"))
    sys.exit(main())
