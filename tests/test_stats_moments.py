"""An independent check of the exact SD: second moments of the points still to come.

Under a fixed policy, with X the points of this turn and s' the next state,
``M2(s) = E[X^2 + 2 X E(s') + M2(s')]``: one backward pass gives ``E[score^2]`` without
any distribution. Written apart from ``solver.stats`` (choices by enumerating each roll's
sub-keeps, no one-die-at-a-time maximum, no outcome grid), with the documented
tie-break: lowest box index, keeps in ``dice`` keep order, values within 1e-9 equal.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit, prange

from solver.builder import masks_by_level, upper_classes
from solver.dice import KEEP_CHILD, N_KEEPS, ROLL_COUNTS, ROLL_KEEP, ROLL_PROBABILITY, sub_keeps

TIE = 1e-9
FIRST = int(ROLL_KEEP[0])
FIVE_FACE = np.array([int(np.argmax(c)) if c.max() == 5 else -1 for c in ROLL_COUNTS])
_subs = [sorted(sub_keeps(r)) for r in range(len(ROLL_KEEP))]
SUB_START = np.cumsum([0] + [len(s) for s in _subs]).astype(np.int64)
SUBS = np.array([k for s in _subs for k in s], dtype=np.int64)


@njit
def _state_m2(m, u, y, values, m2, scores, jt, jp, upper_bonus, yz, yz_bonus, has_joker,
              n_rerolls):
    n_boxes = scores.shape[1]
    a1 = np.empty(N_KEEPS)
    a2 = np.empty(N_KEEPS)
    cand1 = np.empty(n_boxes)
    cand2 = np.empty(n_boxes)
    for r in range(252):
        f = FIVE_FACE[r]
        joker = has_joker and (m >> yz) & 1 == 1 and f >= 0
        low = 1 << 30
        if joker:
            for b in range(n_boxes):
                if not (m >> b & 1) and jt[f, b] < low:
                    low = jt[f, b]
        bonus = yz_bonus if (f >= 0 and y == 1) else 0.0
        best = -1e300
        for b in range(n_boxes):
            cand1[b] = -1e300
            if m >> b & 1 or (joker and jt[f, b] != low):
                continue
            p = jp[(m >> f) & 1, f, b] if joker else scores[r, b]
            nu, ny, x = u, y, p + bonus
            if b < 6:
                nu = min(63, u + p)
                if u < 63 <= u + p:
                    x += upper_bonus
            elif b == yz and p > 0 and m2.shape[2] == 2:
                ny = 1
            e = values[m | (1 << b), nu, ny]
            cand1[b] = x + e
            cand2[b] = x * x + 2.0 * x * e + m2[m | (1 << b), nu, ny]
            best = max(best, cand1[b])
        for b in range(n_boxes):
            if cand1[b] >= best - TIE:
                a1[FIRST + r] = cand1[b]
                a2[FIRST + r] = cand2[b]
                break
    for _ in range(n_rerolls):
        for k in range(FIRST - 1, -1, -1):
            s1 = 0.0
            s2 = 0.0
            for face in range(6):
                s1 += a1[KEEP_CHILD[k, face]]
                s2 += a2[KEEP_CHILD[k, face]]
            a1[k] = s1 / 6.0
            a2[k] = s2 / 6.0
        b1 = np.empty(252)
        b2 = np.empty(252)
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
    return (ROLL_PROBABILITY * a2[FIRST:]).sum()


@njit(parallel=True)
def _level_m2(masks, classes, values, m2, scores, jt, jp, upper_bonus, yz, yz_bonus,
              has_joker, n_rerolls):
    for i in prange(masks.shape[0]):
        m = masks[i]
        for u in range(64):
            if classes[m & 63, u] >= 0:
                for y in range(m2.shape[2] if (m >> yz) & 1 else 1):
                    m2[m, u, y] = _state_m2(m, u, y, values, m2, scores, jt, jp, upper_bonus,
                                            yz, yz_bonus, has_joker, n_rerolls)


def second_moment(table) -> float:
    """E[final score^2] of a new game under the table's optimal policy."""
    rules = table.rules
    values = np.ascontiguousarray(table.values)
    m2 = np.full(values.shape, np.nan)
    m2[rules.full_mask] = 0.0
    classes = upper_classes()
    for level in masks_by_level(rules.n_boxes)[-2::-1]:
        _level_m2(level, classes, values, m2, rules.scores, rules.joker_tier,
                  rules.joker_points, float(rules.upper_bonus), rules.yahtzee_box,
                  float(rules.yahtzee_bonus), rules.has_joker, rules.rolls_per_turn - 1)
    return float(m2[0, 0, 0])


@pytest.mark.slow
def test_sd_agrees_with_the_second_moment_recursion(official_table):
    from solver.stats import optimal_stats

    mean = official_table.expected_score
    sd = float(np.sqrt(second_moment(official_table) - mean**2))
    assert round(sd, 4) == 59.6079
    assert optimal_stats(official_table).sd == pytest.approx(sd, abs=1e-7)
