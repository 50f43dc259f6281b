"""``simulate --strategy target:X``: the move of every decision is the one ``advise(...,
target=X)`` ranks first, the rate of reaching X agrees with the exact p_target, trivial
targets play for the expected score, bad names are one-line errors."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.model import Dice, Scorecard
from advisor.objective import Objective
from advisor.ranking import TurnAdvisor
from solver.errors import UnknownStrategyError
from solver.game.dice import KEEP_COUNTS, KEEP_SIZE, N_ROLLS, ROLLS, faces_of
from solver.kernels import simulate_target as st
from solver.kernels.turn import option
from solver.simulate import simulate
from solver.simulate.target import flatten, highest_score
from solver.target import Utility, solve_vectors


def _best_move(advisor: TurnAdvisor, dice: Dice, rolls_left: int) -> tuple:
    best = advisor.advise(dice, rolls_left).best
    if best.action == "score":
        return "score", best.box
    return "keep", tuple(best.keep.faces)


def _decisions(rules, trace):
    """(card, dice, rolls left, move) of every decision of one game's trace."""
    card = Scorecard.new(rules.name)
    rerolls = rules.rolls_per_turn - 1
    for row in trace:
        roll = int(row[0])
        for j in range(rerolls, -1, -1):
            dice = Dice(faces_of(KEEP_COUNTS[roll]))
            s = 2 * (rerolls - j) + 1
            if j == 0 or KEEP_SIZE[int(row[s])] == 5:
                yield card, dice, j, ("score", rules.boxes[int(row[-1])].name)
                break
            yield card, dice, j, ("keep", faces_of(KEEP_COUNTS[int(row[s])]))
            roll = int(row[s + 1])
        card = card.place(dice, int(row[-1]))


def _check_against_advise(table, traces, target, first_turn):
    """Every decision from turn ``first_turn`` on equals advise's best; returns how many
    were compared and how many had a best probability strictly between 0 and 1."""
    objective = Objective.for_target(target)
    compared = open_ended = 0
    for trace in traces:
        advisor = None
        for card, dice, j, move in _decisions(table.rules, trace):
            if card.turn < first_turn:
                continue
            if advisor is None or advisor.card != card:
                advisor = TurnAdvisor(card, table, objective)
            assert move == _best_move(advisor, dice, j), (str(card), str(dice), j)
            p = advisor.advise(dice, j).best.p_target
            compared += 1
            open_ended += 0 < p < 1
    return compared, open_ended


# ------------------------------------------------------------------ kernels vs advise
_CARDS = [
    # Yahtzee box holds 50: bonuses and the forced Joker (fives filled, sixes open)
    ("official", "aces=3,twos=6,threes=9,fours=12,fives=15,3k=20,yahtzee=50", 100),
    ("official", "aces=2,threes=9,fives=20,sixes=24,4k=26,ss=30,ls=40,chance=22", 80),
    ("free-joker", "twos=6,fours=12,fives=15,3k=25,yahtzee=50,fh=25,ls=40", 105),
    ("no-bonus", "aces=3,twos=6,threes=9,fours=12,3k=20,yahtzee=50,chance=23", 95),
    ("two-rolls", "aces=3,twos=6,threes=9,fours=8,sixes=18,4k=20,fh=25,ss=30", 70),
    ("yatzy", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=10,two_pairs=18,"
              "three_of_a_kind=12,four_of_a_kind=16", 70),
]


@pytest.mark.parametrize("rules_name,card_text,to_come", _CARDS)
def test_kernel_choices_equal_advise_on_late_cards(table_of, rules_name, card_text, to_come):
    """The simulator's turn and choice kernels, on vectors solved from a card, pick the
    option advise ranks first, for every roll of the card's turn and every rolls left."""
    table = table_of(rules_name)
    rules = table.rules
    card = Scorecard.parse(card_text, rules_name)
    target = card.total + to_come
    n0 = bin(card.mask).count("1")
    vectors = solve_vectors(table, Utility.target(target),
                            start=(card.mask, card.upper, card.flag), total=card.total,
                            keep=tuple(range(n0 + 1, rules.n_boxes + 1)))
    store = flatten(vectors)
    arrays, values = rules.arrays, np.ascontiguousarray(table.values)
    spec = Utility.target(target).spec(rules)
    turn = st.new_turn(rules.n_boxes, rules.rolls_per_turn - 1, spec)
    st.play_turn(card.mask, card.upper, card.flag, card.total, store, values, arrays, spec, turn)
    advisor = TurnAdvisor(card, table, Objective.for_target(target))
    open_ended = 0
    for r in range(N_ROLLS):
        dice = Dice(tuple(int(f) for f in ROLLS[r]))
        for j in range(rules.rolls_per_turn):
            o, keep = st.choose(r, j, card.mask, card.upper, card.flag, card.total, turn, turn,
                                values, arrays)
            mine = ("keep", faces_of(KEEP_COUNTS[keep])) if keep >= 0 else \
                ("score", rules.boxes[int(option(turn.vec.plan, r, o, arrays.box_scores)[1])].name)
            assert mine == _best_move(advisor, dice, j), (str(dice), j)
            open_ended += 0 < advisor.advise(dice, j).best.p_target < 1
    assert open_ended > N_ROLLS  # the probabilities decided, not only the tie-break


