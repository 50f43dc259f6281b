"""Issue 42, items 3 and 4: the connections of ``yahtzee serve`` (advisor/web/connections.py)
over real loopback sockets, the server run as `serve` runs it (:func:`server_config`,
:class:`GuardedServer`). One client (127.0.0.1) holding more connections than its cap
gets 503 for the extra one while another client (127.0.0.2, the client socket bound to
that source address) is answered; the cap in all; a silent connection, a half-sent
request and a half-sent second request are closed after the header timeout (small
here), while an answer that takes longer than it is not cut; ``X-Forwarded-For`` is
believed only from the proxy named. The bounds on time are generous (a minute), never
measured."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.cli.serve import listen
from advisor.web.app import create_app
from advisor.web.connections import (
    HEADER_TIMEOUT,
    MAX_CONNECTIONS,
    PER_CLIENT,
    BoundedErrorLog,
    ConnectionGuard,
    GuardedServer,
    client_key,
    server_config,
    total_cap,
)

PATIENCE = 60.0
"""Seconds a socket waits for the server at most (a bound, not a measure)."""
REQUEST = b"GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s\r\n"


@contextlib.contextmanager
def running(app, **config) -> Iterator[int]:
    """``app`` served as ``yahtzee serve`` serves it on a free loopback port: the port."""
    sock = listen("127.0.0.1", 0)
    server = GuardedServer(server_config(app, log_level="warning", **config))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + PATIENCE
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(PATIENCE)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def answer(raw: bytes) -> tuple[int, dict | str]:
    head, _, body = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    try:
        return status, json.loads(body)
    except ValueError:
        return status, body.decode("utf-8", "replace")


def ask(port: int, path: str = "/api/rules", source: str = "127.0.0.1",
        headers: bytes = b"") -> tuple[int, dict | str]:
    """One request on a new connection from ``source``, read whole."""
    with connect(port, source) as sock:
        sock.sendall(REQUEST % (path.encode(), headers + b"Connection: close\r\n"))
        return answer(read_all(sock))


def ask_raw(port: int, method: str, path: str) -> tuple[int, dict | str]:
    """``method path`` (no body) on a new connection from 127.0.0.1, read whole."""
    with connect(port) as sock:
        sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0"
                     f"\r\nConnection: close\r\n\r\n".encode())
        return answer(read_all(sock))


def until(condition, what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


async def echo_app(scope, receive, send) -> None:
    """The client the server sees (``scope["client"]``), after ``?sleep=S`` seconds."""
    assert scope["type"] == "http"
    query = scope["query_string"].decode()
    if query.startswith("sleep="):
        await asyncio.sleep(float(query[len("sleep="):]))
    body = json.dumps({"client": scope["client"][0]}).encode()
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def test_a_client_over_its_cap_is_refused_while_another_is_answered(official_table):
    guard = ConnectionGuard(per_client=3, total=8, header_timeout=600.0)
    with running(create_app("official"), guard=guard, lifespan="on") as port:
        held = [connect(port) for _ in range(3)]  # silent: no request
        until(lambda: guard.held["127.0.0.1"] == 3, "three connections held")
        with connect(port) as extra:  # the fourth of 127.0.0.1: refused at once
            status, body = answer(read_all(extra))
        assert (status, body) == (503, {"error": "3 connections from your address are "
                                                 "open, the most one client may hold; close "
                                                 "one"})
        # another client is answered, as a client with nothing open
        status, body = ask(port, source="127.0.0.2")
        assert status == 200 and body["rule_sets"], body
        assert guard.held == {"127.0.0.1": 3}
        # the cap in all: 3 + 3 + 2 held, all idle; a fifth client takes the place of the
        # longest-waiting idle connection of the client holding the most (127.0.0.1's
        # first), and is answered
        others = [connect(port, "127.0.0.3") for _ in range(3)]
        others += [connect(port, "127.0.0.4") for _ in range(2)]
        until(lambda: sum(guard.held.values()) == 8, "eight connections held")
        status, body = ask(port, source="127.0.0.5")
        assert status == 200 and body["rule_sets"], body
        assert held[0].recv(65536) == b""  # closed by the server, nothing answered
        assert guard.evicted == 1 and guard.refused == 1
        until(lambda: guard.held == {"127.0.0.1": 2, "127.0.0.3": 3, "127.0.0.4": 2},
              "the evicted connection's place taken, the fifth client's given back")
        # closed connections give their places back: the first client is answered again
        for sock in held + others:
            sock.close()
        until(lambda: not guard.held and not guard.idle, "every place given back")
        status, body = ask(port)
        assert status == 200 and body["rule_sets"]
        assert not guard.held


def test_the_cap_in_all_refuses_only_when_every_connection_is_busy():
    guard = ConnectionGuard(per_client=2, total=3, header_timeout=600.0)
    with running(echo_app, guard=guard, lifespan="off", timeout_graceful_shutdown=1) as port:
        busy = [connect(port, f"127.0.0.{n}") for n in (1, 3, 4)]
        for sock in busy:  # an answer that takes 30 s on each
            sock.sendall(REQUEST % (b"/?sleep=30", b""))
        until(lambda: sum(guard.held.values()) == 3 and not guard.idle,
              "three connections held, each with a request under way")
        with connect(port, "127.0.0.5") as refused:  # (its answer is there before it asks)
            status, body = answer(read_all(refused))
        assert (status, body) == (503, {"error": "the server holds 3 connections, each with "
                                                 "a request under way, the most it holds; "
                                                 "try again in a few seconds"})
        assert guard.refused == 1 and guard.evicted == 0
        for sock in busy:
            sock.close()


def test_requests_that_do_not_come_are_closed_after_the_header_timeout():
    guard = ConnectionGuard(per_client=8, total=16, header_timeout=0.5)
    with running(echo_app, guard=guard, lifespan="off") as port:
        silent = connect(port)
        half = connect(port)
        half.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line: not done
        trickle = connect(port)
        trickle.sendall(b"G")
        second = connect(port)  # a full request answered, then half of the next
        second.sendall(REQUEST % (b"/", b""))
        first_answer = b""
        while b"}" not in first_answer:
            first_answer += second.recv(65536)
        assert answer(first_answer) == (200, {"client": "127.0.0.1"})
        second.sendall(b"GET / HTTP/1.1\r\nHo")
        for sock in (silent, half, trickle, second):
            assert sock.recv(65536) == b""  # closed by the server, nothing answered
            sock.close()
        until(lambda: not guard.held, "every place given back")
        # an answer that takes longer than the header timeout is not cut
        assert ask(port, "/?sleep=1.5") == (200, {"client": "127.0.0.1"})


def test_forwarded_for_is_believed_only_from_the_proxy_named():
    forged = b"X-Forwarded-For: 203.0.113.9\r\n"
    with running(echo_app, lifespan="off") as port:  # no proxy: the header is ignored
        assert ask(port, "/", headers=forged) == (200, {"client": "127.0.0.1"})
        assert ask(port, "/", "127.0.0.2", forged) == (200, {"client": "127.0.0.2"})
    guard = ConnectionGuard(per_client=2, total=16, header_timeout=600.0, proxy="127.0.0.1")
    with running(echo_app, proxy="127.0.0.1", guard=guard, lifespan="off") as port:
        assert ask(port, "/", headers=forged) == (200, {"client": "203.0.113.9"})
        assert ask(port, "/") == (200, {"client": "127.0.0.1"})
        # from anyone else, still ignored
        assert ask(port, "/", "127.0.0.2", forged) == (200, {"client": "127.0.0.2"})
        # the proxy holds connections for all its clients: only the cap in all holds it
        held = [connect(port) for _ in range(3)]
        until(lambda: guard.held["127.0.0.1"] == 3, "the proxy's three connections held")
        assert ask(port, "/", headers=forged) == (200, {"client": "203.0.113.9"})
        for sock in held:
            sock.close()


def test_loop_errors_are_logged_one_line_per_kind_and_interval(caplog):
    now = [100.0]
    errors = BoundedErrorLog(every=10.0, logger=logging.getLogger("test.bounded"),
                             clock=lambda: now[0])
    accept = {"message": "socket.accept() out of system resource",
              "exception": OSError(24, "Too many open files")}
    with caplog.at_level(logging.ERROR, logger="test.bounded"):
        for step in range(1000):  # 1000 failed accepts in 9.99 s
            now[0] = 100.0 + step * 0.01
            errors(None, accept)
        errors(None, {"message": "another kind"})
        now[0] = 110.5
        errors(None, accept)
        errors(None, accept)
    assert [record.getMessage() for record in caplog.records] == [
        "socket.accept() out of system resource: OSError: [Errno 24] Too many open files",
        "another kind",
        "socket.accept() out of system resource: OSError: [Errno 24] Too many open files "
        "(999 more like it in the last 10 s not logged)"]
    assert all(record.exc_info is None for record in caplog.records)


@pytest.mark.parametrize(("host", "key"), [
    ("127.0.0.1", "127.0.0.1"), ("::1", "::/64"),
    ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"), ("2001:db8:1:2:bbbb::9", "2001:db8:1:2::/64"),
    ("::ffff:10.0.0.7", "10.0.0.7"), ("not-an-address", "not-an-address")])
def test_a_client_is_an_ipv4_address_or_an_ipv6_64_network(host, key):
    assert client_key(host) == key


def test_serve_names_its_bounds_and_refuses_a_bad_proxy():
    assert (PER_CLIENT, MAX_CONNECTIONS, HEADER_TIMEOUT) == (32, 512, 10.0)
    assert 1 <= total_cap() <= MAX_CONNECTIONS
    result = CliRunner().invoke(cli, ["serve", "--help"], terminal_width=200)
    words = " ".join(result.stdout.split())
    assert "may hold 32 connections at once, all clients together 512" in words
    assert "sent a request's headers 10 s after it opened" in words
    assert "--proxy ADDRESS" in words and "X-Forwarded-For" in words
    result = CliRunner().invoke(cli, ["serve", "--proxy", "my-proxy", "--port", "0"])
    assert result.exit_code == 2
    assert "'my-proxy' is not an IP address or network" in result.output
    assert "Traceback" not in result.output
