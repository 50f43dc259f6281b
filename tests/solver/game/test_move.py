"""One Move type: text round trip, repr constructor, the advisor's wording parses back."""

from __future__ import annotations

import pytest

from advisor.model import Dice, Scorecard
from advisor.ranking import advise
from solver.errors import IllegalMoveError, InvalidMoveError, YahtzeeError
from solver.game.move import Move


@pytest.mark.parametrize("text, keep, box", [
    ("keep 222", (2, 2, 2), None),
    ("keep 2 2 2", (2, 2, 2), None),
    ("K 622", (2, 2, 6), None),
    ("hold 1,3", (1, 3), None),
    ("reroll all", (), None),
    ("keep -", (), None),
    ("keep none", (), None),
    ("score twos", None, "twos"),
    ("s 2s", None, "twos"),
    ("put 3K", None, "three_of_a_kind"),
    ("Full-House", None, "full_house"),
    ("score Three of a Kind 17", None, "three_of_a_kind"),
    ("score Chance 30 +100 bonus", None, "chance"),
    ("score ones", None, "aces"),
    ("score pair", None, "one_pair"),
])
def test_parse_forms_and_round_trip(text, keep, box):
    move = Move.parse(text)
    assert (move.keep, move.box) == (keep, box)
    assert Move.parse(str(move)) == move
    assert eval(repr(move), {"Move": Move}) == move  # noqa: S307 (repr is a constructor)
    assert hash(Move.parse(str(move))) == hash(move)


def test_claimed_points_are_kept_but_not_compared():
    move = Move.parse("score Twos 6")
    assert move.points == 6 and move == Move.scoring("twos")
    assert Move.parse("score twos").points is None


def test_record_tokens():
    assert Move.parse("reroll all").record_token() == "-"
    assert Move.parse("keep 52").record_token() == "25"
    assert Move.parse("s ls").record_token() == "large_straight"


@pytest.mark.parametrize("text", ["", "keep 227", "keep 222222", "score", "score nothing",
                                  "jump", "6", "keep two"])
def test_bad_text_is_a_value_error_naming_it(text):
    with pytest.raises(YahtzeeError) as info:
        Move.parse(text)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, InvalidMoveError | IllegalMoveError)


def test_rules_decide_the_box_names():
    assert Move.parse("score 1s", "yatzy").box == "ones"
    assert Move.parse("score 1s").box == "aces"
    with pytest.raises(InvalidMoveError):
        Move.parse("score pair", "official")
    with pytest.raises(InvalidMoveError):
        Move(keep=(2,), box="twos")


def test_every_option_exposes_a_move_its_description_parses_to(official_table):
    card = Scorecard.parse("yahtzee=50,threes=9")
    for dice, rolls_left in (("22256", 2), ("33333", 0), ("12345", 1), ("66666", 0)):
        advice = advise(card, Dice(dice), rolls_left=rolls_left, table=official_table)
        for option in advice.options:
            move = Move.parse(option.describe(), card.rules)
            assert move == option.move
            if move.box is not None:
                assert move.points == option.points


def test_a_long_move_is_echoed_at_most_80_characters() -> None:
    for text in ("x" * 2_000_000, "keep " + "7" * 5000, "score " + "q" * 5000):
        with pytest.raises(ValueError) as caught:
            Move.parse(text)
        assert len(str(caught.value)) < 400, str(caught.value)[:500]
