"""``advisor.moves``: the dice typed after a keep, read as the rerolled dice or all five,
and refused in the dice's own words."""

from __future__ import annotations

import pytest

from advisor.model import Dice, Keep
from advisor.moves import dice_after_keep
from solver.errors import InvalidDiceError


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


@pytest.mark.parametrize(("typed", "rolls_left", "message"), [
    ("2225", 2, "option '2225' does not exist; choose an option number 1..28, or keep 2225 "
                "to keep 2 2 2 5"),
    ("66", 1, "option '66' does not exist; choose an option number 1..28"),  # no two 6s
    ("2225", 0, "option '2225' does not exist; choose an option number 1..13"),  # no roll
    ("22256", 2, "option '22256' does not exist; choose an option number 1..28"),  # all five
    ("2207", 2, "option '2207' does not exist; choose an option number 1..28"),
])
def test_a_number_that_is_no_option_says_how_to_keep_those_dice(official_table, typed,
                                                                 rolls_left, message):
    """Dice typed where an option number is read (a player at the table types the dice
    to keep): refused, and when they are dice to keep, the line says how to keep them."""
    from advisor.model import Scorecard
    from advisor.moves import parse_action
    from advisor.ranking import advise
    from solver.errors import IllegalMoveError

    advice = advise(Scorecard.parse(""), Dice("22256"), rolls_left=rolls_left,
                    table=official_table)
    with pytest.raises(IllegalMoveError) as refused:
        parse_action(typed, advice)
    assert str(refused.value) == message
