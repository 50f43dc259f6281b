"""A goal's vectors of one game, solved once and reused by the turns that follow.

A question under a target or win goal (:mod:`solver.goals`) solves every state the card can reach
(:func:`solver.target.solve_vectors`): from a new game, the whole game. The next turns
of the same game are reachable from that card, and each state's range of points
covers every total they can have, so the same vectors answer them exactly. The last
vectors of the last :data:`solver.memory.VECTORS_KEPT` games asked about (two: both
players of a two-player game) are kept, every level of them, in the caller's
:class:`~solver.memory.TurnMemory` (``memory.vectors``): a later card is answered from them when its
state was solved and its total lies in that state's range, else the vectors are solved
again from that card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .game.card import Scorecard
from .goals import Goal
from .memory import TurnMemory
from .table import Table
from .target import Utility, Vectors, solve_vectors


@dataclass(frozen=True, eq=False)
class _Solved:
    table: Table
    goal: str
    start: tuple[int, int, int]
    total: int
    vectors: Vectors


KEEP_BYTES = 1 << 30
"""The most memory one game's kept levels may take (1 GiB: the official rules' whole game
for a target of 300 takes 367 MB). A solve that needs more lets its latest levels go
first (the most boxes filled): the early levels, which the game's next turns read, stay
as far as they fit, and a later card past them is solved again."""


def _state(card: Scorecard) -> tuple[int, int, int]:
    return card.mask, card.upper, card.flag


def answers(solved: Vectors, start: tuple[int, int, int], total: int, card: Scorecard) -> bool:
    """True when vectors solved from (``start``, ``total``) hold every value a turn of
    ``card`` needs: the same card, or a later card of the same game (its mask contains
    the start's, its state was solved, its total is in that state's range)."""
    state = _state(card)
    if state == start and card.total == total:
        return True
    m0 = start[0]
    if card.mask & m0 != m0 or card.mask == m0 or card.total < total:
        return False
    filled = bin(card.mask).count("1")
    level = solved.levels.get(filled)
    if level is None or filled + 1 not in solved.levels:
        return False
    i = int(solved.slot[state])
    return 0 <= i < level.m.shape[0] and card.total <= int(level.hi[i])


def is_kept(card: Scorecard, table: Table, goal: Goal, memory: TurnMemory) -> bool:
    """True when kept vectors answer a turn of ``card`` for ``goal`` (no solve): in
    ``memory``, or on disk (:meth:`Goal.stored_solve`)."""
    key = goal.key
    if any(solved.table is table and solved.goal == key
           and answers(solved.vectors, solved.start, solved.total, card)
           for solved in kept(memory)):
        return True
    stored = goal.stored_solve(table)
    return stored is not None and stored.answers(_state(card), card.total)


def _stored(card: Scorecard, table: Table, goal: Goal) -> Vectors | None:
    """The vectors of the goal's solve on disk when they answer ``card``'s turn and
    the level it reads is sound (read and checked now), else None."""
    stored = goal.stored_solve(table)
    if stored is None or not stored.answers(_state(card), card.total):
        return None
    return stored.vectors() if stored.is_sound(bin(card.mask).count("1") + 1) else None


def vectors_for(card: Scorecard, table: Table, goal: Goal, memory: TurnMemory,
                progress: Callable[[int, int], None] | None = None, *,
                utility: Utility | None = None, turn: Scorecard | None = None) -> Vectors:
    """The goal's vectors for a turn of ``turn`` (default ``card``): the kept ones (in
    ``memory``) when they answer it, else solved from ``card`` (every level kept for the
    turns to come; a new card for a goal that :attr:`~Goal.solves_from_new_game`).
    ``utility``: the goal's, when already computed."""
    key = goal.key
    asked = card if turn is None else turn
    store = memory.vectors
    found = store.find(lambda _, solved: (
        solved.table is table and solved.goal == key
        and answers(solved.vectors, solved.start, solved.total, asked)))
    if found is not None:
        return found.vectors
    store.shrink(store.size - 1)  # let the oldest go before new vectors are built
    stored = _stored(asked, table, goal)
    if stored is not None:  # (its levels are read and checked when first used)
        return stored
    if utility is None:
        utility = goal.utility(table, memory)
    vectors = solve_vectors(table, utility, start=_state(card),
                            total=card.total, keep=tuple(range(table.rules.n_boxes + 1)),
                            keep_bytes=KEEP_BYTES, progress=progress)
    solved = _Solved(table, key, _state(card), card.total, vectors)
    store.put(solved, solved)
    return vectors


def kept(memory: TurnMemory) -> list[_Solved]:
    """The solves kept in ``memory``, most recently used first."""
    return list(reversed(list(memory.vectors.keys())))


def keep_only(memory: TurnMemory, *solves: _Solved) -> None:
    """Keep these solves only in ``memory`` (the first the most recent)."""
    store = memory.vectors
    store.clear()
    for solved in reversed(solves):
        store.put(solved, solved)


def clear(memory: TurnMemory) -> None:
    """Forget every solve kept in ``memory`` (frees their memory)."""
    memory.vectors.clear()
