"""solver/turn_face.py: one call gives every option of a roll under any goal, valued and
ranked. Checked whole (every entry of every list) against independent computations: the
plain-Python reference solver for the expected final scores, the plain-Python target DP
for the probabilities, a sort written out here for the order."""

from __future__ import annotations

import numpy as np
import pytest

from solver.game.card import Scorecard
from solver.game.dice import DICE, KEEP_COUNTS, KEEP_SIZE, N_KEEPS
from solver.game.faces import Dice
from solver.goals import ExpectedGoal, TargetGoal
from solver.memory import TurnMemory
from solver.turn_face import NO_BOX, NO_KEEP, turn_options
from tests.oracles.independent_scorer import RULE_BOOKS, placements
from tests.oracles.reference import ReferenceSolver
from tests.oracles.target_reference import TwinDP

CARD = ("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,three_of_a_kind=20,"
        "four_of_a_kind=0,full_house=25,small_straight=30,large_straight=40")
"""Two boxes open (Yahtzee and Chance): every figure of a turn is quick to work out."""
ROLLS = ("22456", "66666", "11223")


def _by_hand(card: Scorecard, faces: str, rolls_left: int,
             value_after_box, value_of_keep) -> list[tuple]:
    """Every option (keep index or NO_KEEP, box or NO_BOX, points, bonus, expected final,
    value): the boxes the independent scorer allows, in card order, then every keep of 0
    to 4 of the dice (by keep index) while rolls are left."""
    book = RULE_BOOKS[card.rules_name]
    dice = tuple(int(c) for c in faces)
    filled = frozenset(name for i, name in enumerate(book.card) if card.mask >> i & 1)
    out = []
    for name, points, bonus in placements(book, dice, filled, card.yahtzee_holds_50):
        box = book.card.index(name)
        out.append((NO_KEEP, box, points, bonus, *value_after_box(box, points, bonus)))
    if rolls_left:
        counts = np.bincount(dice, minlength=7)[1:]
        subs = [k for k in range(N_KEEPS) if KEEP_SIZE[k] < DICE
                and (KEEP_COUNTS[k] <= counts).all()]
        for k in sorted(subs):
            out.append((k, NO_BOX, 0, 0, *value_of_keep(k)))
    return out


def _ranked_by_hand(values: list[float], evs: list[float], boxes: list[int],
                    keeps: list[int], tie: float) -> list[int]:
    """Best first: the highest value (within ``tie``), then the highest expected final
    score (within 1e-9), then keeps before boxes, keeps by index, boxes in card order.
    The figures here are far apart or exactly equal, so rounding finds the ties."""
    digits = 9 if tie >= 1e-9 else 12

    def key(i: int) -> tuple:
        rank = keeps[i] if keeps[i] != NO_KEEP else N_KEEPS + boxes[i]
        return (-round(values[i], digits), -round(evs[i], 9), rank)

    return sorted(range(len(values)), key=key)


def _check(got, want: list[tuple], tie: float, by_value: bool) -> None:
    assert got.keeps == [w[0] for w in want]
    assert got.boxes == [w[1] for w in want]
    assert got.points == [w[2] for w in want]
    assert got.bonuses == [w[3] for w in want]
    assert got.expected_finals == pytest.approx([w[4] for w in want], abs=1e-9, rel=0)
    assert got.probabilities == pytest.approx([w[5] for w in want], abs=1e-12, rel=0)
    values = [w[5] for w in want] if by_value else [w[4] for w in want]
    assert got.order == _ranked_by_hand(values, [w[4] for w in want], got.boxes, got.keeps,
                                        tie)


@pytest.mark.parametrize("faces", ROLLS)
@pytest.mark.parametrize("rolls_left", [0, 1, 2])
def test_every_option_under_the_expected_score_is_the_reference_solvers(
        official_table, faces, rolls_left):
    card = Scorecard.parse(CARD)
    rules = card.rules
    reference = ReferenceSolver(rules)
    state = (card.mask, card.upper, card.flag)
    stages = reference.turn(*state)

    def after_box(box: int, points: int, bonus: int) -> tuple[float, float]:
        m, u, y, upper_bonus = rules.after_box(*state, box, points)
        return card.total + points + upper_bonus + bonus + reference.value(m, u, y), 0.0

    def of_keep(k: int) -> tuple[float, float]:
        return card.total + stages[rolls_left][k], 0.0

    want = _by_hand(card, faces, rolls_left, after_box, of_keep)
    got = turn_options(official_table, ExpectedGoal(), card, Dice.parse(faces), rolls_left,
                       memory=TurnMemory())
    assert got.solved is None
    _check(got, want, 1e-9, by_value=False)
    best = turn_options(official_table, ExpectedGoal(), card, Dice.parse(faces), rolls_left,
                        memory=TurnMemory(), expected=got.expected, ranked=False)
    assert best.order == got.order[:1]


@pytest.mark.parametrize("faces", ROLLS)
@pytest.mark.parametrize("rolls_left", [0, 2])
def test_every_option_under_a_target_is_the_twin_dps(official_table, faces, rolls_left):
    card = Scorecard.parse(CARD)
    rules = card.rules
    target = card.total + 40
    twin = TwinDP(rules, np.zeros(target), 1.0, target + 1)
    reference = ReferenceSolver(rules)
    state = (card.mask, card.upper, card.flag)
    stages, twin_stages = reference.turn(*state), twin.keeps(*state)

    def after_box(box: int, points: int, bonus: int) -> tuple[float, float]:
        m, u, y, upper_bonus = rules.after_box(*state, box, points)
        final = card.total + points + upper_bonus + bonus
        after = twin.value(m, u, y)
        p = after[final] if final < after.shape[0] else twin.above
        return final + reference.value(m, u, y), p

    def of_keep(k: int) -> tuple[float, float]:
        return card.total + stages[rolls_left][k], twin_stages[rolls_left][k][card.total]

    want = _by_hand(card, faces, rolls_left, after_box, of_keep)
    assert any(0.0 < w[5] < 1.0 for w in want)  # (not all sure nor all lost)
    memory = TurnMemory()
    got = turn_options(official_table, TargetGoal(target), card, Dice.parse(faces),
                       rolls_left, memory=memory)
    _check(got, want, 1e-12, by_value=True)
    assert got.solved is not None and len(memory.vectors) == 1  # the game's vectors kept
    again = turn_options(official_table, TargetGoal(target), card, Dice.parse(faces),
                         rolls_left, memory=TurnMemory(), expected=got.expected,
                         solved=got.solved)
    assert again.probabilities == got.probabilities and again.order == got.order


def test_a_target_out_of_reach_solves_nothing_and_every_figure_is_0(official_table):
    card = Scorecard.parse(CARD)
    memory = TurnMemory()
    most = 50 + 30 + 100  # Yahtzee, then Chance with five alike and its bonus
    got = turn_options(official_table, TargetGoal(card.total + most + 1), card,
                       Dice.parse("66666"), 1, memory=memory)
    assert got.solved is None and len(memory.vectors) == 0
    assert got.probabilities == [0.0] * len(got.keeps)
    by_score = turn_options(official_table, ExpectedGoal(), card, Dice.parse("66666"), 1,
                            memory=memory)
    assert got.order[0] == by_score.order[0]  # (all 0: ranked by the expected final score)
