"""What a hostile client's connections cost the others, on ``yahtzee serve`` at 127.0.0.1.

Starts the server as a user does (``yahtzee serve --port 0``, its own process, its
stderr counted, its file limit ``--nofile``). An *other* client (source address
127.0.0.2) asks ``/api/card`` one request after another, each on a new connection, and
its latency and answers are printed for each phase:

- ``quiet``: nobody else;
- ``one address holds N silent``: a hostile client at 127.0.0.1 opens ``--connections``
  connections that send nothing and keeps those the server leaves open (the attack of
  issue 42: thousands of idle connections);
- ``one address holds N half-sent``: the same, each with half a request;
- ``M addresses hold N silent``: the same from 127.0.0.1 to 127.0.0.M (not .2);
- ``one address floods``: the hostile client opens a new connection whenever the server
  closes one, as fast as it can, for the phase (ATTEMPTS at most).

For each phase: the other client's p50, p99 and max latency, its answers by status (or
``error`` when the connection failed), the hostile client's connections opened, held at
the end and closed by the server, and at the end the bytes the server wrote to stderr.
``--old REPO`` runs the same against the code of another checkout (e.g. ``git archive``
of an earlier commit), for a ratio in the same run.

Traffic goes to 127.0.0.x only; every loop is bounded in count (ATTEMPTS connections per
phase) and time (``--seconds`` per phase, TIMEOUT per request).
"""

from __future__ import annotations

import argparse
import collections
import os
import resource
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

BIN = Path(sys.executable).parent
PHASE = 15.0
"""Seconds of each phase under attack."""
ATTEMPTS = 20000
"""Connections the hostile client opens per phase, at most."""
ADDRESSES = 40
"""Source addresses of the last phase (127.0.0.1 to 127.0.0.ADDRESSES)."""
TIMEOUT = 20.0
"""Seconds the other client waits for one answer, at most."""
CARD = "aces=3,twos=6,threes=9"
OTHER = "127.0.0.2"
HALF = b"GET / HTTP/1.1\r\nHost: 127"
"""Half a request: the headers never end."""


