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

With the rules' target table (:mod:`solver.target_table`, ``yahtzee solve --targets``)
holding X, nothing is solved either: the vectors are the table's, read in place, the
same numbers bit for bit, so the games and every figure are the ones the solve gives.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import stats
from ..errors import TableError
from ..game.dice import N_KEEPS
from ..kernels import simulate as sim
from ..kernels import simulate_target as st
from ..kernels.level import new_store
from ..kernels.target import turn_vectors
from ..table import Table
from ..target import Utility, Vectors, solve_vectors, turn_at
from ..target_table import build_command, default_max, get_targets

BATCH = 5_000
"""Games per kernel call (a progress step)."""

Progress = Callable[[int, int], None]
Note = Callable[[str], None]


def highest_score(table: Table) -> int:
    """The most points a game can score under the table's rules (an upper bound)."""
    return stats.highest_score(table.rules)


@dataclass(frozen=True, eq=False)
class TargetPlan:
    """What the target strategy reads: the vectors of every level in one store (see
    :mod:`solver.kernels.simulate_target`; one that reads 0 everywhere when the target is
    trivial) and the exact new-game probability of reaching the target."""

    target: int
    p_target: float
    seconds: float
    """Time to solve (or read) the vectors."""
    store: st.TargetStore
    stored: bool = False
    """True when the vectors are the target table's (nothing solved)."""


def target_plan(table: Table, target: int, progress: Progress | None = None,
                note: Note | None = None) -> TargetPlan:
    """The vectors of every level: the target table's when it holds ``target``, else
    solved (``progress(levels_done, levels_total)``; ``note`` says why the table is not
    read and how to build one that is)."""
    began = time.perf_counter()
    if target <= 0 or target > highest_score(table):
        empty = np.zeros(0, dtype=np.int64)
        nothing = st.TargetStore(np.zeros(table.rules.table_shape, dtype=np.int64),
                                 new_store(empty, empty, empty, empty, empty))
        return TargetPlan(target, 1.0 if target <= 0 else 0.0, 0.0, nothing)
    stored = _stored(table, target, note, progress)
    if stored is not None:
        p = _p_new_game(table, stored, target)
        return TargetPlan(target, p, time.perf_counter() - began, stored, stored=True)
    rules = table.rules
    # total 0: each state's range covers the points a game from a new card can have there
    vectors = solve_vectors(table, Utility.target(target, rules), total=0,
                            keep=tuple(range(1, rules.n_boxes + 1)), progress=progress)
    p = min(max(turn_at(vectors, 0, 0, 0, 0).value, 0.0), 1.0)
    store = flatten(vectors)
    return TargetPlan(target, p, time.perf_counter() - began, store)


def tournament_plan(table: Table, players: int, distribution: np.ndarray,
                    progress: Progress | None = None) -> tuple[TargetPlan, Utility]:
    """(the plan, the utility) of ``tournament:N``: the tournament DP from a new game
    against a field of final-score ``distribution`` (:meth:`Utility.tournament`), every
    level kept; the plan's ``p_target`` is the exact expected share of first place of
    tournament play from a new game (its ``target`` is 0: not a target)."""
    began = time.perf_counter()
    rules = table.rules
    utility = Utility.tournament(distribution, players)
    vectors = solve_vectors(table, utility, total=0, keep=tuple(range(1, rules.n_boxes + 1)),
                            progress=progress)
    p = min(max(turn_at(vectors, 0, 0, 0, 0).value, 0.0), 1.0)
    return TargetPlan(0, p, time.perf_counter() - began, flatten(vectors)), utility


def _stored(table: Table, target: int, note: Note | None,
            progress: Progress | None) -> st.TargetStore | None:
    """The target table's vectors for ``target`` (None: no usable table holds it;
    ``note`` then says what to do; ``progress`` follows the table's checks)."""
    rules = table.rules.name
    targets = get_targets(table, note=note)
    if targets is not None and targets.answers(target):
        try:
            return st.TargetStore(*targets.store(target, progress))
        except TableError as exc:
            if note is not None:
                note(f"note: {exc}; solving target:{target} instead")
            return None
    if note is not None and targets is None:
        note(f"note: target:{target} solves the whole game first (up to a minute or more); "
             f"`{build_command(rules)}` stores the answers of every target up to "
             f"{default_max(rules)} once, and target:X then reads them at once")
    elif note is not None and targets is not None:
        note(f"note: target:{target} is solved: the target table holds targets up to "
             f"{targets.max_target}; `{build_command(rules, target)}` rebuilds it for "
             f"this one")
    return None


def _p_new_game(table: Table, store: st.TargetStore, target: int) -> float:
    """P(final >= target) from a new game, read from ``store`` (every level)."""
    rules = table.rules
    stages = np.zeros((rules.rolls_per_turn, N_KEEPS, 1))
    value = turn_vectors(0, 0, 0, 0, rules.arrays, store.slot, store.vectors,
                         Utility.target(target, rules).spec(rules), stages, stages[:0])
    return min(max(float(value), 0.0), 1.0)


def flatten(vectors: Vectors) -> st.TargetStore:
    """Every level of ``vectors`` one after the other in one store.

    Each level is released from ``vectors`` once copied, so the peak is the vectors plus
    one level, not twice the vectors (``vectors`` is left without levels)."""
    levels = vectors.levels
    order = sorted(levels)
    sizes = [int(levels[n].m.shape[0]) for n in order]
    n_states = sum(sizes)
    base = np.zeros(max(order) + 1, dtype=np.int64)
    base[order] = np.cumsum([0, *sizes[:-1]])
    m, u, y, lo, hi = (np.empty(n_states, dtype=np.int64) for _ in range(5))
    start = np.empty(n_states + 2, dtype=np.int64)
    vals = np.empty(sum(int(levels[n].start[levels[n].m.shape[0]]) for n in order))
    v = 0
    for n in order:
        level = levels.pop(n)
        i, k = int(base[n]), int(level.m.shape[0])
        size = int(level.start[k])
        for field, out in (("m", m), ("u", u), ("y", y), ("lo", lo), ("hi", hi)):
            out[i:i + k] = getattr(level, field)[:k]
        start[i:i + k] = level.start[:k] + v
        vals[v:v + size] = level.vals[:size]
        v += size
        del level
    start[n_states:] = v
    filled = np.array([bin(mask).count("1") for mask in range(vectors.slot.shape[0])])
    slot = np.where(vectors.slot >= 0, vectors.slot + base[filled][:, None, None], -1)
    store = new_store(m, u, y, lo, hi)._replace(start=start, vals=vals)
    return st.TargetStore(np.ascontiguousarray(slot, dtype=np.int64), store)


def play_target(table: Table, plan: TargetPlan, games: int, seed: int,
                progress: Progress | None, traces: np.ndarray,
                judge: Callable[[int, np.ndarray], None] | None = None
                ) -> tuple[np.ndarray, ...]:
    """(scores, upper bonus earned, turns five alike, Yahtzee bonuses, entries) of
    ``games`` games of ``seed`` played for ``plan.target``; moves into ``traces`` when it
    has a row per game; ``judge(first, traces)`` is given each batch's moves."""
    rules = table.rules
    values = np.ascontiguousarray(table.values)
    spec = Utility.target(plan.target, rules).spec(rules)  # (any utility with 1 above)

    def play(first: int, out: sim.Games) -> None:
        st.play_games(np.uint64(seed), np.uint64(first), *plan.store, values, rules.arrays,
                      spec, out)

    return sim.play_in_batches(games, rules.n_boxes, traces, BATCH, play, progress, judge)
