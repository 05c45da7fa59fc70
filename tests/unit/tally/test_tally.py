"""The tally: consistent counts for every catalog entry, reproducible seeds, exact agreement, refusals."""

import pytest
from scipy.stats import chi2

from shufflelab import catalog
from shufflelab.catalog import ParamError, UnknownAlgorithm
from shufflelab.errors import ShuffleLabError
from shufflelab.tally import FastRng, Tally

from .helpers import KERNEL_IDS, exact_matrix, naive_counts, path_sizes, port_bounds

LIGHT_PARAMS = {"cut-insert": {"repetitions": 20}, "riffle-gsr": {"passes": 3}}


def assert_consistent(snapshot):
    n, trials, counts = snapshot["n"], snapshot["trials"], snapshot["counts"]
    assert len(counts) == n and all(len(row) == n for row in counts)
    assert all(sum(row) == trials for row in counts), "each card is somewhere in every deck"
    assert all(sum(column) == trials for column in zip(*counts)), "each position holds a card"
    fixed = snapshot["fixed_points"]
    assert len(fixed) == n + 1 and sum(fixed) == trials
    assert sum(k * f for k, f in enumerate(fixed)) == sum(counts[c][c] for c in range(n))


@pytest.mark.parametrize("algorithm", catalog.entries(), ids=lambda a: a.id)
def test_every_catalog_algorithm_tallies_consistently(algorithm):
    t = Tally(algorithm.id, 6, LIGHT_PARAMS.get(algorithm.id), seed=3)
    t.run(150)
    t.run(90)
    snapshot = t.snapshot()
    assert snapshot["trials"] == 240
    assert snapshot["algo"] == algorithm.id and snapshot["n"] == 6
    assert snapshot["params"] == algorithm.resolve_params(LIGHT_PARAMS.get(algorithm.id))
    assert_consistent(snapshot)


def test_snapshot_is_plain_data_and_a_copy():
    t = Tally("fisher-yates", 4, seed="plain")
    t.run(10)
    snapshot = t.snapshot()
    assert type(snapshot["counts"]) is list and all(type(row) is list for row in snapshot["counts"])
    assert all(type(c) is int for row in snapshot["counts"] for c in row)
    snapshot["counts"][0][0] += 1000
    assert t.snapshot()["counts"][0][0] != snapshot["counts"][0][0]


@pytest.mark.parametrize("algorithm_id", ["fisher-yates", "c-rand", "random-key"])
def test_seeded_tallies_reproduce_whatever_the_batch_sizes(algorithm_id):
    whole = Tally(algorithm_id, 8, seed="same")
    whole.run(3000)
    pieces = Tally(algorithm_id, 8, seed="same")
    for size in (1, 999, 0, 2000):
        pieces.run(size)
    assert pieces.snapshot() == whole.snapshot()
    other = Tally(algorithm_id, 8, seed="other")
    other.run(3000)
    assert other.snapshot()["counts"] != whole.snapshot()["counts"]


def test_a_kernel_tally_crosses_block_boundaries_like_one_long_stream():
    whole = Tally("naive-pairs", 5, seed=9)
    whole.run(whole.lanes + 7)
    pieces = Tally("naive-pairs", 5, seed=9)
    pieces.run(pieces.lanes - 3)  # meanwhile the next block is made step by step
    pieces.run(10)  # 3 from the first block, 7 from the next
    assert pieces.snapshot() == whole.snapshot()
    assert_consistent(whole.snapshot())


def test_reset_zeroes_and_restarts_a_seeded_stream():
    t = Tally("swap-any", 6, seed=42)
    t.run(500)
    first = t.snapshot()
    t.reset()
    assert t.snapshot()["trials"] == 0
    assert t.snapshot()["counts"] == [[0] * 6 for _ in range(6)]
    assert t.snapshot()["fixed_points"] == [0] * 7
    t.run(500)
    assert t.snapshot() == first


def test_none_leaves_every_card_fixed_and_off_by_one_none():
    unshuffled = Tally("none", 10)
    unshuffled.run(77)
    assert unshuffled.fixed_points == [0] * 10 + [77]
    assert unshuffled.counts == [[77 if c == p else 0 for p in range(10)] for c in range(10)]
    cyclic = Tally("fisher-yates-off-by-one", 10, seed=1)
    cyclic.run(5000)
    assert cyclic.fixed_points == [5000] + [0] * 10
    assert all(cyclic.counts[c][c] == 0 for c in range(10))


