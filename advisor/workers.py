"""Work in other processes: the one runtime of the terminal's and the server's solves.

A :class:`WorkerService` runs :class:`Work` one at a time, first come first served, in
one worker process of its own (spawned on first use and kept between works). A work
reports its progress (``done`` of ``total`` units) as it goes and, while queued, its
``position`` (1: the next to run); it is cancelled by :meth:`WorkerService.cancel` (a
queued one is dropped, a running one ends with its worker process and the next work
starts a new one) and ends ``done`` (``result``), ``failed`` (``error``, and the exception
itself when it could be sent) or ``cancelled``. A worker that cannot be started (no file
descriptor or memory left) fails the work it was for, with the reason, and the next one
is tried; a worker that ends while it works fails that work and the next one runs in a
new worker. The queue holds at most ``limit`` works (queued or running). A worker
process makes its own :class:`~advisor.caches.Caches` when it starts and hands it to
each of its works (``func(arg, progress, memory)``): what one work solved (a game's
vectors, the opponents' distributions, the turn advisors) serves the next ones in the
same worker.

Its users: play's background solves (:mod:`advisor.background`), the server's heavy jobs
(:mod:`advisor.web.jobs`), its light lane, record reviews and figures
(:mod:`advisor.web.offload`, :mod:`advisor.web.charts`).

Why worker processes on a pipe, not a process pool: the pipe carries the progress of a
work as it goes, and a running work is cancelled by ending its process, where a pool can
neither report progress nor stop a task once it runs; and a worker that dies is seen at
once (its pipe closes), fails its one work and is replaced by the next work's.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from solver.errors import YahtzeeError

from .caches import Caches
from .time_left import TimeLeft

JobFunc = Callable[[Any, Callable[[int, int], None], Caches], Any]
"""``func(arg, progress, memory)``: a picklable module-level function of the worker;
``memory`` is the worker process's caches, kept across its works."""
STATES = ("queued", "running", "done", "failed", "cancelled")
WORKER_DIED = "the worker process ended while it worked (out of memory?)"
"""The error of a work whose worker process ended under it."""


class WorkerFailed(RuntimeError):
    """A worker process could not be started, or ended while it worked (out of memory?):
    the server's fault, not the input's; asked again, the work is tried in a new one."""


class QueueFull(YahtzeeError):
    """Every place in a worker's queue is taken: wait or cancel one (HTTP 429)."""


def ignore_interrupt() -> None:
    """In a worker: Ctrl-C is the client's to act on (it ends the worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Reporter:
    """The progress callback of a work in the worker: each change goes to the client,
    with the CPU seconds the worker has spent on the work (every thread) since it began
    (for the time left, :class:`~advisor.time_left.TimeLeft`)."""

    def __init__(self, conn: Any, token: int) -> None:
        self.conn, self.token, self.last = conn, token, (-1, -1)
        self.began = time.process_time()

    def __call__(self, done: int, total: int) -> None:
        if (done, total) != self.last:
            self.last = (done, total)
            self.conn.send(("progress", self.token, done, total,
                            time.process_time() - self.began))


def _sendable(exc: BaseException) -> BaseException | None:
    """``exc`` when it survives pickling (it is raised again in the client), else None."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001 - an exception pickle cannot rebuild: its text only
        return None
    return exc


def worker_main(conn: Any) -> None:
    """The worker process: run each ``(token, func, arg)`` received as ``func(arg,
    progress, memory)`` (``memory``: this process's one :class:`~advisor.caches.Caches`,
    made here and kept across its works), sending ``("progress", token, done, total,
    cpu_seconds)`` as it goes, then ``("done", token, result)`` or ``("failed", token,
    message, is_input_error, exception or None)``."""
    ignore_interrupt()
    memory = Caches()
    while True:
        try:
            token, func, arg = conn.recv()
        except (EOFError, OSError):
            return
        try:
            result = func(arg, Reporter(conn, token), memory)
        except YahtzeeError as exc:
            conn.send(("failed", token, str(exc), True, _sendable(exc)))
        except Exception as exc:  # noqa: BLE001 - reported to the client
            conn.send(("failed", token, f"{type(exc).__name__}: {exc}", False,
                       _sendable(exc)))
        else:
            conn.send(("done", token, result))


