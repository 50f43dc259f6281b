"""What every route of the server shares: the workers and services of one application
(:class:`Served`) and the wrapping of a handler's JSON into an answer (:func:`answered`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from solver.errors import YahtzeeError

from ..caches import Caches
from ..request.params import read_query
from ..workers import QueueFull, WorkerFailed
from .charts import StatsService
from .jobs import JobCancelled, JobFailed, JobService, TooManyJobs, UnknownJob
from .offload import QuickWork, RecordWork

Handler = Callable[["Served", Request], Awaitable[dict[str, Any]]]
"""A route's handler: the application's :class:`Served` and the request in, JSON out."""


class Served:
    """One application's shared parts: the figures' worker (``service``), the background
    jobs (``background``), the record lane (``records``), the light lane of turns solved in
    about a second (``quick``), the caches of what the server answers itself (``memory``:
    expected-score advice, a roll of a turn solved in a job; each worker process has its
    own) and the rule set of requests that name none."""

    def __init__(self, default_rules: str, stats: StatsService | None = None,
                 jobs: JobService | None = None) -> None:
        self.default_rules = default_rules
        self.memory = Caches()
        self.service = stats or StatsService()
        self.background = jobs or JobService()
        self.records = RecordWork()
        self.quick = QuickWork()  # the light lane: turns solved in about a second

    def query(self, request: Request, names: tuple[str, ...]) -> dict[str, Any]:
        """The request's parameters ``names``, read and checked (the default rule set for
        a request without ``rules``)."""
        return read_query(names, request.query_params.multi_items(),
                          {"rules": self.default_rules})

    def close(self) -> None:
        """Stop every worker (the application's end)."""
        self.service.close()
        self.background.close()
        self.records.close()
        self.quick.close()


def client_of(request: Request) -> str:
    """Who asks (the address the request came from): the unit of the per-client bounds."""
    return request.client.host if request.client is not None else ""


def bad(message: str, status: int = 400) -> JSONResponse:
    """A refusal: HTTP ``status`` with ``{"error": message}``."""
    return JSONResponse({"error": message}, status_code=status)


def answered(served: Served, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint: ``handler``'s JSON, or HTTP 400 with the message of a refusal (404 for
    an unknown job, 429 when every job slot is taken, 409 for a cancelled one, 500 with the
    reason for a job that failed on the server)."""
    async def endpoint(request: Request) -> Response:
        try:
            return JSONResponse(await handler(served, request))
        except UnknownJob as exc:
            return bad(str(exc), 404)
        except (TooManyJobs, QueueFull) as exc:
            return bad(str(exc), 429)
        except JobCancelled as exc:
            return bad(str(exc), 409)
        except (JobFailed, WorkerFailed) as exc:  # the server's fault, said as it is
            return bad(str(exc), 500)
        except YahtzeeError as exc:
            return bad(str(exc))
    return endpoint
