"""numba kernels of the exact statistics of optimal play. Plain arrays in, nothing checked.

For each turn-start state ``s`` the optimal policy (``_turn_policy``, with its tie-break)
gives the probability ``q_s(r)`` that the turn ends with final roll ``r``: probability
mass is pushed through the chosen keeps one die at a time (the transpose of the keep
averages). Each final roll goes to one box, so the turn has a few dozen outcomes
``o = (box b, entry e, bonus c)`` of probability ``w_o``, each with its points ``p_o`` and
next state ``s'_o``. Then, backwards from full cards:

    D_s(t) = sum_o w_o D_{s'_o}(t - p_o)          (points still to come: distribution)
    F_s    = sum_o w_o (f_o + F_{s'_o})           (expected counts: entries, zeros, bonuses)

``D_s`` is stored on 0..maxpoints(s) (a bound from the open boxes), level by level.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from . import _jit_cache
from . import _turn_policy as tp
from ._kernels import next_state
from .dice import KEEP_CHILD, N_KEEPS

_jit_cache.check()  # before any cached kernel is loaded

CHUNK = 64  # states per parallel task (scratch arrays are allocated once per task)


@njit(cache=True)
def final_roll_mass(keep_value, roll_best, n_rerolls, opening, mass, keep_mass):
    """``mass[r]`` = probability that the turn ends with final roll r (policy: first best
    keep of each roll, see ``_turn_policy``). ``opening`` (252,) is the first roll's
    distribution; ``keep_mass`` (462,) is scratch."""
    for r in range(tp.N_ROLL_ROWS):
        mass[r] = opening[r]
    for j in range(n_rerolls, 0, -1):
        keep_mass[:] = 0.0
        for r in range(tp.N_ROLL_ROWS):
            if mass[r] > 0.0:
                best = roll_best[j, tp.FIRST_ROLL_ROW + r]
                keep_mass[tp.first_keep_within(r, keep_value[j], best)] += mass[r]
        for k in range(tp.FIRST_ROLL_ROW):
            share = keep_mass[k] * tp.SIXTH
            if share > 0.0:
                for f in range(6):
                    keep_mass[KEEP_CHILD[k, f]] += share
        for r in range(tp.N_ROLL_ROWS):
            mass[r] = keep_mass[tp.FIRST_ROLL_ROW + r]


@njit(cache=True)
def _state_outcomes(m, u, y, values, scores_t, joker_tier, joker_points, upper_bonus,
                    yahtzee_box, yahtzee_bonus, has_joker, n_rerolls, opening, gain,
                    final_value, keep_value, roll_best, mass, keep_mass, box, entry, grid):
    """Fill ``grid[b, e, c]`` with the probability of each turn outcome of state (m, u, y);
    returns the probability that the turn ends with five alike."""
    n_flags = values.shape[2]
    tp.optimal_gain(m, u, y, values, upper_bonus, yahtzee_box, gain)
    tp.final_roll_values(m, y, gain, scores_t, joker_tier, joker_points, yahtzee_box,
                         yahtzee_bonus, has_joker, n_flags, final_value)
    tp.keep_values(final_value, n_rerolls, keep_value, roll_best)
    final_roll_mass(keep_value, roll_best, n_rerolls, opening, mass, keep_mass)
    tp.final_roll_boxes(m, y, gain, scores_t, joker_tier, joker_points, yahtzee_box,
                        yahtzee_bonus, has_joker, n_flags, final_value, box, entry)
    grid[:] = 0.0
    five_alike = 0.0
    for r in range(tp.N_ROLL_ROWS):
        if mass[r] == 0.0:
            continue
        b = box[r]
        e = entry[r]
        five = tp.ROLL_FIVE_FACE[r] >= 0
        c = 1 if (five and n_flags == 2 and y == 1 and yahtzee_bonus > 0) else 0
        grid[b, e, c] += mass[r]
        if five:
            five_alike += mass[r]
    return five_alike


@njit(cache=True)
def _solve_state(i, level_m, level_u, level_y, values, scores_t, joker_tier, joker_points,
                 upper_bonus, yahtzee_box, yahtzee_bonus, has_joker, n_rerolls, opening, slot,
                 next_start, next_dist, next_extra, here_start, here_dist, here_extra,
                 gain, final_value, keep_value, roll_best, mass, keep_mass, box, entry, grid):
    m = level_m[i]
    u = level_u[i]
    y = level_y[i]
    n_boxes = scores_t.shape[0]
    n_flags = values.shape[2]
    five = _state_outcomes(m, u, y, values, scores_t, joker_tier, joker_points, upper_bonus,
                           yahtzee_box, yahtzee_bonus, has_joker, n_rerolls, opening, gain,
                           final_value, keep_value, roll_best, mass, keep_mass, box, entry, grid)
    out = here_dist[here_start[i]:here_start[i + 1]]
    extra = here_extra[i]
    extra[2 * n_boxes + 1] += five
    for b in range(n_boxes):
        if m >> b & 1:
            continue
        for e in range(tp.MAX_ENTRY):
            for c in range(2):
                w = grid[b, e, c]
                if w == 0.0:
                    continue
                nm, nu, ny, upper_points = next_state(m, u, y, b, e, upper_bonus, yahtzee_box,
                                                      n_flags)
                points = e + c * yahtzee_bonus + upper_points
                if upper_points > 0:
                    extra[2 * n_boxes] += w
                j = slot[nm, nu, ny]
                src = next_dist[next_start[j]:next_start[j + 1]]
                shift = int(points)
                for t in range(src.shape[0]):
                    out[shift + t] += w * src[t]
                for x in range(extra.shape[0]):
                    extra[x] += w * next_extra[j, x]
                extra[b] += w * e
                if e == 0:
                    extra[n_boxes + b] += w
                if c == 1:
                    extra[2 * n_boxes + 2] += w


@njit(cache=True, parallel=True)
def stats_level(level_m, level_u, level_y, values, scores_t, joker_tier, joker_points,
                upper_bonus, yahtzee_box, yahtzee_bonus, has_joker, n_rerolls, opening, slot,
                next_start, next_dist, next_extra, here_start, here_dist, here_extra):
    """Fill ``here_dist`` and ``here_extra`` (zeroed) for every state of one level.

    ``level_m/u/y`` (n,) list the level's states; ``slot[m, u, y]`` is a state's index in
    its own level; ``*_start`` (n + 1,) are CSR offsets into the flat ``*_dist`` arrays;
    ``*_extra`` (n, 2 * n_boxes + 3): mean entry per box, P(zero) per box, P(upper bonus),
    E(turns ending five alike), E(Yahtzee bonuses) over the rest of the game.
    """
    n_boxes = scores_t.shape[0]
    n = level_m.shape[0]
    n_chunks = (n + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        gain = np.zeros((n_boxes, tp.MAX_ENTRY))
        final_value = np.empty(tp.N_ROLL_ROWS)
        keep_value = np.empty((n_rerolls + 1, N_KEEPS))
        roll_best = np.empty((n_rerolls + 1, N_KEEPS))
        mass = np.empty(tp.N_ROLL_ROWS)
        keep_mass = np.empty(N_KEEPS)
        grid = np.empty((n_boxes, tp.MAX_ENTRY, 2))
        box = np.empty(tp.N_ROLL_ROWS, dtype=np.int64)
        entry = np.empty(tp.N_ROLL_ROWS, dtype=np.int64)
        for i in range(chunk * CHUNK, min(n, (chunk + 1) * CHUNK)):
            _solve_state(i, level_m, level_u, level_y, values, scores_t, joker_tier,
                         joker_points, upper_bonus, yahtzee_box, yahtzee_bonus, has_joker,
                         n_rerolls, opening, slot, next_start, next_dist, next_extra,
                         here_start, here_dist, here_extra, gain, final_value, keep_value,
                         roll_best, mass, keep_mass, box, entry, grid)
