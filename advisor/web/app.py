"""The ASGI application of ``yahtzee serve`` (Starlette): the page and the JSON API.

Routes (docs/web.md): ``/`` the page, ``/static/...`` its files (nothing outside the
package's ``static`` folder), and under ``/api/``: ``advise``, ``stats``, ``analyze``,
``train/session`` (CLI twins), ``train``, ``grade`` (practice), ``record``,
``distribution``, ``card``, ``place``, ``rules``, ``objective`` (for the page), and
``jobs`` (the background solves of a turn or a review under a target, win or tournament
objective, which the page
follows and can cancel: :mod:`advisor.web.jobs`).
A refused request is HTTP 400 ``{"error": MESSAGE}``; a body over the size limit is 413.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from solver.errors import YahtzeeError
from solver.game.rules import DEFAULT_RULES

from ..background import WorkerFailed
from ..request.answers import (
    CARD_PARAMS,
    OBJECTIVE_QUERY,
    PLACE_PARAMS,
    RULES_PARAMS,
    AdviseQuestion,
    AnalyzeQuestion,
    GradeQuestion,
    StatsQuestion,
    TrainQuestion,
    TurnQuestion,
    analyze_job,
    answer,
    answer_solved,
    best_chances,
    card_json,
    final_scores,
    objective_json,
    parsed_card,
    place_json,
    solve_turn_job,
    targets_stamp,
)
from ..request.params import read_query
from ..rules_info import rules_json
from .charts import StatsService
from .jobs import Job, JobCancelled, JobFailed, JobService, TooManyJobs, UnknownJob
from .offload import QuickWork, RecordWork, analysis_answer, quick_turn, record_answer, record_of

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 256 * 1024
"""Largest request body accepted, in bytes (a game record of 8 players is ~10 KB)."""
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
log = logging.getLogger("yahtzee.web")

_SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"),
]


class BodyLimit:
    """ASGI middleware: refuse request bodies over ``limit`` bytes with 413, whether
    announced by Content-Length or streamed; add the security headers to every answer."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = JSONResponse({"error": f"request body over the limit of {self.limit} bytes"},
                               status_code=413)
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await too_big(scope, receive, send)
            return
        received = 0
        started = False

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise _TooBig
            return message

        async def headed_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", []), *_SECURITY_HEADERS]
            await send(message)

        try:
            await self.app(scope, counted_receive, headed_send)
        except _TooBig:
            if not started:
                await too_big(scope, receive, send)


class _TooBig(Exception):
    pass


def client_of(request: Request) -> str:
    """Who asks (the address the request came from): the unit of the per-client bounds."""
    return request.client.host if request.client is not None else ""


