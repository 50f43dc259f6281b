"""The ASGI application of ``yahtzee serve`` (Starlette): the page and the JSON API.

Routes (docs/web.md), each resource in its own module: ``/`` the page, ``/static/...`` its
files (nothing outside the package's ``static`` folder) (:mod:`.routes_site`), and under
``/api/``: ``advise``, ``train``, ``train/session``, ``grade`` (:mod:`.routes_advise`);
``stats``, ``distribution``, ``card``, ``place``, ``rules``, ``objective``
(:mod:`.routes_figures`); ``analyze``, ``record`` (:mod:`.routes_records`); and ``jobs``
(the background solves of a turn or a review under a target, win or tournament objective,
which the page follows and can cancel: :mod:`.routes_jobs`, :mod:`.jobs`). What they share
(the workers, a handler's answer) is :mod:`.served`; the body limit :mod:`.middleware`.
A refused request is HTTP 400 ``{"error": MESSAGE}``; a body over the size limit is 413.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware

from solver.game.rules import DEFAULT_RULES

from .charts import StatsService
from .jobs import JobService
from .middleware import MAX_BODY, BodyLimit
from .routes_advise import advice_routes
from .routes_figures import figure_routes
from .routes_jobs import job_routes
from .routes_records import record_routes
from .routes_site import not_found, page_routes, server_error, static_routes
from .served import Served

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


def create_app(default_rules: str = DEFAULT_RULES, allowed_hosts: list[str] | None = None,
               stats: StatsService | None = None, jobs: JobService | None = None
               ) -> Starlette:
    """The application; ``default_rules`` answers requests that name no rule set.
    ``allowed_hosts`` (Host header values; default: the loopback names) guards a local
    server against DNS rebinding; ``["*"]`` accepts any. ``stats`` and ``jobs``: the
    figures' worker and the background jobs (new ones by default)."""
    served = Served(default_rules, stats, jobs)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            served.close()

    hosts = allowed_hosts if allowed_hosts is not None else list(LOOPBACK_HOSTS)
    return Starlette(
        routes=[*page_routes(), *advice_routes(served), *figure_routes(served),
                *record_routes(served), *job_routes(served), *static_routes()],
        middleware=[Middleware(BodyLimit, limit=MAX_BODY),
                    Middleware(TrustedHostMiddleware, allowed_hosts=hosts)],
        exception_handlers={HTTPException: not_found, Exception: server_error},
        lifespan=lifespan)

