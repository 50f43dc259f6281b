"""Less typing: dice as an argument, advice inside a recorded game (with --append), the
library's short imports and plain text accepted, box short names in `yahtzee rules`."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.record_file import read_record
from solver.errors import InvalidCardError, InvalidDiceError


@pytest.fixture(autouse=True)
def _tables(official_table):
    """The cached official table exists."""


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_dice_as_the_argument_equal_dice_option():
    assert run("advise", "22256", "--json").stdout == run("advise", "--dice", "22256",
                                                          "--json").stdout
    both = run("advise", "22256", "--dice", "22256")
    assert both.exit_code == 2 and "give the dice once" in both.stderr
    none = run("advise")
    assert none.exit_code == 2 and "give the dice" in none.stderr


def test_advise_in_a_recorded_game_and_append(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("players Ann,Bob\nAnn: 12345 ls\n")
    first = run("advise", "--game", str(path), "22256", "--json")
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert data["player"] == "Bob" and data["rolls_left"] == 2 and data["card"]["text"] == ""
    assert path.read_text() == "players Ann,Bob\nAnn: 12345 ls\n"  # nothing added
    kept = run("advise", "--game", str(path), "22256", "--append", "keep 2225")
    assert kept.exit_code == 0, kept.output
    assert "keep 2 2 2 5 costs 3.24 points on average (best: keep 2 2 2)" in kept.stdout
    after = run("advise", "--game", str(path), "22253", "--json", "--append", "score twos")
    data = json.loads(after.stdout)
    assert data["rolls_left"] == 1 and data["appended"]["box"] == "twos"
    record = read_record(path)
    assert str(record.turns[-1].rolls[-1]) == "22235" and record.turns[-1].box == "twos"
    assert record.cards()["Bob"].total == 6
    ann = json.loads(run("advise", "--game", str(path), "66666", "--json").stdout)
    assert ann["player"] == "Ann" and ann["card"]["text"] == "large_straight=40"


@pytest.mark.parametrize("args, fragment", [
    (["13456", "--append", "keep 222"], "does not contain the kept dice"),
    (["22256", "--card", "twos=6"], "leave out --card"),
    (["22256", "--append", "keep 7"], "not dice to keep"),
])
def test_bad_game_advice_exit_2(tmp_path, args, fragment):
    path = tmp_path / "game.txt"
    path.write_text("Ann: 22256 222\n")
    result = run("advise", "--game", str(path), *args)
    assert result.exit_code == 2, result.output
    assert fragment in result.stderr and result.stderr.count("\n") == 1
    assert path.read_text() == "Ann: 22256 222\n"


def test_append_without_game_is_refused():
    result = run("advise", "22256", "--append", "keep 222")
    assert result.exit_code == 2 and "--game" in result.stderr


def test_short_imports_and_plain_text(official_table):
    from advisor import Dice, Scorecard, advise

    typed = advise(Scorecard.parse("twos=6"), Dice("22256"), rolls_left=1, table=official_table)
    plain = advise("twos=6", "22256", rolls_left=1, table=official_table)
    assert typed == plain
    with pytest.raises(InvalidDiceError, match="not list"):
        advise("", [2, 2, 2, 5, 6], table=official_table)  # type: ignore[arg-type]
    with pytest.raises(InvalidDiceError):
        advise("", "2225", table=official_table)
    with pytest.raises(InvalidCardError, match="not dict"):
        advise({}, "22256", table=official_table)  # type: ignore[arg-type]
    import advisor

    with pytest.raises(AttributeError):
        advisor.nothing_here  # noqa: B018


def test_rules_show_the_short_names():
    out = run("rules", "official").stdout
    assert "three_of_a_kind  3k" in out and "aces             1s" in out
    assert "chance           ch" in out
