"""Background jobs of ``yahtzee serve``: long solves that the page follows and can cancel.

A turn under a target or win objective is a solve of seconds to minutes (the DP of
:mod:`solver.target` from the card), a review under such an objective one per turn.
These heavy jobs run one at a time, first come first served, in a worker process of
their own (:class:`advisor.workers.WorkerService`, the one runtime of work in other
processes) at a lower CPU priority (:data:`NICE`), so the
server keeps answering and the light questions' own worker gets the cores first (the
page shows the expected-score advice meanwhile, and the player goes on entering dice,
undoing, playing). A turn that is solved in about a second never becomes a job here: the
server answers it in its light lane (:mod:`advisor.web.offload`) and records it with
:meth:`JobService.add_done`, so no heavy job ever makes it wait.

A :class:`Job` is found again by its key (the same question joins the job under way, or
gets the finished result), reports its steps as it goes (``done`` of ``total``) and,
while queued, its ``position`` (1: the next to run), and is cancelled by
:meth:`JobService.cancel`: a queued job is dropped, a running one ends with its worker
process (a new one starts for the next job). Bounds: at most ``per_client`` live
(queued or running) jobs per client and ``limit`` in all; past either a new one is
refused (:class:`TooManyJobs`, HTTP 429) until one ends or is cancelled. A live job that
nobody asks about (its status, a request waiting on it, the same question again) for
``abandon`` seconds is cancelled, so a client cannot pile up work it never reads. The
last ``kept`` finished results are kept.
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
import time
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from solver.errors import YahtzeeError

from ..workers import JobFunc, Work, WorkerService

LIMIT = 12
"""Heavy jobs queued or running at once, from every client."""
PER_CLIENT = 2
"""Heavy jobs queued or running at once for one client (one address): the page has at
most a turn's solve and a review under way."""
ABANDON = 60.0
"""Seconds a live job may go unasked-for before it is cancelled (the page asks every
second or so while it shows one)."""
NICE = 10
"""The heavy worker's CPU priority (``nice``): the light lane and the server run first."""
KEPT = 64
"""Finished jobs kept (results and errors)."""

Job = Work
"""One background computation and what it has reported (:class:`advisor.workers.Work`)."""


class TooManyJobs(YahtzeeError):
    """Every slot for jobs is taken: cancel one or wait (HTTP 429)."""


class UnknownJob(YahtzeeError):
    """No job has this id (HTTP 404)."""


class JobCancelled(YahtzeeError):
    """The job a request waited for was cancelled (HTTP 409)."""


class JobFailed(RuntimeError):
    """The job a request waited for failed on the server, not on its input (HTTP 500 with
    the reason: the worker ran out of memory, could not be started, ...)."""


