"""Scoring against every worked example and edge case of docs/rules.md, for each rule set."""

from __future__ import annotations

import numpy as np
import pytest

from solver.errors import InvalidCardError, UnknownRulesError
from solver.game.dice import ROLL_COUNTS, ROLLS
from solver.game.rules import RULE_NAMES, get_rules

OFFICIAL = get_rules("official")
YAHTZEE_NAMES = ("aces", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
                 "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee",
                 "chance")
YATZY_NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes", "one_pair", "two_pairs",
               "three_of_a_kind", "four_of_a_kind", "small_straight", "large_straight",
               "full_house", "chance", "yatzy")


def faces(text: str) -> tuple[int, ...]:
    return tuple(int(ch) for ch in text)


def mask_of(rules, *names: str) -> int:
    """Filled mask with the named boxes filled."""
    return sum(1 << rules.box_index(n) for n in names)


def all_but(rules, *names: str) -> int:
    """Filled mask with every box filled except the named ones."""
    return rules.full_mask & ~mask_of(rules, *names)


def allowed(rules, dice: str, filled: int, holds_50: bool) -> dict[str, tuple[int, int]]:
    """box name -> (points, Yahtzee bonus) of every placement the rules allow."""
    return {rules.boxes[p.box].name: (p.points, p.yahtzee_bonus)
            for p in rules.placements(faces(dice), filled, holds_50)}


# ---------------------------------------------------------------- official scoring

@pytest.mark.parametrize(("dice", "box", "points"), [
    # Worked examples from the rule sheet.
    ("22256", "twos", 6), ("22256", "three_of_a_kind", 17), ("22256", "chance", 17),
    ("22256", "full_house", 0),
    ("44416", "fours", 12),
    ("23345", "small_straight", 30), ("23345", "large_straight", 0),
    ("55552", "four_of_a_kind", 22), ("55552", "fives", 20),
    # Edge cases.
    ("12346", "small_straight", 30), ("12346", "large_straight", 0),
    ("12356", "small_straight", 0),
    ("11234", "small_straight", 30), ("34566", "small_straight", 30),
    ("33333", "full_house", 0), ("33333", "four_of_a_kind", 15), ("33333", "yahtzee", 50),
    ("33333", "three_of_a_kind", 15), ("33333", "threes", 15), ("33333", "chance", 15),
    # The table of boxes.
    ("12345", "large_straight", 40), ("23456", "large_straight", 40),
    ("12345", "small_straight", 30), ("65432", "small_straight", 30),
    ("33322", "full_house", 25), ("66611", "full_house", 25), ("33332", "full_house", 0),
    ("33332", "three_of_a_kind", 14), ("33332", "four_of_a_kind", 14),
    ("33322", "four_of_a_kind", 0), ("12356", "three_of_a_kind", 0),
    ("66666", "sixes", 30), ("66666", "aces", 0), ("11112", "yahtzee", 0),
    ("13456", "small_straight", 30), ("12456", "small_straight", 0),
])
def test_official_scores(dice: str, box: str, points: int) -> None:
    assert OFFICIAL.score_all(faces(dice))[box] == points


def test_dice_order_never_matters() -> None:
    assert OFFICIAL.score_all(faces("53432")) == OFFICIAL.score_all(faces("23345"))
    assert OFFICIAL.score_all(faces("62225")) == OFFICIAL.score_all(faces("22256"))


def test_score_all_names_every_box_in_canonical_order() -> None:
    assert tuple(OFFICIAL.score_all(faces("11111"))) == YAHTZEE_NAMES
    assert tuple(b.name for b in OFFICIAL.boxes) == YAHTZEE_NAMES


def test_score_table_matches_score_all() -> None:
    for r in (0, 17, 100, 251):
        expected = OFFICIAL.score_all(tuple(int(f) for f in ROLLS[r]))
        assert list(OFFICIAL.scores[r]) == list(expected.values())


def test_upper_boxes_score_face_times_count_for_every_roll() -> None:
    for r in range(len(ROLLS)):
        for face in range(1, 7):
            assert OFFICIAL.scores[r, face - 1] == face * ROLL_COUNTS[r, face - 1]


