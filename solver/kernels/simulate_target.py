"""numba kernels of the target-score simulator. Plain arrays in, nothing checked.

Every decision maximises P(final score >= X) read from the target DP's stored vectors
(:mod:`solver.target`, every level kept, one :class:`~solver.kernels.level.LevelStore`),
exactly as ``advise(..., target=X)`` ranks the options (:mod:`solver.game.ties`): the
highest probability; within ``P_TIE`` of it the highest expected final score (the
expected-score turn, :func:`~solver.kernels.expected.turn_snapshots`); then the fixed
order. A turn of state (m, u, y) with ``a`` points so far is the target DP's own turn
(:func:`~solver.kernels.target.turn_columns`) at the one column ``a``.

Dice come from the per-game streams of ``kernels.stream``, as for every strategy (same
seed, same dice for the same keeps), so strategies compared see the same rolls. A
store whose every state reads 0 (a target of 0, or one no game can reach) makes every
option equal: the expected score then decides every choice.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .. import _jit_cache
from ..game.dice import FIRST_ROLL_KEEP, KEEP_SIZE, N_KEEPS, ROLL_SUB_KEEP_START, ROLL_SUB_KEEPS
from ..game.ties import P_TIE
from .basics import next_state
from .expected import turn_snapshots
from .readout import best_of
from .simulate import game_scratch, score_box, store_game
from .stream import game_stream, roll_from
from .target import new_scratch, option_read, plan_reads, turn_columns
from .threads import run_blocks
from .trace import put_box, put_reroll, start_turn
from .turn import n_options, option, plan_bonus

_jit_cache.check()  # before any cached kernel is loaded


class TargetTurn(NamedTuple):
    """One turn under the target objective (:func:`new_turn`): ``vec``, the target DP's
    scratch of one column (``kernels.target.Scratch``, with the plan); ``keeps`` (R + 1,
    462, 1), P of each keep with ``j`` rolls left (K_j); ``ev`` (the same shape), the
    expected-score turn, valid when ``ev_ready[0]``; ``value`` (3, 32 + n_boxes) float64
    and ``move`` (2, 32 + n_boxes) int64: per option of one decision its probability,
    expected final score and rank, and its keep (or -1) and roll option (or -1)."""

    vec: tuple
    keeps: np.ndarray
    ev: np.ndarray
    ev_ready: np.ndarray
    value: np.ndarray
    move: np.ndarray


@njit(cache=True)
def new_turn(n_boxes, n_rerolls, spec):
    """A :class:`TargetTurn` of one column."""
    return new_wide_turn(n_boxes, n_rerolls, spec, np.int64(1))


@njit(cache=True)
def new_wide_turn(n_boxes, n_rerolls, spec, width):
    """A :class:`TargetTurn` of up to ``width`` columns (``keeps`` (R + 1, 462, width);
    the expected-score turn ``ev`` is one column: it does not depend on ``a``)."""
    return TargetTurn(new_scratch(n_boxes, width, spec), np.empty((n_rerolls + 1, N_KEEPS, width)),
                      np.empty((n_rerolls + 1, N_KEEPS, 1)), np.zeros(1, dtype=np.bool_),
                      np.empty((3, 32 + n_boxes)), np.empty((2, 32 + n_boxes), dtype=np.int64))


@njit(cache=True)
def play_turn(m, u, y, a, store, values, rules, spec, tt):
    """The turn of state (m, u, y) at ``a`` points so far into ``tt``."""
    plan_reads(m, y, rules, tt.vec)
    turn_columns(m, u, y, a, np.int64(1), rules, store.slot, store.vectors, spec, tt.vec, tt.keeps,
                 tt.keeps[:0])
    tt.ev_ready[0] = False


@njit(cache=True)
def choose(r, j, m, u, y, a, tt, opts, values, rules, c=0):
    """The move for roll ``r`` with ``j`` rolls left in the turn ``tt``: (plan option,
    -1) to score now or (-1, keep) to reroll, as ``advise`` ranks the options (module
    docstring); ``opts``: the option scratch (``value`` and ``move`` of a turn); ``c``:
    the turn's column that holds ``a`` (points so far; 0 for a turn of one column)."""
    scores = rules.box_scores
    plan = tt.vec.plan
    p, ev, order = opts.value[0], opts.value[1], opts.value[2]
    n = 0
    if j > 0:
        for i in range(ROLL_SUB_KEEP_START[r], ROLL_SUB_KEEP_START[r + 1]):
            k = ROLL_SUB_KEEPS[i]
            if KEEP_SIZE[k] < 5:
                p[n] = tt.keeps[j, k, c]
                order[n] = k
                opts.move[0, n] = k
                opts.move[1, n] = -1
                n += 1
    for o in range(n_options(plan, r)):
        k, off = option_read(plan, r, o, scores, y)
        p[n] = tt.vec.bufs[k, off + c]
        order[n] = N_KEEPS + option(plan, r, o, scores)[1]
        opts.move[0, n] = -1
        opts.move[1, n] = o
        n += 1
    top = p[0]
    for i in range(n):
        top = max(top, p[i])
    tied = 0
    for i in range(n):
        ev[i] = 0.0
        tied += top - p[i] <= P_TIE
    if tied > 1:
        if not tt.ev_ready[0]:
            turn_snapshots(m, u, y, values, rules, tt.ev)
            tt.ev_ready[0] = True
        for i in range(n):
            k = opts.move[0, i]
            if k >= 0:
                ev[i] = a + tt.ev[j, k, 0]
            else:
                _, b, e, _ = option(plan, r, opts.move[1, i], scores)
                nm, nu, ny, bonus = next_state(m, u, y, b, e, rules.upper_bonus,
                                               rules.yahtzee_box, rules.n_flags)
                ev[i] = a + (float(e + int(bonus) + plan_bonus(plan, r, y)) + values[nm, nu, ny])
    pick = best_of(p, ev, order, n, P_TIE)
    return opts.move[1, pick], opts.move[0, pick]