def _bad(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(default_rules: str = DEFAULT_RULES, allowed_hosts: list[str] | None = None,
               stats: StatsService | None = None, jobs: JobService | None = None
               ) -> Starlette:
    """The application; ``default_rules`` answers requests that name no rule set.
    ``allowed_hosts`` (Host header values; default: the loopback names) guards a local
    server against DNS rebinding; ``["*"]`` accepts any."""
    service = stats or StatsService()
    background = jobs or JobService()
    records = RecordWork()
    quick = QuickWork()  # the light lane: turns solved in about a second
    defaults = {"rules": default_rules}

    def query(request: Request, names: tuple[str, ...]) -> dict[str, Any]:
        return read_query(names, request.query_params.multi_items(), defaults)

    def answered(handler: Callable[[Request], Awaitable[dict[str, Any]]]
                 ) -> Callable[[Request], Awaitable[Response]]:
        """An endpoint: ``handler``'s JSON, or HTTP 400 with the message of a refusal (404
        for an unknown job, 429 when every job slot is taken, 409 for a cancelled one, 500
        with the reason for a job that failed on the server)."""
        async def endpoint(request: Request) -> Response:
            try:
                return JSONResponse(await handler(request))
            except UnknownJob as exc:
                return _bad(str(exc), 404)
            except TooManyJobs as exc:
                return _bad(str(exc), 429)
            except JobCancelled as exc:
                return _bad(str(exc), 409)
            except (JobFailed, WorkerFailed) as exc:  # the server's fault, said as it is
                return _bad(str(exc), 500)
            except YahtzeeError as exc:
                return _bad(str(exc))
        return endpoint

    async def turn_job(turn: TurnQuestion, request: Request) -> Job:
        """The turn's job: the one known, else answered in the light lane when that takes
        about a second (a job done at once), else a heavy job queued for this client."""
        found = background.find(turn.key)
        if found is not None and found.state in ("queued", "running", "done"):
            found.seen = time.monotonic()
            return found
        solved = await quick.run(quick_turn, turn)
        if solved is not None:
            return background.add_done("turn", turn.key, turn.what, solved)
        return background.start("turn", turn.key, turn.what, solve_turn_job, turn,
                                client_of(request))

    def known_turns() -> dict[Any, Any]:
        """Every turn solved by a finished job, by its key (for a review)."""
        return {job.key: job.result for job in background.finished("turn")}

    def analyze_job_of(question: AnalyzeQuestion, request: Request) -> Job:
        return background.start("analyze", question.key, question.what, analyze_job,
                                (question, known_turns()), client_of(request))

    def page_query(names: tuple[str, ...], func: Callable[..., dict[str, Any]]
                   ) -> Callable[[Request], Awaitable[Response]]:
        async def handler(request: Request) -> dict[str, Any]:
            params = query(request, names)
            await service.table(params["rules_name"])
            return func(**params)
        return answered(handler)

    async def get_advice(request: Request) -> dict[str, Any]:
        question = AdviseQuestion.parse(**query(request, AdviseQuestion.PARAMS))
        await service.table(question.card.rules_name)
        if question.objective.is_ev or question.objective.is_out_of_reach(question.card):
            if not question.why:  # a warm answer is well under a millisecond
                return question.json()
            return await service.run(answer, question)  # the first why: the worker
        # seconds to a minute per turn: the turn's background job (joined if under way,
        # its result if done), then this roll from it at once
        solved = await background.wait(await turn_job(question.turn, request))
        if question.why:  # the figures of every state, which the worker keeps
            return await service.run(answer_solved, (question, solved))
        return question.answer_from(solved)

    async def get_train(request: Request) -> dict[str, Any]:
        params = read_query(TrainQuestion.PARAMS, request.query_params.multi_items(),
                            {"rules": default_rules, "seed": None})
        if params["seed"] is None:  # a fresh session: its seed is part of the answer
            params["seed"] = secrets.randbelow(1_000_000)
        question = TrainQuestion.parse(**params)
        await service.table(question.rules)
        return question.json()  # optimal play's games and plain advice: milliseconds

    async def get_session(request: Request) -> dict[str, Any]:
        params = read_query(TrainQuestion.SESSION_PARAMS, request.query_params.multi_items(),
                            {"rules": default_rules, "seed": None})
        question = TrainQuestion.parse(**params)
        await service.table(question.rules)
        return await service.run(answer, question)  # grades with their why: in the worker

    async def get_grade(request: Request) -> dict[str, Any]:
        question = GradeQuestion.parse(**query(request, GradeQuestion.PARAMS))
        await service.table(question.card.rules_name)
        return await service.run(answer, question)

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

    async def post_turn_job(request: Request) -> dict[str, Any]:
        turn = TurnQuestion.parse(**query(request, TurnQuestion.PARAMS))
        await service.table(turn.card.rules_name)
        return job_answer(await turn_job(turn, request))

    async def post_analyze_job(request: Request) -> dict[str, Any]:
        params = query(request, AnalyzeQuestion.PARAMS)
        record, noted = await records.run(record_of, await request.body())
        question = AnalyzeQuestion.parse(record, noted=noted, **params)
        await service.table(record.rules)
        return {"job": analyze_job_of(question, request).status()}

    async def job_status(request: Request) -> dict[str, Any]:
        query(request, ())
        job = background.follow(request.path_params["job_id"])
        if request.method == "DELETE":
            background.cancel(job.id)
        return job_answer(job)

    async def get_stats(request: Request) -> dict[str, Any]:
        question = StatsQuestion.parse(**query(request, StatsQuestion.PARAMS))
        await service.table(question.card.rules_name)
        return await service.run(answer, question)

    async def get_distribution(request: Request) -> dict[str, Any]:
        params = query(request, CARD_PARAMS)
        card = parsed_card(params["card_text"], params["rules_name"])
        await service.table(card.rules_name)
        if card.is_full:
            return final_scores(card, {"mean": 0.0, "distribution": {"0": 1.0}})
        scores = final_scores(card, await service.get((card.rules_name, card.mask, card.upper,
                                                       card.flag)))
        best = await service.run(best_chances, (str(card), card.rules_name,
                                                targets_stamp(card.rules_name)))
        if best is not None:  # the target table: the best chance of each target
            scores["p_best"] = best
        return scores

    async def post_analyze(request: Request) -> dict[str, Any]:
        params = query(request, AnalyzeQuestion.PARAMS)
        record, noted = await records.run(record_of, await request.body())
        question = AnalyzeQuestion.parse(record, noted=noted, **params)
        if question.judging.is_ev:
            return await records.run(analysis_answer, record)
        await service.table(record.rules)
        return await background.wait(analyze_job_of(question, request))  # one solve per turn

    async def post_record(request: Request) -> dict[str, Any]:
        query(request, ())  # no parameters
        answer = await records.run(record_answer, await request.body())
        await service.table(answer["record"]["rules"])  # for the page's next requests
        return answer

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 404
        detail = exc.detail if isinstance(exc, HTTPException) else "not found"
        if request.url.path.startswith("/api/"):
            return _bad(f"{detail}: {request.method} {request.url.path}", status)
        return Response(detail, status_code=status, media_type="text/plain")

    async def server_error(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error answering %s", request.url.path)
        return _bad("internal error (see the server's log)", 500)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            service.close()
            background.close()
            records.close()
            quick.close()

    routes = [
        Route("/", index),
        Route("/favicon.ico", favicon),
        Route("/api/advise", answered(get_advice)),
        Route("/api/stats", answered(get_stats)),
        Route("/api/train", answered(get_train)),
        Route("/api/train/session", answered(get_session)),
        Route("/api/grade", answered(get_grade)),
        Route("/api/distribution", answered(get_distribution)),
        Route("/api/analyze", answered(post_analyze), methods=["POST"]),
        Route("/api/jobs/turn", answered(post_turn_job), methods=["POST"]),
        Route("/api/jobs/analyze", answered(post_analyze_job), methods=["POST"]),
        Route("/api/jobs/{job_id}", answered(job_status), methods=["GET", "DELETE"]),
        Route("/api/record", answered(post_record), methods=["POST"]),
        Route("/api/card", page_query(CARD_PARAMS, card_json)),
        Route("/api/place", page_query(PLACE_PARAMS, place_json)),
        Route("/api/rules", page_query(RULES_PARAMS, rules_json)),
        Route("/api/objective", page_query(OBJECTIVE_QUERY, objective_json)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    hosts = allowed_hosts if allowed_hosts is not None else list(LOOPBACK_HOSTS)
    return Starlette(
        routes=routes,
        middleware=[Middleware(BodyLimit), Middleware(TrustedHostMiddleware,
                                                      allowed_hosts=hosts)],
        exception_handlers={HTTPException: not_found, Exception: server_error},
        lifespan=lifespan)

