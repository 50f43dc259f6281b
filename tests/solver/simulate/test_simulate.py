"""The seeded simulator: agreement with the exact mean, determinism, strategies, user
callables and their illegal moves."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from solver.errors import IllegalMoveError, YahtzeeError
from solver.game.rules import UPPER_TARGET
from solver.simulate import (
    Decision,
    IllegalStrategyMoveError,
    UnknownStrategyError,
    simulate,
)


@pytest.fixture(scope="module")
def optimal_run(official_table):
    # (the games only: not judged, the same games either way, tests/solver/simulate/test_judge.py)
    return simulate(official_table, "optimal", 20_000, seed=11, judged=False)


def test_optimal_lands_near_the_exact_mean(optimal_run, official_table):
    assert abs(optimal_run.mean - official_table.expected_score) < 4 * optimal_run.stderr
    assert 55 < optimal_run.sd < 65
    assert optimal_run.stderr == pytest.approx(optimal_run.sd / np.sqrt(20_000))
    assert 0.6 < optimal_run.upper_bonus.mean() < 0.75


def test_same_seed_same_games_whatever_the_threads_and_batches(official_table, optimal_run):
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = simulate(official_table, "optimal", 5_000, seed=11, judged=False)
    finally:
        numba.set_num_threads(threads)
    assert np.array_equal(single.scores, optimal_run.scores[:5_000])
    assert np.array_equal(single.entries, optimal_run.entries[:5_000])
    other = simulate(official_table, "optimal", 5_000, seed=12, judged=False)
    assert not np.array_equal(other.scores, single.scores)


def test_totals_add_up(optimal_run, official_table):
    rules = official_table.rules
    entries = optimal_run.entries.astype(np.int64)
    upper = np.where(entries[:, :6].sum(axis=1) >= UPPER_TARGET, rules.upper_bonus, 0)
    bonuses = optimal_run.yahtzee_bonuses.astype(np.int64)
    total = entries.sum(axis=1) + upper + rules.yahtzee_bonus * bonuses
    assert np.array_equal(total, optimal_run.scores)
    assert np.array_equal(upper > 0, optimal_run.upper_bonus == 1)
    assert np.all(optimal_run.yahtzee_bonuses <= optimal_run.yahtzees)


def test_greedy_is_far_below_and_heuristic_in_between(official_table):
    greedy = simulate(official_table, "greedy", 4_000, seed=5, judged=False)
    heuristic = simulate(official_table, "heuristic", 4_000, seed=5, judged=False)
    exact = official_table.expected_score
    assert greedy.mean < exact - 50
    assert greedy.mean + 30 < heuristic.mean < exact - 10


def python_greedy(decision: Decision):
    """The built-in greedy strategy as a user callable (see solver/simulate/__init__.py)."""
    if decision.rolls_left > 0:
        counts = [decision.dice.count(f) for f in range(1, 7)]
        face = max(range(6, 0, -1), key=lambda f: counts[f - 1])
        return [face] * counts[face - 1]
    rules = decision.rules
    upper = decision.upper_total

    def worth(pl):
        bonus = rules.upper_bonus if pl.box < 6 and upper < UPPER_TARGET <= upper + pl.points else 0
        return pl.points + bonus

    best = max(decision.placements(), key=lambda pl: (worth(pl), -pl.box))
    return rules.boxes[best.box].name


def test_a_python_strategy_plays_the_same_dice(official_table):
    native = simulate(official_table, "greedy", 300, seed=21)
    mine = simulate(official_table, python_greedy, 300, seed=21)
    assert mine.strategy == "python_greedy"
    assert np.array_equal(mine.scores, native.scores)
    assert np.array_equal(mine.entries, native.entries)
    assert np.array_equal(mine.yahtzees, native.yahtzees)


def test_a_python_strategy_may_score_early(official_table):
    def chance_first(decision: Decision):
        open_boxes = decision.open_boxes
        return "chance" if "chance" in open_boxes else open_boxes[0]

    result = simulate(official_table, chance_first, 20, seed=1)
    assert np.all(result.entries[:, 12] >= 5)


@pytest.mark.parametrize("move, why", [
    ([7], "faces are 1..6"),
    ("nowhere", "not a box"),
    (None, "neither a box name nor faces"),
])
def test_illegal_moves_name_the_move_and_the_state(official_table, move, why):
    with pytest.raises(IllegalStrategyMoveError) as info:
        simulate(official_table, lambda decision: move, 3, seed=2)
    message = str(info.value)
    assert why in message and repr(move) in message and "dice" in message
    assert "turn 1" in message and "rolls left 2" in message
    assert isinstance(info.value, IllegalMoveError) and isinstance(info.value, ValueError)


def test_keeping_dice_not_showing_or_refilling_a_box_is_illegal(official_table):
    def six_sixes(decision: Decision):
        return [6, 6, 6, 6, 6, 6] if decision.rolls_left else "chance"

    with pytest.raises(IllegalStrategyMoveError, match="not part of the dice"):
        simulate(official_table, six_sixes, 1, seed=3)

    def always_chance(decision: Decision):
        return "chance"

    with pytest.raises(IllegalStrategyMoveError, match="filled") as info:
        simulate(official_table, always_chance, 1, seed=3)
    assert "turn 2" in str(info.value) and "chance=" in str(info.value)

    def keep_at_the_end(decision: Decision):
        return []

    with pytest.raises(IllegalStrategyMoveError, match="no rolls are left"):
        simulate(official_table, keep_at_the_end, 1, seed=3)


@pytest.mark.parametrize("kwargs, error", [
    ({"games": 0}, YahtzeeError),
    ({"games": -3}, YahtzeeError),
    ({"seed": -1}, YahtzeeError),
    ({"seed": 2**64}, YahtzeeError),
    ({"strategy": "clever"}, UnknownStrategyError),
])
def test_bad_arguments(official_table, kwargs, error):
    args = {"strategy": "optimal", "games": 10, "seed": 0, **kwargs}
    with pytest.raises(error):
        simulate(official_table, **args)


def test_json_keys(optimal_run):
    data = optimal_run.to_json()
    for key in ("games", "strategy", "mean", "sd", "stderr", "percentiles",
                "upper_bonus_rate", "yahtzees_per_game", "yahtzee_bonuses_per_game"):
        assert key in data
    assert data["games"] == 20_000 and data["strategy"] == "optimal"


@pytest.mark.parametrize("rules_name", ["yatzy", "free-joker"])
def test_other_rule_sets(table_of, rules_name):
    table = table_of(rules_name)
    result = simulate(table, "optimal", 4_000, seed=8)
    assert abs(result.mean - table.expected_score) < 4 * result.stderr
    for strategy in ("greedy", "heuristic"):
        assert simulate(table, strategy, 500, seed=8).mean < table.expected_score


def test_greedy_turn_matches_its_exact_mean_and_the_published_greedy(official_table,
                                                                     greedy_turn_stats):
    """greedy-turn is the optimal policy on a table of zeros: its simulated mean lands
    within 4 standard errors of the exact mean of that policy (217.38; published ~218)."""
    import solver.simulate
    from tests.oracles import readme

    exact = greedy_turn_stats.mean
    assert round(exact, 4) == 217.3834
    doc = " ".join(solver.simulate.__doc__.split())
    assert readme.after("exact mean", where=doc) == "217.3834"
    strategies = readme.text()[readme.text().index("Strategies (`yahtzee simulate"):]
    assert readme.as_printed(exact, readme.after("exact mean", where=strategies))
    run = simulate(official_table, "greedy-turn", 20_000, seed=8, judged=False)  # plain mean
    assert abs(run.mean - exact) < 4 * run.stderr
    assert run.mean < official_table.expected_score - 30


@pytest.mark.slow
def test_the_readme_strategy_figures(official_table):
    """The README's seeded 100,000-game comparison, figure by figure."""
    from tests.oracles import readme

    strategies = ("optimal", "greedy-turn", "heuristic", "greedy")
    command = "yahtzee simulate --games 100000 --compare " + ",".join(strategies)
    paragraph = readme.text()[readme.text().index(f"Strategies (`{command}`"):]
    assert "seed 0" in paragraph[:200]
    for name in strategies:
        printed = readme.after(f"`{name}`", where=paragraph)
        # (not judged: the judge reads the games played, the same games either way)
        mean = simulate(official_table, name, 100_000, seed=0, judged=False).mean
        assert readme.as_printed(mean, printed), (name, mean, printed)
