"""The numba tables against the slow plain-Python reference on late-game states.

Each rule set is checked on states with one to three open boxes chosen to exercise the
Joker (Yahtzee box filled, matching upper or lower boxes open), the upper bonus
(subtotals just below 63, where one entry earns it) and the Yahtzee box itself, at
several upper subtotals and both values of the Yahtzee flag.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from solver.game.dice import ROLL_KEEP
from solver.game.rules import get_rules
from solver.table import turn_values
from tests.oracles.reference import ReferenceSolver, reachable_upper_subtotals

TOLERANCE = 1e-12

YAHTZEE_CASES = [
    (("yahtzee",), (0, 40, 63)),
    (("chance",), (0, 63)),
    (("fives", "large_straight"), (38, 43, 48, 60, 63)),
    (("fours", "yahtzee"), (47, 51, 59, 63)),
    (("twos", "threes"), (50, 55, 57, 63)),
    (("sixes", "full_house", "chance"), (33, 45, 57, 63)),
    (("aces", "yahtzee", "small_straight"), (58, 60, 62, 63)),
    (("three_of_a_kind", "four_of_a_kind", "large_straight"), (0, 63)),
]
YATZY_CASES = [
    (("yatzy",), (0, 63)),
    (("chance",), (20,)),
    (("fives", "two_pairs"), (38, 48, 63)),
    (("fours", "yatzy"), (51, 59, 63)),
    (("twos", "threes"), (55, 57, 63)),
    (("sixes", "full_house", "chance"), (45, 57, 63)),
    (("ones", "yatzy", "small_straight"), (60, 62, 63)),
    (("one_pair", "three_of_a_kind", "four_of_a_kind"), (0, 63)),
    (("large_straight", "two_pairs", "yatzy"), (21,)),
]
RULES_CASES = [(name, YATZY_CASES if name == "yatzy" else YAHTZEE_CASES)
               for name in ("official", "free-joker", "no-bonus", "two-rolls", "yatzy")]


@cache
def reference_for(rules_name: str) -> ReferenceSolver:
    """One memoising reference per rule set, shared by every test of the module."""
    return ReferenceSolver(rules_name)


def open_mask(rules, open_boxes: tuple[str, ...]) -> int:
    return rules.full_mask & ~sum(1 << rules.box_index(b) for b in open_boxes)


def flags_of(rules, mask: int) -> tuple[int, ...]:
    """The Yahtzee flags a state with this mask can have."""
    return (0, 1) if rules.n_flags == 2 and mask >> rules.yahtzee_box & 1 else (0,)


def states_of(rules_name: str, cases) -> list[tuple[int, int, int]]:
    rules = get_rules(rules_name)
    states = []
    for open_boxes, uppers in cases:
        mask = open_mask(rules, open_boxes)
        filled_faces = {b.face for i, b in enumerate(rules.boxes) if b.is_upper and mask >> i & 1}
        for upper in uppers:
            assert upper in reachable_upper_subtotals(filled_faces), (open_boxes, upper)
            states.extend((mask, upper, flag) for flag in flags_of(rules, mask))
    return states


@pytest.mark.slow
@pytest.mark.parametrize(("rules_name", "cases"), RULES_CASES, ids=[n for n, _ in RULES_CASES])
def test_kernel_matches_reference_on_late_game_states(table_of, rules_name: str, cases) -> None:
    table = table_of(rules_name)
    ref = reference_for(rules_name)
    mismatches = []
    for mask, upper, flag in states_of(rules_name, cases):
        got = table.values[mask, upper, flag]
        want = ref.value(mask, upper, flag)
        if not abs(got - want) <= TOLERANCE:
            mismatches.append((mask, upper, flag, float(got), want))
    assert mismatches == []


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", ["official", "free-joker", "no-bonus", "two-rolls"])
def test_every_subtotal_and_flag_of_a_joker_state(table_of, rules_name: str) -> None:
    """Every reachable subtotal of one two-box state: the upper bonus at each distance."""
    rules = get_rules(rules_name)
    table = table_of(rules_name)
    ref = reference_for(rules_name)
    mask = open_mask(rules, ("sixes", "full_house"))
    faces = {b.face for i, b in enumerate(rules.boxes) if b.is_upper and mask >> i & 1}
    for upper in sorted(reachable_upper_subtotals(faces)):
        for flag in flags_of(rules, mask):
            assert table.values[mask, upper, flag] == pytest.approx(
                ref.value(mask, upper, flag), abs=TOLERANCE), (upper, flag)


@pytest.mark.slow
@pytest.mark.parametrize(("rules_name", "open_boxes", "upper", "flag"), [
    ("official", ("fives", "large_straight"), 38, 1),
    ("official", ("twos", "threes"), 57, 0),
    ("free-joker", ("sixes", "full_house", "chance"), 45, 1),
    ("two-rolls", ("aces", "yahtzee", "small_straight"), 62, 0),
    ("yatzy", ("ones", "yatzy", "small_straight"), 60, 0),
])
def test_turn_snapshots_match_reference_turn(table_of, rules_name: str, open_boxes, upper: int,
                                             flag: int) -> None:
    """The advisor's view of a turn: final-roll values and keep values at each roll."""
    rules = get_rules(rules_name)
    mask = open_mask(rules, open_boxes)
    got = turn_values(table_of(rules_name), mask, upper, flag)
    want = reference_for(rules_name).turn(mask, upper, flag)
    assert got.shape == (rules.rolls_per_turn, 462)
    assert np.allclose(got[0, ROLL_KEEP], want[0], rtol=0, atol=TOLERANCE)
    for j in range(1, rules.rolls_per_turn):
        assert np.allclose(got[j], want[j], rtol=0, atol=TOLERANCE)


