"""Background jobs of ``yahtzee serve``: long solves that the page follows and can cancel.

A turn under a target or win objective is a solve of seconds to a minute (the DP of
:mod:`solver.target` from the card), a review under such an objective one per turn.
They run one at a time in a worker process of their own (:mod:`advisor.background`), so
the server keeps answering
(the page shows the expected-score advice meanwhile, and the player goes on entering
dice, undoing, playing). A :class:`Job` is found again by its key (the same question
joins the job under way, or gets the finished result), reports its steps as it goes
(``done`` of ``total``), and is cancelled by :meth:`JobService.cancel`: a queued job is
dropped, a running one ends with its worker process (a new one starts for the next job).
At most ``limit`` jobs are queued or running at once; past that a new one is refused
(:class:`TooManyJobs`), and the last ``kept`` finished results are kept.
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from solver.errors import YahtzeeError

from ..background import JobFunc, spawn_worker

LIMIT = 4
"""Jobs queued or running at once."""
KEPT = 64
"""Finished jobs kept (results and errors)."""
STATES = ("queued", "running", "done", "failed", "cancelled")


class TooManyJobs(YahtzeeError):
    """Every slot for jobs is taken: cancel one or wait (HTTP 429)."""


class UnknownJob(YahtzeeError):
    """No job has this id (HTTP 404)."""


class JobCancelled(YahtzeeError):
    """The job a request waited for was cancelled (HTTP 409)."""


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
    finished: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def is_live(self) -> bool:
        return self.state in ("queued", "running")

    def status(self) -> dict[str, Any]:
        """``id``, ``kind``, ``what``, ``state``, ``done``, ``total`` and ``seconds`` (running
        so far, or in all), with ``error`` for a failed job."""
        now = time.monotonic()
        since = self.started if self.started is not None else None
        seconds = 0.0 if since is None else (self.ended or now) - since
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "what": self.what,
                               "state": self.state, "done": self.done, "total": self.total,
                               "seconds": round(seconds, 1)}
        if self.error is not None:
            out["error"] = self.error
        return out


class JobService:
    """Jobs run one at a time in a worker process; see the module docstring."""

    def __init__(self, limit: int = LIMIT, kept: int = KEPT) -> None:
        self.limit = limit
        self.kept = kept
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._by_key: dict[Hashable, str] = {}
        self._queue: list[str] = []
        self._running: str | None = None
        self._process: Any = None
        self._conn: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._serial = itertools.count(1)

    # ------------------------------------------------------------------ asking
    def start(self, kind: str, key: Hashable, what: str, func: JobFunc, arg: Any) -> Job:
        """The job of ``key``: the one queued, running or done (a failed or cancelled one
        is started again), else a new one queued. Raises :class:`TooManyJobs` when
        ``limit`` jobs are live already."""
        self._loop = asyncio.get_running_loop()
        found = self._by_key.get(key)
        if found is not None:
            job = self._jobs[found]
            if job.state in ("queued", "running", "done"):
                self._jobs.move_to_end(job.id)
                return job
        live = sum(job.is_live for job in self._jobs.values())
        if live >= self.limit:
            raise TooManyJobs(f"{live} computations are under way, the most this server runs "
                              f"at once; cancel one (DELETE /api/jobs/ID) or wait for one "
                              f"to end")
        job = Job(f"{next(self._serial)}-{secrets.token_hex(4)}", kind, key, what, func, arg)
        self._jobs[job.id] = job
        self._by_key[key] = job.id
        self._queue.append(job.id)
        self._forget_old()
        self._next()
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
        :class:`YahtzeeError`), a cancellation :class:`JobCancelled`."""
        await job.finished.wait()
        if job.state == "done":
            return job.result
        if job.state == "cancelled":
            raise JobCancelled(f"the computation of {job.what} was cancelled (job {job.id})")
        if job.input_error:
            raise YahtzeeError(job.error or "refused")
        raise RuntimeError(job.error)

    def cancel(self, job_id: str) -> Job:
        """Cancel a queued or running job (a finished one stays as it is)."""
        job = self.get(job_id)
        if job.state == "queued":
            self._queue.remove(job.id)
            self._end(job, "cancelled")
        elif job.state == "running":
            self._stop_worker()
            self._end(job, "cancelled")
            self._next()
        return job

    # ------------------------------------------------------------------ running
    def _next(self) -> None:
        if self._running is not None or not self._queue:
            return
        job = self._jobs[self._queue.pop(0)]
        if self._process is None or not self._process.is_alive():
            self._spawn()
        job.state, job.started = "running", time.monotonic()
        self._running = job.id
        try:
            self._conn.send((job.id, job.func, job.arg))
        except (OSError, ValueError) as exc:
            self._running = None
            job.error = f"the worker could not take the job: {exc}"
            self._end(job, "failed")

    def _spawn(self) -> None:
        process, mine = spawn_worker("yahtzee-jobs")
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
        for job in list(self._jobs.values()):
            if job.is_live:
                self._end(job, "cancelled")
        self._queue.clear()
        self._stop_worker()
