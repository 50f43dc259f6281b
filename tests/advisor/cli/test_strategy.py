"""`yahtzee strategy`: a sheet with the best action for each of the 252 rolls."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.model import Dice, Scorecard
from advisor.ranking import advise

CARD = "yahtzee=50,fives=15,chance=22"


@pytest.fixture(autouse=True)
def _tables(official_table):
    """The cached official table exists, so no command builds one."""


def run(*args: str):
    return CliRunner().invoke(cli, ["strategy", *args])


def test_markdown_sheet_has_a_row_per_roll_and_a_column_per_rolls_left():
    result = run("--card", CARD)
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if line.startswith("| ")]
    assert len(rows) == 1 + 252
    assert rows[0].count("|") == 5 and "rolls left: 2" in rows[0]
    assert rows[1].startswith("| 1 1 1 1 1 | score Aces 5 +100 bonus")
    sixes = next(r for r in rows if r.startswith("| 6 6 6 6 6 |"))
    assert sixes.count("score Sixes 30 +100 bonus") == 3
    assert "fives=15" in result.stdout and "turn 4 of 13" in result.stdout


def test_csv_matches_advise(official_table):
    result = run("--card", CARD, "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 252 * 3
    assert list(rows[0]) == ["dice", "rolls_left", "action", "keep", "box", "points", "bonus",
                             "expected_final", "runner_up", "runner_up_loss"]
    card = Scorecard.parse(CARD)
    for row in rows:
        best = advise(card, Dice(row["dice"]), rolls_left=int(row["rolls_left"]),
                      table=official_table).best
        assert row["action"] == best.action
        assert float(row["expected_final"]) == pytest.approx(best.expected_final, abs=1e-6)
        if best.is_keep:
            assert row["keep"] == "".join(map(str, best.keep.faces)) and row["box"] == ""
        else:
            assert row["box"] == best.box and int(row["points"]) == best.points
            assert int(row["bonus"]) == best.bonus


def test_one_number_of_rolls_left():
    result = run("--rolls-left", "0", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 252 and {r["rolls_left"] for r in rows} == {"0"}
    assert {r["action"] for r in rows} == {"score"}
    result = run("--rolls-left", "1")
    header = next(line for line in result.stdout.splitlines() if line.startswith("| dice"))
    assert header.count("|") == 3 and "rolls left: 1" in header


def test_two_rolls_rule_set(table_of):
    table_of("two-rolls")
    result = run("--rules", "two-rolls", "--format", "csv")
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 1 + 252 * 2


@pytest.mark.parametrize("args, message", [
    (["--card", "twos=7"], "twos=7 cannot occur"),
    (["--card", "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=0,fh=25,ss=30,"
               "ls=40,yahtzee=50,chance=22"], "scorecard is full"),
    (["--rolls-left", "3"], "outside 0..2"),
    (["--format", "pdf"], "--format"),
])
def test_bad_input(args, message):
    result = run(*args)
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]


def test_json_and_out_with_the_runner_up(tmp_path):
    import json

    from advisor.ranking import advise

    result = run("--card", CARD, "--json", "--rolls-left", "1")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= {"rules", "card", "objective", "rows"} and len(data["rows"]) == 252
    card = Scorecard.parse(CARD)
    for row in data["rows"][::41]:
        advice = advise(card, Dice(row["dice"]), rolls_left=1)
        assert row["best"] == advice.best.to_json()
        assert row["runner_up"] == advice.options[1].to_json()
        assert row["runner_up"]["loss"] >= 0
    out = tmp_path / "sheet.md"
    written = run("--card", CARD, "--out", str(out))
    assert written.exit_code == 0 and written.stdout == ""
    assert out.read_text() == run("--card", CARD).stdout
    assert "; next " in out.read_text()
    refused = run("--card", CARD, "--out", str(tmp_path))
    assert refused.exit_code == 2 and "it is a folder, which is never replaced" in refused.stderr


LATE_CARD = ("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,"
             "ls=40,yahtzee=0")


def yahtzee(*args: str):
    """Any ``yahtzee`` command line (``run`` is ``yahtzee strategy``)."""
    return CliRunner().invoke(cli, list(args))


def test_strategy_out_never_replaces_a_record_unasked(tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    record.write_text("players Ann\nAnn: 22256 twos\n")
    result = yahtzee("strategy", "--card", LATE_CARD, "--out", str(record))
    assert result.exit_code == 2 and "--force" in result.stderr
    assert record.read_text() == "players Ann\nAnn: 22256 twos\n"
    for fmt in (["--format", "md"], ["--format", "csv"], ["--json"]):
        sheet = tmp_path / f"sheet{fmt[-1]}"
        assert yahtzee("strategy", "--card", LATE_CARD, *fmt, "--out", str(sheet)).exit_code == 0
        assert yahtzee("strategy", "--card", LATE_CARD, *fmt, "--out", str(sheet)).exit_code == 0
    assert yahtzee("strategy", "--card", LATE_CARD, "--out", str(record), "--force").exit_code == 0
    assert record.read_text().startswith("# Strategy sheet:")
