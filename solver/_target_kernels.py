"""numba kernels of the target / win dynamic program. Plain arrays in, nothing checked.

The expected-score recurrence of ``_kernels`` with a vector per state instead of a
number. The vector axis is ``a``, the points scored so far; ``V_s(a)`` is the largest
expected utility ``U(a + points still to come)`` from the start of a turn in state ``s``
(for a target ``X``: ``U = 1[final >= X]``, so ``V_s(a) = W(s, X - a)``). Entering ``p``
points reads the next state's vector at ``a + p``; every maximum is taken entry by entry
(each ``a`` is its own optimisation):

    V_0(r)[a] = max over allowed boxes b of V_{s'}(a + points + bonuses)
    K_j(k)[a] = (1/6) sum_f K_j(k + f)[a],      V_j(r)[a] = max over sub-keeps k of K_j(k)[a]
    V_s(a)    = sum_r P(r) V_R(r)[a]

A state's vector is stored on ``[lo, hi]`` only: below ``lo`` it is ``below`` (0: the
utility cannot be reached, or ``a`` cannot occur there), above ``hi`` it is ``above``
(1 for a target: already reached). Columns are processed ``CHUNK`` at a time (a task is
one state and one chunk of its ``a`` range), so every inner loop runs over ``CHUNK``
contiguous doubles (a compile-time constant: unrolled, vectorised) and the work array of
462 x CHUNK stays in L1/L2.

Pair mode (win objective): a second vector (P(tie)) is carried along and every maximum
becomes a lexicographic one on (primary, secondary): the secondary follows the choice
that maximises the primary (ties: the larger secondary).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from . import _jit_cache
from ._basics import SIXTH, joker_lowest_tier, next_state, placement_entry
from .dice import (
    FIRST_ROLL_KEEP,
    KEEP_CHILD,
    KEEP_SUB_COUNT,
    KEEP_SUB_LIST,
    N_KEEPS,
    N_ROLLS,
    ROLL_FIVE_FACE,
)
from .rules import N_UPPER

_jit_cache.check()  # before any cached kernel is loaded

CHUNK = 16
"""Columns (values of ``a``) per task: 462 x 16 doubles = 59 KB of work."""


@njit(cache=True)
def fill_buffers(m, u, y, c0, rules, slot, nxt_start, nxt_lo, nxt_hi, nxt_vals, below, above,
                 bufs):
    """``bufs[6 b + k, i]`` = V of the state after entering variant ``k`` in open box ``b``,
    at ``a = c0 + i`` (+ the upper bonus that entry earns). Upper box b: variant k = k
    dice of its face; lower box: variant 0 (entry 0 or any entry) / 1 (a Yahtzee of 50)."""
    n_boxes = bufs.shape[0] // 6
    length = bufs.shape[1]
    yahtzee_box = rules.yahtzee_box
    n_flags = rules.n_flags
    for b in range(n_boxes):
        if m >> b & 1:
            continue
        if b < N_UPPER:
            variants = 6
        elif b == yahtzee_box and n_flags == 2:
            variants = 2
        else:
            variants = 1
        for k in range(variants):
            e = k * (b + 1) if b < N_UPPER else k
            nm, nu, ny, bonus = next_state(m, u, y, b, e, rules.upper_bonus, yahtzee_box,
                                           n_flags)
            j = slot[nm, nu, ny]
            start = nxt_start[j]
            lo = nxt_lo[j]
            hi = nxt_hi[j]
            base = c0 + int(bonus)
            out = bufs[6 * b + k]
            first = min(max(lo - base, 0), length)
            last = min(max(hi - base + 1, first), length)
            for i in range(first):
                out[i] = below
            src = start - lo + base
            for i in range(first, last):
                out[i] = nxt_vals[src + i]
            for i in range(last, length):
                out[i] = above


@njit(cache=True)
def roll_plan(m, y, rules, src, off, start):
    """The final-roll choices of state (m, y), the same for every column: for roll ``r``,
    entries ``start[r]..start[r + 1]`` of ``src`` (row of ``bufs``: box and variant) and
    ``off`` (points entered + Yahtzee bonus) are the boxes the rules allow."""
    yahtzee_box = rules.yahtzee_box
    n_flags = rules.n_flags
    n_boxes = rules.box_scores.shape[0]
    n = 0
    for r in range(N_ROLLS):
        start[r] = n
        f = ROLL_FIVE_FACE[r]
        shift = int(rules.yahtzee_bonus) if (f >= 0 and n_flags == 2 and y == 1) else 0
        low = joker_lowest_tier(f, m, rules.joker_tier) if f >= 0 else 0
        for b in range(n_boxes):
            if m >> b & 1:
                continue
            p = placement_entry(r, b, m, rules, low)
            if p < 0:
                continue
            if b < N_UPPER:
                v = p // (b + 1)
            else:
                v = 1 if (b == yahtzee_box and p > 0 and n_flags == 2) else 0
            src[n] = 6 * b + v
            off[n] = p + shift
            n += 1
    start[N_ROLLS] = n


@njit(cache=True, fastmath=True)
def final_roll_rows(bufs, src, off, start, unit, work):
    """V_0 at the roll rows of ``work`` (CHUNK columns): the best allowed box per column,
    following the state's :func:`roll_plan`."""
    for r in range(N_ROLLS):
        row = work[FIRST_ROLL_KEEP + r]
        k0 = start[r]
        first = bufs[src[k0], off[k0]:off[k0] + CHUNK]
        for c in range(CHUNK):
            row[c] = first[c]
        for k in range(k0 + 1, start[r + 1]):
            other = bufs[src[k], off[k]:off[k] + CHUNK]
            for c in range(CHUNK):
                row[c] = max(row[c], other[c]) * unit


