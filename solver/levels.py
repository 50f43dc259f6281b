"""The level layer: turn-start states grouped by how many boxes are filled, solved from
full cards back to the start.

Every driver (the expected-score :mod:`~solver.builder`, :mod:`~solver.stats`,
:mod:`~solver.target`) walks the same levels with :func:`solve_backward`; a level's
states come from :func:`level_states`, the bound on what they can still score from
:func:`max_points_to_come`, and their stored vectors live in one
:class:`~solver.kernels.level.LevelStore`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np

from .game.dice import FIRST_ROLL_KEEP, KEEP_SUB_COUNT, N_ROLLS
from .game.rules import N_UPPER, UPPER_TARGET, RuleSet

Progress = Callable[[int, int], None]
"""progress(levels_done, levels_total), called after each level."""


PROGRESS_STEPS = 1000
"""The drivers of a long solve (:func:`solver.target.solve_vectors`,
:func:`solver.stats.optimal_stats`) report their progress as ``(done, PROGRESS_STEPS)``: the
share of their work done, known before they start, after each of about :data:`PIECES` even
pieces of it (a level's tasks cut into runs), so that the share done and the time it
took give the time left."""
PIECES = 200
MIN_PHASE_PIECES = 10
"""The fewest pieces of a phase of a larger solve (:class:`PhaseProgress`)."""


class PhaseProgress:
    """The progress callback of one phase of a larger solve (a turn's: the opponents'
    distributions, then the DP), with the number of even pieces worth cutting the phase
    into: its share of the whole solve's :data:`PIECES` (at least
    :data:`MIN_PHASE_PIECES`), so that every piece of the solve is about as much work.
    Each piece ends at a barrier of the threads (and a call into numba per block): the
    opponents' pass of a turn's solve, 5 to 20 % of its work, cut into 200 pieces of its
    own kept fewer threads busy than the DP after it (measured on a quiet machine:
    optimal_stats from three cards, 1.88 threads in 200 pieces, 1.93 in 20, the CPU
    seconds 4 % fewer)."""

    def __init__(self, report: Progress, share: float) -> None:
        self.report = report
        self.pieces = max(MIN_PHASE_PIECES, round(PIECES * min(max(share, 0.0), 1.0)))

    def __call__(self, done: int, total: int) -> None:
        self.report(done, total)


def piece_count(progress: Progress | None) -> int:
    """The even pieces a driver cuts its work into for ``progress``: a phase's own
    (:class:`PhaseProgress`), else :data:`PIECES`."""
    return progress.pieces if isinstance(progress, PhaseProgress) else PIECES


def even_pieces(ops: np.ndarray, piece: float) -> list[tuple[int, int]]:
    """Consecutive runs of tasks (begin, end) of about ``piece`` operations each (``ops``:
    each task's)."""
    if ops.shape[0] == 0:
        return []
    reached = np.cumsum(ops)
    cuts = np.searchsorted(reached, np.arange(piece, reached[-1], piece), side="right")
    bounds = np.unique(np.concatenate(([0], cuts, [ops.shape[0]])))
    return [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:], strict=True) if b > a]


class Work:
    """Progress ``(done, PROGRESS_STEPS)`` over a known ``total`` of work (operations):
    :meth:`add` the work of each piece done, :meth:`finish` at the end (said once per
    step, in order, ending at ``PROGRESS_STEPS``)."""

    def __init__(self, total: float, progress: Progress | None) -> None:
        self.total, self.progress, self.done, self.said = max(total, 1.0), progress, 0.0, -1

    def add(self, ops: float) -> None:
        self.done += ops
        step = min(int(PROGRESS_STEPS * self.done / self.total), PROGRESS_STEPS)
        if self.progress is not None and step != self.said:
            self.said = step
            self.progress(step, PROGRESS_STEPS)

    def finish(self) -> None:
        if self.progress is not None and self.said != PROGRESS_STEPS:
            self.said = PROGRESS_STEPS
            self.progress(PROGRESS_STEPS, PROGRESS_STEPS)



