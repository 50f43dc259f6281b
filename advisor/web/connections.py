"""The connections of ``yahtzee serve``: bounded per client and in all, timed out when
a request does not come, and their failures logged at a bounded rate.

uvicorn alone keeps a connection open for as long as its client likes before the first
request (its keep-alive timeout starts after an answer, and any byte stops it), and
accepts as many as the process has file descriptors: one client holding thousands of
silent or half-sent connections used up the descriptors, every other request waited,
and each refused ``accept`` wrote a traceback. Here:

- a connection whose request headers have not all arrived within :data:`HEADER_TIMEOUT`
  seconds, from its start or from the previous answer, is closed (:class:`GuardedProtocol`);
- a client (an IPv4 address, or an IPv6 /64 network: one machine's addresses) holds at
  most :data:`PER_CLIENT` connections, and all clients together :func:`total_cap`: past
  that, a new connection takes the place of the longest-waiting idle one of the client
  holding the most, and only when every one has a request under way is it refused; a
  refused connection is answered ``503 {"error": ...}`` and closed before any of its
  bytes are read (:class:`ConnectionGuard`). A named proxy's own address is held only
  to the total, as every client behind it shares it;
- errors the event loop cannot hand to anyone (``accept`` out of file descriptors, ...)
  are logged as one line per kind and :data:`LOG_EVERY` seconds, with the count of the
  ones not logged (:class:`BoundedErrorLog`).

:func:`server_config` and :class:`GuardedServer` are how ``yahtzee serve`` runs uvicorn
(proxy headers read only from a proxy the user names).
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import json
import logging
import resource
import socket
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import h11
import uvicorn

from .protocol import JsonErrorProtocol

HEADER_TIMEOUT = 10.0
"""Seconds a connection may take to send a request's headers (from its start or from the
previous answer) before it is closed."""
PER_CLIENT = 32
"""Connections one client (address) may hold at once: a browser opens at most 6 to a
server, so several pages and devices behind one address fit."""
MAX_CONNECTIONS = 512
"""Connections held at once from every client, at most (see :func:`total_cap`)."""
LOG_EVERY = 10.0
"""Seconds between two log lines of the same kind of connection error."""
log = logging.getLogger("yahtzee.web")


def total_cap(limit: int = MAX_CONNECTIONS) -> int:
    """The connections held at once in all: ``limit``, and at most half the process's
    file descriptors (``ulimit -n``), so that the workers' pipes and the files the
    server opens always find one."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return limit
    return max(min(limit, soft // 2), 1)


def client_key(host: str) -> str:
    """The unit of the per-client bound: an IPv4 address, an IPv6 address's /64 network
    (a machine picks any address in its /64), else the text as it is."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def proxy_networks(proxy: str | None) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """The addresses of ``--proxy`` (comma-separated addresses or networks) as networks;
    a ValueError names one that is neither."""
    if proxy is None:
        return []
    networks = []
    for part in proxy.split(","):
        try:
            networks.append(ipaddress.ip_network(part.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{part.strip()!r} is not an IP address or network "
                             f"(e.g. 127.0.0.1 or 10.0.0.0/8)") from None
    if not networks:
        raise ValueError("no proxy address given")
    return networks


class ConnectionGuard:
    """Counts the connections held by each client and in all; :meth:`admit` says whether
    one more may be held (the reason when not), :meth:`release` gives its place back.

    Past the bound in all, a new connection takes the place of the longest-waiting idle
    one (no request under way: its headers not in yet, or between two requests) of the
    client holding the most, which is closed: idle connections cannot keep others out.
    Only when every connection has a request under way is the new one refused."""

    def __init__(self, per_client: int = PER_CLIENT, total: int | None = None,
                 header_timeout: float = HEADER_TIMEOUT, proxy: str | None = None) -> None:
        self.per_client = per_client
        self.total = total_cap() if total is None else total
        self.header_timeout = header_timeout
        self.proxies = proxy_networks(proxy)
        self.held: Counter[str] = Counter()
        self.idle: dict[str, dict[Any, None]] = {}
        """Each client's idle connections, the longest-waiting first."""
        self.refused = 0
        """Connections refused so far (over a cap)."""
        self.evicted = 0
        """Idle connections closed so far to make room for a new one."""

    def _is_proxy(self, host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.proxies)

    def admit(self, host: str) -> str | None:
        """None when a connection of ``host`` may be held (it is counted), else why not."""
        key = client_key(host)
        if self.held[key] >= self.per_client and not self._is_proxy(host):
            reason = (f"{self.per_client} connections from your address are open, the most "
                      f"one client may hold; close one")
        elif sum(self.held.values()) >= self.total and not self._evict():
            reason = (f"the server holds {self.total} connections, each with a request "
                      f"under way, the most it holds; try again in a few seconds")
        else:
            self.held[key] += 1
            return None
        self.refused += 1
        return reason

    def _evict(self) -> bool:
        """Close the longest-waiting idle connection of the client holding the most
        connections that has one; False when none is idle."""
        for key, _ in self.held.most_common():
            waiting = self.idle.get(key)
            if waiting:
                connection = next(iter(waiting))
                self.release(key, connection)
                connection.evict()
                self.evicted += 1
                return True
        return False

    def waiting(self, key: str, connection: Any) -> None:
        """``connection`` (with an ``evict()`` method) of client ``key`` is idle."""
        self.idle.setdefault(key, {})[connection] = None

    def busy(self, key: str, connection: Any) -> None:
        """``connection`` has a request under way."""
        waiting = self.idle.get(key)
        if waiting is not None:
            waiting.pop(connection, None)
            if not waiting:
                del self.idle[key]

    def release(self, key: str, connection: Any = None) -> None:
        """A connection of client ``key`` ended: its place is free."""
        self.busy(key, connection)
        self.held[key] -= 1
        if self.held[key] <= 0:
            del self.held[key]


def _refusal(reason: str) -> bytes:
    body = json.dumps({"error": reason}).encode("utf-8")
    return (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
            b"content-length: " + str(len(body)).encode("ascii") + b"\r\n"
            b"connection: close\r\nretry-after: 5\r\n\r\n" + body)


class GuardedProtocol(JsonErrorProtocol):
    """uvicorn's h11 protocol (answering its own errors in JSON) held to a
    :class:`ConnectionGuard`: a connection over a cap is answered 503 and closed before
    its bytes are read, and one whose request headers do not all arrive within the
    guard's ``header_timeout`` is closed."""

    def __init__(self, *args: Any, guard: ConnectionGuard, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.guard = guard
        self._key: str | None = None
        """The client's key while the connection holds a place in the guard."""
        self._refused = False
        self._header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        host = self.client[0] if self.client else ""
        reason = self.guard.admit(host)
        if reason is not None:
            self._refused = True
            transport.write(_refusal(reason))
            transport.close()
            return
        self._key = client_key(host)
        self._idle()

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE and self._key is not None:
            self._disarm_header_timer()  # a request's headers are in
            self.guard.busy(self._key, self)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._idle()  # the next request's headers: as long again

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_timer()
        if self._key is not None:
            self.guard.release(self._key, self)
            self._key = None
        super().connection_lost(exc)

    def evict(self) -> None:
        """Closed to make room for a new connection (its place is given already)."""
        self._key = None
        self._disarm_header_timer()
        self.transport.close()

    def _idle(self) -> None:
        """Waiting for a request's headers: timed, and open to eviction."""
        if self._key is None:
            return
        self.guard.waiting(self._key, self)
        self._disarm_header_timer()
        self._header_timer = self.loop.call_later(self.guard.header_timeout,
                                                  self._headers_too_late)

    def _disarm_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_late(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


class BoundedErrorLog:
    """An event loop's exception handler logging one line per kind of error (its message
    and the exception's type and words, no traceback) and at most one per ``every``
    seconds of each kind, then the count of those not logged meanwhile."""

    def __init__(self, every: float = LOG_EVERY, logger: logging.Logger = log,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.every, self.logger, self.clock = every, logger, clock
        self._last: dict[str, float] = {}
        self._unsaid: Counter[str] = Counter()

    def __call__(self, loop: asyncio.AbstractEventLoop | None, context: dict[str, Any]) -> None:
        error = context.get("exception")
        kind = str(context.get("message", "error in the event loop"))
        words = f"{kind}: {type(error).__name__}: {error}" if error is not None else kind
        now = self.clock()
        last = self._last.get(kind)
        if last is not None and now - last < self.every:
            self._unsaid[kind] += 1
            return
        unsaid = self._unsaid.pop(kind, 0)
        self._last[kind] = now
        if unsaid and last is not None:  # (a kind is unsaid only after it was said)
            words += f" ({unsaid} more like it in the last {now - last:.0f} s not logged)"
        self.logger.error("%s", words)


def server_config(app: Any, *, proxy: str | None = None, guard: ConnectionGuard | None = None,
                  **options: Any) -> uvicorn.Config:
    """uvicorn's configuration of ``app`` as ``yahtzee serve`` runs it: connections held
    to ``guard`` (a new :class:`ConnectionGuard` by default), and ``X-Forwarded-For`` /
    ``X-Forwarded-Proto`` read only from ``proxy`` (comma-separated addresses or
    networks; None: from nobody, the client is the connection's own address)."""
    networks = proxy_networks(proxy)
    guard = guard or ConnectionGuard(proxy=proxy)
    protocol = functools.partial(GuardedProtocol, guard=guard)
    return uvicorn.Config(app, http=protocol,  # type: ignore[arg-type]
                          proxy_headers=bool(networks),
                          forwarded_allow_ips=[str(n) for n in networks] or None,
                          **options)


class GuardedServer(uvicorn.Server):
    """uvicorn's server whose event loop logs its unhandled errors at a bounded rate
    (:class:`BoundedErrorLog`)."""

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        asyncio.get_running_loop().set_exception_handler(BoundedErrorLog())
        await super().serve(sockets)
