"""numba kernel of the per-state figures of the "why" (:mod:`solver.moments`). Plain
arrays in, nothing checked.

One fixed-policy evaluation of the optimal policy on the statistics' turn
(:func:`solver.kernels.stats.stats_level` with ``MOMENTS``: the policy's mass pushed
through the keeps, in the one tie order): each state's turn outcomes (box, entry,
bonus; probability ``w``) are combined with the figures of the next states, already
known (one more box filled), as the module docstring of :mod:`solver.moments` writes it.
"""

from __future__ import annotations

from numba import njit

from .. import _jit_cache

_jit_cache.check()  # before any cached kernel is loaded

UPPER_BONUS, YAHTZEE_50, BONUSES, VARIANCE = 0, 1, 2, 3


@njit(cache=True)
def state_moments(i, n, o, here, below, slot, values, rules):
    """``here.extra[i]`` (4,): the figures of state ``i`` of ``here`` from its ``n``
    listed turn outcomes ``o`` (``kernels.stats.Outcomes``) and the figures of the next
    states in ``below.extra`` (their index ``slot[m, u, y]``); ``values`` is the table."""
    here_value = values[here.m[i], here.u[i], here.y[i]]
    p_upper = p_fifty = bonuses = spread = shift = 0.0
    for k in range(n):
        w = o.w[k]
        move = o.moves[k]
        b, e, c = move[0], move[1], move[2]
        after = below.extra[slot[move[3], move[4], move[5]]]
        d = o.points[k] + values[move[3], move[4], move[5]] - here_value
        p_upper += w * after[UPPER_BONUS]
        fifty = 1.0 if (b == rules.yahtzee_box and e == 50) else after[YAHTZEE_50]
        p_fifty += w * fifty
        bonuses += w * (c + after[BONUSES])
        spread += w * (after[VARIANCE] + d * d)
        shift += w * d
    out = here.extra[i]
    out[UPPER_BONUS] = p_upper
    out[YAHTZEE_50] = p_fifty
    out[BONUSES] = bonuses
    out[VARIANCE] = spread - shift * shift
