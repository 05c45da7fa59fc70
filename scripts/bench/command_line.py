"""The command line as a user runs it: `tally` of a million shuffles with 1 and 2 workers, and `audit` of a file of a
million orders of 52 cards (made here), Python's start included.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import ROOT
from bench.measure import DECK, in_turns, print_table, target_row
from shufflelab import catalog
from shufflelab.tally.bitslice import FastLaneSource, decks_from_columns
from shufflelab.tally.fast_rng import FastRng
from shufflelab.tally.kernels import make_block

CLI_SHUFFLES = 1_000_000
AUDIT_ORDERS = 1_000_000
AUDIT_TARGET_SECONDS = 10.0


def cli_seconds(*argv: str) -> tuple[float, dict, float]:
    """Run ``python -m shufflelab`` as a user would; return (wall seconds with its start, its JSON, CPU seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "shufflelab", *argv, "--json"], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "py")}, check=False)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"shufflelab {' '.join(argv)} exited {done.returncode}: {done.stderr.strip()}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return seconds, json.loads(done.stdout), cpu


def write_orders(path: Path, count: int) -> None:
    """Write ``count`` Fisher-Yates orders of 52 cards, one a line, as an engine would (bit-sliced blocks, then text)."""
    kernel = catalog.get("fisher-yates").resolve("kernel")
    lanes = 65_536
    names = [str(card).encode() for card in range(DECK)]
    source = FastLaneSource(FastRng("orders"))
    with path.open("wb") as out:
        for start in range(0, count, lanes):
            width = min(lanes, count - start)
            decks = decks_from_columns(make_block(kernel, DECK, lanes, source), lanes)[: width * DECK]
            out.write(b"".join(b" ".join(map(names.__getitem__, decks[i : i + DECK])) + b"\n"
                               for i in range(0, len(decks), DECK)))


def cli_section(repeats: int, quick: bool) -> dict:
    """Time `tally` with 1 and 2 workers, in turns, and `audit` of a million orders; print them."""
    runs = 1 if quick else max(1, min(repeats, 3))  # each run is seconds: fewer repeats than the other sections
    tally_argv = ["tally", "--algo", "fisher-yates", "--cards", str(DECK), "--shuffles", str(CLI_SHUFFLES),
                  "--seed", "bench", "--no-exact"]
    results = in_turns({1: "1", 2: "2"}, runs, lambda _, workers: cli_seconds(*tally_argv, "--workers", workers))
    same = results[1][0][1]["counts"] == results[2][0][1]["counts"]
    wall = {k: statistics.median(r[0] for r in v) for k, v in results.items()}
    cpu = {k: statistics.median(r[2] for r in v) for k, v in results.items()}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "orders.txt"
        write_orders(path, AUDIT_ORDERS)
        size = path.stat().st_size
        audits = [cli_seconds("audit", str(path)) for _ in range(runs)]
    audit_seconds = statistics.median(a[0] for a in audits)
    load = os.getloadavg()[0]
    print_table(f"Command line, {DECK} cards, fisher-yates (medians of {runs}, wall clock with Python's start; "
                f"load average {load:.1f} on {os.cpu_count()} cores)",
                ["what", "seconds", "shuffles/s", "CPU seconds"],
                [[f"tally --shuffles {CLI_SHUFFLES:,} --workers {k}", f"{wall[k]:.2f}", f"{CLI_SHUFFLES / wall[k]:,.0f}",
                  f"{cpu[k]:.2f}"] for k in (1, 2)]
                + [[f"audit, {AUDIT_ORDERS:,} orders ({size / 1e6:.0f} MB)", f"{audit_seconds:.2f}",
                    f"{AUDIT_ORDERS / audit_seconds:,.0f}", f"{statistics.median(a[2] for a in audits):.2f}"]])
    print(f"--workers 2 / --workers 1: {wall[1] / wall[2]:.2f}x as fast; same counts: {same}")
    return {"tally_seconds": wall, "tally_cpu_seconds": cpu, "workers_same_counts": same,
            "audit_seconds": audit_seconds, "audit_bytes": size, "load_average": load}


def target_rows(cli: dict) -> list[dict]:
    """Return the command line's rows of the targets table: the two tallies' counts, and the audit's time."""
    wall, cpu, same, audit = cli["tally_seconds"], cli["tally_cpu_seconds"], cli["workers_same_counts"], cli["audit_seconds"]
    return [
        target_row("cli_workers", f"`python -m shufflelab tally`, {CLI_SHUFFLES:,} `fisher-yates` shuffles of {DECK} "
                   f"cards, `--workers 1` and `--workers 2` in turns (load average {cli['load_average']:.0f} on "
                   f"{os.cpu_count()} cores)", f"{wall[1]:.2f} s and {wall[2]:.2f} s ({wall[1] / wall[2]:.2f}×), "
                   f"{cpu[1]:.2f} and {cpu[2]:.2f} CPU seconds; {'the same' if same else 'different'} counts",
                   "the same counts", same),
        target_row("cli_audit", f"`python -m shufflelab audit`, {AUDIT_ORDERS:,} orders of {DECK} cards "
                   f"({cli['audit_bytes'] / 1e6:.0f} MB), its start included", f"{audit:.1f} s",
                   f"under {AUDIT_TARGET_SECONDS:g} s", audit < AUDIT_TARGET_SECONDS),
    ]