def test_a_large_straight_may_be_entered_as_a_small_one() -> None:
    got = allowed(OFFICIAL, "12345", all_but(OFFICIAL, "small_straight"), False)
    assert got == {"small_straight": (30, 0)}


def test_a_roll_fills_exactly_one_open_box_never_a_filled_one() -> None:
    filled = mask_of(OFFICIAL, "twos", "chance")
    got = allowed(OFFICIAL, "22256", filled, False)
    assert set(got) == set(YAHTZEE_NAMES) - {"twos", "chance"}
    assert got["three_of_a_kind"] == (17, 0)


def test_multi_roll_example_final_choices() -> None:
    # Roll 3 = 5,5,5,5,2 on an empty card: Four of a Kind 22 or Fives 20 (among others).
    got = allowed(OFFICIAL, "55552", 0, False)
    assert got["four_of_a_kind"] == (22, 0)
    assert got["fives"] == (20, 0)
    assert len(got) == 13


# ---------------------------------------------------------------- official Joker

YZ_FIVES = ("yahtzee", "fives")


def test_five_alike_with_yahtzee_box_empty_score_as_any_roll() -> None:
    got = allowed(OFFICIAL, "33333", mask_of(OFFICIAL, "threes"), False)
    assert got["yahtzee"] == (50, 0)
    assert got["full_house"] == (0, 0)
    assert got["small_straight"] == (0, 0)
    assert got["large_straight"] == (0, 0)
    assert got["four_of_a_kind"] == (15, 0)
    assert got["aces"] == (0, 0)
    assert len(got) == 12


def test_joker_fives_filled_large_straight_40_plus_bonus_lower_boxes_only() -> None:
    got = allowed(OFFICIAL, "55555", mask_of(OFFICIAL, *YZ_FIVES), True)
    assert got == {"three_of_a_kind": (25, 100), "four_of_a_kind": (25, 100),
                   "full_house": (25, 100), "small_straight": (30, 100),
                   "large_straight": (40, 100), "chance": (25, 100)}


def test_joker_with_zero_in_yahtzee_box_earns_no_bonus() -> None:
    got = allowed(OFFICIAL, "55555", mask_of(OFFICIAL, *YZ_FIVES), False)
    assert got["large_straight"] == (40, 0)
    assert set(got) == {"three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
                        "large_straight", "chance"}
    assert all(bonus == 0 for _, bonus in got.values())


@pytest.mark.parametrize("holds_50", [True, False])
def test_joker_matching_upper_box_empty_is_forced(holds_50: bool) -> None:
    got = allowed(OFFICIAL, "55555", mask_of(OFFICIAL, "yahtzee"), holds_50)
    assert got == {"fives": (25, 100 if holds_50 else 0)}


def test_joker_five_twos_go_in_twos() -> None:
    assert allowed(OFFICIAL, "22222", mask_of(OFFICIAL, "yahtzee"), True) == {"twos": (10, 100)}


def test_joker_zero_in_fives_is_a_filled_box_so_step_2_applies() -> None:
    # Which entry the Fives box holds is not part of the state: filled is filled.
    got = allowed(OFFICIAL, "55555", mask_of(OFFICIAL, *YZ_FIVES, "full_house"), True)
    assert "fives" not in got
    assert got["small_straight"] == (30, 100)
    assert "full_house" not in got


def test_joker_step_2_one_lower_box_left() -> None:
    filled = all_but(OFFICIAL, "aces", "sixes", "small_straight")
    assert allowed(OFFICIAL, "55555", filled, True) == {"small_straight": (30, 100)}


def test_joker_step_3_zero_in_any_open_upper_box() -> None:
    filled = all_but(OFFICIAL, "aces", "threes", "sixes")
    assert allowed(OFFICIAL, "55555", filled, True) == {
        "aces": (0, 100), "threes": (0, 100), "sixes": (0, 100)}


