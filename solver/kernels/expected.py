"""numba kernels of the dynamic program. Plain arrays and the rule set's ``RuleArrays``
(``rules``) in, nothing checked.

For a turn-start state ``s = (m, u, y)`` (filled mask, capped upper subtotal, Yahtzee
box holds 50) and the 462 keeps ``k`` (rolls are the keeps of five dice):

    V_0(r)     = max over allowed boxes b of
                 points(r, b) + upper_bonus(u, b, r) + yahtzee_bonus(r, y) + E(m | b, u', y')
    K_j(k)     = (1/6) * sum_f K_j(k + f)   for |k| < 5,     K_j(r) = V_{j-1}(r)
    V_j(r)     = max over k a sub-multiset of r of K_j(k)   (computed as
                 B(k) = max(K_j(k), max_f B(k - f)), one die at a time)
    E(s)       = sum_r P(r) V_R(r),   R = rolls per turn - 1

``E`` of every state is computed level by level, from full cards back to the empty one.
All 64 upper subtotals and both flags of one mask are one vector of "columns", so the
inner loops run over contiguous columns and vectorise. A work array ``work`` of shape
(462, W) holds one value per keep and column: the rows of rolls hold ``V``, the other
rows ``K`` or ``B``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .. import _jit_cache
from ..game.dice import FIRST_ROLL_KEEP, N_KEEPS, ROLL_FIVE_FACE, ROLL_PROBABILITY
from ..game.rules import N_UPPER, UPPER_TARGET
from .basics import (
    FAST_MATH,
    best_sub_keeps,
    entry_variant,
    expect_keeps,
    next_state,
    roll_entries,
)

_jit_cache.check()  # before any cached kernel is loaded

CHUNK = 32  # columns per pass: 462 x 32 float64 = 118 KB of work, kept in L2
# ``rules.unit`` (1.0, read at run time) multiplies every in-place running maximum: LLVM
# turns ``a[c] = max(a[c], x)`` into a conditional store, which does not vectorise; the
# exact multiplication by an opaque 1.0 keeps it a vector max (4 doubles per instruction).


@njit(cache=True, fastmath=FAST_MATH)
def final_roll_columns(m, cols_u, cols_y, values, rules, work, gathered):
    """Fill the roll rows of ``work[:, :W]`` with V_0, the best box for each final roll,
    for the W states (m, cols_u[c], cols_y[c]); ``rules`` is a ``RuleArrays``.

    ``gathered`` (n_boxes, 6, >=W) is scratch: for upper box b, row k is the value of
    entering k dice of its face; for a lower box, row 0 is E of the next state and row 1
    E of the next state with the Yahtzee flag set.
    """
    scores = rules.box_scores
    yahtzee_box = rules.yahtzee_box
    n_flags = rules.n_flags
    unit = rules.unit
    n_boxes = scores.shape[0]
    width = cols_u.shape[0]
    for b in range(n_boxes):
        if m >> b & 1:
            continue
        if b < N_UPPER:
            for k in range(6):
                p = k * (b + 1)
                for c in range(width):
                    nm, nu, ny, bonus = next_state(m, cols_u[c], cols_y[c], b, p,
                                                   rules.upper_bonus, yahtzee_box, n_flags)
                    gathered[b, k, c] = p + bonus + values[nm, nu, ny]
        else:
            for hit in range(2 if (b == yahtzee_box and n_flags == 2) else 1):
                for c in range(width):  # row ``hit``: an entry of 0 / above 0 points
                    nm, nu, ny, _ = next_state(m, cols_u[c], cols_y[c], b, hit,
                                               rules.upper_bonus, yahtzee_box, n_flags)
                    gathered[b, hit, c] = values[nm, nu, ny]
    n_rolls = scores.shape[1]
    boxes = np.empty(n_boxes, dtype=np.int64)
    entries = np.empty(n_boxes, dtype=np.int64)
    for r in range(n_rolls):
        row = work[FIRST_ROLL_KEEP + r]
        for c in range(width):
            row[c] = -np.inf
        for i in range(roll_entries(r, m, rules, boxes, entries)):
            b = boxes[i]
            p = entries[i]
            src = gathered[b, entry_variant(b, p, rules)]
            if b < N_UPPER:
                for c in range(width):
                    row[c] = max(row[c], src[c]) * unit
            else:
                for c in range(width):
                    row[c] = max(row[c], src[c] + p) * unit
        if ROLL_FIVE_FACE[r] >= 0 and n_flags == 2:
            for c in range(width):
                if cols_y[c] == 1:
                    row[c] += rules.yahtzee_bonus


@njit(cache=True, fastmath=FAST_MATH)
def _solve_columns(m, cols_u, cols_y, values, rules, work, gathered):
    width = cols_u.shape[0]
    final_roll_columns(m, cols_u, cols_y, values, rules, work, gathered)
    for _ in range(rules.n_rerolls):
        expect_keeps(work, width)
        best_sub_keeps(work, width, rules.unit)
    for c in range(width):
        total = 0.0
        for r in range(ROLL_PROBABILITY.shape[0]):
            total += ROLL_PROBABILITY[r] * work[FIRST_ROLL_KEEP + r, c]
        values[m, cols_u[c], cols_y[c]] = total


@njit(cache=True)
def _solve_mask(m, values, upper_class, rules):
    """E of every state of mask ``m``; returns the number of states (columns) set.

    ``upper_class[upper mask, u]`` is the representative subtotal of ``u`` (-1 when ``u``
    cannot occur): subtotals from which the bonus can no longer be reached, or any
    subtotal once the upper section is full, share one value, computed once and copied.
    """
    n_flags = rules.n_flags
    n_flag_here = n_flags if (m >> rules.yahtzee_box) & 1 else 1
    classes = upper_class[m & ((1 << N_UPPER) - 1)]
    n_cols = 0
    for u in range(UPPER_TARGET + 1):
        if classes[u] == u:
            n_cols += n_flag_here
    all_u = np.empty(n_cols, dtype=np.int64)
    all_y = np.empty(n_cols, dtype=np.int64)
    i = 0
    for y in range(n_flag_here):
        for u in range(UPPER_TARGET + 1):
            if classes[u] == u:
                all_u[i] = u
                all_y[i] = y
                i += 1
    work = np.empty((N_KEEPS, CHUNK))
    gathered = np.empty((rules.box_scores.shape[0], 6, CHUNK))
    for start in range(0, n_cols, CHUNK):
        stop = min(start + CHUNK, n_cols)
        _solve_columns(m, all_u[start:stop], all_y[start:stop], values, rules, work, gathered)
    states = 0
    for u in range(UPPER_TARGET + 1):
        rep = classes[u]
        if rep >= 0:
            states += n_flag_here
            if rep != u:
                for y in range(n_flag_here):
                    values[m, u, y] = values[m, rep, y]
    return states


@njit(cache=True, parallel=True)
def solve_level(masks, values, upper_class, rules):
    """Compute ``values[m]`` for every mask of one level (all E of the next level known);
    ``rules`` is a ``RuleArrays``. Returns the number of states set.
    """
    counted = np.zeros(masks.shape[0], dtype=np.int64)
    for i in prange(masks.shape[0]):
        counted[i] = _solve_mask(masks[i], values, upper_class, rules)
    return counted.sum()


@njit(cache=True)
def turn_snapshots(m, u, y, values, rules, out):
    """The whole turn of one state, for the advisor and the simulator.

    ``out`` (n_rerolls + 1, 462): ``out[0, roll rows]`` = V_0, the value of each final
    roll; ``out[j, k]`` for j >= 1 = value of keeping ``k`` (0 to 5 dice) with j rolls left.
    Values are points still to come from the start of this turn.
    """
    cols_u = np.array([u], dtype=np.int64)
    cols_y = np.array([y], dtype=np.int64)
    work = np.empty((N_KEEPS, 1))
    gathered = np.empty((rules.box_scores.shape[0], 6, 1))
    final_roll_columns(m, cols_u, cols_y, values, rules, work, gathered)
    out[0, :] = work[:, 0]
    for j in range(1, rules.n_rerolls + 1):
        expect_keeps(work, 1)
        out[j, :] = work[:, 0]
        best_sub_keeps(work, 1, rules.unit)
