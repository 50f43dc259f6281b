"""The basic numba pieces every kernel module shares (solver, policy, stats, simulator).

- :func:`next_state`, :func:`joker_lowest_tier` and :func:`placement_entry`: the rules'
  transition after a box is filled, the Joker's allowed tier and the entry of a final
  roll in a box, compiled from their one Python definition in :mod:`solver.rules`;
  :func:`roll_entries` (the boxes a final roll may go in), :func:`roll_bonus` (the
  Yahtzee bonus it earns) and :func:`entry_variant` (which successor an entry leads to)
  built on them for the final-roll gathers.
- :func:`expect_keeps` and :func:`best_sub_keeps`: the two reroll steps of a turn, on a
  work array ``work`` (462, >= width) holding one value per keep and *column*. What a
  column is belongs to the caller: a state's expected points (``kernels.expected``), or the
  probability of reaching one target score, or any other quantity averaged over the dice
  and maximised over the keeps. A new objective gives the roll rows of ``work`` their
  final-roll values (its own gather) and reuses these steps unchanged:

      K(k) = (1/6) sum_f K(k + f)   (keeps of fewer than five dice)
      B(k) = max(K(k), max_f B(k - f))   (so at the roll rows, V(r) = best keep of r)
"""

from __future__ import annotations

from numba import njit

from .. import _jit_cache
from ..game import rules as _rules
from ..game.dice import (
    FACES,
    FIRST_ROLL_KEEP,
    KEEP_CHILD,
    KEEP_SUB_COUNT,
    KEEP_SUB_LIST,
    ROLL_FIVE_FACE,
)
from ..game.rules import N_UPPER

_jit_cache.check()  # before any cached kernel is loaded

FAST_MATH = {"nnan", "ninf", "nsz"}
"""The fast-math flags of the arithmetic kernels: no NaN, no infinity, no signed zero (so
``max`` is one vector instruction), but no reassociation and no fused multiply-add. Those
two would let LLVM round differently wherever a step is inlined, and a cached kernel is
linked without inlining: the same question gave results one unit apart in the last place
depending on which kernels a process had compiled itself."""

SIXTH = 1.0 / FACES

next_state = njit(cache=True)(_rules.next_state)
"""Compiled :func:`solver.rules.next_state`: (next mask, next capped upper subtotal, next
flag, upper bonus earned now) after entering ``e`` points in open box ``b``."""

joker_lowest_tier = njit(cache=True)(_rules.joker_lowest_tier)
"""Compiled :func:`solver.rules.joker_lowest_tier`: the Joker allows the open boxes of
this tier."""

placement_entry = njit(cache=True)(_rules.placement_entry)
"""Compiled :func:`solver.rules.placement_entry`: the entry of final roll ``r`` in open box
``b``, or -1 when the Joker forbids the box."""


@njit(cache=True)
def roll_entries(r, m, rules, box, entry):
    """The open boxes final roll ``r`` may go in under filled mask ``m`` (the Joker
    applied), in box order: returns ``n`` and fills ``box[:n]`` and ``entry[:n]``."""
    f = ROLL_FIVE_FACE[r]
    low = joker_lowest_tier(f, m, rules.joker_tier) if f >= 0 else 0
    n = 0
    for b in range(rules.box_scores.shape[0]):
        if m >> b & 1:
            continue
        p = placement_entry(r, b, m, rules, low)
        if p >= 0:
            box[n] = b
            entry[n] = p
            n += 1
    return n


@njit(cache=True)
def roll_bonus(r, y, rules):
    """The Yahtzee bonus final roll ``r`` earns in a state with flag ``y`` (points)."""
    if ROLL_FIVE_FACE[r] >= 0 and rules.n_flags == 2 and y == 1:
        return int(rules.yahtzee_bonus)
    return 0


@njit(cache=True)
def entry_variant(b, p, rules):
    """Which successor an entry of ``p`` in box ``b`` leads to, among the box's at most six:
    an upper box, the number of dice of its face (``p // face``); the Yahtzee box of a
    rule set that pays bonuses, 1 for a 50 (the flag is set); any other entry, 0."""
    if b < N_UPPER:
        return p // (b + 1)
    return 1 if (b == rules.yahtzee_box and p > 0 and rules.n_flags == 2) else 0


@njit(cache=True, fastmath=FAST_MATH)
def expect_keeps(work, width):
    """K(k) = mean over the six faces of K(k + f), for every keep of fewer than five dice,
    in columns ``0..width-1`` of ``work`` (462, >= width); the roll rows are read."""
    for k in range(FIRST_ROLL_KEEP - 1, -1, -1):
        out = work[k]
        a0 = work[KEEP_CHILD[k, 0]]
        a1 = work[KEEP_CHILD[k, 1]]
        a2 = work[KEEP_CHILD[k, 2]]
        a3 = work[KEEP_CHILD[k, 3]]
        a4 = work[KEEP_CHILD[k, 4]]
        a5 = work[KEEP_CHILD[k, 5]]
        for c in range(width):
            out[c] = (a0[c] + a1[c] + a2[c] + a3[c] + a4[c] + a5[c]) * SIXTH


@njit(cache=True, fastmath=FAST_MATH)
def best_sub_keeps(work, width, unit):
    """B(k) = max(K(k), B(k - f)) in place, smallest keeps first, in columns
    ``0..width-1``; the roll rows become V. ``unit`` is 1.0 (see ``RuleArrays.unit``)."""
    for k in range(1, work.shape[0]):
        out = work[k]
        for j in range(KEEP_SUB_COUNT[k]):
            src = work[KEEP_SUB_LIST[k, j]]
            for c in range(width):
                out[c] = max(out[c], src[c]) * unit