class TargetStore(NamedTuple):
    """The vectors the target strategy reads: every level in one ``LevelStore``
    (``vectors``), a state's index there at ``slot[m, u, y]``."""

    slot: np.ndarray
    vectors: tuple


@njit(cache=True)
def play_game(stream, store, values, rules, spec, first, tt, entries, trace):
    """Play one game for the target; fills ``entries`` (n_boxes,) and ``trace`` (the moves,
    :mod:`solver.game.trace`) and returns its tally (``kernels.simulate.score_box``). ``first``: the
    first turn (the same in every game, read only); ``tt``: the other turns."""
    scores = rules.box_scores
    n_rerolls = rules.n_rerolls
    tally = np.zeros(4, dtype=np.int64)
    m = u = y = 0
    for turn in range(rules.box_scores.shape[0]):
        if m == 0:
            now = first
        else:
            now = tt
            play_turn(m, u, y, tally[0], store, values, rules, spec, tt)
        row = trace[turn]
        roll, stream = roll_from(np.int64(0), stream)
        start_turn(row, roll)
        o = -1
        for j in range(n_rerolls, -1, -1):
            o, keep = choose(roll - FIRST_ROLL_KEEP, j, m, u, y, tally[0], now, tt, values,
                             rules)
            if keep < 0:  # scores now
                break
            roll, stream = roll_from(keep, stream)
            put_reroll(row, n_rerolls - j, keep, roll)
        _, b, e, _ = option(now.vec.plan, roll - FIRST_ROLL_KEEP, o, scores)
        put_box(row, b)
        entries[b] = e
        m, u, y = score_box(m, u, y, roll - FIRST_ROLL_KEEP, b, e, rules, tally)
    return tally


def play_games(seed, first_game, slot, vectors, values, rules, spec, out):
    """Play games ``first_game ..`` of ``seed`` (uint64s) for the target into ``out``
    (``kernels.simulate.Games``), reading ``vectors`` (every level, a ``LevelStore``) at
    ``slot[m, u, y]``, in up to 16 blocks on numba's threads. Each block of games solves
    the first turn (the same in every game) once."""
    run_blocks(_play_block, out.scores.shape[0], 16, seed, first_game,
               TargetStore(slot, vectors), values, rules, spec, out)


@njit(cache=True, nogil=True)
def _play_block(begin, end, seed, first_game, store, values, rules, spec, out):
    n_boxes = rules.box_scores.shape[0]
    row, trace = game_scratch(rules)
    first = new_turn(n_boxes, rules.n_rerolls, spec)
    play_turn(0, 0, 0, 0, store, values, rules, spec, first)
    turn_snapshots(0, 0, 0, values, rules, first.ev)
    first.ev_ready[0] = True
    tt = new_turn(n_boxes, rules.n_rerolls, spec)
    for i in range(begin, end):
        stream = game_stream(seed, first_game + np.uint64(i))
        tally = play_game(stream, store, values, rules, spec, first, tt, row, trace)
        store_game(i, tally, row, trace, out)
