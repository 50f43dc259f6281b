"""numba kernels of the target / win dynamic program. Plain arrays in, nothing checked.

The expected-score recurrence of ``kernels.expected`` with a vector per state instead of a
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
(1 for a target: already reached). A task is one state and at most ``WIDE`` columns of
its range; the reroll steps are the shared ``kernels.basics.expect_keeps`` / ``best_sub_keeps``
of the expected-score solver, unchanged, with the task's columns as their width.

Pair mode (win objective): a second vector (P(tie)) is carried along and every maximum
becomes a lexicographic one on (primary, secondary): the secondary follows the choice
that maximises the primary (ties: the larger secondary).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .. import _jit_cache
from ..game.dice import (
    FIRST_ROLL_KEEP,
    KEEP_SUB_COUNT,
    KEEP_SUB_LIST,
    N_KEEPS,
    N_ROLLS,
)
from ..game.rules import N_UPPER
from .basics import (
    FAST_MATH,
    best_sub_keeps,
    entry_variant,
    expect_keeps,
    next_state,
    roll_bonus,
    roll_entries,
)

_jit_cache.check()  # before any cached kernel is loaded

WIDE = 128
"""Columns (values of ``a``) per task at most: the work array, 462 x 128 doubles = 473 KB,
stays in L2. The width is a run-time value, so LLVM's loop vectoriser turns every inner
loop into full-width SIMD (a compile-time width of 16 is unrolled into scalar code)."""

STEP = 16
"""A state's stored range of ``a`` is padded to a multiple of STEP columns."""


@njit(cache=True)
def fill_buffers(m, u, y, c0, width, rules, slot, nxt_start, nxt_lo, nxt_hi, nxt_vals, below,
                 above, bufs):
    """``bufs[6 b + k, i]`` = V of the state after entering variant ``k`` in open box ``b``,
    at ``a = c0 + i`` (+ the upper bonus that entry earns), for ``i < width + pmax + 1``.
    Upper box b: variant k = k dice of its face; lower box: variant 0 (entry 0 or any
    entry) / 1 (a Yahtzee of 50)."""
    n_boxes = bufs.shape[0] // 6
    length = width + bufs.shape[1] - WIDE
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
    n = 0
    for r in range(N_ROLLS):
        start[r] = n
        shift = roll_bonus(r, y, rules)
        found = roll_entries(r, m, rules, src[n:], off[n:])
        for i in range(n, n + found):
            b = src[i]
            p = off[i]
            src[i] = 6 * b + entry_variant(b, p, rules)
            off[i] = p + shift
        n += found
    start[N_ROLLS] = n


@njit(cache=True, fastmath=FAST_MATH)
def final_roll_rows(bufs, src, off, start, unit, work, width):
    """V_0 at the roll rows of ``work`` (columns ``0..width-1``): the best allowed box per
    column, following the state's :func:`roll_plan`."""
    for r in range(N_ROLLS):
        row = work[FIRST_ROLL_KEEP + r]
        k0 = start[r]
        first = bufs[src[k0], off[k0]:off[k0] + width]
        for c in range(width):
            row[c] = first[c]
        for k in range(k0 + 1, start[r + 1]):
            other = bufs[src[k], off[k]:off[k] + width]
            for c in range(width):
                row[c] = max(row[c], other[c]) * unit


@njit(cache=True)
def lexicographic_max(out, out2, one, two, width):
    """``(out, out2) = max((out, out2), (one, two))`` entry by entry, lexicographically:
    the secondary follows the larger primary; equal primaries keep the larger secondary."""
    for c in range(width):
        x = one[c]
        x2 = two[c]
        better = x > out[c] or (x == out[c] and x2 > out2[c])
        out[c] = x if better else out[c]
        out2[c] = x2 if better else out2[c]


@njit(cache=True)
def final_roll_rows_pair(bufs, bufs2, src, off, start, work, work2, width):
    """As :func:`final_roll_rows`, carrying the secondary vector of the chosen box."""
    for r in range(N_ROLLS):
        row = work[FIRST_ROLL_KEEP + r]
        row2 = work2[FIRST_ROLL_KEEP + r]
        for c in range(width):
            row[c] = -1.0
            row2[c] = -1.0
        for k in range(start[r], start[r + 1]):
            lexicographic_max(row, row2, bufs[src[k], off[k]:off[k] + width],
                              bufs2[src[k], off[k]:off[k] + width], width)


@njit(cache=True)
def best_sub_keeps_pair(work, work2, width):
    """:func:`kernels.basics.best_sub_keeps` with lexicographic maxima of (primary, secondary)."""
    for k in range(1, N_KEEPS):
        for j in range(KEEP_SUB_COUNT[k]):
            sub = KEEP_SUB_LIST[k, j]
            lexicographic_max(work[k], work2[k], work[sub], work2[sub], width)


@njit(cache=True, fastmath=FAST_MATH)
def roll_expectation(work, roll_probability, out, width):
    """out[c] = sum_r P(r) work[roll r, c], for c < width."""
    for c in range(width):
        out[c] = 0.0
    for r in range(N_ROLLS):
        p = roll_probability[r]
        row = work[FIRST_ROLL_KEEP + r]
        for c in range(width):
            out[c] += p * row[c]


