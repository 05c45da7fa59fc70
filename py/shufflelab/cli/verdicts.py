"""The lab's verdict in the command line: ``tally`` (shuffles of a built-in or of your file, counted as the page's lab
counts them for the same tally seed) and ``audit`` (orders from any engine, one a line).

Both exit with the verdict, so a CI job can gate on it: 0 no bias, FINDING (1) biased or
suspicious, USAGE_ERROR (2) for too few shuffles to judge, bad arguments, or (``audit``)
any bad line.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys

from .. import clock, tally
from ..audit import MAX_REPORTED_BAD_LINES, audit_file
from ..lab.counts import count_to, processes_for
from ..lab.protocol import TallyConfig
from ..lab.report import verdict_data, verdict_lines
from ..lab.service import Session
from ..lab.words import distance_sentence
from ..link import LAB_MAX_N, MAX_TALLY_SEED_LENGTH
from ..stats.repeats import repeats_report, repeats_sentence
from .common import FINDING, PROG, USAGE_ERROR, UsageError, given_params, tally_seed_from
from .own_shuffle import DEFAULT_TIME_LIMIT, add_algorithm_or_file_options, check_time_limit, shuffle_to_run

# A gate must not pass a run too short to judge: too-few is "could not be judged", as bad input is.
VERDICT_STATUS = {"no-bias": 0, "suspicious": FINDING, "biased": FINDING, "too-few": USAGE_ERROR}
DEFAULT_TALLY_CARDS = 52  # the lab's default n
DEFAULT_SHUFFLES = 100_000
MAX_SHUFFLES = 10**12
MAX_WORKERS = 256
TALLY_STREAM_VERSION = 1  # tests/golden/tally_v1.json pins it
PROGRESS_SECONDS = 0.2  # at most five redraws a second
TALLY_CHUNK_SECONDS = 0.25  # one process: the tally runs in chunks of about this long between redraws


class Progress:
    """One line of progress on stderr, redrawn in place, only when stderr is a terminal (nothing when piped)."""

    def __init__(self) -> None:
        stream = sys.stderr
        self.shown = bool(getattr(stream, "isatty", None)) and stream.isatty()
        self.drawn = 0  # characters on the line now
        self.last = 0.0

    def show(self, text: str) -> None:
        """Redraw the line with ``text``, unless it was redrawn less than PROGRESS_SECONDS ago."""
        if not self.shown or clock.now() - self.last < PROGRESS_SECONDS:
            return
        self.last = clock.now()
        sys.stderr.write("\r" + text.ljust(self.drawn))
        sys.stderr.flush()
        self.drawn = len(text)

    def clear(self) -> None:
        """Erase the line, so what follows starts on a clean one."""
        if self.shown and self.drawn:
            sys.stderr.write("\r" + " " * self.drawn + "\r")
            sys.stderr.flush()
            self.drawn = 0


def add_tally_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``tally``: algorithm or file, its parameters, cards, shuffles, tally seed, workers, output."""
    add_algorithm_or_file_options(parser)
    parser.add_argument("--cards", type=int, default=DEFAULT_TALLY_CARDS, metavar="N",
                        help=f"deck size, {tally.MIN_CARDS}-{tally.MAX_CARDS} (default {DEFAULT_TALLY_CARDS}; "
                             f"the page's lab goes to {LAB_MAX_N})")
    parser.add_argument("--shuffles", type=int, default=DEFAULT_SHUFFLES, metavar="N",
                        help=f"shuffles to tally, 1-{MAX_SHUFFLES:,} (default {DEFAULT_SHUFFLES:,})")
    parser.add_argument("--seed", default=None, metavar="TEXT",
                        help=f"tally seed, the lab's tseed: 1 to {MAX_TALLY_SEED_LENGTH} characters, no control "
                             "characters (default: a fresh one, printed)")
    parser.add_argument("--workers", type=int, default=1, metavar="K",
                        help="processes that make and count the decks, the counts the same for any K (default 1)")
    parser.add_argument("--no-exact", action="store_true",
                        help="skip the exact card × position matrix (its figures are left out; the verdict is the same)")
    parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
                        help=f"with --file, stop code still running after this long in one step (its top level, a batch "
                             f"of shuffles, the exact walk); 0 for no limit (default {DEFAULT_TIME_LIMIT:g})")
    parser.add_argument("--json", action="store_true", help="print JSON: the counts, the verdict, its figures")


