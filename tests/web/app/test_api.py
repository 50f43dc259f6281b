"""The HTTP API against the CLI: the same JSON for the same question, the CLI's message
in every refusal (HTTP 400), oversized bodies refused, nothing served outside static/."""

from __future__ import annotations

import http.client
import json
import urllib.parse

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.request.params import PARAMS

FLAGS = {name: param.option_name for name, param in PARAMS.items()}
LATE = "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=0,fh=25,ls=40"


def cli_run(command: str, params: dict[str, str]) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``yahtzee COMMAND --json`` with ``params`` as options."""
    args = [command, "--json"]
    for key, value in params.items():
        args += [FLAGS[key], value]
    result = CliRunner().invoke(cli, args)
    return result.exit_code, result.stdout, result.stderr


ADVISE_QUESTIONS = [
    {"dice": "22256"},
    {"dice": "2,2,2,5,6", "rolls_left": "0"},
    {"dice": "6 6 6 6 6", "card": "sixes=24,yahtzee=50", "rolls_left": "1"},
    {"dice": "66666", "card": "sixes=24,yahtzee=50,fh=25,ss=30,ls=40", "rolls_left": "0"},
    {"dice": "13456", "card": "twos=6,fours=12,yahtzee=50,ss=30,yahtzee_bonus=1", "top": "0"},
    {"dice": "11111", "card": "yahtzee=0", "top": "3"},
    {"dice": "12345", "rules": "yatzy", "card": "ones=2,one_pair=12"},
    {"dice": "55555", "rules": "two-rolls", "rolls_left": "1"},
    {"dice": "12346", "card": LATE, "target": "230", "top": "0"},
    {"dice": "12346", "card": LATE, "beat": "229", "rolls_left": "1"},
    {"dice": "66662", "card": LATE, "opponent": LATE.replace("ls=40", "ls=40,ss=30")},
]


@pytest.mark.parametrize("params", ADVISE_QUESTIONS, ids=lambda p: "&".join(p.values()))
def test_advise_is_the_cli_json(server, table_of, params):
    table_of(params.get("rules", "official"))
    code, out, err = cli_run("advise", params)
    assert code == 0, err
    status, body = server.get("/api/advise", params)
    assert status == 200
    assert body == json.loads(out)


ADVISE_REFUSED = [
    {},                                              # missing --dice
    {"dice": "2225"},                                # four dice
    {"dice": "222567"},                              # six dice
    {"dice": "22257"},                               # a 7
    {"dice": "abcde"},
    {"dice": ""},
    {"dice": "22256", "rolls_left": "3"},
    {"dice": "22256", "rolls_left": "-1"},
    {"dice": "22256", "rolls_left": "x"},
    {"dice": "22256", "rolls_left": ""},
    {"dice": "22256", "top": "-1"},
    {"dice": "22256", "top": "many"},
    {"dice": "22256", "rules": "nope"},
    {"dice": "22256", "card": "twos=7"},
    {"dice": "22256", "card": "twos"},
    {"dice": "22256", "card": "foo=1"},
    {"dice": "22256", "card": "twos=6,twos=8"},
    {"dice": "22256", "card": "yahtzee_bonus=1"},
    {"dice": "22256", "card": "yahtzee_bonus=1,yahtzee=50"},
    {"dice": "22256", "card": "ss=30", "rules": "yatzy"},
    {"dice": "22256", "rules": "two-rolls", "rolls_left": "2"},
    {"dice": "22256", "target": "abc"},
    {"dice": "22256", "target": "250", "beat": "249"},
    {"dice": "22256", "opponent": "twos=7"},
    {"dice": "22256", "beat": "-5"},
    {"dice": "22256", "card": "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=0,"
                              "fh=25,ss=30,ls=40,yahtzee=50,chance=22"},   # full card
]


@pytest.mark.parametrize("params", ADVISE_REFUSED, ids=lambda p: "&".join(p.values()) or "none")
def test_advise_refusals_carry_the_cli_message(server, params):
    code, _, err = cli_run("advise", params)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), err
    status, body = server.get("/api/advise", params)
    assert status == 400
    assert body == {"error": lines[0].removeprefix("Error: ")}


def test_unknown_and_dangerous_parameters_are_refused(server):
    for extra in ({"table": "/etc/passwd"}, {"json": "1"}, {"colour": "red"}):
        status, body = server.get("/api/advise", {"dice": "22256", **extra})
        assert status == 400
        assert body["error"].startswith(f"unknown parameter {next(iter(extra))!r}")


def test_card_place_and_rules(server):
    status, card = server.get("/api/card", {"card": "twos=6,fours=12,yahtzee=50"})
    assert status == 200
    assert card["total"] == 68 and card["upper_subtotal"] == 18 and card["upper_needed"] == 45
    assert "twos" not in card["open"] and "aces" in card["open"] and card["turn"] == 4
    status, placed = server.get("/api/place", {"card": "yahtzee=50,fours=12", "dice": "44444",
                                               "box": "4k"})
    assert status == 200  # a Joker: fours filled, so any lower box; +100 bonus
    assert placed["entries"]["four_of_a_kind"] == 20 and placed["yahtzee_bonus"] == 1
    assert placed["total"] == 50 + 12 + 20 + 100
    status, body = server.get("/api/place", {"card": "yahtzee=50", "dice": "44444",
                                             "box": "chance"})
    assert status == 400 and "Joker rule forbids chance" in body["error"]
    status, body = server.get("/api/place", {"card": "twos=6", "dice": "22222", "box": "2s"})
    assert status == 400 and "already filled" in body["error"]
    status, rules = server.get("/api/rules", {"rules": "yatzy"})
    assert status == 200 and len(rules["boxes"]) == 15 and rules["upper_bonus"] == 50
    assert {r["name"] for r in rules["rule_sets"]} >= {"official", "yatzy"}


def test_distribution_of_a_late_card_matches_the_table(server, official_table):
    card = ("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=0,fh=25,ss=30,"
            "ls=40")
    status, body = server.get("/api/distribution", {"card": card})
    assert status == 200
    dist = {int(x): p for x, p in body["distribution"].items()}
    total = body["card"]["total"]
    assert total == 63 + 35 + 115
    assert min(dist) >= total
    assert sum(dist.values()) == pytest.approx(1.0, abs=1e-12)
    mean = sum(x * p for x, p in dist.items())
    expected = total + official_table.value(0b0011111111111, 63, 0)
    assert mean == pytest.approx(expected, abs=1e-9)
    assert body["expected_final"] == pytest.approx(expected, abs=1e-9)
    reach = {int(x): p for x, p in body["p_reach"].items()}
    for x in dist:
        assert reach[x] == pytest.approx(sum(p for y, p in dist.items() if y >= x), abs=1e-12)


def test_distribution_of_a_full_card(server):
    card = ("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=0,fh=25,ss=30,ls=40,"
            "yahtzee=50,chance=22")
    status, body = server.get("/api/distribution", {"card": card})
    assert status == 200
    assert body["distribution"] == {"285": 1.0} and body["expected_final"] == 285


@pytest.mark.slow
def test_stats_is_the_cli_json(server):
    code, out, err = cli_run("stats", {})
    assert code == 0, err
    status, body = server.get("/api/stats")
    assert status == 200
    expected = json.loads(out)
    # `seconds` is the wall time of the computation: the one thing that may differ.
    assert body.pop("seconds") > 0 and expected.pop("seconds") > 0
    assert body == expected


@pytest.mark.parametrize("params", [{"card": LATE}, {"card": LATE, "target": "235"},
                                    {"card": LATE, "rules": "official", "target": "10"}],
                         ids=["card", "target", "reached"])
def test_stats_from_a_card_is_the_cli_json(server, params):
    code, out, err = cli_run("stats", params)
    assert code == 0, err
    status, body = server.get("/api/stats", params)
    assert status == 200
    expected = json.loads(out)
    assert body.pop("seconds") >= 0 and expected.pop("seconds") >= 0
    assert body == expected


@pytest.mark.parametrize("params", [{"card": "twos=7"}, {"target": "x"},
                                    {"card": LATE + ",ss=30,yahtzee=50,chance=20"}],
                         ids=["card", "target", "full"])
def test_stats_refusals_carry_the_cli_message(server, params):
    code, _, err = cli_run("stats", params)
    assert code == 2
    status, body = server.get("/api/stats", params)
    assert (status, body) == (400, {"error": err.strip().removeprefix("Error: ")})


def test_stats_refusals(server):
    code, _, err = cli_run("stats", {"rules": "nope"})
    status, body = server.get("/api/stats", {"rules": "nope"})
    assert code == 2 and status == 400
    assert body == {"error": err.strip().removeprefix("Error: ")}
    status, body = server.get("/api/stats", {"table": "x"})
    assert status == 400 and body["error"].startswith("unknown parameter 'table'")


def test_body_over_the_limit_is_refused(server):
    from advisor.web.app import MAX_BODY

    status, body = server.request("POST", "/api/advise", b"x" * (MAX_BODY + 1),
                                  {"Content-Type": "text/plain"})
    assert status == 413 and "limit" in body["error"]
    # streamed without a length: refused too, and the server keeps serving
    host, port = urllib.parse.urlsplit(server.url).netloc.split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.putrequest("POST", "/api/advise")
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    chunk = b"y" * 65536
    try:
        for _ in range(MAX_BODY // len(chunk) + 2):
            conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        conn.send(b"0\r\n\r\n")
        response = conn.getresponse()
        assert response.status in (405, 413)
    except (BrokenPipeError, ConnectionResetError):
        pass
    finally:
        conn.close()
    assert server.get("/api/advise", {"dice": "22256"})[0] == 200


@pytest.mark.parametrize("path", [
    "/static/../app.py", "/static/..%2fapp.py", "/static/%2e%2e/app.py",
    "/static/..%2f..%2fcli%2fserve.py", "/static//etc/passwd", "/static/%2fetc%2fpasswd",
    "/../advisor/web/app.py", "/static/....//app.py", "/static/..\\app.py",
])
def test_nothing_outside_static_is_served(server, path):
    host, port = urllib.parse.urlsplit(server.url).netloc.split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.request("GET", path)  # sent as is, not normalised by a client
    response = conn.getresponse()
    body = response.read()
    conn.close()
    assert response.status in (400, 404)
    assert b"def create_app" not in body and b"root:" not in body and b"import" not in body


def test_page_and_static_files(server):
    status, page = server.request("GET", "/")
    assert status == 200 and "<title>Yahtzee advisor</title>" in page
    for name in ("app.js", "charts.js", "percent.js", "practice.js", "style.css", "favicon.svg"):
        assert server.request("GET", f"/static/{name}")[0] == 200


def test_unknown_api_path_and_method(server):
    status, body = server.get("/api/nothing")
    assert status == 404 and "error" in body
    status, body = server.request("POST", "/api/advise", b"")
    assert status == 405 and "error" in body


def test_host_header_must_be_local(server):
    host, port = urllib.parse.urlsplit(server.url).netloc.split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.request("GET", "/api/rules", headers={"Host": "evil.example"})
    response = conn.getresponse()
    response.read()
    conn.close()
    assert response.status == 400


def test_a_missing_table_is_built_while_the_server_keeps_answering(server):
    import threading
    import time

    from solver.table import default_table_path

    rules = "no-bonus"
    if default_table_path(rules).exists():
        pytest.skip(f"the {rules} table was built by an earlier test")
    answers = {}
    slow = threading.Thread(target=lambda: answers.setdefault(
        "advise", server.get("/api/advise", {"dice": "22256", "rules": rules})))
    slow.start()
    building = ("build_table", rules)
    try:
        deadline = time.monotonic() + 120
        while building not in server.stats._running and time.monotonic() < deadline:
            time.sleep(0.01)
        assert building in server.stats._running
        status, card = server.get("/api/card", {"card": "twos=6"})
        # answered while the build is still under way in the worker
        assert status == 200 and card["total"] == 6
        assert building in server.stats._running and not default_table_path(rules).exists()
    finally:
        slow.join(300)
    status, body = answers["advise"]
    code, out, _ = cli_run("advise", {"dice": "22256", "rules": rules})
    assert status == 200 and code == 0 and body == json.loads(out)


RECORD = """rules official
players Ann,Bob
Ann: 22256 222 22234 2223 22235 twos
Bob: 12345 large_straight
Ann: 44666 666 13666 - 23456 large_straight
Bob: 55555 yahtzee
Ann: 11236 -
"""

BAD_RECORDS = [
    RECORD + "Bob: 22256 222 13456 twos\n",                          # kept dice not in roll
    RECORD + "Bob: 22256 222 22234 2223 22235 22 22222 twos\n",      # too many rolls
    RECORD.replace("Ann: 11236 -\n", "Ann: 22222 twos\n"),           # box already filled
    RECORD.replace("Ann: 11236 -\n", "Ann: 11111 3k\nBob: 55555 chance\n"),  # Joker: fives
    RECORD + "Cy: 12345 chance\n",                                   # unknown player
    RECORD.replace("Ann: 11236 -\n", "Ann: 12345 straight\n"),       # unknown box
    "players Ann,Ann\n",
    "rules nope\n",
    '{"rules": "official", "players": ["Ann"], "turns": [{"player": "Ann"}]}',
    "{not json",
]


def cli_analyze(body: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["analyze", "-", "--json"], input=body)
    return result.exit_code, result.stdout, result.stderr


def test_analyze_is_the_cli_json(server):
    from advisor.record import parse_record

    code, out, err = cli_analyze(RECORD)
    assert code == 0, err
    expected = json.loads(out)
    assert expected["decisions"] and {p["name"] for p in expected["players"]} == {"Ann", "Bob"}
    status, body = server.request("POST", "/api/analyze", RECORD.encode())
    assert status == 200 and body == expected
    as_json = json.dumps(parse_record(RECORD).to_json()).encode()
    status, body = server.request("POST", "/api/analyze", as_json,
                                  {"Content-Type": "application/json"})
    assert status == 200 and body == expected


@pytest.mark.parametrize("record", BAD_RECORDS, ids=range(len(BAD_RECORDS)))
def test_bad_records_carry_the_cli_message(server, record):
    code, _, err = cli_analyze(record)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("Error: "), err
    message = lines[0].removeprefix("Error: ")
    for path in ("/api/analyze", "/api/record"):
        status, body = server.request("POST", path, record.encode())
        assert (status, body) == (400, {"error": message})


def test_record_endpoint_checks_and_describes_a_game(server):
    from advisor.record import parse_record

    status, body = server.request("POST", "/api/record", RECORD.encode())
    assert status == 200
    record = parse_record(RECORD)
    assert body["record"] == record.to_json() and body["text"] == str(record)
    assert body["finished"] is False
    assert body["cards"]["Ann"]["text"] == "twos=6,large_straight=40"
    assert body["cards"]["Ann"]["total"] == 46
    assert body["cards"]["Bob"]["total"] == 90
    assert body["record"]["turns"][-1] == {"player": "Ann", "rolls": ["11236"], "keeps": ["-"],
                                           "box": None}


def test_record_bodies_that_are_not_records(server):
    status, body = server.request("POST", "/api/record", b"\xff\xfe rules official")
    assert status == 400 and body["error"].startswith("the record is not UTF-8 text")
    status, body = server.request("POST", "/api/analyze?json=1", RECORD.encode())
    assert status == 400 and body["error"] == ("unknown parameter 'json'; accepted: "
                                               "objective, win_from, target, beat, opponent")
    status, body = server.get("/api/analyze")
    assert status == 405


# ---------------------------------------------------------------------- every rule set
RULE_SETS = ("official", "free-joker", "no-bonus", "two-rolls", "yatzy")


def late_card(rules: str, open_boxes: int = 3, dice: str = "22256") -> str:
    """A card of ``rules`` with all but the last ``open_boxes`` boxes filled by ``dice``."""
    from advisor.model import Dice, Scorecard

    card = Scorecard.new(rules)
    for b in range(card.rules.n_boxes - open_boxes):
        card = card.place(Dice(dice), b)
    return str(card)


def rules_questions(rules: str) -> list[dict[str, str]]:
    """Advise questions of ``rules`` that use every parameter of /api/advise."""
    from advisor.model import Scorecard

    card = late_card(rules)
    total = Scorecard.parse(card, rules).total
    last = str(Scorecard.parse(card, rules).rules.rolls_per_turn - 1)
    return [{"dice": "22256", "rules": rules},
            {"dice": "2 2 2 5 6", "rules": rules, "card": card, "rolls_left": "0"},
            {"dice": "6,6,6,6,6", "rules": rules, "card": card, "rolls_left": last, "top": "0"},
            {"dice": "12346", "rules": rules.upper(), "card": card, "target": str(total + 25)},
            {"dice": "12346", "rules": rules, "card": card, "beat": str(total + 20),
             "rolls_left": "1", "top": "3"},
            {"dice": "66662", "rules": rules, "card": card, "top": "2",
             "opponent": late_card(rules, 2, "33345")}]


def test_every_query_parameter_is_a_cli_option_of_the_twin():
    from advisor.cli.advise import advise
    from advisor.cli.analyze import analyze
    from advisor.cli.stats import stats
    from advisor.request.advise_question import AdviseQuestion
    from advisor.request.analyze_question import AnalyzeQuestion
    from advisor.request.stats_question import StatsQuestion

    for command, names in ((advise, AdviseQuestion.PARAMS), (stats, StatsQuestion.PARAMS),
                           (analyze, AnalyzeQuestion.PARAMS)):
        options = {opt for param in command.params for opt in param.opts}
        assert {PARAMS[name].option_name for name in names} <= options


@pytest.mark.parametrize("rules", RULE_SETS)
def test_advise_of_every_rule_set_is_the_cli_json(server, table_of, rules):
    table_of(rules)
    questions = rules_questions(rules)
    assert {key for q in questions for key in q} == {
        "dice", "rules", "card", "rolls_left", "top", "target", "beat", "opponent"}
    for params in questions:
        code, out, err = cli_run("advise", params)
        assert code == 0, (params, err)
        assert server.get("/api/advise", params) == (200, json.loads(out)), params


def refused_questions(rules: str) -> list[dict[str, str]]:
    """Requests of ``rules`` with one bad parameter each (or two that exclude each other)."""
    from solver.game.rules import get_rules

    full = late_card(rules, 0)
    per_turn = get_rules(rules).rolls_per_turn
    base = {"dice": "22256", "rules": rules}
    return [{"rules": rules}, {**base, "dice": "2225"}, {**base, "dice": "2,,2,2,5"},
            {**base, "rolls_left": str(per_turn)}, {**base, "rolls_left": "x"},
            {**base, "top": "-1"}, {**base, "card": "twos=7"}, {**base, "card": full},
            {**base, "card": "nope=3"}, {**base, "target": "abc"}, {**base, "beat": "-5"},
            {**base, "opponent": "twos=7"}, {**base, "target": "300", "opponent": ""},
            {**base, "rules": rules + "x" * 100}]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_refusals_of_every_rule_set_carry_the_cli_message(server, rules):
    for params in refused_questions(rules):
        code, _, err = cli_run("advise", params)
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1 and lines[0].startswith("Error: "), (params, err)
        assert server.get("/api/advise", params) == (
            400, {"error": lines[0].removeprefix("Error: ")}), params
    for params in ({"rules": rules, "card": late_card(rules, 0)},
                   {"rules": rules, "target": "-3"}, {"rules": rules, "card": "twos=7"}):
        code, _, err = cli_run("stats", params)
        assert code == 2
        assert server.get("/api/stats", params) == (
            400, {"error": err.strip().removeprefix("Error: ")}), params


@pytest.mark.parametrize("rules", RULE_SETS)
def test_stats_and_analyze_of_every_rule_set_are_the_cli_json(server, table_of, rules):
    table_of(rules)
    card = late_card(rules)
    for params in ({"rules": rules, "card": card}, {"rules": rules, "card": card,
                                                    "target": "100"}):
        code, out, err = cli_run("stats", params)
        assert code == 0, err
        status, body = server.get("/api/stats", params)
        expected = json.loads(out)
        assert status == 200 and body.pop("seconds") >= 0 and expected.pop("seconds") >= 0
        assert body == expected
    record = (f"rules {rules}\nplayers Ann,Bob\nAnn: 22256 222 22234 twos\n"
              f"Bob: 12345 chance\nAnn: 66666 -\n")
    code, out, err = cli_analyze(record)
    assert code == 0, err
    assert server.request("POST", "/api/analyze", record.encode()) == (200, json.loads(out))


@pytest.mark.parametrize("rules", RULE_SETS)
def test_the_pages_own_answers_of_every_rule_set(server, table_of, rules):
    """/api/card and /api/place show a card as `advise --json` does; /api/rules names the
    boxes `yahtzee rules` names; /api/distribution has the mean of `stats --json`."""
    table_of(rules)
    card = late_card(rules)
    _, out, _ = cli_run("advise", {"dice": "22256", "rules": rules, "card": card})
    shown = json.loads(out)["card"]
    status, body = server.get("/api/card", {"card": card, "rules": rules})
    assert status == 200 and {k: body[k] for k in shown} == shown and body["rules"] == rules
    assert body["turn"] == shown["entries"].__len__() + 1 and len(body["open"]) == 3
    placed = json.loads(cli_run("advise", {"dice": "22256", "rules": rules,
                                           "card": late_card(rules, 2)})[1])["card"]
    box = body["open"][0]
    status, after = server.get("/api/place", {"card": card, "dice": "22256", "box": box,
                                              "rules": rules})
    assert status == 200 and {k: after[k] for k in placed} == placed
    text = CliRunner().invoke(cli, ["rules", rules]).stdout
    status, described = server.get("/api/rules", {"rules": rules})
    assert status == 200 and described["name"] == rules
    assert [line.split()[:2] for line in text.splitlines() if line.startswith("  ")
            and len(line.split()) > 1 and line.split()[0] in {b["name"] for b in
                                                           described["boxes"]}] == [
        [b["name"], min(b["aliases"], key=len)] for b in described["boxes"]]
    _, out, _ = cli_run("stats", {"rules": rules, "card": card})
    status, dist = server.get("/api/distribution", {"card": card, "rules": rules})
    assert status == 200
    assert dist["expected_final"] == pytest.approx(json.loads(out)["mean"], abs=1e-9)
    record = f"rules {rules}\nAnn: 22256 twos\n"
    status, body = server.request("POST", "/api/record", record.encode())
    assert status == 200 and body["cards"]["Ann"]["entries"] == {"twos": 6}


@pytest.mark.parametrize("path", ["/api/advise?dice=22256", "/api/stats", "/api/card",
                                  "/api/place?dice=22256&box=twos", "/api/rules",
                                  "/api/distribution"])
def test_every_get_endpoint_refuses_unknown_parameters(server, path):
    for extra in ("table=x", "json=1", "as_json=1", "card_text=twos%3D6"):
        status, body = server.get(f"{path}{'&' if '?' in path else '?'}{extra}")
        assert status == 400 and body["error"].startswith(
            f"unknown parameter {extra.split('=')[0]!r}"), (path, extra)
