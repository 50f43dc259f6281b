"""numba kernels of the game simulator. Plain arrays in, nothing checked.

Dice come from one counter-based stream per game: game ``g`` of seed ``s`` starts at
``mix64(mix64(s) + g)`` and each die is ``1 + mix64(state += GOLDEN) % 6`` (splitmix64),
so a game's dice do not depend on which thread plays it or on the batch it is in.
Rerolled dice are drawn one at a time, in the order the kept dice are completed.

Strategies (``STRATEGY_*``) differ only in the ``gain`` of a placement (see
``kernels.policy``) and, for greedy, in the keeps.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .. import _jit_cache
from ..game.dice import (
    FIRST_ROLL_KEEP,
    KEEP_CHILD,
    KEEP_COUNTS,
    KEEP_SIZE,
    N_KEEPS,
    N_ROLLS,
    ROLL_FIVE_FACE,
)
from ..game.rules import N_UPPER, UPPER_TARGET
from . import policy as tp
from .basics import next_state

_jit_cache.check()  # before any cached kernel is loaded

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_SIX = np.uint64(6)

STRATEGY_OPTIMAL = 0
STRATEGY_GREEDY = 1
STRATEGY_HEURISTIC = 2


@njit(cache=True)
def mix64(z):
    """The splitmix64 finaliser of a uint64."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def game_stream(seed, game):
    """The stream state (uint64) of game ``game`` of seed ``seed`` (both uint64)."""
    return mix64(mix64(seed) + game)


@njit(cache=True)
def roll_from(keep, stream):
    """Complete ``keep`` to five dice with fresh dice; (roll keep index, new stream)."""
    k = keep
    for _ in range(5 - KEEP_SIZE[keep]):
        stream = stream + GOLDEN
        face = mix64(stream) % _SIX
        k = KEEP_CHILD[k, np.int64(face)]
    return k, stream


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
def simple_gain(m, u, rules, par, gain):
    """``gain[b, e]`` = e + upper bonus the entry earns - ``par[b]`` (greedy: par = 0)."""
    n_boxes = gain.shape[0]
    for b in range(n_boxes):
        if m >> b & 1:
            continue
        for e in range(tp.MAX_ENTRY):
            bonus = next_state(m, u, 0, b, e, rules.upper_bonus, rules.yahtzee_box,
                               rules.n_flags)[3]
            gain[b, e] = e + bonus - par[b]


@njit(cache=True)
def prepare_turn(strategy, m, u, y, values, rules, par, gain, final_value, keep_value,
                 roll_best):
    """Fill ``gain`` and (but for greedy) ``keep_value``/``roll_best`` of state (m, u, y)."""
    if strategy == STRATEGY_OPTIMAL:
        tp.optimal_gain(m, u, y, values, rules, gain)
    else:
        simple_gain(m, u, rules, par, gain)
    if strategy != STRATEGY_GREEDY:
        tp.final_roll_best(m, y, gain, rules, final_value)
        tp.keep_values(final_value, rules.n_rerolls, keep_value, roll_best, False)


@njit(cache=True, parallel=True)
def prepare_turns(strategy, level_m, level_u, level_y, values, rules, par, cache):
    """:func:`prepare_turn` for many states, into ``cache`` = (slot, gains, keep values,
    roll bests): ``gains`` (n, n_boxes, 51), ``keep values`` and ``roll bests``
    (n, n_rerolls + 1, 462), the common early turns (``slot`` is not read here)."""
    _, gains, keep_values, roll_bests = cache
    for i in prange(level_m.shape[0]):
        final_value = np.empty(N_ROLLS)
        prepare_turn(strategy, level_m[i], level_u[i], level_y[i], values, rules, par,
                     gains[i], final_value, keep_values[i], roll_bests[i])


