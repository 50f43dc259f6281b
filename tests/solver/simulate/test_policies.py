"""The heuristic strategy's par of every box under every rule set, against a plain-Python
twin of its definition (solver/simulate/policies.py): an upper box's par is three dice of its
face (the pace that reaches the bonus); a lower box's is the mean points of one whole
turn (the rule set's rolls) played for that box alone, an ordinary roll's points (no
Joker, no Yahtzee bonus), each keep chosen for the most points expected."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest

from solver.game.rules import N_UPPER, RULE_NAMES, get_rules

FACES = range(1, 7)
ROLLS = list(itertools.combinations_with_replacement(FACES, 5))
KEEPS = [k for n in range(6) for k in itertools.combinations_with_replacement(FACES, n)]


@cache
def outcomes() -> np.ndarray:
    """P[keep, roll]: the chance that rerolling the dice not kept ends on ``roll``, by
    counting every sequence of the rerolled dice."""
    index = {roll: r for r, roll in enumerate(ROLLS)}
    table = np.zeros((len(KEEPS), len(ROLLS)))
    for k, keep in enumerate(KEEPS):
        n = 5 - len(keep)
        for dice in itertools.product(FACES, repeat=n):
            table[k, index[tuple(sorted(keep + dice))]] += 1.0 / 6 ** n
    return table


@cache
def sub_keeps() -> list[list[int]]:
    """For each roll, the keeps it allows (every sub-multiset of its dice)."""
    index = {keep: k for k, keep in enumerate(KEEPS)}
    return [sorted({index[tuple(sorted(c))] for n in range(6)
                    for c in itertools.combinations(roll, n)}) for roll in ROLLS]


def one_box_turn(points: np.ndarray, rolls_per_turn: int) -> float:
    """The mean points of a turn played for the one box whose points per roll are
    ``points``, each keep for the most points expected."""
    table, keeps = outcomes(), sub_keeps()
    value = points
    for _ in range(rolls_per_turn - 1):
        expected = table @ value
        value = np.array([max(expected[k] for k in keeps[r]) for r in range(len(ROLLS))])
    return float(table[0] @ value)  # keep 0 is no dice: the first roll


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_every_par_of_the_heuristic_is_its_definitions(rules):
    from solver.simulate.policies import heuristic_pars

    ruleset = get_rules(rules)
    pars = heuristic_pars(ruleset)
    assert pars.shape == (ruleset.n_boxes,)
    for b, box in enumerate(ruleset.boxes):
        if b < N_UPPER:
            assert box.is_upper and pars[b] == 3.0 * box.face, (rules, box.name)
            continue
        counts = [tuple(roll.count(f) for f in FACES) for roll in ROLLS]
        points = np.array([float(box.score(c)) for c in counts])
        want = one_box_turn(points, ruleset.rolls_per_turn)
        assert pars[b] == pytest.approx(want, abs=1e-9), (rules, box.name)
