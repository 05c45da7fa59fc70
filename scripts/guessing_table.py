"""Print the docs' guessing-game table: 52 cards, k = 1..10 riffles, without and with feedback.

Without feedback the scores are exact (the position matrix). With feedback they are exact
where the sum over states reaches 52 cards (``guessing.state_sum_cards``: after one riffle),
and simulated for every k: the exact best guess played on SAMPLES decks from the riffle-gsr
port, seeded by ROW_SEED, one seed a row, kept beside the exact value where there is one.
tests/unit/exact/test_guessing.py pins every exact figure, and recomputes the simulated rows
1 and 10 from their seeds (a slow test; all ten take a minute).

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
    simulation = guessing.FeedbackSimulation(CARDS, k, guessing.FastRng(ROW_SEED.format(k=k)))
    simulation.add(SAMPLES)
    return simulation.estimate()


def exact_feedback(k: int):
    """Return the exact best score with feedback after k riffles, or None where it is not computed at 52 cards."""
    return guessing.feedback_expected(CARDS, k) if CARDS <= guessing.state_sum_cards(k) else None


def rows():
    """Yield (k, exact score without feedback, exact with feedback or None, (mean, standard error) simulated)."""
    for k in RIFFLES:
        yield k, guessing.no_feedback_expected(CARDS, k), exact_feedback(k), simulated_row(k)


def main() -> None:
    print("| riffles | no feedback (exact) | full feedback (exact) | full feedback (simulated, ± 1 s.e.) |")
    print("|---|---|---|---|")
    for k, none, exact, (mean, error) in rows():
        shown = "—" if exact is None else f"{float(exact):.4f}"
        print(f"| {k} | {float(none):.4f} | {shown} | {mean:.2f} ± {error:.2f} |")
    print(f"| random deck | 1 | {float(guessing.harmonic(CARDS)):.4f} (H_52) | |")


if __name__ == "__main__":
    main()
