"""Work on posted game records, off the server's event loop and bounded in number.

Reading a record body (up to 256 KB) and analysing its game (a turn solve per card, up
to 104 cards for 8 players) is CPU work in Python and numba: on the event loop it held
every other request (an advise of 3 ms waited seconds behind eight posted records). A
thread does not cure it: a thread shares the interpreter lock with the loop, and on a
busy machine the thread is preempted while it holds the lock, so the loop waits for the
scheduler (advise p99 of 270 ms measured with one record thread). :class:`RecordWork`
runs it in a process of its own (spawned on first use), :data:`RECORD_WORKERS` records
at a time; other bodies wait their turn with their connection open, while the loop
keeps answering. The functions it runs take the body's bytes (or the record read from
them) and return the record or the JSON answer (a refusal comes back as the library's
exception, raised in the endpoint).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from solver.table import get_table

from ..analyze import analyze
from ..background import WorkerFailed
from ..play_win import Judging
from ..record import GameRecord
from ..request.page import read_noted_record, record_json
from ..request.turn_question import TurnQuestion, solve_turn_job
from ..solved_turn import SolvedTurn, solve_is_slow

T = TypeVar("T")

RECORD_WORKERS = 1
"""Records read or analysed at once (each by a worker process)."""
QUICK_WORKERS = 1
"""Light turn questions answered at once (each by a worker process of the light lane)."""


def _ignore_interrupt() -> None:
    """Worker initializer: Ctrl-C stops the server, which ends the worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class RecordWork:
    """Runs record work in :data:`RECORD_WORKERS` worker processes; :meth:`close` ends them."""

    def __init__(self, workers: int = RECORD_WORKERS) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._slots: asyncio.Semaphore | None = None

    async def run(self, func: Callable[..., T], *args: Any) -> T:
        """``func(*args)`` in a worker (a module-level function and picklable arguments),
        once a worker is free; its exception is raised here. A worker that cannot be
        started or that ends while it works raises :class:`WorkerFailed` for this
        question, and the next one starts new workers."""
        if self._slots is None:  # made in the loop that uses it
            self._slots = asyncio.Semaphore(self.workers)
        async with self._slots:
            try:
                if self._pool is None:
                    self._pool = ProcessPoolExecutor(
                        self.workers, mp_context=multiprocessing.get_context("spawn"),
                        initializer=_ignore_interrupt)
                pool = self._pool
                work = pool.submit(func, *args)  # (a worker is started here when none runs)
            except (OSError, BrokenProcessPool) as exc:  # no descriptor or memory left
                self._drop(self._pool)
                raise WorkerFailed(f"the server could not start a worker process: "
                                   f"{exc}") from None
            try:
                return await asyncio.wrap_future(work)
            except BrokenProcessPool:
                self._drop(pool)
                raise WorkerFailed("the worker process ended while it worked (out of "
                                   "memory?); ask again") from None

    def _drop(self, pool: ProcessPoolExecutor | None) -> None:
        """Let a broken pool go (the next question starts a new one)."""
        if pool is not None and pool is self._pool:
            self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """End the workers (a record under way is abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def record_answer(body: bytes) -> dict[str, Any]:
    """``POST /api/record``: the checked record of a body, as the page needs it."""
    return record_json(*read_noted_record(body))


def record_of(body: bytes) -> tuple[GameRecord, Judging | None]:
    """The checked record of a posted body and its noted objective (parsed in the worker,
    sent back pickled)."""
    return read_noted_record(body)


def analysis_answer(record: GameRecord) -> dict[str, Any]:
    """``POST /api/analyze`` judged by expected score: ``yahtzee analyze - --json`` of a
    record (the rule set's table read, or built when missing, in the worker)."""
    return analyze(record, table=get_table(record.rules)).to_json()


class QuickWork(RecordWork):
    """The light lane: turn questions under a target or win objective that are answered in
    about a second (:func:`quick_turn`), in worker processes of their own, so that no heavy
    job (:mod:`advisor.web.jobs`, minutes) makes them wait, however many run."""

    def __init__(self, workers: int = QUICK_WORKERS) -> None:
        super().__init__(workers)


def quick_turn(question: TurnQuestion) -> SolvedTurn | None:
    """The turn of ``question`` solved now when that takes about a second or less
    (:func:`advisor.solved_turn.solve_is_slow` says no: few open boxes, a target the
    target table holds, the opponents' distributions kept here), else None: the solve is
    a heavy job's."""
    table = get_table(question.card.rules_name)
    if solve_is_slow(question.card, table, question.objective):
        return None
    return solve_turn_job(question, None)
