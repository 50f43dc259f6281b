"""The exact final-score distribution of play by a final-score DP (``kernels.forward``).

Play that maximises a final-score utility (a tournament's share of first place, a
target, the win) decides by the points so far, so its final-score distribution is not
the expected-score statistics' backward pass: :func:`final_scores` pushes the
probability of each (state, points so far) forward from the start card, level by level,
each turn played by the policy the DP's vectors define (:func:`solver.target.solve_vectors`,
every level after the start's kept), ties broken as ``advise`` breaks them. Each state
holds its mass on the points its cards can have there (from the start's total to the
most its filled boxes can add), so nothing is lost: the driver checks it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any

import numba
import numpy as np

from . import _jit_cache
from .errors import LimitError
from .game.rules import UPPER_TARGET
from .kernels import forward as fk
from .kernels.level import LevelStore, new_store
from .levels import PIECES, Progress, Work, masks_by_level, task_operations
from .stats import PERCENTILES, highest_score, percentile_of
from .table import Table
from .target import Utility, Vectors, _Plan, _point_slots, turn_at

BLOCKS = 2
"""Each level's states in this many blocks, each pushing into its own copy of the next
level (summed in block order): the figures do not depend on the number of threads."""


@dataclass(frozen=True, eq=False)
class FinalScores:
    """Where play by ``vectors`` ends from a start card: ``distribution[x]`` = P(final
    score = x), x = 0 .. the rules' highest score; ``value``, the DP's value at the start
    (the expected utility that play gets); ``seconds``, the pass's wall time."""

    distribution: np.ndarray
    value: float
    seconds: float

    @property
    def mean(self) -> float:
        """The expected final score (points)."""
        return math.fsum((self.distribution * np.arange(self.distribution.shape[0])).tolist())

    @property
    def sd(self) -> float:
        """The standard deviation of the final score (points)."""
        x = np.arange(self.distribution.shape[0]) - self.mean
        return math.sqrt(math.fsum((self.distribution * x * x).tolist()))

    def to_json(self) -> dict[str, Any]:
        """The figures as in ``stats --json``: ``mean``, ``sd``, ``percentiles``,
        ``most_likely``, ``min_score``, ``max_score``, ``distribution`` (P(final = score)
        keyed by score, the scores of probability 0 left out)."""
        d = self.distribution
        nz = np.flatnonzero(d > 0)
        return {"mean": self.mean, "sd": self.sd,
                "percentiles": {str(q): percentile_of(d, q) for q in PERCENTILES},
                "most_likely": int(np.argmax(d)), "min_score": int(nz[0]),
                "max_score": int(nz[-1]),
                "distribution": {str(int(x)): float(d[x]) for x in nz}}

    def expected_utility(self, utility: Utility) -> float:
        """``sum_x P(final = x) U(x)``: equals :attr:`value` (to rounding) for the
        utility the vectors were solved for."""
        top = utility.top
        d = self.distribution
        inside = d[:top] * utility.values[:d.shape[0]]
        return math.fsum(inside.tolist()) + utility.above * math.fsum(d[top:].tolist())


def _add_columns(work: Work, per_column: float, columns: float) -> None:
    """``columns`` columns of a level pushed on: their operations are done."""
    work.add(per_column * columns)

def _mass_plan(table: Table, start: tuple[int, int, int], total: int) -> _Plan:
    """The states of each level from the start card, on every total their cards can have
    (from ``total`` to the most the filled boxes can add; the rules' highest score)."""
    top = highest_score(table.rules) + 1
    return _Plan(table, start, total, Utility(np.zeros(top), 1.0, 0))


