"""Which option of a turn is best, and what it is worth: the one readout of a played turn.

A turn played by the turn engine on a fixed policy's data (:func:`policy.play_turns
<solver.kernels.policy.play_turns>`: ``succ``, each successor's value less its par;
``keeps``, K_j of every keep; ``bests``, B_j) answers every choice of the turn:

- the best box of each final roll (:func:`best_boxes`): the first option in box order
  whose value ``G(o) = succ[row] + add`` is within ``EV_TIE`` of the largest (the roll's
  Yahtzee bonus is the same for all its options, so it is left out);
- V_j(r), what roll ``r`` is worth with ``j`` rolls left (:func:`roll_value`), and the
  best keep (:func:`best_keep`): the first sub-keep of the roll in keep order (0 to 5
  dice: keeping all five is scoring now) whose K_j is within ``EV_TIE`` of V_j(r);
- the value of any one box of a final roll (:func:`box_value`, the judge's).

These are :func:`solver.game.ties.best` with one objective (the value is the expected
score; the rank is box order, keep order): the one tie rule, of which :func:`best_of` is
the compiled whole, for objectives ranked by a probability first (the target simulator,
:func:`best_keeps`).

Python callers get whole arrays (:func:`final_choices`, :func:`best_keeps`), never a
loop over the 252 rolls. Every kernel is a plain module-level ``@njit(cache=True)``
function: a kernel taking a compiled function as an argument misses numba's on-disk
cache in every new process.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import _jit_cache
from ..game import ties as _ties
from ..game.dice import (
    FIRST_ROLL_KEEP,
    KEEP_SIZE,
    N_ROLLS,
    ROLL_SUB_KEEP_START,
    ROLL_SUB_KEEPS,
)
from ..game.ties import EV_TIE
from .policy import new_turn, play_turns
from .turn import n_options, new_plan, option, plan_bonus, plan_turn

_jit_cache.check()  # before any cached kernel is loaded

best_of = njit(cache=True)(_ties.best)
"""Compiled :func:`solver.game.ties.best`."""


@njit(cache=True)
def best_boxes(succ, c, plan, rules, first, last, out):
    """``out[r]``, for the final rolls ``first <= r < last``: the best option (index, box
    order) of each in column ``c`` (``succ`` and ``plan`` of a played turn), the first
    within ``EV_TIE`` of the largest value, the Yahtzee bonus apart. (The loops written
    here, not a call per roll: the statistics and the simulator run twice as fast.)"""
    scores = rules.box_scores
    for r in range(first, last):
        top = -np.inf
        for i in range(n_options(plan, r)):
            k, _, _, add = option(plan, r, i, scores)
            top = max(top, succ[k, c] + add)
        out[r] = 0
        for i in range(n_options(plan, r)):
            k, _, _, add = option(plan, r, i, scores)
            if top - (succ[k, c] + add) <= EV_TIE:
                out[r] = i
                break


@njit(cache=True)
def box_value(r, y, b, succ, plan, rules):
    """(value, entry) of scoring final roll ``r`` (roll index) in box ``b`` under flag
    ``y``, column 0 of a played turn: the option of box ``b`` with the roll's Yahtzee
    bonus, as V_0 counts it; (-inf, -1) when the rules do not allow the box."""
    scores = rules.box_scores
    for i in range(n_options(plan, r)):
        k, box, e, add = option(plan, r, i, scores)
        if box == b:
            return succ[k, 0] + add + plan_bonus(plan, r, y), e
    return -np.inf, -1


@njit(cache=True)
def roll_value(r, j, keeps):
    """V_j(r) of final or current roll ``r`` (roll index), column 0 of a played turn: the
    best keep's K_j (``keeps[j, k, 0]``), or V_0 (``keeps[0]`` at the roll rows) when
    ``j`` is 0."""
    if j == 0:
        return keeps[0, FIRST_ROLL_KEEP + r, 0]
    best = -np.inf
    for i in range(ROLL_SUB_KEEP_START[r], ROLL_SUB_KEEP_START[r + 1]):
        best = max(best, keeps[j, ROLL_SUB_KEEPS[i], 0])
    return best


@njit(cache=True, inline="always")
def best_keep(r, keeps, j, c, best):
    """The first keep of roll ``r`` in rank order (0 to 5 dice) whose K_j
    (``keeps[j, k, c]``) is within ``EV_TIE`` of ``best`` (= V_j(r)); a keep of all five
    dice is scoring now."""
    start = ROLL_SUB_KEEP_START[r]
    for i in range(start, ROLL_SUB_KEEP_START[r + 1]):
        if best - keeps[j, ROLL_SUB_KEEPS[i], c] <= EV_TIE:
            return ROLL_SUB_KEEPS[i]
    return ROLL_SUB_KEEPS[start]


@njit(cache=True, inline="always")
def choose_keep(r, j, c, keeps, bests, known):
    """The keep (index) of roll ``r`` with ``j`` rolls left in column ``c`` (``keeps`` and
    ``bests`` of a played turn): :func:`best_keep`. V_j(r) is ``bests`` when ``known``,
    else the largest K_j of the roll's keeps (the same number)."""
    best = bests[j, FIRST_ROLL_KEEP + r, c]
    if not known:
        best = -np.inf
        for i in range(ROLL_SUB_KEEP_START[r], ROLL_SUB_KEEP_START[r + 1]):
            best = max(best, keeps[j, ROLL_SUB_KEEPS[i], c])
    return best_keep(r, keeps, j, c, best)


