"""Issue 32, fair service: a question answered in about a second is answered while heavy
jobs (a chance to win from a new game: minutes) fill every slot a client may have; heavy
jobs queue first come first served and say their position, are bounded per client, and
are cancelled when nobody asks about them. No timing thresholds: each light answer is
checked while the heavy jobs are still live, and against the CLI's."""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.parse

from click.testing import CliRunner

from advisor.cli import cli
from advisor.request.turn_question import TurnQuestion, solve_turn_job
from advisor.web.jobs import PER_CLIENT, JobService, TooManyJobs

LATE = "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30"
OPPONENT = "aces=2,twos=8,threes=9,fours=16,fives=10,sixes=24,4k=22,fh=25,ss=30"
HEAVY = [f"aces={n}" for n in range(1, 6)]  # twelve boxes open, against a new game: minutes


def post(server, path: str, params: dict):
    return server.request("POST", f"{path}?{urllib.parse.urlencode(params)}")


def states(server, ids: list[str]) -> list[str]:
    return [server.get(f"/api/jobs/{job_id}")[1]["job"]["state"] for job_id in ids]


def test_light_questions_are_answered_while_heavy_jobs_fill_the_slots(server):
    ids = []
    try:
        for card in HEAVY[:PER_CLIENT]:
            status, body = post(server, "/api/jobs/turn", {"card": card, "opponent": ""})
            assert status == 200 and body["job"]["state"] in ("queued", "running"), body
            ids.append(body["job"]["id"])
        queued = [server.get(f"/api/jobs/{i}")[1]["job"] for i in ids]
        assert [job.get("position") for job in queued if job["state"] == "queued"] == \
            [1] * (PER_CLIENT - 1)  # one runs, the others wait in order
        status, body = post(server, "/api/jobs/turn", {"card": HEAVY[-1], "opponent": ""})
        assert status == 429 and "of yours" in body["error"]

        # light: a late card's chance to win (about 0.03 s alone) and a target question
        status, body = post(server, "/api/jobs/turn", {"card": LATE, "opponent": OPPONENT})
        assert status == 200 and body["job"]["state"] == "done", body
        assert 0.0 <= body["chance"] <= 1.0
        params = {"card": LATE, "opponent": OPPONENT, "dice": "22256", "top": "0"}
        status, answer = server.get("/api/advise", params)
        assert status == 200
        cli_json = CliRunner().invoke(cli, ["advise", "22256", "--card", LATE, "--opponent",
                                            OPPONENT, "--top", "0", "--json"]).stdout
        assert answer == json.loads(cli_json)
        status, answer = server.get("/api/advise", {"card": LATE, "target": "230",
                                                    "dice": "66612", "rolls_left": "1"})
        assert status == 200 and answer["objective"] == {"kind": "target", "target": 230}
        assert server.get("/api/distribution", {"card": LATE})[0] == 200
        assert server.get("/api/card", {"card": LATE})[0] == 200
        # ... all while the heavy jobs are still under way
        assert all(state in ("queued", "running") for state in states(server, ids))
    finally:
        for job_id in ids:
            server.request("DELETE", f"/api/jobs/{job_id}")


def _question(card: str) -> TurnQuestion:
    return TurnQuestion.parse(card_text=card, rules_name="official", opponent="")


def test_heavy_jobs_queue_in_order_per_client_and_in_all(official_table):
    async def scenario() -> None:
        jobs = JobService(limit=3, per_client=2)
        try:
            started = [jobs.start("turn", ("k", n), "heavy", solve_turn_job,
                                  _question(HEAVY[n]), client)
                       for n, client in enumerate(("a", "b", "a"))]
            assert [j.status()["state"] for j in started] == ["running", "queued", "queued"]
            assert [j.status().get("position") for j in started] == [None, 1, 2]
            for client, words in (("a", "2 long computations of yours"),
                                  ("c", "3 long computations are under way or queued")):
                try:
                    jobs.start("turn", ("k", 9), "heavy", solve_turn_job, _question(HEAVY[4]),
                               client)
                except TooManyJobs as exc:
                    assert str(exc).startswith(words), exc
                else:
                    raise AssertionError("not refused")
            jobs.cancel(started[1].id)
            assert started[2].status()["position"] == 1
            again = jobs.start("turn", ("k", 2), "heavy", solve_turn_job, _question(HEAVY[2]),
                               "c")
            assert again is started[2]  # the same question joins the job
        finally:
            jobs.close()

    _run_apart(scenario)


def test_jobs_nobody_asks_about_are_cancelled(official_table):
    async def scenario() -> None:
        jobs = JobService(abandon=1.0)
        try:
            followed, dropped = (jobs.start("turn", ("k", n), "heavy", solve_turn_job,
                                            _question(HEAVY[n]), f"client {n}")
                                 for n in range(2))
            for _ in range(12):  # 3 s: the page asks about its job every second or so
                await asyncio.sleep(0.25)
                jobs.follow(followed.id)
            assert dropped.state == "cancelled" and "abandoned" in dropped.status()["error"]
            assert followed.state in ("running", "queued")
        finally:
            jobs.close()

    _run_apart(scenario)



def _run_apart(scenario) -> None:
    """Run ``scenario()`` on an event loop of its own thread: a worker that ran the
    browser tests first has Playwright's loop running in its main thread, where
    ``asyncio.run`` is refused."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(scenario())
        except BaseException as exc:  # handed to the test's thread
            failed.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
