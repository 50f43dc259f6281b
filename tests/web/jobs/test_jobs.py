"""The server's background jobs: a turn under a target or win objective is solved once in
the jobs' worker process, followed step by step, cancellable, bounded in number; its
rolls are then answered at once, exactly as `yahtzee advise --json`."""

from __future__ import annotations

import json
import time
import urllib.parse

import pytest
from click.testing import CliRunner

from advisor.cli import cli

LATE = "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30"
OPPONENT = "aces=2,twos=8,threes=9,fours=16,fives=10,sixes=24,4k=22,fh=25,ss=30"
SLOW = [f"aces={n}" for n in range(1, 6)]  # one box filled: a whole game to solve


def wait_for(server, job_id: str, seconds: float = 300) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        status, body = server.get(f"/api/jobs/{job_id}")
        assert status == 200, body
        if body["job"]["state"] not in ("queued", "running"):
            return body
        assert time.monotonic() < deadline, body
        time.sleep(0.2)


def post(server, path: str, params: dict, body: bytes | None = None):
    return server.request("POST", f"{path}?{urllib.parse.urlencode(params)}", body)


def cancel_all(server, ids: list[str]) -> None:
    for job_id in ids:
        server.request("DELETE", f"/api/jobs/{job_id}")


def test_a_turn_job_serves_every_roll_of_the_turn(server):
    params = {"card": LATE, "opponent": OPPONENT}
    status, body = post(server, "/api/jobs/turn", params)
    assert status == 200, body
    job = body["job"]
    assert job["kind"] == "turn" and job["what"] == "the chance to win (3 boxes open)"
    assert job["state"] in ("queued", "running", "done")
    done = wait_for(server, job["id"])["job"]
    assert done["state"] == "done" and done["done"] == done["total"] >= 1
    # the same question joins the finished job
    again = post(server, "/api/jobs/turn", params)[1]["job"]
    assert again["id"] == job["id"] and again["state"] == "done"
    for dice, rolls_left in (("22256", "2"), ("12346", "1"), ("66666", "0")):
        status, answer = server.get("/api/advise", {**params, "dice": dice,
                                                    "rolls_left": rolls_left, "top": "0"})
        cli_json = CliRunner().invoke(cli, ["advise", dice, "--card", LATE, "--opponent",
                                            OPPONENT, "--rolls-left", rolls_left, "--top",
                                            "0", "--json"]).stdout
        assert status == 200 and answer == json.loads(cli_json)


def test_several_opponents_are_one_objective(server):
    params = {"card": LATE, "opponents": f"{OPPONENT};{LATE}"}
    job = post(server, "/api/jobs/turn", params)[1]["job"]
    assert wait_for(server, job["id"])["job"]["state"] == "done"
    status, answer = server.get("/api/advise", {**params, "dice": "13456"})
    from advisor.model import Scorecard

    assert status == 200 and answer["objective"] == {
        "kind": "win", "opponents": [str(Scorecard.parse(OPPONENT)), str(Scorecard.parse(LATE))]}
    cli_json = CliRunner().invoke(cli, ["advise", "13456", "--card", LATE, "--opponents",
                                        f"{OPPONENT};{LATE}", "--json"]).stdout
    assert answer == json.loads(cli_json)


def test_a_running_job_is_cancelled_and_the_next_one_runs(server):
    first = post(server, "/api/jobs/turn", {"card": SLOW[0], "target": "300"})[1]["job"]
    deadline = time.monotonic() + 120
    while server.get(f"/api/jobs/{first['id']}")[1]["job"]["state"] != "running":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    status, body = server.request("DELETE", f"/api/jobs/{first['id']}")
    assert status == 200 and body["job"]["state"] == "cancelled"
    quick = post(server, "/api/jobs/turn", {"card": LATE, "target": "200"})[1]["job"]
    assert wait_for(server, quick["id"])["job"]["state"] == "done"
    # a cancelled job asked again starts anew
    anew = post(server, "/api/jobs/turn", {"card": SLOW[0], "target": "300"})[1]["job"]
    assert anew["id"] != first["id"] and anew["state"] in ("queued", "running")
    cancel_all(server, [anew["id"]])


def test_jobs_are_bounded_and_a_queued_one_is_dropped(server):
    from advisor.web.jobs import PER_CLIENT

    ids = []
    try:
        for card in SLOW[:PER_CLIENT]:
            status, body = post(server, "/api/jobs/turn", {"card": card, "target": "300"})
            assert status == 200, body
            ids.append(body["job"]["id"])
        status, body = post(server, "/api/jobs/turn", {"card": "chance=20", "target": "300"})
        assert status == 429 and "computations of yours are under way" in body["error"]
        status, body = server.request("DELETE", f"/api/jobs/{ids[-1]}")
        assert status == 200 and body["job"]["state"] == "cancelled"
        status, body = post(server, "/api/jobs/turn", {"card": "chance=20", "target": "300"})
        assert status == 200
        ids.append(body["job"]["id"])
    finally:
        cancel_all(server, ids)


@pytest.mark.parametrize(("path", "params", "code", "words"), [
    ("/api/jobs/turn", {"card": LATE}, 400, "needs no background solve"),
    ("/api/jobs/turn", {"card": "aces=9", "target": "200"}, 400, "aces"),
    ("/api/jobs/turn", {"card": LATE, "target": "200", "beat": "3"}, 400, "choose one"),
    ("/api/jobs/turn", {"card": LATE, "opponents": OPPONENT}, 400, "two or more cards"),
    ("/api/jobs/turn", {"card": LATE, "target": "200", "dice": "22256"}, 400,
     "unknown parameter"),
])
def test_bad_job_requests_are_refused(server, path, params, code, words):
    status, body = post(server, path, params)
    assert status == code and words in body["error"]


def test_unknown_jobs_and_methods(server):
    status, body = server.get("/api/jobs/nope")
    assert status == 404 and body["error"].startswith("no job 'nope'")
    status, body = server.request("DELETE", "/api/jobs/nope")
    assert status == 404
    status, body = server.request("PUT", "/api/jobs/nope")
    assert status == 405


ANN = ["11123 aces", "22256 twos", "44456 fours", "55561 fives", "66612 sixes",
       "12345 ss", "22333 fh", "44441 4k", "66654 3k", "12346 chance"]
BOB = ["11111 aces", "22245 twos", "33345 threes", "44412 fours", "12345 ls",
       "23456 ss", "55566 fh", "11123 3k", "22221 4k", "66666 sixes"]
RECORD = "rules official\nplayers Ann,Bob\n" + "".join(
    f"Ann: {a}\nBob: {b}\n" for a, b in zip(ANN, BOB, strict=True))


def test_a_review_under_each_turns_objective_is_the_cli_json(server, tmp_path):
    params = {"objective": "win", "win_from": "4"}  # the tenth turns: four boxes open
    status, body = post(server, "/api/jobs/analyze", params, RECORD.encode())
    assert status == 200, body
    done = wait_for(server, body["job"]["id"])
    assert done["job"]["state"] == "done"
    path = tmp_path / "game.txt"
    path.write_text(RECORD)
    cli_json = CliRunner().invoke(cli, ["analyze", str(path), "--objective", "win",
                                        "--win-from", "4", "--json"]).stdout
    assert done["result"] == json.loads(cli_json)
    # the blocking twin waits for the same job
    status, same = post(server, "/api/analyze", params, RECORD.encode())
    assert status == 200 and same == done["result"]
    status, body = post(server, "/api/analyze", {"objective": "win"},
                        b"rules official\nAnn: 11123 aces\n")
    assert status == 400 and "two or more players" in body["error"]
