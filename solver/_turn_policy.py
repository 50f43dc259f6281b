"""numba kernels of one turn played by a fixed policy, shared by the stats and the simulator.

A policy is given by ``gain[b, e]``: what entering ``e`` points in box ``b`` is worth,
the Yahtzee bonus apart; for a lower box other than the Yahtzee box it must be
``e + gain[b, 0]``. For the optimal policy that is the entry, the upper bonus it
earns and ``E`` of the next state; the simple strategies use other gains. With it, for
the 252 final rolls ``r`` and the keeps ``k`` (as in ``_kernels``):

    V_0(r) = max over allowed boxes b of  gain[b, e(r, b)] + yahtzee_bonus(r)
    K_j(k) = (1/6) sum_f K_j(k + f)   (|k| < 5),      K_j(r) = V_{j-1}(r)
    V_j(r) = max over sub-keeps k of r of K_j(k)

Ties: a choice whose value is within ``TIE_TOLERANCE`` of the best counts as equally good
(mathematically equal values may differ in their last bits); among equally good choices
the first in a fixed order wins: boxes in scorecard order (lowest index first), keeps
in ``dice`` keep order: the fewest dice first (rerolling more), then lexicographic.
This order gives SD 59.6079 for the official rules; most dice first gives 59.6076.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import _jit_cache
from ._kernels import FIRST_ROLL_ROW, SIXTH, next_state
from .dice import (
    KEEP_CHILD,
    KEEP_COUNTS,
    KEEP_SUB_COUNT,
    KEEP_SUB_LIST,
    N_KEEPS,
    ROLL_COUNTS,
    ROLL_FIVE_FACE,
    ROLL_KEEP,
)
from .rules import N_UPPER

_jit_cache.check()  # before any cached kernel is loaded

TIE_TOLERANCE = 1e-9
"""Values closer than this (points) are equally good; the fixed order decides."""
MAX_ENTRY = 51
"""Entries are 0..50 points: the width of ``gain``."""
N_ROLL_ROWS = len(ROLL_KEEP)
FIVE_ALIKE_ROLLS = np.flatnonzero(ROLL_FIVE_FACE >= 0).astype(np.int64)
"""(6,) int64: the roll indices of five alike, by face."""


def _sub_keep_table() -> tuple[np.ndarray, np.ndarray]:
    inside = np.all(KEEP_COUNTS[None, :, :] <= ROLL_COUNTS[:, None, :], axis=2)
    start = np.zeros(N_ROLL_ROWS + 1, dtype=np.int64)
    flat: list[int] = []
    for r in range(N_ROLL_ROWS):
        keeps = sorted(np.flatnonzero(inside[r]).tolist())
        flat.extend(keeps)
        start[r + 1] = len(flat)
    return start, np.array(flat, dtype=np.int64)


SUB_KEEP_START, SUB_KEEPS = _sub_keep_table()
"""CSR lists: ``SUB_KEEPS[SUB_KEEP_START[r]:SUB_KEEP_START[r + 1]]`` are the keeps (0 to 5
dice) of roll ``r``, in tie-break order (keep index: fewest dice first)."""


@njit(cache=True)
def optimal_gain(m, u, y, values, upper_bonus, yahtzee_box, gain):
    """Fill ``gain`` (n_boxes, 51) for the optimal policy of state (m, u, y): entry + upper
    bonus it earns + E(next state). Only the rows of open boxes and reachable entries are
    set."""
    n_boxes = gain.shape[0]
    n_flags = values.shape[2]
    for b in range(n_boxes):
        if m >> b & 1:
            continue
        if b < N_UPPER:
            for k in range(6):
                e = k * (b + 1)
                nm, nu, ny, bonus = next_state(m, u, y, b, e, upper_bonus, yahtzee_box, n_flags)
                gain[b, e] = e + bonus + values[nm, nu, ny]
        else:
            nm, nu, ny, _ = next_state(m, u, y, b, 0, upper_bonus, yahtzee_box, n_flags)
            gain[b, 0] = values[nm, nu, ny]
            nm, nu, ny, _ = next_state(m, u, y, b, 1, upper_bonus, yahtzee_box, n_flags)
            for e in range(1, MAX_ENTRY):
                gain[b, e] = e + values[nm, nu, ny]
    return 0


@njit(cache=True)
def placement_entry(r, b, m, scores_t, joker_tier, joker_points, yahtzee_box, has_joker, low):
    """Entry of final roll ``r`` in open box ``b`` under mask ``m``, or -1 when the Joker
    forbids the box. ``low`` is the Joker's lowest open tier (see :func:`joker_low_tier`)."""
    f = ROLL_FIVE_FACE[r]
    if has_joker and f >= 0 and (m >> yahtzee_box) & 1:
        if joker_tier[f, b] != low:
            return -1
        return joker_points[(m >> f) & 1, f, b]
    return scores_t[b, r]


@njit(cache=True)
def joker_low_tier(r, m, joker_tier, n_boxes):
    """The lowest Joker tier with an open box for five alike ``r`` (unused otherwise)."""
    f = ROLL_FIVE_FACE[r]
    low = 1 << 30
    if f >= 0:
        for b in range(n_boxes):
            if not (m >> b & 1) and joker_tier[f, b] < low:
                low = joker_tier[f, b]
    return low


