"""numba kernels judging played games against optimal play. Plain arrays in, nothing checked.

A game is given by its trace (``kernels.simulate.play_game``): per turn the keep indices
roll, keep, roll, ..., keep, roll, then the box; a keep with no roll after it (or a -1
keep) means the box was scored with that many rolls left. A keep of all five dice
followed by a roll is a keep that rolled nothing (Python strategies may do it).

Each decision is judged as ``analyze`` judges it (docs/analyze.md): with the optimal turn
of the state (``kernels.policy``, the table's values) and roll ``r`` with ``j`` rolls
left, the best is V_j(r); a keep ``k`` is worth K_j(k), a box the option's value (entry,
upper bonus, Yahtzee bonus and E of the next state). The loss is best minus chosen, 0
within ``TIE_TOLERANCE`` (a tie).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .. import _jit_cache
from ..game.dice import FIRST_ROLL_KEEP, N_KEEPS, N_ROLLS, ROLL_SUB_KEEP_START, ROLL_SUB_KEEPS
from . import policy as tp
from .basics import next_state, roll_bonus, roll_entries

_jit_cache.check()  # before any cached kernel is loaded

KEEP, BOX = 0, 1
"""Columns of the losses and decision counts."""


@njit(cache=True)
def _best(roll, j, keep_value):
    """V_j of roll ``roll`` (keep index): the best keep's K_j, or V_0 (``keep_value``'s
    row 0) when ``j`` is 0."""
    if j == 0:
        return keep_value[0, roll]
    r = roll - FIRST_ROLL_KEEP
    best = -np.inf
    for i in range(ROLL_SUB_KEEP_START[r], ROLL_SUB_KEEP_START[r + 1]):
        best = max(best, keep_value[j, ROLL_SUB_KEEPS[i]])
    return best


@njit(cache=True)
def _box_value(roll, m, y, b, gain, rules, box, entry):
    """(value, entry) of scoring roll ``roll`` in box ``b`` (allowed) under state (m, y)."""
    r = roll - FIRST_ROLL_KEEP
    for i in range(roll_entries(r, m, rules, box, entry)):
        if box[i] == b:
            return gain[b, entry[i]] + roll_bonus(r, y, rules), entry[i]
    return -np.inf, -1


@njit(cache=True)
def _lost(best, chosen):
    loss = best - chosen
    return 0.0 if loss <= tp.TIE_TOLERANCE else loss


@njit(cache=True)
def judge_game(trace, values, rules, cache, gain, final_value, keep_value, roll_best,
               loss, counts, turn_loss, box_loss):
    """Judge one game (``trace`` (n_boxes, 2 R + 2)): adds to ``loss`` (2,) and
    ``counts`` (2,) (keeps, boxes) and fills ``turn_loss`` and ``box_loss`` (n_boxes,),
    the loss of each turn and of the turn that filled each box."""
    cache_slot, cache_gain, cache_keep, _ = cache
    n_boxes = rules.box_scores.shape[0]
    width = trace.shape[1]
    box = np.empty(n_boxes, dtype=np.int64)
    entry = np.empty(n_boxes, dtype=np.int64)
    m = 0
    u = 0
    y = 0
    for t in range(n_boxes):
        c = cache_slot[m, u, y]
        if c >= 0:
            g, kv = cache_gain[c], cache_keep[c]
        else:
            tp.optimal_gain(m, u, y, values, rules, gain)
            tp.final_roll_best(m, y, gain, rules, final_value)
            tp.keep_values(final_value, rules.n_rerolls, keep_value, roll_best, False)
            g, kv = gain, keep_value
        roll = trace[t, 0]
        j = rules.n_rerolls
        s = 1
        lost = 0.0
        while j > 0 and trace[t, s] >= 0 and trace[t, s + 1] >= 0:
            here = _lost(_best(roll, j, kv), kv[j, trace[t, s]])
            loss[0] += here
            counts[0] += 1
            lost += here
            roll = trace[t, s + 1]
            s += 2
            j -= 1
        b = trace[t, width - 1]
        value, e = _box_value(roll, m, y, b, g, rules, box, entry)
        here = _lost(_best(roll, j, kv), value)
        loss[1] += here
        counts[1] += 1
        lost += here
        turn_loss[t] = lost
        box_loss[b] = lost
        m, u, y, _ = next_state(m, u, y, b, e, rules.upper_bonus, rules.yahtzee_box,
                                rules.n_flags)


@njit(cache=True, parallel=True)
def judge_games(traces, values, rules, cache, loss, counts, turn_loss, box_loss):
    """Judge the games of ``traces`` (n, n_boxes, 2 R + 2): per game ``loss`` (n, 2)
    float64 and ``counts`` (n, 2) int64 (keeps, boxes), ``turn_loss`` and ``box_loss``
    (n, n_boxes) (see :func:`judge_game`). ``cache``: the optimal policy's prepared
    turns (``kernels.simulate.prepare_turns``)."""
    n = traces.shape[0]
    n_boxes = rules.box_scores.shape[0]
    n_rerolls = rules.n_rerolls
    chunk = 256
    for c in prange((n + chunk - 1) // chunk):
        gain = np.zeros((n_boxes, tp.MAX_ENTRY))
        final_value = np.empty(N_ROLLS)
        keep_value = np.empty((n_rerolls + 1, N_KEEPS))
        roll_best = np.empty((n_rerolls + 1, N_KEEPS))
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            loss[i, :] = 0.0
            counts[i, :] = 0
            judge_game(traces[i], values, rules, cache, gain, final_value, keep_value,
                       roll_best, loss[i], counts[i], turn_loss[i], box_loss[i])
