"""`yahtzee advise`: ranked text, JSON per docs/json.md, and one-line errors on bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.record_file import read_record
from tests.cli_checks import one_error_line, run_cli

FULL_CARD = ("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=0,fh=25,ss=30,"
             "ls=40,yahtzee=50,chance=22")


@pytest.fixture(autouse=True)
def _tables(official_table):
    """The cached official table exists, so no command builds one (and no note is printed)."""


def run(*args: str):
    return CliRunner().invoke(cli, ["advise", *args])


def run_json(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_text_is_a_ranked_table_with_rolls_left_shown():
    result = run("--dice", "2 2 2 5 6")
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert "dice 2 2 2 5 6" in lines[1] and "ROLLS LEFT: 2" in lines[1]
    header = next(i for i, line in enumerate(lines) if "expected final" in line)
    first = lines[header + 1].split()
    assert first[:5] == ["1", "keep", "2", "2", "2"] and first[-1] == "0.00"
    assert len([line for line in lines if line[:3].strip().isdigit()]) == 10
    assert lines[-1] == "best: keep 2 2 2"


def test_text_score_lines_use_box_labels():
    out = run("--dice", "22256", "--rolls-left", "0", "--top", "0").stdout
    assert "score Twos 6" in out and "score Three of a Kind 17" in out
    assert "score Full House 0" in out and "ROLLS LEFT: 0" in out and "keep" not in out


def test_json_keys_and_options():
    data = run_json("--dice", "22256", "--card", "fours=12,yahtzee=50", "--rolls-left", "1",
                    "--top", "0")
    assert set(data) >= {"rules", "dice", "rolls_left", "card", "options"}
    assert data["rules"] == "official" and data["dice"] == [2, 2, 2, 5, 6]
    assert data["rolls_left"] == 1 and data["card"]["total"] == 62
    options = data["options"]
    assert len(options) == 15 + 11
    finals = [o["expected_final"] for o in options]
    assert finals == sorted(finals, reverse=True) and options[0]["loss"] == 0
    keep = next(o for o in options if o["action"] == "keep")
    assert set(keep) == {"action", "keep", "expected_final", "loss"}
    score = next(o for o in options if o["action"] == "score")
    assert set(score) == {"action", "box", "points", "bonus", "expected_final", "loss"}
    twos = next(o for o in options if o.get("box") == "twos")
    assert twos["points"] == 6 and twos["bonus"] == 0


def test_json_forced_joker():
    data = run_json("--dice", "55555", "--card", "yahtzee=50,fives=15", "--rolls-left", "0")
    assert {o["box"] for o in data["options"]} == {
        "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight",
        "chance"}
    best = data["options"][0]
    assert (best["box"], best["points"], best["bonus"]) == ("large_straight", 40, 100)
    data = run_json("--dice", "55555", "--card", "yahtzee=50", "--rolls-left", "0")
    assert [(o["box"], o["points"], o["bonus"]) for o in data["options"]] == [("fives", 25, 100)]


def test_top_limits_the_options():
    assert len(run_json("--dice", "12345", "--top", "3")["options"]) == 3
    assert run("--dice", "12345", "--top", "3").stdout.count("\n  ") >= 3


def test_other_rules_and_table_option(table_of, tables_dir):
    table_of("two-rolls")
    data = run_json("--dice", "12345", "--rules", "two-rolls", "--table",
                    f"{tables_dir}/two-rolls.ytable")
    assert data["rules"] == "two-rolls" and data["rolls_left"] == 1


BAD_INPUT = [
    (["--dice", "2225"], "4 dice given"),
    (["--dice", "222566"], "6 dice given"),
    (["--dice", "22250"], "'0' is not a face"),
    (["--dice", "22257"], "'7' is not a face"),
    (["--dice", "abcde"], "'a' is not a face"),
    (["--dice", "22256", "--card", "twos:6"], "box=points"),
    (["--dice", "22256", "--card", "twos=6,,fours"], "box=points"),
    (["--dice", "22256", "--card", "tens=6"], "unknown box 'tens'"),
    (["--dice", "22256", "--card", "twos=6,2s=4"], "given twice"),
    (["--dice", "22256", "--card", "twos=7"], "twos=7 cannot occur"),
    (["--dice", "22256", "--card", "full_house=20"], "full_house=20 cannot occur"),
    (["--dice", "22256", "--card", "yahtzee=30"], "yahtzee=30 cannot occur"),
    (["--dice", "22256", "--card", "sixes=36"], "sixes=36 cannot occur"),
    (["--dice", "22256", "--card", "twos=6,yahtzee_bonus=1"], "needs 50"),
    (["--dice", "22256", "--card", FULL_CARD], "scorecard is full"),
    (["--dice", "22256", "--rolls-left", "3"], "outside 0..2"),
    (["--dice", "22256", "--rolls-left", "-1"], "outside 0..2"),
    (["--dice", "22256", "--rolls-left", "2", "--rules", "two-rolls"], "outside 0..1"),
    (["--dice", "22256", "--rolls-left", "two"], "not a valid integer"),
    (["--dice", "22256", "--top", "-1"], "--top"),
    (["--dice", "22256", "--rules", "poker"], "--rules"),
    (["--card", "twos=6"], "--dice"),
]


@pytest.mark.parametrize("args, message", BAD_INPUT)
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and message in lines[0]
    assert "Traceback" not in result.output


def test_missing_and_corrupt_table(tmp_path):
    result = run("--dice", "22256", "--table", str(tmp_path / "none.ytable"))
    assert result.exit_code == 2 and "no table for rules 'official'" in result.stderr
    bad = tmp_path / "bad.ytable"
    bad.write_bytes(b'{"format": "yahtzee-table"}\n' + b"\0" * 64)
    result = run("--dice", "22256", "--table", str(bad))
    assert result.exit_code == 2 and "unusable" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_help_needs_no_numba():
    code = ("import sys; from advisor.cli import cli; "
            "sys.exit(1 if 'numba' in sys.modules or 'solver.table' in sys.modules else 0)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
    result = run("--help")
    assert result.exit_code == 0 and "--rolls-left" in result.stdout


def yahtzee(*args: str):
    """Any ``yahtzee`` command line (``run`` is ``yahtzee advise``)."""
    return CliRunner().invoke(cli, list(args))


def test_dice_as_the_argument_equal_dice_option():
    assert yahtzee("advise", "22256", "--json").stdout == yahtzee("advise", "--dice", "22256",
                                                          "--json").stdout
    both = yahtzee("advise", "22256", "--dice", "22256")
    assert both.exit_code == 2 and "give the dice once" in both.stderr
    none = yahtzee("advise")
    assert none.exit_code == 2 and "give the dice" in none.stderr


def test_advise_in_a_recorded_game_and_append(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("players Ann,Bob\nAnn: 12345 ls\n")
    first = yahtzee("advise", "--game", str(path), "22256", "--json")
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert data["player"] == "Bob" and data["rolls_left"] == 2 and data["card"]["text"] == ""
    assert path.read_text() == "players Ann,Bob\nAnn: 12345 ls\n"  # nothing added
    kept = yahtzee("advise", "--game", str(path), "22256", "--append", "keep 2225")
    assert kept.exit_code == 0, kept.output
    assert "keep 2 2 2 5 costs 3.24 points on average (best: keep 2 2 2)" in kept.stdout
    after = yahtzee("advise", "--game", str(path), "22253", "--json", "--append", "score twos")
    data = json.loads(after.stdout)
    assert data["rolls_left"] == 1 and data["appended"]["box"] == "twos"
    record = read_record(path)
    assert str(record.turns[-1].rolls[-1]) == "22235" and record.turns[-1].box == "twos"
    assert record.cards()["Bob"].total == 6
    ann = json.loads(yahtzee("advise", "--game", str(path), "66666", "--json").stdout)
    assert ann["player"] == "Ann" and ann["card"]["text"] == "large_straight=40"


@pytest.mark.parametrize("args, fragment", [
    (["13456", "--append", "keep 222"], "does not contain the kept dice"),
    (["22256", "--card", "twos=6"], "leave out --card"),
    (["22256", "--append", "keep 7"], "not dice to keep"),
])
def test_bad_game_advice_exit_2(tmp_path, args, fragment):
    path = tmp_path / "game.txt"
    path.write_text("Ann: 22256 222\n")
    result = yahtzee("advise", "--game", str(path), *args)
    assert result.exit_code == 2, result.output
    assert fragment in result.stderr and result.stderr.count("\n") == 1
    assert path.read_text() == "Ann: 22256 222\n"


def test_append_without_game_is_refused():
    result = yahtzee("advise", "22256", "--append", "keep 222")
    assert result.exit_code == 2 and "--game" in result.stderr


def test_advise_game_on_a_record_not_there_yet_is_a_new_game(tmp_path):
    path = tmp_path / "game.txt"
    runner = CliRunner()
    looked = runner.invoke(cli, ["advise", "--game", str(path), "22256", "--top", "1"])
    assert looked.exit_code == 0, looked.output
    assert f"game {path} does not exist yet: a new game (--append MOVE starts it)" in \
        looked.stdout
    assert "rules official | turn 1 of 13 | card total 0" in looked.stdout
    assert not path.exists()  # only looked: nothing written
    started = runner.invoke(cli, ["advise", "--game", str(path), "22256", "--append", "1",
                                  "--json"])
    assert started.exit_code == 0, started.output
    data = json.loads(started.stdout)
    assert data["player"] == "Player 1" and data["appended"]["keep"] == [2, 2, 2]
    assert path.read_text() == "rules official\nplayers Player 1\nPlayer 1: 22256 222\n"
    more = runner.invoke(cli, ["advise", "--game", str(path), "22234", "--append", "keep 2223"])
    assert more.exit_code == 0, more.output
    assert "keep 2 2 2 3 costs 2.49 points on average" in more.stdout
    assert path.read_text().endswith("Player 1: 22256 222 22234 2223\n")
    nowhere = runner.invoke(cli, ["advise", "--game", str(tmp_path / "no" / "g.txt"), "22256",
                                  "--append", "1"])
    assert nowhere.exit_code == 2 and "does not exist" in nowhere.output
    assert not (tmp_path / "no").exists()


MID = "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,three_of_a_kind=20"


@pytest.mark.parametrize("command", [
    ["advise", "55516", "--card", MID, "--target", "260"],
    ["strategy", "--card", MID + ",4k=20,fh=25,ss=30,ls=40", "--target", "250", "--format",
     "csv"],
])
def test_target_commands_follow_the_solve_on_stderr(command):
    result = yahtzee(*command)  # (a command's caches are its own: nothing kept before it)
    assert result.exit_code == 0, result.output
    assert re.search(r"P\(final score >= \d+\): +100%\|", result.stderr), result.stderr


LATE_CARD = ("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,"
             "ls=40,yahtzee=0")


@pytest.mark.parametrize("option, value", [("--target", "99999999999999999999999"),
                                           ("--target", "1000000000"),
                                           ("--beat", "99999999999999999999999"),
                                           ("--target", "1576")])
def test_a_target_beyond_any_game_is_answered_at_once(option: str, value: str) -> None:
    result = yahtzee("advise", "22256", option, value, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert all(o["p_target"] == 0.0 for o in data["options"])
    ev = json.loads(yahtzee("advise", "22256", "--json").stdout)
    assert [o["expected_final"] for o in data["options"]] == \
        [o["expected_final"] for o in ev["options"]]


def test_advise_game_takes_the_objective_and_refuses_other_rules(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"  # one box open: every objective is quick to solve
    path.write_text("players Ann\n" + "".join(
        f"Ann: {dice} {box}\n" for dice, box in (
            ("11123", "aces"), ("22213", "twos"), ("33312", "threes"), ("44412", "fours"),
            ("55512", "fives"), ("66612", "sixes"), ("66612", "3k"), ("66662", "4k"),
            ("22333", "fh"), ("12346", "ss"), ("23456", "ls"), ("12345", "yahtzee"))))
    for option, value, kind in (("--target", "260", "target"), ("--beat", "3000", "target"),
                                ("--opponent", LATE_CARD, "win")):
        data = json.loads(yahtzee("advise", "--game", str(path), "12345", option, value,
                              "--json").stdout)
        assert data["objective"]["kind"] == kind and data["player"] == "Ann"
        key = "p_target" if kind == "target" else "win_share"
        assert all(key in o for o in data["options"])
    line = yahtzee("advise", "--game", str(path), "12345", "--rules", "yatzy").stderr
    assert "the record is a game of rules 'official'" in line
    assert yahtzee("advise", "--game", str(path), "12345", "--rules", "official").exit_code == 0
    result = yahtzee("advise", "--game", str(path), "12345", "--target", "260", "--append", "1")
    assert result.exit_code == 0
    assert path.read_text().splitlines()[0] == '# objective: {"kind": "target", "target": 260}'


def test_advise_game_without_an_objective_option_takes_the_records_own(tmp_path: Path) -> None:
    """A record's first line says what the game was played for: advice at its position
    (no option given) is under that objective, and a move appended keeps the line."""
    turns = "".join(f"Ann: {dice} {box}\n" for dice, box in (
        ("11123", "aces"), ("22213", "twos"), ("33312", "threes"), ("44412", "fours"),
        ("55512", "fives"), ("66612", "sixes"), ("66612", "3k"), ("66662", "4k"),
        ("22333", "fh"), ("12346", "ss"), ("23456", "ls"), ("12345", "yahtzee")))
    target = tmp_path / "target.txt"
    target.write_text('# objective: {"kind": "target", "target": 260}\nplayers Ann\n' + turns)
    data = json.loads(yahtzee("advise", "--game", str(target), "12345", "--json").stdout)
    given = json.loads(yahtzee("advise", "--game", str(target), "12345", "--target", "260",
                               "--json").stdout)
    assert data["objective"] == {"kind": "target", "target": 260} == given["objective"]
    assert data["options"] == given["options"]
    assert yahtzee("advise", "--game", str(target), "12345", "--append", "1").exit_code == 0
    assert target.read_text().splitlines()[0] == '# objective: {"kind": "target", "target": 260}'
    win = tmp_path / "win.txt"  # two players, each turn played to win: Ann against Bob's card
    bob = "".join(line.replace("Ann", "Bob") for line in turns.splitlines(keepends=True))
    mixed = "".join(a + b for a, b in zip(turns.splitlines(keepends=True),
                                           bob.splitlines(keepends=True), strict=True))
    win.write_text("# objective: win (each player against the best of the others, "
                   "from the first turn)\nplayers Ann,Bob\n" + mixed)
    data = json.loads(yahtzee("advise", "--game", str(win), "12345", "--json").stdout)
    assert data["objective"]["kind"] == "win" and data["player"] == "Ann"
    bob_card = ("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=21,4k=26,fh=25,ss=30,"
                "ls=40,yahtzee=0")
    given = json.loads(yahtzee("advise", "--game", str(win), "12345", "--opponent", bob_card,
                               "--json").stdout)
    assert data["objective"] == given["objective"] and data["options"] == given["options"]
    plain = tmp_path / "plain.txt"
    plain.write_text("players Ann\n" + turns)
    data = json.loads(yahtzee("advise", "--game", str(plain), "12345", "--json").stdout)
    assert data["objective"]["kind"] == "ev"


BAD_DICE = ["２２２５６", "٢٢٢٥٦", "۲۲۲۵۶", "22256,", ",22256", "2,,2,2,5,6", "2,2,2,5,6,",
            "2 2 2 5 6,", "2\u00a02\u00a02\u00a05\u00a06", "2\u30002 2 5 6", "22256\n",
            "2;2;2;5;6", "2,2,2,5, ,6", "²2256", "𝟐2256", "0x16", "+2 2 2 5 6"]


@pytest.mark.parametrize("dice", BAD_DICE)
def test_dice_are_ascii_digits_one_to_six_without_empty_items(dice: str) -> None:
    one_error_line(run_cli("advise", "--dice", dice))


@pytest.mark.parametrize("dice", ["22256", "2,2,2,5,6", "2 2 2 5 6", "2, 2, 2, 5, 6",
                                  " 22256 ", "2 , 2 , 2 , 5 , 6"])
def test_good_dice_still_accepted(dice: str) -> None:
    assert run_cli("advise", "--dice", dice, "--json").exit_code == 0


BAD_CARDS = [
    "yahtzee=50,yahtzee_bonus=1,ss=0",  # the bonus had no upper box to fill or to unlock
    "yahtzee=50,yahtzee_bonus=1,chance=17",
    "yahtzee=50,yahtzee_bonus=2,twos=6,ss=30,chance=17",  # only ss can take a Joker
    "yahtzee=50,yahtzee_bonus=1,twos=6",  # twos filled, but with 6: bonus went nowhere
    "twos=6,,fours=12", "twos=6,", ",twos=6", "twos=６", "twos=٦", "chance=0", "twos=+6",
    "twos=6,fours", "twos==6", "=6", "twos=" + "9" * 5000, "yahtzee_bonus=" + "9" * 50,
]


@pytest.mark.parametrize("card", BAD_CARDS)
def test_cards_no_game_reaches_are_refused(card: str) -> None:
    line = one_error_line(run_cli("advise", "--dice", "22256", "--card", card))
    assert len(line) < 400


@pytest.mark.parametrize("card", [
    "yahtzee=50,yahtzee_bonus=1,twos=10", "yahtzee=50,yahtzee_bonus=2,twos=10,chance=10",
    "aces=0,yahtzee=50,yahtzee_bonus=1,chance=5", "twos=6,yahtzee=50,ss=30,yahtzee_bonus=1",
    " twos=6 , fours=12 ", "",
])
def test_reachable_cards_still_accepted(card: str) -> None:
    result = run_cli("advise", "--dice", "22256", "--card", card)
    assert result.exit_code == 0, result.stderr
