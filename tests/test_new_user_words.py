"""What a new user reads: messages that say what was wrong in the user's terms (dice as
typed, never a Python value; the box names of the card), and notes that name the
figures they are about."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.model import Dice, Keep, Scorecard
from advisor.moves import dice_after_keep
from advisor.objective import Objective
from solver.errors import InvalidDiceError, YahtzeeError


def play(lines: list[str]) -> str:
    result = CliRunner().invoke(cli, ["play", "--names", "Ann"],
                                input="".join(f"{line}\n" for line in lines))
    return result.output


def test_one_die_after_keeping_two_says_what_to_type(official_table):
    """After keeping 3 3 the prompt offers "the 3 rerolled"; typing one die says so in
    the dice's own words, and the three rerolled are then accepted."""
    out = play(["13356", "keep 33", "3", "145", "score chance"])
    assert "kept 3 3; dice now (all five, or the 3 rerolled)> " in out
    assert ("  ! dice 3: 1 die given after keeping 3 3; type the 3 rerolled (e.g. 145) or "
            "all five dice showing") in out
    assert "Ann: dice 1 3 3 4 5 | ROLLS LEFT: 1" in out  # 3 3 kept + 1 4 5 rerolled
    assert "(3,)" not in out and "'(" not in out


@pytest.mark.parametrize(("typed", "keep", "message"), [
    ("3", "33", "dice 3: 1 die given after keeping 3 3; type the 3 rerolled (e.g. 145) or "
                "all five dice showing"),
    ("12", "1234", "dice 1 2: 2 dice given after keeping 1 2 3 4; type the 1 rerolled "
                   "(e.g. 1) or all five dice showing"),
    ("6", "1", "dice 6: 1 die given after keeping 1; type the 4 rerolled (e.g. 1456) or "
               "all five dice showing"),
    ("123", "", "dice 1 2 3: 3 dice given; type the five dice showing (e.g. 22256)"),
    ("123456", "22", "dice 1 2 3 4 5 6: 6 dice given after keeping 2 2; type the 3 rerolled "
                     "(e.g. 145) or all five dice showing"),
])
def test_dice_after_a_keep_refused_in_words(typed, keep, message):
    with pytest.raises(InvalidDiceError) as refused:
        dice_after_keep(typed, Keep(keep))
    assert str(refused.value) == message


def test_dice_after_a_keep_accepted():
    assert dice_after_keep("145", Keep("33")) == Dice("13345")  # the three rerolled
    assert dice_after_keep("33145", Keep("33")) == Dice("13345")  # all five
    assert dice_after_keep("1", Keep("2345")) == Dice("12345")


@pytest.mark.parametrize(("given", "message"), [
    ((3,), "dice '3': 1 die given, need exactly 5 faces 1 to 6 (e.g. 22256)"),
    ([2, 2, 2, 5], "dice '2 2 2 5': 4 dice given, need exactly 5 faces 1 to 6 (e.g. 22256)"),
    ("2225", "dice '2225': 4 dice given, need exactly 5 faces 1 to 6 (e.g. 22256)"),
])
def test_dice_of_a_sequence_are_written_as_faces(given, message):
    with pytest.raises(InvalidDiceError) as refused:
        Dice(given)
    assert str(refused.value) == message


def test_a_keep_of_six_dice_is_written_as_faces():
    with pytest.raises(YahtzeeError) as refused:
        Keep((1, 2, 3, 4, 5, 6))
    assert str(refused.value) == "keep '1 2 3 4 5 6': 6 dice, at most 5"


def test_a_score_line_names_the_box_as_the_card_does(official_table):
    out = play(["33345", "score 3k"])
    assert "Ann scores 18 in Three of a Kind: total 18" in out
    assert "in three_of_a_kind" not in out  # (a record line keeps its notation)


def test_the_target_note_names_every_target_solved(official_table):
    """`stats --target 250` from a new game solves the rows of its table too (up to 500):
    the note names them all, not only the largest."""
    from advisor.solved_turn import targets_note

    card = Scorecard.new()
    note = targets_note(card, official_table, Objective.for_target(500),
                        [150, 200, 250, 300, 350, 400, 450, 500])
    assert note is not None
    assert note.startswith("note: P(final score >= X) for X = 150, 200, 250, 300, 350, 400, "
                           "450, 500 is solved from this card")
    alone = targets_note(card, official_table, Objective.for_target(250), [250])
    assert alone is not None and alone.startswith("note: P(final score >= 250) is solved ")


def test_a_number_in_practice_is_a_row_of_list_and_every_prompt_says_so(official_table,
                                                                        official_moments):
    """In `play` a number is a row of the ranked advice; in `train` it is a row of the
    unranked `list`: every practice prompt says so, and the list says it is unranked."""
    result = CliRunner().invoke(cli, ["train", "--positions", "2", "--seed", "7",
                                      "--no-history"], input="list\n5\nkeep 7\nquit\n")
    out = result.output
    assert result.exit_code == 0, out
    prompt = "your choice (a move, or a number from 'list')> "
    assert out.count(prompt) == 4  # list, 5, the refused keep 7, quit: each asked alike
    assert "your choice> " not in out
    listed = out.split("every choice, in no order of merit (type its number or the move):\n")[1]
    fifth = listed.splitlines()[4]
    assert fifth == "   5  keep 3 4 5 6"
    assert "  keep 3 4 5 6: a best choice, tied with keep 1 3 4 5" in out  # 5 is that row


def test_a_wrong_point_count_and_an_undo_name_the_box_as_the_card_does(official_table):
    out = play(["33345", "score 3k 20", "score 3k", "undo"])
    assert "  ! Three of a Kind scores 18 with 3 3 3 4 5, not 20" in out
    assert "undone: Ann's Three of a Kind (3 3 3 4 5)" in out
    assert "three_of_a_kind scores" not in out and "Ann's three_of_a_kind" not in out


def test_stats_names_the_boxes_as_the_card_does(official_table):
    result = CliRunner().invoke(cli, ["stats", "--card", "aces=3,twos=6,threes=9,fours=12,"
                                      "fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30"])
    assert result.exit_code == 0, result.output
    rows = result.stdout.split("  box ", 1)[1].splitlines()[1:4]
    assert [row[2:18].rstrip() for row in rows] == ["Large Straight", "Yahtzee", "Chance"]
