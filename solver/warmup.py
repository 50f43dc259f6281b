"""Compile (and cache) the kernels the everyday commands use, so none waits on numba.

``yahtzee warmup [--rules NAME]`` or ``python -m solver.warmup [RULES...]`` (run by
``make run``) opens each rule set's table (built when missing) and calls, on tiny
inputs, the kernels of ``advise``, ``play``, ``analyze`` and ``strategy`` (one turn's
values), of ``stats`` (the exact statistics of a late state), of the target and win
objectives (their DP from a late state) and of ``simulate`` (a few games of each
built-in strategy). numba caches the machine code on disk, so
later processes load it instead of compiling.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from .game.rules import DEFAULT_RULES, get_rules


def warm_up(rules_name: str = DEFAULT_RULES) -> float:
    """Run the common kernels once for ``rules_name``; the seconds it took."""
    from .simulate import STRATEGIES, simulate
    from .stats import optimal_stats
    from .table import open_table, turn_values
    from .target import Utility, solve_vectors, turn_at

    start = time.perf_counter()
    table = open_table(get_rules(rules_name), build=True)
    turn_values(table, 0, 0, 0)
    late = (table.rules.full_mask >> 3 << 3, 0, 0)  # the last three boxes open
    optimal_stats(table, start=late)
    for utility in (Utility.target(40), Utility.beat_distribution(np.full(30, 1 / 30))):
        vectors = solve_vectors(table, utility, start=late, total=0)
        turn_at(vectors, *late, 0)
    for strategy in STRATEGIES:
        simulate(table, strategy, 2, seed=0, record=True)
    return time.perf_counter() - start


def main(argv: list[str]) -> int:
    for name in argv or [DEFAULT_RULES]:
        seconds = warm_up(name)
        print(f"warm-up {name}: kernels compiled and cached ({seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
