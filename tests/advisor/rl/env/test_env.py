"""The Gymnasium environment (advisor.rl): the API Gymnasium checks, exact regret (every
step's loss and luck against analyze's, and the telescoping sum), the optimal agent's
mean, the simulator's seeding, vector environments across processes, pickling, the
multi-player form and bad input."""

from __future__ import annotations

import importlib.metadata
import pickle
import re
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import advisor.rl
from advisor.analysis import analyze
from advisor.record import parse_record
from advisor.rl.env import IllegalActionError, YahtzeeEnv
from solver.errors import UnknownRulesError, UnknownStrategyError, YahtzeeError
from solver.game.actions import KEEP_ACTIONS, action_of, move_of
from solver.simulate import simulate


@pytest.fixture(scope="module")
def env(official_table):
    return gymnasium.make(advisor.rl.ENV_ID, rules="official").unwrapped


def play(env, choose, seed=None):
    """One episode; ``choose(obs, info, rng)`` picks each action. Returns the steps as
    (obs, action, reward, info) and the reset's info."""
    rng = np.random.default_rng(seed)
    obs, first = env.reset(seed=seed)
    info, steps, done = first, [], False
    while not done:
        action = choose(obs, info, rng)
        after, reward, done, truncated, info = env.step(action)
        assert truncated is False
        steps.append((obs, action, reward, info))
        obs = after
    return first, steps


def random_action(obs, info, rng):
    return int(rng.choice(np.flatnonzero(info["action_mask"])))


def worst_action(obs, info, rng):
    """Random keeps, and the last legal box after the last roll (often a costly one)."""
    legal = np.flatnonzero(info["action_mask"])
    return int(legal[-1] if obs["rolls_left"] == 0 else rng.choice(legal))


def optimal_action(obs, info, rng):
    return info["optimal_action"]


def test_check_env_passes_for_each_form(official_table):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make(advisor.rl.ENV_ID, rules="official").unwrapped)
        check_env(gymnasium.make(advisor.rl.ENV_ID, rules="yatzy", opponents=["greedy"],
                                 render_mode="ansi").unwrapped)


def test_registered_through_the_gymnasium_plugin_entry_point():
    (point,) = [p for p in importlib.metadata.entry_points(group="gymnasium.envs")
                if p.name == "yahtzee"]
    assert point.value == "advisor.rl:register_envs"
    point.load()()  # what a plugin loader does: a second registration is a no-op
    assert gymnasium.spec(advisor.rl.ENV_ID).entry_point == advisor.rl.ENTRY_POINT
    made = gymnasium.make("advisor.rl:yahtzee/Yahtzee-v0", rules="no-bonus")
    assert made.unwrapped.rules.name == "no-bonus"


@pytest.mark.parametrize("choose", [random_action, worst_action, optimal_action])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_total_is_new_game_value_plus_luck_minus_loss(env, official_table, choose, seed):
    first, steps = play(env, choose, seed)
    luck = first["luck"] + sum(info["luck"] for *_, info in steps)
    loss = sum(info["loss"] for *_, info in steps)
    total = steps[-1][3]["total"]
    assert sum(reward for _, _, reward, _ in steps) == total == env.card.total
    assert total == pytest.approx(official_table.expected_score + luck - loss, abs=1e-9)
    assert all(info["loss"] >= 0 for *_, info in steps)
    if choose is optimal_action:
        assert loss == 0


def env_box(rules, action):
    from solver.game.rules import get_rules

    return get_rules(rules).boxes[action - KEEP_ACTIONS].name


