"""The HTTP protocol of ``yahtzee serve``: uvicorn's, answering in JSON even before the app.

A request that is not HTTP at all (a bad request line, a header too long, a stray byte)
never reaches the application: uvicorn answers it itself, with a plain-text
``Invalid HTTP request received.``. Every answer of the API is ``{"error": ...}`` JSON,
so :class:`JsonErrorProtocol` answers those too in JSON, with the security headers of
the app's answers. It is uvicorn's pure-Python protocol (h11), the one uvicorn picks
when httptools is not installed (it is not a dependency of this project).
"""

from __future__ import annotations

import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

BAD_REQUEST = json.dumps({"error": "invalid HTTP request (not a request this server can "
                                   "read); see `yahtzee help web`"}).encode("ascii")
HEADERS = [
    (b"content-type", b"application/json"),
    (b"content-length", str(len(BAD_REQUEST)).encode("ascii")),
    (b"connection", b"close"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class JsonErrorProtocol(H11Protocol):
    """:class:`uvicorn.protocols.http.h11_impl.H11Protocol` whose own 400 answer is
    ``{"error": ...}`` JSON instead of plain text."""

    def send_400_response(self, msg: str) -> None:
        output = self.conn.send(h11.Response(status_code=400, headers=HEADERS,
                                             reason=b"Bad Request"))
        output += self.conn.send(h11.Data(data=BAD_REQUEST))
        output += self.conn.send(h11.EndOfMessage())
        self.transport.write(output)
        self.transport.close()
