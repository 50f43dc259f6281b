"""numba kernels of the exact statistics of optimal play. Plain arrays in, nothing checked.

For each turn-start state ``s`` the optimal policy (:mod:`solver.kernels.policy`, its
choices read by :mod:`solver.kernels.readout`) gives the probability ``q_s(r)`` that the turn
ends with final roll ``r``: probability mass is pushed through the chosen keeps one die
at a time (the transpose of the keep averages). Each final roll goes to one box, so the
turn has a few dozen outcomes ``o = (box b, entry e, bonus c)`` of probability ``w_o``,
each with its points ``p_o`` and next state ``s'_o``. Then, backwards from full cards:

    D_s(t) = sum_o w_o D_{s'_o}(t - p_o)          (points still to come: distribution)
    F_s    = sum_o w_o (f_o + F_{s'_o})           (expected counts: entries, zeros, bonuses)

``D_s`` is stored on 0..maxpoints(s) (a bound from the open boxes) in a
:class:`~solver.kernels.level.LevelStore`, ``F_s`` in its ``extra``, level by level.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .. import _jit_cache
from ..game.dice import (
    FIRST_ROLL_KEEP,
    KEEP_CHILD,
    N_KEEPS,
    N_ROLLS,
    ROLL_FIVE_FACE,
    ROLL_PROBABILITY,
)
from .basics import SIXTH, next_state
from .moments import state_moments
from .policy import new_turn, play_turns
from .readout import best_boxes, choose_keep
from .threads import run_blocks
from .turn import option, plan_bonus

_jit_cache.check()  # before any cached kernel is loaded

CHUNK = 32
"""States of one mask played together (the columns of the expected-score turn)."""
MAX_ENTRY = 51
"""Entries are 0..50 points."""
DISTRIBUTION, MOMENTS = 0, 1
"""What :func:`stats_level` stores."""


class Outcomes(NamedTuple):
    """Scratch of one state's turn outcomes: ``mass`` (252,), the probability of each
    final roll; ``keep_mass`` (462,); ``grid`` (n_boxes, 51, 2), the probability of each
    outcome (box, entry, bonus); the outcomes of nonzero probability as a list
    (:func:`list_outcomes`): ``w`` (252,) their probabilities, ``points`` (252,) the points
    each adds (entry, Yahtzee bonus, upper bonus), ``moves`` (252, 7) int64 each one's
    box, entry, bonus (0 or 1), next state (mask, capped subtotal, flag) and the upper
    bonus it earns."""

    mass: np.ndarray
    keep_mass: np.ndarray
    grid: np.ndarray
    w: np.ndarray
    points: np.ndarray
    moves: np.ndarray


@njit(cache=True)
def new_outcomes(n_boxes):
    """An empty :class:`Outcomes` for a rule set of ``n_boxes`` boxes."""
    return Outcomes(np.empty(N_ROLLS), np.empty(N_KEEPS), np.empty((n_boxes, MAX_ENTRY, 2)),
                    np.empty(N_ROLLS), np.empty(N_ROLLS), np.empty((N_ROLLS, 7), dtype=np.int64))


@njit(cache=True)
def final_roll_mass(keeps, bests, c, n_rerolls, mass, keep_mass):
    """``mass[r]`` = probability that the turn of column ``c`` (``keeps`` and ``bests``
    of a ``PolicyTurn``) ends with final roll r, from a first roll of all five dice;
    ``keep_mass`` (462,) is scratch."""
    for r in range(N_ROLLS):
        mass[r] = ROLL_PROBABILITY[r]
    spread = keep_mass.reshape((N_KEEPS, 1))
    for j in range(n_rerolls, 0, -1):
        keep_mass[:] = 0.0
        for r in range(N_ROLLS):
            if mass[r] > 0.0:
                keep_mass[choose_keep(r, j, c, keeps, bests, True)] += mass[r]
        spread_keeps(spread, np.int64(1))
        for r in range(N_ROLLS):
            mass[r] = keep_mass[FIRST_ROLL_KEEP + r]


@njit(cache=True)
def spread_keeps(keep_mass, width):
    """Push the probability of each keep of fewer than five dice (``keep_mass`` (462,
    >= width), columns ``c < width``) one die at a time, fewest dice first, to the rolls
    it leads to: the roll rows then hold each roll's probability. (The transpose of the
    keep averages; per column the same additions in the same order at any width.)"""
    for k in range(FIRST_ROLL_KEEP):
        for f in range(6):
            child = KEEP_CHILD[k, f]
            for c in range(width):
                keep_mass[child, c] += keep_mass[k, c] * SIXTH


@njit(cache=True)
def state_outcomes(c, y, rules, t, o):
    """Fill ``o.grid[b, e, c]`` with the probability of each turn outcome of the state in
    column ``c`` of ``t`` (a played ``PolicyTurn``, flag ``y``); returns the probability
    that the turn ends with five alike."""
    final_roll_mass(t.keeps, t.bests, c, rules.n_rerolls, o.mass, o.keep_mass)
    best_boxes(t.succ, c, t.plan, rules, np.int64(0), np.int64(N_ROLLS), t.choice)
    return outcome_grid(t.plan, t.choice, o.mass, y, rules, o.grid)


@njit(cache=True)
def outcome_grid(plan, choice, mass, y, rules, grid):
    """``grid[b, e, c]`` = the probability of each outcome (box, entry, bonus) from the
    final rolls' ``mass`` and ``choice`` (their options); returns P(five alike). (Arrays
    as arguments: read from a tuple inside a loop with branches, numba counts their
    references at every read.)"""
    scores = rules.box_scores
    grid[:] = 0.0
    five_alike = 0.0
    for r in range(N_ROLLS):
        w = mass[r]
        _, b, e, _ = option(plan, r, choice[r], scores)
        c = plan_bonus(plan, r, y)
        grid[b, e, 1 if c > 0 else 0] += w
        if ROLL_FIVE_FACE[r] >= 0:
            five_alike += w
    return five_alike


@njit(cache=True)
def list_outcomes(m, u, y, grid, rules, w, points, moves):
    """The outcomes of nonzero probability in ``grid`` (see :func:`outcome_grid`) of the
    turn of state (m, u, y), by box, entry and bonus, into ``w``, ``points`` and ``moves``
    (see :class:`Outcomes`); returns how many."""
    n = 0
    for b in range(rules.box_scores.shape[0]):
        if m >> b & 1:
            continue
        for e in range(MAX_ENTRY):
            for c in range(2):
                if grid[b, e, c] == 0.0:
                    continue
                nm, nu, ny, upper_points = next_state(m, u, y, b, e, rules.upper_bonus,
                                                      rules.yahtzee_box, rules.n_flags)
                w[n] = grid[b, e, c]
                points[n] = e + c * rules.yahtzee_bonus + upper_points
                row = moves[n]
                row[0], row[1], row[2], row[3], row[4], row[5] = b, e, c, nm, nu, ny
                row[6] = 1 if upper_points > 0 else 0
                n += 1
    return n


@njit(cache=True)
def _state_distribution(i, n, o, here, below, slot, rules):
    """The distribution and counts of state ``i`` of ``here`` from its ``n`` listed
    outcomes ``o`` (see ``extra`` in :func:`stats_level`)."""
    n_boxes = rules.box_scores.shape[0]
    out = here.vals[here.start[i]:here.start[i + 1]]
    extra = here.extra[i]
    for k in range(n):
        w = o.w[k]
        move = o.moves[k]
        b, e = move[0], move[1]
        if move[6]:
            extra[2 * n_boxes] += w
        j = slot[move[3], move[4], move[5]]
        src = below.vals[below.start[j]:below.start[j + 1]]
        shift = int(o.points[k])
        for x in range(src.shape[0]):
            out[shift + x] += w * src[x]
        for x in range(extra.shape[0]):
            extra[x] += w * below.extra[j, x]
        extra[b] += w * e
        if e == 0:
            extra[n_boxes + b] += w
        if move[2] == 1:
            extra[2 * n_boxes + 2] += w


def stats_level(tasks, here, below, slot, values, rules, figures, blocks=256):
    """Fill ``here`` (a zeroed ``LevelStore`` of one level's states) from ``below``, the
    level with one more box filled; ``slot[m, u, y]`` is a state's index in its level.
    A task (row of ``tasks``: first state, number of states) is up to ``CHUNK`` states of
    one mask, played together, one column each.

    ``figures`` says what is stored. :data:`DISTRIBUTION`: the distribution of the points
    still to come in ``vals``, and in ``extra`` per state: mean entry per box, P(zero)
    per box, P(upper bonus), E(turns ending five alike), E(Yahtzee bonuses) over the rest
    of the game. :data:`MOMENTS`: the why's four figures in ``extra``
    (:func:`solver.kernels.moments.state_moments`). In up to ``blocks`` blocks of
    contiguous tasks on numba's threads (the same values in any number of blocks: each
    writes its own states).
    """
    run_blocks(_solve_tasks, tasks.shape[0], blocks, tasks, here, below, slot, values,
               rules, figures)


@njit(cache=True, nogil=True)
def _solve_tasks(begin, end, tasks, here, below, slot, values, rules, figures):
    """The tasks ``begin .. end - 1`` of :func:`stats_level`."""
    n_boxes = rules.box_scores.shape[0]
    t = new_turn(n_boxes, rules.n_rerolls, np.int64(CHUNK))
    o = new_outcomes(n_boxes)
    par = np.zeros(n_boxes)
    for task in range(begin, end):
        first, n = tasks[task, 0], tasks[task, 1]
        for c in range(n):
            t.cols[0, c] = here.u[first + c]
            t.cols[1, c] = here.y[first + c]
        play_turns(here.m[first], n, values, par, rules, t, np.int64(2))  # no literal
        for c in range(n):
            i = first + c
            five = state_outcomes(c, here.y[i], rules, t, o)
            found = list_outcomes(here.m[i], here.u[i], here.y[i], o.grid, rules, o.w,
                                  o.points, o.moves)
            if figures == MOMENTS:
                state_moments(i, found, o, here, below, slot, values, rules)
            else:
                here.extra[i, 2 * n_boxes + 1] += five
                _state_distribution(i, found, o, here, below, slot, rules)
