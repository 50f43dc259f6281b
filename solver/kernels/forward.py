"""numba kernel of the forward pass: where play by a final-score DP's vectors ends.

Play that maximises a final-score utility (the target, win and tournament DP,
:mod:`solver.kernels.target`) decides by the points so far ``a``, so its final-score
distribution is pushed forward over (state, ``a``) from the start, level by level:
``mass_s(a)`` = P(the turn of state ``s`` starts with ``a`` points so far), stored as a
:class:`~solver.kernels.level.LevelStore` (one level's states; ``vals`` the masses).

Each state's turn is the DP's own (:func:`~solver.kernels.target.turn_columns`, a block of
up to ``WIDE`` columns at once), and so is its play, a block at a time: for each number
of rolls left and each roll, :func:`roll_moves` ranks the roll's options (its keeps of 0
to 4 dice while rolls are left, its boxes) in every column of the block at once, from the
values the DP just computed: the highest, and how many lie within ``P_TIE`` of it. Where
one option stands alone it is the move; where several tie, :func:`tied_move` breaks the
tie as the target simulator does (:func:`~solver.kernels.simulate_target.choose`: within
``P_TIE`` the higher expected final score, then the fixed order), so the pass plays
exactly as ``advise`` ranks; where every option ties (no chance left, say), the move is
the expected score's, the same in every column (:func:`every_tied_move`, once per roll
and state). The probability of each roll is pushed through the chosen
keeps in every column (:func:`~solver.kernels.stats.spread_keeps`, the transpose of the
keep averages) to the turn's outcomes (box, entry, Yahtzee bonus;
:func:`~solver.kernels.stats.list_outcomes`), and each outcome's share moves to the next
state at ``a`` + its points (entry, bonuses).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .. import _jit_cache
from ..game.dice import (
    FIRST_ROLL_KEEP,
    KEEP_SIZE,
    N_KEEPS,
    N_ROLLS,
    ROLL_PROBABILITY,
    ROLL_SUB_KEEP_START,
    ROLL_SUB_KEEPS,
)
from ..game.ties import EV_TIE, P_TIE
from .basics import FAST_MATH, next_state
from .expected import turn_snapshots
from .readout import best_of
from .simulate_target import new_wide_turn
from .stats import MAX_ENTRY, list_outcomes, new_outcomes, spread_keeps
from .target import WIDE, plan_reads, turn_columns
from .turn import n_options, option, plan_bonus

_jit_cache.check()  # before any cached kernel is loaded

UNKNOWN = -2
"""A move not worked out yet (:class:`Block`'s ``every``)."""
EV_MARGIN = 1e-11
"""Expected final scores whose difference lies farther than this from ``EV_TIE`` compare
alike whatever the points so far added to both (:func:`every_tied_move`)."""


class Block(NamedTuple):
    """Scratch of one block's play (:func:`new_block`), columns ``c < width``:
    ``mass`` (252, WIDE), the probability of each roll; ``keep_mass`` (462, WIDE);
    ``grid`` (WIDE, n_boxes, 51, 2), the probability of each outcome (box, entry,
    bonus) per column; per roll ``top`` (WIDE,), its best option's value, ``tied`` (WIDE,) int64,
    the options within ``P_TIE`` of it, ``move`` (WIDE,) int64, the best option (a keep
    ``k < 462``, or ``462 +`` its outcome's cell in ``grid`` laid flat); ``cells`` (252,
    n_boxes) int64, the outcome cell of each option of each final roll of the state, and
    ``box_ev`` (252, n_boxes) its expected points to come (for ties, :func:`box_evs`);
    ``tie`` (4, 32 + n_boxes), the tied options of one roll (value, expected final score,
    rank, move); ``every`` (R + 1, 252) int64, each roll's move where every option ties
    (:func:`every_tied_move`; ``UNKNOWN`` until asked, for the state of the turn's
    expected scores)."""

    mass: np.ndarray
    keep_mass: np.ndarray
    grid: np.ndarray
    top: np.ndarray
    tied: np.ndarray
    move: np.ndarray
    cells: np.ndarray
    box_ev: np.ndarray
    tie: np.ndarray
    every: np.ndarray


@njit(cache=True)
def new_block(n_boxes, n_rerolls, width):
    """A :class:`Block` of up to ``width`` columns."""
    return Block(np.empty((N_ROLLS, width)), np.empty((N_KEEPS, width)),
                 np.zeros((width, n_boxes, MAX_ENTRY, 2)), np.empty(width),
                 np.empty(width, dtype=np.int64), np.empty(width, dtype=np.int64),
                 np.empty((N_ROLLS, n_boxes), dtype=np.int64), np.empty((N_ROLLS, n_boxes)),
                 np.empty((4, 32 + n_boxes)),
                 np.full((n_rerolls + 1, N_ROLLS), UNKNOWN, dtype=np.int64))


@njit(cache=True)
def option_cells(plan, y, scores, cells):
    """``cells[r, o]``: the outcome of option ``o`` of final roll ``r`` (``plan``, flag
    ``y``) as the flat index of (box, entry, bonus) in a grid (n_boxes, 51, 2)."""
    for r in range(N_ROLLS):
        bonus = 1 if plan_bonus(plan, r, y) > 0 else 0
        for o in range(n_options(plan, r)):
            _, b, e, _ = option(plan, r, o, scores)
            cells[r, o] = (b * MAX_ENTRY + e) * 2 + bonus


@njit(cache=True)
def box_evs(m, u, y, plan, values, rules, out):
    """``out[r, o]``: the expected points still to come after option ``o`` of final roll
    ``r`` in state (m, u, y) (``plan`` its turn's): the option's points (entry, upper
    and Yahtzee bonus) and the expected-score table's ``values`` of the state it leads
    to, summed as the target simulator sums them."""
    scores = rules.box_scores
    for r in range(N_ROLLS):
        for o in range(n_options(plan, r)):
            _, b, e, _ = option(plan, r, o, scores)
            nm, nu, ny, bonus = next_state(m, u, y, b, e, rules.upper_bonus, rules.yahtzee_box,
                                           rules.n_flags)
            out[r, o] = float(e + int(bonus) + plan_bonus(plan, r, y)) + values[nm, nu, ny]


@njit(cache=True, fastmath=FAST_MATH)
def roll_moves(r, j, width, keeps, bufs, reads, cells, top, tied, move):
    """Roll ``r`` with ``j`` rolls left in columns ``c < width`` of a played block
    (``keeps`` (R + 1, 462, >= width), ``bufs`` and ``reads`` of its
    :class:`~solver.kernels.target.Scratch`): its options are its keeps of fewer than
    five dice (K_j, while ``j > 0``) and its boxes (each successor's vector shifted by
    the box's points, at most V_0, ``keeps[0]`` at the roll's row); ``top[c]`` gets the
    highest value, ``tied[c]`` how many lie within ``P_TIE`` of it, ``move[c]`` the
    option of value ``top[c]`` (a keep, or ``N_KEEPS`` + the box's outcome cell,
    ``cells``): the move where ``tied[c]`` is 1. The boxes are ranked only when one lies
    within ``P_TIE`` of the top in some column. (Indexed in full, no row views: a view
    costs numba atomic reference counts at every call.)"""
    first = reads.shape[1] - N_ROLLS - 1
    k0 = ROLL_SUB_KEEP_START[r]
    k1 = ROLL_SUB_KEEP_START[r + 1] if j > 0 else k0  # no keep with no roll left
    best_box = FIRST_ROLL_KEEP + r
    for c in range(width):
        top[c] = keeps[0, best_box, c]
        tied[c] = 0
    for i in range(k0, k1):
        k = ROLL_SUB_KEEPS[i]
        if KEEP_SIZE[k] < 5:
            for c in range(width):
                top[c] = max(top[c], keeps[j, k, c])
    for i in range(k0, k1):
        k = ROLL_SUB_KEEPS[i]
        if KEEP_SIZE[k] < 5:
            for c in range(width):
                v = keeps[j, k, c]
                tied[c] += top[c] - v <= P_TIE
                move[c] = k if v == top[c] else move[c]
    near = 0
    for c in range(width):
        near += top[c] - keeps[0, best_box, c] <= P_TIE
    if near == 0:
        return
    o0 = reads[0, first + r]
    for o in range(o0, reads[0, first + r + 1]):
        row, col = reads[0, o], np.uint64(reads[1, o])
        code = N_KEEPS + cells[r, o - o0]
        for c in range(width):
            v = bufs[row, col + np.uint64(c)]
            tied[c] += top[c] - v <= P_TIE
            move[c] = code if v == top[c] else move[c]


@njit(cache=True)
def block_outcomes(m, u, y, a0, width, live, tt, values, rules, blk):
    """``blk.grid[c, b, e, k]`` = the probability that the turn of state (m, u, y) with
    ``a0 + c`` points so far (column ``c < width`` of the played block ``tt``, a
    ``TargetTurn``) ends in box ``b`` with entry ``e`` and a Yahtzee bonus (``k`` = 1) or
    none; columns where ``live[c]`` is False are not played (their grid stays 0).
    ``values``: the expected-score table (for ties: its turn, ``tt.ev``, worked out at the
    first tie of the state unless ``tt.ev_ready[0]``)."""
    mass, keep_mass, move, tied = blk.mass, blk.keep_mass, blk.move, blk.tied
    keeps, bufs, reads, cells = tt.keeps, tt.vec.bufs, tt.vec.reads, blk.cells
    grid = blk.grid.reshape((blk.grid.shape[0], -1))
    grid[:width] = 0.0
    first = reads.shape[1] - N_ROLLS - 1
    option_cells(tt.vec.plan, y, rules.box_scores, cells)
    for r in range(N_ROLLS):
        for c in range(width):
            mass[r, c] = ROLL_PROBABILITY[r] if live[c] else 0.0
    for j in range(rules.n_rerolls, -1, -1):
        keep_mass[:, :width] = 0.0
        for r in range(N_ROLLS):
            roll_moves(r, j, width, keeps, bufs, reads, cells, blk.top, tied, move)
            every = (reads[0, first + r + 1] - reads[0, first + r]
                     + (ROLL_SUB_KEEP_START[r + 1] - ROLL_SUB_KEEP_START[r] - 1 if j > 0 else 0))
            for c in range(width):
                if tied[c] > 1 and mass[r, c] != 0.0:  # a tie with probability
                    if not tt.ev_ready[0]:
                        turn_snapshots(m, u, y, values, rules, tt.ev)
                        box_evs(m, u, y, tt.vec.plan, values, rules, blk.box_ev)
                        blk.every[:] = UNKNOWN
                        tt.ev_ready[0] = True
                    if tied[c] == every:  # every option: one move for every column
                        if blk.every[j, r] == UNKNOWN:
                            blk.every[j, r] = every_tied_move(r, j, keeps, bufs, reads, tt.ev,
                                                              blk.box_ev, cells, blk.tie)
                        if blk.every[j, r] >= 0:
                            move[c] = blk.every[j, r]
                            continue
                    move[c] = tied_move(r, j, c, a0 + c, keeps, bufs, reads, blk.top[c],
                                        tt.ev, blk.box_ev, cells, blk.tie)
            _push_moves(width, mass[r], move, keep_mass, grid)
        if j == 0:
            break
        spread_keeps(keep_mass, width)
        for r in range(N_ROLLS):
            for c in range(width):
                mass[r, c] = keep_mass[FIRST_ROLL_KEEP + r, c]


@njit(cache=True)
def tied_move(r, j, c, a, keeps, bufs, reads, top, ev, box_ev, cells, tie):
    """The move (as :func:`roll_moves` codes it) of roll ``r`` with ``j`` rolls left in
    column ``c`` (``a`` points so far) where several options lie within ``P_TIE`` of the
    best value ``top``: of those, by :func:`~solver.game.ties.best` (compiled,
    ``best_of``), the higher expected final score (``a`` + a keep's ``ev[j, k, 0]``, the
    expected-score turn, or + a box's ``box_ev``), then the lower rank (keeps by index,
    then boxes in scorecard order). The options farther than ``P_TIE`` cannot be picked,
    so they are left out: the pick is the target simulator's
    (:func:`~solver.kernels.simulate_target.choose`)."""
    n = _tied_options(r, j, c, a, keeps, bufs, reads, top, np.bool_(False), ev, box_ev,
                      cells, tie)
    return np.int64(tie[3, best_of(tie[0], tie[1], tie[2], n, P_TIE)])


@njit(cache=True)
def every_tied_move(r, j, keeps, bufs, reads, ev, box_ev, cells, tie):
    """The move of roll ``r`` with ``j`` rolls left in a column where every option lies
    within ``P_TIE`` of the best (no chance left, say): the expected-score choice, the
    same in every column, or -1 where it may depend on the column. :func:`tied_move` of
    every option adds the points so far ``a`` to each expected score ``x``: ``a + x``
    rounds by at most half a unit in the last place (1.2e-13 below 2,048 points, more
    than any game scores), so two expected scores whose difference lies farther than
    ``EV_MARGIN`` from ``EV_TIE`` compare alike at every ``a``; when a pair does not, -1."""
    n = _tied_options(r, j, np.int64(0), np.int64(0), keeps, bufs, reads, 0.0,
                      np.bool_(True), ev, box_ev, cells, tie)  # (no literal)
    evs = tie[1]
    top_ev = evs[0]
    for i in range(n):
        top_ev = max(top_ev, evs[i])
    for i in range(n):
        if abs(top_ev - evs[i] - EV_TIE) <= EV_MARGIN:
            return np.int64(-1)
    return np.int64(tie[3, best_of(tie[0], evs, tie[2], n, P_TIE)])


@njit(cache=True)
def _tied_options(r, j, c, a, keeps, bufs, reads, top, every, ev, box_ev, cells, tie):
    """The options of roll ``r`` (``j`` rolls left, column ``c``) within ``P_TIE`` of
    ``top``, or ``every`` one (each then valued 0), into ``tie``: value, expected final
    score (``a`` + points still to come), rank, move; returns how many."""
    first = reads.shape[1] - N_ROLLS - 1
    o0, o1 = reads[0, first + r], reads[0, first + r + 1]
    k0 = ROLL_SUB_KEEP_START[r]
    k1 = ROLL_SUB_KEEP_START[r + 1] if j > 0 else k0
    value, evs, rank, code = tie[0], tie[1], tie[2], tie[3]
    n = 0
    for i in range(k0, k1):
        k = ROLL_SUB_KEEPS[i]
        if KEEP_SIZE[k] < 5 and (every or top - keeps[j, k, c] <= P_TIE):
            value[n] = 0.0 if every else keeps[j, k, c]
            evs[n] = a + ev[j, k, 0]
            rank[n] = k
            code[n] = k
            n += 1
    for o in range(o0, o1):
        v = 0.0 if every else bufs[reads[0, o], reads[1, o] + c]
        if every or top - v <= P_TIE:
            cell = cells[r, o - o0]
            value[n] = v
            evs[n] = a + box_ev[r, o - o0]
            rank[n] = N_KEEPS + cell // (2 * MAX_ENTRY)
            code[n] = N_KEEPS + cell
            n += 1
    return n


@njit(cache=True)
def _push_moves(width, mass, move, keep_mass, grid):
    """A roll's probability ``mass[c]`` in each column to its ``move``: a keep's
    ``keep_mass``, or an outcome's ``grid`` cell (laid flat)."""
    for c in range(width):
        to = move[c]
        if to < N_KEEPS:
            keep_mass[to, c] += mass[c]
        else:
            grid[c, to - N_KEEPS] += mass[c]


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
    blk = new_block(n_boxes, rules.n_rerolls, np.int64(WIDE))
    live = np.ones(WIDE, dtype=np.bool_)
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
                live[0] = True
                block_outcomes(m, u, y, a, np.int64(1), live, flat, values, rules, blk)
                n_flat = list_outcomes(m, u, y, blk.grid[0], rules, of.w, of.points,
                                       of.moves)
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
                live[c] = here.vals[base + c0 + c - lo] != 0.0
            block_outcomes(m, u, y, c0, width, live, tt, values, rules, blk)
            for c in range(width):
                if live[c]:
                    n = list_outcomes(m, u, y, blk.grid[c], rules, o.w, o.points,
                                      o.moves)
                    _push(here.vals[base + c0 + c - lo], c0 + c, n, o, below, slot, lost)
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
