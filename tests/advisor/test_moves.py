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
