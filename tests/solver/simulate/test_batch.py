"""Batch strategies: every live game's decision answered at once, as actions."""

from __future__ import annotations

import numpy as np
import pytest

from solver.errors import IllegalStrategyMoveError, StrategyError
from solver.game.actions import KEEP_ACTIONS
from solver.simulate import DecisionBatch, batch_strategy, simulate
from tests.solver.simulate.test_judge import most_common_face


def _keep_most_common(batch: DecisionBatch) -> tuple[np.ndarray, np.ndarray]:
    """(keep actions, True where all five dice are alike) of the most common face (ties:
    the higher face)."""
    counts = np.stack([(batch.dice == f).sum(axis=1) for f in range(1, 7)], axis=1)
    face = 1 + np.argmax(counts * 10 + np.arange(1, 7), axis=1)
    bits = (batch.dice == face[:, None]) * (1 << np.arange(5))
    return bits.sum(axis=1), counts.max(axis=1) == 5


@batch_strategy
def most_common_face_batch(batch: DecisionBatch) -> np.ndarray:
    """most_common_face answered for a whole batch (boxes through each row's placements)."""
    keeps, five = _keep_most_common(batch)
    actions = keeps.copy()
    for i in np.flatnonzero((batch.rolls_left == 0) | five):
        decision = batch.decision(int(i))
        best = max(decision.placements(), key=lambda p: (p.points, -p.box))
        actions[i] = KEEP_ACTIONS + best.box
    return actions


@batch_strategy
def first_box(batch: DecisionBatch) -> np.ndarray:
    """Vectorised: keep the most common face, then the first box allowed."""
    keeps, five = _keep_most_common(batch)
    box = KEEP_ACTIONS + np.argmax(batch.action_mask[:, KEEP_ACTIONS:], axis=1)
    return np.where((batch.rolls_left > 0) & ~five, keeps, box)


def test_a_batch_strategy_plays_the_games_of_its_per_decision_twin(official_table):
    one = simulate(official_table, most_common_face, 1300, seed=9, record=True)
    batch = simulate(official_table, most_common_face_batch, 1300, seed=9, record=True)
    for name in ("scores", "upper_bonus", "yahtzees", "yahtzee_bonuses", "entries", "traces"):
        assert np.array_equal(getattr(one, name), getattr(batch, name)), name
    assert np.array_equal(one.losses.per_game, batch.losses.per_game)
    assert np.array_equal(one.losses.decisions, batch.losses.decisions)
    assert batch.strategy == "most_common_face_batch"


def test_the_batch_shows_the_observation_and_the_legal_actions(official_table):
    seen = []

    @batch_strategy
    def look(batch: DecisionBatch) -> np.ndarray:
        seen.append(batch)
        return first_box(batch)

    run = simulate(official_table, look, 5, seed=2)
    first = seen[0]
    assert len(first) == 5 and first.game.tolist() == [0, 1, 2, 3, 4]
    assert (first.turn == 1).all() and (first.rolls_left == 2).all()
    assert (first.card == -1).all() and (first.yahtzee_box == 0).all()
    assert (np.diff(first.dice, axis=1) >= 0).all()
    assert (first.action_mask[:, :KEEP_ACTIONS] == 1).all()
    assert set(first.observation()) == {"card", "upper_subtotal", "yahtzee_box", "dice",
                                        "rolls_left"}
    last = seen[-1]
    assert (last.turn == 13).all() and (last.rolls_left == 0).all()
    assert (last.action_mask[:, :KEEP_ACTIONS] == 0).all()
    assert (last.action_mask[:, KEEP_ACTIONS:].sum(axis=1) == 1).all()
    assert run.losses.decisions[1] == 5 * 13


@pytest.mark.parametrize("answer, message", [
    (lambda b: np.zeros(len(b) + 1, dtype=np.int64), r"answered an array of shape \(6,\)"),
    (lambda b: np.zeros(len(b)), "type float64"),
    (lambda b: "chance", "answered an array of shape"),
    (lambda b: np.full(len(b), 99), r"illegal action 99 \(not an action 0 to 43\)"),
    (lambda b: np.full(len(b), KEEP_ACTIONS + 12), r"box chance: that box is filled"),
])
def test_bad_answers_name_the_decision(official_table, answer, message):
    with pytest.raises(IllegalStrategyMoveError, match=message) as caught:
        simulate(official_table, batch_strategy(answer), 5, seed=1)
    assert "turn " in str(caught.value) and "dice " in str(caught.value)


def test_a_box_after_the_last_roll_is_needed(official_table):
    @batch_strategy
    def rerolls_forever(batch):
        return np.zeros(len(batch), dtype=np.int64)

    with pytest.raises(IllegalStrategyMoveError, match="no rolls are left") as caught:
        simulate(official_table, rerolls_forever, 3, seed=1)
    assert "rolls left 0" in str(caught.value) and "game 0" in str(caught.value)


def test_an_error_of_the_strategy_names_it(official_table):
    @batch_strategy
    def broken(batch):
        raise KeyError("x")

    with pytest.raises(StrategyError, match="batch strategy 'broken' failed with KeyError"):
        simulate(official_table, broken, 3, seed=1)


def test_workers_play_a_batch_strategy_the_same(official_table):
    one = simulate(official_table, first_box, 2500, seed=3)
    two = simulate(official_table, first_box, 2500, seed=3, workers=2)
    assert np.array_equal(one.scores, two.scores)
    assert np.array_equal(one.losses.per_game, two.losses.per_game)
    assert one.to_json()["loss_by_box"] == two.to_json()["loss_by_box"]
