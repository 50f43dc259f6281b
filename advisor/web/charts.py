"""Exact score distributions of optimal play for ``/api/stats`` and the page's charts.

:func:`solver.stats.optimal_stats` from a new game is seconds of numba work that holds
the interpreter, so it runs in one spawned worker process while the server keeps
answering. Answers depend only on the turn-start state (filled mask, capped upper
subtotal, Yahtzee flag), so they are cached per state: the new-game figures are read
from the cache beside the table (:mod:`solver.stats_file`; computed there once, on the
first request when missing), and a later card's figures are
quick because few boxes are open. Requests for a state already being computed wait for
that one computation.
"""

from __future__ import annotations

import asyncio
from typing import Any

from solver.stats import optimal_stats
from solver.stats_file import new_game_stats
from solver.table import default_table_path, get_table

from ..caches import Bounded
from .offload import RecordWork

State = tuple[str, int, int, int]
"""(rules name, filled mask, upper subtotal capped at 63, Yahtzee flag)."""


def state_stats(state: State) -> dict[str, Any]:
    """``optimal_stats(...).to_json()`` from the start of a turn in ``state`` (run in the
    worker; the table comes from the process's table cache)."""
    rules_name, mask, upper, flag = state
    table = get_table(rules_name)
    if mask == 0:  # a new game: computed once, cached beside the table
        return new_game_stats(table).to_json()
    return optimal_stats(table, start=(mask, upper, flag)).to_json()


def build_table(rules_name: str) -> str:
    """The table of ``rules_name`` built and written if missing (run in the worker)."""
    get_table(rules_name)
    return rules_name


Key = tuple[str, Any]


class StatsService:
    """Runs :func:`state_stats` (and table builds) in a worker process (one
    :class:`~advisor.web.offload.RecordWork` lane: a worker that cannot start, or that
    ends while it works, fails that one question with
    :class:`~advisor.workers.WorkerFailed` and the next question starts a new one);
    keeps the last ``kept`` answers."""

    def __init__(self, kept: int = 256) -> None:
        self._work = RecordWork("yahtzee-figures")
        self._done: Bounded[Key, Any] = Bounded(kept)
        self._running: dict[Key, asyncio.Future[Any]] = {}

    async def get(self, state: State) -> dict[str, Any]:
        """The figures of ``state``, computed once (errors are not cached)."""
        return await self._run(state_stats, state)

    async def table(self, rules_name: str) -> None:
        """Make sure the table of ``rules_name`` exists, building a missing one in the
        worker (seconds) so that the server keeps answering meanwhile."""
        if ("table", rules_name) not in self._done and not default_table_path(rules_name).exists():
            await self._run(build_table, rules_name)
        self._done.put(("table", rules_name), rules_name)

    async def run(self, func: Any, arg: Any, *, with_memory: bool = False) -> Any:
        """``func(arg)`` in the worker (a picklable module-level function; with
        ``with_memory``, ``func(arg, memory)``: the worker's caches), cached by ``arg``; an
        exception raised there is raised here."""
        return await self._run(func, arg, with_memory=with_memory)

    async def _run(self, func: Any, arg: Any, *, with_memory: bool = False) -> Any:
        key = (func.__name__, arg)
        if key in self._done:
            return self._done.get(key)
        running = self._running.get(key)
        if running is None:  # one computation, however many ask for it meanwhile
            running = asyncio.ensure_future(self._compute(key, func, arg, with_memory))
            self._running[key] = running
        return await asyncio.shield(running)

    async def _compute(self, key: Key, func: Any, arg: Any, with_memory: bool) -> Any:
        try:
            result = await self._work.run(func, arg, with_memory=with_memory)
        finally:
            self._running.pop(key, None)
        return self._done.put(key, result)

    def close(self) -> None:
        """End the worker (a computation under way is abandoned)."""
        self._work.close()
        for future in self._running.values():
            future.cancel()
        self._running.clear()
