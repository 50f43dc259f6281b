"""The RL environment at its edges: the largest seed its message allows, the largest
values its observation space must contain (written from the rule book, not read from
the code), the opponents as a plain string, and the other seats' games keyed on the
seed as well as on the episode."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.rl.env import YahtzeeEnv
from solver.errors import YahtzeeError

# Largest entries of each box, from the rule book's scoring (upper boxes: five of the face).
OFFICIAL_HIGHEST = [5, 10, 15, 20, 25, 30, 30, 30, 25, 30, 40, 50, 30]
# 105 upper + 35 bonus + 235 lower + 12 Yahtzee bonuses of 100
OFFICIAL_MOST = 105 + 35 + (30 + 30 + 25 + 30 + 40 + 50 + 30) + 12 * 100


@pytest.fixture(scope="module")
def lone(official_table):
    return YahtzeeEnv("official")


def test_the_largest_seed_is_taken_and_one_more_refused(lone):
    obs, _ = lone.reset(seed=2**64 - 1)
    assert lone.episode == (2**64 - 1, 0)
    assert lone.observation_space.contains(obs)
    for bad in (2**64, -1):
        with pytest.raises(YahtzeeError, match=r"0\.\.2\*\*64-1"):
            lone.reset(seed=bad)


def test_observation_space_holds_the_rule_books_highest_values(lone):
    space = lone.observation_space
    obs, _ = lone.reset(seed=3)
    assert space["card"].high.tolist() == OFFICIAL_HIGHEST
    assert space["card"].low.tolist() == [-1] * 13
    best_upper = dict(obs, upper_subtotal=np.int64(105))  # five of each face
    assert space.contains(best_upper)
    assert not space.contains(dict(obs, upper_subtotal=np.int64(106)))
    full = dict(obs, card=np.array(OFFICIAL_HIGHEST, dtype=np.int64))
    assert space.contains(full)


def test_opponents_as_a_plain_string_is_one_seat(official_table):
    env = YahtzeeEnv("official", opponents="greedy")
    assert env.opponents == ("greedy",)
    obs, _ = env.reset(seed=4)
    assert obs["opponent_totals"].shape == (1,)
    assert env.observation_space["opponent_totals"].high.tolist() == [OFFICIAL_MOST]


def _final_opponent_totals(env: YahtzeeEnv, seed: int | None) -> list[int]:
    obs, info = env.reset(seed=seed)
    done = False
    while not done:
        obs, _, done, _, info = env.step(info["optimal_action"])
    return info["final_totals"][1:].tolist()


def test_the_other_seats_games_follow_the_seed_not_only_the_episode(official_table):
    """Episode 0 of seed 2 after episode 0 of seed 1 is the same game as in a new
    environment: what is kept of the other seats' games must be told apart by seed."""
    used = YahtzeeEnv("official", opponents=("greedy",))
    first = _final_opponent_totals(used, 1)
    second = _final_opponent_totals(used, 2)
    fresh = _final_opponent_totals(YahtzeeEnv("official", opponents=("greedy",)), 2)
    assert second == fresh
    assert first != second  # the two seeds' first games differ (else the test shows nothing)


@pytest.mark.parametrize(("options", "words"), [
    (5, "not int 5"), (0, "not int 0"), ("card", "not str 'card'"), ("", "not str ''"),
    ([], "not list []"), ([("card", 1)], "not list"), ((), "not tuple ()"),
    (True, "not bool True"), (1.5, "not float 1.5"), (b"", "not bytes b''"),
    (object(), "not object <object"),
    ({"card": "twos=6"}, "reset takes no options, not 'card'"),
    ({1: 2, "a": 3}, "reset takes no options, not '1', 'a'"),
    ({i: i for i in range(9)}, "not '0', '1', '2', '3', '4' ..."),
])
def test_reset_refuses_every_option_with_a_clear_value_error(lone, options, words):
    """The environment takes no options: anything but None or an empty dict is a
    ValueError naming what was given (the game in play goes on unchanged)."""
    lone.reset(seed=5)
    before = lone.card, lone.dice
    with pytest.raises(YahtzeeError) as caught:
        lone.reset(options=options)
    message = str(caught.value)
    assert isinstance(caught.value, ValueError) and words in message, message
    assert message.startswith("reset") and len(message) < 200
    assert (lone.card, lone.dice) == before
    for none in (None, {}):
        lone.reset(seed=5, options=none)
        assert (lone.card, lone.dice) == before


def test_the_rl_env_lists_only_the_opponents_it_takes() -> None:
    import gymnasium

    import advisor.rl  # noqa: F401  (registers the environment)

    for name in ("target:300", "Target:300", "nonsense", "x" * 5000):
        with pytest.raises(ValueError) as caught:
            gymnasium.make("yahtzee/Yahtzee-v0", opponents=[name])
        message = str(caught.value)
        assert "optimal, greedy, greedy-turn, heuristic" in message and len(message) < 200
        assert "not target:X" in message and "and target:X" not in message
    with pytest.raises(ValueError, match="more than 7 opponents"):
        gymnasium.make("yahtzee/Yahtzee-v0", opponents=["greedy"] * 8)
    env = gymnasium.make("yahtzee/Yahtzee-v0", opponents=["greedy"] * 7)
    obs, _ = env.reset(seed=1)
    assert obs["opponent_totals"].shape == (7,)