def test_joker_lower_boxes_score_their_joker_points() -> None:
    got = allowed(OFFICIAL, "66666", mask_of(OFFICIAL, "yahtzee", "sixes"), True)
    assert got == {"three_of_a_kind": (30, 100), "four_of_a_kind": (30, 100),
                   "full_house": (25, 100), "small_straight": (30, 100),
                   "large_straight": (40, 100), "chance": (30, 100)}


def test_last_box_yahtzee_scores_50_without_bonus() -> None:
    got = allowed(OFFICIAL, "44444", all_but(OFFICIAL, "yahtzee"), False)
    assert got == {"yahtzee": (50, 0)}


def test_joker_does_not_apply_to_four_alike() -> None:
    got = allowed(OFFICIAL, "44443", mask_of(OFFICIAL, "yahtzee"), True)
    assert got["full_house"] == (0, 0)
    assert got["large_straight"] == (0, 0)
    assert len(got) == 12


def test_full_card_has_no_placement() -> None:
    with pytest.raises(ValueError):
        OFFICIAL.placements(faces("12345"), OFFICIAL.full_mask, False)


# ---------------------------------------------------------------- free-joker

FREE = get_rules("free-joker")


def test_free_joker_scores_like_official() -> None:
    assert np.array_equal(FREE.scores, OFFICIAL.scores)
    assert (FREE.rolls_per_turn, FREE.upper_bonus, FREE.yahtzee_bonus) == (3, 35, 100)


def test_free_joker_matching_upper_filled_any_open_box_with_joker_points() -> None:
    got = allowed(FREE, "55555", mask_of(FREE, *YZ_FIVES), True)
    assert got["full_house"] == (25, 100)
    assert got["small_straight"] == (30, 100)
    assert got["large_straight"] == (40, 100)
    assert got["chance"] == (25, 100)
    assert got["aces"] == (0, 100)  # nothing forced: upper boxes are allowed too
    assert got["sixes"] == (0, 100)
    assert len(got) == 11


def test_free_joker_matching_upper_open_fh_and_straights_score_zero() -> None:
    got = allowed(FREE, "55555", mask_of(FREE, "yahtzee"), True)
    assert got["fives"] == (25, 100)
    assert got["full_house"] == (0, 100)
    assert got["small_straight"] == (0, 100)
    assert got["large_straight"] == (0, 100)
    assert got["four_of_a_kind"] == (25, 100)
    assert got["twos"] == (0, 100)
    assert len(got) == 12


def test_free_joker_zero_in_yahtzee_box_no_bonus() -> None:
    got = allowed(FREE, "55555", mask_of(FREE, *YZ_FIVES), False)
    assert got["large_straight"] == (40, 0)
    assert all(bonus == 0 for _, bonus in got.values())


def test_free_joker_yahtzee_box_empty_is_an_ordinary_roll() -> None:
    got = allowed(FREE, "55555", mask_of(FREE, "fives"), False)
    assert got["yahtzee"] == (50, 0)
    assert got["large_straight"] == (0, 0)


# ---------------------------------------------------------------- no-bonus

NO_BONUS = get_rules("no-bonus")


def test_no_bonus_has_no_yahtzee_bonus_and_no_joker() -> None:
    assert NO_BONUS.yahtzee_bonus == 0
    assert NO_BONUS.upper_bonus == 35
    assert np.array_equal(NO_BONUS.scores, OFFICIAL.scores)
    got = allowed(NO_BONUS, "55555", mask_of(NO_BONUS, *YZ_FIVES), True)
    assert got["full_house"] == (0, 0)
    assert got["small_straight"] == (0, 0)
    assert got["large_straight"] == (0, 0)
    assert got["chance"] == (25, 0)
    assert got["aces"] == (0, 0)
    assert len(got) == 11


def test_no_bonus_five_alike_fives_open_not_forced() -> None:
    got = allowed(NO_BONUS, "55555", mask_of(NO_BONUS, "yahtzee"), True)
    assert got["fives"] == (25, 0)
    assert got["four_of_a_kind"] == (25, 0)
    assert len(got) == 12


# ---------------------------------------------------------------- two-rolls

TWO_ROLLS = get_rules("two-rolls")


