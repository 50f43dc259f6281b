"""The exact distribution of a player's final score under expected-score play.

An opponent who plays on for the highest expected score from a card ends the game with
the card's total plus the points still to come, whose distribution from the card's
state is :func:`solver.stats.optimal_stats`' (a new game's: the rules' new-game
statistics, :func:`solver.stats_file.new_game_stats`, read from their file). The win
goal's utility (:class:`solver.goals.WinGoal`) is built on these distributions, and
several opponents' best on :func:`max_distribution`. The distributions already worked
out are kept in the caller's :class:`~solver.memory.TurnMemory` (``memory.points``, by
``(table, state)``): in a game the same cards come back turn after turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from .errors import ObjectiveError
from .game.card import Scorecard
from .memory import TurnMemory
from .stats import optimal_stats, stats_operations
from .stats_file import new_game_stats

if TYPE_CHECKING:
    from .table import Table

Phase = Callable[[], "Callable[[int, int], None] | None"]
"""``phase()``: the progress callback ``(done, total)`` of the next solve, or None."""
State = tuple[int, int, int]
NEW_GAME_STATE: State = (0, 0, 0)
"""A new card's (filled mask, upper subtotal, Yahtzee flag)."""


def final_distribution(card: Scorecard, table: Table, memory: TurnMemory, *,
                       phase: Phase | None = None) -> np.ndarray:
    """P(final score = x) for x = 0..: exact, from ``card`` at the start of its next turn,
    playing on for the highest expected score (a full card: its total, surely).
    ``phase()``: the progress callback of the solve, when it is not known already."""
    if card.rules_name != table.rules.name:
        raise ObjectiveError(f"the opponent's card is for rules {card.rules_name!r}, "
                             f"the table for {table.rules.name!r}")
    if card.is_full:
        dist = np.zeros(card.total + 1)
        dist[card.total] = 1.0
        return dist
    to_come = points_to_come(table, (card.mask, card.upper, card.flag), memory, phase)
    return np.concatenate((np.zeros(card.total), to_come))


def is_distribution_known(card: Scorecard, table: Table, memory: TurnMemory) -> bool:
    """True when the distribution of ``card``'s points to come is kept (no solve)."""
    return (table, (card.mask, card.upper, card.flag)) in memory.points


def points_to_come(table: Table, state: State, memory: TurnMemory,
                   phase: Phase | None = None) -> np.ndarray:
    """The distribution of the points still to come from a turn-start state under
    expected-score play (the last :data:`solver.memory.POINTS_KEPT` are kept in
    ``memory``). A new game's is the rules' new-game statistics
    (:func:`solver.stats_file.new_game_stats`: read from its file, the same numbers bit
    for bit; computed once when missing), not solved again (``phase`` is then not
    called)."""
    def solved() -> np.ndarray:
        if state == NEW_GAME_STATE:
            return new_game_stats(table).distribution
        return optimal_stats(table, None if phase is None else phase(),
                             start=state).distribution

    return memory.points.make((table, state), solved)


def keep_points_to_come(table: Table, states: Sequence[State], memory: TurnMemory,
                        progress: Callable[[int, int], None] | None = None) -> None:
    """Work out and keep in ``memory`` the distributions of the points to come of one
    player's cards (their states, each reachable from the one before: a game's cards in
    order) in one pass from the first not kept yet (:func:`solver.stats.optimal_stats`
    with ``more``: the same numbers as one pass from each)."""
    todo = _todo(table, states, memory)
    if not todo:
        return
    todo.sort(key=lambda state: bin(state[0]).count("1"))
    more: dict[State, np.ndarray] = dict.fromkeys(todo[1:], np.zeros(0))
    first = optimal_stats(table, progress, start=todo[0], more=more).distribution
    for state, dist in [(todo[0], first), *more.items()]:
        memory.points.put((table, state), dist)


def points_to_come_work(table: Table, states: Sequence[State], memory: TurnMemory) -> float:
    """The work of :func:`keep_points_to_come` of ``states`` (in
    :func:`solver.stats.stats_work`'s units; 0 when every one is kept)."""
    todo = _todo(table, states, memory)
    if not todo:
        return 0.0
    return stats_operations(table, min(todo, key=lambda state: bin(state[0]).count("1")))


def _todo(table: Table, states: Sequence[State], memory: TurnMemory) -> list[State]:
    """The distinct ``states`` whose distribution is neither kept nor a new game's."""
    return [state for state in dict.fromkeys(states)
            if state != NEW_GAME_STATE and (table, state) not in memory.points]


def max_distribution(distributions: Sequence[np.ndarray]) -> np.ndarray:
    """P(max = x) of independent scores, ``distributions[i][x]`` = P(score i = x): the
    product of their distribution functions, differenced. One distribution: itself
    (a float64 copy, so one opponent gives exactly the one-opponent numbers)."""
    if not distributions:
        raise ObjectiveError("the maximum of no distribution")
    dists = [np.asarray(d, dtype=np.float64) for d in distributions]
    if len(dists) == 1:
        return dists[0].copy()
    size = max(d.shape[0] for d in dists)
    cdf = np.ones(size)
    for d in dists:
        own = np.cumsum(d)
        cdf *= np.concatenate((own, np.full(size - own.shape[0], own[-1])))
    return np.diff(cdf, prepend=0.0)
