"""The server's other workers after a worker died or could not be started (issue 42 item
2, issue 46): the record and light lanes (``advisor/web/offload.py``, on
the one worker runtime of ``advisor/workers.py``) and
the figures' worker (``advisor/web/charts.py``) fail that one question with the reason
(:class:`~advisor.workers.WorkerFailed`, HTTP 500 with its words) and answer the next
one from a new worker; over HTTP, a heavy job whose worker cannot be started is failed
with the reason, the question waiting on it is answered 500 with those words, and the
same question asked once workers start again runs."""

from __future__ import annotations

import asyncio
import os
import urllib.parse

import pytest

import advisor.workers as workers
from advisor.web.app import create_app
from advisor.web.charts import StatsService
from advisor.web.jobs import JobService
from advisor.web.offload import RecordWork
from advisor.workers import WorkerFailed
from tests.faults import fail_next
from tests.web.jobs.test_fair import _run_apart
from tests.web.test_connections import running


def pid_of(_arg) -> int:
    return os.getpid()


def fails_to_open(path: str) -> None:
    """An OSError of the work itself (not of the worker)."""
    open(path)  # noqa: SIM115 - it fails


def test_the_record_lane_after_a_worker_died_or_could_not_start(monkeypatch, tmp_path):
    failures = [0]
    fail_next(monkeypatch, workers, "spawn_worker", failures)

    async def scenario() -> None:
        work = RecordWork()
        try:
            first = await work.run(os.getpid)
            assert first != os.getpid()
            # the work's own error: raised as it is, the worker kept
            with pytest.raises(FileNotFoundError):
                await work.run(fails_to_open, str(tmp_path / "missing"))
            assert await work.run(os.getpid) == first
            # the worker dies under a question: that one fails, the next gets a new worker
            with pytest.raises(WorkerFailed, match="the worker process ended while it worked"):
                await work.run(os._exit, 3)
            second = await work.run(os.getpid)
            assert second not in (first, os.getpid())
            # dies again, and no worker can be started for the next question: it fails
            # with the reason, and the one after is answered
            with pytest.raises(WorkerFailed):
                await work.run(os._exit, 3)
            failures[0] = 1
            with pytest.raises(WorkerFailed, match=r"could not start a worker process: "
                                                   r"\[Errno 24\] Too many open files"):
                await work.run(os.getpid)
            assert await work.run(os.getpid) not in (first, second, os.getpid())
        finally:
            work.close()

    _run_apart(scenario)


def test_the_figures_worker_that_could_not_start_or_died_fails_one_question(monkeypatch):
    """The figures' worker: a start that fails (no file descriptor left) and a worker that
    dies under a question each fail that one question with the reason; the same question
    asked again, and the next one, are computed by a new worker (a dead worker's question
    was left waiting forever when the figures ran in a multiprocessing.Pool)."""
    fail_next(monkeypatch, workers, "spawn_worker", [1])

    async def scenario() -> None:
        service = StatsService()
        try:
            with pytest.raises(WorkerFailed, match="Too many open files"):
                await service.run(pid_of, "a")
            # the same question again is computed (not left waiting on the first)
            first = await asyncio.wait_for(service.run(pid_of, "a"), 60)
            assert first != os.getpid()
            # the worker dies under a question: it fails, twice alike (not cached), and
            # every other question is answered by a new worker
            for _ in range(2):
                with pytest.raises(WorkerFailed, match="ended while it worked"):
                    await asyncio.wait_for(service.run(os._exit, 3), 60)
            second = await asyncio.wait_for(service.run(pid_of, "b"), 60)
            assert second not in (first, os.getpid())
            assert await service.run(pid_of, "a") == first  # kept, not asked again
        finally:
            service.close()

    _run_apart(scenario)


def test_a_heavy_question_whose_worker_cannot_start_is_answered_with_why(official_table,
                                                                         monkeypatch):
    from tests.web.test_connections import ask_raw

    failures = [2]
    jobs = JobService()
    fail_next(monkeypatch, jobs.worker, "spawn", failures)  # the heavy jobs' worker only
    turn = urllib.parse.urlencode({"card": "aces=1", "target": "300"})
    with running(create_app("official", jobs=jobs), lifespan="on") as port:
        status, body = ask_raw(port, "POST", f"/api/jobs/turn?{turn}")
        assert status == 200 and body["job"]["state"] == "failed", body
        assert body["job"]["error"] == ("the server could not start the computation: "
                                        "[Errno 24] Too many open files")
        # a question waiting on that turn: the job is asked anew, fails again, and the
        # answer says why
        status, body = ask_raw(port, "GET", f"/api/advise?{turn}&dice=11111")
        assert status == 500 and body["error"].startswith(
            "the computation of the chance of 300 or more (12 boxes open) failed (job ")
        assert body["error"].endswith("): the server could not start the computation: "
                                      "[Errno 24] Too many open files")
        # workers start again: the same question runs
        status, body = ask_raw(port, "POST", f"/api/jobs/turn?{turn}")
        assert status == 200 and body["job"]["state"] in ("queued", "running"), body
        status, body = ask_raw(port, "DELETE", f"/api/jobs/{body['job']['id']}")
        assert status == 200 and body["job"]["state"] == "cancelled"
