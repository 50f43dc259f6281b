"""``/api/jobs/...``: the background solves of a turn or a review under a target, win or
tournament objective, which the page follows and can cancel (:mod:`advisor.web.jobs`)."""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.routing import Route

from ..request.analyze_question import AnalyzeQuestion, analyze_job
from ..request.turn_question import TurnQuestion, solve_turn_job
from .jobs import Job
from .offload import quick_turn, record_of
from .served import Served, answered, client_of


async def turn_job(served: Served, turn: TurnQuestion, request: Request) -> Job:
    """The turn's job: the one known, else answered in the light lane when that takes
    about a second (a job done at once), else a heavy job queued for this client."""
    background = served.background
    found = background.find(turn.key)
    if found is not None and found.state in ("queued", "running", "done"):
        found.seen = time.monotonic()
        return found
    solved = await served.quick.run(quick_turn, turn, with_memory=True)
    if solved is not None:
        return background.add_done("turn", turn.key, turn.what, solved)
    return background.start("turn", turn.key, turn.what, solve_turn_job, turn,
                            client_of(request))


def known_turns(served: Served) -> dict[Any, Any]:
    """Every turn solved by a finished job, by its key (for a review)."""
    return {job.key: job.result for job in served.background.finished("turn")}


def analyze_job_of(served: Served, question: AnalyzeQuestion, request: Request) -> Job:
    """A review's background job, started for this client with every turn known."""
    return served.background.start("analyze", question.key, question.what, analyze_job,
                                   (question, known_turns(served)), client_of(request))


def job_answer(job: Job) -> dict[str, Any]:
    """A job's status; once done, a review's result, or a turn's ``chance``: the
    objective's probability before the turn's first roll (the Chances panel's)."""
    out: dict[str, Any] = {"job": job.status()}
    if job.state == "done":
        if job.kind == "analyze":
            out["result"] = job.result
        elif job.kind == "turn":
            out["chance"] = job.result.value
    return out


async def post_turn_job(served: Served, request: Request) -> dict[str, Any]:
    turn = TurnQuestion.parse(**served.query(request, TurnQuestion.PARAMS))
    await served.service.table(turn.card.rules_name)
    return job_answer(await turn_job(served, turn, request))


async def post_analyze_job(served: Served, request: Request) -> dict[str, Any]:
    params = served.query(request, AnalyzeQuestion.PARAMS)
    record, noted = await served.records.run(record_of, await request.body())
    question = AnalyzeQuestion.parse(record, noted=noted, **params)
    await served.service.table(record.rules)
    return {"job": analyze_job_of(served, question, request).status()}


async def job_status(served: Served, request: Request) -> dict[str, Any]:
    served.query(request, ())
    job = served.background.follow(request.path_params["job_id"])
    if request.method == "DELETE":
        served.background.cancel(job.id)
    return job_answer(job)


def job_routes(served: Served) -> list[Route]:
    """Start a turn's or a review's job; follow or cancel one (a named job after the
    others, so ``turn`` and ``analyze`` are never read as a job's id)."""
    return [
        Route("/api/jobs/turn", answered(served, post_turn_job), methods=["POST"]),
        Route("/api/jobs/analyze", answered(served, post_analyze_job), methods=["POST"]),
        Route("/api/jobs/{job_id}", answered(served, job_status), methods=["GET", "DELETE"]),
    ]
