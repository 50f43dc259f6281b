"""What is kept between questions: every cache of the advisor in one object.

:class:`Caches` holds the turn advisors (by lightness) and, as the solver's
:class:`~solver.memory.TurnMemory` it is, the distributions of the points to come and
the goal's vectors of the last games, each a :class:`~solver.memory.Bounded` (the one
bounded-cache helper, least recently used out first). No module holds one: whoever
lives as long as the caches makes one and hands it down (``memory=``) to everything that
solves or advises: a CLI command for its process (:func:`advisor.cli._progress.command_memory`),
the server's application (:class:`advisor.web.served.Served`), each worker process for
its works (:func:`advisor.workers.worker_main`), a game (:class:`advisor.play.GameSession`).
The library's public entry points (:func:`advisor.ranking.advise`,
:class:`~advisor.ranking.TurnAdvisor`, :func:`advisor.analysis.analyze`) make a fresh one
when given none: pass one to share work between calls.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver.memory import POINTS_KEPT, VECTORS_KEPT, Bounded, TurnMemory

__all__ = ["ADVISORS_KEPT", "POINTS_KEPT", "VECTORS_KEPT", "Bounded", "Caches", "or_new"]

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


def or_new(memory: Caches | None) -> Caches:
    """``memory``, or a fresh :class:`Caches` when None (a library call given none: it
    shares nothing with other calls)."""
    return Caches() if memory is None else memory
