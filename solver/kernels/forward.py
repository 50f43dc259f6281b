"""numba kernel of the forward pass: where play by a final-score DP's vectors ends.

Play that maximises a final-score utility (the target, win and tournament DP,
:mod:`solver.kernels.target`) decides by the points so far ``a``, so its final-score
distribution is pushed forward over (state, ``a``) from the start, level by level:
``mass_s(a)`` = P(the turn of state ``s`` starts with ``a`` points so far), stored as a
:class:`~solver.kernels.level.LevelStore` (one level's states; ``vals`` the masses).
Each state's turn is the DP's own (:func:`~solver.kernels.target.turn_columns`, up to
``WIDE`` columns at once) and each choice is the target simulator's
(:func:`~solver.kernels.simulate_target.choose`: the highest value, within ``P_TIE``
the higher expected final score, then the fixed order), so the pass plays exactly as
``advise`` ranks. For one column with mass, the probability of each roll is pushed
through the chosen keeps (the transpose of the keep averages) to the turn's outcomes
(box, entry, Yahtzee bonus; :func:`~solver.kernels.stats.list_outcomes`), and each
outcome's share moves to the next state at ``a`` + its points (entry, bonuses).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import _jit_cache
from ..game.dice import FIRST_ROLL_KEEP, KEEP_CHILD, N_ROLLS, ROLL_PROBABILITY
from .basics import SIXTH
from .simulate_target import choose, new_wide_turn
from .stats import list_outcomes, new_outcomes
from .target import WIDE, plan_reads, turn_columns
from .turn import option, plan_bonus

_jit_cache.check()  # before any cached kernel is loaded


@njit(cache=True)
def column_outcomes(c, m, u, y, a, tt, values, rules, o):
    """``o.grid[b, e, k]`` = the probability that the turn of state (m, u, y) with ``a``
    points so far (column ``c`` of the played turn ``tt``) ends in box ``b`` with entry
    ``e`` and a Yahtzee bonus (``k`` = 1) or none; ``values``: the expected-score table
    (for ties)."""
    scores = rules.box_scores
    plan = tt.vec.plan
    grid, mass, keep_mass = o.grid, o.mass, o.keep_mass
    grid[:] = 0.0
    for r in range(N_ROLLS):
        mass[r] = ROLL_PROBABILITY[r]
    for j in range(rules.n_rerolls, -1, -1):
        keep_mass[:] = 0.0
        for r in range(N_ROLLS):
            w = mass[r]
            if w == 0.0:
                continue
            opt, keep = choose(r, j, m, u, y, a, tt, tt, values, rules, c)
            if keep >= 0:
                keep_mass[keep] += w
            else:
                _, b, e, _ = option(plan, r, opt, scores)
                grid[b, e, 1 if plan_bonus(plan, r, y) > 0 else 0] += w
        if j == 0:
            break
        for k in range(FIRST_ROLL_KEEP):  # fewest dice first: one die at a time
            share = keep_mass[k] * SIXTH
            if share > 0.0:
                for f in range(6):
                    keep_mass[KEEP_CHILD[k, f]] += share
        for r in range(N_ROLLS):
            mass[r] = keep_mass[FIRST_ROLL_KEEP + r]


@njit(cache=True, nogil=True)
def forward_level(here, below, slot, vslot, vhere, vnext, spec, values, rules, first, last,
                  lost):
    """Push the mass of states ``first .. last - 1`` of ``here`` through their turns into
    ``below``, the next level's masses (``slot[m, u, y]`` indexes it); the turns read the
    DP's next level ``vnext`` (``vslot`` indexes it and ``vhere``, the DP's own level of
    these states, or no states; ``spec`` its utility's). ``lost[0]`` gains any mass that
    lands outside ``below``'s ranges (none when they are right).

    Outside a state's stored range in ``vhere`` every option has the same value (0: the
    utility cannot be reached; or its top, already reached), so the moves there are the
    expected-score ones whatever the points so far: those columns share one turn's
    outcomes, played once per state on values all 0."""
    n_boxes = rules.box_scores.shape[0]
    tt = new_wide_turn(n_boxes, rules.n_rerolls, spec, np.int64(WIDE))
    flat = new_wide_turn(n_boxes, rules.n_rerolls, spec, np.int64(1))
    flat.keeps[:] = 0.0
    flat.vec.bufs[:] = 0.0
    o = new_outcomes(n_boxes)
    of = new_outcomes(n_boxes)
    for i in range(first, last):
        lo, hi, base = here.lo[i], here.hi[i], here.start[i]
        m, u, y = here.m[i], here.u[i], here.y[i]
        v_lo, v_hi = lo, hi  # where the values differ (all of it without the DP's level)
        j = vslot[m, u, y] if vhere.m.shape[0] > 0 else -1
        if 0 <= j < vhere.m.shape[0]:
            v_lo, v_hi = vhere.lo[j], vhere.hi[j]
        a0, a1 = hi + 1, lo - 1  # the columns in the DP's range that hold mass
        n_flat = -1
        for a in range(lo, hi + 1):
            p = here.vals[base + a - lo]
            if p == 0.0:
                continue
            if v_lo <= a <= v_hi:
                a0 = min(a0, a)
                a1 = a
                continue
            if n_flat < 0:  # the expected-score turn, once per state
                plan_reads(m, y, rules, flat.vec)
                flat.ev_ready[0] = False
                column_outcomes(0, m, u, y, a, flat, values, rules, o)
                n_flat = list_outcomes(m, u, y, o.grid, rules, of.w, of.points, of.moves)
            _push(p, a, n_flat, of, below, slot, lost)
        if a0 > a1:
            continue
        plan_reads(m, y, rules, tt.vec)
        tt.ev_ready[0] = False  # the expected-score turn: once per state, when a tie asks
        c0 = a0
        while c0 <= a1:
            width = min(np.int64(WIDE), a1 - c0 + 1)
            turn_columns(m, u, y, c0, width, rules, vslot, vnext, spec, tt.vec, tt.keeps,
                         tt.keeps[:0])
            for c in range(width):
                p = here.vals[base + c0 + c - lo]
                if p == 0.0:
                    continue
                column_outcomes(c, m, u, y, c0 + c, tt, values, rules, o)
                n = list_outcomes(m, u, y, o.grid, rules, o.w, o.points, o.moves)
                _push(p, c0 + c, n, o, below, slot, lost)
            c0 += width


@njit(cache=True)
def _push(p, a, n, o, below, slot, lost):
    """Mass ``p`` at ``a`` points so far, shared over the ``n`` listed outcomes ``o``."""
    for k in range(n):
        move = o.moves[k]
        j = slot[move[3], move[4], move[5]]
        to = a + int(o.points[k])
        share = p * o.w[k]
        if below.lo[j] <= to <= below.hi[j]:
            below.vals[below.start[j] + to - below.lo[j]] += share
        else:
            lost[0] += share
