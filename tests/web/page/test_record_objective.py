"""A record opened on the page is judged by its own objective (its first line, ``#
objective: ...``), as ``yahtzee analyze FILE`` judges it, whatever the page was set to:
a game played to win, a game played for a target; on a static site, where neither can
be worked out, the review says so instead of judging the game by expected score."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from advisor.caches import Caches
from advisor.cli import cli
from advisor.objective import Objective
from advisor.play import GameSession
from advisor.play_win import WinEachTurn, objective_comment
from advisor.record import GameRecord
from tests.web.page.test_browser import Table, start_game

WIN_FROM = 2
TARGET = 40
"""Small: a target's review solves the game from its start, in time growing with it."""
TARGET_RECORD = """rules official
players Solo
Solo: 11123 aces
Solo: 22245 twos
Solo: 33312 threes
Solo: 44413 fours
Solo: 55512 fives
Solo: 66612 sixes
Solo: 44426 3k
Solo: 12345 4k
Solo: 22333 fh
Solo: 12345 ls
Solo: 12346 1234 12344 ss
Solo: 66612 66 66655 5 12355 chance
Solo: 11112 1111 11116 yahtzee
"""


def win_record(table) -> str:
    """A two-player game whose players take the advice of ``play --objective win
    --win-from 2`` on seeded dice, as ``play --record`` writes it."""
    rng = random.Random(42)
    session = GameSession(GameRecord("official", ("Ann", "Bob")), table, memory=Caches(),
                          win=WinEachTurn(WIN_FROM))
    while not session.is_over:
        if session.stage == "move":
            session.handle("")
            continue
        current = session.record.current
        n = 5 - len(current.keeps[-1]) if current is not None else 5
        session.handle("".join(str(rng.randint(1, 6)) for _ in range(n)))
    return objective_comment(WinEachTurn(WIN_FROM)) + str(session.record)


def lost(x: float, unit: str, digits: int = 2) -> str:
    return f"{100 * x:.{digits}f} pp" if unit == "probability" else f"{x:.2f}"


def expected_rows(analysis: dict) -> list[list[str]]:
    """The players' table of the page (each part of a player a row) from analyze's JSON."""
    mixed = len({d["unit"] for d in analysis["decisions"]}) > 1
    digits = analysis["loss_decimals"]
    rows = []
    for p in analysis["players"]:
        parts = [(p["name"], str(p["total"]), p, p["unit"])]
        if p.get("by_expected_score"):
            parts.append((f"{p['name']}, turns by expected score", "", p["by_expected_score"],
                          "points"))
        for name, total, part, unit in parts:
            luck = part["luck"] * (100 if unit == "probability" else 1)
            places = digits if unit == "probability" else 2
            luck_text = f"{'+' if luck >= 0 else '−'}{abs(luck):.{places}f}" + (
                " pp" if unit == "probability" else "")
            cells = [lost(part["total_loss"], unit, digits), luck_text]
            if mixed and unit != "probability":
                cells = [f"{c} points" for c in cells]
            rows.append([name, total, str(part["decisions"]), str(part["errors"]), *cells])
    return rows


def review_on_page(table: Table, path) -> list[list[str]]:
    page = table.page
    page.set_input_files("#upload-file", str(path))
    table.settle()
    page.click("#analyze")  # under a probability objective: a background job
    page.wait_for_selector("body[data-busy='0']", state="attached", timeout=300_000)
    assert page.get_attribute("body", "data-phase") == "analysis", page.inner_text("#page-error")
    return [row.locator("td").all_inner_texts()
            for row in page.locator("#analysis-players tbody tr").all()]


def analyze_json(path, *options: str) -> dict:
    result = CliRunner().invoke(cli, ["analyze", str(path), "--json", *options])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def noted(official_table, tmp_path_factory) -> list[tuple[Path, dict, dict]]:
    """(record file, its objective as analyze --json names it, as the page keeps it) of a
    game played to win and of one played for a target."""
    folder = tmp_path_factory.mktemp("noted")
    (folder / "win.txt").write_text(win_record(official_table))
    (folder / "target.txt").write_text(objective_comment(Objective.for_target(TARGET))
                                       + TARGET_RECORD)
    return [(folder / "win.txt", {"kind": "win", "each_turn": True, "win_from": WIN_FROM},
             {"kind": "win", "from": WIN_FROM}),
            (folder / "target.txt", {"kind": "target", "target": TARGET},
             {"kind": "target", "target": TARGET})]


