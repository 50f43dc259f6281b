"""Build the table of turn-start values ``E[mask, upper, flag]`` for a rule set."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .game.rules import N_UPPER, UPPER_TARGET, RuleSet, get_rules
from .game.states import reachable_upper_totals
from .kernels import expected as kn

Progress = Callable[[int, int], None]
"""progress(levels_done, levels_total), called after each level."""


def upper_classes(reach: np.ndarray | None = None) -> np.ndarray:
    """(64, 64) int64: ``[upper mask, u]`` -> the subtotal whose value ``u`` shares, or -1.

    Subtotals from which 63 can no longer be reached (even with five of each open face)
    all have the same values, and so do all subtotals once the upper section is full:
    each such class is solved once, at its smallest member.
    """
    reach = reachable_upper_totals() if reach is None else reach
    classes = np.full(reach.shape, -1, dtype=np.int64)
    for upper_mask in range(reach.shape[0]):
        remaining = sum(5 * (f + 1) for f in range(N_UPPER) if not upper_mask >> f & 1)
        totals = np.flatnonzero(reach[upper_mask])
        hopeless = totals[totals + remaining < UPPER_TARGET]
        for u in totals:
            if remaining == 0:
                classes[upper_mask, u] = totals[0]
            elif u + remaining < UPPER_TARGET:
                classes[upper_mask, u] = hopeless[0]
            else:
                classes[upper_mask, u] = u
    return classes


def masks_by_level(n_boxes: int) -> list[np.ndarray]:
    """Masks grouped by number of filled boxes: ``levels[n]`` (int64 array)."""
    masks = np.arange(1 << n_boxes, dtype=np.int64)
    filled = np.array([bin(m).count("1") for m in range(1 << n_boxes)])
    return [masks[filled == n] for n in range(n_boxes + 1)]


@dataclass(frozen=True)
class BuildResult:
    values: np.ndarray
    """(2^boxes, 64, flags) float64: E of each state, NaN where a state cannot occur."""
    states: int
    seconds: float


def build_values(rules: RuleSet | str, progress: Progress | None = None) -> BuildResult:
    """Solve every turn-start state of ``rules`` by backward induction."""
    rules = get_rules(rules)
    start = time.perf_counter()
    reach = reachable_upper_totals()
    classes = upper_classes(reach)
    values = np.full(rules.table_shape, np.nan)
    full = rules.full_mask
    values[full, reach[full & 0x3F], :] = 0.0
    if rules.n_flags == 2:
        states = 2 * int(reach[full & 0x3F].sum())
    else:
        states = int(reach[full & 0x3F].sum())
    levels = masks_by_level(rules.n_boxes)
    total = len(levels) - 1
    for done, level in enumerate(range(rules.n_boxes - 1, -1, -1), start=1):
        states += int(kn.solve_level(levels[level], values, classes, rules.arrays))
        if progress is not None:
            progress(done, total)
    return BuildResult(values, states, time.perf_counter() - start)
