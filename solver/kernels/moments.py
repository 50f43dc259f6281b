"""numba kernel of the per-state figures of the "why" (:mod:`solver.moments`). Plain
arrays in, nothing checked.

One fixed-policy evaluation of the optimal policy: each state's turn outcomes
(box, entry, bonus; probability ``w``) come from the statistics' turn
(``kernels.stats``: the policy's mass pushed through the keeps, with its tie order),
and are combined with the figures of the next states, already known (one more box
filled), as the module docstring of :mod:`solver.moments` writes it.
"""

from __future__ import annotations

from numba import njit, prange

from .. import _jit_cache
from . import policy as tp
from .basics import next_state
from .stats import CHUNK, _new_scratch, _state_outcomes

_jit_cache.check()  # before any cached kernel is loaded

UPPER_BONUS, YAHTZEE_50, BONUSES, VARIANCE = 0, 1, 2, 3


@njit(cache=True)
def _solve_state(m, u, y, values, rules, figures, t):
    n_boxes = rules.box_scores.shape[0]
    _state_outcomes(m, u, y, values, rules, t)
    here = values[m, u, y]
    p_upper = p_fifty = bonuses = spread = shift = 0.0
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
                after = figures[nm, nu, ny]
                d = e + c * rules.yahtzee_bonus + upper_points + values[nm, nu, ny] - here
                p_upper += w * after[UPPER_BONUS]
                fifty = 1.0 if (b == rules.yahtzee_box and e == 50) else after[YAHTZEE_50]
                p_fifty += w * fifty
                bonuses += w * (c + after[BONUSES])
                spread += w * (after[VARIANCE] + d * d)
                shift += w * d
    out = figures[m, u, y]
    out[UPPER_BONUS] = p_upper
    out[YAHTZEE_50] = p_fifty
    out[BONUSES] = bonuses
    out[VARIANCE] = spread - shift * shift


@njit(cache=True, parallel=True)
def moments_level(level_m, level_u, level_y, values, rules, figures):
    """Fill ``figures[m, u, y]`` (4,) for the states of one level (``level_m/u/y``, (n,)
    int64) from the figures of the states with one more box filled, already in
    ``figures`` (table shape + (4,) float64)."""
    n_boxes = rules.box_scores.shape[0]
    n = level_m.shape[0]
    for chunk in prange((n + CHUNK - 1) // CHUNK):
        t = _new_scratch(n_boxes, rules.n_rerolls)
        for i in range(chunk * CHUNK, min(n, (chunk + 1) * CHUNK)):
            _solve_state(level_m[i], level_u[i], level_y[i], values, rules, figures, t)
