"""Issue 44 on the served page: the tournament objective (N players who each play alone,
the highest final score winning) beside a target and the win. The server asks and
refuses it as ``yahtzee advise --tournament N`` does (the same JSON, the same message
with HTTP 400); the page offers it in its setup, ranks every choice by the share of first
place as ``advise --tournament N --json`` does, and says what it works out while it
works; the static site says it needs the server."""

from __future__ import annotations

import json
import urllib.parse

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.record import parse_record
from tests.web.page.test_browser import LATE_RECORD, PHONE, Table, percent, whole_page

LATE = str(parse_record(LATE_RECORD).cards()["Solo"])
"""A card with three boxes open (a turn solved from itself in a moment)."""
BAD_PLAYERS = ["0", "1", "100001", "abc", "", "１０"]


@pytest.fixture(scope="module")
def field_known(official_table) -> None:
    """The field's distribution (expected-score play's from a new game) written to this
    run's tables folder before the server's workers need it (computed once, read after)."""
    from solver.stats_file import new_game_stats

    new_game_stats(official_table)


def cli_error(*args: str) -> str:
    """The one line after ``Error:`` of ``yahtzee advise ARGS`` (which must exit 2)."""
    result = CliRunner().invoke(cli, ["advise", *args])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error: "), \
        result.output
    return lines[0].removeprefix("Error: ")