@njit(cache=True)
def final_roll_rows_pair(bufs, bufs2, src, off, start, work, work2):
    """As :func:`final_roll_rows`, carrying the secondary vector of the chosen box
    (lexicographic maximum: ties in the primary go to the larger secondary)."""
    for r in range(N_ROLLS):
        row = work[FIRST_ROLL_KEEP + r]
        row2 = work2[FIRST_ROLL_KEEP + r]
        for c in range(CHUNK):
            row[c] = -1.0
            row2[c] = -1.0
        for k in range(start[r], start[r + 1]):
            one = bufs[src[k], off[k]:off[k] + CHUNK]
            two = bufs2[src[k], off[k]:off[k] + CHUNK]
            for c in range(CHUNK):
                x = one[c]
                x2 = two[c]
                better = x > row[c] or (x == row[c] and x2 > row2[c])
                row[c] = x if better else row[c]
                row2[c] = x2 if better else row2[c]


@njit(cache=True)
def expect_keeps_chunk(work):
    """``_basics.expect_keeps`` for the compile-time width CHUNK (unrolled, vectorised)."""
    for k in range(FIRST_ROLL_KEEP - 1, -1, -1):
        out = work[k]
        a0 = work[KEEP_CHILD[k, 0]]
        a1 = work[KEEP_CHILD[k, 1]]
        a2 = work[KEEP_CHILD[k, 2]]
        a3 = work[KEEP_CHILD[k, 3]]
        a4 = work[KEEP_CHILD[k, 4]]
        a5 = work[KEEP_CHILD[k, 5]]
        for c in range(CHUNK):
            out[c] = (a0[c] + a1[c] + a2[c] + a3[c] + a4[c] + a5[c]) * SIXTH


@njit(cache=True)
def best_sub_keeps_chunk(work, unit):
    """B(k) = max(K(k), B(k - f)) in place, smallest keeps first; roll rows become V.

    ``_basics.best_sub_keeps`` for a compile-time width, with the sub-keeps of a keep
    combined in registers (one load and one store of ``out`` per keep, not per sub-keep):
    1.3x faster on the vectors' long runs of columns."""
    for k in range(1, N_KEEPS):
        out = work[k]
        n = KEEP_SUB_COUNT[k]
        s0 = work[KEEP_SUB_LIST[k, 0]]
        if n == 1:
            for c in range(CHUNK):
                out[c] = max(out[c], s0[c]) * unit
        elif n == 2:
            s1 = work[KEEP_SUB_LIST[k, 1]]
            for c in range(CHUNK):
                out[c] = max(max(out[c], s0[c]), s1[c]) * unit
        elif n == 3:
            s1 = work[KEEP_SUB_LIST[k, 1]]
            s2 = work[KEEP_SUB_LIST[k, 2]]
            for c in range(CHUNK):
                out[c] = max(max(out[c], s0[c]), max(s1[c], s2[c])) * unit
        elif n == 4:
            s1 = work[KEEP_SUB_LIST[k, 1]]
            s2 = work[KEEP_SUB_LIST[k, 2]]
            s3 = work[KEEP_SUB_LIST[k, 3]]
            for c in range(CHUNK):
                out[c] = max(max(out[c], s0[c]), max(max(s1[c], s2[c]), s3[c])) * unit
        else:
            s1 = work[KEEP_SUB_LIST[k, 1]]
            s2 = work[KEEP_SUB_LIST[k, 2]]
            s3 = work[KEEP_SUB_LIST[k, 3]]
            s4 = work[KEEP_SUB_LIST[k, 4]]
            for c in range(CHUNK):
                out[c] = max(max(max(out[c], s0[c]), max(s1[c], s2[c])),
                             max(s3[c], s4[c])) * unit


