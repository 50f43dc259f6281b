"""Background jobs of ``yahtzee serve``: long solves that the page follows and can cancel.

A turn under a target or win objective is a solve of seconds to minutes (the DP of
:mod:`solver.target` from the card), a review under such an objective one per turn.
These heavy jobs run one at a time, first come first served, in a worker process of
their own (:mod:`advisor.background`) at a lower CPU priority (:data:`NICE`), so the
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
import contextlib
import itertools
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from solver.errors import YahtzeeError

from ..background import JobFunc, spawn_worker

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
STATES = ("queued", "running", "done", "failed", "cancelled")


class TooManyJobs(YahtzeeError):
    """Every slot for jobs is taken: cancel one or wait (HTTP 429)."""


class UnknownJob(YahtzeeError):
    """No job has this id (HTTP 404)."""


class JobCancelled(YahtzeeError):
    """The job a request waited for was cancelled (HTTP 409)."""


class JobFailed(RuntimeError):
    """The job a request waited for failed on the server, not on its input (HTTP 500 with
    the reason: the worker ran out of memory, could not be started, ...)."""


@dataclass(eq=False)
class Job:
    """One background computation and what it has reported."""

    id: str
    kind: str
    key: Hashable
    what: str
    func: JobFunc
    arg: Any
    state: str = "queued"
    done: int = 0
    total: int = 0
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    ended: float | None = None
    result: Any = None
    error: str | None = None
    input_error: bool = False
    """The job failed on input the user gave (HTTP 400), not on the server (500)."""
    client: str = ""
    """Who asked for it first (the client's address)."""
    position: int = 0
    """Place in the queue while queued (1: the next to run), else 0."""
    seen: float = field(default_factory=time.monotonic)
    """When someone last asked about it (its status, a wait, the same question)."""
    waiters: int = 0
    """Requests waiting for it now."""
    finished: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def is_live(self) -> bool:
        return self.state in ("queued", "running")

    def status(self) -> dict[str, Any]:
        """``id``, ``kind``, ``what``, ``state``, ``done``, ``total`` and ``seconds`` (running
        so far, or in all), with ``position`` for a queued job (1: the next to run) and
        ``error`` for a failed or abandoned one."""
        now = time.monotonic()
        since = self.started if self.started is not None else None
        seconds = 0.0 if since is None else (self.ended or now) - since
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "what": self.what,
                               "state": self.state, "done": self.done, "total": self.total,
                               "seconds": round(seconds, 1)}
        if self.state == "queued":
            out["position"] = self.position
        if self.error is not None:
            out["error"] = self.error
        return out


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
        self._queue: list[str] = []
        self._running: str | None = None
        self._process: Any = None
        self._conn: Any = None
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
        job = Job(f"{next(self._serial)}-{secrets.token_hex(4)}", kind, key, what, func, arg,
                  client=client)
        self._jobs[job.id] = job
        self._by_key[key] = job.id
        self._queue.append(job.id)
        self._forget_old()
        self._next()
        self._number()
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
        job = Job(f"{next(self._serial)}-{secrets.token_hex(4)}", kind, key, what,
                  None, None, state="done", done=1, total=1, started=now, ended=now,  # type: ignore[arg-type]
                  result=result)
        job.finished.set()
        self._jobs[job.id] = job
        self._by_key[key] = job.id
        self._forget_old()
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
            await job.finished.wait()
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
        """Cancel a queued or running job (a finished one stays as it is)."""
        job = self.get(job_id)
        if job.state == "queued":
            if job.id in self._queue:
                self._queue.remove(job.id)
            self._end(job, "cancelled")
        elif job.state == "running":
            if self._running == job.id:
                self._stop_worker()
            self._end(job, "cancelled")
        self._next()
        self._number()
        return job

    # ------------------------------------------------------------------ bounds
    def _number(self) -> None:
        """Each queued job's position (1: the next to run)."""
        for place, job_id in enumerate(self._queue, start=1):
            self._jobs[job_id].position = place

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

    # ------------------------------------------------------------------ running
    def _next(self) -> None:
        """Run the first queued job when none runs. A worker that cannot be started (no
        file descriptor or memory left: ``os.pipe`` or ``fork`` failing) or that cannot
        take the job fails that job, with the reason, and the next queued one is tried."""
        while self._running is None and self._queue:
            job = self._jobs[self._queue.pop(0)]
            job.position = 0
            self._number()
            try:
                if self._process is None or not self._process.is_alive():
                    self._spawn()
                self._conn.send((job.id, job.func, job.arg))
            except Exception as exc:  # noqa: BLE001 - that job fails, the service goes on
                self._stop_worker()
                job.error = f"the server could not start the computation: {exc}"
                self._end(job, "failed")
                continue
            job.state, job.started = "running", time.monotonic()
            self._running = job.id

    def _spawn(self) -> None:
        """A new worker and its reader thread (raises when either cannot be started)."""
        process, mine = spawn_worker("yahtzee-jobs")
        with contextlib.suppress(OSError):  # before the solver's threads start: they inherit it
            os.setpriority(os.PRIO_PROCESS, process.pid, NICE)
        self._process, self._conn = process, mine
        threading.Thread(target=self._read, args=(mine,), daemon=True,
                         name="yahtzee-jobs-reader").start()

    def _read(self, conn: Any) -> None:
        """The reader thread of one worker: its messages go to the event loop."""
        loop = self._loop
        assert loop is not None
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                message = ("gone", None)
            try:
                loop.call_soon_threadsafe(self._on_message, conn, message)
            except RuntimeError:  # the loop is closed: the server stops
                return
            if message[0] == "gone":
                return

    def _on_message(self, conn: Any, message: tuple) -> None:
        if conn is not self._conn:  # a stopped worker's last words
            return
        kind, job_id = message[0], message[1]
        job = self._jobs.get(job_id) if job_id is not None else None
        if kind == "progress" and job is not None and job.state == "running":
            job.done, job.total = message[2], message[3]
            return
        if kind == "gone":
            self._process, self._conn = None, None
            running = self._jobs.get(self._running or "")
            self._running = None
            if running is not None and running.is_live:
                running.error = "the worker process ended (out of memory?)"
                self._end(running, "failed")
            self._next()
            return
        if job is None or job.id != self._running:
            return
        self._running = None
        if kind == "done":
            job.result = message[2]
            job.done = job.total = max(job.total, 1)
            self._end(job, "done")
        else:
            job.error, job.input_error = message[2], message[3]
            self._end(job, "failed")
        self._next()

    def _end(self, job: Job, state: str) -> None:
        job.state, job.ended = state, time.monotonic()
        job.func = job.arg = None  # type: ignore[assignment]
        job.finished.set()

    def _forget_old(self) -> None:
        ended = [job for job in self._jobs.values() if not job.is_live]
        for job in ended[:max(len(ended) - self.kept, 0)]:
            del self._jobs[job.id]
            if self._by_key.get(job.key) == job.id:
                del self._by_key[job.key]

    def _stop_worker(self) -> None:
        process, conn = self._process, self._conn
        self._process, self._conn, self._running = None, None, None
        if process is not None:
            process.terminate()
            process.join(5)
        if conn is not None:
            conn.close()

    def close(self) -> None:
        """End the worker; live jobs are cancelled."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        for job in list(self._jobs.values()):
            if job.is_live:
                self._end(job, "cancelled")
        self._queue.clear()
        self._stop_worker()