@_jit_cache.compiling(_jit_cache.TARGETS)
def final_scores(table: Table, vectors: Vectors, *, start: tuple[int, int, int] = (0, 0, 0),
                 total: int = 0, progress: Progress | None = None) -> FinalScores:
    """The final-score distribution of play by ``vectors`` from the card in state
    ``start`` (filled mask, upper subtotal, flag) with ``total`` points, a new game by
    default. ``vectors`` must hold every level after the start's, solved from this card
    or an earlier one (:func:`solver.target.solve_vectors` with ``keep`` every level).
    ``progress(done, PROGRESS_STEPS)``, on the calling thread, as the work gets done (the
    columns of each level's states, in about :data:`~solver.levels.PIECES` even pieces)."""
    began = time.perf_counter()
    rules = table.rules
    m0, u0, y0 = start
    u0 = min(int(u0), UPPER_TARGET)
    first_level = bin(m0).count("1")
    missing = [n for n in range(first_level + 1, rules.n_boxes + 1) if n not in vectors.levels]
    if missing:
        raise LimitError(f"the vectors lack the levels {missing}: solve with every level kept")
    plan = _mass_plan(table, (m0, u0, y0), int(total))
    levels = masks_by_level(rules.n_boxes)
    one = np.array([m0], dtype=np.int64)
    here = new_store(one, np.array([u0]), np.array([y0], dtype=np.int64),
                     np.array([total], dtype=np.int64), np.array([total], dtype=np.int64))
    here.vals[0] = 1.0
    planned = {n: plan.level_states(levels[n]) for n in range(first_level + 1, rules.n_boxes + 1)}
    per_column = {n: float(task_operations(rules, np.array([rules.n_boxes - n]))[0])
                  for n in range(first_level, rules.n_boxes)}
    work = Work(sum(per_column[n] * _columns(*planned[n][3:]) for n in per_column
                    if n > first_level) + per_column[first_level], progress)
    spec = vectors.utility.spec(rules)
    values = np.ascontiguousarray(table.values)
    lost = 0.0
    piece = work.total / PIECES
    for n in range(first_level, rules.n_boxes):
        slot = np.full(rules.table_shape, -1, dtype=np.int64)
        below = new_store(*planned.pop(n + 1))
        _point_slots(slot, plan, below, levels[n + 1])
        own = vectors.levels[n] if n > first_level else _NO_STATES
        lost += _push_level(here, below, slot, vectors.slot, own, vectors.levels[n + 1],
                            spec, values, rules.arrays, piece / per_column[n],
                            partial(_add_columns, work, per_column[n]))
        here = below
    work.finish()
    if lost > 1e-9:
        raise AssertionError(f"the forward pass lost {lost:.3g} of its mass")
    distribution = np.zeros(highest_score(rules) + 1)
    for i in range(here.m.shape[0]):
        lo, hi = int(here.lo[i]), int(here.hi[i])
        distribution[lo:hi + 1] += here.vals[here.start[i]:here.start[i] + hi - lo + 1]
    value = _start_value(vectors, (m0, u0, y0), int(total))
    return FinalScores(distribution, value, time.perf_counter() - began)


def _columns(lo: np.ndarray, hi: np.ndarray) -> int:
    return int(np.maximum(hi - lo + 1, 0).sum())


def _start_value(vectors: Vectors, start: tuple[int, int, int], total: int) -> float:
    """The DP's value of the start card (its turn from the next level's vectors)."""
    return float(turn_at(vectors, *start, total).value)


_NO_STATES = new_store(*(np.zeros(0, dtype=np.int64) for _ in range(5)))
"""The DP's own level of the start card's state: not solved (no shortcut there)."""


def _push_level(here: LevelStore, below: LevelStore, slot: np.ndarray, vslot: np.ndarray,
                vhere: LevelStore, vnext: LevelStore, spec: object, values: np.ndarray,
                arrays: object, piece: float, done: Callable[[int], None]) -> float:
    """One level's pass (:func:`~solver.kernels.forward.forward_level`) in
    :data:`BLOCKS` blocks of states of about even columns, on numba's threads; each block
    cut into as many runs of states as it takes to make pieces of about ``piece`` columns
    (the blocks' ``p``-th runs side by side, then ``done(their columns)`` on the calling
    thread). Each block runs its states in order, so the sums are the same whatever the
    pieces and the threads. Returns the mass lost."""
    n = here.m.shape[0]
    widths = np.maximum(here.hi[:n] - here.lo[:n] + 1, 0)
    columns = np.cumsum(widths)
    blocks = [0, *(int(np.searchsorted(columns, columns[-1] * b / BLOCKS)) for b in
                   range(1, BLOCKS)), n] if n else [0] * (BLOCKS + 1)
    runs = max(1, math.ceil((int(columns[-1]) if n else 0) / BLOCKS / max(piece, 1.0)))
    cuts = []  # the first state of each run of each block, then n
    for b in range(BLOCKS):
        inside = np.cumsum(widths[blocks[b]:blocks[b + 1]])
        share = int(inside[-1]) if inside.shape[0] else 0
        cuts += [blocks[b], *(blocks[b] + np.searchsorted(inside, share * np.arange(1, runs)
                                                           / runs)).tolist()]
    cuts.append(n)
    outs = [below] + [below._replace(vals=np.zeros_like(below.vals)) for _ in range(BLOCKS - 1)]
    losts = [np.zeros(1) for _ in range(BLOCKS)]

    def run(b: int, p: int) -> None:
        first, last = cuts[b * runs + p], cuts[b * runs + p + 1]
        if last > first:
            fk.forward_level(here, outs[b], slot, vslot, vhere, vnext, spec, values, arrays,
                             np.int64(first), np.int64(last), losts[b])

    threads = min(numba.get_num_threads(), BLOCKS)
    with ThreadPoolExecutor(threads) as pool:
        for p in range(runs):
            if threads > 1:
                for ran in [pool.submit(run, b, p) for b in range(BLOCKS)]:
                    ran.result()
            else:
                for b in range(BLOCKS):
                    run(b, p)
            done(int(sum(widths[cuts[b * runs + p]:cuts[b * runs + p + 1]].sum()
                         for b in range(BLOCKS))))
    for out in outs[1:]:
        np.add(below.vals, out.vals, out=below.vals)
    return float(sum(lost[0] for lost in losts))
