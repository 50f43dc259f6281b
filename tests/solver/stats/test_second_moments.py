"""An independent check of the exact SD: second moments of the points still to come.

Under a fixed policy, with X the points of this turn and s' the next state,
``M2(s) = E[X^2 + 2 X E(s') + M2(s')]``: one backward pass gives ``E[score^2]`` without
any distribution. Written apart from ``solver.stats`` (choices by enumerating each roll's
sub-keeps, no one-die-at-a-time maximum, no outcome grid), with the documented
tie-break: lowest box index, keeps in ``dice`` keep order, values within 1e-9 equal.
The same pass counts the expected five-alike turns and Yahtzee bonuses (the counters of
``yahtzee stats``). Scores and the Joker come from the independent scorer, not from
``solver.game.rules``.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit, prange

from solver.game.dice import (
    KEEP_CHILD,
    N_KEEPS,
    ROLL_COUNTS,
    ROLL_KEEP,
    ROLL_PROBABILITY,
    ROLLS,
    sub_keeps,
)
from solver.game.states import upper_classes
from solver.levels import masks_by_level
from tests.oracles.independent_scorer import RULE_BOOKS, joker_choices, ordinary_score

TIE = 1e-9
FIRST = int(ROLL_KEEP[0])
FIVE_FACE = np.array([int(np.argmax(c)) if c.max() == 5 else -1 for c in ROLL_COUNTS])
_subs = [sorted(sub_keeps(r)) for r in range(len(ROLL_KEEP))]
SUB_START = np.cumsum([0] + [len(s) for s in _subs]).astype(np.int64)
SUBS = np.array([k for s in _subs for k in s], dtype=np.int64)


@njit
def _state_m2(m, u, y, values, m2, counts, scores, jallow, jpts, upper_bonus, yz, yz_bonus,
              n_rerolls, out):
    """Writes (E[X^2 + ...], expected five-alike turns, expected Yahtzee bonuses) of state
    (m, u, y) into ``out``."""
    n_boxes = scores.shape[1]
    a1 = np.empty(N_KEEPS)
    a2 = np.empty((N_KEEPS, 3))
    cand1 = np.empty(n_boxes)
    cand2 = np.empty((n_boxes, 3))
    for r in range(252):
        f = FIVE_FACE[r]
        allowed = jallow[m, f] if f >= 0 else -1
        joker = allowed >= 0
        bonus = yz_bonus if (f >= 0 and y == 1) else 0.0
        best = -1e300
        for b in range(n_boxes):
            cand1[b] = -1e300
            if m >> b & 1 or (joker and not (allowed >> b) & 1):
                continue
            p = jpts[m, f, b] if joker else scores[r, b]
            nu, ny, x = u, y, p + bonus
            if b < 6:
                nu = min(63, u + p)
                if u < 63 <= u + p:
                    x += upper_bonus
            elif b == yz and p > 0 and m2.shape[2] == 2:
                ny = 1
            nm = m | (1 << b)
            e = values[nm, nu, ny]
            cand1[b] = x + e
            cand2[b, 0] = x * x + 2.0 * x * e + m2[nm, nu, ny]
            cand2[b, 1] = (1.0 if f >= 0 else 0.0) + counts[nm, nu, ny, 0]
            cand2[b, 2] = (1.0 if bonus > 0 else 0.0) + counts[nm, nu, ny, 1]
            best = max(best, cand1[b])
        for b in range(n_boxes):
            if cand1[b] >= best - TIE:
                a1[FIRST + r] = cand1[b]
                a2[FIRST + r] = cand2[b]
                break
    for _ in range(n_rerolls):
        for k in range(FIRST - 1, -1, -1):
            s1 = 0.0
            s2 = np.zeros(3)
            for face in range(6):
                s1 += a1[KEEP_CHILD[k, face]]
                s2 += a2[KEEP_CHILD[k, face]]
            a1[k] = s1 / 6.0
            a2[k] = s2 / 6.0
        b1 = np.empty(252)
        b2 = np.empty((252, 3))
        for r in range(252):
            best = -1e300
            for i in range(SUB_START[r], SUB_START[r + 1]):
                best = max(best, a1[SUBS[i]])
            for i in range(SUB_START[r], SUB_START[r + 1]):
                if a1[SUBS[i]] >= best - TIE:
                    b1[r] = a1[SUBS[i]]
                    b2[r] = a2[SUBS[i]]
                    break
        a1[FIRST:] = b1
        a2[FIRST:] = b2
    for c in range(3):
        out[c] = (ROLL_PROBABILITY * a2[FIRST:, c]).sum()


@njit(parallel=True)
def _level_m2(masks, classes, values, m2, counts, scores, jallow, jpts, upper_bonus, yz,
              yz_bonus, n_rerolls):
    for i in prange(masks.shape[0]):
        m = masks[i]
        out = np.empty(3)
        for u in range(64):
            if classes[m & 63, u] >= 0:
                for y in range(m2.shape[2] if (m >> yz) & 1 else 1):
                    _state_m2(m, u, y, values, m2, counts, scores, jallow, jpts, upper_bonus,
                              yz, yz_bonus, n_rerolls, out)
                    m2[m, u, y] = out[0]
                    counts[m, u, y, 0] = out[1]
                    counts[m, u, y, 1] = out[2]


def independent_rule_arrays(rules_name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """From the independent scorer, in the solver's roll and box numbering:
    scores[r, b]; jallow[m, f], the bitmask of boxes the Joker allows for five of face
    f + 1 on filled mask m (-1: no Joker, ordinary scoring); jpts[m, f, b] their points."""
    book = RULE_BOOKS[rules_name]
    n = len(book.card)
    scores = np.array([[ordinary_score(book, box, tuple(int(f) for f in roll))
                        for box in book.card] for roll in ROLLS], dtype=np.int64)
    jallow = np.full((1 << n, 6), -1, dtype=np.int64)
    jpts = np.zeros((1 << n, 6, n), dtype=np.int64)
    yz = book.card.index(book.yahtzee_box)
    for m in range((1 << n) - 1):
        if not m >> yz & 1:
            continue
        filled = {box for b, box in enumerate(book.card) if m >> b & 1}
        for face in range(1, 7):
            choices = joker_choices(book, face, filled)
            if choices is None:
                continue
            jallow[m, face - 1] = sum(1 << book.card.index(box) for box in choices)
            for box, points in choices.items():
                jpts[m, face - 1, book.card.index(box)] = points
    return scores, jallow, jpts


def moments(table) -> tuple[float, float, float]:
    """(E[final score^2], Yahtzees per game, Yahtzee bonuses per game) of a new game under
    the table's optimal policy, with the rules of the independent scorer."""
    rules = table.rules
    book = RULE_BOOKS[rules.name]
    values = np.ascontiguousarray(table.values)
    m2 = np.full(values.shape, np.nan)
    counts = np.full(values.shape + (2,), np.nan)
    m2[rules.full_mask] = 0.0
    counts[rules.full_mask] = 0.0
    classes = upper_classes()
    scores, jallow, jpts = independent_rule_arrays(rules.name)
    for level in masks_by_level(rules.n_boxes)[-2::-1]:
        _level_m2(level, classes, values, m2, counts, scores, jallow, jpts,
                  float(book.upper_bonus), book.card.index(book.yahtzee_box),
                  float(book.yahtzee_bonus), book.rolls - 1)
    return float(m2[0, 0, 0]), float(counts[0, 0, 0, 0]), float(counts[0, 0, 0, 1])


@pytest.mark.slow
def test_sd_agrees_with_the_second_moment_recursion(official_table, official_stats):
    mean = official_table.expected_score
    second, yahtzees, bonuses = moments(official_table)
    sd = float(np.sqrt(second - mean**2))
    assert round(sd, 4) == 59.6079
    stats = official_stats
    assert stats.sd == pytest.approx(sd, abs=1e-7)
    # The stats counters, against the same recursion counting five-alike turns.
    assert stats.yahtzees == pytest.approx(yahtzees, abs=1e-9)
    assert stats.yahtzee_bonuses == pytest.approx(bonuses, abs=1e-9)
    assert (round(yahtzees, 4), round(bonuses, 4)) == (0.4643, 0.0958)
