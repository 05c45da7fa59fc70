"""Print the README's guessing-game table: 52 cards, k = 1..10 riffles, without and with feedback.

Without feedback the scores are exact (the position matrix); with feedback, on 52 cards, they
are simulated: the exact best guess played on SAMPLES decks from the riffle-gsr port, seeded
by ROW_SEED. tests/unit/exact/test_guessing.py pins every row (the simulated ones in a slow test).

    python scripts/guessing_table.py      # about 3 minutes here
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))

from shufflelab.exact import guessing  # noqa: E402

CARDS = 52
RIFFLES = range(1, 11)
SAMPLES = 1000
ROW_SEED = "readme guessing {k}"


def rows():
    """Yield (k, exact score without feedback, (mean, standard error) with feedback) for the table."""
    for k in RIFFLES:
        simulated = guessing.guess_report(CARDS, k, "full", SAMPLES, ROW_SEED.format(k=k))
        yield k, guessing.no_feedback_expected(CARDS, k), (simulated["expected"], simulated["standard_error"])


def main() -> None:
    print("| riffles | no feedback (exact) | full feedback (simulated, ± 1 s.e.) |")
    print("|---|---|---|")
    for k, none, (mean, error) in rows():
        print(f"| {k} | {float(none):.4f} | {mean:.2f} ± {error:.2f} |")
    print(f"| random deck | 1 | {float(guessing.harmonic(CARDS)):.4f} (H_52, exact) |")


if __name__ == "__main__":
    main()
