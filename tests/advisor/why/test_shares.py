"""The "this turn" part of a why line says which boxes the option fills this turn: the
shares it lists and its "other boxes" must cover every way the turn can end (exactly one
box is filled per turn), so they add up to 100 % within their printed rounding."""

from __future__ import annotations

import re

import pytest

from advisor import Dice, Scorecard, advise

SHARE = re.compile(r"([<>]?)(\d+(?:\.\d+)?) %")

POSITIONS = [  # (card, dice, rolls left): early, middle and late cards
    ("", "22256", 2),
    ("", "13456", 1),
    ("twos=6,fours=12,chance=22", "33345", 2),
    ("ones=3,twos=6,threes=9,large_straight=40,yahtzee=50", "11566", 1),
    ("ones=2,twos=4,threes=9,fours=12,fives=15,sixes=18,chance=21", "24556", 2),
]


def _bounds(text: str) -> tuple[float, float]:
    """The interval of percentages a share printed as ``text`` (``41 %``, ``0.3 %``,
    ``<0.1 %``, ``>99.9 %``) stands for."""
    found = SHARE.fullmatch(text.strip())
    assert found, text
    side, number = found.groups()
    value = float(number)
    if side == "<":
        return 0.0, value
    if side == ">":
        return value, 100.0
    half = 0.5 * 10.0 ** -len(number.partition(".")[2])
    return value - half, value + half


@pytest.mark.parametrize("card, dice, rolls_left", POSITIONS)
def test_the_listed_shares_and_the_rest_add_up_to_one_turn(official_table, card, dice,
                                                            rolls_left):
    advice = advise(Scorecard.parse(card), Dice(dice), rolls_left=rolls_left, why=True)
    for option in advice.options:
        outcome = option.outcome
        assert outcome is not None
        assert sum(p for _, p in outcome.boxes) == pytest.approx(1.0, abs=1e-12)
        this_turn = outcome.line().split(" | ")[0].removeprefix("this turn: ")
        parts = [part.rsplit(" ", 2) for part in this_turn.split(", ")]
        shares = [" ".join(part[-2:]) for part in parts]
        low = sum(_bounds(s)[0] for s in shares)
        high = sum(_bounds(s)[1] for s in shares)
        # boxes below 0.005 % are left out of the line: at most 13 of them
        assert low - 1e-9 <= 100.0 <= high + 13 * 0.005, (option.move, this_turn)