@pytest.mark.parametrize("seed", [3, 4])
def test_each_step_has_the_loss_and_luck_analyze_gives(env, seed):
    first, steps = play(env, random_action, seed)
    turns, tokens = [], []
    for n, (obs, action, _, _) in enumerate(steps):
        if not tokens:
            tokens.append("".join(map(str, obs["dice"])))
        if action < KEEP_ACTIONS:
            tokens.append("".join(str(f) for i, f in enumerate(obs["dice"])
                                  if action >> i & 1) or "-")
            tokens.append("".join(map(str, steps[n + 1][0]["dice"])))
        else:
            tokens.append(env_box("official", action))
            turns.append("P: " + " ".join(tokens))
            tokens = []
    record = parse_record("\n".join(["rules official", "players P", *turns]))
    judged = analyze(record).decisions
    assert len(judged) == len(steps)
    lucks = [first["luck"]] + [info["luck"] for *_, info in steps[:-1]]
    for decision, (*_, info), luck in zip(judged, steps, lucks, strict=True):
        assert info["loss"] == pytest.approx(decision.loss, abs=1e-9)
        assert luck == pytest.approx(decision.luck, abs=1e-9)
        assert info["optimal_action"] >= -1
    assert steps[-1][3]["luck"] == 0.0


def test_optimal_action_is_advise_first_option(env):
    from advisor.ranking import advise

    obs, info = env.reset(seed=11)
    for _ in range(20):
        advice = advise(env.card, env.dice, rolls_left=env.rolls_left)
        assert move_of(info["optimal_action"], env.dice, env.card) == advice.best.move
        assert info["value"] == advice.best.expected_final
        obs, _, done, _, info = env.step(info["optimal_action"])
        if done:
            break


@pytest.mark.slow
def test_optimal_agent_scores_the_optimal_mean(env, official_table):
    totals = []
    for episode in range(2000):
        obs, info = env.reset(seed=2024) if episode == 0 else env.reset()
        done = False
        while not done:
            obs, _, done, _, info = env.step(info["optimal_action"])
        totals.append(info["total"])
    totals = np.array(totals, dtype=float)
    stderr = totals.std(ddof=1) / np.sqrt(len(totals))
    assert abs(totals.mean() - official_table.expected_score) < 4 * stderr


def _lowest_face_then_first_box(dice, rolls_left, open_boxes):
    """A fixed rule both the simulator and the environment can play."""
    if rolls_left:
        return [f for f in dice if f == dice[0]][:4]
    return open_boxes[0]


def test_episodes_are_the_simulators_games(env, official_table):
    def strategy(decision):
        allowed = [decision.rules.boxes[p.box].name for p in decision.placements()]
        return _lowest_face_then_first_box(decision.dice, decision.rolls_left, allowed)

    result = simulate(official_table, strategy, games=4, seed=77)
    for game in range(4):
        obs, info = env.reset(seed=77) if game == 0 else env.reset()
        assert env.episode == (77, game)
        done = False
        while not done:
            dice = tuple(int(f) for f in obs["dice"])
            boxes = [env.rules.boxes[a - KEEP_ACTIONS].name
                     for a in np.flatnonzero(info["action_mask"]) if a >= KEEP_ACTIONS]
            answer = _lowest_face_then_first_box(dice, int(obs["rolls_left"]), boxes)
            from solver.game.move import Move

            move = Move(box=answer) if isinstance(answer, str) else Move(keep=tuple(answer))
            obs, _, done, _, info = env.step(action_of(move, env.dice, env.card))
        assert info["total"] == result.scores[game]


def test_reset_seeding_follows_the_simulator(env):
    a, _ = env.reset(seed=5)
    b, _ = env.reset()
    c, _ = env.reset(seed=5)
    d, _ = env.reset()
    assert env.episode == (5, 1)
    np.testing.assert_array_equal(a["dice"], c["dice"])
    np.testing.assert_array_equal(b["dice"], d["dice"])
    unseeded = YahtzeeEnv("official")
    unseeded.reset()
    assert unseeded.episode[0] is not None and unseeded.episode[1] == 0


def test_pickled_mid_game_plays_on_identically(env):
    obs, info = env.reset(seed=9)
    for _ in range(5):
        obs, _, _, _, info = env.step(info["optimal_action"])
    copy = pickle.loads(pickle.dumps(env))
    for _ in range(10):
        a = info["optimal_action"]
        one, two = env.step(a), copy.step(a)
        for key in one[0]:
            np.testing.assert_array_equal(one[0][key], two[0][key])
        assert one[1:4] == two[1:4] and one[4]["luck"] == two[4]["luck"]
        info = one[4]


def _make_env():
    return gymnasium.make("advisor.rl:yahtzee/Yahtzee-v0", rules="official")