@njit(cache=True)
def bin_count(m):
    """Number of set bits of ``m`` (filled boxes)."""
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@njit(cache=True)
def play_game(strategy, stream, values, rules, par, cache, entries, scratch_gain, final_value,
              scratch_keep, scratch_best, trace):
    """Play one game; fills ``entries`` (n_boxes,) and ``trace`` (n_boxes, 2 * n_rerolls
    + 2) and returns (score, upper bonus earned 0/1, turns ending five alike, Yahtzee
    bonuses). ``cache`` = (slot, gains, keep values, roll bests): states with
    ``slot[m, u, y] >= 0`` use the prepared turn at that index (see :func:`prepare_turns`).

    ``trace[t]`` is turn ``t`` as keep indices: roll, keep, roll, ..., keep, roll, then the
    box; a keep of all five dice stops the turn (the slots after it are -1)."""
    cache_slot, cache_gain, cache_keep, cache_best = cache
    n_boxes = rules.box_scores.shape[0]
    n_flags = rules.n_flags
    n_rerolls = rules.n_rerolls
    m = 0
    u = 0
    y = 0
    upper_sum = 0
    score = 0.0
    fives = 0
    bonuses = 0
    for _ in range(n_boxes):
        c = cache_slot[m, u, y]
        if c >= 0:
            gain = cache_gain[c]
            keep_value = cache_keep[c]
            roll_best = cache_best[c]
        else:
            gain = scratch_gain
            keep_value = scratch_keep
            roll_best = scratch_best
            prepare_turn(strategy, m, u, y, values, rules, par, gain, final_value, keep_value,
                         roll_best)
        t = bin_count(m)
        trace[t, :] = -1
        roll, stream = roll_from(0, stream)
        trace[t, 0] = roll
        stopped = False
        for j in range(n_rerolls, 0, -1):
            r = roll - FIRST_ROLL_KEEP
            if strategy == STRATEGY_GREEDY:
                keep = most_common_face_keep(roll)
            elif j == n_rerolls:
                keep = tp.best_keep(r, keep_value[j])
            else:
                keep = tp.first_keep_within(r, keep_value[j], roll_best[j, roll])
            roll, stream = roll_from(keep, stream)
            if not stopped:
                slot = 2 * (n_rerolls - j) + 1
                trace[t, slot] = keep
                if KEEP_SIZE[keep] == 5:
                    stopped = True
                else:
                    trace[t, slot + 1] = roll
        r = roll - FIRST_ROLL_KEEP
        b, e, _ = tp.best_box(r, m, y, gain, rules)
        trace[t, 2 * n_rerolls + 1] = b
        five = ROLL_FIVE_FACE[r] >= 0
        if five:
            fives += 1
            if n_flags == 2 and y == 1 and rules.yahtzee_bonus > 0:
                bonuses += 1
                score += rules.yahtzee_bonus
        entries[b] = e
        if b < N_UPPER:
            upper_sum += e
        m, u, y, upper_points = next_state(m, u, y, b, e, rules.upper_bonus, rules.yahtzee_box,
                                           n_flags)
        score += e + upper_points
    return score, 1 if upper_sum >= UPPER_TARGET else 0, fives, bonuses


@njit(cache=True, parallel=True)
def play_games(strategy, seed, first_game, values, rules, par, cache, scores,
               upper_bonus_earned, fives, bonuses, entries, traces):
    """Play games ``first_game .. first_game + len(scores) - 1`` of ``seed`` (uint64s).

    Writes per game: ``scores`` (n,) int64 final score, ``upper_bonus_earned`` (n,) int8,
    ``fives`` (n,) int8 turns ending five alike, ``bonuses`` (n,) int8 Yahtzee bonuses,
    ``entries`` (n, n_boxes) int8 the entry of each box; ``traces`` (n, n_boxes,
    2 * n_rerolls + 2) int16 the moves of each game (see :func:`play_game`), or an empty
    array (0, n_boxes, 2 * n_rerolls + 2) when they are not wanted. ``cache``: prepared
    turns (see :func:`prepare_turns` and :func:`play_game`).
    """
    n = scores.shape[0]
    n_boxes = rules.box_scores.shape[0]
    n_rerolls = rules.n_rerolls
    chunk = 256
    for c in prange((n + chunk - 1) // chunk):
        gain = np.zeros((n_boxes, tp.MAX_ENTRY))
        final_value = np.empty(N_ROLLS)
        keep_value = np.empty((n_rerolls + 1, N_KEEPS))
        roll_best = np.empty((n_rerolls + 1, N_KEEPS))
        row = np.empty(n_boxes, dtype=np.int64)
        trace = np.empty((n_boxes, 2 * n_rerolls + 2), dtype=np.int16)
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            stream = game_stream(seed, first_game + np.uint64(i))
            result = play_game(strategy, stream, values, rules, par, cache, row, gain,
                               final_value, keep_value, roll_best, trace)
            store_game(i, result, row, trace, scores, upper_bonus_earned, fives, bonuses,
                       entries, traces)


@njit(cache=True)
def store_game(i, result, row, trace, scores, upper_bonus_earned, fives, bonuses, entries,
               traces):
    """Write game ``i``'s ``result`` (score, upper bonus earned, turns five alike, Yahtzee
    bonuses), its entries ``row`` and, when ``traces`` has a row per game, its ``trace``."""
    total, ub, f, yb = result
    scores[i] = int(total)
    upper_bonus_earned[i] = ub
    fives[i] = f
    bonuses[i] = yb
    entries[i, :] = row
    if traces.shape[0] == scores.shape[0]:
        traces[i] = trace
