"""``yahtzee serve``: advise latency while game records stream in (issue 22).

Starts the server as a user does (``yahtzee serve --port 0``, its own process). One
client asks ``/api/advise`` (varied cards and dice) one request after another and times
each answer: first alone, then while 8 other clients keep posting record bodies of about
249 KB to ``/api/analyze`` and ``/api/record``, each body streamed in 16 KB chunks:
finished 8-player games (every one different, so each analysis is new work) padded
with comments to the size, and hostile bodies (a turn line repeated, one long line of
tokens) that must be refused. Prints the advise latency percentiles of both phases, the
records answered per status, and the load average. Goal: advise p99 under 50 ms while
the records stream in, no answer 500, every record answered 200 or 400.

Traffic goes to 127.0.0.1 only; the run is bounded (about 25 s, 180 s timeout).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import statistics
import subprocess
import sys
import time
import urllib.parse
from collections import Counter
from pathlib import Path

BIN = Path(sys.executable).parent
POSTERS = 8
BODY = 249 * 1024
CHUNK = 16 * 1024
ALONE_SECONDS = 4.0
LOADED_SECONDS = 15.0
TIMEOUT = 180.0
SEED = 22


def eight_player_games(count: int) -> list[str]:
    """``count`` different finished 8-player games (text form) padded with comments to
    about :data:`BODY` bytes."""
    from advisor.record import GameRecord, Turn
    from advisor.record_file import records_from_traces
    from solver.simulate import simulate
    from solver.table import get_table

    table = get_table("official")
    names = tuple(f"P{i}" for i in range(8))
    bodies = []
    for k in range(count):
        games = list(records_from_traces("official", simulate(table, "greedy-turn", 8,
                                                              seed=SEED + k,
                                                              record=True).traces))
        turns = [Turn(names[i], g.turns[t].rolls, g.turns[t].keeps, g.turns[t].box)
                 for t in range(13) for i, g in enumerate(games)]
        text = str(GameRecord("official", names, tuple(turns)))
        padding = "# " + "x" * 197 + "\n"
        bodies.append(text + padding * ((BODY - len(text)) // len(padding)))
    return bodies


def hostile_bodies() -> list[str]:
    return ["players Ann\n" + "Ann: 22256 twos\n" * (BODY // 16),
            "22256 " * (BODY // 6),
            '{"players": ["Ann"], "turns": [' + '{"rolls": ["22256"]},' * (BODY // 22) + "{}]}"]


def advise_queries(rng: random.Random, n: int) -> list[str]:
    from advisor.model import Dice, Scorecard

    queries = []
    for _ in range(n):
        card = Scorecard.new()
        for _ in range(rng.randint(0, 11)):
            dice = Dice([rng.randint(1, 6) for _ in range(5)])
            allowed = card.rules.placements(dice.faces, card.mask, card.yahtzee_holds_50)
            card = card.place(dice, rng.choice(allowed).box)
        dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
        queries.append(urllib.parse.urlencode({"card": str(card), "dice": dice,
                                               "rolls_left": rng.choice("210")}))
    return queries


async def answer(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    status_line = await reader.readline()
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    body = await reader.readexactly(length)
    return int(status_line.split()[1]), body


async def advise_client(host: str, port: int, queries: list[str], seconds: float
                        ) -> list[float]:
    reader, writer = await asyncio.open_connection(host, port)
    times = []
    end = time.perf_counter() + seconds
    try:
        for query in queries:
            if time.perf_counter() > end:
                break
            start = time.perf_counter()
            writer.write(f"GET /api/advise?{query} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
            status, _ = await answer(reader)
            times.append(time.perf_counter() - start)
            if status != 200:
                raise AssertionError(f"advise answered {status}")
            await asyncio.sleep(0.005)
    finally:
        writer.close()
    return times


async def poster(host: str, port: int, bodies: list[str], stop: asyncio.Event,
                 statuses: Counter) -> None:
    """Post bodies one after another, each streamed in chunks, until ``stop``."""
    i = 0
    while not stop.is_set():
        body = bodies[i % len(bodies)].encode()
        path = "/api/analyze" if i % 3 else "/api/record"
        i += 1
        reader, writer = await asyncio.open_connection(host, port)
        try:
            writer.write((f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: text/plain"
                          f"\r\nContent-Length: {len(body)}\r\n\r\n").encode())
            for at in range(0, len(body), CHUNK):
                writer.write(body[at:at + CHUNK])
                await writer.drain()
                await asyncio.sleep(0.002)
            status, _ = await answer(reader)
            statuses[status] += 1
        except (ConnectionError, asyncio.IncompleteReadError):
            statuses["connection lost"] += 1
        finally:
            writer.close()


async def loaded(host: str, port: int, queries: list[str], bodies: list[str]
                 ) -> tuple[list[float], Counter]:
    stop = asyncio.Event()
    statuses: Counter = Counter()
    posters = [asyncio.create_task(poster(host, port, bodies[k::POSTERS] or bodies, stop,
                                          statuses)) for k in range(POSTERS)]
    await asyncio.sleep(1.0)  # the bodies are streaming in
    times = await advise_client(host, port, queries, LOADED_SECONDS)
    stop.set()
    await asyncio.wait_for(asyncio.gather(*posters), TIMEOUT)
    return times, statuses


def percentiles(times: list[float]) -> str:
    ordered = sorted(times)
    q = statistics.quantiles(ordered, n=100, method="inclusive")
    return (f"p50 {q[49] * 1e3:7.2f} ms  p90 {q[89] * 1e3:7.2f} ms  "
            f"p99 {q[98] * 1e3:7.2f} ms  max {ordered[-1] * 1e3:7.2f} ms  "
            f"({len(times)} requests)")


def main() -> int:
    from solver.table import open_table

    open_table("official", build=True)
    rng = random.Random(SEED)
    bodies = eight_player_games(24)
    bodies = [b for pair in zip(bodies, hostile_bodies() * 8, strict=False) for b in pair]
    queries = advise_queries(rng, 4000)
    server = subprocess.Popen([str(BIN / "yahtzee"), "serve", "--port", "0"],
                              stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = server.stdout.readline() if server.stdout else ""
        address = urllib.parse.urlsplit(next(w for w in line.split() if w.startswith("http")))
        host, port = address.hostname or "127.0.0.1", address.port or 0
        asyncio.run(advise_client(host, port, queries[:300], 30))  # warm
        alone = asyncio.run(advise_client(host, port, queries[300:], ALONE_SECONDS))
        busy, statuses = asyncio.run(asyncio.wait_for(loaded(host, port, queries[300:],
                                                             bodies), TIMEOUT))
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(30)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"yahtzee serve on {host}: one advise client; then {POSTERS} clients posting "
          f"{BODY // 1024} KB record bodies in {CHUNK // 1024} KB chunks")
    print(f"  advise alone           {percentiles(alone)}")
    print(f"  advise, records in     {percentiles(busy)}")
    print(f"  records answered       {dict(sorted(statuses.items(), key=str))}")
    ok = (statistics.quantiles(busy, n=100)[98] < 0.050 and
          set(statuses) <= {200, 400} and sum(statuses.values()) > 0)
    print(f"  goal: p99 under 50 ms, records answered 200 or 400 only: "
          f"{'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
