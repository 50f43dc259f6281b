"""The page and its files: ``/``, ``/favicon.ico``, ``/static/...`` (nothing outside the
package's ``static`` folder), and the answers to what no route serves (404 and the like)
and to an unexpected error (500, the error logged)."""

from __future__ import annotations

import logging
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from .served import bad

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger("yahtzee.web")


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


async def favicon(request: Request) -> Response:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


async def not_found(request: Request, exc: Exception) -> Response:
    """An HTTP error (404 for an unknown path): JSON under ``/api/``, plain text elsewhere."""
    status = exc.status_code if isinstance(exc, HTTPException) else 404
    detail = exc.detail if isinstance(exc, HTTPException) else "not found"
    if request.url.path.startswith("/api/"):
        return bad(f"{detail}: {request.method} {request.url.path}", status)
    return Response(detail, status_code=status, media_type="text/plain")


async def server_error(request: Request, exc: Exception) -> Response:
    """An unexpected error: logged whole, answered 500 without its details."""
    log.exception("unexpected error answering %s", request.url.path)
    return bad("internal error (see the server's log)", 500)


def page_routes() -> list[BaseRoute]:
    """The page and its icon (first among the routes)."""
    return [Route("/", index), Route("/favicon.ico", favicon)]


def static_routes() -> list[BaseRoute]:
    """The page's files (last among the routes)."""
    return [Mount("/static", StaticFiles(directory=STATIC), name="static")]
