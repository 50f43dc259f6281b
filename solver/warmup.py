"""Compile (and cache) kernels ahead, so no command waits on numba.

``python -m solver.warmup [--all] [RULES...]`` (``make run``) or ``yahtzee warmup
[--all] [--rules NAME]`` opens each rule set's table (built when missing) and calls the
kernels on tiny inputs. By default only the everyday kernels (:data:`_jit_cache.EVERYDAY`):
one turn's values (``advise``, ``play``, ``analyze``, ``strategy``) and the exact
statistics of a late state (``stats``, and the why's figures). With ``--all`` also the
simulator's (a few judged games of each built-in strategy) and those of the target and
win objectives (their DP from a late state). A kernel not compiled ahead compiles on
first use, and the command says so on stderr. numba caches the machine code on disk, so
later processes load it instead of compiling.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from . import _jit_cache
from ._jit_cache import EVERYDAY, SIMULATOR, TARGETS, Kind
from .game.rules import DEFAULT_RULES, get_rules

if TYPE_CHECKING:
    from .table import Table


def _everyday(table: Table) -> None:
    from .stats import optimal_stats
    from .table import turn_values

    turn_values(table, 0, 0, 0)
    optimal_stats(table, start=_late(table))


def _simulator(table: Table) -> None:
    from .simulate import STRATEGIES, simulate

    for strategy in STRATEGIES:
        simulate(table, strategy, 2, seed=0, record=True)


def _targets(table: Table) -> None:
    from .target import Utility, solve_vectors, turn_at

    late = _late(table)
    for utility in (Utility.target(40), Utility.beat_distribution(np.full(30, 1 / 30))):
        vectors = solve_vectors(table, utility, start=late, total=0)
        turn_at(vectors, *late, 0)


def _late(table: Table) -> tuple[int, int, int]:
    """A state with the last three boxes open."""
    return (table.rules.full_mask >> 3 << 3, 0, 0)


PIECES: tuple[tuple[Kind, Callable[[Table], None]], ...] = (
    (EVERYDAY, _everyday), (SIMULATOR, _simulator), (TARGETS, _targets))
"""What the warm-up runs for each kind of kernels (``_jit_cache.KINDS``)."""


def warm_up(rules_name: str = DEFAULT_RULES, *, everything: bool = False,
            note: Callable[[Kind], None] | None = None) -> float:
    """Compile the everyday kernels (``everything``: every kind) for ``rules_name`` by
    running them once, calling ``note(kind)`` before each kind; the seconds it took."""
    from .table import open_table

    start = time.perf_counter()
    table = open_table(get_rules(rules_name), build=True)
    for kind, run in PIECES[:None if everything else 1]:
        if note is not None:
            note(kind)
        with _jit_cache.compiling(kind):
            run(table)
    return time.perf_counter() - start


def _say(kind: Kind) -> None:
    print(f"compiling {kind.what} (about {kind.seconds} s the first time)...",
          file=sys.stderr, flush=True)


def main(argv: list[str]) -> int:
    """``python -m solver.warmup [--all] [RULES...]``."""
    everything = "--all" in argv
    names = [a for a in argv if a != "--all"] or [DEFAULT_RULES]
    for name in names:
        seconds = warm_up(name, everything=everything, note=_say)
        which = "every kernel" if everything else "the everyday kernels"
        print(f"warm-up {name}: {which} compiled and cached ({seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
