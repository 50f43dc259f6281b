"""The ASGI application of ``yahtzee serve`` (Starlette): the page and the JSON API.

Routes (docs/web.md): ``/`` the page, ``/static/...`` its files (nothing outside the
package's ``static`` folder), and under ``/api/``: ``advise``, ``stats``, ``analyze``
(CLI twins), ``record``, ``distribution``, ``card``, ``place``, ``rules`` (for the page).
A refused request is HTTP 400 ``{"error": MESSAGE}``; a body over the size limit is 413.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable
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

from solver.game.rules import DEFAULT_RULES

from . import queries as q
from .charts import StatsService

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


def _bad(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(default_rules: str = DEFAULT_RULES, allowed_hosts: list[str] | None = None,
               stats: StatsService | None = None) -> Starlette:
    """The application; ``default_rules`` answers requests that name no rule set.
    ``allowed_hosts`` (Host header values; default: the loopback names) guards a local
    server against DNS rebinding; ``["*"]`` accepts any."""
    service = stats or StatsService()

    def simple(func: Callable[..., dict[str, Any]], command: Callable[[], Any],
               keys: tuple[str, ...]) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            try:
                params = q.parse_params(command(), request.query_params.multi_items(), keys,
                                        default_rules)
                if "rules_name" in params:
                    await service.table(params["rules_name"])
                if func is q.advise_json and q.has_objective(params):
                    return JSONResponse(await service.run(q.advise_in_worker,
                                                          tuple(sorted(params.items()))))
                return JSONResponse(q.call(func, params))
            except q.BadRequest as exc:
                return _bad(exc.message)
        return endpoint

    async def stats_endpoint(request: Request) -> Response:
        try:
            params = q.parse_params(q.stats_command(), request.query_params.multi_items(),
                                    q.STATS_KEYS, default_rules)
            question = q.call(q.stats_question, params)
            await service.table(params["rules_name"])
            return JSONResponse(await service.run(q.stats_json, question))
        except q.BadRequest as exc:
            return _bad(exc.message)

    async def distribution_endpoint(request: Request) -> Response:
        try:
            params = q.parse_params(q.card_command, request.query_params.multi_items(),
                                    q.CARD_KEYS, default_rules)
            await service.table(params["rules_name"])
            card = q.call(_card_of, params)["card"]
            total = card.total
            if card.is_full:
                result = {"mean": 0.0, "distribution": {"0": 1.0}}
            else:
                result = await service.get((card.rules_name, card.mask, card.upper, card.flag))
            return JSONResponse(_final_scores(card, total, result))
        except q.BadRequest as exc:
            return _bad(exc.message)

    async def posted_record(request: Request, command: Any, keys: tuple[str, ...],
                            arguments: tuple[str, ...]) -> Any:
        q.parse_params(command, request.query_params.multi_items(), keys, default_rules,
                       arguments)
        record = q.read_body(await request.body())
        await service.table(record.rules)
        return record

    async def analyze_endpoint(request: Request) -> Response:
        try:
            record = await posted_record(request, q.analyze_command(), q.ANALYZE_KEYS,
                                          q.ANALYZE_ARGUMENTS)
            return JSONResponse(q.analyze_json(record))
        except q.BadRequest as exc:
            return _bad(exc.message)

    async def record_endpoint(request: Request) -> Response:
        try:
            record = await posted_record(request, q.record_command, q.RECORD_KEYS,
                                          q.RECORD_ARGUMENTS)
            return JSONResponse(q.record_json(record))
        except q.BadRequest as exc:
            return _bad(exc.message)

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

    routes = [
        Route("/", index),
        Route("/favicon.ico", favicon),
        Route("/api/advise", simple(q.advise_json, q.advise_command, q.ADVISE_KEYS)),
        Route("/api/stats", stats_endpoint),
        Route("/api/distribution", distribution_endpoint),
        Route("/api/analyze", analyze_endpoint, methods=["POST"]),
        Route("/api/record", record_endpoint, methods=["POST"]),
        Route("/api/card", simple(q.card_json, lambda: q.card_command, q.CARD_KEYS)),
        Route("/api/place", simple(q.place_json, lambda: q.place_command, q.PLACE_KEYS)),
        Route("/api/rules", simple(q.rules_json, lambda: q.rules_command, q.RULES_KEYS)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    hosts = allowed_hosts if allowed_hosts is not None else list(LOOPBACK_HOSTS)
    return Starlette(
        routes=routes,
        middleware=[Middleware(BodyLimit), Middleware(TrustedHostMiddleware,
                                                      allowed_hosts=hosts)],
        exception_handlers={HTTPException: not_found, Exception: server_error},
        lifespan=lifespan)


def _card_of(card_text: str, rules_name: str) -> dict[str, Any]:
    from ..model import Scorecard

    return {"card": Scorecard.parse(card_text, rules_name)}


def _final_scores(card: Any, total: int, result: dict[str, Any]) -> dict[str, Any]:
    """Distribution of the final score from the card's figures of the points to come:
    ``distribution`` and ``p_reach`` (P(final >= score)), keyed by final score."""
    points = sorted((int(x), p) for x, p in result["distribution"].items())
    reach = []
    above = 0.0
    for _, p in reversed(points):  # suffix sums, smallest terms first
        above += p
        reach.append(above)
    reach.reverse()
    return {"rules": card.rules_name, "card": q.describe_card(card),
            "expected_final": total + result["mean"],
            "distribution": {str(total + x): p for x, p in points},
            "p_reach": {str(total + x): r for (x, _), r in zip(points, reach, strict=True)}}
