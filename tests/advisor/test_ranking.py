"""advise(): the rule book's worked examples, the Joker, and exact agreement with the solver."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.model import Dice, Scorecard
from advisor.ranking import TurnAdvisor, advise
from solver.errors import IllegalMoveError, InvalidCardError, InvalidDiceError, TableError
from solver.game.dice import ROLL_PROBABILITY, ROLLS, keep_outcome_probabilities

ALL_DICE = [Dice(tuple(int(f) for f in roll)) for roll in ROLLS]
LOWER_OPEN_AFTER_FIVES = {"three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
                          "large_straight", "chance"}


def boxes(advice) -> dict[str, tuple[int, int]]:
    """box -> (points, bonus) of the score options."""
    return {o.box: (o.points, o.bonus) for o in advice.options if not o.is_keep}


def keeps(advice) -> list[tuple[int, ...]]:
    return [o.keep.faces for o in advice.options if o.is_keep]


# ---------------------------------------------------------------------- worked examples
def test_22256_offers_every_box_with_the_rule_sheet_points(official_table):
    advice = advise(Scorecard.new(), Dice("2,2,2,5,6"), rolls_left=0, table=official_table)
    found = boxes(advice)
    assert len(found) == 13 and keeps(advice) == []
    assert found["twos"] == (6, 0) and found["three_of_a_kind"] == (17, 0)
    assert found["chance"] == (17, 0) and found["full_house"] == (0, 0)
    assert found["fours"] == (0, 0) and found["fives"] == (5, 0)


def test_other_rule_sheet_examples(official_table):
    def points(card: str, dice: str) -> dict[str, tuple[int, int]]:
        return boxes(advise(Scorecard.parse(card), Dice(dice), rolls_left=0,
                            table=official_table))

    assert points("", "44416")["fours"] == (12, 0)
    found = points("", "23345")
    assert found["small_straight"] == (30, 0) and found["large_straight"] == (0, 0)
    found = points("", "55552")
    assert found["four_of_a_kind"] == (22, 0) and found["fives"] == (20, 0)
    found = points("", "33333")  # Yahtzee box empty: an ordinary roll
    assert found["full_house"] == (0, 0) and found["four_of_a_kind"] == (15, 0)
    assert found["yahtzee"] == (50, 0) and len(found) == 13


def test_joker_fives_filled_allows_only_lower_boxes_with_bonus(official_table):
    card = Scorecard.parse("yahtzee=50,fives=15")
    advice = advise(card, Dice("55555"), rolls_left=0, table=official_table)
    found = boxes(advice)
    assert set(found) == LOWER_OPEN_AFTER_FIVES
    assert found["large_straight"] == (40, 100) and found["small_straight"] == (30, 100)
    assert found["full_house"] == (25, 100) and found["chance"] == (25, 100)
    best = advice.best
    assert best.box == "large_straight"  # the rule sheet's example is also the best choice
    assert best.expected_final == pytest.approx(
        card.total + 140 + official_table.value(card.mask | 1 << 10, 15, 1), abs=1e-9)


def test_joker_with_zero_in_yahtzee_pays_no_bonus(official_table):
    found = boxes(advise(Scorecard.parse("yahtzee=0,fives=15"), Dice("55555"), rolls_left=0,
                         table=official_table))
    assert set(found) == LOWER_OPEN_AFTER_FIVES and found["large_straight"] == (40, 0)


def test_joker_fives_empty_forces_fives(official_table):
    advice = advise(Scorecard.parse("yahtzee=50"), Dice("55555"), rolls_left=0,
                    table=official_table)
    assert boxes(advice) == {"fives": (25, 100)}
    with_rolls = advise(Scorecard.parse("yahtzee=50"), Dice("55555"), rolls_left=2,
                        table=official_table)
    assert boxes(with_rolls) == {"fives": (25, 100)} and with_rolls.best.box == "fives"


def test_joker_zero_in_fives_counts_as_filled(official_table):
    found = boxes(advise(Scorecard.parse("yahtzee=50,fives=0"), Dice("55555"), rolls_left=0,
                         table=official_table))
    assert set(found) == LOWER_OPEN_AFTER_FIVES


def test_joker_step_three_zero_in_any_upper_box(official_table):
    card = Scorecard.parse("yahtzee=50,fives=15,3k=20,4k=20,fh=25,ss=30,ls=40,chance=20")
    found = boxes(advise(card, Dice("55555"), rolls_left=0, table=official_table))
    assert found == {b: (0, 100) for b in ("aces", "twos", "threes", "fours", "sixes")}


def test_free_joker_variant_allows_any_box(table_of):
    card = Scorecard.parse("yahtzee=50", rules="free-joker")
    found = boxes(advise(card, Dice("55555"), rolls_left=0, table=table_of("free-joker")))
    assert len(found) == 12 and found["fives"] == (25, 100)
    assert found["large_straight"] == (0, 100)  # Fives still open: an ordinary roll


# ---------------------------------------------------------------------- options
def test_keeps_are_every_distinct_sub_multiset_of_up_to_four_dice(official_table):
    advice = advise(Scorecard.new(), Dice("22256"), rolls_left=2, table=official_table)
    found = keeps(advice)
    assert len(found) == len(set(found)) == 4 * 2 * 2 - 1
    assert (2, 2, 2) in found and () in found and (2, 2, 2, 5, 6) not in found
    assert len(boxes(advice)) == 13
    assert advice.best.describe() == "keep 2 2 2"


def test_options_ranked_best_first_with_losses(official_table):
    card = Scorecard.parse("twos=6,fours=12,yahtzee=50,ss=30,yahtzee_bonus=1")
    for j in (0, 1, 2):
        advice = advise(card, Dice("34456"), rolls_left=j, table=official_table)
        values = [o.expected_final for o in advice.options]
        assert values == sorted(values, reverse=True)
        assert advice.options[0].loss == 0.0
        for option in advice.options:
            assert option.loss == pytest.approx(values[0] - option.expected_final, abs=1e-12)
            assert option.expected_final > card.total


def test_default_rolls_left_and_default_table(official_table, table_of):
    assert advise(Scorecard.new(), Dice("12345")).rolls_left == 2
    two = Scorecard.new("two-rolls")
    assert advise(two, Dice("12345"), table=table_of("two-rolls")).rolls_left == 1


@pytest.mark.parametrize("rules, rolls_left", [("official", 3), ("official", -1),
                                                ("two-rolls", 2)])
def test_rolls_left_out_of_range(table_of, rules, rolls_left):
    top = 2 if rules == "official" else 1
    with pytest.raises(IllegalMoveError, match=f"outside 0..{top}"):
        advise(Scorecard.new(rules), Dice("12345"), rolls_left=rolls_left, table=table_of(rules))


def test_full_card_and_table_of_other_rules(official_table):
    full = Scorecard.parse("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=0,"
                           "fh=25,ss=30,ls=40,yahtzee=50,chance=22")
    with pytest.raises(IllegalMoveError, match="full"):
        advise(full, Dice("12345"), rolls_left=0, table=official_table)
    with pytest.raises(TableError, match="rules 'official'"):
        advise(Scorecard.new("two-rolls"), Dice("12345"), table=official_table)


# ---------------------------------------------------------------------- exactness
STATES = [
    ("official", ""),
    ("official", "yahtzee=50,fives=15"),
    ("official", "aces=3,twos=6,threes=9,fours=12,sixes=18,yahtzee=50,chance=20,ss=30,ls=40,"
                 "fh=25,3k=0,yahtzee_bonus=1"),
    ("official", "aces=3,twos=6,threes=12,fours=16,fives=20,yahtzee=0"),
    ("free-joker", "yahtzee=50,sixes=24"),
    ("no-bonus", "yahtzee=50,fives=15"),
    ("two-rolls", "twos=6,chance=22"),
    ("yatzy", "ones=3,one_pair=12,yatzy=50"),
]


@pytest.mark.parametrize("rules, text", STATES)
def test_best_option_over_the_first_roll_averages_to_E(table_of, rules, text):
    table = table_of(rules)
    card = Scorecard.parse(text, rules)
    turn = TurnAdvisor(card, table)
    first = card.rules.rolls_per_turn - 1
    best = np.array([turn.advise(d, first).best.expected_final for d in ALL_DICE])
    expected = float(ROLL_PROBABILITY @ best) - card.total
    assert expected == pytest.approx(table.value(card.mask, card.upper, card.flag),
                                     abs=1e-9, rel=0)


@pytest.mark.parametrize("rules, text", [STATES[1], STATES[3], STATES[6], STATES[7]])
def test_keep_values_are_expectations_of_the_next_roll(table_of, rules, text):
    """Independent of the kernels' one-die-at-a-time trick: K_j(k) = sum_r P(r|k) V_{j-1}(r)."""
    table = table_of(rules)
    card = Scorecard.parse(text, rules)
    turn = TurnAdvisor(card, table)
    per_turn = card.rules.rolls_per_turn
    best = {j: np.array([turn.advise(d, j).best.expected_final for d in ALL_DICE])
            for j in range(per_turn - 1)}
    for dice in (Dice("22256"), Dice("13456"), Dice("66661")):
        for j in range(1, per_turn):
            for option in turn.advise(dice, j).options:
                if option.is_keep:
                    outcome = keep_outcome_probabilities(option.keep.index)
                    assert option.expected_final == pytest.approx(
                        float(outcome @ best[j - 1]), abs=1e-9, rel=0)


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