def test_async_vector_env_of_two_processes(official_table):
    vector = gymnasium.vector.AsyncVectorEnv([_make_env, _make_env], context="spawn")
    try:
        obs, info = vector.reset(seed=40)
        singles = [YahtzeeEnv("official") for _ in range(2)]
        for i, single in enumerate(singles):  # sub-environment i is seeded seed + i
            np.testing.assert_array_equal(single.reset(seed=40 + i)[0]["dice"], obs["dice"][i])
        totals = np.zeros(2)
        for _ in range(45):  # a whole game (at most 39 steps), then an automatic reset
            obs, reward, terminated, truncated, info = vector.step(info["optimal_action"])
            totals += reward
            assert not truncated.any()
        assert (totals > 0).all()
    finally:
        vector.close()


def test_multi_player_form(official_table):
    env = gymnasium.make(advisor.rl.ENV_ID, opponents=("greedy", "optimal")).unwrapped
    obs, info = env.reset(seed=8)
    assert obs["opponent_totals"].tolist() == [0, 0]
    done, seen = False, []
    while not done:
        action = info["optimal_action"]
        obs, reward, done, _, info = env.step(action)
        if action >= KEEP_ACTIONS and not done:  # a turn ended: the others played theirs
            seen.append(obs["opponent_totals"].tolist())
    seen.append(info["final_totals"][1:].tolist())
    assert info["final_totals"][0] == info["total"] and len(seen) == env.rules.n_boxes
    assert all(a <= b for row, nxt in zip(seen, seen[1:], strict=False)
               for a, b in zip(row, nxt, strict=True))
    # the other seats' games do not depend on the agent's moves
    again = gymnasium.make(advisor.rl.ENV_ID, opponents=("greedy", "optimal")).unwrapped
    _, steps = play(again, random_action, 8)
    assert steps[-1][3]["final_totals"][1:].tolist() == seen[-1]


def test_illegal_actions_name_the_decision(env):
    obs, info = env.reset(seed=1)
    with pytest.raises(IllegalActionError, match=r"action 99.*integer 0 to 43"):
        env.step(99)
    with pytest.raises(IllegalActionError, match="integer 0 to 43"):
        env.step("keep 2")
    box = int(np.flatnonzero(info["action_mask"])[-1])
    obs, _, _, _, info = env.step(box)
    with pytest.raises(IllegalActionError,
                       match=r"not legal at turn 2, dice \d{5}, 2 rolls left, card \[chance="):
        env.step(box)
    while True:
        obs, _, done, _, info = env.step(info["optimal_action"])
        if done:
            break
    assert info["optimal_action"] == -1 and not info["action_mask"].any()
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


def test_bad_construction_is_a_value_error():
    with pytest.raises(UnknownRulesError):
        YahtzeeEnv("nope")
    with pytest.raises(UnknownStrategyError, match="greedy"):
        YahtzeeEnv("official", opponents=["grody"])
    with pytest.raises(YahtzeeError, match="render_mode"):
        YahtzeeEnv("official", render_mode="human")
    with pytest.raises(YahtzeeError, match="seed"):
        YahtzeeEnv("official").reset(seed=2**64)
    with pytest.raises(YahtzeeError, match="options"):
        YahtzeeEnv("official").reset(options={"card": "twos=6"})


def test_the_examples_of_docs_rl_run_and_print_what_they_say(official_table, capsys):
    from pathlib import Path

    text = (Path(__file__).resolve().parents[4] / "docs" / "rl.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    first, agents, report = blocks[0], blocks[3], blocks[4]
    scope: dict = {}
    exec(first, scope)
    exec(agents, scope)
    printed = capsys.readouterr().out.splitlines()
    claimed = re.findall(r"# (\(.*?\))", agents)
    assert printed == claimed
    scope["my_agent"] = scope["random_agent"]
    exec(report.replace("range(1000)", "range(30)"), scope)
    plain, corrected = capsys.readouterr().out.splitlines()
    assert plain.startswith("plain mean") and corrected.startswith("corrected")
    assert scope["E"] == round(official_table.expected_score, 4)
