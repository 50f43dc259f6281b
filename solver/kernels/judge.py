"""numba kernels judging played games against optimal play. Plain arrays in, nothing checked.

A game is given by its trace (:mod:`solver.game.trace`): per turn the keep indices roll,
keep, roll, ..., keep, roll, then the box; a -1 keep means the box was scored with that
many rolls left. A keep of all five dice followed by a roll is a keep that rolled nothing
(Python strategies may do it).

Each decision is judged as ``analyze`` judges it (docs/analyze.md): with the optimal turn
of the state (``kernels.policy.play_turns`` on the table's values) and roll ``r`` with
``j`` rolls left, the best is V_j(r) (``readout.roll_value``); a keep ``k`` is worth
K_j(k), a box the option's value (``readout.box_value``). The loss is best minus chosen,
0 within ``EV_TIE`` (a tie, :mod:`solver.game.ties`).

The luck of a roll under a policy's values is V after it minus the value before it: E of
the state (the mean of V_R over the first roll) before a turn's first roll, K_j(keep)
before a reroll (the mean of V_(j-1) over its outcomes). Its mean is 0 given all that came
before, whatever the strategy (the simulator's control variates, :mod:`solver.simulate.judge`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import _jit_cache
from ..game.dice import FIRST_ROLL_KEEP, N_ROLLS, ROLL_PROBABILITY
from ..game.ties import EV_TIE
from .basics import next_state
from .policy import new_turn, prepared_turn
from .readout import box_value, roll_value
from .threads import run_blocks
from .trace import box_of, keep_of, rerolls, roll_of

_jit_cache.check()  # before any cached kernel is loaded

KEEP, BOX = 0, 1
"""Columns of the losses and decision counts."""


@njit(cache=True)
def _lost(best, chosen):
    loss = best - chosen
    return 0.0 if loss <= EV_TIE else loss


@njit(cache=True)
def judge_game(trace, refs, n_refs, rules, t, loss, counts, turn_loss, box_loss, luck):
    """Judge one game (``trace`` (n_boxes, 2 R + 2), :mod:`solver.game.trace`), walking it
    once: adds to ``loss`` (2,) and ``counts`` (2,) (keeps, boxes) and fills ``turn_loss``
    and ``box_loss`` (n_boxes,), the loss of each turn and of the turn that filled each
    box (optimal play: ``refs[0]``); adds to ``luck[k]`` (R + 1,) the luck of the turns'
    first rolls, second rolls, ... under reference policy ``k < n_refs``. ``refs``: per
    reference policy (values, par, prepared turns: a ``kernels.simulate.TurnCache``, used
    where ``cache.slot[m, u, y] >= 0``; the other turns are played into ``t``, a
    ``PolicyTurn``)."""
    n_boxes = rules.box_scores.shape[0]
    m = u = y = np.int64(0)  # not literals (see policy.play_turns)
    e = np.int64(0)
    for turn in range(n_boxes):
        row = trace[turn]
        done = rerolls(row)
        b = np.int64(box_of(row))
        for k in range(n_refs):
            values, par, cache = refs[k]
            succ, keeps, _ = prepared_turn(m, u, y, values, par, rules, cache, t, np.int64(1))
            j = rules.n_rerolls
            r = np.int64(roll_of(row, np.int64(0))) - FIRST_ROLL_KEEP  # (int64s: one signature)
            if k == 0:
                before = values[m, u, y]
            else:
                before = 0.0
                for first in range(N_ROLLS):
                    before += ROLL_PROBABILITY[first] * roll_value(first, j, keeps)
            luck[k, 0] += roll_value(r, j, keeps) - before
            lost = 0.0
            for i in range(done):
                keep = keep_of(row, i)
                after = np.int64(roll_of(row, i + 1)) - FIRST_ROLL_KEEP
                luck[k, i + 1] += roll_value(after, j - 1, keeps) - keeps[j, keep, 0]
                if k == 0:
                    here = _lost(roll_value(r, j, keeps), keeps[j, keep, 0])
                    loss[0] += here
                    counts[0] += 1
                    lost += here
                r = after
                j -= 1
            value, e = box_value(r, y, b, succ, t.plan, rules)
            if k == 0:
                here = _lost(roll_value(r, j, keeps), value)
                loss[1] += here
                counts[1] += 1
                lost += here
                turn_loss[turn] = lost
                box_loss[b] = lost
        m, u, y, _ = next_state(m, u, y, b, e, rules.upper_bonus, rules.yahtzee_box,
                                rules.n_flags)


def judge_games(traces, refs, n_refs, rules, loss, counts, turn_loss, box_loss, luck):
    """Judge the games of ``traces`` (n, n_boxes, 2 R + 2): per game ``loss`` (n, 2)
    float64 and ``counts`` (n, 2) int64 (keeps, boxes), ``turn_loss`` and ``box_loss``
    (n, n_boxes), ``luck`` (n, len(refs), R + 1) (see :func:`judge_game`; the luck under
    the references from ``n_refs`` on is left 0). In blocks of 256 games on numba's
    threads (``kernels.threads``)."""
    n = traces.shape[0]
    run_blocks(_judge_block, n, (n + 255) // 256, traces, refs, n_refs, rules, loss, counts,
               turn_loss, box_loss, luck)


@njit(cache=True, nogil=True)
def _judge_block(begin, end, traces, refs, n_refs, rules, loss, counts, turn_loss, box_loss,
                 luck):
    """Games ``begin .. end - 1`` of :func:`judge_games`."""
    t = new_turn(rules.box_scores.shape[0], rules.n_rerolls, np.int64(1))
    for i in range(begin, end):
        loss[i, :] = 0.0
        counts[i, :] = 0
        luck[i, :, :] = 0.0
        judge_game(traces[i], refs, n_refs, rules, t, loss[i], counts[i], turn_loss[i],
                   box_loss[i], luck[i])

