"""Small things a player meets: a resumed turn says where it stands, cards side by side,
``1 box open``, "did you mean" for a misspelt box, ``print(advice)`` short and its repr
a working call."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from advisor import Dice, Objective, Scorecard, advise
from advisor.cli import cli
from advisor.play import card_summary
from solver.errors import InvalidCardError, InvalidMoveError
from solver.game.move import Move
from solver.game.rules import RULE_NAMES, get_rules


@pytest.fixture(autouse=True)
def _tables(official_table):
    """The cached official table exists, so no command builds one."""


def play(lines, *args):
    return CliRunner().invoke(cli, ["play", *args], input="\n".join(lines) + "\n")


@pytest.mark.parametrize("typed, meant", [
    ("chanse", "chance"), ("Full Hose", "full_house"), ("yahtze", "yahtzee"),
    ("sixs", "sixes"), ("small stright", "small_straight"), ("threeofakind",
                                                            "three_of_a_kind")])
def test_a_misspelt_box_names_the_closest_box(typed, meant):
    rules = get_rules("official")
    assert rules.closest_box(typed) == meant
    with pytest.raises(InvalidCardError, match=f"did you mean {meant}\\? boxes are: aces"):
        rules.box_index(typed)
    with pytest.raises(InvalidMoveError, match=f"did you mean 'score {meant}'"):
        Move.parse(f"score {typed}", rules)


@pytest.mark.parametrize("typed", ["xyz", "4", "3ks", "keeper"])
def test_nothing_close_gives_no_guess(typed):
    rules = get_rules("official")
    assert rules.closest_box(typed) is None
    with pytest.raises(InvalidCardError) as caught:
        rules.box_index(typed)
    assert "did you mean" not in str(caught.value)


def test_every_box_name_and_alias_is_its_own_closest_box():
    for name in RULE_NAMES:
        rules = get_rules(name)
        for box in rules.boxes:
            for alias in (box.name, *box.aliases):
                if len(alias) > 2:
                    assert rules.closest_box(alias) == box.name


def test_did_you_mean_in_a_card_and_in_play():
    result = CliRunner().invoke(cli, ["advise", "22256", "--card", "chanse=20"])
    assert result.exit_code == 2
    assert "did you mean chance?" in result.output
    out = play(["22256", "chanse", "quit"]).stdout
    assert "! 'chanse' is not a move: did you mean 'score chance'?" in out


def test_one_box_open_is_singular():
    card = Scorecard.parse("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,"
                           "fh=25,ss=30,ls=40,yahtzee=50")
    assert card_summary(card).endswith("| 1 box open")
    assert card_summary(Scorecard.new()).endswith("| 13 boxes open")


def test_resume_in_the_middle_of_a_turn_shows_player_turn_and_dice(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("rules official\nplayers Ann,Bob\nAnn: 22256 twos\nBob: 11156 111\n")
    out = play(["quit"], "--resume", str(path)).stdout
    assert out.startswith("\n== Bob, turn 1 of 13 | total 0 | upper 0: bonus needs 63 more"
                          " | 13 boxes open\n  so far this turn: rolled 1 1 1 5 6, kept 1 1 1\n"
                          "kept 1 1 1; dice now")
    path.write_text("rules official\nplayers Ann,Bob\nAnn: 22256 twos\nBob: 11156 111 11123\n")
    out = play(["quit"], "--resume", str(path)).stdout
    assert ("== Bob, turn 1 of 13 | total 0 | upper 0: bonus needs 63 more | 13 boxes open\n"
            "  so far this turn: rolled 1 1 1 5 6, kept 1 1 1, rolled 1 1 1 2 3\n"
            "Bob: dice 1 1 1 2 3 | ROLLS LEFT: 1 (after roll 2 of 3)") in out
    path.write_text("rules official\nplayers Ann,Bob\nAnn: 22256 twos\nBob: 11156 111 11123 -\n")
    out = play(["quit"], "--resume", str(path)).stdout
    assert "so far this turn: rolled 1 1 1 5 6, kept 1 1 1, rolled 1 1 1 2 3, kept nothing\n" \
           "kept nothing; dice now" in out


def test_cards_of_several_players_side_by_side(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("rules official\nplayers Ann,Bob\nAnn: 22256 twos\nBob: 12345 ls\n"
                    "Ann: 66612 sixes\n")
    out = play(["cards", "quit"], "--resume", str(path)).stdout
    head = "                     Ann   Bob"
    rows = out[out.index(head):].splitlines()
    assert rows[:10] == [head,
                         "  Aces                 -     -",
                         "  Twos                 6     -",
                         "  Threes               -     -",
                         "  Fours                -     -",
                         "  Fives                -     -",
                         "  Sixes               18     -",
                         "  upper (of 63)       24     0",
                         "  upper bonus          0     0",
                         "  Three of a Kind      -     -"]
    assert rows[13:19] == ["  Large Straight       -    40",
                           "  Yahtzee              -     -",
                           "  Chance               -     -",
                           "  Yahtzee bonus        0     0",
                           "  total               24    40",
                           "  boxes open          11    12"]
    one = play(["card", "quit"], "--resume", str(path)).stdout
    assert "Bob: total 40 | upper 0: bonus needs 63 more | 12 boxes open" in one
    assert "  open: aces (1s), twos (2s)" in one


def test_print_advice_is_short_and_repr_gives_it_again():
    advice = advise("twos=6,yahtzee=50", "55556", rolls_left=1)
    text = str(advice)
    lines = text.splitlines()
    assert lines[0] == "dice 5 5 5 5 6, 1 roll left, card twos=6,yahtzee=50 (official):"
    assert lines[2].split()[:4] == ["1", "keep", "5", "5"]
    assert len(lines) == 2 + Advice_SHOWN() + 1
    assert lines[-1].strip().startswith(f"... {len(advice.options) - 3} more")
    assert repr(advice) == ("advise(Scorecard.parse('twos=6,yahtzee=50', rules='official'), "
                            "Dice('55556'), rolls_left=1)")
    assert eval(repr(advice), {"advise": advise, "Scorecard": Scorecard, "Dice": Dice}) == advice
    late = "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30"
    target = advise(late, "12345", rolls_left=0, target=250)
    card = Scorecard.parse(late)
    assert str(target).splitlines()[0] == (f"dice 1 2 3 4 5, 0 rolls left, card {card} "
                                           f"(official, P(final score >= 250)):")
    assert eval(repr(target), {"advise": advise, "Scorecard": Scorecard, "Dice": Dice,
                               "Objective": Objective}) == target


def Advice_SHOWN() -> int:  # noqa: N802
    from advisor.advice import Advice

    return Advice.SHOWN


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
