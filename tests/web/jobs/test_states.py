"""The states of the server's heavy jobs at their edges (``advisor/web/jobs.py``, as
docs/web.md states them): a failed job keeps its error and the same question asked again
starts it anew (a new job, which fails again with the same words); a job a request waits
on is never abandoned, however long it runs; the last 64 finished jobs are kept, the
65th-oldest forgotten (404). The jobs here run small functions of this module in the
real worker process, so every state is the one the server reports."""

from __future__ import annotations

import asyncio
import time

import pytest

from advisor.web.jobs import KEPT, PER_CLIENT, JobCancelled, JobService, UnknownJob
from solver.errors import YahtzeeError
from tests.web.jobs.test_fair import _run_apart

REFUSED = "card: 'aces=x' is not a box and points"


def failing_job(arg, progress, memory):
    """Fails as a solve fails: on the user's input (``arg == "input"``) or on the server."""
    progress(1, 2)
    if arg == "input":
        raise YahtzeeError(REFUSED)
    raise MemoryError("no memory left")


def slow_job(arg, progress, memory):
    """Done after ``arg`` seconds, reporting its steps."""
    for step in range(4):
        progress(step, 4)
        time.sleep(arg / 4)
    return "answer"


def test_a_failed_job_asked_again_says_why_and_the_same_question_starts_anew():
    async def scenario() -> None:
        jobs = JobService()
        try:
            first = jobs.start("turn", "key", "a turn", failing_job, "input", "a")
            with pytest.raises(YahtzeeError, match="is not a box and points"):
                await jobs.wait(first)
            assert first.input_error  # (HTTP 400, the library's words)
            for _ in range(2):  # its status asked for again: the same failure, kept
                status = jobs.follow(first.id).status()
                assert status["state"] == "failed" and status["error"] == REFUSED
                assert "position" not in status
            # the same question again: a new job, not the old failure
            again = jobs.start("turn", "key", "a turn", failing_job, "input", "a")
            assert again is not first and again.id != first.id
            assert again.state in ("queued", "running")
            assert jobs.find("key") is again
            with pytest.raises(YahtzeeError, match="is not a box and points"):
                await jobs.wait(again)
            assert again.status()["error"] == REFUSED
            assert jobs.get(first.id).status()["state"] == "failed"  # the old id still says
            # a failure of the server (not of the input) is one too: RuntimeError, 500
            broken = jobs.start("turn", "other", "a turn", failing_job, "server", "a")
            with pytest.raises(RuntimeError, match="MemoryError: no memory left"):
                await jobs.wait(broken)
            assert not broken.input_error and broken.status()["state"] == "failed"
            # failed jobs hold no slot: the client may start its PER_CLIENT jobs again
            live = [jobs.start("turn", ("live", n), "a turn", slow_job, 0.2, "a")
                    for n in range(PER_CLIENT)]
            assert [await jobs.wait(job) for job in live] == ["answer"] * PER_CLIENT
        finally:
            jobs.close()

    _run_apart(scenario)


def test_a_job_a_request_waits_on_is_never_abandoned():
    """Abandoned means nobody asked: a request waiting on the job (``/api/advise`` of its
    turn) is asking, for as long as the job runs; the job queued behind it too."""
    async def scenario() -> None:
        jobs = JobService(abandon=0.4)
        try:
            running = jobs.start("turn", "first", "a turn", slow_job, 2.0, "a")
            queued = jobs.start("turn", "second", "a turn", slow_job, 0.4, "b")
            assert queued.status()["position"] == 1
            assert await asyncio.gather(jobs.wait(running), jobs.wait(queued)) == \
                ["answer", "answer"]
            assert running.state == queued.state == "done"
            # nobody waits nor asks: the same job is abandoned after 0.4 s
            dropped = jobs.start("turn", "third", "a turn", slow_job, 30.0, "c")
            with pytest.raises(JobCancelled):
                await asyncio.wait_for(_ended(dropped), 20)
                await jobs.wait(dropped)
            assert dropped.status()["error"].startswith("abandoned: nobody asked for it in 0 s")
        finally:
            jobs.close()

    _run_apart(scenario)


async def _ended(job) -> None:
    while job.is_live:
        await asyncio.sleep(0.05)


def test_the_last_64_finished_jobs_are_kept_and_the_one_before_forgotten():
    jobs = JobService()
    assert jobs.kept == KEPT == 64  # docs/web.md: "The last 64 finished jobs are kept."
    done = [jobs.add_done("turn", ("k", n), f"turn {n}", n) for n in range(KEPT)]
    assert [jobs.get(job.id).result for job in done] == list(range(KEPT))
    newest = jobs.add_done("turn", ("k", KEPT), "one more", KEPT)
    with pytest.raises(UnknownJob, match=r"no job .* \(finished jobs are kept a while"):
        jobs.get(done[0].id)
    assert jobs.find(("k", 0)) is None
    assert [jobs.get(job.id).result for job in (*done[1:], newest)] == list(range(1, KEPT + 1))
