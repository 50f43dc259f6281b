"""numba kernels of the expected-score dynamic program: the turn engine
(:mod:`solver.kernels.turn`) with an additive gather.

The value of an option of final roll ``r`` in state ``s = (m, u, y)`` is what it adds:

    G(o) = points(r, b) + upper_bonus(u, b, r) + E(m | b, u', y')

``E`` of every state is computed level by level, from full cards back to the empty one.
All upper subtotals and both flags of one mask are one vector of *columns* (one plan per
mask; its Yahtzee bonus counted in the columns of flag 1), so
the inner loops run over contiguous columns and vectorise. ``succ`` (6 n_boxes, >= W)
holds per successor row and column the successor's points, upper bonus and ``E``; the
options of a lower box add their entry to it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import _jit_cache
from ..game.dice import FIRST_ROLL_KEEP, N_KEEPS, N_ROLLS, ROLL_COUNTS, YAHTZEE_ROLLS
from ..game.rules import N_UPPER, UPPER_TARGET
from .basics import FAST_MATH, next_state
from .threads import run_blocks
from .turn import (
    n_options,
    new_plan,
    option,
    plan_bonus,
    plan_turn,
    rerolls,
    roll_expectation,
    successor_points,
)

_jit_cache.check()  # before any cached kernel is loaded

_FACE_COUNTS = np.ascontiguousarray(ROLL_COUNTS.T)
"""(6, 252) int64: dice of face ``f + 1`` in each roll."""

CHUNK = 32  # columns per pass: 462 x 32 float64 = 118 KB of work, kept in L2
# ``rules.unit`` (1.0, read at run time) multiplies every in-place running maximum: LLVM
# turns ``a[c] = max(a[c], x)`` into a conditional store, which does not vectorise; the
# exact multiplication by an opaque 1.0 keeps it a vector max (4 doubles per instruction).


@njit(cache=True, fastmath=FAST_MATH)
def gather(m, cols_u, cols_y, values, par, rules, plan, succ):
    """``succ[row, c]`` = points + upper bonus + ``values`` of the next state, less the
    box's ``par`` (0 but for a fixed policy), for every successor row of ``plan`` and the
    states (m, cols_u[c], cols_y[c])."""
    width = cols_u.shape[0]
    for i in range(plan.size[0]):
        b = plan.succ_box[i]
        e = plan.succ_entry[i]
        p = successor_points(b, e)
        out = succ[plan.succ_row[i]]
        cost = par[b]
        for c in range(width):
            nm, nu, ny, bonus = next_state(m, cols_u[c], cols_y[c], b, e, rules.upper_bonus,
                                           rules.yahtzee_box, rules.n_flags)
            out[c] = p + bonus + values[nm, nu, ny] - cost


@njit(cache=True, fastmath=FAST_MATH)
def final_rolls(plan, succ, cols_y, rules, work):
    """V_0 at the roll rows of ``work`` (columns ``0..W-1``, W = len(cols_y)): the best
    option of each final roll, plus its Yahtzee bonus in the columns of flag 1."""
    scores = rules.box_scores
    width = cols_y.shape[0]
    if work.shape[1] == 1:  # arrays of one column (one state)
        return final_rolls_one(plan, succ, cols_y[0], rules, work)
    for r in range(N_ROLLS):
        w = FIRST_ROLL_KEEP + r  # (2-D indexing: a row view per roll costs two atomics)
        for c in range(width):
            work[w, c] = -np.inf
        for i in range(n_options(plan, r)):
            k, _, _, add = option(plan, r, i, scores)
            for c in range(width):
                work[w, c] = max(work[w, c], succ[k, c] + add) * rules.unit
        bonus = plan_bonus(plan, r, np.int64(1))  # in the columns of flag 1
        if bonus > 0:
            for c in range(width):
                work[w, c] += bonus * cols_y[c]


@njit(cache=True, fastmath=FAST_MATH)
def final_rolls_one(plan, succ, y, rules, work):
    """:func:`final_rolls` on arrays of one column (``work`` (462, 1), ``succ`` (6 n_boxes,
    1)), box by box over the rolls (a loop over the rolls vectorises where one over a
    single column cannot): the options of a roll that is not five alike are every open
    box at its ordinary points (``turn.option``); five alike are then redone from the
    plan's own options (the Joker), with their bonus."""
    scores = rules.box_scores
    v = work.reshape(-1)[FIRST_ROLL_KEEP:]
    s = succ.reshape(-1)
    for r in range(N_ROLLS):
        v[r] = -np.inf
    for i in range(plan.size[1]):
        b = plan.open_box[i]
        points = scores[b]
        if b < N_UPPER:
            counts = _FACE_COUNTS[b]
            for r in range(N_ROLLS):
                v[r] = max(v[r], s[6 * b + counts[r]]) * rules.unit
        else:
            base = s[6 * b]
            for r in range(N_ROLLS):
                v[r] = max(v[r], base + points[r]) * rules.unit
    for f in range(6):
        r = YAHTZEE_ROLLS[f]
        v[r] = -np.inf
        for i in range(n_options(plan, r)):
            k, _, _, add = option(plan, r, i, scores)
            v[r] = max(v[r], s[k] + add) * rules.unit
        v[r] += plan_bonus(plan, r, y)


