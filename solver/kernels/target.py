"""numba kernels of the target / win dynamic program: the turn engine
(:mod:`solver.kernels.turn`) with a shifting gather.

The expected-score recurrence with a vector per state instead of a number. The vector
axis is ``a``, the points scored so far; ``V_s(a)`` is the largest expected utility
``U(a + points still to come)`` from the start of a turn in state ``s`` (for a target
``X``: ``U = 1[final >= X]``, so ``V_s(a) = W(s, X - a)``). Entering ``p`` points reads
the next state's vector at ``a + p``; every maximum is taken entry by entry (each ``a``
is its own optimisation):

    G(o)[a] = V_{s'}(a + points + upper bonus),   and the Yahtzee bonus shifts it too

A state's vector is stored on ``[lo, hi]`` only (a :class:`LevelStore`): below ``lo`` it
is 0 (the utility cannot be reached, or ``a`` cannot occur there), above ``hi`` it is
``above`` (1 for a target: already reached). A task is one state and at most ``WIDE``
columns of its range. The win objective is the same recurrence on another utility
(``solver.target.Utility.win_share``): one vector, no second one.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .. import _jit_cache
from ..game.dice import FIRST_ROLL_KEEP, N_KEEPS, N_ROLLS, ROLL_FIVE_FACE, YAHTZEE_ROLLS
from .basics import FAST_MATH, next_state
from .level import LevelStore
from .threads import run_blocks
from .turn import (
    five_alike_option,
    new_plan,
    option,
    plain_option,
    plan_bonus,
    plan_turn,
    rerolls,
    roll_expectation,
)
from .turn import successor_points as points_of

_jit_cache.check()  # before any cached kernel is loaded

__all__ = ["LevelStore", "Spec", "WIDE", "STEP", "vector_level", "turn_vectors"]

WIDE = 128
"""Columns (values of ``a``) per task at most: the work array, 462 x 128 doubles = 473 KB,
stays in L2. The width is a run-time value, so LLVM's loop vectoriser turns every inner
loop into full-width SIMD (a compile-time width of 16 is unrolled into scalar code)."""

STEP = 16
"""A state's stored range of ``a`` is padded to a multiple of STEP columns."""


class Spec(NamedTuple):
    """The utility's value above the stored ranges (``above``: 1) and ``pmax``, the most
    points one turn adds (the gather reads that far past a column)."""

    above: float
    pmax: int


class Scratch(NamedTuple):
    """Work arrays of one task (:func:`new_scratch`): the state's ``plan`` and its
    ``reads`` (:func:`plan_reads`); ``bufs`` (6 n_boxes, width + pmax + 1), each
    successor's vector shifted (:func:`gather`); ``work`` (462, width); ``value``
    (width,): V of the state."""

    plan: tuple
    reads: np.ndarray
    bufs: np.ndarray
    work: np.ndarray
    value: np.ndarray


@njit(cache=True)
def new_scratch(n_boxes, width, spec):
    """Scratch of tasks of up to ``width`` columns."""
    return Scratch(new_plan(n_boxes), np.empty((2, N_ROLLS * n_boxes + N_ROLLS + 1),
                                               dtype=np.int64),
                   np.empty((6 * n_boxes, width + spec.pmax + 1)),
                   np.empty((N_KEEPS, width)), np.zeros(width))


@njit(cache=True)
def plan_reads(m, y, rules, t):
    """Plan the turn of a state of mask ``m`` and flag ``y`` into scratch ``t``: ``t.plan``
    (:func:`~solver.kernels.turn.plan_turn`) and ``t.reads``, the plan's options laid
    flat for the final rolls: option ``o`` of roll ``r``, for ``start[r] <= o <
    start[r + 1]`` (``start = t.reads[0, -N_ROLLS - 1:]``), reads row ``t.reads[0, o]``
    of ``bufs`` from column ``t.reads[1, o]`` (:func:`option_read`). Read once per state,
    not once per task: the plan's tuple costs numba reference counts at every read."""
    plan_turn(m, rules, t.plan)
    _flat_reads(t.plan, y, rules.box_scores, t.reads[0], t.reads[1])


