"""numba kernels of the exact statistics of optimal play. Plain arrays in, nothing checked.

For each turn-start state ``s`` the optimal policy (``kernels.policy``, with its tie-break)
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

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from .. import _jit_cache
from ..game.dice import (
    FIRST_ROLL_KEEP,
    KEEP_CHILD,
    N_KEEPS,
    N_ROLLS,
    ROLL_FIVE_FACE,
    ROLL_PROBABILITY,
)
from . import policy as tp
from .basics import SIXTH, next_state

_jit_cache.check()  # before any cached kernel is loaded

CHUNK = 64  # states per parallel task (scratch arrays are allocated once per task)


class LevelDistributions(NamedTuple):
    """The figures of every state of one level: state ``i`` owns
    ``dist[start[i]:start[i + 1]]`` (distribution of the points still to come, from 0) and
    ``extra[i]`` (2 * n_boxes + 3 expected counts, see :func:`stats_level`)."""

    start: np.ndarray
    """(n + 1,) int64 CSR offsets into ``dist``."""
    dist: np.ndarray
    """flat float64."""
    extra: np.ndarray
    """(n, 2 * n_boxes + 3) float64."""


class TurnScratch(NamedTuple):
    """Scratch arrays of one turn (one per parallel task)."""

    gain: np.ndarray
    """(n_boxes, 51) float64, see ``kernels.policy``."""
    final_value: np.ndarray
    """(252,) float64: V_0."""
    keep_value: np.ndarray
    """(n_rerolls + 1, 462) float64: K_j."""
    roll_best: np.ndarray
    """(n_rerolls + 1, 462) float64: best K_j over sub-keeps."""
    mass: np.ndarray
    """(252,) float64: probability of each final roll."""
    keep_mass: np.ndarray
    """(462,) float64."""
    box: np.ndarray
    """(252,) int64: box of each final roll."""
    entry: np.ndarray
    """(252,) int64: its entry."""
    grid: np.ndarray
    """(n_boxes, 51, 2) float64: probability of each turn outcome (box, entry, bonus)."""


@njit(cache=True)
def _new_scratch(n_boxes, n_rerolls):
    return TurnScratch(np.zeros((n_boxes, tp.MAX_ENTRY)), np.empty(N_ROLLS),
                       np.empty((n_rerolls + 1, N_KEEPS)), np.empty((n_rerolls + 1, N_KEEPS)),
                       np.empty(N_ROLLS), np.empty(N_KEEPS), np.empty(N_ROLLS, dtype=np.int64),
                       np.empty(N_ROLLS, dtype=np.int64), np.empty((n_boxes, tp.MAX_ENTRY, 2)))


@njit(cache=True)
def final_roll_mass(keep_value, roll_best, n_rerolls, mass, keep_mass):
    """``mass[r]`` = probability that the turn ends with final roll r (policy: first best
    keep of each roll, see ``kernels.policy``), from a first roll of all five dice;
    ``keep_mass`` (462,) is scratch."""
    for r in range(N_ROLLS):
        mass[r] = ROLL_PROBABILITY[r]
    for j in range(n_rerolls, 0, -1):
        keep_mass[:] = 0.0
        for r in range(N_ROLLS):
            if mass[r] > 0.0:
                best = roll_best[j, FIRST_ROLL_KEEP + r]
                keep_mass[tp.first_keep_within(r, keep_value[j], best)] += mass[r]
        for k in range(FIRST_ROLL_KEEP):
            share = keep_mass[k] * SIXTH
            if share > 0.0:
                for f in range(6):
                    keep_mass[KEEP_CHILD[k, f]] += share
        for r in range(N_ROLLS):
            mass[r] = keep_mass[FIRST_ROLL_KEEP + r]


@njit(cache=True)
def _state_outcomes(m, u, y, values, rules, t):
    """Fill ``t.grid[b, e, c]`` with the probability of each turn outcome of state
    (m, u, y) (``t`` a :class:`TurnScratch`); returns the probability that the turn ends
    with five alike."""
    tp.optimal_gain(m, u, y, values, rules, t.gain)
    tp.final_roll_best(m, y, t.gain, rules, t.final_value)
    tp.keep_values(t.final_value, rules.n_rerolls, t.keep_value, t.roll_best)
    final_roll_mass(t.keep_value, t.roll_best, rules.n_rerolls, t.mass, t.keep_mass)
    tp.final_roll_boxes(m, y, t.gain, rules, t.final_value, t.box, t.entry)
    grid = t.grid
    grid[:] = 0.0
    five_alike = 0.0
    bonus_possible = rules.n_flags == 2 and y == 1 and rules.yahtzee_bonus > 0
    for r in range(N_ROLLS):
        if t.mass[r] == 0.0:
            continue
        five = ROLL_FIVE_FACE[r] >= 0
        c = 1 if (five and bonus_possible) else 0
        grid[t.box[r], t.entry[r], c] += t.mass[r]
        if five:
            five_alike += t.mass[r]
    return five_alike


@njit(cache=True)
def _solve_state(i, level_m, level_u, level_y, values, rules, slot, below, here, t):
    m = level_m[i]
    u = level_u[i]
    y = level_y[i]
    n_boxes = rules.box_scores.shape[0]
    five = _state_outcomes(m, u, y, values, rules, t)
    out = here.dist[here.start[i]:here.start[i + 1]]
    extra = here.extra[i]
    extra[2 * n_boxes + 1] += five
    for b in range(n_boxes):
        if m >> b & 1:
            continue
        for e in range(tp.MAX_ENTRY):
            for c in range(2):
                w = t.grid[b, e, c]
                if w == 0.0:
                    continue
                nm, nu, ny, upper_points = next_state(m, u, y, b, e, rules.upper_bonus,
                                                      rules.yahtzee_box, rules.n_flags)
                points = e + c * rules.yahtzee_bonus + upper_points
                if upper_points > 0:
                    extra[2 * n_boxes] += w
                j = slot[nm, nu, ny]
                src = below.dist[below.start[j]:below.start[j + 1]]
                shift = int(points)
                for x in range(src.shape[0]):
                    out[shift + x] += w * src[x]
                for x in range(extra.shape[0]):
                    extra[x] += w * below.extra[j, x]
                extra[b] += w * e
                if e == 0:
                    extra[n_boxes + b] += w
                if c == 1:
                    extra[2 * n_boxes + 2] += w


@njit(cache=True, parallel=True)
def stats_level(level_m, level_u, level_y, values, rules, slot, below, here):
    """Fill ``here`` (zeroed :class:`LevelDistributions`) for every state of one level
    from ``below``, the level with one more box filled.

    ``level_m/u/y`` (n,) list the level's states; ``slot[m, u, y]`` is a state's index in
    its own level; ``extra`` per state: mean entry per box, P(zero) per box, P(upper
    bonus), E(turns ending five alike), E(Yahtzee bonuses) over the rest of the game.
    """
    n_boxes = rules.box_scores.shape[0]
    n = level_m.shape[0]
    n_chunks = (n + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        t = _new_scratch(n_boxes, rules.n_rerolls)
        for i in range(chunk * CHUNK, min(n, (chunk + 1) * CHUNK)):
            _solve_state(i, level_m, level_u, level_y, values, rules, slot, below, here, t)
