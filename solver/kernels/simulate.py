"""numba kernels of the game simulator. Plain arrays in, nothing checked.

Dice come from one stream per game (:mod:`solver.kernels.stream`), so a game's dice do
not depend on which thread plays it or on the batch it is in; the moves go to a trace
(:mod:`solver.game.trace`).

The built-in strategies are fixed policies (:mod:`solver.kernels.policy`: a table of
values and a par per box); greedy keeps dice of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numba import njit

from .. import _jit_cache
from ..game.dice import FIRST_ROLL_KEEP, KEEP_CHILD, KEEP_COUNTS, KEEP_SIZE, ROLL_FIVE_FACE
from ..game.rules import N_UPPER, UPPER_TARGET
from .basics import next_state, roll_bonus
from .policy import PolicyTurn, new_turn, play_turns
from .readout import choose
from .stream import game_stream, roll_from
from .threads import run_blocks
from .trace import put_box, put_reroll, start_turn
from .turn import option, plan_turn

_jit_cache.check()  # before any cached kernel is loaded

class TurnCache(NamedTuple):
    """Prepared turns of the states most games pass (:func:`prepare_turns`): ``slot``
    (n_masks, 64, flags) int32, a state's index below or -1; per prepared state the
    ``succ``, ``keeps`` and ``bests`` of its ``PolicyTurn`` (one column)."""

    slot: np.ndarray
    succ: np.ndarray
    keeps: np.ndarray
    bests: np.ndarray


class Games(NamedTuple):
    """Per-game results, one row per game: ``scores`` int64, ``upper_bonus`` int8 (1 when
    earned), ``fives`` int8 (turns ending five alike), ``bonuses`` int8 (Yahtzee
    bonuses), ``entries`` (n, n_boxes) int8; ``traces`` (n, n_boxes, 2 R + 2) int16, the
    moves of each game (:func:`play_game`), or no rows when they are not wanted."""

    scores: np.ndarray
    upper_bonus: np.ndarray
    fives: np.ndarray
    bonuses: np.ndarray
    entries: np.ndarray
    traces: np.ndarray


def play_in_batches(games: int, n_boxes: int, traces: np.ndarray, batch: int,
                    play: Callable[[int, Games], None],
                    progress: Callable[[int, int], None] | None,
                    judge: Callable[[int, np.ndarray], None] | None = None
                    ) -> tuple[np.ndarray, ...]:
    """(scores, upper bonus, fives, bonuses, entries) of ``games`` games played by
    ``play(first game, out)`` in batches of ``batch`` (``traces`` filled when it has a row
    per game), calling ``judge(first game, the batch's traces)`` (then traced even when
    ``traces`` has no rows) and ``progress(games done, games)`` after each batch."""
    out = Games(np.empty(games, dtype=np.int64), np.empty(games, dtype=np.int8),
                np.empty(games, dtype=np.int8), np.empty(games, dtype=np.int8),
                np.empty((games, n_boxes), dtype=np.int8), traces)
    for first in range(0, games, batch):
        stop = min(games, first + batch)
        rows = batch_traces(traces, first, stop, judge, traces.shape[1:])
        play(first, Games(out.scores[first:stop], out.upper_bonus[first:stop],
                          out.fives[first:stop], out.bonuses[first:stop],
                          out.entries[first:stop], rows))
        if judge is not None:
            judge(first, rows)
        if progress is not None:
            progress(stop, games)
    return tuple(out[:5])


def batch_traces(traces: np.ndarray, first: int, stop: int, judge: object | None,
                 shape: tuple[int, int]) -> np.ndarray:
    """Where games ``first .. stop - 1`` write their moves: the rows of the recorded
    ``traces``, a buffer when they are only judged (``judge`` not None), else none (an
    empty array)."""
    if traces.shape[0]:
        return traces[first:stop]
    return np.full((stop - first if judge is not None else 0, *shape), -1, dtype=np.int16)


@njit(cache=True)
def most_common_face_keep(roll_keep):
    """The keep of every die of the most common face (ties: the higher face)."""
    counts = KEEP_COUNTS[roll_keep]
    face = 5
    for f in range(5, -1, -1):
        if counts[f] > counts[face]:
            face = f
    k = 0
    for _ in range(counts[face]):
        k = KEEP_CHILD[k, face]
    return k


@njit(cache=True)
def prepare_turns(m, u, y, values, par, rules, cache):
    """The turns (:func:`~solver.kernels.policy.play_turns`) of the states (m[i], u[i],
    y[i]) into ``cache`` row ``i`` (``cache.slot`` is not read here). Serial: a few
    thousand turns take milliseconds, and a parallel loop costs seconds to compile."""
    one = np.int64(1)  # not literals (see play_turns)
    t = new_turn(rules.box_scores.shape[0], rules.n_rerolls, one)
    for i in range(m.shape[0]):
        into = PolicyTurn(t.plan, t.cols, cache.succ[i], t.work, cache.keeps[i],
                          cache.bests[i], t.choice)
        into.cols[0, 0] = u[i]
        into.cols[1, 0] = y[i]
        play_turns(m[i], one, values, par, rules, into, one)


@njit(cache=True)
def score_box(m, u, y, r, b, e, rules, tally):
    """Enter ``e`` points in box ``b`` after final roll ``r`` in state (m, u, y): the
    next state; ``tally`` (4,) int64 adds the points (score), the upper entry (upper
    sum), a turn ending five alike and a Yahtzee bonus."""
    bonus = roll_bonus(r, y, rules)
    nm, nu, ny, upper_points = next_state(m, u, y, b, e, rules.upper_bonus, rules.yahtzee_box,
                                          rules.n_flags)
    tally[0] += e + int(upper_points) + bonus
    tally[1] += e if b < N_UPPER else 0
    tally[2] += ROLL_FIVE_FACE[r] >= 0
    tally[3] += bonus > 0
    return nm, nu, ny


@njit(cache=True)
def play_game(greedy, stream, values, par, rules, cache, t, entries, trace):
    """Play one game; fills ``entries`` (n_boxes,) and ``trace`` (n_boxes, 2 R + 2; the
    moves, :mod:`solver.game.trace`) and returns the ``tally`` of :func:`score_box`. States
    with ``cache.slot[m, u, y] >= 0`` use the prepared turn there; the others are played
    into ``t`` (a ``PolicyTurn``). A keep of all five dice scores now."""
    scores = rules.box_scores
    n_rerolls = rules.n_rerolls
    tally = np.zeros(4, dtype=np.int64)
    m = u = y = no_roll = np.int64(0)  # not literals (see policy.play_turns)
    one = np.int64(1)
    for turn in range(rules.box_scores.shape[0]):
        c = cache.slot[m, u, y]
        if c >= 0:
            plan_turn(m, rules, t.plan)
            succ, keeps, bests = cache.succ[c], cache.keeps[c], cache.bests[c]
        else:
            t.cols[0, 0] = u
            t.cols[1, 0] = y
            play_turns(m, one, values, par, rules, t, no_roll if greedy else one)
            succ, keeps, bests = t.succ, t.keeps, t.bests
        row = trace[turn]
        roll, stream = roll_from(np.int64(0), stream)
        start_turn(row, roll)
        i = -1
        for j in range(n_rerolls, 0, -1):
            if greedy:
                keep = most_common_face_keep(roll)
            else:
                keep, i = choose(roll - FIRST_ROLL_KEEP, j, succ, keeps, bests, rules, t)
            if i >= 0 or KEEP_SIZE[keep] == 5:  # scores now
                break
            roll, stream = roll_from(keep, stream)
            put_reroll(row, n_rerolls - j, keep, roll)
        r = roll - FIRST_ROLL_KEEP
        if i < 0:
            i = choose(r, no_roll, succ, keeps, bests, rules, t)[1]
        _, b, e, _ = option(t.plan, r, i, scores)
        put_box(row, b)
        entries[b] = e
        m, u, y = score_box(m, u, y, r, b, e, rules, tally)
    return tally


def play_games(greedy, seed, first_game, values, par, rules, cache, out):
    """Play games ``first_game .. first_game + n - 1`` of ``seed`` (uint64s) into ``out``
    (:class:`Games`), in blocks of 256 games on numba's threads; ``cache``: prepared
    turns (:func:`prepare_turns`)."""
    n = out.scores.shape[0]
    run_blocks(_play_block, n, (n + 255) // 256, greedy, seed, first_game, values, par, rules,
               cache, out)


@njit(cache=True, nogil=True)
def _play_block(begin, end, greedy, seed, first_game, values, par, rules, cache, out):
    """Games ``begin .. end - 1`` of :func:`play_games`."""
    row, trace = game_scratch(rules)
    t = new_turn(rules.box_scores.shape[0], rules.n_rerolls, np.int64(1))
    for i in range(begin, end):
        stream = game_stream(seed, first_game + np.uint64(i))
        tally = play_game(greedy, stream, values, par, rules, cache, t, row, trace)
        store_game(i, tally, row, trace, out)


@njit(cache=True)
def game_scratch(rules):
    """A game's entries ``(n_boxes,)`` int64 and trace ``(n_boxes, 2 * rolls per turn)``
    int16 (:mod:`solver.game.trace`), written over game after game (:func:`store_game`)."""
    n_boxes = rules.box_scores.shape[0]
    return (np.empty(n_boxes, dtype=np.int64),
            np.empty((n_boxes, 2 * rules.n_rerolls + 2), dtype=np.int16))


@njit(cache=True)
def store_game(i, tally, row, trace, out):
    """Write game ``i``'s ``tally`` (see :func:`score_box`), its entries ``row`` and, when
    ``out.traces`` has a row per game, its ``trace``."""
    out.scores[i] = tally[0]
    out.upper_bonus[i] = 1 if tally[1] >= UPPER_TARGET else 0
    out.fives[i] = tally[2]
    out.bonuses[i] = tally[3]
    for b in range(row.shape[0]):
        out.entries[i, b] = row[b]
    if out.traces.shape[0] == out.scores.shape[0]:
        for k in range(trace.shape[0]):
            for s in range(trace.shape[1]):
                out.traces[i, k, s] = trace[k, s]