BLOCKS = 64
"""Blocks of masks per level (:func:`solve_level`): masks differ in their number of
columns, so more blocks than threads keep the threads busy to the end."""


def solve_level(masks, values, read, upper_class, rules):
    """Compute ``values[m]`` for every mask of one level (all E of the next level known)
    and return the number of states set. ``read`` is a read-only view of ``values`` (what
    the turns read: the readers' own array type, so the builder, ``advise`` and the
    statistics share one compiled gather); ``rules`` is a ``RuleArrays``; ``upper_class``
    see :func:`_solve_masks`. Blocks of masks run on numba's threads
    (:func:`~solver.kernels.threads.run_blocks`), each writing only its own masks."""
    counted = np.zeros(masks.shape[0], dtype=np.int64)
    run_blocks(_solve_masks, masks.shape[0], BLOCKS, masks, values, read, upper_class, rules,
               counted)
    return int(counted.sum())


@njit(cache=True, nogil=True)
def _solve_masks(begin, end, masks, values, read, upper_class, rules, counted):
    """E of every state of the masks ``masks[begin:end]``, and in ``counted[i]`` the
    number of states of mask ``i`` set.

    ``upper_class[upper mask, u]`` is the representative subtotal of ``u`` (-1 when ``u``
    cannot occur): subtotals from which the bonus can no longer be reached, or any
    subtotal once the upper section is full, share one value, computed once and copied.
    The columns of a mask are its representatives, flag by flag.
    """
    n_boxes = rules.box_scores.shape[0]
    plan = new_plan(n_boxes)
    work = np.empty((N_KEEPS, CHUNK))
    succ = np.empty((6 * n_boxes, CHUNK))
    expected = np.empty(CHUNK)
    no_stages = np.empty((0, N_KEEPS, 1))
    no_par = np.zeros(n_boxes)
    all_u = np.empty(rules.n_flags * (UPPER_TARGET + 1), dtype=np.int64)
    all_y = np.empty_like(all_u)
    for i in range(begin, end):
        m = masks[i]
        n_flag_here = rules.n_flags if (m >> rules.yahtzee_box) & 1 else 1
        classes = upper_class[m & 63]
        n_cols = 0
        for y in range(n_flag_here):
            for u in range(UPPER_TARGET + 1):
                if classes[u] == u:
                    all_u[n_cols] = u
                    all_y[n_cols] = y
                    n_cols += 1
        plan_turn(m, rules, plan)
        for start in range(0, n_cols, CHUNK):
            stop = min(start + CHUNK, n_cols)
            cols_u = all_u[start:stop]
            cols_y = all_y[start:stop]
            gather(m, cols_u, cols_y, read, no_par, rules, plan, succ)
            final_rolls(plan, succ, cols_y, rules, work)
            rerolls(work, stop - start, rules, no_stages, no_stages, np.bool_(True))
            roll_expectation(work, stop - start, expected)
            for c in range(stop - start):
                values[m, cols_u[c], cols_y[c]] = expected[c]
        states = 0
        for u in range(UPPER_TARGET + 1):
            rep = classes[u]
            if rep >= 0:
                states += n_flag_here
                if rep != u:
                    for y in range(n_flag_here):
                        values[m, u, y] = values[m, rep, y]
        counted[i] = states


@njit(cache=True)
def turn_snapshots(m, u, y, values, rules, out):
    """The whole turn of one state, for the advisor: ``out`` (R + 1, 462, 1) gets
    ``out[0]`` = V_0 at the roll rows and ``out[j]`` = K_j, the value of each keep with
    ``j`` rolls left. Values are points still to come from the start of this turn."""
    n_boxes = rules.box_scores.shape[0]
    plan = new_plan(n_boxes)
    plan_turn(m, rules, plan)
    cols_y = np.full(1, y)
    succ = np.empty((6 * n_boxes, 1))
    work = np.empty((N_KEEPS, 1))
    gather(m, np.full(1, u), cols_y, values, np.zeros(n_boxes), rules, plan, succ)
    final_rolls(plan, succ, cols_y, rules, work)
    rerolls(work, np.int64(1), rules, out, out[:0], np.bool_(True))
