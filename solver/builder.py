"""Build the table of turn-start values ``E[mask, upper, flag]`` for a rule set."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .game.rules import RuleSet, get_rules
from .game.states import reachable_upper_totals, upper_classes
from .kernels import expected as kn
from .levels import Progress, masks_by_level, solve_backward


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
    read = values.view()  # what the turns read: read-only, as every reader's table
    read.flags.writeable = False
    full = rules.full_mask
    values[full, reach[full & 0x3F], :] = 0.0
    states = [rules.n_flags * int(reach[full & 0x3F].sum())]
    levels = masks_by_level(rules.n_boxes)

    def step(n: int) -> None:
        states.append(int(kn.solve_level(levels[n], values, read, classes, rules.arrays)))

    solve_backward(rules, 0, step, progress)
    return BuildResult(values, sum(states), time.perf_counter() - start)
