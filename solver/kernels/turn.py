"""The turn engine: one turn of one state, whatever is maximised over it.

A turn of state ``s = (m, u, y)`` (filled mask, capped upper subtotal, Yahtzee box holds
50) over the 462 keeps ``k`` (the rolls ``r`` are the keeps of five dice):

    V_0(r) = max over the options o of roll r of  G(o) + Yahtzee bonus of r
    K_j(k) = (1/6) sum_f K_j(k + f)   for |k| < 5,     K_j(r) = V_{j-1}(r)
    V_j(r) = max over the sub-keeps k of r of K_j(k)   (B(k) = max(K_j(k), max_f B(k - f)))
    value  = sum_r P(r) V_R(r),   R = rolls per turn - 1

Everything but ``G`` is shared and lives here:

- the plan (:func:`plan_turn`), the same for every column of a state ``(m, y)``: the
  *successors* of the open boxes (an upper box has six, 0 to 5 dice of its face; the
  Yahtzee box of a rule set that pays bonuses two, a 0 and a 50; any other box one) in
  rows ``6 b + k``, and for each final roll its *options*: the boxes the rules allow (the
  forced Joker applied), each with its successor row and entry, and the roll's Yahtzee
  bonus (:func:`~solver.kernels.basics.roll_bonus`);
- the reroll steps :func:`expect_keeps` and :func:`best_sub_keeps` and their driver
  :func:`rerolls`, on a work array
  ``work`` (462, >= width) holding one value per keep and *column*, and the first
  roll's :func:`roll_expectation`.

``G``, the value of an option, is the objective's gather: the expected score adds the
entry to the successor's value (``kernels.expected``); the target and win DP reads the
successor's vector shifted by the entry (``kernels.target``). A new objective is a new
gather; a new fixed policy is new data for the expected-score gather (``kernels.policy``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .. import _jit_cache
from ..game.dice import (
    FIRST_ROLL_KEEP,
    KEEP_CHILD,
    KEEP_SUB_COUNT,
    KEEP_SUB_LIST,
    N_KEEPS,
    N_ROLLS,
    ROLL_COUNTS,
    ROLL_FIVE_FACE,
    ROLL_PROBABILITY,
    YAHTZEE_ROLLS,
)
from ..game.rules import N_UPPER
from .basics import FAST_MATH, SIXTH, roll_bonus, roll_entries

_jit_cache.check()  # before any cached kernel is loaded


class TurnPlan(NamedTuple):
    """What the turn of any state of mask ``m`` can do (:func:`plan_turn`): int64 arrays
    sized for any state of the rule set (:func:`new_plan`).

    - ``size`` (3,): the number of successors, the number of open boxes, the Yahtzee
      bonus five alike earn with 50 in the Yahtzee box (points; :func:`plan_bonus`
      applies a state's flag);
    - ``succ_row``, ``succ_box``, ``succ_entry`` (6 n_boxes,): each successor's row
      ``6 b + k`` (box order), its box, the entry leading to it (``k`` dice of the face in
      an upper box; 0, or 1 for any entry above 0, in another box);
    - ``open_box`` (n_boxes,): the open boxes, ascending: a roll that is not five alike
      may go in any of them at its ordinary points;
    - ``five_start`` (7,): the options of five alike of face ``f + 1`` (the Joker
      applied) are ``five_start[f] .. five_start[f + 1] - 1`` of ``row``, ``box`` and
      ``entry`` (6 n_boxes,): successor row, box (ascending), entry.
    """

    size: np.ndarray
    succ_row: np.ndarray
    succ_box: np.ndarray
    succ_entry: np.ndarray
    open_box: np.ndarray
    five_start: np.ndarray
    row: np.ndarray
    box: np.ndarray
    entry: np.ndarray


@njit(cache=True)
def new_plan(n_boxes):
    """An empty :class:`TurnPlan` for a rule set of ``n_boxes`` boxes."""
    n = 6 * n_boxes
    return TurnPlan(np.zeros(3, dtype=np.int64), np.empty(n, dtype=np.int64),
                    np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64),
                    np.empty(n_boxes, dtype=np.int64), np.empty(7, dtype=np.int64),
                    np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64),
                    np.empty(n, dtype=np.int64))


@njit(cache=True)
def plan_turn(m, rules, plan):
    """Fill ``plan`` (a :class:`TurnPlan`) for filled mask ``m``, either flag. (The
    work is done on the plan's arrays as arguments: read from the tuple inside a loop
    with branches, numba counts their references at every read, ten times slower.)"""
    n, n_open = _successors(m, rules, plan.succ_row, plan.succ_box, plan.succ_entry,
                            plan.open_box)
    _five_alike(m, rules, plan.five_start, plan.row, plan.box, plan.entry)
    plan.size[0] = n
    plan.size[1] = n_open
    plan.size[2] = roll_bonus(YAHTZEE_ROLLS[0], np.int64(1), rules)  # (no literal)


@njit(cache=True)
def _successors(m, rules, succ_row, succ_box, succ_entry, open_box):
    n = n_open = 0
    for b in range(rules.box_scores.shape[0]):
        if m >> b & 1:
            continue
        open_box[n_open] = b
        n_open += 1
        pays = b == rules.yahtzee_box and rules.n_flags == 2
        for k in range(6 if b < N_UPPER else (2 if pays else 1)):
            succ_row[n] = 6 * b + k
            succ_box[n] = b
            succ_entry[n] = k * (b + 1) if b < N_UPPER else k
            n += 1
    return n, n_open


@njit(cache=True)
def _five_alike(m, rules, five_start, row, box, entry):
    pays = rules.yahtzee_box if rules.n_flags == 2 else -1
    i = 0
    for f in range(6):  # the Joker may apply: the rules' own list
        five_start[f] = i
        found = roll_entries(YAHTZEE_ROLLS[f], m, rules, box[i:], entry[i:])
        for o in range(i, i + found):
            row[o] = option_row(box[o], entry[o], pays)
        i += found
    five_start[6] = i


@njit(cache=True, inline="always")
def n_options(plan, r):
    """The number of boxes final roll ``r`` may go in (see :func:`option`)."""
    f = ROLL_FIVE_FACE[r]
    return plan.size[1] if f < 0 else plan.five_start[f + 1] - plan.five_start[f]


@njit(cache=True, inline="always")
def option(plan, r, i, scores):
    """Option ``i`` (box order) of final roll ``r``: (successor row, box, entry, points
    the option adds to its successor's value: the entry of a lower box, 0 for an upper
    box, whose successor holds it). ``scores``: ``RuleArrays.box_scores`` (an array, not
    the tuple: a tuple read in a loop costs numba reference counts)."""
    f = ROLL_FIVE_FACE[r]
    if f >= 0:
        return five_alike_option(plan.five_start[f] + i, plan.row, plan.box, plan.entry)
    return plain_option(plan.open_box[i], r, scores)


@njit(cache=True, inline="always")
def five_alike_option(o, row, box, entry):
    """:func:`option` of five alike: entry ``o`` of the plan's ``row``, ``box``, ``entry``."""
    b = box[o]
    p = entry[o]
    return row[o], b, p, p - successor_points(b, p)


@njit(cache=True, inline="always")
def plain_option(b, r, scores):
    """:func:`option` of a roll ``r`` that is not five alike, in open box ``b``."""
    if b < N_UPPER:
        return 6 * b + ROLL_COUNTS[r, b], b, scores[b, r], 0
    p = scores[b, r]
    return 6 * b, b, p, p


@njit(cache=True, inline="always")
def plan_bonus(plan, r, y):
    """The Yahtzee bonus final roll ``r`` earns in a state of flag ``y`` (points): the
    one place a plan's bonus meets the flag."""
    return plan.size[2] * y if ROLL_FIVE_FACE[r] >= 0 else 0


@njit(cache=True, inline="always")
def option_row(b, p, pays):
    """The successor row ``6 b + k`` an entry of ``p`` points in box ``b`` leads to: an
    upper box, ``k`` dice of its face; the Yahtzee box of a rule set that pays bonuses
    (``pays``, else -1), ``k = 1`` for an entry above 0 (the flag is set); any other
    entry, ``k = 0``."""
    if b < N_UPPER:
        return 6 * b + p // (b + 1)
    return 6 * b + (1 if (b == pays and p > 0) else 0)


@njit(cache=True, inline="always")
def successor_points(b, e):
    """The points a successor's own value holds: its entry for an upper box (the entry
    fixes the successor), none for another box (its options add their entries)."""
    return e if b < N_UPPER else 0


@njit(cache=True, fastmath=FAST_MATH)
def expect_keeps(work, width):
    """K(k) = mean over the six faces of K(k + f), for every keep of fewer than five dice,
    in columns ``0..width-1`` of ``work`` (462, >= width); the roll rows are read.
    (Indexed in two dimensions: a row view per keep would cost two atomics.)"""
    for k in range(FIRST_ROLL_KEEP - 1, -1, -1):
        k0, k1, k2 = KEEP_CHILD[k, 0], KEEP_CHILD[k, 1], KEEP_CHILD[k, 2]
        k3, k4, k5 = KEEP_CHILD[k, 3], KEEP_CHILD[k, 4], KEEP_CHILD[k, 5]
        for c in range(width):
            work[k, c] = (work[k0, c] + work[k1, c] + work[k2, c] + work[k3, c] + work[k4, c]
                          + work[k5, c]) * SIXTH


@njit(cache=True, fastmath=FAST_MATH)
def best_sub_keeps(work, width, unit):
    """B(k) = max(K(k), B(k - f)) in place, smallest keeps first, in columns
    ``0..width-1``; the roll rows become V. ``unit`` is 1.0 (see ``RuleArrays.unit``)."""
    for k in range(1, work.shape[0]):
        for j in range(KEEP_SUB_COUNT[k]):
            sub = KEEP_SUB_LIST[k, j]
            for c in range(width):
                work[k, c] = max(work[k, c], work[sub, c]) * unit


@njit(cache=True)
def _keep_stage(work, width, stages, j):
    if stages.shape[0] > 0:
        for k in range(N_KEEPS):
            for c in range(width):
                stages[j, k, c] = work[k, c]


@njit(cache=True)
def rerolls(work, width, rules, keeps, bests, last):
    """The rerolls of a turn on ``work[:, :width]``, whose roll rows hold V_0: the roll
    rows end as V_R (with ``last``; else as K_R, and ``bests[R]`` is not set).

    When they have rows, ``keeps`` (R + 1, 462, >= width) gets ``keeps[0]`` = V_0 (roll
    rows) and ``keeps[j]`` = K_j (the value of each keep with ``j`` rolls left), ``bests``
    (same shape) ``bests[j]`` = B_j (at the roll rows V_j).
    """
    for j in range(rules.n_rerolls + 1):
        if j > 0:
            expect_keeps(work, width)
        _keep_stage(work, width, keeps, j)
        if j == rules.n_rerolls and not last:
            break
        if j > 0:
            best_sub_keeps(work, width, rules.unit)
        _keep_stage(work, width, bests, j)


@njit(cache=True, fastmath=FAST_MATH)
def roll_expectation(work, width, out):
    """``out[c] = sum_r P(r) work[roll r, c]`` for ``c < width``: the value before the
    first roll. The sum runs over the rolls in order, four rolls per pass over the
    columns (the same additions, in the same order, as one roll per pass)."""
    for c in range(width):
        out[c] = 0.0
    for r in range(0, N_ROLLS, 4):  # 252 rolls
        p0, p1 = ROLL_PROBABILITY[r], ROLL_PROBABILITY[r + 1]
        p2, p3 = ROLL_PROBABILITY[r + 2], ROLL_PROBABILITY[r + 3]
        k = FIRST_ROLL_KEEP + r
        for c in range(width):
            out[c] = (((out[c] + p0 * work[k, c]) + p1 * work[k + 1, c]) + p2 * work[k + 2, c]
                      + p3 * work[k + 3, c])