def test_two_rolls_is_official_with_two_rolls() -> None:
    assert TWO_ROLLS.rolls_per_turn == 2
    assert OFFICIAL.rolls_per_turn == 3
    assert np.array_equal(TWO_ROLLS.scores, OFFICIAL.scores)
    assert np.array_equal(TWO_ROLLS.joker_tier, OFFICIAL.joker_tier)
    assert np.array_equal(TWO_ROLLS.joker_points, OFFICIAL.joker_points)
    assert (TWO_ROLLS.upper_bonus, TWO_ROLLS.yahtzee_bonus) == (35, 100)
    got = allowed(TWO_ROLLS, "55555", mask_of(TWO_ROLLS, *YZ_FIVES), True)
    assert got["large_straight"] == (40, 100)
    assert "aces" not in got


# ---------------------------------------------------------------- yatzy

YATZY = get_rules("yatzy")


def yatzy(dice: str, box: str) -> int:
    return YATZY.score_all(faces(dice))[box]


def test_yatzy_has_15_boxes_in_interface_order() -> None:
    assert tuple(b.name for b in YATZY.boxes) == YATZY_NAMES
    assert YATZY.n_boxes == 15
    assert (YATZY.upper_bonus, YATZY.yahtzee_bonus, YATZY.rolls_per_turn) == (50, 0, 3)


@pytest.mark.parametrize(("dice", "box", "points"), [
    ("66551", "one_pair", 12), ("12345", "one_pair", 0), ("22225", "one_pair", 4),
    ("33355", "two_pairs", 16), ("33335", "two_pairs", 0), ("33333", "two_pairs", 0),
    ("11226", "two_pairs", 6), ("12346", "two_pairs", 0),
    ("44442", "three_of_a_kind", 12), ("44442", "four_of_a_kind", 16),
    ("66666", "three_of_a_kind", 18), ("66666", "four_of_a_kind", 24),
    ("44422", "four_of_a_kind", 0), ("44123", "three_of_a_kind", 0),
    ("12345", "small_straight", 15), ("23456", "small_straight", 0),
    ("12346", "small_straight", 0), ("11234", "small_straight", 0),
    ("23456", "large_straight", 20), ("12345", "large_straight", 0),
    ("33355", "full_house", 19), ("66611", "full_house", 20), ("55555", "full_house", 0),
    ("33335", "full_house", 0),
    ("12356", "chance", 17), ("55555", "yatzy", 50), ("55554", "yatzy", 0),
    ("44416", "fours", 12), ("11111", "ones", 5),
])
def test_yatzy_scores(dice: str, box: str, points: int) -> None:
    assert yatzy(dice, box) == points


def test_yatzy_five_alike_never_joker_nor_bonus() -> None:
    got = allowed(YATZY, "55555", mask_of(YATZY, "yatzy", "fives"), False)
    assert got["full_house"] == (0, 0)
    assert got["large_straight"] == (0, 0)
    assert got["chance"] == (25, 0)
    assert got["ones"] == (0, 0)
    assert len(got) == 13


def test_yatzy_upper_bonus_is_50_at_63() -> None:
    # (capped upper subtotal, upper bonus earned) after points in an upper box
    assert YATZY.after_box(0, 60, 0, 0, 3)[1::2] == (63, 50)
    assert YATZY.after_box(0, 60, 0, 0, 2)[1::2] == (62, 0)
    assert YATZY.after_box(0, 63, 0, 0, 6)[1::2] == (63, 0)
    assert OFFICIAL.after_box(0, 55, 0, 0, 12)[1::2] == (63, 35)


def test_yatzy_has_no_yahtzee_flag() -> None:
    assert YATZY.table_shape == (1 << 15, 64, 1)
    assert OFFICIAL.table_shape == (1 << 13, 64, 2)
    assert NO_BONUS.table_shape == (1 << 13, 64, 1)


# ---------------------------------------------------------------- possible points

