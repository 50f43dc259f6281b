"""numba kernels of one turn played by a fixed policy (the statistics and the simulator).

A fixed policy is data for the expected-score turn (:mod:`solver.kernels.expected`): a
table ``values`` of what each next state is worth and ``par[b]``, what filling box ``b``
costs. The value of an option is

    G(o) = points + upper bonus + values[next state] - par[b]

- ``optimal``: the solved table, no par;
- ``greedy-turn``: a table of zeros (only this turn's points count), no par;
- ``heuristic``: a table of zeros and each box's par;
- ``greedy``: as ``greedy-turn`` for the box, with keeps of its own (the simulator's).

Which option of a played turn is best is read off it by :mod:`solver.kernels.readout`
(the one order of :mod:`solver.game.ties`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .. import _jit_cache
from ..game.dice import N_KEEPS, N_ROLLS
from .expected import final_rolls, gather
from .turn import new_plan, plan_turn, rerolls

_jit_cache.check()  # before any cached kernel is loaded


class PolicyTurn(NamedTuple):
    """The turns of up to W states of one mask under a fixed policy, one column each
    (:func:`new_turn`): the mask's ``plan``; ``cols`` (2, W) int64, the
    states' upper subtotals and flags; ``succ`` (6 n_boxes, W), each successor's value
    (:func:`~solver.kernels.expected.gather`) less the par of its box; ``work`` (462, W);
    the stages ``keeps`` and ``bests`` (R + 1, 462, W): V_0 at the roll rows and K_j,
    and B_j (at the roll rows V_j); ``choice`` (252,) int64, the option each final roll of
    one column goes to (``readout.best_boxes``)."""

    plan: tuple
    cols: np.ndarray
    succ: np.ndarray
    work: np.ndarray
    keeps: np.ndarray
    bests: np.ndarray
    choice: np.ndarray


@njit(cache=True)
def new_turn(n_boxes, n_rerolls, width):
    """An empty :class:`PolicyTurn` of ``width`` columns."""
    stages = (n_rerolls + 1, N_KEEPS, width)
    return PolicyTurn(new_plan(n_boxes), np.zeros((2, width), dtype=np.int64),
                      np.zeros((6 * n_boxes, width)), np.empty((N_KEEPS, width)),
                      np.empty(stages), np.empty(stages), np.zeros(N_ROLLS, dtype=np.int64))


@njit(cache=True)
def play_turns(m, width, values, par, rules, t, depth):
    """Fill ``t`` for the states (m, t.cols[0, c], t.cols[1, c]), c < ``width``, under
    the policy (``values``, ``par``): the successors' values; with ``depth`` 1 the final
    rolls and rerolls too (the expected-score turn, on the policy's data) but
    ``bests[R]``; with 2 all (see ``readout.choose_keep``). Kernels pass ``width`` and
    ``depth`` as int64 variables (``np.int64(1)``), not literals: numba compiles a callee
    once more for every literal argument value it is called with."""
    plan_turn(m, rules, t.plan)
    cols_u, cols_y = t.cols[0, :width], t.cols[1, :width]
    gather(m, cols_u, cols_y, values, par, rules, t.plan, t.succ)
    if depth > 0:
        final_rolls(t.plan, t.succ, cols_y, rules, t.work)
        rerolls(t.work, width, rules, t.keeps, t.bests, depth > 1)


@njit(cache=True)
def prepared_turn(m, u, y, values, par, rules, cache, t, depth):
    """(succ, keeps, bests) of the turn of state (m, u, y) under the policy (``values``,
    ``par``): prepared in ``cache`` (a ``kernels.simulate.TurnCache``) when
    ``cache.slot[m, u, y] >= 0``, else played into ``t`` to ``depth`` (:func:`play_turns`);
    ``t.plan`` is the mask's either way."""
    c = cache.slot[m, u, y]
    if c >= 0:
        plan_turn(m, rules, t.plan)
        return cache.succ[c], cache.keeps[c], cache.bests[c]
    t.cols[0, 0] = u
    t.cols[1, 0] = y
    play_turns(m, np.int64(1), values, par, rules, t, depth)
    return t.succ, t.keeps, t.bests