@njit(cache=True)
def turn_columns(m, u, y, c0, width, slot, nxt_start, nxt_lo, nxt_hi, nxt_vals, nxt_vals2,
                 below, above, above2, pair, rules, roll_probability, src, off, start, bufs,
                 bufs2, work, work2, value, out, out2):
    """One state's turn at columns ``c0 .. c0 + width - 1``: ``value[0, :width]`` = V of
    the state, ``value[1, :width]`` its secondary (pair mode). ``src/off/start``: the
    state's :func:`roll_plan`. When ``out`` has rows (n_rerolls + 1, 462, >= width), the
    turn's stages are kept: ``out[0]`` = V_0 at the roll rows, ``out[j]`` = K_j (the
    value of each keep with ``j`` rolls left); ``out2``: the same for the secondary."""
    keep = out.shape[0] > 0
    fill_buffers(m, u, y, c0, width, rules, slot, nxt_start, nxt_lo, nxt_hi, nxt_vals, below,
                 above, bufs)
    if pair:
        fill_buffers(m, u, y, c0, width, rules, slot, nxt_start, nxt_lo, nxt_hi, nxt_vals2,
                     below, above2, bufs2)
        final_roll_rows_pair(bufs, bufs2, src, off, start, work, work2, width)
    else:
        final_roll_rows(bufs, src, off, start, rules.unit, work, width)
    if keep:
        out[0, :, :width] = work[:, :width]
        out2[0, :, :width] = work2[:, :width]
    for j in range(1, rules.n_rerolls + 1):
        expect_keeps(work, width)
        if pair:
            expect_keeps(work2, width)
        if keep:
            out[j, :, :width] = work[:, :width]
            out2[j, :, :width] = work2[:, :width]
        if pair:
            best_sub_keeps_pair(work, work2, width)
        else:
            best_sub_keeps(work, width, rules.unit)
    roll_expectation(work, roll_probability, value[0], width)
    if pair:
        roll_expectation(work2, roll_probability, value[1], width)


@njit(cache=True, parallel=True)
def vector_level(task_state, task_c0, task_width, lv_m, lv_u, lv_y, lv_start, lv_lo, lv_vals,
                 lv_vals2, slot, nxt_start, nxt_lo, nxt_hi, nxt_vals, nxt_vals2, below, above,
                 above2, pair, rules, roll_probability, pmax):
    """Every task (state ``task_state[t]``, columns ``task_c0[t]`` + 0..task_width[t]-1)
    of one level: writes ``lv_vals[lv_start[i] + a - lv_lo[i]]`` (and ``lv_vals2`` in pair
    mode). ``slot[m, u, y]`` indexes the next level's ``nxt_*`` arrays (CSR offsets,
    ranges, flat values)."""
    n_tasks = task_state.shape[0]
    n_blocks = min(n_tasks, 256)
    n_boxes = rules.box_scores.shape[0]
    n_second = WIDE if pair else 1
    for blk in prange(n_blocks):
        work = np.empty((N_KEEPS, WIDE))
        work2 = np.empty((N_KEEPS, n_second))
        bufs = np.empty((6 * n_boxes, WIDE + pmax + 1))
        bufs2 = np.empty((6 * n_boxes, n_second + pmax + 1))
        value = np.empty((2, WIDE))
        src = np.empty(N_ROLLS * n_boxes, dtype=np.int64)
        off = np.empty(N_ROLLS * n_boxes, dtype=np.int64)
        start = np.empty(N_ROLLS + 1, dtype=np.int64)
        no_stages = np.empty((0, N_KEEPS, 1))
        planned = -1
        # contiguous runs of tasks: consecutive tasks mostly share a state (and its plan)
        for t in range(blk * n_tasks // n_blocks, (blk + 1) * n_tasks // n_blocks):
            i = task_state[t]
            c0 = task_c0[t]
            width = task_width[t]
            m = lv_m[i]
            y = lv_y[i]
            if i != planned:
                roll_plan(m, y, rules, src, off, start)
                planned = i
            turn_columns(m, lv_u[i], y, c0, width, slot, nxt_start, nxt_lo, nxt_hi, nxt_vals,
                         nxt_vals2, below, above, above2, pair, rules, roll_probability, src,
                         off, start, bufs, bufs2, work, work2, value, no_stages, no_stages)
            base = lv_start[i] + c0 - lv_lo[i]
            for c in range(width):
                lv_vals[base + c] = value[0, c]
            if pair:
                for c in range(width):
                    lv_vals2[base + c] = value[1, c]


@njit(cache=True)
def turn_vectors(m, u, y, c0, slot, nxt_start, nxt_lo, nxt_hi, nxt_vals, nxt_vals2, below,
                 above, above2, pair, rules, roll_probability, pmax, out, out2, value):
    """The whole turn of one state at column ``c0``, for the advisor.

    ``out`` (n_rerolls + 1, 462, 1): ``out[0, roll rows]`` = V_0; ``out[j, k]`` for
    j >= 1 = K_j(k), the value of keeping ``k`` with ``j`` rolls left. ``out2``: the
    secondary vector in pair mode. ``value`` (2, 1): V of the state (row 0) and its
    secondary (row 1).
    """
    n_boxes = rules.box_scores.shape[0]
    src = np.empty(N_ROLLS * n_boxes, dtype=np.int64)
    off = np.empty(N_ROLLS * n_boxes, dtype=np.int64)
    start = np.empty(N_ROLLS + 1, dtype=np.int64)
    roll_plan(m, y, rules, src, off, start)
    work = np.empty((N_KEEPS, 1))
    work2 = np.empty((N_KEEPS, 1))
    bufs = np.empty((6 * n_boxes, WIDE + pmax + 1))
    bufs2 = np.empty((6 * n_boxes, WIDE + pmax + 1))
    turn_columns(m, u, y, c0, 1, slot, nxt_start, nxt_lo, nxt_hi, nxt_vals, nxt_vals2, below,
                 above, above2, pair, rules, roll_probability, src, off, start, bufs, bufs2,
                 work, work2, value, out, out2)
