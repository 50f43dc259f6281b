"""The dice stream of :mod:`solver.game.stream` as numba kernels (uint64 arithmetic): game
``g`` of seed ``s`` starts at ``mix64(mix64(s) + g)`` and each die is ``1 + mix64(state +=
GOLDEN) % 6`` (splitmix64), so a game's dice do not depend on which thread plays it or on
the batch it is in. Rerolled dice are drawn one at a time, in the order the kept dice are
completed. ``tests/solver/game/test_stream.py`` holds the two to the same dice."""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import _jit_cache
from ..game import stream as _stream
from ..game.dice import KEEP_CHILD, KEEP_SIZE

_jit_cache.check()  # before any cached kernel is loaded

GOLDEN = np.uint64(_stream.GOLDEN)
_MIX1 = np.uint64(_stream.MIX1)
_MIX2 = np.uint64(_stream.MIX2)
_SIX = np.uint64(6)


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