def test_fixed_points_of_fisher_yates_follow_the_derangement_law():
    # P(k fixed points) -> e^-1 / k! for a uniform order; 10 cards are close enough here
    t = Tally("fisher-yates", 10, seed=7)
    t.run(60000)
    assert abs(t.fixed_points[0] / 60000 - 0.3679) < 0.01
    assert abs(t.fixed_points[1] / 60000 - 0.3679) < 0.01
    assert t.fixed_points[9] == 0, "nine fixed cards force the tenth"


# the kernels whose ports draw, each on the largest deck (up to 5 cards) whose paths can all be
# replayed for its exact matrix: naive-pairs on 4 cards has 4^8 = 65,536 of them
CHI_SQUARE_CASES = [(algorithm_id, sizes[-1]) for algorithm_id in sorted(KERNEL_IDS)
                    if port_bounds(algorithm_id, 2) and (sizes := path_sizes(algorithm_id, max_paths=70_000))]


def test_every_drawing_kernel_but_c_rand_is_tallied_against_its_exact_matrix():
    # c-rand's one draw is a 32-bit srand seed, too many paths to replay (its port is checked
    # against the ideal-rand matrix in tests/unit/exact); none draws nothing (checked above)
    assert {algorithm_id for algorithm_id, _ in CHI_SQUARE_CASES} == set(KERNEL_IDS) - {"c-rand", "none"}
    assert ("naive-pairs", 4) in CHI_SQUARE_CASES and ("swap-any", 5) in CHI_SQUARE_CASES


@pytest.mark.parametrize("algorithm_id, n", CHI_SQUARE_CASES)
def test_kernel_tally_matches_the_exact_matrix_within_chi_square(algorithm_id, n):
    expected = exact_matrix(algorithm_id, n, port_bounds(algorithm_id, n))
    t = Tally(algorithm_id, n, seed=2024)
    trials = 40000
    t.run(trials)
    statistic, cells = 0.0, 0
    for card in range(n):
        for position in range(n):
            e = expected[card][position] * trials
            if e == 0:
                assert t.counts[card][position] == 0, "an impossible placement happened"
            else:
                statistic += (t.counts[card][position] - e) ** 2 / e
                cells += 1
    # n x n cells with fixed row and column sums carry (n - 1)^2 degrees of freedom, less
    # one for each impossible cell (off-by-one's diagonal)
    freedom = (n - 1) ** 2 - (n * n - cells)
    assert chi2.sf(statistic, freedom) > 1e-4, statistic


def test_port_path_tally_matches_the_port_order_by_order():
    n = 5
    t = Tally("random-key", n, seed=11)
    t.run(400)
    rng = FastRng(11)
    port = catalog.get("random-key").port
    deck_list = [port(list(range(n)), rng) for _ in range(400)]
    assert (t.counts, t.fixed_points) == naive_counts(deck_list, n)


def test_the_tally_uses_the_deck_makers():
    t = Tally("riffle-gsr", 6, {"passes": 3}, seed=8)
    t.run(500)
    made = catalog.get("riffle-gsr").resolve("deck_maker")(6, {"passes": 3}, FastRng(8), 500)
    assert (t.counts, t.fixed_points) == naive_counts([list(made[s : s + 6]) for s in range(0, len(made), 6)], 6)


# --- refusals ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 256, 1000, 5.0, True])
def test_unsupported_deck_sizes_are_refused_by_name(n):
    with pytest.raises(ShuffleLabError, match="2 to 255 cards"):
        Tally("fisher-yates", n)


def test_unknown_algorithms_and_parameters_are_refused():
    with pytest.raises(UnknownAlgorithm):
        Tally("bogo", 5)
    with pytest.raises(ParamError, match="passes"):
        Tally("riffle-gsr", 5, {"passes": 0})
    with pytest.raises(ParamError, match="takes no parameter"):
        Tally("fisher-yates", 5, {"passes": 3})


@pytest.mark.parametrize("size", [-1, 2.5, None])
def test_bad_batch_sizes_are_refused(size):
    with pytest.raises(ShuffleLabError, match="batch_size"):
        Tally("fisher-yates", 5).run(size)
