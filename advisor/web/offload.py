"""Work on posted game records, off the server's event loop and bounded in number.

Reading a record body (up to 256 KB) and analysing its game (a turn solve per card, up
to 104 cards for 8 players) is CPU work in Python and numba: on the event loop it held
every other request (an advise of 3 ms waited seconds behind eight posted records). A
thread does not cure it: a thread shares the interpreter lock with the loop, and on a
busy machine the thread is preempted while it holds the lock, so the loop waits for the
scheduler (advise p99 of 270 ms measured with one record thread). :class:`RecordWork`
runs it in a process of its own (spawned on first use; the one runtime of
:class:`advisor.workers.WorkerService`), one record at a time; other bodies wait their
turn (at most :data:`RECORD_QUEUE`) with their connection open, while the loop keeps
answering. The functions it runs take the body's bytes (or the record read from
them) and return the record or the JSON answer (a refusal comes back as the library's
exception, raised in the endpoint); one that solves or advises is also handed the
worker's :class:`~advisor.caches.Caches` (``with_memory``), kept across its questions.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from solver.errors import YahtzeeError
from solver.solved_turn import SolvedTurn, solve_is_slow
from solver.table import get_table

from ..analysis import analyze
from ..caches import Caches
from ..play_win import Judging
from ..record import GameRecord
from ..request.page import read_noted_record, record_json
from ..request.turn_question import TurnQuestion, solve_turn_job
from ..workers import WORKER_DIED, Work, WorkerFailed, WorkerService, call

T = TypeVar("T")

RECORD_QUEUE = 64
"""Records read or analysed, or waiting for the record lane's worker, at once (past it a
record is refused with :class:`advisor.workers.QueueFull`, HTTP 429)."""


class RecordWork:
    """Runs record work in one worker process, one question at a time, first come first
    served; :meth:`close` ends it."""

    def __init__(self, name: str = "yahtzee-records", limit: int = RECORD_QUEUE) -> None:
        self.worker = WorkerService(name, limit=limit, on_end=self._ended,
                                   start_failed="the server could not start a worker "
                                                "process: ")
        self._answers: dict[Work, asyncio.Future[Any]] = {}

    async def run(self, func: Callable[..., T], *args: Any, with_memory: bool = False) -> T:
        """``func(*args)`` in the worker (a module-level function and picklable arguments),
        once the worker is free; with ``with_memory``, ``func(*args, memory)``: the
        worker's caches last. Its exception is raised here. A worker that cannot be
        started or that ends while it works raises :class:`WorkerFailed` for this
        question, and the next one starts a new worker."""
        loop = asyncio.get_running_loop()
        self.worker.post = loop.call_soon_threadsafe  # the worker's words, on the loop
        work = Work(None, call, (func, args, with_memory))
        answer: asyncio.Future[Any] = loop.create_future()
        self._answers[work] = answer
        try:
            self.worker.submit(work)
        except BaseException:
            self._answers.pop(work, None)
            raise
        try:
            return await answer
        finally:
            if work.state == "queued":  # the asker is gone: its place goes to the next
                self.worker.cancel(work)

    def _ended(self, work: Work, by_worker: bool) -> None:
        """(On the loop.) A question ended: its answer, or what it raises."""
        answer = self._answers.pop(work, None)
        if answer is None or answer.done():
            return
        if work.state == "done":
            answer.set_result(work.result)
        elif work.state == "cancelled":
            answer.cancel()
        elif work.exception is not None:
            answer.set_exception(work.exception)
        elif work.input_error:
            answer.set_exception(YahtzeeError(work.error or "refused"))
        elif by_worker and work.error != WORKER_DIED:  # an exception pickle could not send
            answer.set_exception(RuntimeError(work.error))
        else:  # the worker could not start, or ended under it
            answer.set_exception(WorkerFailed(work.error if by_worker is False
                                              else f"{work.error}; ask again"))

    def close(self) -> None:
        """End the worker (a record under way is abandoned)."""
        self.worker.close()


def record_answer(body: bytes) -> dict[str, Any]:
    """``POST /api/record``: the checked record of a body, as the page needs it."""
    return record_json(*read_noted_record(body))


def record_of(body: bytes) -> tuple[GameRecord, Judging | None]:
    """The checked record of a posted body and its noted objective (parsed in the worker,
    sent back pickled)."""
    return read_noted_record(body)


def analysis_answer(record: GameRecord, memory: Caches) -> dict[str, Any]:
    """``POST /api/analyze`` judged by expected score: ``yahtzee analyze - --json`` of a
    record (the rule set's table read, or built when missing, in the worker; its turn
    advisors kept in the worker's ``memory``)."""
    return analyze(record, table=get_table(record.rules), memory=memory).to_json()


class QuickWork(RecordWork):
    """The light lane: turn questions under a target or win objective that are answered in
    about a second (:func:`quick_turn`), in a worker process of its own, so that no heavy
    job (:mod:`advisor.web.jobs`, minutes) makes them wait, however many run."""

    def __init__(self, limit: int = RECORD_QUEUE) -> None:
        super().__init__("yahtzee-quick", limit)


def quick_turn(question: TurnQuestion, memory: Caches) -> SolvedTurn | None:
    """The turn of ``question`` solved now when that takes about a second or less
    (:func:`solver.solved_turn.solve_is_slow` says no: few open boxes, a target the
    target table holds, the opponents' distributions kept in the worker's ``memory``),
    else None: the solve is a heavy job's."""
    table = get_table(question.card.rules_name)
    if solve_is_slow(question.card, table, question.objective.goal, memory):
        return None
    return solve_turn_job(question, None, memory)
