"""The target / win DP (solver.target): exact agreement with a pure-Python twin,
invariants of W, and the objective's probabilities against the exact EV distribution."""

from __future__ import annotations

import numpy as np
import pytest

from solver.errors import YahtzeeError
from solver.game.rules import RULE_NAMES, get_rules
from solver.stats import highest_score, optimal_stats
from solver.target import Utility, solve_vectors, target_cap, turn_at
from tests.oracles.target_reference import TwinDP, least_total, stored_vector, win_share_utility

# (rules, open boxes by name, start upper subtotal, start flag): one to three open boxes
CASES = [
    ("official", ("aces", "yahtzee", "chance"), 0, 0),
    ("official", ("fours", "four_of_a_kind", "full_house"), 50, 1),
    ("official", ("sixes", "small_straight"), 45, 0),
    ("free-joker", ("twos", "large_straight", "yahtzee"), 58, 0),
    ("no-bonus", ("threes", "yahtzee", "three_of_a_kind"), 40, 0),
    ("two-rolls", ("fives", "chance"), 55, 1),
    ("yatzy", ("ones", "two_pairs", "yatzy"), 60, 0),
]


def _start(rules, names, upper, flag):
    mask = rules.full_mask
    for name in names:
        mask &= ~(1 << rules.box_index(name))
    if not mask >> rules.yahtzee_box & 1:
        flag = 0
    return mask, upper, flag


def _solved_states(vectors):
    for level in vectors.levels.values():
        for i in range(level.m.shape[0]):
            yield level, i


@pytest.mark.parametrize("rules_name,names,upper,flag", CASES)
def test_vectors_match_the_twin(table_of, rules_name, names, upper, flag):
    table = table_of(rules_name)
    rules = table.rules
    target = 160
    utility = Utility.target(target)
    start = _start(rules, names, upper, flag)
    n_open = len(names)
    vectors = solve_vectors(table, utility, start=start,
                            keep=tuple(range(rules.n_boxes - n_open, rules.n_boxes + 1)))
    twin = TwinDP(rules, utility.values, utility.above, target + 1)
    checked = 0
    for n, level in vectors.levels.items():
        if n == rules.n_boxes:
            continue
        for i in range(level.m.shape[0]):
            m, u, y = int(level.m[i]), int(level.u[i]), int(level.y[i])
            lo, vec = stored_vector(level, i)
            want = twin.value(m, u, y)
            np.testing.assert_allclose(vec, want[lo:lo + vec.shape[0]], rtol=0, atol=1e-12)
            checked += vec.shape[0]
    # the start state itself, at many points-so-far
    want = twin.value(*start)
    for a in range(least_total(rules, *start), target + 1, 7):
        assert abs(turn_at(vectors, *start, a).value - want[a]) < 1e-12
    assert checked > 50


@pytest.mark.parametrize("rules_name,names,upper,flag", CASES[:3] + CASES[-1:])
def test_win_share_matches_the_twin(table_of, rules_name, names, upper, flag):
    """The chance to win, a tie of k players at the top counting 1/k, against one and two
    others with given final-score distributions: the utility as the twin's definition
    (every joint outcome) and the maximum of its expectation as the twin's."""
    table = table_of(rules_name)
    rules = table.rules
    start = _start(table.rules, names, upper, flag)
    opponent = np.zeros(131)
    opponent[[60, 95, 100, 130]] = [0.25, 0.25, 0.4, 0.1]
    second = np.zeros(101)
    second[[60, 90, 100]] = [0.5, 0.2, 0.3]
    for others in ([opponent], [opponent, second]):
        utility = Utility.win_share(others)
        share, above = win_share_utility(others)
        assert utility.above == above and utility.zero_below == 60
        assert np.abs(utility.values - share).max() < 1e-15
        vectors = solve_vectors(table, utility, start=start)
        twin = TwinDP(rules, share, above, 200)
        want = twin.value(*start)
        for a in range(least_total(rules, *start), 131, 5):
            assert abs(turn_at(vectors, *start, a).value - want[a]) < 1e-12


def test_w_invariants(official_table):
    """W(s, t) = V_s(X - a) is in [0, 1], 1 for t <= 0, nonincreasing in t."""
    rules = official_table.rules
    start = _start(rules, ("aces", "threes", "full_house", "yahtzee", "chance"), 12, 0)
    vectors = solve_vectors(official_table, Utility.target(200), start=start,
                            keep=tuple(range(8, 13)))
    for level in vectors.levels.values():
        for i in range(level.m.shape[0]):
            lo, vec = stored_vector(level, i)
            if vec.size:
                assert vec.min() >= -1e-15 and vec.max() <= 1 + 1e-12
                assert np.all(np.diff(vec) >= -1e-13)  # V up in a == W down in t
    values = [turn_at(vectors, *start, a).value for a in range(0, 201, 10)]
    assert np.all(np.diff(values) >= -1e-13)
    assert turn_at(vectors, *start, 200).value == pytest.approx(1.0, abs=1e-12)


