"""The server's heavy-job queue (``advisor/web/jobs.py``) after every way a job can end:
done, failed, failed on its input, worker died, worker not started (no file descriptor
left), cancelled while queued, cancelled while running with others waiting, abandoned
while running and while queued. After each ending every job still live is checked, its
state and its queue position (1: the next to run), and the next queued job is seen to
run. The jobs run :func:`gated_job` in the real worker process: each waits for a file
(its gate) whose text says how it ends, so every state is seen whatever the machine's
speed."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

import advisor.workers as workers
from advisor.web.jobs import JobCancelled, JobFailed, JobService
from solver.errors import YahtzeeError
from tests.faults import fail_next
from tests.web.jobs.test_fair import _run_apart

STEPS = (1, 3)
"""The progress a gated job reports before its gate opens: 1 step done of 3."""


def gated_job(gate: str, progress, memory) -> str:
    """Report :data:`STEPS`, wait for the file ``gate``, then end as its text says:
    ``done`` (the answer ``answer of GATE-NAME``), ``fail`` (a server failure), ``input``
    (a refusal of the input) or ``die`` (the worker process ends)."""
    progress(*STEPS)
    path = Path(gate)
    while not path.exists():
        time.sleep(0.02)
    how = path.read_text()
    if how == "fail":
        raise MemoryError("no memory left")
    if how == "input":
        raise YahtzeeError("card: 'aces=x' is not a box and points")
    if how == "die":
        os._exit(3)
    return f"answer of {path.name}"


class Scenario:
    """A job service, its jobs by name and their gates in ``folder``."""

    def __init__(self, jobs: JobService, folder: Path) -> None:
        self.jobs, self.folder, self.by_name = jobs, folder, {}

    def start(self, name: str, client: str = "a"):
        job = self.jobs.start("turn", ("key", name), f"job {name}", gated_job,
                              str(self.folder / name), client)
        self.by_name[name] = job
        return job

    def open(self, name: str, how: str) -> None:
        temporary = self.folder / f".{name}"
        temporary.write_text(how)
        temporary.rename(self.folder / name)  # whole, at once

    def view(self) -> dict[str, tuple[str, int | None]]:
        """Each job's state and, while queued, its position (from its status)."""
        return {name: (job.status()["state"], job.status().get("position"))
                for name, job in self.by_name.items()}

    async def until(self, name: str, state: str) -> None:
        job = self.by_name[name]
        deadline = time.monotonic() + 120
        while job.state != state:
            assert time.monotonic() < deadline, (name, job.status())
            await asyncio.sleep(0.02)

    async def progressed(self, name: str) -> None:
        """The running job's first report has arrived (it is then at its gate)."""
        job = self.by_name[name]
        deadline = time.monotonic() + 120
        while job.total == 0:
            assert time.monotonic() < deadline, (name, job.status())
            await asyncio.sleep(0.02)
        status = job.status()
        assert (status["state"], status["done"], status["total"]) == ("running", *STEPS)


