"""The production score and Joker tables, entry by entry, against the independent scorer
(``tests/oracles/independent_scorer.py``, written from the rule book alone).

The scorer is first checked on the rule book's own worked examples and edge cases, then
every rule set's tables are compared with it: all 252 rolls in every box, and the Joker's
allowed boxes and points for every face and every pattern of filled boxes.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from solver.game.dice import ROLLS
from solver.game.rules import RULE_NAMES, get_rules, joker_lowest_tier
from tests.oracles.independent_scorer import (
    ALL_ROLLS,
    RULE_BOOKS,
    YAHTZEE_CARD,
    grand_total,
    joker_choices,
    ordinary_score,
    placements,
    yahtzee_score,
    yatzy_score,
)

OFFICIAL = RULE_BOOKS["official"]


# ---------------------------------------------------------------- the scorer itself
@pytest.mark.parametrize(("dice", "box", "points"), [
    ((2, 2, 2, 5, 6), "twos", 6), ((2, 2, 2, 5, 6), "three_of_a_kind", 17),
    ((2, 2, 2, 5, 6), "chance", 17), ((2, 2, 2, 5, 6), "full_house", 0),
    ((4, 4, 4, 1, 6), "fours", 12), ((2, 3, 3, 4, 5), "small_straight", 30),
    ((2, 3, 3, 4, 5), "large_straight", 0), ((5, 5, 5, 5, 2), "four_of_a_kind", 22),
    ((5, 5, 5, 5, 2), "fives", 20), ((1, 2, 3, 4, 6), "small_straight", 30),
    ((1, 2, 3, 4, 6), "large_straight", 0), ((1, 2, 3, 5, 6), "small_straight", 0),
    ((1, 1, 2, 3, 4), "small_straight", 30), ((3, 4, 5, 6, 6), "small_straight", 30),
    ((3, 3, 3, 3, 3), "full_house", 0), ((3, 3, 3, 3, 3), "four_of_a_kind", 15),
    ((3, 3, 3, 3, 3), "yahtzee", 50), ((6, 5, 4, 3, 2), "large_straight", 40),
    ((1, 2, 3, 4, 5), "small_straight", 30), ((2, 2, 3, 3, 3), "full_house", 25),
])
def test_rule_book_examples(dice, box, points):
    assert yahtzee_score(box, dice) == points


@pytest.mark.parametrize(("dice", "box", "points"), [
    ((6, 6, 5, 5, 1), "one_pair", 12), ((3, 3, 3, 5, 5), "two_pairs", 16),
    ((3, 3, 3, 3, 5), "two_pairs", 0), ((4, 4, 4, 4, 4), "two_pairs", 0),
    ((4, 4, 4, 4, 2), "three_of_a_kind", 12), ((4, 4, 4, 4, 2), "four_of_a_kind", 16),
    ((1, 2, 3, 4, 5), "small_straight", 15), ((2, 3, 4, 5, 6), "small_straight", 0),
    ((2, 3, 4, 5, 6), "large_straight", 20), ((1, 2, 3, 4, 5), "large_straight", 0),
    ((2, 2, 5, 5, 5), "full_house", 19), ((5, 5, 5, 5, 5), "full_house", 0),
    ((5, 5, 5, 5, 5), "yatzy", 50), ((1, 1, 2, 3, 3), "ones", 2),
    ((1, 1, 2, 3, 3), "chance", 10),
])
def test_yatzy_rule_book_examples(dice, box, points):
    assert yatzy_score(box, dice) == points


def test_joker_worked_examples_of_the_rule_book():
    filled = {"yahtzee", "fives"}
    assert placements(OFFICIAL, (5,) * 5, filled, True) == [
        ("three_of_a_kind", 25, 100), ("four_of_a_kind", 25, 100), ("full_house", 25, 100),
        ("small_straight", 30, 100), ("large_straight", 40, 100), ("chance", 25, 100)]
    assert ("large_straight", 40, 0) in placements(OFFICIAL, (5,) * 5, filled, False)
    assert placements(OFFICIAL, (5,) * 5, {"yahtzee"}, True) == [("fives", 25, 100)]
    lower_full = set(YAHTZEE_CARD) - {"aces", "twos"}
    assert placements(OFFICIAL, (5,) * 5, lower_full, True) == [("aces", 0, 100),
                                                                ("twos", 0, 100)]
    # Yahtzee box still empty: an ordinary roll, no bonus.
    assert ("full_house", 0, 0) in placements(OFFICIAL, (3,) * 5, {"threes"}, False)
    free = RULE_BOOKS["free-joker"]
    assert joker_choices(free, 2, {"yahtzee"})["full_house"] == 0
    assert joker_choices(free, 2, {"yahtzee", "twos"})["full_house"] == 25
    assert joker_choices(free, 2, {"yahtzee"})["twos"] == 10
    assert ("large_straight", 0, 0) in placements(RULE_BOOKS["no-bonus"], (4,) * 5,
                                                  {"yahtzee"}, False)


def test_grand_total_example():
    entries = {"aces": 3, "twos": 6, "threes": 12, "fours": 16, "fives": 15, "sixes": 14,
               "chance": 148}
    assert grand_total(OFFICIAL, entries, 2) == 66 + 35 + 148 + 200


def test_the_scorer_imports_nothing_from_the_project():
    source = (Path(__file__).parents[3] / "oracles" / "independent_scorer.py").read_text()
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported <= {"__future__", "collections", "dataclasses", "itertools"}


# ---------------------------------------------------------------- production tables
@pytest.mark.parametrize("rules_name", RULE_NAMES)
def test_rule_parameters(rules_name):
    rules, book = get_rules(rules_name), RULE_BOOKS[rules_name]
    assert tuple(b.name for b in rules.boxes) == book.card
    assert [b.face for b in rules.boxes] == [book.face_of(b) for b in book.card]
    assert rules.rolls_per_turn == book.rolls
    assert rules.upper_bonus == book.upper_bonus
    assert rules.yahtzee_bonus == book.yahtzee_bonus
    assert rules.boxes[rules.yahtzee_box].name == book.yahtzee_box
    assert rules.has_joker == (book.joker != "none")
    assert rules.n_flags == (2 if book.yahtzee_bonus else 1)
    arrays = rules.arrays  # what every kernel reads
    assert arrays.upper_bonus == book.upper_bonus
    assert arrays.yahtzee_bonus == book.yahtzee_bonus
    assert arrays.yahtzee_box == book.card.index(book.yahtzee_box)
    assert arrays.has_joker == (book.joker != "none")
    assert arrays.n_flags == (2 if book.yahtzee_bonus else 1)
    assert arrays.n_rerolls == book.rolls - 1


def test_the_rolls_are_the_252_multisets():
    assert sorted(tuple(int(f) for f in r) for r in ROLLS) == sorted(ALL_ROLLS)


@pytest.mark.parametrize("rules_name", RULE_NAMES)
def test_score_table_entry_by_entry(rules_name):
    rules, book = get_rules(rules_name), RULE_BOOKS[rules_name]
    kernel_scores = rules.arrays.box_scores
    assert kernel_scores.shape == (len(book.card), 252)
    wrong = []
    for r, roll in enumerate(ROLLS):
        dice = tuple(int(f) for f in roll)
        for b, box in enumerate(book.card):
            want = ordinary_score(book, box, dice)
            got = (int(rules.scores[r, b]), int(kernel_scores[b, r]))
            if got != (want, want):
                wrong.append((dice, box, got, want))
    assert wrong == []


def production_joker(rules, face: int, mask: int) -> dict[str, int]:
    """The allowed boxes and points the kernels read from the production Joker tables
    (``rules.arrays``): the open boxes of the lowest tier that has an open box, at
    ``joker_points``."""
    f = face - 1
    tier, points = rules.arrays.joker_tier, rules.arrays.joker_points
    open_boxes = [b for b in range(rules.n_boxes) if not mask >> b & 1]
    low = joker_lowest_tier(f, mask, tier)
    assert low == min(int(tier[f, b]) for b in open_boxes)
    upper_filled = mask >> f & 1
    return {rules.boxes[b].name: int(points[upper_filled, f, b])
            for b in open_boxes if int(tier[f, b]) == low}


def filled_patterns(rules):
    """Every filled mask with the Yahtzee box filled and at least one box open."""
    yz = 1 << rules.yahtzee_box
    return [m for m in range(rules.n_masks) if m & yz and m != rules.full_mask]


def names_of(rules, mask: int) -> frozenset[str]:
    return frozenset(b.name for i, b in enumerate(rules.boxes) if mask >> i & 1)


@pytest.mark.parametrize("rules_name", ["official", "free-joker", "two-rolls"])
def test_joker_tables_for_every_face_and_filled_pattern(rules_name):
    rules, book = get_rules(rules_name), RULE_BOOKS[rules_name]
    wrong = []
    for mask in filled_patterns(rules):
        filled = names_of(rules, mask)
        for face in range(1, 7):
            want = joker_choices(book, face, filled)
            got = production_joker(rules, face, mask)
            if got != want:
                wrong.append((face, sorted(filled), got, want))
    assert wrong[:5] == []


def as_names(rules, placement_list) -> list[tuple[str, int, int]]:
    return [(rules.boxes[p.box].name, int(p.points), int(p.yahtzee_bonus))
            for p in placement_list]


@pytest.mark.parametrize("rules_name", RULE_NAMES)
def test_placements_of_five_alike_for_every_filled_pattern(rules_name):
    """``rules.placements`` (used by play, advise and the simulator's user strategies):
    five alike on every card with the Yahtzee box filled, with 50 or with 0."""
    rules, book = get_rules(rules_name), RULE_BOOKS[rules_name]
    flags = (False, True) if rules_name != "yatzy" else (False,)
    wrong = []
    for mask in filled_patterns(rules)[:: 1 if rules.n_boxes == 13 else 3]:
        filled = names_of(rules, mask)
        for face in range(1, 7):
            for holds_50 in flags:
                got = as_names(rules, rules.placements((face,) * 5, mask, holds_50))
                want = placements(book, (face,) * 5, filled, holds_50)
                if got != want:
                    wrong.append((face, sorted(filled), holds_50, got, want))
    assert wrong[:5] == []


@pytest.mark.parametrize("rules_name", RULE_NAMES)
def test_placements_of_every_roll_on_sampled_cards(rules_name):
    rules, book = get_rules(rules_name), RULE_BOOKS[rules_name]
    rng = random.Random(14)
    yz = 1 << rules.yahtzee_box
    masks = [0, rules.full_mask & ~1, rules.full_mask & ~(1 << (rules.n_boxes - 1))]
    masks += [rng.randrange(rules.full_mask) for _ in range(40)]
    wrong = []
    for mask in masks:
        filled = names_of(rules, mask)
        for holds_50 in ((False, True) if mask & yz and rules.n_flags == 2 else (False,)):
            for dice in ALL_ROLLS:
                got = as_names(rules, rules.placements(dice, mask, holds_50))
                want = placements(book, dice, filled, holds_50)
                if got != want:
                    wrong.append((dice, sorted(filled), holds_50, got, want))
    assert wrong[:5] == []