class JobService:
    """Heavy jobs run one at a time in a worker process; see the module docstring."""

    def __init__(self, limit: int = LIMIT, kept: int = KEPT, *, per_client: int = PER_CLIENT,
                 abandon: float = ABANDON) -> None:
        self.limit = limit
        self.kept = kept
        self.per_client = per_client
        self.abandon = abandon
        self._sweeper: asyncio.TimerHandle | None = None
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._by_key: dict[Hashable, str] = {}
        self._finished: dict[str, asyncio.Event] = {}
        self.worker = WorkerService("yahtzee-jobs", nice=NICE, on_end=self._ended,
                                   start_failed="the server could not start the computation: ")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._serial = itertools.count(1)

    # ------------------------------------------------------------------ asking
    def start(self, kind: str, key: Hashable, what: str, func: JobFunc, arg: Any,
              client: str = "") -> Job:
        """The job of ``key``: the one queued, running or done (a failed or cancelled one
        is started again), else a new one queued for ``client``. Raises
        :class:`TooManyJobs` when ``client`` has ``per_client`` jobs live already, or
        every client together ``limit``."""
        self._loop = asyncio.get_running_loop()
        self.worker.post = self._loop.call_soon_threadsafe  # the worker's words, on the loop
        self._sweep()
        found = self.find(key)
        if found is not None and found.state in ("queued", "running", "done"):
            self._jobs.move_to_end(found.id)
            found.seen = time.monotonic()
            return found
        live = [job for job in self._jobs.values() if job.is_live]
        mine = sum(job.client == client for job in live)
        if mine >= self.per_client:
            raise TooManyJobs(f"{mine} long computations of yours are under way or queued, "
                              f"the most one client may have; cancel one (DELETE "
                              f"/api/jobs/ID) or wait for one to end")
        if len(live) >= self.limit:
            raise TooManyJobs(f"{len(live)} long computations are under way or queued, the "
                              f"most this server holds; cancel one (DELETE /api/jobs/ID) or "
                              f"wait for one to end")
        job = Job(key, func, arg, id=self._new_id(), kind=kind, what=what, client=client)
        self._add(job)
        self.worker.submit(job)
        if self._sweeper is None:
            self._sweeper = self._loop.call_later(self.abandon / 4, self._tick)
        return job

    def add_done(self, kind: str, key: Hashable, what: str, result: Any) -> Job:
        """A job of ``key`` that is done already (answered in the light lane), found by
        its key and id as any other; the job of ``key`` if there is one under way."""
        found = self.find(key)
        if found is not None and found.state in ("queued", "running", "done"):
            return found
        now = time.monotonic()
        job = Job(key, id=self._new_id(), kind=kind, what=what, state="done", done=1,
                  total=1, started=now, ended=now, result=result)
        self._add(job)
        self._finished[job.id].set()
        return job

    def follow(self, job_id: str) -> Job:
        """:meth:`get`, as a client following the job (it is not abandoned)."""
        job = self.get(job_id)
        job.seen = time.monotonic()
        return job

    def finished(self, kind: str) -> list[Job]:
        """The jobs of ``kind`` done, oldest first."""
        return [job for job in self._jobs.values() if job.kind == kind and job.state == "done"]

    def find(self, key: Hashable) -> Job | None:
        """The job of ``key``, if any."""
        found = self._by_key.get(key)
        return self._jobs.get(found) if found is not None else None

    def get(self, job_id: str) -> Job:
        job = self._jobs.get(job_id)
        if job is None:
            raise UnknownJob(f"no job {job_id[:40]!r} (finished jobs are kept a while: ask "
                             f"again to start it anew)")
        return job

    async def wait(self, job: Job) -> Any:
        """The result of ``job`` once it ends; a failure raises (an input error as a
        :class:`YahtzeeError`, else :class:`JobFailed`), a cancellation
        :class:`JobCancelled`."""
        job.waiters += 1
        try:
            if job.is_live:
                await self._finished[job.id].wait()
        finally:
            job.waiters -= 1
            job.seen = time.monotonic()
        if job.state == "done":
            return job.result
        if job.state == "cancelled":
            raise JobCancelled(f"the computation of {job.what} was cancelled (job {job.id})")
        if job.input_error:
            raise YahtzeeError(job.error or "refused")
        raise JobFailed(f"the computation of {job.what} failed (job {job.id}): {job.error}")

    def cancel(self, job_id: str) -> Job:
        """Cancel a queued or running job (a finished one stays as it is); the next
        queued one runs."""
        return self.worker.cancel(self.get(job_id))

    # ------------------------------------------------------------------ bounds
    def _new_id(self) -> str:
        return f"{next(self._serial)}-{secrets.token_hex(4)}"

    def _add(self, job: Job) -> None:
        self._jobs[job.id] = job
        self._by_key[job.key] = job.id
        self._finished[job.id] = asyncio.Event()
        self._forget_old()

    def _ended(self, job: Job, by_worker: bool) -> None:
        """(On the loop.) A job ended: the requests waiting on it are answered."""
        finished = self._finished.get(job.id)
        if finished is not None:
            finished.set()

    def _sweep(self) -> None:
        """Cancel the live jobs nobody has asked about for ``abandon`` seconds."""
        now = time.monotonic()
        for job in [j for j in self._jobs.values() if j.is_live]:
            if job.waiters == 0 and now - job.seen > self.abandon:
                job.error = (f"abandoned: nobody asked for it in {self.abandon:.0f} s "
                             f"(ask again to start it anew)")
                self.cancel(job.id)

    def _tick(self) -> None:
        """The periodic sweep, while jobs are live."""
        self._sweeper = None
        self._sweep()
        if any(job.is_live for job in self._jobs.values()) and self._loop is not None:
            self._sweeper = self._loop.call_later(self.abandon / 4, self._tick)

    def _forget_old(self) -> None:
        ended = [job for job in self._jobs.values() if not job.is_live]
        for job in ended[:max(len(ended) - self.kept, 0)]:
            del self._jobs[job.id]
            self._finished.pop(job.id, None)
            if self._by_key.get(job.key) == job.id:
                del self._by_key[job.key]

    def close(self) -> None:
        """End the worker; live jobs are cancelled."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        self.worker.close()