def run_tally(args: argparse.Namespace) -> int:
    """Tally shuffles as the page's lab does for the same tally seed, and print its verdict; exit 0, 1 or 2 by it."""
    if not 1 <= args.shuffles <= MAX_SHUFFLES:
        raise UsageError(f"--shuffles must be 1 to {MAX_SHUFFLES:,}, not {args.shuffles}")
    if not 1 <= args.workers <= MAX_WORKERS:
        raise UsageError(f"--workers must be 1 to {MAX_WORKERS}, not {args.workers}")
    check_time_limit(args.time_limit)
    seed, fresh = tally_seed_from(args.seed)
    if not tally.MIN_CARDS <= args.cards <= tally.MAX_CARDS:
        raise UsageError(f"--cards must be {tally.MIN_CARDS} to {tally.MAX_CARDS}, not {args.cards}")
    data = _tally_data(args, seed, fresh)
    _print_verdict(data, _tally_header(data), args.json)
    return _verdict_status(data, f"run at least {data['minimum_shuffles']:,} shuffles (--shuffles)")


def _tally_data(args: argparse.Namespace, seed: str, fresh: bool) -> dict:
    """Return the tally's JSON: the shuffles counted through the page's lab session, its exact answers and verdict."""
    progress = Progress()
    with shuffle_to_run(args) as (algo, limit):
        config = TallyConfig(algo, sorted(given_params(args).items()), args.cards, seed, None)
        session = Session(config, in_process=True)  # the page's session: its tally, and its exact answers
        if not args.no_exact:
            with limit():
                session.finish_exact(set(), progress=lambda done: progress.show(f"exact matrix: {done:.0%}"))
        workers = _processes(session.algo, args.workers)
        started = clock.now()
        show = _progress_line(session, args.shuffles, progress)
        counts, fixed_points = count_to(session, args.shuffles, workers, TALLY_CHUNK_SECONDS, limit, show)
        seconds = clock.now() - started
        progress.clear()
        # while the user's shuffle is still registered: what the exact answers model asks the catalog
        return {"algo": session.algo, "params": session.params, "file": args.file, "seed": seed, "fresh_seed": fresh,
                "tally_stream": TALLY_STREAM_VERSION, **verdict_data(counts, fixed_points, session.summary(counts, fixed_points)),
                "exact": _exact_data(session, args.no_exact), "workers": workers, "seconds": round(seconds, 3)}


def _processes(algo: str, workers: int) -> int:
    """Return the processes the tally runs in: --workers, or 1, said on stderr, when splitting would change its counts."""
    processes = processes_for(algo, workers)
    if processes < workers:
        print(f"{PROG}: note: {algo} decides what to draw from what it drew, so its tally cannot be split "
              "without changing its counts; it runs in one process", file=sys.stderr)
    return processes


def _progress_line(session, total: int, progress: Progress):
    """Return what ``count_to`` calls after each chunk: it redraws the progress line, with the verdict so far."""
    started = clock.now()

    def show(done: int, counts, fixed_points) -> None:
        rate = done / max(clock.now() - started, 1e-9)
        level = session.summary(counts, fixed_points)["verdict"] if progress.shown else ""  # only when it is drawn
        progress.show(f"{done:,} of {total:,} shuffles ({done / total:.0%}), {rate:,.0f}/s, verdict so far: {level}")

    return show


def _exact_data(session, skipped: bool) -> dict:
    """Return what the exact answers gave: the matrix (used in the figures, not printed), the distance, or why not."""
    if skipped:
        return {"matrix": False, "reason": "skipped (--no-exact)", "distance": None, "distance_reason": None,
                "model": None}
    return {"matrix": session.matrix is not None, "reason": session.matrix_reason or None,
            "distance": session.distance, "distance_reason": session.distance_reason or None, "model": session.model()}


def _tally_header(data: dict) -> list[str]:
    """The lines above a tally's verdict: what was tallied, the seed that repeats it, how fast, what is exact."""
    name = data["algo"] if data["file"] is None else f"{data['algo']} ({data['file']})"
    params = "".join(f", {k}={v}" for k, v in data["params"].items())
    fresh = f" (fresh: --seed={shlex.quote(data['seed'])} repeats this run)" if data["fresh_seed"] else ""
    rate = data["shuffles"] / data["seconds"] if data["seconds"] else 0
    workers = f", {data['workers']} workers" if data["workers"] > 1 else ""
    lines = [f"{name}{params} on {data['cards']} cards: {data['shuffles']:,} shuffles, tally seed {data['seed']!r}"
             f"{fresh}, tally stream v{data['tally_stream']}",
             f"Counted in {data['seconds']:.2f} s ({rate:,.0f} shuffles/s{workers})."]
    exact = data["exact"]
    if exact["distance"]:
        lines.append(distance_sentence(exact["distance"]))  # the page's lab shows the same sentence
    if not exact["matrix"]:
        lines.append(f"No exact matrix: {exact['reason'].rstrip('.')}.")
    if exact["model"]:
        lines.append(f"Exact model: {exact['model']}.")
    return lines