def spawn_worker(name: str) -> tuple[Any, Any]:
    """A new worker process running :func:`worker_main` and our end of its pipe; raises
    (OSError, ...) when it cannot be started, with both ends of the pipe closed."""
    context = multiprocessing.get_context("spawn")
    mine, theirs = context.Pipe()
    try:
        process = context.Process(target=worker_main, args=(theirs,), daemon=True, name=name)
        process.start()
    except BaseException:  # (no file descriptor or memory left): nothing left open
        mine.close()
        raise
    finally:
        theirs.close()
    return process, mine


def call(arg: tuple[Callable[..., Any], tuple[Any, ...], bool],
         progress: Callable[[int, int], None], memory: Caches) -> Any:
    """``func(*args)`` of ``arg = (func, args, with_memory)`` in the worker (a work without
    progress); with ``with_memory``, ``func(*args, memory)``: the worker's caches last."""
    func, args, with_memory = arg
    return func(*args, memory) if with_memory else func(*args)


@dataclass(eq=False)
class Work:
    """One computation in a worker and what it has reported: ``state`` (one of
    :data:`STATES`), ``done`` of ``total`` work units, times on the monotonic clock (s).
    ``id``, ``kind``, ``what`` and ``client`` name it for the server's pages."""

    key: Hashable
    func: JobFunc | None = None
    arg: Any = None
    id: str = ""
    kind: str = ""
    what: str = ""
    client: str = ""
    """Who asked for it first (the client's address)."""
    state: str = "running"
    """(A work given to :meth:`WorkerService.submit` is queued first.)"""
    done: int = 0
    total: int = 0
    cpu: float | None = None
    """CPU seconds the worker spent on it by its last report (None: not said)."""
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    ended: float | None = None
    result: Any = None
    error: str | None = None
    input_error: bool = False
    """The work failed on input the user gave (a refusal, HTTP 400), not on the server."""
    exception: BaseException | None = None
    """The exception the work raised in the worker, when it could be sent back."""
    position: int = 0
    """Place in the queue while queued (1: the next to run), else 0."""
    seen: float = field(default_factory=time.monotonic)
    """When someone last asked about it (its status, a wait, the same question)."""
    waiters: int = 0
    """Requests waiting for it now."""
    pace: TimeLeft | None = field(default=None, repr=False)
    """Its reports so far, for the time left (:meth:`seconds_left`)."""

    @property
    def is_live(self) -> bool:
        return self.state in ("queued", "running")

    @property
    def seconds(self) -> float:
        """Seconds running so far, or in all (0 before it starts)."""
        if self.started is None:
            return 0.0
        return (self.ended or time.monotonic()) - self.started

    def seconds_left(self) -> float | None:
        """The time still to go at the rate of the recent work (the units are work,
        :func:`solver.solved_turn.turn_work`; :class:`~advisor.time_left.TimeLeft`: its
        CPU seconds per unit over the CPU share it gets now, which follows a change of
        the machine's load), or None before a first estimate can be
        made (under a twentieth of the work done, or in the first 3 seconds)."""
        if self.state != "running" or self.started is None:
            return None
        now = time.monotonic()
        self.observe(now)
        assert self.pace is not None
        return self.pace.seconds_left(now)

    def observe(self, now: float | None = None) -> None:
        """Note ``done`` of ``total`` (and ``cpu``) at ``now`` (default: the monotonic
        clock's) for the time left: at each report of the worker, and when asked."""
        if self.started is None:
            return
        if self.pace is None or self.pace.started != self.started:
            self.pace = TimeLeft(self.started)
        self.pace.report(time.monotonic() if now is None else now, self.done, self.total,
                         self.cpu)

    def status(self) -> dict[str, Any]:
        """``id``, ``kind``, ``what``, ``state``, ``done``, ``total`` and ``seconds`` (running
        so far, or in all), with ``seconds_left`` while running once it is estimated
        (:meth:`seconds_left`), ``position`` for a queued work (1: the next to run) and
        ``error`` for a failed or abandoned one."""
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "what": self.what,
                               "state": self.state, "done": self.done, "total": self.total,
                               "seconds": round(self.seconds, 1)}
        left = self.seconds_left()
        if left is not None:
            out["seconds_left"] = round(left, 1)
        if self.state == "queued":
            out["position"] = self.position
        if self.error is not None:
            out["error"] = self.error
        return out


