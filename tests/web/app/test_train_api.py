"""The coach's HTTP API against the CLI: ``/api/advise?why=1`` is ``advise --why --json``,
``/api/train/session`` is ``train --json`` with the same answers, ``/api/grade`` is that
session's entry of a position, and every refusal is a 400 with the CLI's message."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from advisor.cli import cli

LATE = "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=0,fh=25,ls=40"


@pytest.fixture(autouse=True)
def _figures(official_moments):
    """The cached figures of the why exist, so the server's worker reads them."""


def cli_json(*args: str, stdin: str = "") -> dict:
    result = CliRunner().invoke(cli, [*args, "--json"], input=stdin)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def cli_error(*args: str, stdin: str = "") -> str:
    result = CliRunner().invoke(cli, [*args, "--json"], input=stdin)
    assert result.exit_code == 2, result.output
    return result.stderr.removeprefix("Error: ").rstrip("\n")


@pytest.mark.parametrize("params", [{"dice": "22256"},
                                    {"dice": "12346", "card": LATE, "rolls_left": "1"},
                                    {"dice": "12346", "card": LATE, "target": "230"}])
def test_advise_why_is_the_cli_json(server, params):
    args = ["advise", params["dice"], "--why", "--top", "0"]
    for key in ("card", "rolls_left", "target"):
        if key in params:
            args += [f"--{key.replace('_', '-')}", params[key]]
    status, body = server.get("/api/advise", {**params, "why": "1", "top": "0"})
    assert status == 200
    assert body == cli_json(*args)
    assert all("outcome" in o for o in body["options"])


def test_a_session_and_each_grade_are_the_cli_json(server):
    status, drawn = server.get("/api/train", {"positions": "5", "seed": "21"})
    assert status == 200 and drawn["seed"] == 21 and len(drawn["positions"]) == 5
    # answers as a player gives them: a choice's own words, or its number in the list
    answers = [p["choices"][-1]["text"] if i % 2 else str(min(2, len(p["choices"])))
               for i, p in enumerate(drawn["positions"])]
    session = cli_json("train", "--seed", "21", "--positions", "5", "--no-history",
                       stdin="".join(f"{a}\n" for a in answers))
    for shown, played in zip(drawn["positions"], session["positions"], strict=True):
        assert {k: shown[k] for k in ("card", "dice", "rolls_left", "source")} == \
            {k: played[k] for k in ("card", "dice", "rolls_left", "source")}
        assert all(set(c) <= {"action", "keep", "box", "points", "bonus", "text"}
                   for c in shown["choices"])  # no figures before the answer
    status, body = server.get("/api/train/session", {"positions": "5", "seed": "21",
                                                     "answers": "|".join(answers)})
    assert status == 200
    assert body == {k: v for k, v in session.items() if k != "history"}
    for position, answer in zip(session["positions"], answers, strict=True):
        status, graded = server.get("/api/grade", {
            "card": position["card"]["text"], "dice": "".join(map(str, position["dice"])),
            "rolls_left": str(position["rolls_left"]), "answer": answer})
        assert status == 200
        assert graded == {**position, "source": {}}
    fresh = [server.get("/api/train", {"positions": "1"})[1]["seed"] for _ in range(3)]
    assert len(set(fresh)) > 1  # no seed: a fresh one each time


@pytest.mark.parametrize("path, params, cli_args", [
    ("/api/train", {"positions": "0"}, ["train", "--positions", "0"]),
    ("/api/train", {"positions": "x"}, ["train", "--positions", "x"]),
    ("/api/train", {"seed": "-3"}, ["train", "--seed", "-3"]),
    ("/api/train", {"target": "abc"}, ["train", "--target", "abc"]),
    ("/api/grade", {"dice": "22256", "answer": "keep 7"}, None),
    ("/api/grade", {"dice": "2225", "answer": "1"}, ["advise", "2225"]),
    ("/api/grade", {"dice": "22256", "answer": "99"}, None),
    ("/api/grade", {"dice": "22256"}, None),
    ("/api/advise", {"dice": "22256", "why": "maybe"}, None),
    ("/api/train/session", {"positions": "2", "answers": "1"}, None),
    ("/api/train/session", {"positions": "1", "seed": "3", "answers": "1|2"}, None),
    ("/api/train/session", {"positions": "1", "seed": "3", "answers": "keep 9"}, None),
    ("/api/train", {"player": "Ann"}, None),
])
def test_refusals_are_400_with_the_cli_message(server, path, params, cli_args):
    status, body = server.get(path, params)
    assert status == 400, body
    assert set(body) == {"error"} and body["error"]
    if cli_args is not None:
        assert body["error"] == cli_error(*cli_args)
