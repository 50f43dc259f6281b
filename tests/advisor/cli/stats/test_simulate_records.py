"""Records of simulated games: the same games, readable by `analyze`; the greedy-turn
strategy's mean loss per game is the gap between the optimal and its exact mean."""

from __future__ import annotations

import math

import numpy as np
import pytest
from click.testing import CliRunner

from advisor.analysis import analyze
from advisor.cli import cli
from advisor.record_file import read_record, records_from_traces
from solver.simulate import simulate


@pytest.mark.parametrize("strategy", ["optimal", "greedy", "greedy-turn", "heuristic"])
def test_records_replay_to_the_simulated_scores(official_table, strategy):
    result = simulate(official_table, strategy, 60, seed=5, record=True)
    plain = simulate(official_table, strategy, 60, seed=5)
    assert np.array_equal(result.scores, plain.scores)  # recording changes nothing
    records = list(records_from_traces("official", result.traces))
    for record, score, entries in zip(records, result.scores, result.entries, strict=True):
        card = record.cards()["Player 1"]
        assert card.is_full and card.total == score
        assert list(card.entries) == list(entries)


def test_python_strategies_are_recorded_too(official_table):
    def sixes_then_chance(decision):
        if decision.rolls_left:
            return [f for f in decision.dice if f == 6]
        return decision.open_boxes[-1]

    result = simulate(official_table, sixes_then_chance, 5, seed=3, record=True)
    for record, score in zip(records_from_traces("official", result.traces), result.scores,
                             strict=True):
        assert record.cards()["Player 1"].total == score


def test_a_keep_of_all_five_is_judged_but_not_recorded(official_table):
    """A Python strategy that keeps all five dice once, then rerolls the non-sixes: the
    record shows the rolls the dice changed on (the keep of five rolled nothing), replays
    to the score, and recording judges the same moves as not recording."""
    def stand_then_sixes(decision):
        if decision.rolls_left == 2:
            return list(decision.dice)
        if decision.rolls_left:
            return [f for f in decision.dice if f == 6]
        return decision.open_boxes[-1]

    result = simulate(official_table, stand_then_sixes, 6, seed=4, record=True)
    plain = simulate(official_table, stand_then_sixes, 6, seed=4)
    assert np.array_equal(result.losses.per_game, plain.losses.per_game)
    assert result.losses.decisions[0] == 6 * 13 * 2  # two keeps a turn, the five included
    for record, score in zip(records_from_traces("official", result.traces), result.scores,
                             strict=True):
        assert record.cards()["Player 1"].total == score
        for turn in record.turns:
            assert len(turn.rolls) == 2 and len(turn.keeps) == 1
            assert all(len(keep.faces) < 5 for keep in turn.keeps)


def test_optimal_games_lose_nothing(official_table):
    result = simulate(official_table, "optimal", 30, seed=11, record=True)
    for record in records_from_traces("official", result.traces):
        player = analyze(record, table=official_table).players[0]
        assert player.errors == 0 and player.total_loss <= 1e-9
        assert player.total - official_table.expected_score == pytest.approx(player.luck,
                                                                             abs=1e-9)


def test_simulate_records_cli(tmp_path, official_table):
    folder = tmp_path / "games"
    result = CliRunner().invoke(cli, ["simulate", "--games", "3", "--strategy", "greedy",
                                      "--records", str(folder), "--json"])
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["game-000001.txt", "game-000002.txt", "game-000003.txt"]
    assert read_record(folder / files[0]).is_finished
    again = CliRunner().invoke(cli, ["simulate", "--games", "3", "--records", str(folder)])
    assert again.exit_code == 2 and "not an empty folder" in again.stderr
    both = CliRunner().invoke(cli, ["simulate", "--compare", "optimal,greedy", "--records",
                                    str(tmp_path / "new")])
    assert both.exit_code == 2 and "one strategy at a time" in both.stderr
    lost = tmp_path / "missing" / "games"
    nowhere = CliRunner().invoke(cli, ["simulate", "--games", "3", "--records", str(lost)])
    assert nowhere.exit_code == 2 and nowhere.stderr.count("\n") == 1, nowhere.stderr
    assert f"cannot create {lost}: the folder {lost.parent} does not exist" in nowhere.stderr
    assert not lost.parent.exists()


@pytest.mark.slow
def test_greedy_turn_mean_loss_is_the_gap_to_optimal(official_table, greedy_turn_stats):
    """Luck averages to zero, so the mean total loss per game of 20,000 greedy-turn games
    agrees with E(new game) - the strategy's exact mean within 4 standard errors."""
    exact = greedy_turn_stats.mean
    assert exact == pytest.approx(217.3834, abs=1e-4)
    games = 20_000
    # analyze judges the games: the simulator's own judge (the same games either way) is
    # not asked
    result = simulate(official_table, "greedy-turn", games, seed=2026, record=True,
                      judged=False)
    losses = np.array([analyze(record, table=official_table).players[0].total_loss
                       for record in records_from_traces("official", result.traces)])
    gap = official_table.expected_score - exact
    stderr = losses.std(ddof=1) / math.sqrt(games)
    assert abs(losses.mean() - gap) < 4 * stderr, (losses.mean(), gap, stderr)