def task_operations(rules: RuleSet, n_open: np.ndarray) -> np.ndarray:
    """Operations per column of a state with ``n_open`` open boxes (array): a max and the
    exact ``* unit`` per (final roll, open box) (a little less under the Joker), per reroll
    6 per partial keep (5 adds, 1 multiply) and 2 per (keep, sub-keep) pair, and 252
    multiply-adds for the expectation."""
    stage = 6 * FIRST_ROLL_KEEP + 2 * int(KEEP_SUB_COUNT.sum())
    return 2 * N_ROLLS * n_open + (rules.rolls_per_turn - 1) * stage + 2 * N_ROLLS


@cache
def masks_by_level(n_boxes: int) -> tuple[np.ndarray, ...]:
    """Masks grouped by number of filled boxes: ``levels[n]`` (int64 array, read-only)."""
    masks = np.arange(1 << n_boxes, dtype=np.int64)
    filled = np.array([bin(m).count("1") for m in range(1 << n_boxes)])
    levels = tuple(masks[filled == n] for n in range(n_boxes + 1))
    for level in levels:
        level.flags.writeable = False
    return levels


def level_states(values: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, ...]:
    """(m, u, y) int64 arrays: the states of ``masks`` that can occur (finite in the
    table ``values``), by mask, then subtotal, then flag."""
    i, u, y = np.nonzero(~np.isnan(values[masks]))
    return masks[i].astype(np.int64), u.astype(np.int64), y.astype(np.int64)


def mask_runs(m: np.ndarray, most: int) -> np.ndarray:
    """(n_tasks, 2) int64: (first index, length) of the runs of equal masks in ``m``
    (states by mask), each cut into pieces of at most ``most`` states."""
    first = np.flatnonzero(np.diff(m, prepend=-1) != 0)
    lengths = np.diff(np.append(first, m.shape[0]))
    pieces = -(-lengths // most)
    start = np.repeat(first, pieces) + most * (np.arange(pieces.sum()) -
                                               np.repeat(np.cumsum(pieces) - pieces, pieces))
    return np.stack([start, np.minimum(most, np.repeat(first + lengths, pieces) - start)],
                    axis=1).astype(np.int64)


def max_entries(rules: RuleSet) -> np.ndarray:
    """(n_boxes,) int64: the largest entry each box can hold (the Joker included)."""
    most = rules.scores.max(axis=0)
    if rules.has_joker:
        most = np.maximum(most, rules.joker_points.max(axis=(0, 1)))
    return most.astype(np.int64)


def max_points_to_come(rules: RuleSet, m: np.ndarray, u: np.ndarray,
                        y: np.ndarray) -> np.ndarray:
    """An upper bound of the points still to come from states (m, u, y) (int64 arrays):
    the largest entry of every open box, the upper bonus while it is open, and a Yahtzee
    bonus for every turn that can earn one."""
    bits = (m[:, None] >> np.arange(rules.n_boxes)[None, :]) & 1
    open_boxes = 1 - bits
    total = open_boxes @ max_entries(rules)
    upper_open = open_boxes[:, :N_UPPER].any(axis=1)
    total += np.where(upper_open & (u < UPPER_TARGET), rules.upper_bonus, 0)
    if rules.n_flags == 2:
        remaining = open_boxes.sum(axis=1)
        yz_open = open_boxes[:, rules.yahtzee_box] == 1
        turns = np.where(y == 1, remaining, np.where(yz_open, np.maximum(remaining - 1, 0), 0))
        total += rules.yahtzee_bonus * turns
    return total.astype(np.int64)


def most_points_per_turn(rules: RuleSet) -> int:
    """The most points one turn can add: an entry, the upper bonus and a Yahtzee bonus."""
    return int(max_entries(rules).max() + rules.upper_bonus + rules.yahtzee_bonus)


def solve_backward(rules: RuleSet, first: int, step: Callable[[int], None],
                   progress: Progress | None = None) -> None:
    """``step(n)`` for the levels ``n = n_boxes - 1`` down to ``first`` (the full cards
    of level ``n_boxes`` are the caller's start), then ``progress(done, total)``."""
    total = rules.n_boxes - first
    for done, n in enumerate(range(rules.n_boxes - 1, first - 1, -1), start=1):
        step(n)
        if progress is not None:
            progress(done, total)
