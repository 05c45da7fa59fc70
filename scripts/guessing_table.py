"""Print the docs' guessing-game table: 52 cards, k = 1..10 riffles, without and with feedback.

Without feedback the scores are exact (the position matrix); with feedback, on 52 cards, they
are simulated: the exact best guess played on SAMPLES decks from the riffle-gsr port, seeded
by ROW_SEED, one seed a row. tests/unit/exact/test_guessing.py pins every exact row, and recomputes the
simulated rows 1 and 10 from their seeds (a slow test; all ten take a minute).

    python scripts/guessing_table.py      # about a minute here
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))

from shufflelab.exact import guessing  # noqa: E402

CARDS = 52
RIFFLES = range(1, 11)
SAMPLES = 1000
ROW_SEED = "readme guessing {k}"


def simulated_row(k: int) -> tuple:
    """Return (mean, standard error) of the best score with feedback after k riffles: SAMPLES decks, row k's seed."""
    simulated = guessing.guess_report(CARDS, k, "full", SAMPLES, ROW_SEED.format(k=k))
    return simulated["expected"], simulated["standard_error"]


def rows():
    """Yield (k, exact score without feedback, (mean, standard error) with feedback) for the table."""
    for k in RIFFLES:
        yield k, guessing.no_feedback_expected(CARDS, k), simulated_row(k)


def main() -> None:
    print("| riffles | no feedback (exact) | full feedback (simulated, ± 1 s.e.) |")
    print("|---|---|---|")
    for k, none, (mean, error) in rows():
        print(f"| {k} | {float(none):.4f} | {mean:.2f} ± {error:.2f} |")
    print(f"| random deck | 1 | {float(guessing.harmonic(CARDS)):.4f} (H_52, exact) |")


if __name__ == "__main__":
    main()