def test_ranges_reach_the_highest_totals_and_no_further(official_table):
    """From a new game, a state's range of ``a`` ends at the most its boxes can hold: with
    50 in the Yahtzee box, a Yahtzee bonus on every later turn but not on the turn that
    scored the 50; with the Yahtzee box scratched, 0 there (both totals can be played)."""
    from solver.levels import masks_by_level
    from solver.target import _Plan

    rules = official_table.rules
    plan = _Plan(official_table, (0, 0, 0), 0, Utility.target(2000))
    m, u, y, _, hi = plan.level_states(masks_by_level(rules.n_boxes)[3])
    mask = sum(1 << rules.box_index(name) for name in ("sixes", "yahtzee", "chance"))
    # 50, then 66666 in sixes and in chance: 30 + 100 each
    assert hi[(m == mask) & (u == 30) & (y == 1)].tolist() == [50 + 2 * (30 + 100)]
    assert hi[(m == mask) & (u == 30) & (y == 0)].tolist() == [30 + 30]


@pytest.mark.parametrize("target", [60, 120, 150, 180])
def test_target_strategy_beats_the_ev_strategy(official_table, target):
    """For every points-needed t, the best strategy's P(to come >= t) is at least the EV
    strategy's, from its exact distribution."""
    rules = official_table.rules
    start = _start(rules, ("twos", "fours", "four_of_a_kind", "large_straight", "yahtzee",
                           "chance"), 20, 0)
    dist = optimal_stats(official_table, start=start).distribution
    vectors = solve_vectors(official_table, Utility.target(target), start=start)
    ev_tail = np.cumsum(dist[::-1])[::-1]
    least = least_total(rules, *start)  # a card in this state has at least this total
    for a in range(least, target + 1, 3):
        t = target - a
        p_ev = float(ev_tail[t]) if t < ev_tail.shape[0] else 0.0
        assert turn_at(vectors, *start, a).value >= p_ev - 1e-12


@pytest.mark.parametrize("rules_name", ["official", "free-joker", "yatzy"])
def test_flat_reads_are_the_plans_options(table_of, rules_name):
    """The final rolls' flat reads (``kernels.target.plan_reads``, built once per state)
    list, roll by roll, the (row, first column) of every option of the state's plan
    (``option_read``, the per-option path the kernels took before), in box order."""
    from solver.game.dice import N_ROLLS
    from solver.kernels import target as tk
    from solver.kernels.turn import n_options

    rules = table_of(rules_name).rules
    scores = rules.arrays.box_scores
    t = tk.new_scratch(rules.n_boxes, 1, Utility.target(100).spec(rules))
    rng = np.random.default_rng(19)
    masks = [0, 1 << rules.yahtzee_box, rules.full_mask & ~1,
             *(int(m) for m in rng.integers(0, rules.full_mask, 40))]
    compared = 0
    for m in masks:
        for y in range(rules.n_flags):
            tk.plan_reads(m, y, rules.arrays, t)
            rows, cols = t.reads
            start = rows[-N_ROLLS - 1:]
            for r in range(N_ROLLS):
                want = [tuple(int(v) for v in tk.option_read(t.plan, r, i, scores, y))
                        for i in range(n_options(t.plan, r))]
                got = [(int(k), int(c)) for k, c in zip(rows[start[r]:start[r + 1]],
                                                        cols[start[r]:start[r + 1]],
                                                        strict=True)]
                assert got == want, (m, y, r)
                compared += len(want)
    assert compared > 10_000


def test_the_cap_is_one_above_the_highest_score_of_each_rule_set() -> None:
    for name in RULE_NAMES:
        rules = get_rules(name)
        assert target_cap(rules) == highest_score(rules) + 1
        assert Utility.target(10**30, rules).top == highest_score(rules) + 1
        assert Utility.target(highest_score(rules), rules).top == highest_score(rules)
    assert target_cap() == max(highest_score(get_rules(n)) for n in RULE_NAMES) + 1 == 1576
    assert Utility.target(10**40).top == 1576 and Utility.target(-5).top == 0
    for bad in (True, 1.5, "300"):
        with pytest.raises(YahtzeeError, match="whole number"):
            Utility.target(bad)  # type: ignore[arg-type]


def test_the_values_do_not_depend_on_the_blocks_a_piece_is_cut_into(official_table,
                                                                    monkeypatch):
    """A solve cuts each even piece of a level into a few blocks per thread (each a call
    into numba); one block, 256 as for a whole level, or the few give the same values bit
    for bit, and so does the distribution pass of the statistics."""
    rules = official_table.rules
    start = _start(rules, ("aces", "threes", "full_house", "yahtzee", "chance"), 12, 0)
    solved, stats = [], []
    for blocks in (1, 256, None):
        with monkeypatch.context() as patch:
            if blocks is not None:
                for where in ("solver.target.piece_blocks", "solver.kernels.threads.piece_blocks"):
                    patch.setattr(where, lambda b=blocks: b)
            vectors = solve_vectors(official_table, Utility.target(200), start=start,
                                    keep=tuple(range(6, 13)))
            solved.append({n: level.vals.copy() for n, level in vectors.levels.items()})
            stats.append(optimal_stats(official_table, start=start).distribution)
    for other in solved[1:]:
        assert other.keys() == solved[0].keys()
        assert all(np.array_equal(other[n], solved[0][n]) for n in other)
    assert all(np.array_equal(d, stats[0]) for d in stats[1:])