# ---------------------------------------------------------------- textbook answers

# One die: 3.5 with one roll; 4.25 with two (keep 4+); 14/3 with three (keep 5+). So a
# lone Chance box is worth five times that. A lone Yahtzee box is worth 50 times the
# classic chance of five alike within three rolls, 2783176 of 6**10.
CHANCE_ALONE = [("official", 70 / 3), ("two-rolls", 21.25), ("yatzy", 70 / 3)]
YAHTZEE_ALONE = [("official", 50 * 2783176 / 6**10), ("no-bonus", 50 * 2783176 / 6**10),
                 ("yatzy", 50 * 2783176 / 6**10)]


def lone_box_state(rules_name: str, box: str) -> tuple[int, int, int]:
    rules = get_rules(rules_name)
    if box == "yahtzee":
        box = rules.boxes[rules.yahtzee_box].name
    return open_mask(rules, (box,)), 30, 0


@pytest.mark.parametrize(("rules_name", "expected"), CHANCE_ALONE)
def test_reference_chance_alone(rules_name: str, expected: float) -> None:
    state = lone_box_state(rules_name, "chance")
    assert reference_for(rules_name).value(*state) == pytest.approx(expected, abs=1e-13)


@pytest.mark.parametrize(("rules_name", "expected"), YAHTZEE_ALONE)
def test_reference_yahtzee_alone(rules_name: str, expected: float) -> None:
    state = lone_box_state(rules_name, "yahtzee")
    assert reference_for(rules_name).value(*state) == pytest.approx(expected, abs=1e-13)


@pytest.mark.slow
@pytest.mark.parametrize(("rules_name", "box", "expected"),
                         [(n, "chance", e) for n, e in CHANCE_ALONE]
                         + [(n, "yahtzee", e) for n, e in YAHTZEE_ALONE])
def test_tables_give_the_textbook_answers(table_of, rules_name: str, box: str,
                                          expected: float) -> None:
    state = lone_box_state(rules_name, box)
    assert table_of(rules_name).values[state] == pytest.approx(expected, abs=TOLERANCE)


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", ["official", "yatzy"])
def test_full_card_is_worth_nothing(table_of, rules_name: str) -> None:
    rules = get_rules(rules_name)
    values = table_of(rules_name).values[rules.full_mask]
    assert np.all(values[~np.isnan(values)] == 0.0)
    assert np.all(values[:, 0] == 0.0)  # every subtotal is reachable on a full card


def test_reroll_distributions_agree_with_the_solver_dice() -> None:
    """The reference counts every reroll; the solver's dice module must agree with it."""
    from solver.game.dice import N_KEEPS, ROLL_PROBABILITY, keep_outcome_probabilities, sub_keeps
    from tests.oracles.reference import keep_outcomes, roll_probabilities, roll_sub_keeps

    assert np.allclose(ROLL_PROBABILITY, roll_probabilities(), rtol=0, atol=1e-15)
    for k in range(N_KEEPS):
        want = np.zeros(len(ROLL_PROBABILITY))
        for r, p in keep_outcomes()[k]:
            want[r] = p
        assert np.allclose(keep_outcome_probabilities(k), want, rtol=0, atol=1e-15), k
    assert all(tuple(sub_keeps(r)) == subs for r, subs in enumerate(roll_sub_keeps()))
