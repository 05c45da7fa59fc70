"""The position-bias tally: bit-sliced kernels are the registry's algorithms, counted exactly.

How the kernels are proved to be the registry's algorithms:
1. path by path: every sequence of random choices, one per lane, scripted into the kernel's
   planes, gives in each lane exactly the deck the registry algorithm gives for the same
   choices (exhaustive for small n; c-rand for many srand seeds and deck sizes);
2. the partner draws are exactly uniform: scripted planes that hit the rejection zone show
   that values >= m never survive and accepted values are kept as drawn;
3. at fixed seeds, whole tallies agree with the exact card x position matrix within a
   chi-square bound (deterministic, so it cannot flake).
"""

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from scipy.stats import chi2

from shufflelab import algorithms, exact, tally
from shufflelab.rng import FastRng
from shufflelab.tally import (
    DECK_MAKERS,
    riffle_deck_from_labels,
    KERNELS,
    FastLaneSource,
    SpareBits,
    Tally,
    count_decks,
    count_lanes,
    decks_from_columns,
    fresh_columns,
    lane_remainders,
    make_block,
    planes_from_lane_bytes,
    repeat_in_lanes,
    uniform_planes,
)

from .scripted import ScriptedRng

LIGHT_PARAMS = {"cut-insert": {"repetitions": 20}, "riffle-gsr": {"passes": 3}}


# --- helpers --------------------------------------------------------------------------


def planes_of(values, width):
    """Return ``width`` planes holding ``values[l]`` in lane ``l``."""
    return [sum((v >> q & 1) << lane for lane, v in enumerate(values)) for q in range(width)]


class ScriptedLanes:
    """A lane source that answers ``bits`` and ``below`` from scripts, checking sizes."""

    def __init__(self, planes, belows=()):
        self.planes = list(planes)
        self.belows = list(belows)
        self.used_planes = 0
        self.used_belows = 0

    def bits(self, count):
        plane = self.planes[self.used_planes]
        assert 0 <= plane < 1 << count
        self.used_planes += 1
        return plane

    def below(self, m):
        answer = self.belows[self.used_belows]
        assert 0 <= answer < m
        self.used_belows += 1
        return answer

    @property
    def exhausted(self):
        return self.used_planes == len(self.planes) and self.used_belows == len(self.belows)


def script_choices(bounds, paths):
    """Return the planes a kernel draws when lane ``l`` must choose ``paths[l][t]`` at step t."""
    planes = []
    for t, m in enumerate(bounds):
        planes += planes_of([path[t] for path in paths], (m - 1).bit_length())
    return planes


def decks(columns, lanes):
    """Return the block as a list of decks (lists of card ids)."""
    data = decks_from_columns(columns, lanes)
    n = len(columns)
    return [list(data[k : k + n]) for k in range(0, len(data), n)]


def exact_matrix(algorithm_id, n, bounds):
    """Return P[card][position] for the registry algorithm, over every equally likely path."""
    counts = [[0] * n for _ in range(n)]
    paths = list(itertools.product(*(range(m) for m in bounds)))
    for path in paths:
        order = algorithms.get(algorithm_id).shuffled(range(n), ScriptedRng(path))
        for position, card in enumerate(order):
            counts[card][position] += 1
    return [[c / len(paths) for c in row] for row in counts]


# the registry's draws, in its order, for each swap kernel (c-rand and none draw no bounds)
BOUNDS = {
    "fisher-yates": lambda n: list(range(n, 1, -1)),
    "fisher-yates-off-by-one": lambda n: list(range(n - 1, 0, -1)),
    "swap-any": lambda n: [n] * n,
    "naive-pairs": lambda n: [n] * (2 * n),
}


# --- 1. the kernels are the registry's algorithms, path by path ----------------------