@pytest.mark.parametrize(("box", "points", "possible"), [
    ("twos", 7, False), ("twos", 10, True), ("twos", 0, True),
    ("full_house", 20, False), ("full_house", 25, True),
    ("yahtzee", 30, False), ("yahtzee", 50, True), ("yahtzee", 0, True),
    ("sixes", 36, False), ("sixes", 30, True),
    ("small_straight", 30, True), ("small_straight", 15, False),
    ("large_straight", 40, True), ("large_straight", 30, False),
    ("chance", 5, True), ("chance", 30, True), ("chance", 31, False), ("chance", 4, False),
    ("three_of_a_kind", 5, True), ("three_of_a_kind", 6, True),
    ("three_of_a_kind", 4, False), ("three_of_a_kind", 31, False),
])
def test_official_possible_points(box: str, points: int, possible: bool) -> None:
    assert (points in OFFICIAL.possible_points(OFFICIAL.box_index(box))) is possible


def test_yatzy_possible_points() -> None:
    full_house = YATZY.possible_points(YATZY.box_index("full_house"))
    assert 7 in full_house and 28 in full_house and 25 not in full_house
    assert YATZY.possible_points(YATZY.box_index("small_straight")) == {0, 15}
    assert YATZY.possible_points(YATZY.box_index("two_pairs")) == {
        0, 6, 8, 10, 12, 14, 16, 18, 20, 22}


# ---------------------------------------------------------------- box names

@pytest.mark.parametrize(("name", "index"), [
    ("aces", 0), ("ones", 0), ("1s", 0), ("ACES", 0), ("twos", 1), ("2s", 1), ("3s", 2),
    ("4s", 3), ("5s", 4), ("6s", 5), ("Sixes", 5),
    ("three_of_a_kind", 6), ("three-of-a-kind", 6), ("Three-Of-A-Kind", 6), ("3k", 6),
    ("3K", 6), ("four_of_a_kind", 7), ("4k", 7), ("full_house", 8), ("full-house", 8),
    ("FH", 8), ("small_straight", 9), ("ss", 9), ("large-straight", 10), ("LS", 10),
    ("yahtzee", 11), ("yz", 11), ("YZ", 11), ("chance", 12), ("ch", 12),
])
def test_official_box_index_names_and_aliases(name: str, index: int) -> None:
    assert OFFICIAL.box_index(name) == index


@pytest.mark.parametrize(("name", "index"), [
    ("ones", 0), ("1s", 0), ("one_pair", 6), ("one-pair", 6), ("two_pairs", 7),
    ("Two-Pairs", 7), ("3k", 8), ("4k", 9), ("ss", 10), ("ls", 11), ("fh", 12),
    ("chance", 13), ("yatzy", 14), ("YZ", 14),
])
def test_yatzy_box_index_names_and_aliases(name: str, index: int) -> None:
    assert YATZY.box_index(name) == index


@pytest.mark.parametrize(("rules_name", "name"), [
    ("official", "one_pair"), ("official", "bogus"), ("official", "three_of_kind"),
    ("yatzy", "yahtzee_bonus"), ("official", ""),
])
def test_unknown_box_names_are_refused_with_the_valid_ones(rules_name: str, name: str) -> None:
    rules = get_rules(rules_name)
    with pytest.raises(InvalidCardError) as err:
        rules.box_index(name)
    assert isinstance(err.value, ValueError)
    assert rules.boxes[-1].name in str(err.value)


# ---------------------------------------------------------------- rule-set names

def test_rule_sets_are_the_five_named_ones() -> None:
    assert set(RULE_NAMES) == {"official", "free-joker", "no-bonus", "two-rolls", "yatzy"}
    assert get_rules().name == "official"
    assert get_rules("Free_Joker") is FREE


def test_unknown_rule_set_lists_the_valid_ones() -> None:
    with pytest.raises(UnknownRulesError) as err:
        get_rules("hasbro-2024")
    assert isinstance(err.value, ValueError)
    for name in RULE_NAMES:
        assert name in str(err.value)


def test_placements_refuse_a_yahtzee_flag_on_an_open_yahtzee_box() -> None:
    import pytest

    from solver.errors import InvalidCardError
    from solver.game.rules import get_rules

    with pytest.raises(InvalidCardError, match="cannot hold 50"):
        get_rules("official").placements((5, 5, 5, 5, 5), 0, True)
