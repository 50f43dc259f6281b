"""The trace layout of :mod:`solver.game.trace`, compiled for the game loops and the judge:
the very functions of the game layer (plain arithmetic on a row), so a slot is spelled in
one place."""

from __future__ import annotations

from numba import njit

from .. import _jit_cache
from ..game import trace as _trace

_jit_cache.check()  # before any cached kernel is loaded

start_turn = njit(cache=True)(_trace.start_turn)
put_reroll = njit(cache=True)(_trace.put_reroll)
put_box = njit(cache=True)(_trace.put_box)
rerolls = njit(cache=True)(_trace.rerolls)
keep_of = njit(cache=True)(_trace.keep_of)
roll_of = njit(cache=True)(_trace.roll_of)
box_of = njit(cache=True)(_trace.box_of)