@pytest.mark.parametrize(
    "algorithm_id, n",
    [
        ("fisher-yates", 2), ("fisher-yates", 5),
        ("fisher-yates-off-by-one", 2), ("fisher-yates-off-by-one", 5),
        ("swap-any", 2), ("swap-any", 4),
        ("naive-pairs", 2), ("naive-pairs", 3),
    ],
)
def test_kernel_gives_the_registry_deck_for_every_path(algorithm_id, n):
    bounds = BOUNDS[algorithm_id](n)
    paths = list(itertools.product(*(range(m) for m in bounds)))
    source = ScriptedLanes(script_choices(bounds, paths))
    block = decks(make_block(KERNELS[algorithm_id], n, len(paths), source), len(paths))
    assert source.exhausted, "the kernel must draw exactly the scripted planes"
    for path, deck in zip(paths, block):
        assert deck == algorithms.get(algorithm_id).shuffled(range(n), ScriptedRng(path)), path


@pytest.mark.parametrize("n", [2, 3, 7, 52, 104, 255])
def test_c_rand_kernel_gives_the_registry_deck_for_each_srand_seed(n):
    picker = random.Random(n)
    seeds = [0, 1, 2**31 - 1, 2**31, 2**32 - 1] + [picker.getrandbits(32) for _ in range(59)]
    packed = sum(seed << (32 * lane) for lane, seed in enumerate(seeds))
    source = ScriptedLanes([packed])
    block = decks(make_block(KERNELS["c-rand"], n, len(seeds), source), len(seeds))
    assert source.exhausted
    for seed, deck in zip(seeds, block):
        assert deck == algorithms.c_rand(range(n), ScriptedRng([seed])), seed


@pytest.mark.parametrize("n", [2, 3, 7, 52, 53, 104, 128, 200, 255])
def test_lane_remainders_are_exact_for_every_rand_value(n):
    lanes = 1 << 15  # every value rand() can return
    low15 = repeat_in_lanes(0x7FFF, lanes)
    values = int.from_bytes(b"".join(r.to_bytes(8, "little") for r in range(lanes)), "little")
    remainders = lane_remainders(values, n, low15).to_bytes(8 * lanes, "little")
    assert remainders[0::8] == bytes(r % n for r in range(lanes))
    assert not any(remainders[k::8].strip(b"\0") for k in range(1, 8)), "a lane overflowed"


def test_none_kernel_is_the_unshuffled_deck_and_draws_nothing():
    source = ScriptedLanes([])
    assert decks(make_block(KERNELS["none"], 6, 40, source), 40) == [list(range(6))] * 40
    assert source.exhausted


def test_every_kernel_is_a_registry_algorithm_without_parameters():
    for algorithm_id in KERNELS:
        assert algorithms.get(algorithm_id).params == ()


@pytest.mark.parametrize("algorithm_id", sorted(KERNELS))
@pytest.mark.parametrize("n", [2, 3, 17, 52, 104])
def test_every_kernel_deck_is_a_permutation(algorithm_id, n):
    lanes = 96
    for deck in decks(make_block(KERNELS[algorithm_id], n, lanes, FastLaneSource(FastRng(n))), lanes):
        assert sorted(deck) == list(range(n))


def test_fisher_yates_kernel_deck_is_a_permutation_at_the_largest_size():
    n = tally.MAX_CARDS
    for deck in decks(make_block(KERNELS["fisher-yates"], n, 64, FastLaneSource(FastRng(1))), 64):
        assert sorted(deck) == list(range(n))


def test_lane_bits_are_the_generators_own_bits_so_a_future_fastrng_bits_matches():
    # FastLaneSource reads FastRng.words; a FastRng.bits built on getrandbits (proposed)
    # must give the same integers for the kernels' sizes, or seeded tallies would change
    for count in (32, 4096, 65536):
        assert FastLaneSource(FastRng("s")).bits(count) == random.Random("s").getrandbits(count)
    assert 0 <= FastLaneSource(FastRng(1)).bits(40) < 1 << 40