@njit(cache=True)
def best_box(r, m, y, gain, scores_t, joker_tier, joker_points, yahtzee_box, yahtzee_bonus,
             has_joker, n_flags):
    """(box, entry, value) of the first best placement of final roll ``r``: value =
    ``gain[box, entry]`` + the Yahtzee bonus."""
    n_boxes = scores_t.shape[0]
    low = joker_low_tier(r, m, joker_tier, n_boxes)
    bonus = yahtzee_bonus if (ROLL_FIVE_FACE[r] >= 0 and n_flags == 2 and y == 1) else 0.0
    best = -np.inf
    for b in range(n_boxes):
        if m >> b & 1:
            continue
        e = placement_entry(r, b, m, scores_t, joker_tier, joker_points, yahtzee_box,
                            has_joker, low)
        if e >= 0:
            best = max(best, gain[b, e])
    for b in range(n_boxes):
        if m >> b & 1:
            continue
        e = placement_entry(r, b, m, scores_t, joker_tier, joker_points, yahtzee_box,
                            has_joker, low)
        if e >= 0 and gain[b, e] >= best - TIE_TOLERANCE:
            return b, e, best + bonus
    return -1, -1, best + bonus


@njit(cache=True)
def final_roll_values(m, y, gain, scores_t, joker_tier, joker_points, yahtzee_box,
                      yahtzee_bonus, has_joker, n_flags, final_value):
    """``final_value[r]`` = V_0(r) for the 252 rolls (best placement, see :func:`best_box`)."""
    n_boxes = scores_t.shape[0]
    final_value[:] = -np.inf
    for b in range(n_boxes):
        if m >> b & 1:
            continue
        row = gain[b]
        entries = scores_t[b]
        if b >= N_UPPER and b != yahtzee_box:
            # gain is entry + a constant for these boxes: no gather, vectorises
            base = row[0]
            for r in range(N_ROLL_ROWS):
                final_value[r] = max(final_value[r], entries[r] + base)
        else:
            for r in range(N_ROLL_ROWS):
                final_value[r] = max(final_value[r], row[entries[r]])
    for f in range(6):
        r = FIVE_ALIKE_ROLLS[f]
        final_value[r] = best_box(r, m, y, gain, scores_t, joker_tier, joker_points,
                                  yahtzee_box, yahtzee_bonus, has_joker, n_flags)[2]


@njit(cache=True)
def final_roll_boxes(m, y, gain, scores_t, joker_tier, joker_points, yahtzee_box,
                     yahtzee_bonus, has_joker, n_flags, final_value, box, entry):
    """``box[r]``, ``entry[r]``: the first best placement of each of the 252 final rolls
    (see :func:`best_box`), given ``final_value`` from :func:`final_roll_values`."""
    n_boxes = scores_t.shape[0]
    box[:] = -1
    for b in range(n_boxes):
        if m >> b & 1:
            continue
        row = gain[b]
        entries = scores_t[b]
        for r in range(N_ROLL_ROWS):
            if box[r] < 0 and row[entries[r]] >= final_value[r] - TIE_TOLERANCE:
                box[r] = b
                entry[r] = entries[r]
    for f in range(6):
        r = FIVE_ALIKE_ROLLS[f]
        b, e, _ = best_box(r, m, y, gain, scores_t, joker_tier, joker_points, yahtzee_box,
                           yahtzee_bonus, has_joker, n_flags)
        box[r] = b
        entry[r] = e


@njit(cache=True)
def keep_values(final_value, n_rerolls, keep_value, roll_best, last_best=True):
    """K_j and V_j of a turn, for j = 1..n_rerolls.

    ``keep_value[j, k]`` (n_rerolls + 1, 462) = K_j(k) for every keep (its row 0 gets V_0
    at the roll rows); ``roll_best[j, k]`` (same shape) = max of K_j over the sub-keeps of
    keep ``k``, so at the roll rows V_j(r). ``last_best=False`` skips ``roll_best`` of
    j = n_rerolls (the simulator needs it for one roll only).
    """
    for r in range(N_ROLL_ROWS):
        keep_value[0, FIRST_ROLL_ROW + r] = final_value[r]
        roll_best[0, FIRST_ROLL_ROW + r] = final_value[r]
    for j in range(1, n_rerolls + 1):
        row = keep_value[j]
        below = roll_best[j - 1]
        for r in range(FIRST_ROLL_ROW, N_KEEPS):
            row[r] = below[r]
        for k in range(FIRST_ROLL_ROW - 1, -1, -1):
            total = 0.0
            for f in range(6):
                total += row[KEEP_CHILD[k, f]]
            row[k] = total * SIXTH
        if j == n_rerolls and not last_best:
            break
        best = roll_best[j]
        for k in range(N_KEEPS):
            best[k] = row[k]
        for k in range(1, N_KEEPS):
            for i in range(KEEP_SUB_COUNT[k]):
                best[k] = max(best[k], best[KEEP_SUB_LIST[k, i]])


@njit(cache=True)
def first_keep_within(r, keep_row, best):
    """The first keep of roll ``r`` (tie-break order) whose K_j is within the tolerance of
    ``best`` (= V_j(r))."""
    start = SUB_KEEP_START[r]
    stop = SUB_KEEP_START[r + 1]
    for i in range(start, stop):
        if keep_row[SUB_KEEPS[i]] >= best - TIE_TOLERANCE:
            return SUB_KEEPS[i]
    return SUB_KEEPS[start]


@njit(cache=True)
def best_keep(r, keep_row):
    """The first best keep (index 0..461) of roll ``r`` given K_j in ``keep_row``."""
    best = -np.inf
    for i in range(SUB_KEEP_START[r], SUB_KEEP_START[r + 1]):
        best = max(best, keep_row[SUB_KEEPS[i]])
    return first_keep_within(r, keep_row, best)
