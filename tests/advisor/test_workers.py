"""advisor/workers.py: a worker's pipe is closed only by the thread that reads it; a
work's progress carries the CPU seconds the worker spent on it.

Closed by another thread (a cancel, a close) while its reader is inside ``recv``, the
pipe's file descriptor number can be taken at once by the next worker's pipe, and the old
reader then reads the next worker's words and loses them: that worker's work failed as
"the worker process ended while it worked" (seen once in a full run of the suite)."""

from __future__ import annotations

import os
import threading
import time
from multiprocessing.connection import Connection

import advisor.workers as workers
from advisor.workers import Work, WorkerService


def _sleep_then(arg, progress, memory) -> int:
    time.sleep(arg)
    return os.getpid()


def test_a_stopped_workers_pipe_is_closed_by_its_reader_alone(monkeypatch):
    ours: list[Connection] = []  # our end of each worker's pipe
    closed_by: list[str] = []
    real_spawn, real_close = workers.spawn_worker, Connection.close

    def spawn(name: str):
        process, mine = real_spawn(name)
        ours.append(mine)
        return process, mine

    def close(conn: Connection) -> None:
        if not conn.closed and any(conn is mine for mine in ours):
            closed_by.append(threading.current_thread().name)
        real_close(conn)

    monkeypatch.setattr(workers, "spawn_worker", spawn)
    monkeypatch.setattr(Connection, "close", close)
    service = WorkerService("yahtzee-test-pipes")
    try:
        for _ in range(3):  # each cancelled while it runs: a new worker each time
            work = service.submit(Work(key="slow", func=_sleep_then, arg=60.0))
            assert work.state == "running"
            service.cancel(work)
            assert work.state == "cancelled"
        last = service.submit(Work(key="quick", func=_sleep_then, arg=0.0))
        with service.changed:
            service.changed.wait_for(lambda: not last.is_live, timeout=120)
        assert last.state == "done" and last.result != os.getpid()
    finally:
        service.close()
    deadline = time.monotonic() + 60
    while len(closed_by) < 4 and time.monotonic() < deadline:  # the readers see the ends
        time.sleep(0.05)
    # four workers, four pipes of ours, each closed once, by its reader thread
    assert len(ours) == 4
    assert closed_by == ["yahtzee-test-pipes-reader"] * 4


def _burn_then_report(arg, progress, memory) -> float:
    """``arg`` CPU seconds, a report, ``arg`` more, a report; the CPU seconds it spent."""
    began = time.process_time()
    for done in (1, 2):
        while time.process_time() - began < arg * done:
            pass
        progress(done, 2)
    return time.process_time() - began


def test_a_works_progress_carries_the_cpu_seconds_the_worker_spent_on_it():
    """Each progress message carries the worker's CPU seconds since the work began (for
    the time left, advisor/time_left.py): at the last report of a work that burned 0.2 CPU
    s twice, at least 0.4 s and no more than the work measured itself; the second work on
    the same worker counts its own seconds only."""
    service = WorkerService("yahtzee-test-cpu")
    try:
        pids = set()
        for _ in range(2):
            work = service.submit(Work(key="burn", func=_burn_then_report, arg=0.2))
            with service.changed:
                service.changed.wait_for(lambda work=work: not work.is_live, timeout=120)
            assert work.state == "done" and work.done == work.total == 2
            assert 0.4 <= work.cpu <= work.result + 0.05
            pids.add(service.process.pid)
        assert len(pids) == 1  # one worker for both
    finally:
        service.close()