def other_request(port: int) -> tuple[str, float]:
    """One ``/api/card`` from 127.0.0.2 on a new connection: (status or error, seconds)."""
    start = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT,
                                      source_address=(OTHER, 0)) as sock:
            sock.sendall(f"GET /api/card?card={CARD} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         f"Connection: close\r\n\r\n".encode())
            raw = b""
            while chunk := sock.recv(65536):
                raw += chunk
        status = raw.split(b" ", 2)[1].decode() if raw.startswith(b"HTTP/") else "empty"
    except OSError as exc:
        status = f"error ({type(exc).__name__})"
    return status, time.perf_counter() - start


def other_client(port: int, stop: threading.Event, out: list) -> None:
    while not stop.is_set():
        out.append(other_request(port))


class Hostile:
    """Opens ``count`` connections from ``sources`` round robin (sending ``opening`` on
    each) and keeps those the server leaves open; bounded by the stop event."""

    def __init__(self, port: int, sources: list[str], opening: bytes, count: int) -> None:
        self.port, self.sources, self.opening, self.count = port, sources, opening, count
        self.held: dict[int, socket.socket] = {}
        self.opened = self.refused = self.failed = 0
        self.selector = selectors.DefaultSelector()

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set() and self.opened < self.count:
            source = self.sources[self.opened % len(self.sources)]
            self.opened += 1
            try:
                sock = socket.create_connection(("127.0.0.1", self.port), timeout=5,
                                                source_address=(source, 0))
                if self.opening:
                    sock.sendall(self.opening)
            except OSError:
                self.failed += 1
                time.sleep(0.01)
            else:
                sock.setblocking(False)
                self.held[sock.fileno()] = sock
                self.selector.register(sock, selectors.EVENT_READ)
            self._drop_closed(0.0 if self.opened % 50 else 0.05)
        while not stop.is_set():  # the bound reached: only follow what is held
            self._drop_closed(0.2)

    def _drop_closed(self, wait: float) -> None:
        for key, _ in self.selector.select(wait):
            sock = key.fileobj
            try:
                data = sock.recv(65536)
            except OSError:
                data = b""
            if not data or data.startswith(b"HTTP/1.1 503"):
                self.refused += 1
                self.selector.unregister(sock)
                del self.held[sock.fileno()]
                sock.close()

    def close(self) -> None:
        for sock in self.held.values():
            sock.close()
        self.selector.close()


def percentiles(times: list[float]) -> str:
    if len(times) < 2:
        return "too few answers"
    q = statistics.quantiles(sorted(times), n=100, method="inclusive")
    return (f"p50 {q[49] * 1e3:7.1f} ms  p99 {q[98] * 1e3:7.1f} ms  "
            f"max {max(times) * 1e3:7.1f} ms")


def phase(port: int, sources: list[str] | None, opening: bytes, seconds: float,
          count: int = ATTEMPTS) -> str:
    stop = threading.Event()
    answers: list[tuple[str, float]] = []
    hostile = Hostile(port, sources, opening, count) if sources else None
    threads = [threading.Thread(target=other_client, args=(port, stop, answers))]
    if hostile is not None:
        threads.append(threading.Thread(target=hostile.run, args=(stop,)))
    for thread in reversed(threads):  # the hostile client first
        thread.start()
        time.sleep(1.0 if hostile is not None else 0.0)
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join(TIMEOUT + 10)
    held = len(hostile.held) if hostile is not None else 0
    if hostile is not None:
        hostile.close()
    statuses = collections.Counter(status for status, _ in answers)
    line = (f"other client: {percentiles([t for s, t in answers if s == '200'])}, "
            f"answers {dict(sorted(statuses.items()))}")
    if hostile is not None:
        line += (f"; hostile: {hostile.opened} opened, {held} held at the end, "
                 f"{hostile.refused} closed by the server, {hostile.failed} failed to connect")
    return line


def start_server(old: str | None, stderr, nofile: int | None) -> tuple[subprocess.Popen, int]:
    if old is None:
        command = [str(BIN / "yahtzee"), "serve", "--port", "0"]
    else:  # another checkout's code, with this environment's packages
        command = [sys.executable, "-c",
                   "import sys; sys.meta_path = [f for f in sys.meta_path if 'editable' not "
                   f"in repr(f)]; sys.path.insert(0, {old!r}); from advisor.cli import cli; "
                   "cli(['serve', '--port', '0'])"]
    def limit() -> None:
        if nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"}, preexec_fn=limit)
    line = server.stdout.readline() if server.stdout else ""
    port = int(next(w for w in line.split() if w.startswith("http")).rstrip("/")
               .rsplit(":", 1)[1])
    return server, port


def run(old: str | None, seconds: float, nofile: int | None, count: int) -> None:
    with tempfile.TemporaryFile() as stderr:
        server, port = start_server(old, stderr, nofile)
        kill = threading.Timer(8 * (seconds + TIMEOUT + 15), server.kill)
        kill.start()
        sources = [f"127.0.0.{n}" for n in range(1, ADDRESSES + 1) if n != 2]
        phases = [
            ("quiet", None, b"", count),
            (f"one address holds {count} silent", ["127.0.0.1"], b"", count),
            (f"one address holds {count} half-sent", ["127.0.0.1"], HALF, count),
            (f"{len(sources)} addresses hold {count} silent", sources, b"", count),
            ("one address floods", ["127.0.0.1"], b"", ATTEMPTS),
        ]
        try:
            other_request(port)  # warm
            for name, who, opening, many in phases:
                print(f"  {name:34} {phase(port, who, opening, seconds, many)}", flush=True)
                time.sleep(2)
            print(f"  {'quiet again':34} {phase(port, None, b'', seconds)}")
        finally:
            kill.cancel()
            server.send_signal(signal.SIGINT)
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
        stderr.seek(0, os.SEEK_END)
        print(f"  the server's stderr: {stderr.tell()} bytes")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", metavar="REPO", help="also run the code of this checkout")
    parser.add_argument("--seconds", type=float, default=PHASE,
                        help="seconds of each phase under attack")
    parser.add_argument("--nofile", type=int, metavar="N",
                        help="the server's file limit (as prlimit --nofile=N:N)")
    parser.add_argument("--connections", type=int, default=2000, metavar="N",
                        help="connections the hostile client holds (default 2000)")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the hostile client's own
    from solver.table import open_table

    open_table("official", build=True)
    print(f"yahtzee serve on 127.0.0.1 (file limit {args.nofile or soft}); phases of "
          f"{args.seconds:.0f} s, {args.connections} connections held, at most {ATTEMPTS} "
          f"opened in a flood")
    for name, old in (("this code", None), ("--old " + str(args.old), args.old)):
        if name != "this code" and old is None:
            continue
        print(f"{name}:")
        run(old, args.seconds, args.nofile, args.connections)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (at the end)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
