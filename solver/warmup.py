"""Compile (and cache) kernels and compute the cached figures ahead, so no command waits.

``python -m solver.warmup [--all] [RULES...]`` or ``yahtzee warmup [--all] [--rules NAME]``
(``make run`` runs the latter) opens each rule set's table (built when missing), calls the
everyday kernels on tiny inputs (:data:`_jit_cache.EVERYDAY`: one turn's values for
``advise``, ``play``, ``analyze``, ``strategy``; the exact statistics for ``stats`` and the
why), computes the two cached files of figures the everyday commands read (the why's
figures of every state, ``<rules>.ymoments``, and the new-game statistics of ``stats``,
``<rules>.ystats``), and plays a few judged games of each built-in strategy (the
simulator's kernels). With ``--all`` also the kernels of the target, win and tournament
objectives (their DP from a late state, and the forward pass that plays by it). A kernel
not compiled ahead compiles on first use, and the command says so on stderr. numba caches
the machine code on disk, so later processes load it instead of compiling.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from . import _jit_cache
from ._jit_cache import EVERYDAY, SIMULATOR, TARGETS, Kind
from .game.rules import DEFAULT_RULES, get_rules
from .game.ties import EV_TIE
from .moments import get_moments
from .readout import best_keeps, turn_choices, turn_placements
from .stats import optimal_stats
from .stats_file import new_game_stats
from .table import Table, open_table, turn_values


def _everyday(table: Table) -> None:
    turn_values(table, 0, 0, 0)
    late = _late(table)
    optimal_stats(table, start=late)
    turn = turn_values(table, *late)  # the readouts of a turn (advise --why, solved turns)
    best_keeps(turn, turn, EV_TIE)
    turn_choices(table, *late)
    turn_placements(table.rules, late[0], late[2])


def _figures(table: Table) -> None:
    get_moments(table)
    new_game_stats(table)


def _simulator(table: Table) -> None:
    from .simulate import STRATEGIES, simulate

    for strategy in STRATEGIES:
        simulate(table, strategy, 2, seed=0, record=True)


def _targets(table: Table) -> None:
    from .forward import final_scores
    from .target import Utility, solve_vectors, turn_at

    late = _late(table)
    for utility in (Utility.target(40), Utility.win_share([np.full(30, 1 / 30)])):
        vectors = solve_vectors(table, utility, start=late, total=0)
        turn_at(vectors, *late, 0)
    # the forward pass (stats --tournament), from a card whose last three boxes are open
    # (chance among them, so that a total of 0 can be)
    rules = table.rules
    last = (rules.full_mask & ~(0b111 << (rules.n_boxes - 3)), 0, 0)
    every = tuple(range(rules.n_boxes + 1))
    final_scores(table, solve_vectors(table, Utility.target(40), start=last, total=0,
                                      keep=every), start=last, total=0)


def _late(table: Table) -> tuple[int, int, int]:
    """A state with three boxes open (the first three: bits 0 to 2), the rest filled."""
    return (table.rules.full_mask >> 3 << 3, 0, 0)


class Piece(NamedTuple):
    """One step of the warm-up: what its note says it does, about how many seconds that
    takes the first time on a quiet 2-core machine, the kind of kernels it compiles
    (``_jit_cache.KINDS``), and the step itself."""

    doing: str
    seconds: int
    kind: Kind
    run: Callable[[Table], None]


PIECES: tuple[Piece, ...] = (
    Piece(f"compiling {EVERYDAY.what}", EVERYDAY.seconds, EVERYDAY, _everyday),
    Piece("computing the why figures and the new-game statistics", 30, EVERYDAY, _figures),
    Piece(f"compiling {SIMULATOR.what}", SIMULATOR.seconds, SIMULATOR, _simulator),
    Piece(f"compiling {TARGETS.what}", TARGETS.seconds, TARGETS, _targets))
"""The warm-up's steps; every one but the last (the target and win kernels, ``--all``)
by default."""


def warm_up(rules_name: str = DEFAULT_RULES, *, everything: bool = False,
            note: Callable[[Piece], None] | None = None) -> float:
    """Compile the kernels and compute the figures the everyday commands need
    (``everything``: every kind of kernels too) for ``rules_name``, calling
    ``note(piece)`` before each step (a step with nothing left to do is quick); the
    seconds it took."""
    start = time.perf_counter()
    table = open_table(get_rules(rules_name), build=True)
    for piece in PIECES[:None if everything else -1]:
        if note is not None:
            note(piece)
        with _jit_cache.compiling(piece.kind):
            piece.run(table)
    return time.perf_counter() - start


def _say(piece: Piece) -> None:
    print(f"{piece.doing} (about {piece.seconds} s the first time)...", file=sys.stderr,
          flush=True)


def done(everything: bool) -> str:
    """What a finished warm-up has left ready."""
    which = "every kernel" if everything else "the everyday and simulator kernels"
    return f"{which} compiled and cached, the why figures and new-game statistics computed"


def main(argv: list[str]) -> int:
    """``python -m solver.warmup [--all] [RULES...]``."""
    everything = "--all" in argv
    names = [a for a in argv if a != "--all"] or [DEFAULT_RULES]
    for name in names:
        seconds = warm_up(name, everything=everything, note=_say)
        print(f"warm-up {name}: {done(everything)} ({seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
