"""Value objects: parsing, round trips, reprs, state of a card, and every validation."""

from __future__ import annotations

import pytest

from advisor.advice import Advice, Option
from advisor.model import Dice, Keep, Scorecard, box_label
from solver.errors import IllegalMoveError, InvalidCardError, InvalidDiceError, YahtzeeError

FULL_CARD = ("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=0,fh=25,ss=30,"
             "ls=40,yahtzee=50,chance=22")


# ---------------------------------------------------------------------- dice and keeps
@pytest.mark.parametrize("text", ["22256", "2,2,2,5,6", "2 2 2 5 6", "62522", " 6, 5 2 2 2 "])
def test_dice_forms_parse_to_the_same_sorted_dice(text):
    dice = Dice(text)
    assert dice.faces == (2, 2, 2, 5, 6)
    assert str(dice) == "22256"
    assert Dice.parse(str(dice)) == dice


def test_dice_from_ints_repr_and_hash():
    dice = Dice([6, 5, 2, 2, 2])
    assert dice == Dice("22256")
    assert eval(repr(dice)) == dice  # noqa: S307
    assert len({dice, Dice("2 2 2 5 6")}) == 1
    assert dice.counts == (0, 3, 0, 0, 1, 1)


@pytest.mark.parametrize("text, message", [
    ("2225", "4 dice given"), ("222566", "6 dice given"), ("", "0 dice given"),
    ("22250", "'0' is not a face"), ("22257", "'7' is not a face"),
    ("2225x", "'x' is not a face"), ("two", "'t' is not a face"), ("2,2,2,5,16", "'16'"),
])
def test_bad_dice_are_refused_with_what_is_accepted(text, message):
    with pytest.raises(InvalidDiceError, match=message) as err:
        Dice(text)
    assert isinstance(err.value, ValueError)
    assert "1 to 6" in str(err.value) or "exactly 5" in str(err.value)


def test_dice_from_bad_ints():
    with pytest.raises(InvalidDiceError):
        Dice([1, 2, 3, 4, 7])
    with pytest.raises(InvalidDiceError):
        Dice([1, 2, 3, 4, True])


def test_keeps_parse_and_round_trip():
    assert Keep("2 2 2").faces == (2, 2, 2)
    assert str(Keep("")) == "none" and Keep("none") == Keep(()) == Keep("-")
    for keep in (Keep("222"), Keep(()), Keep("65")):
        assert Keep.parse(str(keep)) == keep
        assert eval(repr(keep)) == keep  # noqa: S307
    assert Keep("5 6").index != Keep("6").index
    with pytest.raises(IllegalMoveError, match="at most 5"):
        Keep("222222")


def test_dice_contains_keep():
    dice = Dice("22256")
    assert dice.contains(Keep("222")) and dice.contains(Keep("256")) and dice.contains(Keep(""))
    assert not dice.contains(Keep("2222")) and not dice.contains(Keep("3"))


# ---------------------------------------------------------------------- scorecards
def test_card_parse_state_and_round_trip():
    card = Scorecard.parse("twos=6,fours=12,yahtzee=50,ss=30,yahtzee_bonus=1")
    assert card.mask == (1 << 1) | (1 << 3) | (1 << 11) | (1 << 9)
    assert card.upper_subtotal == 18 and card.upper == 18
    assert card.flag == 1 and card.yahtzee_holds_50
    assert card.total == 6 + 12 + 50 + 30 + 100
    assert str(card) == "twos=6,fours=12,small_straight=30,yahtzee=50,yahtzee_bonus=1"
    assert Scorecard.parse(str(card)) == card
    assert eval(repr(card)) == card  # noqa: S307
    assert hash(card) == hash(Scorecard.parse(str(card)))


def test_empty_card_is_a_new_game():
    card = Scorecard.parse("")
    assert card == Scorecard.new() and card.mask == 0 and card.total == 0 and card.turn == 1
    assert str(card) == ""


def test_aliases_case_and_dashes():
    card = Scorecard.parse("3K=17, Full-House=25, 1s=3, Yahtzee_Bonus=0")
    assert card.filled() == {"aces": 3, "three_of_a_kind": 17, "full_house": 25}


def test_grand_total_with_both_bonuses():
    # Two bonuses the forced Joker allows: 66666 in Sixes, 44444 in Chance after Fours.
    card = Scorecard.parse("aces=2,twos=6,threes=9,fours=12,fives=10,sixes=30,yahtzee=50,"
                           "chance=20,yahtzee_bonus=2")
    assert card.upper_subtotal == 69 and card.upper == 63 and card.upper_bonus == 35
    assert card.total == 69 + 35 + 70 + 200


def test_with_entry_and_place():
    card = Scorecard.parse("yahtzee=50")
    after = card.place(Dice("33333"), "threes")  # forced Joker: Threes, plus the bonus
    assert after.entries[2] == 15 and after.yahtzee_bonuses == 1 and after.total == 165
    assert card.entries[2] is None  # the original card is unchanged
    with pytest.raises(IllegalMoveError, match="allowed now: threes"):
        card.place(Dice("33333"), "chance")
    with pytest.raises(IllegalMoveError, match="already filled"):
        after.place(Dice("12345"), "threes")
    assert card.with_entry("twos", 4).entries[1] == 4


