"""The ASGI middleware of ``yahtzee serve``: the limit on a request's body and the security
headers of every answer."""

from __future__ import annotations

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 256 * 1024
"""Largest request body accepted, in bytes (a game record of 8 players is ~10 KB)."""

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