def _print_verdict(data: dict, header: list[str], as_json: bool) -> None:
    """Print the verdict as JSON, or as the header, the verdict, its figures, the heat map and the fixed points."""
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
        return
    print("\n".join(header + [""] + verdict_lines(data)))


def _verdict_status(data: dict, more: str) -> int:
    """Return the exit status of a verdict; when it is too-few, also say so in one line on stderr (``more``: the fix)."""
    if data["verdict"] == "too-few" and data["shuffles"] < data["minimum_shuffles"]:
        print(f"{PROG}: error: no verdict from {data['shuffles']:,} shuffles of {data['cards']} cards: "
              f"{data['minimum_shuffles']:,} are needed; {more}", file=sys.stderr)
    elif data["verdict"] == "too-few":  # enough for the position test, yet no verdict: say what the lab says
        print(f"{PROG}: error: no verdict: {data['sentence']}", file=sys.stderr)
    return VERDICT_STATUS[data["verdict"]]


def add_audit_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``audit``: the file of orders (or -), the deck size if it is not the first order's, output."""
    parser.add_argument("orders", metavar="ORDERS",
                        help="a text file of orders, one a line, top card first, cards 0..n-1 (or card codes of a "
                             "standard pack: AS 10H A♠) separated by spaces or commas; - reads standard input")
    parser.add_argument("--cards", type=int, default=None, metavar="N",
                        help=f"deck size, {tally.MIN_CARDS}-{tally.MAX_CARDS} (default: the first order's length)")
    parser.add_argument("--numbered-from", type=int, choices=(0, 1), default=0, metavar="{0,1}",
                        help="the number of the first card: 0 (default) or 1, for engines that count cards 1..n")
    parser.add_argument("--json", action="store_true", help="print JSON: the counts, the verdict, its figures")


def run_audit(args: argparse.Namespace) -> int:
    """Count orders from any engine as the lab counts its tally, and print its verdict; exit 0, 1 or 2 by it."""
    started = clock.now()
    audit = audit_file(args.orders, args.cards, sys.stdin.buffer if args.orders == "-" else None, args.numbered_from)
    seconds = clock.now() - started
    if audit.numbered_from_one and not audit.orders:  # every line of a file numbered 1..n is bad when read from 0
        line, size = audit.numbered_from_one
        raise UsageError(f"{args.orders}: the cards look numbered 1 to {size} (line {line}), not 0 to {size - 1}: "
                         "add --numbered-from 1 to read them so")
    for number, problem in audit.bad:
        print(f"{PROG}: {args.orders}: line {number}: {problem}", file=sys.stderr)
    if audit.bad_lines > MAX_REPORTED_BAD_LINES:
        print(f"{PROG}: {args.orders}: and {audit.bad_lines - MAX_REPORTED_BAD_LINES:,} more bad lines",
              file=sys.stderr)
    if not audit.orders:
        raise UsageError(f"{args.orders} holds no order of cards 0 to n-1 (one order a line, top card first)")
    data = {"source": args.orders, "lines": audit.lines, "bad_lines": audit.bad_lines,
            "bad_line_examples": [{"line": number, "problem": problem} for number, problem in audit.bad],
            **verdict_data(audit.counts, audit.fixed_points), "seconds": round(seconds, 3)}
    bad = f", {audit.bad_lines:,} bad lines not counted" if audit.bad_lines else ""
    header = [f"{args.orders}: {data['shuffles']:,} orders of {data['cards']} cards from {audit.lines:,} lines{bad}; "
              f"read in {seconds:.2f} s."]
    repeats = repeats_report(audit.orders, audit.repeats.pairs, audit.n)
    data["repeats"] = {**repeats.as_dict(), "sentence": repeats_sentence(repeats)}
    _print_verdict(data, header, args.json)
    if not args.json:  # not yet part of the verdict: the battery that weighs it with the others is still to come
        print("\n" + data["repeats"]["sentence"])
    status = _verdict_status(data, "give more orders")
    if audit.bad_lines:
        # malformed lines are the engine's or the pipe's fault: a gate must not judge on what is left of them
        print(f"{PROG}: error: {audit.bad_lines:,} bad lines in {args.orders} (not counted)", file=sys.stderr)
        return USAGE_ERROR
    return status