# --- 2. the partner draws are exactly uniform ---------------------------------------


def read_lanes(planes, lanes):
    return [sum((plane >> lane & 1) << q for q, plane in enumerate(planes)) for lane in range(lanes)]


def test_rejected_lanes_take_fresh_values_and_accepted_ones_keep_theirs():
    # m = 5 from 3 bits: the values 5, 6 and 7 are the rejection zone
    first = planes_of([0, 1, 2, 3, 4, 5, 6, 7], 3)
    second = planes_of([7, 7, 7, 7, 7, 4, 6, 2], 3)  # lane 6 draws 6: rejected again
    third = planes_of([5, 5, 5, 5, 5, 5, 3, 5], 3)
    source = ScriptedLanes(first + second + third)
    planes = uniform_planes(5, 8, source, fix_one_by_one_at=0)
    assert read_lanes(planes, 8) == [0, 1, 2, 3, 4, 4, 3, 2]
    assert source.exhausted


def test_few_rejected_lanes_are_redrawn_one_by_one_lowest_first():
    source = ScriptedLanes(planes_of([0, 1, 2, 3, 4, 5, 6, 7], 3), belows=[4, 0, 1])
    planes = uniform_planes(5, 8, source, fix_one_by_one_at=3)
    assert read_lanes(planes, 8) == [0, 1, 2, 3, 4, 4, 0, 1]
    assert source.exhausted


def test_steps_share_spare_bits_but_never_reuse_a_lane_of_them():
    step_a = planes_of([0, 1, 2, 3, 4, 5, 6, 7], 3)  # m = 5: lanes 5, 6, 7 rejected
    spare_set = planes_of([1, 2, 7, 7, 7, 0, 3, 4], 3)  # drawn for step a's redraws
    step_b = planes_of([6, 7, 0, 1, 2, 3, 4, 5], 3)  # m = 6: lanes 0 and 1 rejected
    source = ScriptedLanes(step_a + spare_set + step_b)
    spare = SpareBits(source, 8)
    a = read_lanes(uniform_planes(5, 8, source, spare, fix_one_by_one_at=0), 8)
    b = read_lanes(uniform_planes(6, 8, source, spare, fix_one_by_one_at=0), 8)
    assert a == [0, 1, 2, 3, 4, 0, 3, 4]
    assert b == [1, 2, 0, 1, 2, 3, 4, 5], "lanes 0 and 1 of the spare set were still unused"
    assert source.exhausted
    # step c rejects every lane: only lanes 2, 3, 4 of the spare set are unused (and hold
    # 7, rejected again); every lane then takes a new set, none reuses a spent lane
    source.planes += planes_of([7] * 8, 3) + planes_of([2] * 8, 3)
    assert read_lanes(uniform_planes(6, 8, source, spare, fix_one_by_one_at=0), 8) == [2] * 8
    assert source.exhausted
    assert spare.sets(3) == [], "both sets have every lane used: dropped"


def test_spare_sets_stay_few():
    source = FastLaneSource(FastRng(8))
    spare = SpareBits(source, 1024)
    for _ in range(40):
        uniform_planes(33, 1024, source, spare)  # rejects almost half: many redraws
        assert len(spare.sets(6)) <= tally.SPARE_SETS_KEPT


def test_power_of_two_bounds_draw_exactly_their_bits_and_never_reject():
    source = ScriptedLanes(planes_of(list(range(8)) * 2, 3))
    assert read_lanes(uniform_planes(8, 16, source), 16) == list(range(8)) * 2
    assert source.exhausted


def test_every_value_of_the_bits_maps_to_itself_or_is_rejected():
    # each accepted lane keeps its exact k-bit value, so every value below m has exactly
    # one word: the draw is exactly uniform; every word >= m is rejected
    for m in range(2, 70):
        width = (m - 1).bit_length()
        words = list(range(1 << width))
        refill = [0] * len(words)  # rejected lanes all become 0 in the second round
        source = ScriptedLanes(planes_of(words, width) + planes_of(refill, width))
        values = read_lanes(uniform_planes(m, len(words), source, fix_one_by_one_at=0), len(words))
        assert values == [w if w < m else 0 for w in words]


