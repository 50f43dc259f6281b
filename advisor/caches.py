"""What the process keeps between questions: every cache of the advisor in one object.

:class:`Caches` holds the turn advisors (by lightness) and, as the solver's
:class:`~solver.memory.TurnMemory` it is, the distributions of the points to come and
the goal's vectors of the last games, each a :class:`~solver.memory.Bounded` (the one
bounded-cache helper, least recently used out first). The process has one
(:func:`caches`), instead of a global and a lock per cache in each module; a test gives
the process a new one for a clean slate.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver.memory import POINTS_KEPT, VECTORS_KEPT, Bounded, TurnMemory

__all__ = ["ADVISORS_KEPT", "POINTS_KEPT", "VECTORS_KEPT", "Bounded", "Caches", "caches"]

ADVISORS_KEPT = {True: 512, False: 8}
"""Turn advisors kept, by whether they are light: nothing solved (the expected score, a
few KB each), or the objective solves its turns (each holds the vectors of its game, up
to hundreds of MB)."""


def _advisors() -> dict[bool, Bounded[Any, Any]]:
    return {family: Bounded(size) for family, size in ADVISORS_KEPT.items()}


@dataclass
class Caches(TurnMemory):
    """Every cache of the advisor. ``advisors[light]``: the turn advisors by ``(table,
    card, objective)``, ``light`` True when nothing is solved (the expected score);
    ``points`` and ``vectors``: the solver's (:class:`~solver.memory.TurnMemory`)."""

    advisors: dict[bool, Bounded[Any, Any]] = field(default_factory=_advisors)


_process = Caches()


def caches() -> Caches:
    """The process's caches."""
    return _process