# ------------------------------------------------------------------ trivial targets
@pytest.fixture(scope="module")
def trivial_runs(official_table):
    huge = highest_score(official_table) + 1
    return (simulate(official_table, "target:0", 300, seed=7, record=True),
            simulate(official_table, f"target:{huge}", 300, seed=7, record=True),
            simulate(official_table, "optimal", 300, seed=7, record=True))


def test_trivial_targets_play_for_the_expected_score(trivial_runs, official_table):
    zero, huge, optimal = trivial_runs
    assert (zero.p_target, zero.reached_rate, zero.reached_stderr) == (1.0, 1.0, 0.0)
    assert (huge.p_target, huge.reached_rate) == (0.0, 0.0)
    assert huge.target == 1576
    # every probability equal: the expected score decides, so both play the same games
    assert np.array_equal(zero.traces, huge.traces)
    assert np.array_equal(zero.scores, huge.scores)
    # the same dice streams as the other strategies: the same first roll in every game
    assert np.array_equal(zero.traces[:, 0, 0], optimal.traces[:, 0, 0])
    # the advisor's expected-score ranking, move for move (late turns: cheap questions)
    compared, _ = _check_against_advise(official_table, zero.traces[:3], 0, first_turn=9)
    assert compared >= 15
    assert abs(zero.mean - optimal.mean) < 4 * optimal.stderr


def test_target_totals_add_up(trivial_runs, official_table):
    rules = official_table.rules
    run = trivial_runs[0]
    entries = run.entries.astype(np.int64)
    upper = np.where(entries[:, :6].sum(axis=1) >= 63, rules.upper_bonus, 0)
    bonuses = run.yahtzee_bonuses.astype(np.int64)
    total = entries.sum(axis=1) + upper + rules.yahtzee_bonus * bonuses
    assert np.array_equal(total, run.scores)


def test_bad_target_names(official_table):
    for name in ("target:abc", "target:-5", "target:", "target:3.5"):
        with pytest.raises(UnknownStrategyError, match=r"target:X with X a whole number"):
            simulate(official_table, name, 10)
        result = CliRunner().invoke(cli, ["simulate", "--strategy", name, "--games", "10"])
        assert result.exit_code == 2
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error:"), result.output
        assert "target:X with X a whole number of points, 0 or more" in lines[0]


def test_cli_reports_the_target_figures():
    result = CliRunner().invoke(cli, ["simulate", "--strategy", "target:0", "--games", "50",
                                      "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["strategy"] == "target:0"
    assert (data["target"], data["p_target"], data["reached_rate"]) == (0, 1.0, 1.0)
    assert data["reached_stderr"] == 0.0 and data["solve_seconds"] == 0.0
    text = CliRunner().invoke(cli, ["simulate", "--compare", "optimal,target:0",
                                    "--games", "50"]).stdout
    assert "Reached 0 (exact for target:0: 100.0000 %):" in text
    assert "optimal        100.000 % +- 0.000 of games" in text


# ------------------------------------------------------------------ a real target (slow)
@pytest.fixture(scope="module")
def two_rolls_200(table_of):
    table = table_of("two-rolls")
    return table, simulate(table, "target:200", 6_000, seed=2024, record=True)


@pytest.mark.slow
def test_rate_of_reaching_the_target_agrees_with_p_target(two_rolls_200):
    _, run = two_rolls_200
    # the exact new-game figure pinned in tests/solver/target/test_pins.py
    assert run.p_target == pytest.approx(0.41358151797947096, abs=1e-12)
    p = run.p_target
    stderr = np.sqrt(p * (1 - p) / run.games)
    assert abs(run.reached_rate - p) < 4 * stderr, (run.reached_rate, p, stderr)
    assert run.to_json()["reached_rate"] == run.reached_rate


@pytest.mark.slow
def test_moves_equal_advise_under_a_target(two_rolls_200):
    table, run = two_rolls_200
    compared, open_ended = _check_against_advise(table, run.traces[:8], 200, first_turn=6)
    assert compared >= 100
    assert open_ended >= compared // 2  # the probabilities decided, not only the tie-break


HUGE = "8" * 30  # a target of 30 digits, beyond any game


@pytest.mark.parametrize("target", [HUGE, "100000000000", "1576"])
def test_a_target_beyond_any_game_simulates_as_the_expected_score(official_table,
                                                                    target: str) -> None:
    """Never reached: every option has P = 0, so the higher expected score decides every
    choice, and the games are optimal play's games of the same seed."""
    result = simulate(official_table, f"target:{target}", games=20, seed=5, judged=False)
    optimal = simulate(official_table, "optimal", games=20, seed=5, judged=False)
    assert result.p_target == 0.0 and result.target == int(target)
    assert list(result.scores) == list(optimal.scores)