def cli_options(players: int, card: str, dice: str) -> list[dict]:
    """Every option of ``yahtzee advise DICE --card CARD --tournament N --json``."""
    result = CliRunner().invoke(cli, ["advise", dice, "--card", card, "--tournament",
                                      str(players), "--top", "0", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["options"]


@pytest.mark.parametrize("value", BAD_PLAYERS)
def test_bad_players_are_400_with_the_cli_message(server, value):
    message = cli_error("22256", "--tournament", value)
    assert value in message or value == ""
    asked = [("GET", "/api/objective", {"tournament": value}),
             ("GET", "/api/advise", {"dice": "22256", "tournament": value}),
             ("GET", "/api/advise", {"dice": "22256", "card": LATE, "tournament": value}),
             ("POST", "/api/jobs/turn", {"tournament": value}),
             ("POST", "/api/jobs/turn", {"card": LATE, "tournament": value})]
    for method, path, params in asked:
        status, body = server.request(method, f"{path}?{urllib.parse.urlencode(params)}")
        assert (status, body) == (400, {"error": message}), (path, params)


def test_the_server_takes_the_default_field_only(server):
    """The others play for the expected score; observed scores are a file of the command
    line (the server reads no path it is sent); another strategy has no exact figures."""
    for field, value in (("field_scores", "/etc/passwd"), ("field", "heuristic"),
                         ("field", "optimal")):
        for path in ("/api/objective", "/api/advise", "/api/jobs/turn"):
            params = {field: value, "tournament": "10",
                      **({"dice": "22256"} if path == "/api/advise" else {})}
            status, body = server.request("POST" if "jobs" in path else "GET",
                                          f"{path}?{urllib.parse.urlencode(params)}")
            assert status == 400 and body["error"].startswith(f"unknown parameter '{field}'")
    status, body = server.get("/api/advise", {"dice": "22256", "target": "200",
                                              "tournament": "10"})
    assert (status, body) == (400, {"error": cli_error("22256", "--target", "200",
                                                       "--tournament", "10")})


def test_the_objective_described_for_the_page(server):
    status, body = server.get("/api/objective", {"tournament": "10000"})
    assert status == 200 and body == {
        "objective": {"kind": "tournament", "players": 10000, "field": "optimal"},
        "params": {"tournament": "10000"},
        "key": "win_share", "header": "share of 1st",
        "words": "the share of first place among 10,000 players",
        "slow_open_boxes": 6, "solves_from_new_game": True, "loss_decimals": 4}
    status, body = server.get("/api/objective", {"target": "250"})
    assert status == 200 and body["params"] == {"target": "250"}
    assert body["key"] == "p_target" and body["words"] == "the chance of 250 or more"
    status, body = server.get("/api/objective", {})
    assert status == 200 and body["key"] is None and body["params"] == {}
    # a record noted as played in a tournament: the page is told the same
    note = '# objective: {"kind": "tournament", "players": 10, "field": "optimal"}\n'
    status, body = server.request("POST", "/api/record", (note + LATE_RECORD).encode())
    assert status == 200 and body["objective_page"]["params"] == {"tournament": "10"}
    assert body["objective_page"]["words"] == "the share of first place among 10 players"
    status, body = server.request("POST", "/api/record", LATE_RECORD.encode())
    assert status == 200 and body["objective_page"] is None


def test_a_late_turn_is_answered_as_the_cli_answers_it(server, field_known):
    """A late card: the turn's job is done at once (the light lane) and every roll's
    options are the CLI's, whole."""
    status, body = server.request("POST", "/api/jobs/turn?" + urllib.parse.urlencode(
        {"card": LATE, "tournament": "1000"}))
    assert status == 200 and body["job"]["state"] == "done"
    assert body["job"]["what"] == "the share of first place among 1,000 players (3 boxes open)"
    for dice, rolls_left in (("12346", "2"), ("66655", "0")):
        status, answer = server.get("/api/advise", {"dice": dice, "card": LATE, "top": "0",
                                                    "rolls_left": rolls_left,
                                                    "tournament": "1000"})
        assert status == 200
        assert answer["objective"] == {"kind": "tournament", "players": 1000,
                                       "field": "optimal"}
        result = CliRunner().invoke(cli, ["advise", dice, "--card", LATE, "--tournament",
                                          "1000", "--top", "0", "--json", "--rolls-left",
                                          rolls_left])
        assert answer == json.loads(result.stdout)


def start_tournament(table: Table, players: str) -> None:
    page = table.page
    page.evaluate("() => localStorage.clear()")
    page.reload()
    table.settle()
    page.select_option("#objective-select", "tournament")
    assert page.is_visible("#tournament-input") and not page.is_visible("#win-from-field")
    page.fill("#tournament-input", players)
    page.click("#start")
    table.settle()


@pytest.mark.slow
def test_the_page_plays_a_tournament(server, browser, screenshots, tmp_path, field_known):
    """At 390 px: a bad number of players refused with the CLI's message; a new game's
    first turn works out a whole game in the background (the page says so, with its
    progress, and plays on by expected score; stopped here: the whole solve is the
    CLI's tests'); a late card of a record noted as played in a tournament ranks every
    choice by the share of first place, exactly as ``advise --tournament 10 --json``."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    table = Table(page, server.url)
    start_tournament(table, "1")
    assert table.phase == "setup"
    assert page.inner_text("#setup-error") == cli_error("22256", "--tournament", "1")
    page.screenshot(path=str(screenshots / "web-390-tournament-setup.png"), full_page=True)
    assert table.errors == ["Failed to load resource: the server responded with a status of "
                            "400 (Bad Request)"]  # the refusal, and nothing else
    table.errors.clear()
    start_tournament(table, "10")
    assert table.phase == "roll"
    assert table.state()["objective"]["params"] == {"tournament": "10"}
    table.tap_dice([2, 2, 2, 5, 6])
    assert page.inner_text("#advice-title") == "Your choices, by expected final score"
    page.wait_for_selector("body[data-chase='waiting']", state="attached", timeout=60_000)
    status = page.inner_text("#chase-status")
    assert status.startswith("Working out the share of first place among 10 players from a new "
                             "game (once: every later turn then answers at once) ("), status
    assert page.is_visible("#chase-bar") and page.is_visible("#chase-stop")
    assert table.choose(0).startswith(("Keep", "Reroll"))  # play goes on meanwhile
    whole_page(page, screenshots / "web-390-tournament-waiting.png")
    page.click("#chase-stop")
    table.settle()
    assert page.get_attribute("body", "data-chase") == "stopped"
    # a record noted as played in a tournament of 10: its late card
    record = tmp_path / "late.txt"
    record.write_text('# objective: {"kind": "tournament", "players": 10, "field": "optimal"}\n'
                      + LATE_RECORD)
    page.set_input_files("#upload-file", str(record))
    table.settle()
    assert table.state()["cards"]["Solo"] == LATE
    assert table.state()["objective"]["info"]["words"] == \
        "the share of first place among 10 players"
    table.tap_dice([1, 2, 3, 4, 6])
    page.wait_for_selector("body[data-chase='ready']", state="attached", timeout=120_000)
    page.wait_for_selector("#advice.with-chance")
    assert page.inner_text("#advice-title") == \
        "Your choices, best share of first place among 10 players first"
    assert page.inner_text("#advice .options-head .chance") == "share of 1st"
    if page.is_visible("#more-options"):
        page.click("#more-options")
    expected = cli_options(10, LATE, "12346")
    shown = page.locator("#options button.take .chance").all_inner_texts()
    assert shown == [percent(o["win_share"]) for o in expected]
    labels = table.options()
    assert len(labels) == len(expected)
    for label, option in zip(labels, expected, strict=True):
        if option["action"] == "keep":
            assert label == (f"Keep {' '.join(map(str, option['keep']))}" if option["keep"]
                             else "Reroll all")
        else:
            assert label.startswith("Score ") and str(option["points"]) in label
    assert page.inner_text("#chase-status").startswith(
        "Ranked by the share of first place among 10 players")
    whole_page(page, screenshots / "web-390-tournament-late.png")
    # a choice that is not the best: its cost in percentage points of the share
    best = expected[0]
    worse = min(range(len(expected)), key=lambda i: expected[i]["win_share"])
    page.locator("#options button.take").nth(worse).click()
    table.settle()
    lost = 100 * (best["win_share"] - expected[worse]["win_share"])
    note = page.inner_text("#cost-note")
    assert f"costs {lost:.2f} percentage points of the share of first place among 10 " \
           f"players ({percent(best['win_share'])} to " \
           f"{percent(expected[worse]['win_share'])}" in note, note
    assert table.errors == []
    context.close()
