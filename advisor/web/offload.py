"""Work on posted game records, off the server's event loop and bounded in number.

Reading a record body (up to 256 KB) and analysing its game (a turn solve per card, up
to 104 cards for 8 players) is CPU work in Python and numba: on the event loop it
would hold every other request (an advise of 3 ms waited seconds behind eight posted
records). :class:`RecordWork` runs it in worker threads, at most ``limit`` at once;
other bodies wait their turn (their connection open), while the loop keeps answering.
The threads share the interpreter with the loop, so a small ``limit`` keeps the loop's
share of it large: with one record thread the loop waits at most one switch interval
(5 ms) or one numba call for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

T = TypeVar("T")

RECORD_THREADS = 1
"""Record bodies parsed or analysed at once (each in a thread of its own)."""


class RecordWork:
    """Runs record work off the event loop, at most ``limit`` at once."""

    def __init__(self, limit: int = RECORD_THREADS) -> None:
        self.limit = limit
        self._slots: asyncio.Semaphore | None = None

    async def run(self, func: Callable[..., T], *args: Any) -> T:
        """``func(*args)`` in a worker thread, once a slot is free; its exception is raised
        here."""
        if self._slots is None:  # made in the loop that uses it
            self._slots = asyncio.Semaphore(self.limit)
        async with self._slots:
            return await run_in_threadpool(func, *args)