@njit(cache=True)
def _flat_reads(plan, y, scores, rows, cols):
    first = rows.shape[0] - N_ROLLS - 1
    n_open, bonus = plan.size[1], plan_bonus(plan, YAHTZEE_ROLLS[0], y)
    open_box, five_start = plan.open_box, plan.five_start
    row, box, entry = plan.row, plan.box, plan.entry
    n = 0
    for r in range(N_ROLLS):  # option_read, the plan's arrays unpacked once
        rows[first + r] = n
        f = ROLL_FIVE_FACE[r]
        for i in range(n_open if f < 0 else five_start[f + 1] - five_start[f]):
            if f < 0:
                rows[n], _, _, cols[n] = plain_option(open_box[i], r, scores)
            else:
                rows[n], _, _, add = five_alike_option(five_start[f] + i, row, box, entry)
                cols[n] = add + bonus
            n += 1
    rows[first + N_ROLLS] = n


@njit(cache=True)
def gather(m, u, y, c0, width, rules, plan, slot, nxt, above, bufs, pmax):
    """``bufs[row, i]`` = V of successor ``row`` of the plan at ``a = c0 + i`` + its
    points and upper bonus, for ``i < width + pmax + 1`` (``above`` above a range)."""
    vals = nxt.vals
    length = width + pmax + 1
    for i in range(plan.size[0]):
        b = plan.succ_box[i]
        e = plan.succ_entry[i]
        nm, nu, ny, bonus = next_state(m, u, y, b, e, rules.upper_bonus, rules.yahtzee_box,
                                       rules.n_flags)
        j = slot[nm, nu, ny]
        lo = nxt.lo[j]
        base = c0 + int(bonus) + points_of(b, e)
        out = bufs[plan.succ_row[i]]
        first = min(max(lo - base, 0), length)
        last = min(max(nxt.hi[j] - base + 1, first), length)
        for c in range(first):
            out[c] = 0.0
        src = nxt.start[j] - lo + base
        for c in range(first, last):
            out[c] = vals[src + c]
        for c in range(last, length):
            out[c] = above


@njit(cache=True, inline="always")
def option_read(plan, r, i, scores, y):
    """(successor row, first column) option ``i`` of final roll ``r`` reads in ``bufs``
    in a state of flag ``y``: shifted by its entry (a lower box) and the roll's Yahtzee
    bonus (``scores``: ``RuleArrays.box_scores``)."""
    k, _, _, add = option(plan, r, i, scores)
    return k, add + plan_bonus(plan, r, y)


@njit(cache=True, fastmath=FAST_MATH)
def final_rolls(reads, bufs, unit, work, width):
    """V_0 at the roll rows of ``work`` (columns ``0..width-1``): the best option per
    column, from the flat ``reads`` of :func:`plan_reads`, up to six options per pass
    over the columns (:func:`_options_max`; three per pass took a third longer)."""
    rows, cols = reads[0], reads[1]
    first = rows.shape[0] - N_ROLLS - 1
    for r in range(N_ROLLS):
        k = FIRST_ROLL_KEEP + r
        o, end = rows[first + r], rows[first + r + 1]
        for c in range(width if o == end else 0):  # no option (never, as rules go)
            work[k, c] = -1.0
        fresh = True
        while o < end:  # options o .. o + 5 (the last one repeated when fewer are left)
            _options_max(work, k, bufs, rows, cols, o, end - 1, unit, width, fresh)
            fresh = False
            o += 6


@njit(cache=True, fastmath=FAST_MATH)
def _options_max(work, k, bufs, rows, cols, o, last, unit, width, fresh):
    """Row ``k`` of ``work`` = the maximum of options ``o .. o + 5`` (none past ``last``:
    the last one stands for them; an option named twice counts once), each reading row
    ``rows[o]`` of ``bufs`` from column ``cols[o]``, and, unless ``fresh``, of row ``k``
    itself. The columns are unsigned, so numba adds no wraparound test to the index and
    LLVM keeps SIMD loads."""
    i0, i1, i2 = rows[o], rows[min(o + 1, last)], rows[min(o + 2, last)]
    i3, i4, i5 = rows[min(o + 3, last)], rows[min(o + 4, last)], rows[min(o + 5, last)]
    u0, u1 = np.uint64(cols[o]), np.uint64(cols[min(o + 1, last)])
    u2, u3 = np.uint64(cols[min(o + 2, last)]), np.uint64(cols[min(o + 3, last)])
    u4, u5 = np.uint64(cols[min(o + 4, last)]), np.uint64(cols[min(o + 5, last)])
    if fresh:
        for c in range(width):
            uc = np.uint64(c)
            work[k, c] = max(max(max(bufs[i0, u0 + uc], bufs[i1, u1 + uc]),
                                 max(bufs[i2, u2 + uc], bufs[i3, u3 + uc])),
                             max(bufs[i4, u4 + uc], bufs[i5, u5 + uc])) * unit
    else:
        for c in range(width):
            uc = np.uint64(c)
            work[k, c] = max(max(max(bufs[i0, u0 + uc], bufs[i1, u1 + uc]),
                                 max(bufs[i2, u2 + uc], bufs[i3, u3 + uc])),
                             max(max(bufs[i4, u4 + uc], bufs[i5, u5 + uc]),
                                 work[k, c])) * unit


