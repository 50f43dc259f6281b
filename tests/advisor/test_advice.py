"""``advisor.advice``: an advice printed short, and its repr a call that gives it again."""

from __future__ import annotations

import pytest

from advisor import Dice, Objective, Scorecard, advise


@pytest.fixture(autouse=True)
def _tables(official_table):
    """The cached official table exists, so no advice builds one."""


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
