"""The rules, compiled: the numba pieces every kernel builds on.

:func:`next_state`, :func:`joker_lowest_tier` and :func:`placement_entry` (the state
after a box is filled, the Joker's allowed tier, the entry of a final roll in a box) are
compiled from their one Python definition in :mod:`solver.game.rules`;
:func:`roll_entries` (the boxes a final roll may go in) and :func:`roll_bonus` (the
Yahtzee bonus it earns) are built on them for the turn plan (:mod:`solver.kernels.turn`).
"""

from __future__ import annotations

from numba import njit

from .. import _jit_cache
from ..game import rules as _rules
from ..game.dice import FACES, ROLL_FIVE_FACE

_jit_cache.check()  # before any cached kernel is loaded

FAST_MATH = {"nnan", "ninf", "nsz"}
"""The fast-math flags of the arithmetic kernels: no NaN, no infinity, no signed zero (so
``max`` is one vector instruction), but no reassociation and no fused multiply-add. Those
two would let LLVM round differently wherever a step is inlined, and a cached kernel is
linked without inlining: the same question gave results one unit apart in the last place
depending on which kernels a process had compiled itself."""

SIXTH = 1.0 / FACES

next_state = njit(cache=True)(_rules.next_state)
"""Compiled :func:`solver.game.rules.next_state`: (next mask, next capped upper subtotal, next
flag, upper bonus earned now) after entering ``e`` points in open box ``b``."""

joker_lowest_tier = njit(cache=True)(_rules.joker_lowest_tier)
"""Compiled :func:`solver.game.rules.joker_lowest_tier`: the Joker allows the open boxes of
this tier."""

placement_entry = njit(cache=True)(_rules.placement_entry)
"""Compiled :func:`solver.game.rules.placement_entry`: the entry of final roll ``r`` in open box
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
