"""Load test of ``yahtzee serve`` on 127.0.0.1: advise requests from concurrent clients.

Starts the server as a user does (``yahtzee serve --port 0``, its own process), then 20
clients (asyncio, one keep-alive connection each) send 2,000 ``/api/advise`` requests
(varied cards, dice and rolls left; the first roll of a card solves its turn, later rolls
of the same card reuse it, as at a real table) with 200 bad requests mixed in at random
places. Prints latency percentiles (p50, p90, p99, max) of the good and the bad requests,
the same for one client alone (the service time, without queueing behind the other 19),
throughput, and the errors: a good answer that differs from the library's own
``advise(...).to_json()``, a bad request not answered 400 with the CLI's message, or a
connection failure. Target (issue 10): p50 <= 5 ms warm, no errors.

Traffic goes to 127.0.0.1 only, and the run is bounded (2,200 requests, 120 s timeout).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

BIN = Path(sys.executable).parent
CLIENTS = 20
GOOD = 2000
BAD = 200
SEED = 10
TIMEOUT = 120.0

BAD_QUERIES = [
    {"dice": "2225"}, {"dice": "22257"}, {"dice": "abcde"}, {},
    {"dice": "22256", "rolls_left": "3"}, {"dice": "22256", "rolls_left": "x"},
    {"dice": "22256", "card": "twos=7"}, {"dice": "22256", "card": "foo=1"},
    {"dice": "22256", "rules": "nope"}, {"dice": "22256", "top": "-1"},
    {"dice": "22256", "table": "/etc/passwd"},
]


def random_card(rng: random.Random) -> str:
    """A card of a game played at random (0 to 12 boxes filled), as text."""
    from advisor.model import Dice, Scorecard

    card = Scorecard.new()
    for _ in range(rng.randint(0, 12)):
        dice = Dice([rng.randint(1, 6) for _ in range(5)])
        allowed = card.rules.placements(dice.faces, card.mask, card.yahtzee_holds_50)
        card = card.place(dice, rng.choice(allowed).box)
    return str(card)


def workload(rng: random.Random) -> list[tuple[str, dict | None]]:
    """(query string, expected JSON or None for a bad request), shuffled."""
    from advisor.caches import Caches
    from advisor.request.advise_question import AdviseQuestion
    from advisor.request.params import read_query
    from solver.errors import YahtzeeError

    def question(params: dict) -> AdviseQuestion:
        return AdviseQuestion.parse(**read_query(AdviseQuestion.PARAMS, params.items(),
                                                 {"rules": "official"}))

    memory = Caches()
    cards = [random_card(rng) for _ in range(GOOD // 6)]
    good = []
    for i in range(GOOD):
        params = {"card": cards[i % len(cards)],
                  "dice": "".join(str(rng.randint(1, 6)) for _ in range(5)),
                  "rolls_left": str(rng.choice((2, 1, 0)))}
        good.append(params)
    rng.shuffle(good)
    requests: list[tuple[str, dict | None]] = []
    for params in good:
        expected = question(params).json(memory=memory)
        requests.append((urllib.parse.urlencode(params), expected))
    for i in range(BAD):
        params = BAD_QUERIES[i % len(BAD_QUERIES)]
        try:
            question(params)
        except YahtzeeError as exc:
            message = str(exc)
        else:
            raise AssertionError(f"{params} is not a bad request")
        requests.insert(rng.randrange(len(requests) + 1),
                        (urllib.parse.urlencode(params), {"error": message}))
    return requests


async def client(host: str, port: int, queue: asyncio.Queue, results: list) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        while True:
            try:
                query, expected = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            request = (f"GET /api/advise?{query} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                       "Connection: keep-alive\r\n\r\n").encode()
            start = time.perf_counter()
            writer.write(request)
            status_line = await reader.readline()
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            body = await reader.readexactly(length)
            elapsed = time.perf_counter() - start
            status = int(status_line.split()[1])
            results.append((expected, status, json.loads(body), elapsed))
    finally:
        writer.close()


async def run_load(host: str, port: int, requests: list,
                   clients: int = CLIENTS) -> tuple[list, float]:
    queue: asyncio.Queue = asyncio.Queue()
    for item in requests:
        queue.put_nowait(item)
    results: list = []
    start = time.perf_counter()
    await asyncio.wait_for(asyncio.gather(*(client(host, port, queue, results)
                                            for _ in range(clients))), TIMEOUT)
    return results, time.perf_counter() - start


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of process ``pid`` so far (Linux /proc), else None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentiles(times: list[float]) -> str:
    ordered = sorted(times)
    q = statistics.quantiles(ordered, n=100, method="inclusive")
    return (f"p50 {q[49] * 1e3:7.2f} ms  p90 {q[89] * 1e3:7.2f} ms  "
            f"p99 {q[98] * 1e3:7.2f} ms  max {ordered[-1] * 1e3:7.2f} ms")


def main() -> int:
    from solver.table import open_table

    open_table("official", build=True)
    requests = workload(random.Random(SEED))
    server = subprocess.Popen([str(BIN / "yahtzee"), "serve", "--port", "0"],
                              stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = server.stdout.readline() if server.stdout else ""
        address = urllib.parse.urlsplit(next(w for w in line.split() if w.startswith("http")))
        host, port = address.hostname or "127.0.0.1", address.port or 0
        # warm: the kernel and the code paths, on other cards than the measured ones
        warm = workload(random.Random(SEED + 1))
        asyncio.run(run_load(host, port, warm[:200]))
        alone, _ = asyncio.run(run_load(host, port, warm[200:600], clients=1))
        cpu_before = cpu_seconds(server.pid)
        results, wall = asyncio.run(run_load(host, port, requests))
        cpu_after = cpu_seconds(server.pid)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(30)
    good = [r for r in results if "error" not in r[0]]
    bad = [r for r in results if "error" in r[0]]
    wrong = sum(1 for expected, status, body, _ in good + alone
                if status != (400 if "error" in expected else 200) or body != expected)
    refused_wrong = sum(1 for expected, status, body, _ in bad
                        if status != 400 or body != expected)
    lost = len(requests) - len(results)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"yahtzee serve on {host}, {CLIENTS} concurrent keep-alive clients, "
          f"{len(good)} advise requests + {len(bad)} bad ones mixed in (seed {SEED}):")
    print(f"  good requests   {percentiles([r[3] for r in good])}")
    print(f"  bad requests    {percentiles([r[3] for r in bad])}")
    print(f"  one client      {percentiles([r[3] for r in alone])}  (no queueing: "
          f"{len(alone)} requests one after another)")
    if cpu_before is not None and cpu_after is not None:
        print(f"  server CPU      {(cpu_after - cpu_before) / len(results) * 1e6:7.0f} us per "
              "request (user + system time of the server process; independent of the load)")
    print(f"  throughput      {len(results) / wall:7.0f} requests/s ({wall:.2f} s wall)")
    print(f"  errors          {wrong} wrong answers, {refused_wrong} bad requests not "
          f"answered 400 with the CLI's message, {lost} lost (target p50 <= 5 ms, no errors)")
    return 1 if wrong or refused_wrong or lost else 0


if __name__ == "__main__":
    sys.exit(main())