@njit(cache=True)
def turn_columns(m, u, y, c0, width, rules, slot, nxt, spec, t, keeps, bests):
    """One state's turn at columns ``c0 .. c0 + width - 1``, ``t`` planned for it
    (:func:`plan_reads`): ``t.value[:width]`` = V of the state; the stages go to
    ``keeps`` / ``bests`` when they have rows (see :func:`~solver.kernels.turn.rerolls`)."""
    gather(m, u, y, c0, width, rules, t.plan, slot, nxt, spec.above, t.bufs, spec.pmax)
    final_rolls(t.reads, t.bufs, rules.unit, t.work, width)
    rerolls(t.work, width, rules, keeps, bests, np.bool_(True))
    roll_expectation(t.work, width, t.value)


def vector_level(tasks, here, slot, nxt, spec, rules, blocks=256):
    """Every task (row of ``tasks``: state ``i``, first column, width) of one level (or
    a piece of it): writes ``here.vals[here.start[i] + a - here.lo[i]]`` from the next
    level's ``nxt``; ``slot[m, u, y]`` indexes ``nxt``. In up to ``blocks`` blocks of
    contiguous tasks on numba's threads (the same values in any number of blocks)."""
    wide = np.int64(tasks[:, 2].max()) if tasks.shape[0] else np.int64(1)
    run_blocks(_vector_block, tasks.shape[0], blocks, tasks, here, slot, nxt, spec, rules,
               wide)


@njit(cache=True, nogil=True)
def _vector_block(begin, end, tasks, here, slot, nxt, spec, rules, wide):
    """Tasks ``begin .. end - 1`` of :func:`vector_level`, none wider than ``wide``."""
    t = new_scratch(rules.box_scores.shape[0], wide, spec)
    no_stages = np.empty((0, N_KEEPS, 1))
    planned = -1
    # contiguous runs of tasks: consecutive tasks mostly share a state (and its plan)
    for task in range(begin, end):
        i, c0, width = tasks[task, 0], tasks[task, 1], tasks[task, 2]
        if i != planned:
            plan_reads(here.m[i], here.y[i], rules, t)
            planned = i
        turn_columns(here.m[i], here.u[i], here.y[i], c0, width, rules, slot, nxt, spec, t,
                     no_stages, no_stages)
        store_columns(here, i, c0, width, t.value)


@njit(cache=True)
def store_columns(here, i, c0, width, value):
    """Columns ``c0 .. c0 + width - 1`` of state ``i`` of ``here`` from ``value`` (>=
    width,)."""
    base = here.start[i] + c0 - here.lo[i]
    for c in range(width):
        here.vals[base + c] = value[c]


@njit(cache=True)
def turn_vectors(m, u, y, a, rules, slot, nxt, spec, keeps, bests):
    """The whole turn of one state at column ``a``, for the advisor and the target
    simulator: the stages in ``keeps`` (R + 1, 462, 1) (``keeps[0]`` = V_0 at the roll
    rows, ``keeps[j]`` = K_j) and ``bests`` (B_j, or no rows); returns V of the state."""
    t = new_scratch(rules.box_scores.shape[0], np.int64(1), spec)
    plan_reads(m, y, rules, t)
    turn_columns(m, u, y, a, np.int64(1), rules, slot, nxt, spec, t, keeps, bests)
    return t.value[0]
