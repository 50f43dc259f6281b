"""numba kernels of the target-score simulator. Plain arrays in, nothing checked.

Every decision maximises P(final score >= X) read from the target DP's stored vectors
(:mod:`solver.target`, every level kept), exactly as ``advise(..., target=X)`` ranks the
options: the highest probability; options within ``TIE`` of it go to the highest
expected final score (the expected-score table, the solver's own turn kernel); then a
box before a keep, the lowest box, the keep of more dice, the lower keep index.

A turn of state (m, u, y) with ``a`` points so far, from the next level's vectors
``V_next`` (one column: this game's ``a``):

    P(box b | final roll r) = V_next(state after b)(a + entry + upper bonus + Yahtzee bonus)
    V_0(r) = max over allowed boxes,   K_j and V_j: ``kernels.policy.keep_values`` on V_0

Dice come from the same per-game streams as ``kernels.simulate`` (same seed, same
dice for the same keeps), so strategies compared see the same rolls.

The vectors of every level come as one CSR set of arrays (the levels of
``solver.target.Vectors`` one after the other): state ``j = slot[m, u, y]`` holds ``V`` at
``a = lo[j] .. hi[j]`` in ``vals[start[j] + a - lo[j]]``; below ``lo`` it is 0, above
``hi`` it is 1.
``constant >= 0`` replaces every probability by that number (a target of 0, or one no
game can reach): the expected score then decides every choice.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .. import _jit_cache
from ..game.dice import (
    FIRST_ROLL_KEEP,
    KEEP_SIZE,
    N_KEEPS,
    N_ROLLS,
    ROLL_FIVE_FACE,
    ROLL_SUB_KEEP_START,
    ROLL_SUB_KEEPS,
    YAHTZEE_ROLLS,
)
from ..game.rules import N_UPPER, UPPER_TARGET
from . import policy as tp
from .basics import next_state, roll_bonus, roll_entries
from .expected import turn_snapshots
from .simulate import bin_count, game_stream, roll_from, store_game

_jit_cache.check()  # before any cached kernel is loaded

TIE = 1e-12
"""Probabilities closer than this are equal (as ``advisor.advise.TIE``)."""
_KEEP_ORDER = 1000
"""Among equal expected scores keeps rank after boxes (order = box index): a keep's
order is ``_KEEP_ORDER * (6 - size) + keep index``."""


@njit(cache=True)
def box_probability(m, u, y, a, b, e, shift, vec, rules):
    """P(reach) after entering ``e`` points in open box ``b`` (plus ``shift`` points of
    Yahtzee bonus) from state (m, u, y) with ``a`` points so far. ``vec`` = (slot,
    start, lo, hi, vals, constant): ``constant >= 0`` is every probability."""
    slot, start, los, his, vals, constant = vec
    if constant >= 0.0:
        return constant
    nm, nu, ny, bonus = next_state(m, u, y, b, e, rules.upper_bonus, rules.yahtzee_box,
                                   rules.n_flags)
    j = slot[nm, nu, ny]
    col = a + e + int(bonus) + shift
    lo = los[j]
    if col < lo:
        return 0.0
    if col > his[j]:
        return 1.0
    return vals[start[j] + col - lo]


@njit(cache=True)
def box_options(r, m, u, y, a, box_p, vec, rules, opt_box, opt_entry, opt_p):
    """The boxes the rules allow for final roll ``r``: ``opt_box``, ``opt_entry`` and
    ``opt_p`` (P after entering it, Yahtzee bonus included); returns their number."""
    n = roll_entries(r, m, rules, opt_box, opt_entry)
    shift = roll_bonus(r, y, rules)
    for i in range(n):
        b = opt_box[i]
        e = opt_entry[i]
        opt_p[i] = box_p[b, e] if shift == 0 else box_probability(m, u, y, a, b, e, shift,
                                                                  vec, rules)
    return n


@njit(cache=True)
def target_turn(m, u, y, a, vec, rules, box_p, final_value, keep_value, roll_best, opt_box,
                opt_entry, opt_p):
    """The turn of state (m, u, y) at ``a`` points so far under the target objective.

    ``box_p[b, e]`` (n_boxes, 51): P after entering ``e`` in open box ``b`` (no Yahtzee
    bonus); ``final_value`` (252,): V_0; ``keep_value[j]`` (n_rerolls + 1, 462): K_j
    (``roll_best``, ``opt_*``: scratch, see ``kernels.policy.keep_values`` and
    :func:`box_options`)."""
    n_boxes = box_p.shape[0]
    for b in range(n_boxes):
        if m >> b & 1:
            continue
        if b < N_UPPER:
            for k in range(6):
                e = k * (b + 1)
                box_p[b, e] = box_probability(m, u, y, a, b, e, 0, vec, rules)
        else:
            for e in range(tp.MAX_ENTRY):
                box_p[b, e] = box_probability(m, u, y, a, b, e, 0, vec, rules)
    scores = rules.box_scores
    final_value[:] = -1.0
    for b in range(n_boxes):
        if m >> b & 1:
            continue
        row = box_p[b]
        entries = scores[b]
        for r in range(N_ROLLS):  # five alike (Joker, bonus) are redone below
            final_value[r] = max(final_value[r], row[entries[r]])
    for r in YAHTZEE_ROLLS:
        n = box_options(r, m, u, y, a, box_p, vec, rules, opt_box, opt_entry, opt_p)
        best = -1.0
        for i in range(n):
            best = max(best, opt_p[i])
        final_value[r] = best
    tp.keep_values(final_value, rules.n_rerolls, keep_value, roll_best, False)


@njit(cache=True)
def choose(r, j, m, u, y, a, box_p, keep_value, vec, values, rules, ev_turn, ev_ready,
           opt_box, opt_entry, opt_p):
    """The move for roll ``r`` with ``j`` rolls left: (box, entry, -1) to score now or
    (-1, -1, keep) to reroll; as ``advise`` ranks the options (module docstring).
    ``ev_turn`` (n_rerolls + 1, 462) gets the expected-score turn when a tie needs it
    (``ev_ready[0]`` says it holds this turn's)."""
    n = box_options(r, m, u, y, a, box_p, vec, rules, opt_box, opt_entry, opt_p)
    first = ROLL_SUB_KEEP_START[r]
    stop = ROLL_SUB_KEEP_START[r + 1] if j > 0 else first
    top = -1.0
    for i in range(n):
        top = max(top, opt_p[i])
    for i in range(first, stop):
        k = ROLL_SUB_KEEPS[i]
        if KEEP_SIZE[k] < 5:
            top = max(top, keep_value[j, k])
    # the options within TIE of the best: one alone wins, several go to the expected score
    n_best = 0
    pick = -1
    for i in range(n):
        if top - opt_p[i] <= TIE:
            n_best += 1
            pick = i
    for i in range(first, stop):
        k = ROLL_SUB_KEEPS[i]
        if KEEP_SIZE[k] < 5 and top - keep_value[j, k] <= TIE:
            n_best += 1
            pick = n + k
    if n_best > 1:
        if not ev_ready[0]:
            turn_snapshots(m, u, y, values, rules, ev_turn)
            ev_ready[0] = True
        total = float(a)
        shift = roll_bonus(r, y, rules)
        best_ev = -np.inf
        best_order = 1 << 30
        for i in range(n):  # boxes: order = box index
            if top - opt_p[i] > TIE:
                continue
            b = opt_box[i]
            e = opt_entry[i]
            nm, nu, ny, bonus = next_state(m, u, y, b, e, rules.upper_bonus,
                                           rules.yahtzee_box, rules.n_flags)
            ev = total + (float(e + int(bonus) + shift) + values[nm, nu, ny])
            if ev > best_ev or (ev == best_ev and b < best_order):
                best_ev, best_order, pick = ev, b, i
        for i in range(first, stop):  # keeps after boxes: more dice first, then index
            k = ROLL_SUB_KEEPS[i]
            if KEEP_SIZE[k] == 5 or top - keep_value[j, k] > TIE:
                continue
            ev = total + ev_turn[j, k]
            order = _KEEP_ORDER * (6 - KEEP_SIZE[k]) + k
            if ev > best_ev or (ev == best_ev and order < best_order):
                best_ev, best_order, pick = ev, order, n + k
    if pick >= n:
        return -1, -1, pick - n
    return opt_box[pick], opt_entry[pick], -1


@njit(cache=True)
def new_scratch(n_boxes, n_rerolls):
    """Work arrays of one turn: (box_p, final_value, keep_value, roll_best, ev_turn,
    opt_box, opt_entry, opt_p) (see :func:`target_turn` and :func:`choose`)."""
    return (np.zeros((n_boxes, tp.MAX_ENTRY)), np.empty(N_ROLLS),
            np.empty((n_rerolls + 1, N_KEEPS)), np.empty((n_rerolls + 1, N_KEEPS)),
            np.empty((n_rerolls + 1, N_KEEPS)), np.empty(n_boxes, dtype=np.int64),
            np.empty(n_boxes, dtype=np.int64), np.empty(n_boxes))


@njit(cache=True)
def first_turn(vec, values, rules):
    """The scratch of a new game's first turn, the same in every game: the target turn
    and the expected-score turn filled in."""
    scratch = new_scratch(rules.box_scores.shape[0], rules.n_rerolls)
    box_p, final_value, keep_value, roll_best, ev_turn, opt_box, opt_entry, opt_p = scratch
    target_turn(0, 0, 0, 0, vec, rules, box_p, final_value, keep_value, roll_best, opt_box,
                opt_entry, opt_p)
    turn_snapshots(0, 0, 0, values, rules, ev_turn)
    return scratch


@njit(cache=True)
def play_target_game(stream, vec, values, rules, first, scratch, entries, trace):
    """Play one game for the target; fills ``entries`` (n_boxes,) and ``trace`` (as
    ``kernels.simulate.play_game``: scoring before the last roll is recorded as a keep of
    all five dice) and returns (score, upper bonus earned 0/1, turns ending five alike,
    Yahtzee bonuses). ``first``: :func:`first_turn` (read only); ``scratch``:
    :func:`new_scratch` for the other turns."""
    n_boxes = rules.box_scores.shape[0]
    n_rerolls = rules.n_rerolls
    ev_ready = np.zeros(1, dtype=np.bool_)
    m = 0
    u = 0
    y = 0
    upper_sum = 0
    score = 0
    fives = 0
    bonuses = 0
    for _ in range(n_boxes):
        if m == 0:
            turn = first
            ev_ready[0] = True
        else:
            turn = scratch
            ev_ready[0] = False
        box_p, final_value, keep_value, roll_best, ev_turn, opt_box, opt_entry, opt_p = turn
        if m != 0:
            target_turn(m, u, y, score, vec, rules, box_p, final_value, keep_value, roll_best,
                        opt_box, opt_entry, opt_p)
        t = bin_count(m)
        trace[t, :] = -1
        roll, stream = roll_from(0, stream)
        trace[t, 0] = roll
        b = -1
        e = -1
        for j in range(n_rerolls, -1, -1):
            b, e, keep = choose(roll - FIRST_ROLL_KEEP, j, m, u, y, score, box_p, keep_value,
                                vec, values, rules, ev_turn, ev_ready, scratch[5], scratch[6],
                                scratch[7])
            s = 2 * (n_rerolls - j) + 1
            if keep < 0:
                if j > 0:  # scores now: recorded as keeping all five dice
                    trace[t, s] = roll
                break
            roll, stream = roll_from(keep, stream)
            trace[t, s] = keep
            trace[t, s + 1] = roll
        r = roll - FIRST_ROLL_KEEP
        trace[t, 2 * n_rerolls + 1] = b
        shift = roll_bonus(r, y, rules)
        if ROLL_FIVE_FACE[r] >= 0:
            fives += 1
            if shift > 0:
                bonuses += 1
        entries[b] = e
        if b < N_UPPER:
            upper_sum += e
        m, u, y, upper_points = next_state(m, u, y, b, e, rules.upper_bonus, rules.yahtzee_box,
                                           rules.n_flags)
        score += e + int(upper_points) + shift
    return score, 1 if upper_sum >= UPPER_TARGET else 0, fives, bonuses


@njit(cache=True, parallel=True)
def play_target_games(seed, first_game, vec, values, rules, scores, upper_bonus_earned, fives,
                      bonuses, entries, traces):
    """Play games ``first_game ..`` of ``seed`` (uint64s) for the target; ``vec`` = (slot,
    start, lo, hi, vals, constant) (module docstring). Writes the same per-game arrays as
    ``kernels.simulate.play_games`` (``traces`` may be empty)."""
    n = scores.shape[0]
    n_boxes = rules.box_scores.shape[0]
    n_rerolls = rules.n_rerolls
    first = first_turn(vec, values, rules)
    chunk = 16
    for c in prange((n + chunk - 1) // chunk):
        scratch = new_scratch(n_boxes, n_rerolls)
        row = np.empty(n_boxes, dtype=np.int64)
        trace = np.empty((n_boxes, 2 * n_rerolls + 2), dtype=np.int16)
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            stream = game_stream(seed, first_game + np.uint64(i))
            result = play_target_game(stream, vec, values, rules, first, scratch, row, trace)
            store_game(i, result, row, trace, scores, upper_bonus_earned, fives, bonuses,
                       entries, traces)
