"""Build the table of turn-start values ``E[mask, upper, flag]`` for a rule set."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import _kernels as kn
from .rules import N_UPPER, UPPER_TARGET, RuleSet, get_rules

Progress = Callable[[int, int], None]
"""progress(levels_done, levels_total), called after each level."""


def reachable_upper_totals() -> np.ndarray:
    """(64, 64) bool: ``[upper mask, u]`` is True when the filled upper boxes of
    ``upper mask`` can add up to ``u`` (capped at 63)."""
    reach = np.zeros((1 << N_UPPER, UPPER_TARGET + 1), dtype=np.bool_)
    reach[0, 0] = True
    for upper_mask in range(1, 1 << N_UPPER):
        low = (upper_mask & -upper_mask).bit_length() - 1
        before = reach[upper_mask & ~(1 << low)]
        face = low + 1
        for u in np.flatnonzero(before):
            for k in range(6):
                reach[upper_mask, min(UPPER_TARGET, u + k * face)] = True
    return reach


def masks_by_level(n_boxes: int) -> list[np.ndarray]:
    """Masks grouped by number of filled boxes: ``levels[n]`` (int64 array)."""
    masks = np.arange(1 << n_boxes, dtype=np.int64)
    filled = np.array([bin(m).count("1") for m in range(1 << n_boxes)])
    return [masks[filled == n] for n in range(n_boxes + 1)]


def kernel_arguments(rules: RuleSet) -> tuple:
    """The rule set's data in the order the kernels take it (after ``values``)."""
    return (rules.scores, rules.joker_tier, rules.joker_points, float(rules.upper_bonus),
            rules.yahtzee_box, float(rules.yahtzee_bonus), rules.has_joker,
            rules.rolls_per_turn - 1)


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
    values = np.full(rules.table_shape, np.nan)
    full = rules.full_mask
    values[full, reach[full & 0x3F], :] = 0.0
    if rules.n_flags == 2:
        states = 2 * int(reach[full & 0x3F].sum())
    else:
        states = int(reach[full & 0x3F].sum())
    levels = masks_by_level(rules.n_boxes)
    args = kernel_arguments(rules)
    total = len(levels) - 1
    for done, level in enumerate(range(rules.n_boxes - 1, -1, -1), start=1):
        states += int(kn.solve_level(levels[level], values, reach, *args))
        if progress is not None:
            progress(done, total)
    return BuildResult(values, states, time.perf_counter() - start)