@njit(cache=True)
def expect_keeps_pair(work, work2):
    expect_keeps_chunk(work)
    expect_keeps_chunk(work2)


@njit(cache=True)
def best_sub_keeps_pair(work, work2):
    """Lexicographic running maximum of (primary, secondary) over the sub-keeps."""
    for k in range(1, N_KEEPS):
        out = work[k]
        out2 = work2[k]
        for j in range(KEEP_SUB_COUNT[k]):
            src = work[KEEP_SUB_LIST[k, j]]
            src2 = work2[KEEP_SUB_LIST[k, j]]
            for c in range(CHUNK):
                x = src[c]
                x2 = src2[c]
                better = x > out[c] or (x == out[c] and x2 > out2[c])
                out[c] = x if better else out[c]
                out2[c] = x2 if better else out2[c]


@njit(cache=True)
def roll_expectation(work, roll_probability, out):
    """out[c] = sum_r P(r) work[roll r, c]."""
    for c in range(CHUNK):
        out[c] = 0.0
    for r in range(N_ROLLS):
        p = roll_probability[r]
        row = work[FIRST_ROLL_KEEP + r]
        for c in range(CHUNK):
            out[c] += p * row[c]


@njit(cache=True, parallel=True)
def vector_level(task_state, task_c0, lv_m, lv_u, lv_y, lv_start, lv_lo, lv_vals,
                 slot, nxt_start, nxt_lo, nxt_hi, nxt_vals, below, above, rules,
                 roll_probability, pmax):
    """Every task (state ``task_state[t]``, columns ``task_c0[t]`` + 0..CHUNK-1) of one
    level: writes ``lv_vals[lv_start[i] + a - lv_lo[i]]``. ``slot[m, u, y]`` indexes the
    next level's ``nxt_*`` arrays (CSR offsets, ranges, flat values)."""
    n_tasks = task_state.shape[0]
    n_blocks = min(n_tasks, 256)
    n_boxes = rules.box_scores.shape[0]
    for blk in prange(n_blocks):
        work = np.empty((N_KEEPS, CHUNK))
        bufs = np.empty((6 * n_boxes, CHUNK + pmax + 1))
        total = np.empty(CHUNK)
        src = np.empty(N_ROLLS * n_boxes, dtype=np.int64)
        off = np.empty(N_ROLLS * n_boxes, dtype=np.int64)
        start = np.empty(N_ROLLS + 1, dtype=np.int64)
        planned = -1
        # contiguous runs of tasks: consecutive tasks mostly share a state (and its plan)
        for t in range(blk * n_tasks // n_blocks, (blk + 1) * n_tasks // n_blocks):
            i = task_state[t]
            c0 = task_c0[t]
            m = lv_m[i]
            y = lv_y[i]
            if i != planned:
                roll_plan(m, y, rules, src, off, start)
                planned = i
            fill_buffers(m, lv_u[i], y, c0, rules, slot, nxt_start, nxt_lo, nxt_hi, nxt_vals,
                         below, above, bufs)
            final_roll_rows(bufs, src, off, start, rules.unit, work)
            for _ in range(rules.n_rerolls):
                expect_keeps_chunk(work)
                best_sub_keeps_chunk(work, rules.unit)
            roll_expectation(work, roll_probability, total)
            base = lv_start[i] + c0 - lv_lo[i]
            for c in range(CHUNK):
                lv_vals[base + c] = total[c]


@njit(cache=True, parallel=True)
def vector_level_pair(task_state, task_c0, lv_m, lv_u, lv_y, lv_start, lv_lo, lv_vals,
                      lv_vals2, slot, nxt_start, nxt_lo, nxt_hi, nxt_vals, nxt_vals2, below,
                      above, above2, rules, roll_probability, pmax):
    """:func:`vector_level` with a secondary vector (lexicographic maxima)."""
    n_tasks = task_state.shape[0]
    n_blocks = min(n_tasks, 256)
    n_boxes = rules.box_scores.shape[0]
    for blk in prange(n_blocks):
        work = np.empty((N_KEEPS, CHUNK))
        work2 = np.empty((N_KEEPS, CHUNK))
        bufs = np.empty((6 * n_boxes, CHUNK + pmax + 1))
        bufs2 = np.empty((6 * n_boxes, CHUNK + pmax + 1))
        total = np.empty(CHUNK)
        src = np.empty(N_ROLLS * n_boxes, dtype=np.int64)
        off = np.empty(N_ROLLS * n_boxes, dtype=np.int64)
        start = np.empty(N_ROLLS + 1, dtype=np.int64)
        planned = -1
        for t in range(blk * n_tasks // n_blocks, (blk + 1) * n_tasks // n_blocks):
            i = task_state[t]
            c0 = task_c0[t]
            m = lv_m[i]
            y = lv_y[i]
            if i != planned:
                roll_plan(m, y, rules, src, off, start)
                planned = i
            fill_buffers(m, lv_u[i], y, c0, rules, slot, nxt_start, nxt_lo, nxt_hi, nxt_vals,
                         below, above, bufs)
            fill_buffers(m, lv_u[i], y, c0, rules, slot, nxt_start, nxt_lo, nxt_hi, nxt_vals2,
                         below, above2, bufs2)
            final_roll_rows_pair(bufs, bufs2, src, off, start, work, work2)
            for _ in range(rules.n_rerolls):
                expect_keeps_pair(work, work2)
                best_sub_keeps_pair(work, work2)
            base = lv_start[i] + c0 - lv_lo[i]
            roll_expectation(work, roll_probability, total)
            for c in range(CHUNK):
                lv_vals[base + c] = total[c]
            roll_expectation(work2, roll_probability, total)
            for c in range(CHUNK):
                lv_vals2[base + c] = total[c]


@njit(cache=True)
def turn_vectors(m, u, y, c0, slot, nxt_start, nxt_lo, nxt_hi, nxt_vals, nxt_vals2, below,
                 above, above2, pair, rules, roll_probability, pmax, out, out2, value):
    """The whole turn of one state at columns ``c0`` + 0..CHUNK-1, for the advisor.

    ``out`` (n_rerolls + 1, 462, CHUNK): ``out[0, roll rows]`` = V_0; ``out[j, k]`` for
    j >= 1 = K_j(k), the value of keeping ``k`` with ``j`` rolls left. ``out2``: the
    secondary vector in pair mode (else untouched). ``value`` (2, CHUNK): V of the state
    (row 0) and its secondary (row 1).
    """
    n_boxes = rules.box_scores.shape[0]
    work = np.empty((N_KEEPS, CHUNK))
    work2 = np.empty((N_KEEPS, CHUNK))
    bufs = np.empty((6 * n_boxes, CHUNK + pmax + 1))
    bufs2 = np.empty((6 * n_boxes, CHUNK + pmax + 1))
    src = np.empty(N_ROLLS * n_boxes, dtype=np.int64)
    off = np.empty(N_ROLLS * n_boxes, dtype=np.int64)
    start = np.empty(N_ROLLS + 1, dtype=np.int64)
    roll_plan(m, y, rules, src, off, start)
    fill_buffers(m, u, y, c0, rules, slot, nxt_start, nxt_lo, nxt_hi, nxt_vals, below, above,
                 bufs)
    if pair:
        fill_buffers(m, u, y, c0, rules, slot, nxt_start, nxt_lo, nxt_hi, nxt_vals2, below,
                     above2, bufs2)
        final_roll_rows_pair(bufs, bufs2, src, off, start, work, work2)
    else:
        final_roll_rows(bufs, src, off, start, rules.unit, work)
    out[0] = work
    out2[0] = work2
    for j in range(1, rules.n_rerolls + 1):
        if pair:
            expect_keeps_pair(work, work2)
            out[j] = work
            out2[j] = work2
            best_sub_keeps_pair(work, work2)
        else:
            expect_keeps_chunk(work)
            out[j] = work
            best_sub_keeps_chunk(work, rules.unit)
    roll_expectation(work, roll_probability, value[0])
    if pair:
        roll_expectation(work2, roll_probability, value[1])