@njit(cache=True)
def choose(r, j, succ, keeps, bests, rules, t):
    """The policy's move for roll ``r`` with ``j`` rolls left (column 0 of ``t``, a
    ``PolicyTurn`` played to depth 1 at least): (keep, -1) to reroll, or (-1, i) to
    score now in option ``i`` of the roll (of ``t.plan``, see ``turn.option``): with no
    roll left, or when keeping all five dice is best."""
    if j > 0:
        k = choose_keep(r, j, 0, keeps, bests, j < rules.n_rerolls)
        if KEEP_SIZE[k] < 5:
            return k, -1
    best_boxes(succ, np.int64(0), t.plan, rules, r, r + 1, t.choice)
    return -1, t.choice[r]


@njit(cache=True)
def final_choices(m, u, y, values, rules, out):
    """The expected-score policy's box of every final roll of state (m, u, y) (the
    table ``values``, no par): ``out`` (3, 252) int64 gets per roll its box, entry and
    Yahtzee bonus (points)."""
    n_boxes = rules.box_scores.shape[0]
    t = new_turn(n_boxes, rules.n_rerolls, np.int64(1))
    t.cols[0, 0] = u
    t.cols[1, 0] = y
    play_turns(m, np.int64(1), values, np.zeros(n_boxes), rules, t, np.int64(1))
    best_boxes(t.succ, np.int64(0), t.plan, rules, np.int64(0), np.int64(N_ROLLS), t.choice)
    scores = rules.box_scores
    for r in range(N_ROLLS):
        _, b, e, _ = option(t.plan, r, t.choice[r], scores)
        out[0, r] = b
        out[1, r] = e
        out[2, r] = plan_bonus(t.plan, r, y)


@njit(cache=True)
def best_keeps(values, evs, tie, out):
    """The best keep of every roll with each number of rolls left, by :func:`best_of`:
    ``out[j, r]`` (R + 1, 252) int64 for ``j >= 1`` from ``values`` and ``evs`` (R + 1,
    462), each keep's value (a probability, ``tie`` ``P_TIE``; or the expected score,
    ``values`` = ``evs`` and ``tie`` ``EV_TIE``) and expected score with ``j`` rolls left;
    the candidates of roll ``r`` are its sub-keeps, 0 to 5 dice, ranked in keep order
    (their order in ``ROLL_SUB_KEEPS``).
    Row 0 is not set."""
    width = 0
    for r in range(N_ROLLS):
        width = max(width, ROLL_SUB_KEEP_START[r + 1] - ROLL_SUB_KEEP_START[r])
    p = np.empty(width)
    ev = np.empty(width)
    ranks = np.empty(width)  # float64, as the target simulator's: one compiled best_of
    for j in range(1, out.shape[0]):
        for r in range(N_ROLLS):
            start = ROLL_SUB_KEEP_START[r]
            n = ROLL_SUB_KEEP_START[r + 1] - start
            for i in range(n):
                k = ROLL_SUB_KEEPS[start + i]
                p[i] = values[j, k]
                ev[i] = evs[j, k]
                ranks[i] = i
            out[j, r] = ROLL_SUB_KEEPS[start + best_of(p, ev, ranks, n, tie)]


@njit(cache=True)
def turn_placements(m, y, rules, out):
    """Every option of every final roll of a turn of state (m, any subtotal, y): ``out``
    (3, >= 252 n_boxes) int64 gets per option its box, entry and Yahtzee bonus (points);
    returns how many (a placement made by several rolls is listed for each)."""
    plan = new_plan(rules.box_scores.shape[0])
    plan_turn(m, rules, plan)
    scores = rules.box_scores
    n = 0
    for r in range(N_ROLLS):
        for i in range(n_options(plan, r)):
            _, b, e, _ = option(plan, r, i, scores)
            out[0, n] = b
            out[1, n] = e
            out[2, n] = plan_bonus(plan, r, y)
            n += 1
    return n
