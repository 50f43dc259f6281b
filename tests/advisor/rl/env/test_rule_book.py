"""The RL environment's observation, reward, ``action_mask`` and ``total`` at every step,
against the rule book (``independent_scorer.py``), never the solver's own scoring: random
legal actions under every rule set (keeps chasing five alike, so that the Joker and
Yahtzee bonuses come up, and boxes chosen at random), the state followed here
from the rule book alone."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import advisor.rl
from solver.game.actions import KEEP_ACTIONS
from solver.game.rules import RULE_NAMES
from tests.oracles.independent_scorer import RULE_BOOKS, UPPER_GOAL, grand_total, placements

EPISODES = {"official": 40}
"""Episodes per rule set (12 but for official: a second Yahtzee in a game, the Joker
and the bonus, comes about once in eight games)."""


@pytest.mark.parametrize("rules_name", RULE_NAMES)
def test_every_step_is_the_rule_books(table_of, rules_name):
    table_of(rules_name)  # (built or read once per run)
    book = RULE_BOOKS[rules_name]
    env = gymnasium.make(advisor.rl.ENV_ID, rules=rules_name).unwrapped
    rng = np.random.default_rng(5)
    steps = joker_turns = bonuses_seen = 0
    episodes = EPISODES.get(rules_name, 12)
    for episode in range(episodes):
        obs, info = env.reset(seed=100 + episode)
        entries: dict[str, int] = {}
        bonuses = 0
        done = False
        while not done:
            dice = sorted(int(f) for f in obs["dice"])
            assert dice == list(obs["dice"])
            rolls_left = int(obs["rolls_left"])
            mask = info["action_mask"]
            # keeps: every proper subset of the dice while a roll is left, none after
            assert list(mask[:KEEP_ACTIONS]) == [int(rolls_left > 0)] * KEEP_ACTIONS
            holds_50 = entries.get(book.yahtzee_box) == 50 and book.yahtzee_bonus > 0
            allowed = {box: (points, bonus) for box, points, bonus
                       in placements(book, dice, set(entries), holds_50)}
            assert {book.card[b] for b in np.flatnonzero(mask[KEEP_ACTIONS:])} == \
                set(allowed)
            five = len(set(dice)) == 1
            if rolls_left and not five and rng.random() < 0.8:
                most = max(set(dice), key=dice.count)  # chase five alike, or anything
                action = sum(1 << i for i, f in enumerate(dice) if f == most) \
                    if rng.random() < 0.8 else int(rng.integers(KEEP_ACTIONS))
                expected_reward = 0
            else:
                # (the Yahtzee box kept for five alike, else last: bonuses come up)
                others = [b for b in allowed if b != book.yahtzee_box] or list(allowed)
                box = others[rng.integers(len(others))]
                if five and book.yahtzee_box in allowed:
                    box = book.yahtzee_box
                points, bonus = allowed[box]
                joker_turns += five and book.yahtzee_box in entries
                upper = sum(v for b, v in entries.items() if book.face_of(b))
                crossed = (book.face_of(box) and upper < UPPER_GOAL <= upper + points)
                expected_reward = points + bonus + (book.upper_bonus if crossed else 0)
                entries[box] = points
                bonuses += bonus > 0
                bonuses_seen += bonus > 0
                action = KEEP_ACTIONS + book.card.index(box)
            obs, reward, done, _, info = env.step(action)
            steps += 1
            assert reward == expected_reward
            assert list(obs["card"]) == [entries.get(b, -1) for b in book.card]
            assert obs["upper_subtotal"] == sum(v for b, v in entries.items()
                                                if book.face_of(b))
            yz = entries.get(book.yahtzee_box)
            assert obs["yahtzee_box"] == (0 if yz is None else 1 if yz == 0 else 2)
            assert info["total"] == grand_total(book, entries, bonuses)
        assert len(entries) == len(book.card)
        assert info["optimal_action"] == -1 and info["value"] == info["total"]
    assert steps > episodes * len(book.card)  # keeps were taken, not only boxes
    if rules_name == "official":
        assert joker_turns and bonuses_seen  # the Joker and the bonus were reached