def test_the_server_reads_a_records_objective_as_analyze_does(server, noted):
    """POST /api/record names the record's objective; POST /api/analyze without an
    objective parameter judges by it (``yahtzee analyze -``), with one by that."""
    for path, objective, _ in noted:
        text = path.read_bytes()
        status, answer = server.request("POST", "/api/record", text)
        assert status == 200 and answer["objective"] == objective
        assert answer["objective_line"] == path.read_text().splitlines()[0]
        status, review = server.request("POST", "/api/analyze", text)
        assert status == 200 and review == analyze_json(path)
        status, review = server.request("POST", "/api/analyze?objective=ev", text)
        assert status == 200 and review == analyze_json(path, "--objective", "ev")
    status, answer = server.request("POST", "/api/record", TARGET_RECORD.encode())
    assert status == 200 and (answer["objective"], answer["objective_line"]) == (
        {"kind": "ev"}, "")
    bad = b"# objective: target 300\n" + TARGET_RECORD.encode()
    for where in ("/api/record", "/api/analyze", "/api/jobs/analyze"):
        status, answer = server.request("POST", where, bad)
        assert status == 400 and answer["error"].startswith(
            "the record's first line '# objective: target 300' names no objective"), where


def test_a_win_record_and_a_target_record_are_reviewed_by_their_own_objective(
        server, browser, noted, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    table = Table(page, server.url)
    start_game(table, names=("Cy",))  # a game by expected score on the page first
    for path, objective, state in noted:
        text = path.read_text()
        expected = analyze_json(path)
        assert expected["objective"] == objective
        by_ev = analyze_json(path, "--objective", "ev")
        assert expected_rows(by_ev) != expected_rows(expected)  # the objective matters
        assert review_on_page(table, path) == expected_rows(expected), path.name
        assert table.state()["objective"] == state
        decisions = page.locator("#analysis-decisions tbody tr").count()
        assert decisions == len(expected["decisions"])
        # saved, the record keeps its objective line: analyze judges it the same way
        page.click("#close-analysis")
        table.settle()
        with page.expect_download() as download:
            page.click("#download")
        saved = tmp_path / f"saved-{path.name}"
        saved.write_text(Path(download.value.path()).read_text(encoding="utf-8"))
        assert saved.read_text().splitlines()[0] == text.splitlines()[0]
        assert analyze_json(saved) == expected
    assert table.errors == []
    page.close()


def in_chances(analysis: dict, scale: float, digits: int) -> dict:
    """``analysis`` (by expected points) as a review in probabilities with ``digits``
    decimals of a percentage point would come: every loss and luck times ``scale``."""
    out = json.loads(json.dumps(analysis))
    out["unit"], out["loss_decimals"] = "probability", digits
    for d in [*out["decisions"], *(w for p in out["players"] for w in p["worst"])]:
        d["unit"], d["loss"], d["luck"] = "probability", d["loss"] * scale, d["luck"] * scale
    for p in out["players"]:
        p["unit"] = "probability"
        for key in ("total_loss", "mean_loss", "luck", "keep_loss", "box_loss"):
            p[key] *= scale
    return out


def test_the_review_writes_losses_with_the_decimals_the_server_says(server, browser,
                                                                     tmp_path):
    """A review whose losses are shares of first place among 10,000 (about 0.01 %: its
    ``loss_decimals`` is 4) shows every loss and luck with 4 decimals of a percentage
    point, in the players' table, the worst decisions and every decision, as the
    terminal's review does (2 wrote 0.00 pp for nearly every loss)."""
    bare = tmp_path / "bare.txt"
    bare.write_text(TARGET_RECORD)
    answer = in_chances(analyze_json(bare), 1e-5, 4)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.route("**/api/analyze*", lambda route: route.fulfill(json=answer))
    table = Table(page, server.url)
    start_game(table, names=("Cy",))
    assert review_on_page(table, bare) == expected_rows(answer)
    worst = page.locator("#analysis-worst .loss").all_inner_texts()
    assert worst == [f"costs {100 * d['loss']:.4f} pp" for d in answer["players"][0]["worst"]]
    cells = page.locator("#analysis-decisions tbody td:nth-child(7)").all_text_contents()
    assert cells == [f"{100 * d['loss']:.4f} pp" if d["loss"] > 0 else "0"
                     for d in answer["decisions"]]
    assert any(c not in ("0", "0.0000 pp") for c in cells)
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: each figure one line
    lines = page.eval_on_selector_all("#analysis-players tbody td", """cells => cells.map(
      (c) => { const r = document.createRange(); r.selectNodeContents(c);
               return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size; })""")
    assert lines[1:] == [1] * (len(lines) - 1), lines
    assert table.errors == []
    page.close()