Ended = Callable[[Work, bool], None]
"""``on_end(work, by_worker)``: a work ended; ``by_worker`` when its worker said so (done,
failed, died), not a cancel, a close or a worker that could not be started."""
Post = Callable[..., Any]
"""``post(handler, *args)``: runs the worker's messages where the client wants them (an
event loop's ``call_soon_threadsafe``); None: on the reader thread, under the lock."""


class WorkerService:
    """Works run one at a time in one worker process; see the module docstring.

    ``name`` names the worker process; ``limit`` bounds the works queued or running (None:
    the client bounds them); ``nice`` lowers the worker's CPU priority; ``start_failed``
    begins the error of a work whose worker could not be started. ``on_end`` is called
    after every ending, outside the lock; :attr:`changed` is notified then too.
    """

    def __init__(self, name: str, *, limit: int | None = None, nice: int | None = None,
                 start_failed: str = "the worker process could not be started: ",
                 on_end: Ended | None = None, post: Post | None = None) -> None:
        self.name = name
        self.limit = limit
        self.nice = nice
        self.start_failed = start_failed
        self.on_end = on_end
        self.post = post
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self._queue: list[Work] = []
        self._running: Work | None = None
        self._token = 0
        self._tokens = itertools.count(1)
        self._process: Any = None
        self._conn: Any = None
        self._ended: dict[int, list[tuple[Work, bool]]] = {}
        """The endings not yet said, by the thread that made them (each says its own)."""

    @property
    def process(self) -> Any:
        """The worker process now, if any."""
        return self._process

    def live(self) -> list[Work]:
        """The work running, then the queued ones in order."""
        with self.lock:
            return ([self._running] if self._running is not None else []) + list(self._queue)

    def submit(self, work: Work) -> Work:
        """Queue ``work`` (it runs at once when none runs). Raises :class:`QueueFull`
        when ``limit`` works are queued or running already."""
        with self.lock:
            live = len(self._queue) + (self._running is not None)
            if self.limit is not None and live >= self.limit:
                raise QueueFull(f"{live} computations are under way or queued, the most "
                                f"this worker holds; ask again in a while")
            work.state, work.position = "queued", 0
            self._queue.append(work)
            self._next()
            self._number()
        self._say_ended()
        return work

    def cancel(self, work: Work) -> Work:
        """Cancel a queued or running work (a finished one stays as it is); the next
        queued one runs."""
        with self.lock:
            if work.state == "queued":
                if work in self._queue:
                    self._queue.remove(work)
                self._end(work, "cancelled")
            elif work.state == "running":
                if self._running is work:
                    self._stop_worker()
                self._end(work, "cancelled")
            self._next()
            self._number()
        self._say_ended()
        return work

    def close(self) -> None:
        """End the worker; live works are cancelled."""
        with self.lock:
            for work in self.live():
                self._end(work, "cancelled")
            self._queue.clear()
            self._stop_worker()
        self._say_ended()

    # ------------------------------------------------------------------ running
    def _number(self) -> None:
        """Each queued work's position (1: the next to run)."""
        for place, work in enumerate(self._queue, start=1):
            work.position = place

    def _next(self) -> None:
        """(Under the lock.) Run the first queued work when none runs. A worker that
        cannot be started (no file descriptor or memory left: ``os.pipe`` or ``fork``
        failing) or that cannot take the work fails that work, with the reason, and the
        next queued one is tried."""
        while self._running is None and self._queue:
            work = self._queue.pop(0)
            work.position = 0
            self._number()
            token = next(self._tokens)
            try:
                if self._process is None or not self._process.is_alive():
                    self._spawn()
                self._conn.send((token, work.func, work.arg))
            except Exception as exc:  # noqa: BLE001 - that work fails, the service goes on
                self._stop_worker()
                work.error = f"{self.start_failed}{exc}"
                self._end(work, "failed")
                continue
            work.state, work.started = "running", time.monotonic()
            self._running, self._token = work, token

    def _spawn(self) -> None:
        """A new worker and its reader thread (raises when either cannot be started)."""
        process, mine = self.spawn()
        if self.nice is not None:
            with contextlib.suppress(OSError):  # before the solver's threads start: they inherit it
                os.setpriority(os.PRIO_PROCESS, process.pid, self.nice)
        self._process, self._conn = process, mine
        try:
            threading.Thread(target=self._read, args=(mine,), daemon=True,
                             name=f"{self.name}-reader").start()
        except BaseException:  # (no thread left): the pipe is closed with the worker
            self._stop_worker()
            mine.close()
            raise

    def spawn(self) -> tuple[Any, Any]:
        """A new worker process of this service and our end of its pipe
        (:func:`spawn_worker`; raises when it cannot be started)."""
        return spawn_worker(self.name)

    def _read(self, conn: Any) -> None:
        """The reader thread of one worker: its messages go to :meth:`_on_message`. It
        alone closes our end of the pipe, once the worker is gone: closed by another
        thread while this one reads it, the pipe's number could go to the next worker's
        pipe, and this thread would read (and lose) the next worker's words."""
        try:
            while True:
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    message = ("gone", None)
                post = self.post
                if post is None:
                    self._on_message(conn, message)
                else:
                    try:
                        post(self._on_message, conn, message)
                    except RuntimeError:  # the loop is closed: the server stops
                        return
                if message[0] == "gone":
                    return
        finally:
            conn.close()

    def _on_message(self, conn: Any, message: tuple) -> None:
        with self.lock:
            self._handle(conn, message)
        self._say_ended()

    def _handle(self, conn: Any, message: tuple) -> None:
        """(Under the lock.) One message of the worker on ``conn``."""
        if conn is not self._conn:  # a stopped worker's last words
            return
        kind, work = message[0], self._running
        if kind == "gone":
            self._process, self._conn, self._running = None, None, None
            if work is not None and work.is_live:
                work.error = WORKER_DIED
                self._end(work, "failed", by_worker=True)
            self._next()
            return
        if work is None or message[1] != self._token:
            return
        if kind == "progress":
            work.done, work.total = message[2], message[3]
            work.cpu = message[4]
            work.observe()
            return
        self._running = None
        if kind == "done":
            work.result = message[2]
            work.done = work.total = max(work.total, 1)
            self._end(work, "done", by_worker=True)
        else:
            work.error, work.input_error, work.exception = message[2], message[3], message[4]
            self._end(work, "failed", by_worker=True)
        self._next()

    def _end(self, work: Work, state: str, *, by_worker: bool = False) -> None:
        """(Under the lock.) ``work`` ends in ``state``; its waiters are told."""
        work.state, work.ended = state, time.monotonic()
        work.func = work.arg = None
        self._ended.setdefault(threading.get_ident(), []).append((work, by_worker))
        self.changed.notify_all()

    def _say_ended(self) -> None:
        """``on_end`` of the works this thread ended meanwhile (outside the lock)."""
        with self.lock:
            ended = self._ended.pop(threading.get_ident(), [])
        if self.on_end is not None:
            for work, by_worker in ended:
                self.on_end(work, by_worker)

    def _stop_worker(self) -> None:
        """(Under the lock.) End the worker process; its reader thread then sees the pipe
        end and closes it (:meth:`_read`), and what it still reads is ignored."""
        process = self._process
        self._process, self._conn, self._running = None, None, None
        if process is not None:
            process.terminate()
            process.join(5)
            if process.is_alive():  # (deaf to SIGTERM)
                process.kill()
                process.join(5)
