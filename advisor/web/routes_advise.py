"""``/api/advise`` (a roll's ranked options) and practice: ``/api/train``,
``/api/train/session`` and ``/api/grade`` (CLI twins of ``advise`` and ``train``)."""

from __future__ import annotations

import secrets
from typing import Any

from starlette.requests import Request
from starlette.routing import Route

from ..request.advise_question import AdviseQuestion
from ..request.grade_question import GradeQuestion
from ..request.params import read_query
from ..request.train_question import TrainQuestion
from ..request.worker import answer, answer_solved
from .routes_jobs import turn_job
from .served import Served, answered


async def get_advice(served: Served, request: Request) -> dict[str, Any]:
    service = served.service
    question = AdviseQuestion.parse(**served.query(request, AdviseQuestion.PARAMS))
    await service.table(question.card.rules_name)
    if not question.objective.needs_solve(question.card):
        if not question.why:  # a warm answer is well under a millisecond
            return question.json(memory=served.memory)
        # the first why: the worker
        return await service.run(answer, question, with_memory=True)
    # seconds to a minute per turn: the turn's background job (joined if under way,
    # its result if done), then this roll from it at once
    solved = await served.background.wait(await turn_job(served, question.turn, request))
    if question.why:  # the figures of every state, which the worker keeps
        return await service.run(answer_solved, (question, solved), with_memory=True)
    return question.answer_from(solved, memory=served.memory)


async def get_train(served: Served, request: Request) -> dict[str, Any]:
    default_rules = served.default_rules
    params = read_query(TrainQuestion.PARAMS, request.query_params.multi_items(),
                        {"rules": default_rules, "seed": None})
    if params["seed"] is None:  # a fresh session: its seed is part of the answer
        params["seed"] = secrets.randbelow(1_000_000)
    question = TrainQuestion.parse(**params)
    await served.service.table(question.rules)
    return question.json(memory=served.memory)  # optimal play's games, plain advice: ms


async def get_session(served: Served, request: Request) -> dict[str, Any]:
    default_rules = served.default_rules
    params = read_query(TrainQuestion.SESSION_PARAMS, request.query_params.multi_items(),
                        {"rules": default_rules, "seed": None})
    question = TrainQuestion.parse(**params)
    await served.service.table(question.rules)
    # grades with their why: in the worker
    return await served.service.run(answer, question, with_memory=True)


async def get_grade(served: Served, request: Request) -> dict[str, Any]:
    question = GradeQuestion.parse(**served.query(request, GradeQuestion.PARAMS))
    await served.service.table(question.card.rules_name)
    return await served.service.run(answer, question, with_memory=True)


def advice_routes(served: Served) -> list[Route]:
    """Advice and practice."""
    return [
        Route("/api/advise", answered(served, get_advice)),
        Route("/api/train", answered(served, get_train)),
        Route("/api/train/session", answered(served, get_session)),
        Route("/api/grade", answered(served, get_grade)),
    ]