def test_partner_draws_are_uniform_at_a_fixed_seed():
    lanes = 1 << 14
    for m in (3, 5, 33, 52):
        values = Counter(read_lanes(uniform_planes(m, lanes, FastLaneSource(FastRng(m))), lanes))
        assert set(values) == set(range(m))
        statistic = sum((values[v] - lanes / m) ** 2 / (lanes / m) for v in range(m))
        assert chi2.sf(statistic, m - 1) > 1e-4


# --- 3. counting ------------------------------------------------------------------------


def naive_counts(deck_list, n):
    counts = [[0] * n for _ in range(n)]
    fixed = [0] * (n + 1)
    for deck in deck_list:
        for position, card in enumerate(deck):
            counts[card][position] += 1
        fixed[sum(card == position for position, card in enumerate(deck))] += 1
    return counts, fixed


@pytest.mark.parametrize("start, width", [(0, 200), (0, 1), (37, 100), (199, 1)])
def test_counting_lanes_matches_counting_each_deck(start, width):
    n, lanes = 9, 200
    columns = make_block(KERNELS["swap-any"], n, lanes, FastLaneSource(FastRng(5)))
    counts, fixed = [[0] * n for _ in range(n)], [0] * (n + 1)
    count_lanes(columns, start, width, counts, fixed)
    assert (counts, fixed) == naive_counts(decks(columns, lanes)[start : start + width], n)


def test_counting_decks_matches_counting_each_deck():
    n = 7
    picker = random.Random(2)
    deck_list = [picker.sample(range(n), n) for _ in range(300)] + [list(range(n))]
    counts, fixed = [[0] * n for _ in range(n)], [0] * (n + 1)
    count_decks(bytes(itertools.chain.from_iterable(deck_list)), n, counts, fixed)
    assert (counts, fixed) == naive_counts(deck_list, n)


def test_lane_bytes_and_planes_round_trip():
    data = bytes(random.Random(4).getrandbits(8) for _ in range(1000))
    planes = planes_from_lane_bytes(data, 1, 8)
    assert decks_from_columns([planes], 1000) == data


def test_fresh_columns_are_the_unshuffled_deck():
    assert decks(fresh_columns(11, 5), 5) == [list(range(11))] * 5


# --- 4. the tally -----------------------------------------------------------------------


def assert_consistent(snapshot):
    n, trials, counts = snapshot["n"], snapshot["trials"], snapshot["counts"]
    assert len(counts) == n and all(len(row) == n for row in counts)
    assert all(sum(row) == trials for row in counts), "each card is somewhere in every deck"
    assert all(sum(column) == trials for column in zip(*counts)), "each position holds a card"
    fixed = snapshot["fixed_points"]
    assert len(fixed) == n + 1 and sum(fixed) == trials
    assert sum(k * f for k, f in enumerate(fixed)) == sum(counts[c][c] for c in range(n))


@pytest.mark.parametrize("algorithm", algorithms.ALGORITHMS, ids=lambda a: a.id)
def test_every_registry_algorithm_tallies_consistently(algorithm):
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


@pytest.mark.parametrize("algorithm_id", sorted(BOUNDS))
def test_kernel_tally_matches_the_exact_matrix_within_chi_square(algorithm_id):
    n = 4 if algorithm_id == "naive-pairs" else 5
    expected = exact_matrix(algorithm_id, n, BOUNDS[algorithm_id](n))
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