@pytest.mark.parametrize("text, message", [
    ("twos", "box=points"), ("twos=six", "box=points"), ("=6", "box=points"),
    ("twos=6;fours=12", "box=points"),
    ("foo=3", "unknown box 'foo'.*boxes are: aces, twos"),
    ("twos=6,2s=4", "twos is given twice"),
    ("yahtzee_bonus=1,yahtzee=50,twos=4,yahtzee_bonus=1", "given twice"),
    ("twos=7", "twos=7 cannot occur.*0, 2, 4, 6, 8, 10"),
    ("full_house=20", "full_house=20 cannot occur"),
    ("yahtzee=30", "yahtzee=30 cannot occur"),
    ("sixes=36", "sixes=36 cannot occur"),
    ("twos=-2", "cannot occur"),
    ("yahtzee_bonus=1", "needs 50 in the yahtzee box"),
    ("yahtzee=0,twos=4,yahtzee_bonus=1", "needs 50"),
    ("yahtzee=50,yahtzee_bonus=1", "only 0 other boxes"),
    ("yahtzee=50,twos=4,yahtzee_bonus=-1", "0 or more"),
])
def test_bad_cards_are_refused(text, message):
    with pytest.raises(InvalidCardError, match=message):
        Scorecard.parse(text)


def test_cards_per_rule_set():
    card = Scorecard.parse("one_pair=12,yatzy=50,ones=3", rules="yatzy")
    assert card.rules.n_boxes == 15 and card.flag == 0 and card.total == 65
    assert Scorecard.parse(str(card), rules="yatzy") == card
    with pytest.raises(InvalidCardError, match="no Yahtzee bonus"):
        Scorecard.parse("yatzy=50,ones=3,yahtzee_bonus=1", rules="yatzy")
    with pytest.raises(InvalidCardError, match="unknown box 'one_pair'"):
        Scorecard.parse("one_pair=12")
    assert Scorecard.parse("yahtzee=50", rules="no-bonus").flag == 0


def test_full_card_refuses_advice():
    card = Scorecard.parse(FULL_CARD)
    assert card.is_full and card.total == 63 + 35 + 187
    with pytest.raises(IllegalMoveError, match="scorecard is full"):
        card.check_not_full()


# ---------------------------------------------------------------------- options, advice
def test_option_text_and_json():
    keep = Option("keep", 250.5, 1.25, keep=Keep("222"))
    score = Option("score", 240.0, 11.75, box="three_of_a_kind", points=17)
    joker = Option("score", 400.0, box="large_straight", points=40, bonus=100)
    assert str(keep) == "keep 2 2 2" and str(Option("keep", 1.0, keep=Keep(""))) == "reroll all"
    assert str(score) == "score Three of a Kind 17"
    assert str(joker) == "score Large Straight 40 +100 bonus"
    assert keep.to_json() == {"action": "keep", "keep": [2, 2, 2], "expected_final": 250.5,
                              "loss": 1.25}
    assert score.to_json() == {"action": "score", "box": "three_of_a_kind", "points": 17,
                               "expected_final": 240.0, "bonus": 0, "loss": 11.75}
    with pytest.raises(ValueError):
        Option("roll", 1.0)
    with pytest.raises(ValueError):
        Option("keep", 1.0, box="twos")


def test_advice_top_and_json():
    options = (Option("keep", 2.0, 0.0, keep=Keep("2")), Option("score", 1.0, 1.0, box="twos",
                                                                  points=2))
    advice = Advice(Scorecard.new(), Dice("12345"), 2, options)
    assert advice.best is options[0] and advice.top(1) == options[:1] and advice.top(0) == options
    data = advice.to_json(top=1)
    assert data["rules"] == "official" and data["dice"] == [1, 2, 3, 4, 5]
    assert data["rolls_left"] == 2 and data["card"]["total"] == 0 and len(data["options"]) == 1


def test_box_labels():
    assert box_label("three_of_a_kind") == "Three of a Kind"
    assert box_label("twos") == "Twos" and box_label("one_pair") == "One Pair"


def test_values_pickle_as_their_fields():
    """Questions go to the server's worker process pickled: a card whose rule set was
    looked up (a cached property holding functions) still pickles, and equal."""
    import pickle

    from advisor.objective import Objective

    card = Scorecard.parse("twos=6,yahtzee=50,yahtzee_bonus=0", "official")
    assert card.rules.name == "official" and card.total == 56
    objective = Objective.win(card)
    for value in (card, Dice("22256"), Keep("22"), objective, Scorecard.new("yatzy")):
        copy = pickle.loads(pickle.dumps(value))
        assert copy == value and hash(copy) == hash(value)
    assert pickle.loads(pickle.dumps(card)).total == 56


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
