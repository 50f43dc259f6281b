"""The simulator's ``target:X`` strategy: every decision maximises P(final score >= X).

The target DP from a new game (:func:`solver.target.solve_vectors`, every level kept,
each state's range only the points a game can have there: 8 bytes per vector entry,
367 MB for the official rules and X = 300) gives each option its
probability, read for the game's own points so far; the kernels
(:mod:`solver.kernels.simulate_target`) pick the move ``advise(..., target=X)`` ranks first
(ties within 1e-12: the higher expected final score). ``p_target`` is the exact
probability of reaching X from a new game under that strategy, so a simulation's rate of
reaching X converges to it.

A target of 0 (always reached) or above the highest score the rules allow (never
reached) solves nothing: every option then has the same probability and the expected
score decides every choice.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import stats
from .errors import UnknownStrategyError, shown
from .judge import batch_traces
from .kernels import simulate_target as st
from .numbers import MAX_DIGITS, whole_number
from .table import Table
from .target import Utility, Vectors, solve_vectors, turn_at

PREFIX = "target:"
"""Strategy names ``target:X`` (X a whole number of points, 0 or more)."""
BATCH = 5_000
"""Games per kernel call (a progress step)."""

Progress = Callable[[int, int], None]


def is_target_strategy(name: str) -> bool:
    """Whether ``name`` asks for the target strategy (``target:...``, any case)."""
    return name.strip().lower().startswith(PREFIX)


def parse_target(name: str) -> int:
    """X of ``target:X``; raises :class:`UnknownStrategyError` unless X is a whole number
    of points, 0 or more."""
    target = whole_number(name.strip()[len(PREFIX):])
    if target is None:
        raise UnknownStrategyError(
            f"strategy {shown(name.strip(), 40)}: give target:X with X a whole number of "
            f"points, 0 or more (e.g. target:300; at most {MAX_DIGITS} digits)")
    return target


def highest_score(table: Table) -> int:
    """The most points a game can score under the table's rules (an upper bound)."""
    return stats.highest_score(table.rules)


@dataclass(frozen=True, eq=False)
class TargetPlan:
    """What the target strategy reads: the vectors of every level in one CSR set (see
    :mod:`solver.kernels.simulate_target`; None when the target is trivial) and the exact
    new-game probability of reaching the target."""

    target: int
    p_target: float
    seconds: float
    """Time to solve the vectors."""
    arrays: tuple[np.ndarray, ...] | None = None
    """(slot, start, lo, hi, vals)."""

    @property
    def kernel_vectors(self) -> tuple:
        """``vec`` of the kernels: the arrays and ``constant`` (-1: read the vectors)."""
        if self.arrays is None:
            empty = np.zeros(1, dtype=np.int64)
            return (np.zeros((1, 1, 1), dtype=np.int64), empty, empty, empty, np.zeros(1),
                    self.p_target)
        return (*self.arrays, -1.0)


def target_plan(table: Table, target: int, progress: Progress | None = None) -> TargetPlan:
    """Solve the target DP for every level (``progress(levels_done, levels_total)``)."""
    began = time.perf_counter()
    if target <= 0 or target > highest_score(table):
        return TargetPlan(target, 1.0 if target <= 0 else 0.0, 0.0)
    rules = table.rules
    # total 0: each state's range covers the points a game from a new card can have there
    vectors = solve_vectors(table, Utility.target(target), total=0,
                            keep=tuple(range(1, rules.n_boxes + 1)), progress=progress)
    p = min(max(turn_at(vectors, 0, 0, 0, 0).value, 0.0), 1.0)
    arrays = flatten(vectors)
    return TargetPlan(target, p, time.perf_counter() - began, arrays)


def flatten(vectors: Vectors) -> tuple[np.ndarray, ...]:
    """(slot, start, lo, hi, vals) of every level of ``vectors`` one after the other.

    Each level is released from ``vectors`` once copied, so the peak is the vectors plus
    one level, not twice the vectors (``vectors`` is left without levels)."""
    levels = vectors.levels
    order = sorted(levels)
    n_states = sum(int(levels[n].lo.shape[0]) for n in order)
    n_vals = sum(int(levels[n].vals.shape[0]) for n in order)
    base = np.zeros(max(order) + 1, dtype=np.int64)
    start = np.empty(n_states, dtype=np.int64)
    lo = np.empty(n_states, dtype=np.int64)
    hi = np.empty(n_states, dtype=np.int64)
    vals = np.empty(n_vals)
    i = v = 0
    for n in order:
        level = levels.pop(n)
        k = int(level.lo.shape[0])
        base[n] = i
        start[i:i + k] = level.start[:k] + v
        lo[i:i + k] = level.lo
        hi[i:i + k] = level.hi
        vals[v:v + level.vals.shape[0]] = level.vals
        i += k
        v += int(level.vals.shape[0])
        del level
    masks = np.arange(vectors.slot.shape[0])
    filled = np.array([bin(m).count("1") for m in masks.tolist()], dtype=np.int64)
    slot = np.where(vectors.slot >= 0, vectors.slot + base[filled][:, None, None], -1)
    return np.ascontiguousarray(slot, dtype=np.int64), start, lo, hi, vals


def play_target(table: Table, plan: TargetPlan, games: int, seed: int,
                progress: Progress | None, traces: np.ndarray,
                judge: Callable[[int, np.ndarray], None] | None = None
                ) -> tuple[np.ndarray, ...]:
    """(scores, upper bonus earned, turns five alike, Yahtzee bonuses, entries) of
    ``games`` games of ``seed`` played for ``plan.target``; moves into ``traces`` when it
    has a row per game; ``judge(first, traces)`` is given each batch's moves."""

    rules = table.rules
    vec = plan.kernel_vectors
    values = np.ascontiguousarray(table.values)
    scores = np.empty(games, dtype=np.int64)
    upper = np.empty(games, dtype=np.int8)
    fives = np.empty(games, dtype=np.int8)
    bonuses = np.empty(games, dtype=np.int8)
    entries = np.empty((games, rules.n_boxes), dtype=np.int8)
    for first in range(0, games, BATCH):
        stop = min(games, first + BATCH)
        rows = batch_traces(traces, first, stop, judge, traces.shape[1:])
        st.play_target_games(np.uint64(seed), np.uint64(first), vec, values, rules.arrays,
                             scores[first:stop],
                             upper[first:stop], fives[first:stop], bonuses[first:stop],
                             entries[first:stop], rows)
        if judge is not None:
            judge(first, rows)
        if progress is not None:
            progress(stop, games)
    return scores, upper, fives, bonuses, entries
