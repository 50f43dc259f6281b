"""numba kernels of batch strategies: many games in lockstep, one decision each per step,
answered as actions (:mod:`solver.game.actions`: keeps by dice position, then boxes).
Plain arrays in, nothing checked but what :func:`check_actions` checks.

The games of a batch (``Board``, one row each): ``stream`` uint64 dice streams (those of
``kernels.stream``: the same dice as every other strategy), ``roll`` the roll showing
(keep index), ``left`` rolls left, ``state`` (n, 3) the mask, capped upper subtotal and
flag, ``tally`` (n, 5) points, uncapped upper sum, turns ending five alike, Yahtzee
bonuses, turns played; ``entries`` (n, n_boxes) -1 while open; ``traces`` (n, n_boxes,
2 R + 2) the moves (:mod:`solver.game.trace`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from .. import _jit_cache
from ..game.dice import FIRST_ROLL_KEEP, KEEP_CHILD, ROLLS
from .basics import roll_entries
from .simulate import score_box
from .stream import game_stream, roll_from
from .trace import put_box, put_reroll, start_turn

_jit_cache.check()  # before any cached kernel is loaded

KEEP_ACTIONS = 31
OK, NO_ROLL_LEFT, BOX_NOT_ALLOWED, NOT_AN_ACTION = 0, 1, 2, 3
"""What :func:`check_actions` finds wrong with an action."""
TURN = 4
"""The column of ``tally`` counting the turns played."""


class Board(NamedTuple):
    stream: np.ndarray
    roll: np.ndarray
    left: np.ndarray
    state: np.ndarray
    tally: np.ndarray
    entries: np.ndarray
    traces: np.ndarray


@njit(cache=True)
def start_games(seed, first_game, n_rerolls, board):
    """Games ``first_game ..`` of ``seed`` (uint64s): an empty card, the first roll."""
    for i in range(board.stream.shape[0]):
        roll, stream = roll_from(np.int64(0), game_stream(seed, first_game + np.uint64(i)))
        board.stream[i] = stream
        board.roll[i] = roll
        board.left[i] = n_rerolls
        start_turn(board.traces[i, 0], roll)


@njit(cache=True, parallel=True)
def observe(games, board, rules, dice, card, upper, yahtzee, mask):
    """Rows ``i`` for games ``games[i]``: ``dice`` (n, 5) faces, lowest first; ``card`` (n,
    n_boxes) entries, -1 while open; ``upper`` the upper sum (not capped); ``yahtzee`` 0
    open, 1 holding 0, 2 holding 50; ``mask`` (n, 31 + n_boxes) int8, the legal actions."""
    n_boxes = rules.box_scores.shape[0]
    for i in prange(games.shape[0]):
        g = games[i]
        r = board.roll[g] - FIRST_ROLL_KEEP
        for d in range(5):
            dice[i, d] = ROLLS[r, d]
        for b in range(n_boxes):
            card[i, b] = board.entries[g, b]
        upper[i] = board.tally[g, 1]
        held = board.entries[g, rules.yahtzee_box]
        yahtzee[i] = 0 if held < 0 else (2 if held == 50 else 1)
        keeps = 1 if board.left[g] > 0 else 0
        for a in range(KEEP_ACTIONS):
            mask[i, a] = keeps
        for b in range(n_boxes):
            mask[i, KEEP_ACTIONS + b] = 0
        box = np.empty(n_boxes, dtype=np.int64)
        entry = np.empty(n_boxes, dtype=np.int64)
        for o in range(roll_entries(r, board.state[g, 0], rules, box, entry)):
            mask[i, KEEP_ACTIONS + box[o]] = 1


@njit(cache=True)
def _entry(r, m, b, rules, box, entry):
    """The entry of roll ``r`` in box ``b`` under mask ``m``, or -1 when not allowed."""
    for i in range(roll_entries(r, m, rules, box, entry)):
        if box[i] == b:
            return entry[i]
    return -1


@njit(cache=True, parallel=True)
def check_actions(games, board, actions, rules, errors):
    """``errors[i]``: what is wrong with action ``actions[i]`` of game ``games[i]``."""
    n_boxes = rules.box_scores.shape[0]
    for i in prange(games.shape[0]):
        g, a = games[i], actions[i]
        errors[i] = OK
        if a < 0 or a >= KEEP_ACTIONS + n_boxes:
            errors[i] = NOT_AN_ACTION
        elif a < KEEP_ACTIONS:
            if board.left[g] == 0:
                errors[i] = NO_ROLL_LEFT
        else:
            box = np.empty(n_boxes, dtype=np.int64)
            entry = np.empty(n_boxes, dtype=np.int64)
            if _entry(board.roll[g] - FIRST_ROLL_KEEP, board.state[g, 0], a - KEEP_ACTIONS,
                      rules, box, entry) < 0:
                errors[i] = BOX_NOT_ALLOWED


@njit(cache=True)
def apply_actions(games, board, actions, rules):
    """Play legal action ``actions[i]`` in game ``games[i]``: reroll the dice not kept,
    or fill the box (points, bonuses, the next turn's first roll). Serial: a parallel
    loop writing through the ``board`` tuple left its arrays unchanged, and a step is
    cheap."""
    n_boxes = rules.box_scores.shape[0]
    for i in range(games.shape[0]):
        g, a = games[i], actions[i]
        r = board.roll[g] - FIRST_ROLL_KEEP
        t = board.tally[g, TURN]
        j = board.left[g]
        if a < KEEP_ACTIONS:
            k = 0
            for d in range(5):
                if a >> d & 1:
                    k = KEEP_CHILD[k, ROLLS[r, d] - 1]
            roll, stream = roll_from(k, board.stream[g])
            board.stream[g] = stream
            board.roll[g] = roll
            board.left[g] = j - 1
            put_reroll(board.traces[g, t], rules.n_rerolls - j, k, roll)
            continue
        b = a - KEEP_ACTIONS
        m, u, y = board.state[g, 0], board.state[g, 1], board.state[g, 2]
        box = np.empty(n_boxes, dtype=np.int64)
        entry = np.empty(n_boxes, dtype=np.int64)
        e = _entry(r, m, b, rules, box, entry)
        nm, nu, ny = score_box(m, u, y, r, b, e, rules, board.tally[g])
        board.entries[g, b] = e
        board.state[g, 0] = nm
        board.state[g, 1] = nu
        board.state[g, 2] = ny
        put_box(board.traces[g, t], b)
        board.tally[g, TURN] = t + 1
        if t + 1 < n_boxes:
            roll, stream = roll_from(np.int64(0), board.stream[g])
            board.stream[g] = stream
            board.roll[g] = roll
            board.left[g] = rules.n_rerolls
            start_turn(board.traces[g, t + 1], roll)
