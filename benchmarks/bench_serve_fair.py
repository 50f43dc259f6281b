"""Load test of ``yahtzee serve`` on 127.0.0.1: light questions while heavy jobs run.

Starts the server as a user does (``yahtzee serve --port 0``, its own process). A heavy
client fills every slot one client may have with chances to win from a new game (each a
DP of minutes: ``POST /api/jobs/turn``, one running, the rest queued), keeps them alive by
asking their status every second, and asks for more all along (each refused with 429).
Meanwhile a light client asks, one question after another, questions that take about a
second or less alone: a late card's chance to win and chance of a target (turn jobs and
``/api/advise``, each a fresh solve: the cards differ), ``/api/distribution`` of a late
card, and plain ``/api/advise``. Prints the light questions' latency percentiles (p50,
p99, max) with the heavy jobs running, and the same questions' with the server idle
(measured first), the refusals and the state of the heavy jobs at the end.

Traffic goes to 127.0.0.1 only; the run is bounded (LIGHT questions per phase, TIMEOUT
seconds in all) and ends by itself, cancelling its jobs and stopping the server.
"""

from __future__ import annotations

import json
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

BIN = Path(sys.executable).parent
LIGHT = 40
"""Light questions of each kind per phase."""
TIMEOUT = 600.0
SEED = 32
HEAVY = [f"aces={n}" for n in range(1, 6)]


def call(base: str, method: str, path: str, params: dict) -> tuple[int, dict, float]:
    url = f"{base}{path}?{urllib.parse.urlencode(params)}"
    request = urllib.request.Request(url, method=method, data=b"" if method == "POST" else None)
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as res:
            status, raw = res.status, res.read()
    except urllib.error.HTTPError as exc:
        status, raw = exc.code, exc.read()
    return status, json.loads(raw), time.perf_counter() - start


def late_card(rng: random.Random, open_boxes: int) -> str:
    """A card of a game played at random with ``open_boxes`` boxes still open."""
    from advisor.model import Dice, Scorecard

    card = Scorecard.new()
    while len(card.open_boxes()) > open_boxes:
        dice = Dice([rng.randint(1, 6) for _ in range(5)])
        allowed = card.rules.placements(dice.faces, card.mask, card.yahtzee_holds_50)
        card = card.place(dice, rng.choice(allowed).box)
    return str(card)


def light_questions(rng: random.Random) -> list[tuple[str, str, str, dict]]:
    """(kind, method, path, params): LIGHT of each kind, each on its own cards."""
    questions = []
    for _ in range(LIGHT):
        mine, theirs = late_card(rng, rng.randint(2, 4)), late_card(rng, rng.randint(2, 5))
        dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
        questions += [
            ("win turn job", "POST", "/api/jobs/turn", {"card": mine, "opponent": theirs}),
            ("target advise", "GET", "/api/advise",
             {"card": late_card(rng, rng.randint(2, 5)), "dice": dice,
              "target": str(rng.randint(150, 260))}),
            ("distribution", "GET", "/api/distribution", {"card": late_card(rng, 4)}),
            ("ev advise", "GET", "/api/advise", {"card": mine, "dice": dice}),
        ]
    rng.shuffle(questions)
    return questions


def ask_all(base: str, questions: list) -> dict[str, list[float]]:
    """Each question in turn; the seconds of each, by kind (a refusal stops the run)."""
    times: dict[str, list[float]] = {}
    for kind, method, path, params in questions:
        status, body, seconds = call(base, method, path, params)
        if status != 200 or (path == "/api/jobs/turn" and body["job"]["state"] != "done"):
            raise SystemExit(f"{kind} {params} not answered at once: {status} {body}")
        times.setdefault(kind, []).append(seconds)
    return times


def percentiles(times: list[float]) -> str:
    ordered = sorted(times)
    q = statistics.quantiles(ordered, n=100, method="inclusive")
    return f"p50 {q[49] * 1e3:8.1f} ms  p99 {q[98] * 1e3:8.1f} ms  max {ordered[-1] * 1e3:8.1f} ms"


class HeavyClient(threading.Thread):
    """Fills its slots with heavy jobs, follows them, and asks for more (429)."""

    def __init__(self, base: str) -> None:
        super().__init__(daemon=True)
        self.base, self.ids, self.refused, self.stop = base, [], 0, threading.Event()
        self.states: list[str] = []

    def run(self) -> None:
        for card in HEAVY:
            status, body, _ = call(self.base, "POST", "/api/jobs/turn",
                                   {"card": card, "opponent": ""})
            if status == 200:
                self.ids.append(body["job"]["id"])
            else:
                self.refused += 1
        while not self.stop.wait(1.0):
            self.states = [call(self.base, "GET", f"/api/jobs/{i}", {})[1]["job"]["state"]
                           for i in self.ids]
            status, _, _ = call(self.base, "POST", "/api/jobs/turn",
                                {"card": HEAVY[-1], "opponent": ""})
            self.refused += status == 429


def main() -> int:
    from solver.table import open_table

    open_table("official", build=True)
    rng = random.Random(SEED)
    idle_questions, busy_questions = light_questions(rng), light_questions(rng)
    server = subprocess.Popen([str(BIN / "yahtzee"), "serve", "--port", "0"],
                              stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = threading.Timer(TIMEOUT, server.kill)
    deadline.start()
    heavy = None
    try:
        line = server.stdout.readline() if server.stdout else ""
        base = next(w for w in line.split() if w.startswith("http")).rstrip("/")
        ask_all(base, light_questions(random.Random(SEED + 1))[:12])  # warm every worker
        idle = ask_all(base, idle_questions)
        heavy = HeavyClient(base)
        heavy.start()
        while len(heavy.states) < len(heavy.ids) or not heavy.ids:
            time.sleep(0.2)
        busy = ask_all(base, busy_questions)
        states = list(heavy.states)
    finally:
        if heavy is not None:
            heavy.stop.set()
            heavy.join(30)
            for job_id in heavy.ids:
                call(base, "DELETE", f"/api/jobs/{job_id}", {})
        deadline.cancel()
        server.send_signal(signal.SIGINT)
        server.wait(30)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
          f"(at the end of the run)")
    print(f"yahtzee serve on 127.0.0.1; light questions one after another, {LIGHT} of each "
          f"kind per phase")
    for kind in sorted(idle):
        print(f"  {kind:14}  idle server  {percentiles(idle[kind])}")
        print(f"  {'':14}  heavy jobs   {percentiles(busy[kind])}")
    every_idle = [t for ts in idle.values() for t in ts]
    every_busy = [t for ts in busy.values() for t in ts]
    print(f"  {'all light':14}  idle server  {percentiles(every_idle)}")
    print(f"  {'':14}  heavy jobs   {percentiles(every_busy)}")
    print(f"  heavy client: {len(heavy.ids) if heavy else 0} jobs (chance to win from a new "
          f"game) {states} while the light ones were asked; {heavy.refused if heavy else 0} "
          f"more refused with 429")
    return 0


if __name__ == "__main__":
    sys.exit(main())
