"""Exact score distributions of optimal play for ``/api/stats`` and the page's charts.

:func:`solver.stats.optimal_stats` from a new game is seconds of numba work that holds
the interpreter, so it runs in one spawned worker process while the server keeps
answering. Answers depend only on the turn-start state (filled mask, capped upper
subtotal, Yahtzee flag), so they are cached per state: the new-game figures are
computed once per server process, on first request, and a later card's figures are
quick because few boxes are open. Requests for a state already being computed wait for
that one computation.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
from collections import OrderedDict
from typing import Any

State = tuple[str, int, int, int]
"""(rules name, filled mask, upper subtotal capped at 63, Yahtzee flag)."""


def _ignore_interrupt() -> None:
    """Worker initializer: Ctrl-C stops the server, which ends the worker (no traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def state_stats(state: State) -> dict[str, Any]:
    """``optimal_stats(...).to_json()`` from the start of a turn in ``state`` (run in the
    worker; the table comes from the process's table cache)."""
    from solver.stats import optimal_stats

    from ..advise import default_table

    rules_name, mask, upper, flag = state
    return optimal_stats(default_table(rules_name), start=(mask, upper, flag)).to_json()


class StatsService:
    """Computes :func:`state_stats` in a worker process; keeps the last ``kept`` answers."""

    def __init__(self, kept: int = 256) -> None:
        self._kept = kept
        self._pool: Any = None
        self._done: OrderedDict[State, dict[str, Any]] = OrderedDict()
        self._running: dict[State, asyncio.Future[dict[str, Any]]] = {}

    def cached(self, state: State) -> dict[str, Any] | None:
        """The answer for ``state`` if already computed."""
        return self._done.get(state)

    async def get(self, state: State) -> dict[str, Any]:
        """The figures of ``state``, computed once (errors are not cached)."""
        if state in self._done:
            self._done.move_to_end(state)
            return self._done[state]
        running = self._running.get(state)
        if running is None:
            running = self._start(state)
        return await asyncio.shield(running)

    def _start(self, state: State) -> asyncio.Future[dict[str, Any]]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[dict[str, Any]] = loop.create_future()
        self._running[state] = future
        if self._pool is None:
            self._pool = multiprocessing.get_context("spawn").Pool(1, _ignore_interrupt)

        def finish(result: Any, failed: bool) -> None:
            self._running.pop(state, None)
            if future.done():
                return
            if failed:
                future.set_exception(result)
                return
            self._done[state] = result
            while len(self._done) > self._kept:
                self._done.popitem(last=False)
            future.set_result(result)

        self._pool.apply_async(
            state_stats, (state,),
            callback=lambda r: loop.call_soon_threadsafe(finish, r, False),
            error_callback=lambda e: loop.call_soon_threadsafe(finish, e, True))
        return future

    def close(self) -> None:
        """End the worker (a computation under way is abandoned)."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
        for future in self._running.values():
            future.cancel()
        self._running.clear()