def test_the_queue_after_every_ending_and_the_next_job_then_runs(tmp_path, monkeypatch):
    failures = [0]
    fail_next(monkeypatch, workers, "spawn_worker", failures)

    async def scenario() -> None:
        jobs = JobService(per_client=12)
        run = Scenario(jobs, tmp_path)
        try:
            for name in "ABC":
                run.start(name)
            assert run.view() == {"A": ("running", None), "B": ("queued", 1),
                                  "C": ("queued", 2)}
            await run.progressed("A")

            # done: its answer, the whole work done; B runs, C moves up
            run.open("A", "done")
            assert await jobs.wait(run.by_name["A"]) == "answer of A"
            status = run.by_name["A"].status()
            assert (status["done"], status["total"]) == (STEPS[1], STEPS[1])
            assert run.view() == {"A": ("done", None), "B": ("running", None),
                                  "C": ("queued", 1)}
            run.start("D")
            assert run.view()["D"] == ("queued", 2)
            await run.progressed("B")

            # failed on the server: its reason; C runs
            run.open("B", "fail")
            with pytest.raises(JobFailed, match="job B failed .*MemoryError: no memory left"):
                await jobs.wait(run.by_name["B"])
            assert run.view() == {"A": ("done", None), "B": ("failed", None),
                                  "C": ("running", None), "D": ("queued", 1)}
            await run.progressed("C")

            # the worker died under C: C fails, D runs in a new worker
            run.open("C", "die")
            with pytest.raises(JobFailed, match="the worker process ended"):
                await jobs.wait(run.by_name["C"])
            assert run.view()["C"] == ("failed", None) and run.view()["D"] == ("running", None)
            await run.progressed("D")

            # failed on its input (a refusal, HTTP 400); E runs
            run.start("E")
            run.start("F")
            assert [run.view()[name] for name in "EF"] == [("queued", 1), ("queued", 2)]
            run.open("D", "input")
            with pytest.raises(YahtzeeError, match="is not a box and points"):
                await jobs.wait(run.by_name["D"])
            assert run.by_name["D"].input_error
            assert [run.view()[name] for name in "DEF"] == [
                ("failed", None), ("running", None), ("queued", 1)]
            await run.progressed("E")

            # cancelled while queued: the ones behind move up, the running one goes on
            run.start("G")
            assert run.view()["G"] == ("queued", 2)
            jobs.cancel(run.by_name["F"].id)
            assert [run.view()[name] for name in "EFG"] == [
                ("running", None), ("cancelled", None), ("queued", 1)]
            with pytest.raises(JobCancelled):
                await jobs.wait(run.by_name["F"])

            # cancelled while running, others waiting: the next runs in a new worker
            run.start("H")
            assert run.view()["H"] == ("queued", 2)
            jobs.cancel(run.by_name["E"].id)
            assert [run.view()[name] for name in "EGH"] == [
                ("cancelled", None), ("running", None), ("queued", 1)]
            await run.progressed("G")

            # no worker could be started (os.pipe: too many open files) for the next job:
            # that job fails with the reason, the one behind it runs
            run.start("I")
            assert [run.view()[name] for name in "HI"] == [("queued", 1), ("queued", 2)]
            failures[0] = 1
            jobs.cancel(run.by_name["G"].id)
            assert [run.view()[name] for name in "GHI"] == [
                ("cancelled", None), ("failed", None), ("running", None)]
            assert run.by_name["H"].status()["error"] == (
                "the server could not start the computation: [Errno 24] Too many open files")
            with pytest.raises(JobFailed, match="Too many open files"):
                await jobs.wait(run.by_name["H"])
            jobs.cancel(run.by_name["H"].id)  # a failed job stays failed
            assert run.view()["H"] == ("failed", None)
            await run.progressed("I")

            # abandoned while running and while queued (nobody asked since long ago)
            run.start("J")
            run.start("K")
            assert [run.view()[name] for name in "IJK"] == [
                ("running", None), ("queued", 1), ("queued", 2)]
            for name in "IJ":
                run.by_name[name].seen -= 2 * jobs.abandon
            run.start("L")  # every question sweeps first
            assert [run.view()[name] for name in "IJKL"] == [
                ("cancelled", None), ("cancelled", None), ("running", None), ("queued", 1)]
            assert run.by_name["J"].status()["error"].startswith("abandoned: nobody asked")
            await run.progressed("K")

            # when no worker can be started for a new job with none under way, it fails
            # at once, and the next question runs
            run.open("K", "done")
            run.open("L", "done")
            assert await jobs.wait(run.by_name["L"]) == "answer of L"
            jobs.close()
            failures[0] = 1
            assert run.start("M").status()["state"] == "failed"
            assert run.view()["M"] == ("failed", None)
            assert run.start("N").status()["state"] == "running"
            run.open("N", "done")
            assert await jobs.wait(run.by_name["N"]) == "answer of N"
            assert [job.state for job in run.by_name.values()] == [
                "done", "failed", "failed", "failed", "cancelled", "cancelled", "cancelled",
                "failed", "cancelled", "cancelled", "done", "done", "failed", "done"]
        finally:
            jobs.close()

    _run_apart(scenario)
