"""Game records: ``/api/record`` (a record read for the page) and ``/api/analyze`` (a
record's review, its twin of ``yahtzee analyze``)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.routing import Route

from ..request.analyze_question import AnalyzeQuestion
from .offload import analysis_answer, record_answer, record_of
from .routes_jobs import analyze_job_of
from .served import Served, answered


async def post_analyze(served: Served, request: Request) -> dict[str, Any]:
    params = served.query(request, AnalyzeQuestion.PARAMS)
    record, noted = await served.records.run(record_of, await request.body())
    question = AnalyzeQuestion.parse(record, noted=noted, **params)
    if not question.judging.solves_turns:
        return await served.records.run(analysis_answer, record, with_memory=True)
    await served.service.table(record.rules)
    # one solve per turn
    return await served.background.wait(analyze_job_of(served, question, request))


async def post_record(served: Served, request: Request) -> dict[str, Any]:
    served.query(request, ())  # no parameters
    answer = await served.records.run(record_answer, await request.body())
    await served.service.table(answer["record"]["rules"])  # for the page's next requests
    return answer


def record_routes(served: Served) -> list[Route]:
    """A record's review and a record read."""
    return [
        Route("/api/analyze", answered(served, post_analyze), methods=["POST"]),
        Route("/api/record", answered(served, post_record), methods=["POST"]),
    ]
