"""advisor/workers.py: a worker's pipe is closed only by the thread that reads it.

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


def _sleep_then(arg, progress) -> int:
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
