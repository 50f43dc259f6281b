"""numba kernels of one turn played by a fixed policy, shared by the stats and the simulator.

A policy is given by ``gain[b, e]``: what entering ``e`` points in box ``b`` is worth,
the Yahtzee bonus apart; for a lower box other than the Yahtzee box it must be
``e + gain[b, 0]``. For the optimal policy that is the entry, the upper bonus it
earns and ``E`` of the next state; the simple strategies use other gains. With it, for
the 252 final rolls ``r`` and the keeps ``k`` (as in ``kernels.expected``):

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

from .. import _jit_cache
from ..game.dice import (
    FIRST_ROLL_KEEP,
    KEEP_CHILD,
    KEEP_SUB_COUNT,
    KEEP_SUB_LIST,
    N_KEEPS,
    N_ROLLS,
    ROLL_FIVE_FACE,
    ROLL_SUB_KEEP_START,
    ROLL_SUB_KEEPS,
    YAHTZEE_ROLLS,
)
from ..game.rules import N_UPPER
from .basics import SIXTH, joker_lowest_tier, next_state, placement_entry, roll_bonus

_jit_cache.check()  # before any cached kernel is loaded

TIE_TOLERANCE = 1e-9
"""Values closer than this (points) are equally good; the fixed order decides."""
MAX_ENTRY = 51
"""Entries are 0..50 points: the width of ``gain``."""


@njit(cache=True)
def optimal_gain(m, u, y, values, rules, gain):
    """Fill ``gain`` (n_boxes, 51) for the optimal policy of state (m, u, y): entry + upper
    bonus it earns + E(next state). Only the rows of open boxes and reachable entries are
    set."""
    n_boxes = gain.shape[0]
    upper_bonus = rules.upper_bonus
    yahtzee_box = rules.yahtzee_box
    n_flags = rules.n_flags
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
def best_box(r, m, y, gain, rules):
    """(box, entry, value) of the first best placement of final roll ``r``: value =
    ``gain[box, entry]`` + the Yahtzee bonus."""
    n_boxes = rules.box_scores.shape[0]
    f = ROLL_FIVE_FACE[r]
    low = joker_lowest_tier(f, m, rules.joker_tier) if f >= 0 else 1 << 30
    bonus = roll_bonus(r, y, rules)
    best = -np.inf
    for b in range(n_boxes):
        if m >> b & 1:
            continue
        e = placement_entry(r, b, m, rules, low)
        if e >= 0:
            best = max(best, gain[b, e])
    for b in range(n_boxes):
        if m >> b & 1:
            continue
        e = placement_entry(r, b, m, rules, low)
        if e >= 0 and gain[b, e] >= best - TIE_TOLERANCE:
            return b, e, best + bonus
    return -1, -1, best + bonus


@njit(cache=True)
def final_roll_best(m, y, gain, rules, final_value):
    """``final_value[r]`` = V_0(r) for the 252 rolls (best placement, see :func:`best_box`)."""
    scores = rules.box_scores
    n_boxes = scores.shape[0]
    final_value[:] = -np.inf
    for b in range(n_boxes):
        if m >> b & 1:
            continue
        row = gain[b]
        entries = scores[b]
        if b >= N_UPPER and b != rules.yahtzee_box:
            # gain is entry + a constant for these boxes: no gather, vectorises
            base = row[0]
            for r in range(N_ROLLS):
                final_value[r] = max(final_value[r], entries[r] + base)
        else:
            for r in range(N_ROLLS):
                final_value[r] = max(final_value[r], row[entries[r]])
    for r in YAHTZEE_ROLLS:
        final_value[r] = best_box(r, m, y, gain, rules)[2]


@njit(cache=True)
def final_roll_boxes(m, y, gain, rules, final_value, box, entry):
    """``box[r]``, ``entry[r]``: the first best placement of each of the 252 final rolls
    (see :func:`best_box`), given ``final_value`` from :func:`final_roll_best`."""
    scores = rules.box_scores
    n_boxes = scores.shape[0]
    box[:] = -1
    for b in range(n_boxes):
        if m >> b & 1:
            continue
        row = gain[b]
        entries = scores[b]
        for r in range(N_ROLLS):
            if box[r] < 0 and row[entries[r]] >= final_value[r] - TIE_TOLERANCE:
                box[r] = b
                entry[r] = entries[r]
    for r in YAHTZEE_ROLLS:
        b, e, _ = best_box(r, m, y, gain, rules)
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
    for r in range(N_ROLLS):
        keep_value[0, FIRST_ROLL_KEEP + r] = final_value[r]
        roll_best[0, FIRST_ROLL_KEEP + r] = final_value[r]
    for j in range(1, n_rerolls + 1):
        row = keep_value[j]
        below = roll_best[j - 1]
        for r in range(FIRST_ROLL_KEEP, N_KEEPS):
            row[r] = below[r]
        for k in range(FIRST_ROLL_KEEP - 1, -1, -1):
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
    start = ROLL_SUB_KEEP_START[r]
    stop = ROLL_SUB_KEEP_START[r + 1]
    for i in range(start, stop):
        if keep_row[ROLL_SUB_KEEPS[i]] >= best - TIE_TOLERANCE:
            return ROLL_SUB_KEEPS[i]
    return ROLL_SUB_KEEPS[start]


@njit(cache=True)
def best_keep(r, keep_row):
    """The first best keep (index 0..461) of roll ``r`` given K_j in ``keep_row``."""
    best = -np.inf
    for i in range(ROLL_SUB_KEEP_START[r], ROLL_SUB_KEEP_START[r + 1]):
        best = max(best, keep_row[ROLL_SUB_KEEPS[i]])
    return first_keep_within(r, keep_row, best)