def test_registry_path_tally_matches_registry_order_by_order():
    n = 5
    t = Tally("random-key", n, seed=11)
    t.run(400)
    rng = FastRng(11)
    deck_list = [algorithms.random_key(list(range(n)), rng) for _ in range(400)]
    assert (t.counts, t.fixed_points) == naive_counts(deck_list, n)


# --- 5. refusals ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 256, 1000, 5.0, True])
def test_unsupported_deck_sizes_are_refused_by_name(n):
    with pytest.raises(ValueError, match="2 to 255 cards"):
        Tally("fisher-yates", n)


def test_unknown_algorithms_and_parameters_are_refused():
    with pytest.raises(algorithms.UnknownAlgorithm):
        Tally("bogo", 5)
    with pytest.raises(ValueError, match="passes"):
        Tally("riffle-gsr", 5, {"passes": 0})
    with pytest.raises(ValueError, match="takes no parameter"):
        Tally("fisher-yates", 5, {"passes": 3})


@pytest.mark.parametrize("size", [-1, 2.5, None])
def test_bad_batch_sizes_are_refused(size):
    with pytest.raises(ValueError, match="batch_size"):
        Tally("fisher-yates", 5).run(size)


# --- 6. deck makers: faster decks, the registry's distribution ----------------------------


@pytest.mark.parametrize("n, passes", [(2, 1), (3, 1), (3, 2), (4, 1), (4, 2), (5, 1)])
def test_riffle_labels_give_exactly_the_gsr_distribution(n, passes):
    # every labelling of n cards with passes-bit labels is equally likely: enumerate them all
    labellings = list(itertools.product(range(2**passes), repeat=n))
    seen = Counter(tuple(riffle_deck_from_labels(labels)) for labels in labellings)
    made = {deck: Fraction(count, len(labellings)) for deck, count in seen.items()}
    assert made == exact.outcome_distribution("riffle-gsr", n, {"passes": passes})


@pytest.mark.parametrize("algorithm_id, params", [
    ("riffle-gsr", {"passes": 2}),     # labels from bytes
    ("riffle-gsr", {"passes": 9}),     # labels from one word
    ("riffle-gsr", {"passes": 33}),    # labels from two words
    ("random-comparator", {}),
])
def test_deck_makers_match_the_exact_order_distribution(algorithm_id, params):
    n, trials = 4, 24_000
    decks = DECK_MAKERS[algorithm_id](n, params, FastRng(f"maker-{algorithm_id}"), trials)
    seen = Counter(decks[start : start + n] for start in range(0, len(decks), n))
    exact_dist = exact.outcome_distribution(algorithm_id, n, params)
    assert set(seen) <= {bytes(order) for order in exact_dist}, "a deck the algorithm cannot make"
    observed = [seen[bytes(order)] for order in exact_dist]
    expected = [trials * float(p) for p in exact_dist.values()]
    statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected))
    assert chi2.sf(statistic, len(expected) - 1) > 1e-4, statistic


def test_the_tally_uses_the_deck_makers():
    t = Tally("riffle-gsr", 6, {"passes": 3}, seed=8)
    t.run(500)
    made = DECK_MAKERS["riffle-gsr"](6, {"passes": 3}, FastRng(8), 500)
    assert (t.counts, t.fixed_points) == naive_counts([list(made[s : s + 6]) for s in range(0, len(made), 6)], 6)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_measured_riffle_distances_follow_the_exact_ones(n):
    trials = 20_000
    measured = tally.measured_riffle_tv(n, 8, trials, seed=f"tv-{n}")
    exact_tv = [float(d) for d in exact.riffle_tv(n, 8)]
    noise = 0.4 * (math.factorial(n) / trials) ** 0.5 + 0.01
    assert all(abs(m - e) <= noise for m, e in zip(measured, exact_tv)), list(zip(measured, exact_tv))


def test_measured_riffle_distances_refuse_big_decks():
    with pytest.raises(ValueError, match="1 to 5 cards"):
        tally.measured_riffle_tv(6, 3, 100)
